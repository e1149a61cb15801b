//! Heightmaps, splat maps and whole maps on real tiles: samples against the
//! height grid, seams between neighbouring tiles at one range, WDT tiles
//! against the files beside them, splat maps against the alpha render.

use crate::common;

use std::path::PathBuf;

use formats::adt::Adt;
use formats::render;
use formats::terrain::{
    ChunkCoord, HEIGHTMAP_SIDE, Heightmap, SPLAT_SIDE, Stitched, TerrainTile, TileCoord, TileSplat,
    UNIT_SIZE, common_range, locate_tiles, map_tiles, share_seams,
};
use formats::wdt::Wdt;

fn map_folder() -> Option<PathBuf> {
    Some(common::corpus_root()?.join("maps/cataclysmctf"))
}

fn load(path: &std::path::Path) -> (TileCoord, Adt, Heightmap) {
    let adt = Adt::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let tile = TerrainTile::from_adt(&adt).unwrap();
    let map = Heightmap::from_tile(&tile);
    (tile.coord, adt, map)
}

#[test]
fn every_sample_is_the_height_on_the_triangles_there() {
    for (path, adt) in common::corpus_tiles() {
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let map = Heightmap::from_tile(&tile);
        assert_eq!((map.side, map.heights.len()), (257, 257 * 257), "{path}");
        for py in 0..HEIGHTMAP_SIDE {
            for px in 0..HEIGHTMAP_SIDE {
                // The chunk whose north or west edge the sample is on (the
                // last one on the tile's south and east edges), and the
                // sample's place from that chunk's own MCNK position.
                let (cx, cy) = ((px / 16).min(15), (py / 16).min(15));
                let chunk = tile
                    .chunk(ChunkCoord::new(cx as u32, cy as u32).unwrap())
                    .unwrap();
                let grid = chunk.grid.as_ref().unwrap();
                let x = grid.origin[0] - (py - 16 * cy) as f64 * UNIT_SIZE / 2.0;
                let y = grid.origin[1] - (px - 16 * cx) as f64 * UNIT_SIZE / 2.0;
                let expected = grid.height_at(x, y).unwrap() as f32;
                let h = map.get(px, py).unwrap();
                assert!(
                    (h - expected).abs() < 1e-4,
                    "{path} ({px}, {py}): {h} vs {expected}"
                );
            }
        }
        // Outer and inner vertices are samples, exactly.
        let chunk = &tile.chunks[17];
        let grid = chunk.grid.as_ref().unwrap();
        let (cx, cy) = (chunk.coord.x as usize * 16, chunk.coord.y as usize * 16);
        // Sample (4, 6) is outer vertex (column 2, row 3); (5, 7) the inner
        // one south-east of it.
        assert_eq!(map.get(cx + 4, cy + 6), grid.outer(2, 3).map(|h| h as f32));
        assert_eq!(map.get(cx + 5, cy + 7), grid.inner(2, 3).map(|h| h as f32));
    }
}

/// The samples of two neighbouring tiles' `n` x `n` maps on the seam
/// between them: `a`'s east column and `b`'s west one, or (`south`) `a`'s
/// south row and `b`'s north one.
fn seam<T: Copy>(a: &[T], b: &[T], south: bool) -> (Vec<T>, Vec<T>) {
    let n = HEIGHTMAP_SIDE;
    if south {
        (a[(n - 1) * n..].to_vec(), b[..n].to_vec())
    } else {
        let column = |m: &[T], x: usize| (0..n).map(|y| m[y * n + x]).collect();
        (column(a, n - 1), column(b, 0))
    }
}

fn bits(heights: &[f32]) -> Vec<u32> {
    heights.iter().map(|h| h.to_bits()).collect()
}

