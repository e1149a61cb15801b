//! Runtime and chunk-level throughput, each next to a copy of the same bytes.
//!
//! `cargo bench -p benches --bench core` (add `-- --quick` for a fast pass).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use format_core::{Reader, Writer};
use formats::chunks::ChunkFile;
use std::hint::black_box;

/// Bulk plain-data reads and writes of 1M vertices (`[f32; 3]`, 12 MB).
fn plain_arrays(c: &mut Criterion) {
    let count = 1_000_000usize;
    let vertices: Vec<[f32; 3]> = (0..count).map(|i| [i as f32, 0.5, -(i as f32)]).collect();
    let mut w = Writer::new();
    w.plain_slice(&vertices);
    let bytes = w.into_bytes();

    let mut g = c.benchmark_group("plain_vec_1M_vertices");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("copy (to_vec)", |b| {
        b.iter(|| black_box(black_box(&bytes[..]).to_vec()))
    });
    g.bench_function("read", |b| {
        b.iter(|| {
            let mut r = Reader::new(black_box(&bytes));
            black_box(r.plain_vec::<[f32; 3]>(count).unwrap_or_default())
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            let mut w = Writer::with_capacity(Default::default(), bytes.len());
            w.plain_slice(black_box(&vertices));
            black_box(w.into_bytes())
        })
    });
    g.finish();
}

/// The chunk-level reader and writer on the largest corpus files.
fn chunk_walk(c: &mut Criterion) {
    let mut inputs = benches::largest_corpus_files("mdx", ".mdx", 2);
    inputs.extend(benches::largest_corpus_files("adt", ".adt", 1));
    if inputs.is_empty() {
        inputs.push(("sample".into(), formats::sample::sample_mdx()));
    }
    let mut g = c.benchmark_group("chunk_walk");
    for (name, data) in &inputs {
        let Ok(parsed) = ChunkFile::from_bytes(data) else {
            continue;
        };
        g.throughput(Throughput::Bytes(data.len() as u64));
        g.bench_with_input(BenchmarkId::new("copy (to_vec)", name), data, |b, d| {
            b.iter(|| black_box(black_box(&d[..]).to_vec()))
        });
        g.bench_with_input(BenchmarkId::new("parse", name), data, |b, d| {
            b.iter(|| black_box(ChunkFile::from_bytes(black_box(d)).ok()))
        });
        g.bench_with_input(BenchmarkId::new("write", name), &parsed, |b, p| {
            b.iter(|| black_box(p.to_bytes().ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, plain_arrays, chunk_walk);
criterion_main!(benches);
