//! The typed MDX reader and writer (`formats::mdx::Model`) on the three largest
//! Warcraft III / Reforged corpus files, each next to a copy of the same bytes
//! and the chunk-level walk (the floor).
//!
//! `cargo bench -p benches --bench mdx` (add `-- --quick` for a fast pass).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use formats::chunks::ChunkFile;
use formats::mdx::Model;
use std::hint::black_box;

fn typed_model(c: &mut Criterion) {
    let mut inputs: Vec<(String, Vec<u8>)> = benches::largest_corpus_files("mdx", ".mdx", 4)
        .into_iter()
        .filter(|(_, data)| Model::from_bytes(data).is_ok())
        .take(3)
        .collect();
    if inputs.is_empty() {
        inputs.push(("sample".into(), formats::sample::sample_mdx()));
    }
    let mut g = c.benchmark_group("mdx_model");
    for (name, data) in &inputs {
        let Ok(model) = Model::from_bytes(data) else {
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
            b.iter(|| black_box(Model::from_bytes(black_box(d)).ok()))
        });
        g.bench_with_input(BenchmarkId::new("write", name), &model, |b, m| {
            b.iter(|| black_box(m.to_bytes().ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, typed_model);
criterion_main!(benches);
