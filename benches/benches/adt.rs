//! The typed terrain readers and writers, each input next to a copy of the
//! same bytes and the chunk-level walk (the floor):
//!
//! - `adt_tile`: `formats::adt::Adt` on the three largest corpus tiles;
//! - `adt_all`: every corpus tile, measured together;
//! - `wdt_all`: `formats::wdt::Wdt` on every corpus map, measured together.
//!
//! `cargo bench -p benches --bench adt` (add `-- --quick` for a fast pass).

mod common;

use common::Input;
use criterion::{Criterion, criterion_group, criterion_main};
use formats::adt::Adt;
use formats::wdt::Wdt;

fn parse(data: &[u8]) -> Option<Adt> {
    Adt::from_bytes(data).ok()
}

fn write(tile: &Adt) -> Option<Vec<u8>> {
    tile.to_bytes().ok()
}

fn tiles(c: &mut Criterion) {
    let inputs = benches::largest_corpus_files("adt", ".adt", 3)
        .into_iter()
        .map(|(name, data)| Input::file(name, data))
        .collect();
    common::typed_against_copy(c, "adt_tile", inputs, parse, write);
}

fn all_tiles(c: &mut Criterion) {
    let files: Vec<Vec<u8>> = benches::corpus_files("adt", ".adt")
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    let name = format!("{} tiles", files.len());
    common::typed_against_copy(c, "adt_all", vec![Input { name, files }], parse, write);
}

fn all_maps(c: &mut Criterion) {
    let files: Vec<Vec<u8>> = benches::corpus_files("wdt", ".wdt")
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    let name = format!("{} maps", files.len());
    common::typed_against_copy(
        c,
        "wdt_all",
        vec![Input { name, files }],
        |d| Wdt::from_bytes(d).ok(),
        |m| m.to_bytes().ok(),
    );
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = tiles, all_tiles, all_maps
}
criterion_main!(benches);
