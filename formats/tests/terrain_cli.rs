//! `formats render` on a whole map and on tiles: the files it writes, read
//! back with the png crate, serde_json and (independently) Pillow.

#![cfg(feature = "cli")]

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use formats::adt::Adt;
use formats::terrain::{HEIGHTMAP_SIDE, Heightmap, TerrainTile};
use predicates::prelude::*;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("formats-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A 16-bit gray PNG's size and levels.
fn gray16(path: &Path) -> (u32, u32, Vec<u16>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Grayscale, png::BitDepth::Sixteen)
    );
    let levels = buf[..info.buffer_size()]
        .chunks_exact(2)
        .map(|p| u16::from_be_bytes([p[0], p[1]]))
        .collect();
    (info.width, info.height, levels)
}

/// Pillow's reading of a float TIFF: every value (None if Pillow is not
/// installed, which fails under CI=true).
fn pillow_floats(path: &Path) -> Option<Vec<f32>> {
    let image = common::pillow_read(&[path.to_path_buf()])?.remove(0);
    assert_eq!(image.size, (HEIGHTMAP_SIDE, HEIGHTMAP_SIDE));
    Some(image.f32s())
}

/// Every corpus tile rendered at once (heightmaps at one range, splat maps):
/// every PNG and TIFF the tool wrote, read by Pillow, holds the library's
/// values.
#[test]
fn pillow_reads_every_image_the_tool_writes_for_the_corpus_tiles() {
    let tiles = common::corpus_tiles();
    if tiles.is_empty() {
        return;
    }
    let root = common::corpus_root().unwrap();
    let out = temp("pillow");
    let (heights, splat) = (out.join("heights"), out.join("splat"));
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render")
        .args(tiles.iter().map(|(path, _)| root.join(path)))
        .arg("--heightmap")
        .arg(&heights)
        .arg("--splat")
        .arg(&splat);
    cmd.assert().success();
    let maps: Vec<(String, Heightmap)> = tiles
        .iter()
        .map(|(path, adt)| {
            let stem = Path::new(path).file_stem().unwrap().to_string_lossy();
            let map = Heightmap::from_tile(&TerrainTile::from_adt(adt).unwrap());
            (stem.into_owned(), map)
        })
        .collect();
    let range = formats::terrain::common_range(maps.iter().map(|(_, m)| m)).unwrap();
    // Heightmaps: 16-bit PNG levels and float TIFF heights, per tile.
    let mut files = Vec::new();
    for (stem, _) in &maps {
        files.push(heights.join(format!("{stem}.png")));
        files.push(heights.join(format!("{stem}.tif")));
    }
    // Splat maps: one 8-bit PNG per layer after the base.
    let mut layers = Vec::new();
    for (path, adt) in &tiles {
        let stem = Path::new(path).file_stem().unwrap().to_string_lossy();
        let flags = formats::render::guess_mphd_flags(adt);
        let maps = formats::terrain::TileSplat::from_adt(adt, flags)
            .unwrap()
            .maps;
        for (layer, values) in maps.into_iter().enumerate().skip(1) {
            files.push(splat.join(format!("{stem}_layer{layer}.png")));
            layers.push(values);
        }
    }
    let Some(images) = common::pillow_read(&files) else {
        return;
    };
    let (heightmaps, splats) = images.split_at(2 * maps.len());
    for ((stem, map), pair) in maps.iter().zip(heightmaps.chunks_exact(2)) {
        let n = HEIGHTMAP_SIDE;
        assert_eq!((pair[0].size, pair[1].size), ((n, n), (n, n)), "{stem}");
        assert_eq!(pair[0].u16s(), map.levels(range), "{stem}: PNG levels");
        let floats = pair[1].f32s();
        assert!(
            floats
                .iter()
                .zip(&map.heights)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "{stem}: TIFF heights"
        );
    }
    assert!(!layers.is_empty(), "the corpus tiles have alpha layers");
    for ((image, values), file) in splats.iter().zip(&layers).zip(&files[2 * maps.len()..]) {
        assert_eq!(image.mode, "L", "{}", file.display());
        assert_eq!(&image.bytes, values, "{}", file.display());
    }
    eprintln!(
        "Pillow read {} heightmaps (PNG and TIFF) and {} splat maps of {} tiles",
        maps.len(),
        layers.len(),
        tiles.len()
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_whole_map_renders_at_one_range_with_missing_tiles_reported() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folder = root.join("maps/cataclysmctf");
    let out = temp("map");
    let (heights, splat) = (out.join("heights"), out.join("splat"));
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render").arg(folder.join("cataclysmctf.wdt"));
    cmd.arg("--heightmap")
        .arg(&heights)
        .arg("--splat")
        .arg(&splat);
    cmd.assert()
        .success()
        .stderr(predicate::str::contains(
            "5 of 9 tiles the WDT lists are missing",
        ))
        .stderr(predicate::str::contains("cataclysmctf_32_29.adt"));
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(heights.join("heightmap.json")).unwrap()).unwrap();
    assert_eq!(index["tiles"].as_array().unwrap().len(), 4);
    assert_eq!(index["missing"].as_array().unwrap().len(), 5);
    let (min, max) = (
        index["range"]["min"].as_f64().unwrap(),
        index["range"]["max"].as_f64().unwrap(),
    );
    // The range is the four tiles' lowest and highest point.
    let maps: Vec<Heightmap> = ["30_27", "31_27", "30_28", "32_27"]
        .iter()
        .map(|t| {
            let bytes = std::fs::read(folder.join(format!("cataclysmctf_{t}.adt"))).unwrap();
            Heightmap::from_tile(&TerrainTile::from_adt(&Adt::from_bytes(&bytes).unwrap()).unwrap())
        })
        .collect();
    let range = formats::terrain::common_range(&maps).unwrap();
    assert_eq!((min as f32, max as f32), (range.min, range.max));
    // The seams match in the PNGs the tool wrote.
    let n = HEIGHTMAP_SIDE;
    let (w, h, west) = gray16(&heights.join("cataclysmctf_30_27.png"));
    assert_eq!((w as usize, h as usize), (n, n));
    let (_, _, east) = gray16(&heights.join("cataclysmctf_31_27.png"));
    let (_, _, south) = gray16(&heights.join("cataclysmctf_30_28.png"));
    for i in 0..n {
        assert_eq!(west[i * n + n - 1], east[i * n]);
        assert_eq!(west[(n - 1) * n + i], south[i]);
    }
    assert_eq!(west, maps[0].levels(range));
    assert!(
        west.contains(&0)
            || east.contains(&0)
            || south.contains(&0)
            || gray16(&heights.join("cataclysmctf_32_27.png"))
                .2
                .contains(&0)
    );
    // The overview: 3 x 2 tiles overlapping by one sample; 31_28 missing is black.
    let (ow, oh, overview) = gray16(&heights.join("overview.png"));
    assert_eq!((ow, oh), (769, 513));
    assert_eq!(overview[10 * 769 + 256 + 3], east[10 * n + 3]);
    assert_eq!(overview[400 * 769 + 400], 0);
    // The float TIFF, read by Pillow, holds the heights themselves.
    if let Some(floats) = pillow_floats(&heights.join("cataclysmctf_30_27.tif")) {
        assert_eq!(floats, maps[0].heights);
    }
    // And the overview's: tile 31_27's heights where the PNG has its levels,
    // NaN where 31_28 is missing.
    if let Some(mut images) = common::pillow_read(&[heights.join("overview.tif")]) {
        let image = images.remove(0);
        assert_eq!(image.size, (769, 513));
        let floats = image.f32s();
        assert_eq!(floats[10 * 769 + 256 + 3], maps[1].heights[10 * n + 3]);
        assert!(floats[400 * 769 + 400].is_nan());
    }
    // Splat maps: a PNG per layer after the base, a manifest per tile.
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(splat.join("cataclysmctf_31_27_splat.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["chunks"].as_array().unwrap().len(), 256);
    let layers = manifest["layer_count"].as_u64().unwrap();
    assert!(layers >= 2);
    for layer in 1..layers {
        assert!(
            splat
                .join(format!("cataclysmctf_31_27_layer{layer}.png"))
                .is_file()
        );
    }
    assert!(
        !splat
            .join(format!("cataclysmctf_31_27_layer{layers}.png"))
            .exists()
    );
    // Some chunks have no layers at all; the others name a texture per layer.
    let textured: Vec<_> = manifest["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["layers"].as_array().filter(|l| !l.is_empty()))
        .collect();
    assert!(!textured.is_empty());
    for layers in textured {
        for layer in layers {
            assert!(layer["texture"].as_str().unwrap().ends_with(".blp"));
        }
    }
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn tiles_render_with_a_given_range_and_as_float() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folder = root.join("maps/cataclysmctf");
    let out = temp("tiles");
    // Two tiles into a folder, at a range that cuts their peaks.
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render")
        .arg(folder.join("cataclysmctf_30_27.adt"))
        .arg(folder.join("cataclysmctf_31_27.adt"))
        .args([
            "--range",
            "-50:100",
            "--overview-size",
            "400",
            "--heightmap",
        ])
        .arg(out.join("two"));
    cmd.assert().success();
    // Two tiles across are 513 samples: every second one fits in 400.
    let (ow, oh, _) = gray16(&out.join("two/overview.png"));
    assert_eq!((ow, oh), (257, 129));
    let (_, _, levels) = gray16(&out.join("two/cataclysmctf_31_27.png"));
    let bytes = std::fs::read(folder.join("cataclysmctf_31_27.adt")).unwrap();
    let map =
        Heightmap::from_tile(&TerrainTile::from_adt(&Adt::from_bytes(&bytes).unwrap()).unwrap());
    for (level, h) in levels.iter().zip(&map.heights) {
        let expected =
            ((f64::from(*h).clamp(-50.0, 100.0) + 50.0) / 150.0 * 65535.0).round() as u16;
        assert_eq!(*level, expected);
    }
    assert!(levels.contains(&65535), "the peaks above 100 are cut");
    // One tile as a 32-bit float TIFF.
    let tif = out.join("one.tif");
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render")
        .arg(folder.join("cataclysmctf_31_27.adt"))
        .arg("--heightmap")
        .arg(&tif);
    cmd.assert().success();
    if let Some(floats) = pillow_floats(&tif) {
        assert_eq!(floats, map.heights);
    }
    // A bad range, and a WDT asked for a wireframe.
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render").arg(folder.join("cataclysmctf_31_27.adt"));
    cmd.args(["--range", "5:1", "--heightmap"])
        .arg(out.join("x.png"));
    cmd.assert()
        .failure()
        .stderr(predicate::str::contains("MIN must be below MAX"));
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render")
        .arg(folder.join("cataclysmctf.wdt"))
        .arg("--wireframe")
        .arg(out.join("w.png"));
    cmd.assert()
        .failure()
        .stderr(predicate::str::contains("--heightmap DIR"));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_tile_exports_to_glb_and_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp("export-tile");
    let tile = root.join("adt/wowserfmt_continent4229.adt");
    let glb = out.join("continent.glb");
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("export").arg(&tile).arg(&glb);
    // ADT_MANIFEST: one chunk with holes (8 quads); 381 doodads, 19 WMOs.
    cmd.assert().success().stdout(predicate::str::contains(
        "tile 42_29, 37120 vertices, 65504 triangles (8 hole quads), 660 liquid triangles, \
         381 doodads, 19 map objects",
    ));
    let gltf = gltf::Gltf::from_slice(&std::fs::read(&glb).unwrap()).unwrap();
    let root_node = gltf
        .document
        .default_scene()
        .unwrap()
        .nodes()
        .next()
        .unwrap();
    assert_eq!(root_node.name(), Some("wowserfmt_continent4229"));
    let names: Vec<_> = root_node.children().filter_map(|n| n.name()).collect();
    assert_eq!(names, ["terrain", "liquids", "doodads", "map objects"]);
    let doodads = root_node.children().nth(2).unwrap();
    assert_eq!(doodads.children().count(), 381);
    assert!(doodads.children().all(|d| {
        d.name()
            .is_some_and(|n| n.to_ascii_lowercase().ends_with(".m2"))
    }));
    // .gltf: the JSON, and its buffer beside it.
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("export").arg(&tile).arg(out.join("continent.gltf"));
    cmd.assert().success();
    assert!(out.join("continent.bin").is_file());
    let text = std::fs::read_to_string(out.join("continent.gltf")).unwrap();
    assert!(text.contains("\"uri\":\"continent.bin\""));
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_map_exports_its_tiles_into_a_folder() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let wdt = root.join("maps/cataclysmctf/cataclysmctf.wdt");
    let out = temp("export-map");
    let tiles = out.join("tiles");
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("export").arg(&wdt).arg(&tiles);
    cmd.assert()
        .success()
        .stdout(predicate::str::contains(
            "cataclysmctf_31_27.glb: tile 31_27",
        ))
        .stderr(predicate::str::contains(
            "5 of 9 tiles the WDT lists are missing",
        ));
    let mut written: Vec<String> = std::fs::read_dir(&tiles)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "cataclysmctf.json",
            "cataclysmctf_30_27.glb",
            "cataclysmctf_30_28.glb",
            "cataclysmctf_31_27.glb",
            "cataclysmctf_32_27.glb",
            "cataclysmctf_overview.png",
            "cataclysmctf_overview.tif",
        ]
    );
    // Beside the tiles: the map's overview, the image `render --heightmap`
    // draws of the same tiles, and an index of where each tile went.
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tiles.join("cataclysmctf.json")).unwrap()).unwrap();
    let listed: Vec<(u64, u64, &str)> = index["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let (x, y) = (t["x"].as_u64().unwrap(), t["y"].as_u64().unwrap());
            (x, y, t["file"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        listed,
        [
            (30, 27, "cataclysmctf_30_27.glb"),
            (31, 27, "cataclysmctf_31_27.glb"),
            (32, 27, "cataclysmctf_32_27.glb"),
            (30, 28, "cataclysmctf_30_28.glb"),
        ]
    );
    assert_eq!(index["missing"].as_array().unwrap().len(), 5);
    assert_eq!(index["overview"]["png"], "cataclysmctf_overview.png");
    let heights = out.join("heights");
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("render").arg(&wdt).arg("--heightmap").arg(&heights);
    cmd.assert().success();
    let rendered: serde_json::Value =
        serde_json::from_slice(&std::fs::read(heights.join("heightmap.json")).unwrap()).unwrap();
    assert_eq!(index["range"], rendered["range"]);
    for ext in ["png", "tif"] {
        assert_eq!(
            std::fs::read(tiles.join(format!("cataclysmctf_overview.{ext}"))).unwrap(),
            std::fs::read(heights.join(format!("overview.{ext}"))).unwrap(),
            "{ext}"
        );
    }
    // Neighbours meet without a crack: the east edge of 30_27 is the west
    // edge of 31_27 in world coordinates, X and Y to the bit (the map's
    // grid), heights to the last bit (each tile adds its chunk's base).
    let edge = |name: &str, column: usize| -> Vec<[f32; 3]> {
        let (positions, _) = common::glb_terrain(&std::fs::read(tiles.join(name)).unwrap());
        // Chunk (column, row) for every row, then the outer vertices of its
        // west (column 0) or east (column 15) edge, north to south.
        let (chunk_x, vertex_x) = if column == 0 { (0, 0) } else { (15, 8) };
        (0..16)
            .flat_map(|row| (0..9).map(move |r| ((row * 16 + chunk_x) * 145, r * 17 + vertex_x)))
            .map(|(chunk, vertex)| positions[chunk + vertex])
            .collect()
    };
    let (west, east) = (
        edge("cataclysmctf_30_27.glb", 15),
        edge("cataclysmctf_31_27.glb", 0),
    );
    assert_eq!(west.len(), 16 * 9);
    for (a, b) in west.iter().zip(&east) {
        assert_eq!((a[0], a[1]), (b[0], b[1]));
        assert!(
            (a[2] - b[2]).abs() <= a[2].abs() * f32::EPSILON,
            "{a:?} {b:?}"
        );
    }
    // A map goes into a folder, not one file.
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("export").arg(&wdt).arg(out.join("map.glb"));
    cmd.assert()
        .failure()
        .stderr(predicate::str::contains("a map's tiles go into a folder"));
    // A WDT with none of its tiles beside it is an error, not an empty folder.
    let mut cmd = Command::cargo_bin("formats").unwrap();
    cmd.arg("export")
        .arg(root.join("wdt/wowserfmt_pvpzone.wdt"))
        .arg(out.join("none"));
    cmd.assert().failure().stderr(predicate::str::contains(
        "none of the 35 tiles the WDT lists is beside it",
    ));
    assert!(!out.join("none").exists());
    std::fs::remove_dir_all(&out).unwrap();
}
