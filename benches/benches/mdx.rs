//! The typed MDX reader and writer (`formats::mdx::Model`), each input next to
//! a copy of the same bytes and the chunk-level walk (the floor):
//!
//! - `mdx_largest`: the five largest corpus files the strict reader accepts;
//! - `mdx_generated`: the large generated model (1M vertices, 540k keys);
//! - `mdx_by_version`: every corpus file of each version, measured together.
//!
//! `cargo bench -p benches --bench mdx` (add `-- --quick` for a fast pass).

mod common;

use std::collections::BTreeMap;

use common::Input;
use criterion::{Criterion, criterion_group, criterion_main};
use formats::mdx::Model;

fn parse(data: &[u8]) -> Option<Model> {
    Model::from_bytes(data).ok()
}

fn write(model: &Model) -> Option<Vec<u8>> {
    model.to_bytes().ok()
}

fn largest(c: &mut Criterion) {
    let mut inputs: Vec<Input> = benches::corpus_files("mdx", ".mdx")
        .into_iter()
        .filter(|(_, data)| parse(data).is_some())
        .take(5)
        .map(|(name, data)| Input::file(name, data))
        .collect();
    if inputs.is_empty() {
        inputs.push(Input::file("sample", formats::sample::sample_mdx()));
    }
    common::typed_against_copy(c, "mdx_largest", inputs, parse, write);
}

fn generated(c: &mut Criterion) {
    let input = Input::file(
        "16 geosets, 120 bones",
        benches::generated_mdx(16, 120, 1500),
    );
    common::typed_against_copy(c, "mdx_generated", vec![input], parse, write);
}

fn by_version(c: &mut Criterion) {
    let mut versions: BTreeMap<u32, Vec<Vec<u8>>> = BTreeMap::new();
    for (_, data) in benches::corpus_files("mdx", ".mdx") {
        // Files the strict reader refuses (the LITE quirk) are left out.
        if let Some(model) = parse(&data) {
            versions.entry(model.version()).or_default().push(data);
        }
    }
    let inputs = versions
        .into_iter()
        .map(|(version, files)| Input {
            name: format!("v{version} ({} files)", files.len()),
            files,
        })
        .collect();
    common::typed_against_copy(c, "mdx_by_version", inputs, parse, write);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = largest, generated, by_version
}
criterion_main!(benches);