/// ADT_MANIFEST: 30_27 touches 31_27 (east) and 30_28 (south), 31_27
/// touches 32_27 (east). Each tile stores its own copy of a seam, and the
/// copies differ in the last bit at a few samples; processed together the
/// tiles hold one copy, the southern or eastern tile's, to the bit, as
/// floats and as 16-bit levels.
#[test]
fn neighbouring_tiles_share_their_edge_at_one_range() {
    let Some(folder) = map_folder() else { return };
    let names = ["30_27", "31_27", "30_28", "32_27"];
    let raw: Vec<(TileCoord, Heightmap)> = names
        .iter()
        .map(|t| {
            let (coord, _, map) = load(&folder.join(format!("cataclysmctf_{t}.adt")));
            (coord, map)
        })
        .collect();
    let [a, b, c, d] = [0, 1, 2, 3].map(|i| raw[i].0);
    assert_eq!(
        (a.offset(1, 0), a.offset(0, 1), b.offset(1, 0)),
        (Some(b), Some(c), Some(d))
    );
    // (west or north tile, east or south tile, south?, samples that differ
    // in the tiles' own copies)
    let seams = [(0, 1, false, 5), (1, 3, false, 7), (0, 2, true, 5)];
    for &(first, second, south, differing) in &seams {
        let (x, y) = seam(&raw[first].1.heights, &raw[second].1.heights, south);
        let apart = x.iter().zip(&y).filter(|(x, y)| x.to_bits() != y.to_bits());
        assert!(
            apart
                .clone()
                .all(|(x, y)| (x - y).abs() <= x.abs() * f32::EPSILON)
        );
        assert_eq!(apart.count(), differing, "{names:?} {first} {second}");
    }
    let range = common_range(raw.iter().map(|(_, m)| m)).unwrap();
    // Each tile alone spans less than the four together: per-tile scaling
    // would not match at the seams.
    assert!(raw[0].1.range().unwrap() != range && raw[1].1.range().unwrap() != range);
    let mut shared = raw.clone();
    assert_eq!(share_seams(&mut shared), 5 + 7 + 5);
    // Sharing takes values from the tiles of the set: the range stays.
    assert_eq!(common_range(shared.iter().map(|(_, m)| m)), Some(range));
    for &(first, second, south, _) in &seams {
        let (x, y) = seam(&shared[first].1.heights, &shared[second].1.heights, south);
        assert_eq!(bits(&x), bits(&y), "{first} {second}");
        // The eastern or southern tile's own copy.
        let (_, own) = seam(&raw[first].1.heights, &raw[second].1.heights, south);
        assert_eq!(bits(&y), bits(&own), "{first} {second}");
        let (x, y) = seam(
            &shared[first].1.levels(range),
            &shared[second].1.levels(range),
            south,
        );
        assert_eq!(x, y, "{first} {second}");
    }
    // Only the west and north tiles' east and south edges changed.
    let n = HEIGHTMAP_SIDE;
    for ((coord, before), (_, after)) in raw.iter().zip(&shared) {
        let changed: Vec<usize> = (0..n * n)
            .filter(|i| before.heights[*i].to_bits() != after.heights[*i].to_bits())
            .collect();
        let expected = match (coord.x, coord.y) {
            (30, 27) => 10,
            (31, 27) => 7,
            _ => 0,
        };
        assert_eq!(changed.len(), expected, "{coord:?}");
        assert!(changed.iter().all(|i| i % n == n - 1 || i / n == n - 1));
    }
}

#[test]
fn stitched_tiles_overlap_by_their_edge() {
    let Some(folder) = map_folder() else { return };
    let loaded: Vec<_> = ["30_27", "31_27", "30_28", "32_27"]
        .iter()
        .map(|t| load(&folder.join(format!("cataclysmctf_{t}.adt"))))
        .collect();
    let tiles: Vec<_> = loaded.iter().map(|(t, _, m)| (*t, m)).collect();
    let full = Stitched::new(&tiles, 1).unwrap();
    assert_eq!(
        (full.width, full.height, full.first),
        (769, 513, TileCoord::new(30, 27).unwrap())
    );
    // Tile 31_27 starts 256 samples east of 30_27; 31_28 is missing (NaN).
    let (_, _, east) = &loaded[1];
    assert_eq!(full.heights[10 * 769 + 256 + 3], east.get(3, 10).unwrap());
    assert!(full.heights[300 * 769 + 300].is_nan());
    let coords: Vec<_> = tiles.iter().map(|(t, _)| *t).collect();
    assert_eq!(Stitched::step_for(&coords, 4096), 1);
    assert_eq!(Stitched::step_for(&coords, 400), 2);
    let half = Stitched::new(&tiles, 2).unwrap();
    assert_eq!((half.width, half.height), (385, 257));
    assert_eq!(half.heights[5 * 385 + 128 + 7], east.get(14, 10).unwrap());
    // On a seam the overview holds the eastern or southern tile's sample,
    // whatever order the tiles come in: the overview of the tiles with
    // their seams shared is the same, to the bit.
    let mut shared: Vec<(TileCoord, Heightmap)> =
        loaded.iter().map(|(t, _, m)| (*t, m.clone())).collect();
    assert!(share_seams(&mut shared) > 0);
    let mut pairs: Vec<_> = shared.iter().map(|(t, m)| (*t, m)).collect();
    pairs.reverse();
    let from_shared = Stitched::new(&pairs, 1).unwrap();
    assert_eq!(bits(&from_shared.heights), bits(&full.heights));
    assert_eq!(full.heights[10 * 769 + 256], east.get(0, 10).unwrap());
}

