//! `formats::terrain` on parsed tiles (parsing itself is `adt.rs`'s):
//!
//! - `terrain_tile`: per tile, its world-space terrain (`TerrainTile`), its
//!   257x257 heightmap, its triangle mesh, its splat maps, and the whole
//!   glTF export from the parsed tile to `.glb` bytes (`gltf`), each on the
//!   three largest corpus tiles.
//!
//! `cargo bench -p benches --bench terrain` (add `-- --quick` for a fast pass).

mod common;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use formats::adt::Adt;
use formats::gltf::export_tile;
use formats::render::guess_mphd_flags;
use formats::terrain::{Heightmap, TerrainTile, TileMesh, TileSplat};

fn terrain(c: &mut Criterion) {
    let mut group = c.benchmark_group("terrain_tile");
    for (name, data) in benches::largest_corpus_files("adt", ".adt", 3) {
        let Ok(adt) = Adt::from_bytes(&data) else {
            eprintln!("{name}: does not parse, left out");
            continue;
        };
        let Ok(tile) = TerrainTile::from_adt(&adt) else {
            continue;
        };
        group.throughput(Throughput::Bytes(data.len() as u64));
        group.bench_with_input(BenchmarkId::new("terrain", &name), &adt, |b, adt| {
            b.iter(|| TerrainTile::from_adt(black_box(adt)).ok())
        });
        group.bench_with_input(BenchmarkId::new("heightmap", &name), &tile, |b, tile| {
            b.iter(|| Heightmap::from_tile(black_box(tile)))
        });
        group.bench_with_input(BenchmarkId::new("mesh", &name), &tile, |b, tile| {
            b.iter(|| TileMesh::from_tile(black_box(tile)))
        });
        group.bench_with_input(BenchmarkId::new("gltf", &name), &adt, |b, adt| {
            b.iter(|| export_tile(black_box(adt), "tile").and_then(|e| e.document.to_glb()))
        });
        let flags = guess_mphd_flags(&adt);
        group.bench_with_input(BenchmarkId::new("splat", &name), &adt, |b, adt| {
            b.iter(|| TileSplat::from_adt(black_box(adt), flags).ok())
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = terrain
}
criterion_main!(benches);
