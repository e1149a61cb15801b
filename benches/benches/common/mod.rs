//! Shared by the benchmarks of the typed readers (each bench binary includes it).

/// One criterion group over real files: per file, a copy of its bytes
/// (`to_vec`, the ceiling), the chunk-level walk (the floor), the typed
/// `parse`, and `write` of what `parse` returned, so the ratios come from one
/// run. Files `parse` refuses are left out.
pub fn typed_against_copy<T>(
    c: &mut criterion::Criterion,
    group: &str,
    inputs: &[(String, Vec<u8>)],
    parse: impl Fn(&[u8]) -> Option<T>,
    write: impl Fn(&T) -> Option<Vec<u8>>,
) {
    use criterion::{BenchmarkId, Throughput};
    use std::hint::black_box;

    let mut g = c.benchmark_group(group);
    for (name, data) in inputs {
        let Some(value) = parse(data) else {
            continue;
        };
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_with_input(BenchmarkId::new("copy (to_vec)", name), data, |b, d| {
            b.iter(|| black_box(black_box(&d[..]).to_vec()))
        });
        g.bench_with_input(BenchmarkId::new("chunk walk", name), data, |b, d| {
            b.iter(|| black_box(formats::chunks::ChunkFile::from_bytes(black_box(d)).ok()))
        });
        g.bench_with_input(BenchmarkId::new("parse", name), data, |b, d| {
            b.iter(|| black_box(parse(black_box(d))))
        });
        g.bench_with_input(BenchmarkId::new("write", name), &value, |b, v| {
            b.iter(|| black_box(write(v)))
        });
    }
    g.finish();
}
