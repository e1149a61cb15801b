//! The typed ADT reader and writer (`formats::adt::Adt`) on the three largest
//! corpus tiles, each next to a copy of the same bytes and the chunk-level walk
//! (the floor).
//!
//! `cargo bench -p benches --bench adt` (add `-- --quick` for a fast pass).

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use formats::adt::Adt;

fn typed_tile(c: &mut Criterion) {
    let inputs = benches::largest_corpus_files("adt", ".adt", 3);
    common::typed_against_copy(
        c,
        "adt_tile",
        &inputs,
        |d| Adt::from_bytes(d).ok(),
        |t| t.to_bytes().ok(),
    );
}

criterion_group!(benches, typed_tile);
criterion_main!(benches);
