//! The typed MDX reader and writer (`formats::mdx::Model`) on the three largest
//! Warcraft III / Reforged corpus files, each next to a copy of the same bytes
//! and the chunk-level walk (the floor).
//!
//! `cargo bench -p benches --bench mdx` (add `-- --quick` for a fast pass).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use formats::mdx::Model;

fn typed_model(c: &mut Criterion) {
    let mut inputs: Vec<(String, Vec<u8>)> = benches::largest_corpus_files("mdx", ".mdx", 4)
        .into_iter()
        .filter(|(_, data)| Model::from_bytes(data).is_ok())
        .take(3)
        .collect();
    if inputs.is_empty() {
        inputs.push(("sample".into(), formats::sample::sample_mdx()));
    }
    common::typed_against_copy(
        c,
        "mdx_model",
        &inputs,
        |d| Model::from_bytes(d).ok(),
        |m| m.to_bytes().ok(),
    );
}

criterion_group!(benches, typed_model);
criterion_main!(benches);
