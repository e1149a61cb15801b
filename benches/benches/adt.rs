//! The typed ADT reader and writer (`formats::adt::Adt`) on the three largest
//! corpus tiles, each next to a copy of the same bytes and the chunk-level walk
//! (the floor).
//!
//! `cargo bench -p benches --bench adt` (add `-- --quick` for a fast pass).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use formats::adt::Adt;
use formats::chunks::ChunkFile;
use std::hint::black_box;

fn typed_tile(c: &mut Criterion) {
    let inputs: Vec<(String, Vec<u8>)> = benches::largest_corpus_files("adt", ".adt", 3)
        .into_iter()
        .filter(|(_, data)| Adt::from_bytes(data).is_ok())
        .take(3)
        .collect();
    if inputs.is_empty() {
        return;
    }
    let mut g = c.benchmark_group("adt_tile");
    for (name, data) in &inputs {
        let Ok(tile) = Adt::from_bytes(data) else {
            continue;
        };
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_with_input(BenchmarkId::new("copy (to_vec)", name), data, |b, d| {
            b.iter(|| black_box(black_box(&d[..]).to_vec()))
        });
        g.bench_with_input(BenchmarkId::new("chunk walk", name), data, |b, d| {
            b.iter(|| black_box(ChunkFile::from_bytes(black_box(d)).ok()))
        });
        g.bench_with_input(BenchmarkId::new("parse", name), data, |b, d| {
            b.iter(|| black_box(Adt::from_bytes(black_box(d)).ok()))
        });
        g.bench_with_input(BenchmarkId::new("write", name), &tile, |b, m| {
            b.iter(|| black_box(m.to_bytes().ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, typed_tile);
criterion_main!(benches);