#[test]
fn wdt_tiles_are_found_beside_it_and_missing_ones_listed() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let wdt_path = root.join("maps/cataclysmctf/cataclysmctf.wdt");
    let wdt = Wdt::from_bytes(&std::fs::read(&wdt_path).unwrap()).unwrap();
    let tiles = locate_tiles(&wdt_path, &wdt).unwrap();
    assert_eq!(tiles.len(), 9);
    let found: Vec<_> = tiles.iter().filter(|t| t.path.is_some()).collect();
    assert_eq!(found.len(), 4, "ADT_MANIFEST: four of nine tiles are there");
    for t in &tiles {
        assert!((30..=32).contains(&t.coord.x) && (27..=29).contains(&t.coord.y));
        assert_eq!(
            t.file_name,
            format!("cataclysmctf_{}_{}.adt", t.coord.x, t.coord.y)
        );
        if let Some(path) = &t.path {
            // The tile a file name says is the tile its MCNK positions say.
            let (coord, _, _) = load(path);
            assert_eq!(coord, t.coord);
        }
    }
    // MAIN counts of every map WDT in the corpus (ADT_MANIFEST.md).
    for (name, count) in [
        ("wowserfmt_continent.wdt", 687),
        ("wowserfmt_pvpzone.wdt", 35),
        ("twinpeaks_cataclysmctf.wdt", 9),
        ("bfgilneas_Gilneas_BG_2.wdt", 16),
        ("patch5_Aeven.wdt", 208),
        ("twinpeaks_cataclysmctf_lgt.wdt", 0),
    ] {
        let wdt = Wdt::from_bytes(&std::fs::read(root.join("wdt").join(name)).unwrap()).unwrap();
        assert_eq!(map_tiles(&wdt).len(), count, "{name}");
    }
    // The corpus tiles of those maps are tiles their WDTs list.
    for (wdt, tile) in [
        ("wowserfmt_continent.wdt", (42, 29)),
        ("wowserfmt_pvpzone.wdt", (34, 30)),
        ("bfgilneas_Gilneas_BG_2.wdt", (28, 31)),
        ("patch5_Aeven.wdt", (10, 3)),
    ] {
        let wdt = Wdt::from_bytes(&std::fs::read(root.join("wdt").join(wdt)).unwrap()).unwrap();
        assert!(map_tiles(&wdt).contains(&TileCoord::new(tile.0, tile.1).unwrap()));
    }
}

#[test]
fn splat_maps_hold_every_layer_and_name_its_textures() {
    for (path, adt) in common::corpus_tiles() {
        let flags = render::guess_mphd_flags(&adt);
        let splat = TileSplat::from_adt(&adt, flags).unwrap();
        let most = adt
            .mcnks()
            .map(|m| m.layers().map_or(0, |l| l.layers.len()))
            .max()
            .unwrap();
        assert_eq!(splat.maps.len(), most, "{path}");
        assert_eq!(splat.manifest.chunks.len(), 256);
        let mtex = adt.mtex().unwrap();
        for chunk in &splat.manifest.chunks {
            for layer in &chunk.layers {
                let name = mtex
                    .get(layer.texture_id as usize)
                    .map(|n| String::from_utf8_lossy(n).into_owned());
                assert_eq!(layer.texture, name, "{path}");
                assert_eq!(
                    layer.alpha.is_some(),
                    layer.layer > 0,
                    "{path}: only layer 0 has no alpha"
                );
            }
        }
        // Layers 1..3 are what the RGB alpha render draws in red, green, blue.
        let rgb = render::alpha_maps(&adt, flags).unwrap();
        assert_eq!(rgb.width, SPLAT_SIDE);
        for (layer, map) in splat.maps.iter().enumerate().skip(1).take(3) {
            let channel: Vec<u8> = rgb
                .data
                .iter()
                .skip(layer - 1)
                .step_by(3)
                .copied()
                .collect();
            assert_eq!(&channel, map, "{path} layer {layer}");
        }
        assert!(
            splat.maps[0].iter().all(|v| *v == 0),
            "{path}: layer 0 has no alpha"
        );
    }
}
