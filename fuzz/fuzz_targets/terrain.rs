//! Any bytes the reader accepts as a tile -> what map makers and engine
//! users take from it: the height grid and heights at points, the glTF tile
//! export, heightmaps, splat maps and liquids. None may panic, hang or
//! allocate without bound; the glTF a tile exports serializes.
#![no_main]

use formats::adt::Adt;
use formats::terrain::{Heightmap, TerrainTile, TileSplat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(adt) = Adt::from_bytes(data) else {
        return;
    };
    if let Ok(tile) = TerrainTile::from_adt(&adt) {
        let bounds = tile.bounds();
        let _ = tile.misplaced_chunks();
        for (fx, fy) in [(0.5, 0.5), (0.0, 0.0), (0.999, 0.25)] {
            let x = bounds.min_x + (bounds.max_x - bounds.min_x) * fx;
            let y = bounds.min_y + (bounds.max_y - bounds.min_y) * fy;
            let _ = tile.height_at(x, y);
            let _ = tile.is_hole_at(x, y);
        }
        let map = Heightmap::from_tile(&tile);
        if let Some(range) = map.range() {
            let _ = map.levels(range);
        }
        let _ = map.thumbnail(4);
        let _ = formats::terrain::liquids(&adt, tile.coord);
    }
    if let Ok(out) = formats::gltf::export_tile(&adt, "fuzz") {
        out.document.to_glb().expect("an exported tile serializes");
    }
    for flags in [0, 0x4, 0x84] {
        let _ = TileSplat::from_adt(&adt, flags);
    }
    let _ = formats::render::heightmap(&adt);
    let _ = formats::render::alpha_maps(&adt, formats::render::guess_mphd_flags(&adt));
    let _ = formats::validate::adt::tile(&adt);
});
