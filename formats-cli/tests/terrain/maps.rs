//! `formats render` and `formats export` on a whole map and on tiles: the
//! files they write, read back with the png crate, serde_json and
//! (independently) Pillow, which reads every PNG and TIFF written here.

use crate::common;

use common::{formats, formats_command, temp_dir};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use formats::adt::Adt;
use formats::terrain::{HEIGHTMAP_SIDE, HeightRange, Heightmap, Stitched, TerrainTile, TileCoord};
use predicates::prelude::*;

/// The corpus map folder `maps/cataclysmctf` and a fresh output folder
/// `name` (`None` without the corpus).
fn map_and_out(name: &str) -> Option<(PathBuf, common::TempDir)> {
    Some((
        common::corpus_root()?.join("maps/cataclysmctf"),
        temp_dir(name),
    ))
}

/// What `formats export` writes for the corpus map: its four tiles, their
/// index and the overview.
const MAP_EXPORT: [&str; 7] = [
    "cataclysmctf.json",
    "cataclysmctf_30_27.glb",
    "cataclysmctf_30_28.glb",
    "cataclysmctf_31_27.glb",
    "cataclysmctf_32_27.glb",
    "cataclysmctf_overview.png",
    "cataclysmctf_overview.tif",
];

/// The tile the ADT at `path` is, and its heightmap.
fn heightmap(path: &Path) -> (TileCoord, Heightmap) {
    let adt = Adt::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    let tile = TerrainTile::from_adt(&adt).unwrap();
    (tile.coord, Heightmap::from_tile(&tile))
}

/// The heightmaps of `tiles` processed together, as the tool draws them:
/// their seams shared (the southern or eastern tile's samples).
fn shared(tiles: &[(TileCoord, Heightmap)]) -> Vec<(TileCoord, Heightmap)> {
    let mut tiles = tiles.to_vec();
    formats::terrain::share_seams(&mut tiles);
    tiles
}

/// The samples of two neighbouring tiles' images (`n` x `n` pixels) on the
/// seam between them: `a`'s east column and `b`'s west one, or (`south`)
/// `a`'s south row and `b`'s north one.
fn seam<T: Copy>(a: &[T], b: &[T], south: bool) -> (Vec<T>, Vec<T>) {
    let n = HEIGHTMAP_SIDE;
    assert_eq!((a.len(), b.len()), (n * n, n * n));
    if south {
        (a[(n - 1) * n..].to_vec(), b[..n].to_vec())
    } else {
        let column = |m: &[T], x: usize| (0..n).map(|y| m[y * n + x]).collect();
        (column(a, n - 1), column(b, 0))
    }
}

/// Pillow's reading of the PNG and TIFF of two neighbouring tiles (`stem`s
/// in `images`) holds the same seam: the same 16-bit levels and the same
/// floats, to the bit.
fn assert_seam_matches(
    images: &BTreeMap<String, common::PillowImage>,
    (a, b): (&str, &str),
    south: bool,
) {
    let (x, y) = seam(
        &images[&format!("{a}.png")].u16s(),
        &images[&format!("{b}.png")].u16s(),
        south,
    );
    assert_eq!(x, y, "{a} | {b}: PNG levels");
    let bits = |v: Vec<f32>| v.iter().map(|h| h.to_bits()).collect::<Vec<_>>();
    let (x, y) = seam(
        &images[&format!("{a}.tif")].f32s(),
        &images[&format!("{b}.tif")].f32s(),
        south,
    );
    assert!(
        x.iter().all(|h| h.is_finite()),
        "{a} | {b}: heights on the seam"
    );
    assert_eq!(bits(x), bits(y), "{a} | {b}: TIFF heights");
}

/// `tiles` row by row, as the tool stitches them.
fn tiles_by_row(tiles: &[(TileCoord, Heightmap)]) -> Vec<(TileCoord, &Heightmap)> {
    let mut pairs: Vec<_> = tiles.iter().map(|(c, m)| (*c, m)).collect();
    pairs.sort_by_key(|(c, _)| (c.y, c.x));
    pairs
}

/// A 16-bit gray PNG's size and levels, as the png crate reads them.
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

/// Every PNG and TIFF in `folder`, read by Pillow, by file name (`None`
/// if Pillow is not installed, which fails under CI=true). Each 16-bit PNG
/// holds in Pillow the levels the png crate reads.
fn pillow_folder(folder: &Path) -> Option<BTreeMap<String, common::PillowImage>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "tif"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no image", folder.display());
    let images = common::pillow_read(&files)?;
    for (file, image) in files.iter().zip(&images) {
        if image.mode == "I;16" {
            let (w, h, levels) = gray16(file);
            assert_eq!(image.size, (w as usize, h as usize), "{}", file.display());
            assert!(
                image.u16s() == levels,
                "{}: Pillow's levels",
                file.display()
            );
        }
    }
    let names = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned());
    Some(names.zip(images).collect())
}

/// Floats equal to the bit, NaN (no data) where NaN.
fn same_heights(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
}

/// Pillow's reading of an overview `stem.png` and `stem.tif` holds the
/// levels of `range` and the heights of `tiles` stitched as the JSON index's
/// `overview` says.
fn check_overview(
    images: &BTreeMap<String, common::PillowImage>,
    overview: &serde_json::Value,
    tiles: &[(TileCoord, &Heightmap)],
    range: HeightRange,
) {
    let step = overview["tile_samples_per_pixel"].as_u64().unwrap() as usize;
    let map = Stitched::new(tiles, step).unwrap();
    let size = (map.width, map.height);
    assert_eq!(
        (overview["width"].as_u64(), overview["height"].as_u64()),
        (Some(size.0 as u64), Some(size.1 as u64))
    );
    let png = &images[overview["png"].as_str().unwrap()];
    let tif = &images[overview["tiff"].as_str().unwrap()];
    assert_eq!((png.size, tif.size), (size, size));
    let levels: Vec<u16> = map.heights.iter().map(|h| range.level(*h)).collect();
    assert!(png.u16s() == levels, "overview PNG levels");
    assert!(
        same_heights(&tif.f32s(), &map.heights),
        "overview TIFF heights"
    );
}

/// Every corpus tile rendered at once (heightmaps at one range, their
/// overview, splat maps): every PNG and TIFF the tool wrote, read by Pillow,
/// holds the library's values. Not `adt/`'s copy of the map's 30_27: two
/// files of one tile are refused (`tiles_in_conflict_are_refused_or_warned`).
#[test]
fn pillow_reads_every_image_the_tool_writes_for_the_corpus_tiles() {
    let mut tiles = common::corpus_tiles();
    if tiles.is_empty() {
        return;
    }
    tiles.retain(|(path, _)| path != "adt/twinpeaks_cataclysmctf_30_27.adt");
    let root = common::corpus_root().unwrap();
    let out = temp_dir("pillow");
    let (heights, splat) = (out.join("heights"), out.join("splat"));
    formats_command()
        .arg("render")
        .args(tiles.iter().map(|(path, _)| root.join(path)))
        .args(["--overview-size", "1024", "--heightmap"])
        .arg(&heights)
        .arg("--splat")
        .arg(&splat)
        .assert()
        .success();
    // Drawn together, neighbours (the map folder's tiles) share their seams.
    let alone: Vec<(TileCoord, Heightmap)> = tiles
        .iter()
        .map(|(_, adt)| {
            let tile = TerrainTile::from_adt(adt).unwrap();
            (tile.coord, Heightmap::from_tile(&tile))
        })
        .collect();
    let maps: Vec<(String, TileCoord, Heightmap)> = tiles
        .iter()
        .zip(shared(&alone))
        .map(|((path, _), (coord, map))| {
            let stem = Path::new(path).file_stem().unwrap().to_string_lossy();
            (stem.into_owned(), coord, map)
        })
        .collect();
    let range = formats::terrain::common_range(maps.iter().map(|(_, _, m)| m)).unwrap();
    let (Some(height_images), Some(splat_images)) =
        (pillow_folder(&heights), pillow_folder(&splat))
    else {
        return;
    };
    // Heightmaps: 16-bit PNG levels and float TIFF heights, per tile.
    let n = HEIGHTMAP_SIDE;
    for (stem, _, map) in &maps {
        let png = &height_images[&format!("{stem}.png")];
        let tif = &height_images[&format!("{stem}.tif")];
        assert_eq!((png.size, tif.size), ((n, n), (n, n)), "{stem}");
        assert!(png.u16s() == map.levels(range), "{stem}: PNG levels");
        assert!(
            same_heights(&tif.f32s(), &map.heights),
            "{stem}: TIFF heights"
        );
    }
    // The overview of them all: the tiles stitched row by row.
    let index = read_json(&heights.join("heightmap.json"));
    let mut pairs: Vec<(TileCoord, &Heightmap)> = maps.iter().map(|(_, c, m)| (*c, m)).collect();
    pairs.sort_by_key(|(c, _)| (c.y, c.x));
    check_overview(&height_images, &index["overview"], &pairs, range);
    assert_eq!(height_images.len(), 2 * maps.len() + 2);
    for (tiles, south) in [
        (("cataclysmctf_30_27", "cataclysmctf_31_27"), false),
        (("cataclysmctf_31_27", "cataclysmctf_32_27"), false),
        (("cataclysmctf_30_27", "cataclysmctf_30_28"), true),
    ] {
        assert_seam_matches(&height_images, tiles, south);
    }
    // Splat maps: one 8-bit PNG per layer after the base.
    let mut layers = 0;
    for (path, adt) in &tiles {
        let stem = Path::new(path).file_stem().unwrap().to_string_lossy();
        let flags = formats::render::guess_mphd_flags(adt);
        let maps = formats::terrain::TileSplat::from_adt(adt, flags)
            .unwrap()
            .maps;
        for (layer, values) in maps.into_iter().enumerate().skip(1) {
            let file = format!("{stem}_layer{layer}.png");
            let image = &splat_images[&file];
            assert_eq!(
                (image.mode.as_str(), image.size),
                ("L", (1024, 1024)),
                "{file}"
            );
            assert!(image.bytes == values, "{file}");
            layers += 1;
        }
    }
    assert!(layers > 0, "the corpus tiles have alpha layers");
    assert_eq!(splat_images.len(), layers);
    eprintln!(
        "Pillow read {} heightmaps (PNG and TIFF), their overview and {layers} splat maps",
        maps.len(),
    );
}

#[test]
fn a_whole_map_renders_at_one_range_with_missing_tiles_reported() {
    let Some((folder, out)) = map_and_out("map") else {
        return;
    };
    let (heights, splat) = (out.join("heights"), out.join("splat"));
    formats![
        "render",
        folder.join("cataclysmctf.wdt"),
        "--heightmap",
        &heights,
        "--splat",
        &splat
    ]
    .success()
    .stderr(predicate::str::contains(
        "5 of 9 tiles the WDT lists are missing",
    ))
    .stderr(predicate::str::contains("cataclysmctf_32_29.adt"))
    // The three seams' own copies differ at 5, 7 and 5 samples.
    .stderr(predicate::str::contains(
        "17 edge samples taken from the neighbour that owns them",
    ));
    let index = read_json(&heights.join("heightmap.json"));
    assert_eq!(index["tiles"].as_array().unwrap().len(), 4);
    assert_eq!(index["missing"].as_array().unwrap().len(), 5);
    let (min, max) = (
        index["range"]["min"].as_f64().unwrap(),
        index["range"]["max"].as_f64().unwrap(),
    );
    // The range is the four tiles' lowest and highest point.
    let alone: Vec<(TileCoord, Heightmap)> = ["30_27", "31_27", "30_28", "32_27"]
        .iter()
        .map(|t| heightmap(&folder.join(format!("cataclysmctf_{t}.adt"))))
        .collect();
    let maps = shared(&alone);
    let range = formats::terrain::common_range(maps.iter().map(|(_, m)| m)).unwrap();
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
    assert_eq!(west, maps[0].1.levels(range));
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
    // Every image, read by Pillow: the float TIFFs hold the heights
    // themselves; the overview's tile 31_27's heights where the PNG has its
    // levels, NaN where 31_28 is missing.
    if let Some(images) = pillow_folder(&heights) {
        assert_eq!(images.len(), 2 * 4 + 2);
        let floats = images["cataclysmctf_30_27.tif"].f32s();
        assert!(same_heights(&floats, &maps[0].1.heights));
        // 30_27 took 31_27's and 30_28's copies of its east and south
        // edges: 10 samples differ from its own heightmap, on those edges.
        let moved: Vec<usize> = (0..n * n)
            .filter(|i| floats[*i].to_bits() != alone[0].1.heights[*i].to_bits())
            .collect();
        assert_eq!(moved.len(), 5 + 5);
        assert!(moved.iter().all(|i| i % n == n - 1 || i / n == n - 1));
        // Every seam, as Pillow reads the images: one copy, to the bit.
        for (tiles, south) in [
            (("cataclysmctf_30_27", "cataclysmctf_31_27"), false),
            (("cataclysmctf_31_27", "cataclysmctf_32_27"), false),
            (("cataclysmctf_30_27", "cataclysmctf_30_28"), true),
        ] {
            assert_seam_matches(&images, tiles, south);
        }
        let floats = images["overview.tif"].f32s();
        assert_eq!(floats[10 * 769 + 256 + 3], maps[1].1.heights[10 * n + 3]);
        assert!(floats[400 * 769 + 400].is_nan());
        let tiles = tiles_by_row(&maps);
        check_overview(&images, &index["overview"], &tiles, range);
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
    // Pillow reads every splat map (8-bit gray).
    if let Some(images) = pillow_folder(&splat) {
        assert!(
            images
                .values()
                .all(|i| i.mode == "L" && i.size == (1024, 1024))
        );
    }
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
}

#[test]
fn tiles_render_with_a_given_range_and_as_float() {
    let Some((folder, out)) = map_and_out("tiles") else {
        return;
    };
    // Two tiles into a folder, at a range that cuts their peaks.
    let two = out.join("two");
    formats![
        "render",
        folder.join("cataclysmctf_30_27.adt"),
        folder.join("cataclysmctf_31_27.adt"),
        "--range",
        "-50:100",
        "--overview-size",
        "400",
        "--heightmap",
        &two
    ]
    .success();
    // Two tiles across are 513 samples: every second one fits in 400.
    let (ow, oh, _) = gray16(&two.join("overview.png"));
    assert_eq!((ow, oh), (257, 129));
    let (_, _, levels) = gray16(&two.join("cataclysmctf_31_27.png"));
    let both = shared(
        &["30_27", "31_27"].map(|t| heightmap(&folder.join(format!("cataclysmctf_{t}.adt")))),
    );
    let map = &both[1].1;
    for (level, h) in levels.iter().zip(&map.heights) {
        let expected =
            ((f64::from(*h).clamp(-50.0, 100.0) + 50.0) / 150.0 * 65535.0).round() as u16;
        assert_eq!(*level, expected);
    }
    assert!(levels.contains(&65535), "the peaks above 100 are cut");
    // Pillow reads the PNGs and TIFFs, and the overview, at that range.
    if let Some(images) = pillow_folder(&two) {
        assert_eq!(images.len(), 2 * 2 + 2);
        let floats = images["cataclysmctf_31_27.tif"].f32s();
        assert!(same_heights(&floats, &map.heights));
        let floats = images["cataclysmctf_30_27.tif"].f32s();
        assert!(same_heights(&floats, &both[0].1.heights));
        assert_seam_matches(&images, ("cataclysmctf_30_27", "cataclysmctf_31_27"), false);
        let index = read_json(&two.join("heightmap.json"));
        let range = HeightRange::parse("-50:100").unwrap();
        check_overview(&images, &index["overview"], &tiles_by_row(&both), range);
        assert!(images["cataclysmctf_30_27.png"].u16s() == both[0].1.levels(range));
    }
    // One tile as a 32-bit float TIFF; and as a PNG at its own range, with
    // its alpha maps and (into a folder) its splat maps.
    let tile = folder.join("cataclysmctf_31_27.adt");
    let one = out.join("one");
    std::fs::create_dir_all(&one).unwrap();
    formats!["render", &tile, "--heightmap", one.join("one.tif")].success();
    formats![
        "render",
        &tile,
        "--heightmap",
        one.join("one.png"),
        "--alpha",
        one.join("alpha.png"),
        "--splat",
        one.join("splat")
    ]
    .success();
    assert!(one.join("splat/cataclysmctf_31_27_splat.json").is_file());
    if let (Some(images), Some(splat)) = (pillow_folder(&one), pillow_folder(&one.join("splat"))) {
        assert_eq!(images.len(), 3);
        // A tile alone: its own heights, edges included.
        let (_, alone) = heightmap(&tile);
        assert!(same_heights(&images["one.tif"].f32s(), &alone.heights));
        assert!(images["one.png"].u16s() == alone.levels(alone.range().unwrap()));
        let alpha = &images["alpha.png"];
        assert_eq!((alpha.mode.as_str(), alpha.size), ("RGB", (1024, 1024)));
        assert!(
            splat
                .values()
                .all(|i| i.mode == "L" && i.size == (1024, 1024))
        );
    }
    // A bad range, and a WDT asked for a wireframe.
    formats![
        "render",
        folder.join("cataclysmctf_31_27.adt"),
        "--range",
        "5:1",
        "--heightmap",
        out.join("x.png")
    ]
    .failure()
    .stderr(predicate::str::contains("MIN must be below MAX"));
    formats![
        "render",
        folder.join("cataclysmctf.wdt"),
        "--wireframe",
        out.join("w.png")
    ]
    .failure()
    .stderr(predicate::str::contains("--heightmap DIR"));
}

#[test]
fn a_tile_exports_to_glb_and_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp_dir("export-tile");
    let tile = root.join("adt/wowserfmt_continent4229.adt");
    let glb = out.join("continent.glb");
    // ADT_MANIFEST: one chunk with holes (8 quads); 381 doodads, 19 WMOs.
    let export = formats!["export", &tile, &glb];
    export.success().stdout(predicate::str::contains(
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
    formats!["export", &tile, out.join("continent.gltf")].success();
    assert!(out.join("continent.bin").is_file());
    let text = std::fs::read_to_string(out.join("continent.gltf")).unwrap();
    assert!(text.contains("\"uri\":\"continent.bin\""));
}

#[test]
fn a_map_exports_its_tiles_into_a_folder() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let wdt = root.join("maps/cataclysmctf/cataclysmctf.wdt");
    let out = temp_dir("export-map");
    let tiles = out.join("tiles");
    formats!["export", &wdt, &tiles]
        .success()
        .stdout(predicate::str::contains(
            "cataclysmctf_31_27.glb: tile 31_27",
        ))
        .stderr(predicate::str::contains(
            "5 of 9 tiles the WDT lists are missing",
        ));
    assert_eq!(common::listing(&tiles), MAP_EXPORT);
    // Beside the tiles: the map's overview, the image `render --heightmap`
    // draws of the same tiles, and an index of where each tile went.
    let index = read_json(&tiles.join("cataclysmctf.json"));
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
    formats!["render", &wdt, "--heightmap", &heights].success();
    let rendered = read_json(&heights.join("heightmap.json"));
    assert_eq!(index["range"], rendered["range"]);
    for ext in ["png", "tif"] {
        assert_eq!(
            std::fs::read(tiles.join(format!("cataclysmctf_overview.{ext}"))).unwrap(),
            std::fs::read(heights.join(format!("overview.{ext}"))).unwrap(),
            "{ext}"
        );
    }
    // Pillow reads the overview: the four tiles' levels and heights.
    if let Some(images) = pillow_folder(&tiles) {
        assert_eq!(images.len(), 2);
        let maps: Vec<_> = ["30_27", "31_27", "30_28", "32_27"]
            .iter()
            .map(|t| heightmap(&wdt.with_file_name(format!("cataclysmctf_{t}.adt"))))
            .collect();
        let range = formats::terrain::common_range(maps.iter().map(|(_, m)| m)).unwrap();
        check_overview(&images, &index["overview"], &tiles_by_row(&maps), range);
        // A smaller overview is stitched from the tiles' thumbnails (every
        // 2nd sample kept, every 4th drawn): Pillow reads in it what the
        // library stitches from the full heightmaps, and `render` draws the
        // same image.
        let (small, small_render) = (out.join("small"), out.join("small-render"));
        for (command, folder) in [("export", &small), ("render", &small_render)] {
            let mut cmd = formats_command();
            cmd.arg(command).arg(&wdt);
            if command == "render" {
                cmd.arg("--heightmap");
            }
            cmd.arg(folder)
                .args(["--overview-size", "300"])
                .assert()
                .success();
        }
        let index = read_json(&small.join("cataclysmctf.json"));
        assert_eq!(index["overview"]["tile_samples_per_pixel"], 4);
        let images = pillow_folder(&small).unwrap();
        check_overview(&images, &index["overview"], &tiles_by_row(&maps), range);
        assert_eq!(
            std::fs::read(small.join("cataclysmctf_overview.png")).unwrap(),
            std::fs::read(small_render.join("overview.png")).unwrap()
        );
    }
    // Neighbours meet without a crack: the east edge of 30_27 is the west
    // edge of 31_27 in world coordinates, X and Y to the bit (the map's
    // grid), heights to the bit too (exported together, 30_27 takes 31_27's
    // copy of the seam), where 5 of the 257 samples differ in the tiles'
    // own copies.
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
    let bits =
        |v: &[[f32; 3]]| -> Vec<[u32; 3]> { v.iter().map(|p| p.map(f32::to_bits)).collect() };
    assert_eq!(bits(&west), bits(&east));
    // 31_27's own copy: the height its heightmap has at each vertex of the
    // edge (every other sample of its west column).
    let (_, own) = heightmap(&wdt.with_file_name("cataclysmctf_31_27.adt"));
    let (own, n) = (&own.heights, HEIGHTMAP_SIDE);
    let column: Vec<f32> = (0..16)
        .flat_map(|row| (0..9).map(move |r| own[(row * 16 + r * 2) * n]))
        .collect();
    let heights: Vec<f32> = east.iter().map(|p| p[2]).collect();
    assert_eq!(heights, column);
    // A map goes into a folder, not one file.
    formats!["export", &wdt, out.join("map.glb")]
        .failure()
        .stderr(predicate::str::contains("a map's tiles go into a folder"));
    // A WDT with none of its tiles beside it is an error, not an empty folder.
    formats![
        "export",
        root.join("wdt/wowserfmt_pvpzone.wdt"),
        out.join("none")
    ]
    .failure()
    .stderr(predicate::str::contains(
        "none of the 35 tiles the WDT lists is beside it",
    ));
    assert!(!out.join("none").exists());
    // `render` says so too, rather than naming every tile as missing and
    // then finding nothing to draw.
    formats![
        "render",
        root.join("wdt/wowserfmt_pvpzone.wdt"),
        "--heightmap",
        out.join("none/"),
        "--splat",
        out.join("none-splat/")
    ]
    .failure()
    .stderr(predicate::str::contains(
        "none of the 35 tiles the WDT lists is beside it",
    ))
    .stderr(predicate::str::contains("wowserfmt_pvpzone_30_29.adt").not());
    assert!(!out.join("none").exists() && !out.join("none-splat").exists());
}

/// The terrain guide's picture of the `cataclysmctf` overview is what the
/// last command of the code block above it draws, byte for byte: the
/// command is read from `docs/terrain.md` and run as written (from a fresh
/// folder, with `../shared` the corpus's folder), so neither can go stale
/// alone.
#[test]
fn the_guide_overview_is_what_its_command_draws() {
    let Some(corpus) = common::corpus_root() else {
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let guide = std::fs::read_to_string(repo.join("docs/terrain.md")).unwrap();
    let picture = "![cataclysmctf heightmap overview](terrain-overview.png)";
    let before = &guide[..guide.find(picture).expect("the guide shows the overview")];
    let command = before
        .lines()
        .rev()
        .find(|l| l.starts_with("formats "))
        .expect("a command before the picture");
    assert_eq!(
        command,
        "formats export ../shared/corpus/maps/cataclysmctf/cataclysmctf.wdt tiles/ \
         --overview-size 400"
    );
    let shared = corpus.parent().unwrap();
    let args = command
        .split_whitespace()
        .skip(1)
        .map(|arg| match arg.strip_prefix("../shared/") {
            Some(rest) => shared.join(rest).into_os_string(),
            None => arg.into(),
        });
    let out = temp_dir("readme-overview");
    formats_command()
        .current_dir(&out)
        .args(args)
        .assert()
        .success();
    let drawn = std::fs::read(out.join("tiles/cataclysmctf_overview.png")).unwrap();
    let shown = std::fs::read(repo.join("docs/terrain-overview.png")).unwrap();
    assert!(
        drawn == shown,
        "docs/terrain-overview.png is stale: run the command of docs/terrain.md and copy \
         tiles/cataclysmctf_overview.png over it"
    );
}

/// A folder stands for the map and tiles in it: `export` finds the WDT and
/// exports each tile once (also when the tile is named as well), `render`
/// draws the map; a stray tile of another map beside a map is refused.
#[test]
fn a_map_folder_exports_and_renders_as_its_map() {
    let Some((folder, out)) = map_and_out("map-folder") else {
        return;
    };
    let maps = folder.parent().unwrap();
    let tiles = out.join("tiles");
    formats![
        "export",
        maps,
        folder.join("cataclysmctf_30_27.adt"),
        &tiles
    ]
    .success()
    .stdout(predicate::str::contains("cataclysmctf_30_27.glb").count(1))
    .stderr(predicate::str::contains(
        "5 of 9 tiles the WDT lists are missing",
    ));
    assert_eq!(common::listing(&tiles), MAP_EXPORT);

    let heights = out.join("heights");
    formats!["render", &folder, "--heightmap", &heights]
        .success()
        .stderr(predicate::str::contains("wrote 4 heightmaps"))
        .stderr(predicate::str::contains(
            "17 edge samples taken from the neighbour that owns them",
        ));
    assert!(common::listing(&heights).contains(&"overview.png".to_string()));

    let stray = common::corpus_root()
        .unwrap()
        .join("adt/twinpeaks_cataclysmctf_30_27.adt");
    formats![
        "render",
        &folder,
        &stray,
        "--heightmap",
        out.join("refused")
    ]
    .failure()
    .stderr(predicate::str::contains(
        "twinpeaks_cataclysmctf_30_27.adt is not one of the tiles of",
    ));
    assert!(!out.join("refused").exists());
}

/// Copies the corpus file `relative` into `folder` as `name` (a temp folder
/// of the test's own: the corpus stays as it is).
fn copy_as(root: &Path, relative: &str, folder: &Path, name: &str) -> PathBuf {
    let to = folder.join(name);
    std::fs::create_dir_all(folder).unwrap();
    std::fs::copy(root.join(relative), &to).unwrap();
    to
}

/// The corpus map's WDT and the tiles `tiles` (`30_27`, ...) copied into a
/// fresh folder `name`.
fn map_copy(root: &Path, name: &str, tiles: &[&str]) -> common::TempDir {
    let folder = temp_dir(name);
    copy_as(
        root,
        "maps/cataclysmctf/cataclysmctf.wdt",
        &folder,
        "cataclysmctf.wdt",
    );
    for tile in tiles {
        let file = format!("cataclysmctf_{tile}.adt");
        copy_as(root, &format!("maps/cataclysmctf/{file}"), &folder, &file);
    }
    folder
}

/// The JSON file at `path` (an index the tool wrote).
fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The `tEXt` chunks of a PNG, as the png crate reads them.
fn png_text(path: &Path) -> BTreeMap<String, String> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let reader = decoder.read_info().unwrap();
    reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .map(|t| (t.keyword.clone(), t.text.clone()))
        .collect()
}

/// A map's folder holding Blizzard's companion WDTs beside the map's
/// (`_lgt`, `_occ`): they are told apart by their chunks and skipped, not
/// taken for maps; one named on its own is refused.
#[test]
fn companion_wdts_beside_a_map_are_skipped() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folder = map_copy(&root, "companions", &["30_27", "31_27"]);
    let light = copy_as(
        &root,
        "wdt/twinpeaks_cataclysmctf_lgt.wdt",
        &folder,
        "cataclysmctf_lgt.wdt",
    );
    copy_as(
        &root,
        "wdt/bfgilneas_Gilneas_BG_2_occ.wdt",
        &folder,
        "cataclysmctf_occ.wdt",
    );
    let out = temp_dir("companions-out");
    formats!["render", &folder, "--heightmap", out.join("heights")]
        .success()
        .stderr(predicate::str::contains(
            "skipped 2 WDTs that are not a map's: cataclysmctf_lgt.wdt (a light WDT (_lgt.wdt)), \
             cataclysmctf_occ.wdt (an occlusion WDT (_occ.wdt))",
        ))
        .stderr(predicate::str::contains("wrote 2 heightmaps"));
    formats!["render", &light, "--heightmap", out.join("light")]
        .failure()
        .stderr(predicate::str::contains(
            "cataclysmctf_lgt.wdt is a light WDT (_lgt.wdt), not a map's",
        ));
    assert!(!out.join("light").exists());
}

/// `--wdt` gives the alpha maps' bit depth (its `MPHD` flags): a companion
/// WDT or a tile given there is refused, not read as flags 0.
#[test]
fn only_a_maps_wdt_gives_the_alpha_bit_depth() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp_dir("wdt-option");
    let tile = root.join("adt/bfgilneas_gilneas_bg_2_28_31.adt");
    for (wdt, what) in [
        ("wdt/bfgilneas_Gilneas_BG_2_lgt.wdt", "a light WDT"),
        ("wdt/bfgilneas_Gilneas_BG_2_occ.wdt", "an occlusion WDT"),
        (
            "adt/bfgilneas_gilneas_bg_2_28_31.adt",
            "a WDT without MPHD and MAIN",
        ),
    ] {
        formats![
            "render",
            &tile,
            "--alpha",
            out.join("alpha.png"),
            "--wdt",
            root.join(wdt)
        ]
        .failure()
        .stderr(predicate::str::contains(format!("is {what}")))
        .stderr(predicate::str::contains("not a map's WDT"));
    }
    assert!(!out.join("alpha.png").exists());
    formats![
        "render",
        &tile,
        "--alpha",
        out.join("alpha.png"),
        "--wdt",
        root.join("wdt/bfgilneas_Gilneas_BG_2.wdt")
    ]
    .success();
}

/// A chunk moved off the grid: export and render place it by its indices
/// and say so, naming the first such chunk.
#[test]
fn a_chunk_off_the_grid_is_warned_of() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp_dir("off-grid");
    let bytes = std::fs::read(root.join("adt/wowserfmt_continent4229.adt")).unwrap();
    let mut adt = formats::adt::Adt::from_bytes(&bytes).unwrap();
    adt.mcnk_mut(17).unwrap().position[1] -= 3.0;
    let tile = out.join("continent4229.adt");
    std::fs::write(&tile, adt.to_bytes().unwrap()).unwrap();
    let warned = || {
        predicate::str::is_match(
            r"warning: .*continent4229.adt: 1 chunk is off the grid \(chunk \(1, 1\) first\): placed where their indices say",
        )
        .unwrap()
    };
    formats!["export", &tile, out.join("tile.glb")]
        .success()
        .stderr(warned());
    formats!["render", &tile, "--heightmap", out.join("tile.png")]
        .success()
        .stderr(warned());
    // The unmoved tile: no such warning.
    std::fs::write(&tile, &bytes).unwrap();
    formats!["export", &tile, out.join("tile.glb")]
        .success()
        .stderr(predicate::str::contains("off the grid").not());
}

/// A tile cut short has chunks without heights: its heightmap is drawn,
/// with a warning saying how many (as `export` says); read leniently, it
/// also gives splat maps and exports.
#[test]
fn a_tile_cut_short_warns_of_chunks_without_heights() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp_dir("cut-tile");
    let bytes = std::fs::read(root.join("adt/wowserfmt_continent4229.adt")).unwrap();
    let tile = out.join("continent4229.adt");
    std::fs::write(&tile, &bytes[..100_000]).unwrap();
    for image in ["cut.tif", "cut.png"] {
        formats!["render", &tile, "--heightmap", out.join(image)]
            .success()
            .stderr(
                predicate::str::is_match(
                    r"warning: .*continent4229.adt: \d+ of 256 chunks have no heights",
                )
                .unwrap(),
            );
    }
    // Read leniently as for the heightmap, it gives its splat maps and
    // exports too, each saying how it was read.
    let lenient =
        || predicate::str::is_match(r"warning: .*continent4229.adt: read leniently \(").unwrap();
    formats!["render", &tile, "--splat", out.join("splat/")]
        .success()
        .stderr(lenient())
        .stderr(predicate::str::contains("wrote splat maps"));
    assert!(out.join("splat/continent4229_splat.json").is_file());
    formats!["export", &tile, out.join("cut.glb")]
        .success()
        .stderr(lenient());
    // What no reader takes (not a chunk in sight) is said as an error, not
    // followed by a line saying splat maps were written.
    let junk = out.join("junk_1_2.adt");
    std::fs::write(&junk, [0xAB; 64]).unwrap();
    formats!["render", &junk, "--splat", out.join("junk/")]
        .failure()
        .stderr(predicate::str::contains("error: "))
        .stderr(predicate::str::contains("wrote splat maps").not());
}

/// One tile's 16-bit PNG says its range: in the `wrote` line and in its
/// `tEXt` chunks (as each tile PNG of a map does, and its overview).
#[test]
fn a_tile_png_says_its_range() {
    let Some((folder, out)) = map_and_out("tile-range") else {
        return;
    };
    let tile = folder.join("cataclysmctf_31_27.adt");
    let (_, alone) = heightmap(&tile);
    let range = alone.range().unwrap();
    let png = out.join("one.png");
    formats!["render", &tile, "--heightmap", &png]
        .success()
        .stderr(predicate::str::contains(format!(
            "0 is {} yards, 65535 is {} yards",
            range.min, range.max
        )))
        .stderr(predicate::str::contains("warning").not());
    let text = png_text(&png);
    let value = |key: &str| text[key].parse::<f32>().unwrap();
    assert_eq!(
        (value("height_min"), value("height_max")),
        (range.min, range.max)
    );
    let heights = out.join("map");
    formats![
        "render",
        folder.join("cataclysmctf.wdt"),
        "--heightmap",
        &heights
    ]
    .success();
    let index = read_json(&heights.join("heightmap.json"));
    let range = |end: &str| index["range"][end].as_f64().unwrap() as f32;
    // Each tile's PNG, and the overview's, say the map's range.
    for png in ["cataclysmctf_30_28.png", "overview.png"] {
        let text = png_text(&heights.join(png));
        let value = |key: &str| text[key].parse::<f32>().unwrap();
        assert_eq!(value("height_min"), range("min"), "{png}");
        assert_eq!(value("height_max"), range("max"), "{png}");
    }
}

/// `--range` says how many samples it clamps: of one tile, and of several
/// tiles in all, once.
#[test]
fn a_range_says_what_it_clamps() {
    let Some((folder, out)) = map_and_out("clamps") else {
        return;
    };
    let tile = folder.join("cataclysmctf_31_27.adt");
    let (_, alone) = heightmap(&tile);
    let cut = HeightRange::parse("-50:100").unwrap();
    let below = alone.heights.iter().filter(|h| **h < cut.min).count();
    let above = alone.heights.iter().filter(|h| **h > cut.max).count();
    assert!(above > 0);
    formats![
        "render",
        &tile,
        "--range",
        "-50:100",
        "--heightmap",
        out.join("cut.png")
    ]
    .success()
    .stderr(predicate::str::contains(format!(
        "warning: --range -50:100 clamps {} of {} samples ({below} below -50",
        below + above,
        alone.heights.len()
    )));
    let text = png_text(&out.join("cut.png"));
    assert_eq!(
        (&text["height_min"][..], &text["height_max"][..]),
        ("-50", "100")
    );
    formats![
        "render",
        &tile,
        folder.join("cataclysmctf_30_27.adt"),
        "--range",
        "-50:100",
        "--heightmap",
        out.join("two")
    ]
    .success()
    .stderr(predicate::str::contains("warning: --range -50:100 clamps").count(1))
    .stderr(predicate::str::contains(format!(
        "of {} samples",
        2 * alone.heights.len()
    )));
    // A range that holds every height says nothing.
    formats![
        "render",
        &tile,
        "--range",
        "-1000:1000",
        "--heightmap",
        out.join("all.png")
    ]
    .success()
    .stderr(predicate::str::contains("warning").not());
}

/// In a map where a tile cannot be read, `heightmap.json` lists it as
/// failed, with the error, beside the tiles drawn and those missing.
#[test]
fn a_failed_tile_is_listed_in_the_index() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folder = map_copy(&root, "failed", &["30_27", "31_27"]);
    let broken = folder.join("cataclysmctf_31_27.adt");
    let bytes = std::fs::read(&broken).unwrap();
    std::fs::write(&broken, &bytes[..600]).unwrap();
    let out = temp_dir("failed-out");
    let heights = out.join("heights");
    formats![
        "render",
        folder.join("cataclysmctf.wdt"),
        "--heightmap",
        &heights
    ]
    .failure()
    .stderr(predicate::str::is_match("error: .*cataclysmctf_31_27.adt").unwrap());
    let index = read_json(&heights.join("heightmap.json"));
    assert_eq!(index["tiles"].as_array().unwrap().len(), 1);
    assert_eq!(index["missing"].as_array().unwrap().len(), 7);
    let failed = index["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["file"], "cataclysmctf_31_27.adt");
    assert!(!failed[0]["error"].as_str().unwrap().is_empty());
}

/// Two tiles of one file name from two folders would write their images
/// over each other: refused before anything is written, as `export` does.
#[test]
fn tiles_of_one_name_are_refused() {
    let Some((folder, out)) = map_and_out("one-name") else {
        return;
    };
    let other = out.join("other/cataclysmctf_31_27.adt");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::copy(folder.join("cataclysmctf_30_28.adt"), &other).unwrap();
    for option in ["--heightmap", "--splat"] {
        formats![
            "render",
            folder.join("cataclysmctf_31_27.adt"),
            &other,
            option,
            out.join("images")
        ]
        .failure()
        .stderr(predicate::str::contains("would both be written to"));
        assert!(!out.join("images").exists(), "{option}");
    }
}

/// Tiles that do not go together: two files of one tile are refused before
/// any heightmap is written; a file given twice is drawn once; a file name
/// that names another tile than its chunks, and tiles of several maps, are
/// warned of.
#[test]
fn tiles_in_conflict_are_refused_or_warned() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let map = root.join("maps/cataclysmctf");
    let out = temp_dir("conflict");
    let render = |files: &[&Path], heights: &str| {
        let mut cmd = formats_command();
        cmd.arg("render")
            .args(files)
            .arg("--heightmap")
            .arg(out.join(heights));
        cmd.assert()
    };
    // adt/'s copy of the map's 30_27 is the same tile.
    let copy = root.join("adt/twinpeaks_cataclysmctf_30_27.adt");
    render(&[&map.join("cataclysmctf_30_27.adt"), &copy], "same")
        .failure()
        .stderr(predicate::str::contains("are both tile 30_27"));
    assert!(!out.join("same/heightmap.json").exists());
    let tile = map.join("cataclysmctf_30_27.adt");
    render(&[&tile, &tile], "twice/")
        .success()
        .stderr(predicate::str::contains(
            "cataclysmctf_30_27.adt is given twice: taken once",
        ))
        .stderr(predicate::str::contains("wrote 1 heightmap "));
    // 30_28's bytes under the name of 31_28, alone and in the map's folder.
    let folder = map_copy(&root, "misnamed", &["30_27", "30_28"]);
    let misnamed = copy_as(
        &root,
        "maps/cataclysmctf/cataclysmctf_30_28.adt",
        &folder,
        "cataclysmctf_31_28.adt",
    );
    let says = "the file name says tile 31_28, its chunks' positions say 30_28: placed at 30_28";
    formats!["render", &misnamed, "--heightmap", out.join("misnamed.tif")]
        .success()
        .stderr(predicate::str::contains(says));
    formats!["export", &misnamed, out.join("misnamed.glb")]
        .success()
        .stderr(predicate::str::contains(says));
    render(&[&folder], "map")
        .failure()
        .stderr(predicate::str::contains(says))
        .stderr(predicate::str::contains("are both tile 30_28"));
    // `export` refuses them as `render` does, before writing any tile: both
    // would claim the tile's place (twice in the map's index) and its seams.
    for (inputs, folder_out) in [
        (vec![folder.join("cataclysmctf.wdt")], "export-map"),
        (
            vec![map.join("cataclysmctf_30_27.adt"), copy.clone()],
            "export-same",
        ),
    ] {
        formats_command()
            .arg("export")
            .args(&inputs)
            .arg(out.join(folder_out))
            .assert()
            .failure()
            .stderr(predicate::str::contains("are both tile 30_2"));
        let written = out.join(folder_out);
        assert!(!written.exists() || common::listing(&written).is_empty());
    }
    // Tiles of two maps: one overview of both, said.
    render(
        &[
            &root.join("adt/blizzardry_Azeroth_38_46.adt"),
            &root.join("adt/tswowassets_kalimdor_1_1.adt"),
        ],
        "maps",
    )
    .success()
    .stderr(predicate::str::contains(
        "warning: the tiles are of 2 maps by their file names: blizzardry_azeroth \
         (blizzardry_Azeroth_38_46.adt), tswowassets_kalimdor (tswowassets_kalimdor_1_1.adt)",
    ));
}

/// Output names that say another format, or a file where a folder goes,
/// are refused; an overview smaller than one pixel per tile corner too.
#[test]
fn output_names_and_sizes_are_checked() {
    let Some((folder, out)) = map_and_out("names") else {
        return;
    };
    let tile = folder.join("cataclysmctf_31_27.adt");
    for name in ["north.jpg", "north"] {
        formats!["render", &tile, "--heightmap", out.join(name)]
            .failure()
            .stderr(predicate::str::contains(
                "the file name must end in .png, .tif, .tiff",
            ));
        assert!(!out.join(name).exists(), "{name}");
    }
    formats!["render", &tile, "--alpha", out.join("alpha.bmp")]
        .failure()
        .stderr(predicate::str::contains("--alpha"))
        .stderr(predicate::str::contains("must end in .png"));
    let wdt = folder.join("cataclysmctf.wdt");
    for option in ["--heightmap", "--splat"] {
        formats!["render", &wdt, option, out.join("hm.png")]
            .failure()
            .stderr(predicate::str::contains("names an image file"));
        assert!(!out.join("hm.png").exists(), "{option}");
    }
    // Three tiles across: 4 pixels at the least (one per tile corner).
    formats![
        "render",
        &wdt,
        "--overview-size",
        "3",
        "--heightmap",
        out.join("small")
    ]
    .failure()
    .stderr(predicate::str::contains(
        "--overview-size 3: the smallest overview of these tiles is 4x3 pixels",
    ));
    assert!(!out.join("small/heightmap.json").exists());
    formats![
        "render",
        &wdt,
        "--overview-size",
        "4",
        "--heightmap",
        out.join("four")
    ]
    .success();
    assert_eq!(
        (
            gray16(&out.join("four/overview.png")).0,
            gray16(&out.join("four/overview.png")).1
        ),
        (4, 3)
    );
}

/// The glTF terrain module docs say what `COLOR_0` and `_MCCV` hold,
/// as the export writes them: `_MCCV` the values unscaled but reordered
/// from the file's blue, green, red, alpha to RGBA; `COLOR_0` value / 127,
/// clamped to 1.0 (which the corpus's Northrend tile needs: it has values
/// above 0x7F).
#[test]
fn the_docs_say_what_mccv_becomes_in_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The module docs are the one place that says it (docs/terrain.md links there).
    let docs = std::fs::read_to_string(repo.join("formats/src/gltf/mod.rs")).unwrap();
    let flat = docs
        .replace("//!", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(!flat.contains("raw `_MCCV`"));
    assert!(!flat.contains("bytes as stored"));
    assert!(flat.contains("**clamped to 1.0**"));
    assert!(flat.contains("**reordered** to `[r, g, b, a]`"));
    assert!(flat.contains("blue, green, red, alpha"));
    let tile = root.join("adt/warcraftnet_Northrend_37_25.adt");
    let out = temp_dir("mccv");
    let glb = out.join("north.glb");
    formats!["export", &tile, &glb].success();
    let bytes = std::fs::read(&glb).unwrap();
    let (json, bin) = common::glb_parts(&bytes);
    let terrain = json["meshes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "terrain")
        .unwrap();
    let attributes = &terrain["primitives"][0]["attributes"];
    let (_, mccv) = common::accessor_values(&json, bin, &attributes["_MCCV"]);
    let (_, color) = common::accessor_values(&json, bin, &attributes["COLOR_0"]);
    // The file's bytes of the first MCNK's MCCV: blue, green, red, alpha.
    let data = std::fs::read(&tile).unwrap();
    let mcnk = common::raw_chunks(&data)
        .into_iter()
        .find(|(tag, _)| tag == b"MCNK")
        .unwrap()
        .1;
    let at = mcnk.windows(4).position(|w| w == b"VCCM").unwrap() + 8;
    let file: Vec<u8> = mcnk[at..at + 145 * 4].to_vec();
    for (i, bgra) in file.chunks_exact(4).enumerate() {
        let rgba = [bgra[2], bgra[1], bgra[0], bgra[3]].map(f64::from);
        assert_eq!(mccv[i * 4..i * 4 + 4], rgba, "vertex {i}");
    }
    assert!(mccv.iter().any(|v| *v > 127.0), "values above 0x7F");
    for (rgb, rgba) in color.chunks_exact(3).zip(mccv.chunks_exact(4)) {
        for (c, v) in rgb.iter().zip(rgba) {
            assert!((c - (v / 127.0).min(1.0)).abs() < 1e-6);
        }
    }
}
/// `export` of a map's folder holding a companion WDT and a tile that
/// cannot be read: the companion skipped, the tile listed as failed in
/// `MAP.json` (with `export_mod.patch` applied).
#[test]
fn a_map_folder_exports_without_companions_and_lists_failed_tiles() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folder = map_copy(&root, "export-companions", &["30_27", "31_27"]);
    copy_as(
        &root,
        "wdt/twinpeaks_cataclysmctf_lgt.wdt",
        &folder,
        "cataclysmctf_lgt.wdt",
    );
    let broken = folder.join("cataclysmctf_31_27.adt");
    let bytes = std::fs::read(&broken).unwrap();
    std::fs::write(&broken, &bytes[..600]).unwrap();
    let out = temp_dir("export-companions-out");
    formats!["export", &folder, &out]
        .failure()
        .stderr(predicate::str::contains(
            "skipped 1 WDT that is not a map's: cataclysmctf_lgt.wdt",
        ));
    let index = read_json(&out.join("cataclysmctf.json"));
    assert_eq!(index["tiles"].as_array().unwrap().len(), 1);
    assert_eq!(index["failed"][0]["file"], "cataclysmctf_31_27.adt");
}

/// A Cataclysm+ tile is three files: the root (heights), `_tex0` (textures,
/// alpha maps) and `_obj0` (doodads, map objects). Made here from the corpus
/// tile `cataclysmctf_31_27` (the corpus has no real split files): its root
/// exports and renders with the parts beside it read, to the same glTF,
/// splat maps and alpha image as the monolithic tile; a part given alone is
/// refused with the root to give instead.
#[test]
fn a_split_tile_exports_and_renders_with_its_parts() {
    let Some((folder, out)) = map_and_out("split-tile") else {
        return;
    };
    let whole = folder.join("cataclysmctf_31_27.adt");
    let split = formats::adt::SplitAdt::from_monolithic(
        &Adt::from_bytes(&std::fs::read(&whole).unwrap()).unwrap(),
    );
    let split_dir = out.join("split");
    std::fs::create_dir_all(&split_dir).unwrap();
    let root = split_dir.join("cataclysmctf_31_27.adt");
    std::fs::write(&root, split.root.to_bytes().unwrap()).unwrap();
    for (suffix, file) in [("_tex0", &split.tex0), ("_obj0", &split.obj0)] {
        let path = split_dir.join(format!("cataclysmctf_31_27{suffix}.adt"));
        std::fs::write(path, file.to_bytes().unwrap()).unwrap();
    }
    // ADT_MANIFEST: 140 doodads (MDDF) and 4 map objects (MODF), in _obj0.
    formats!["export", &root, out.join("split.glb")]
        .success()
        .stdout(predicate::str::contains(
            "(with cataclysmctf_31_27_tex0.adt, cataclysmctf_31_27_obj0.adt)",
        ))
        .stdout(predicate::str::contains("140 doodads, 4 map objects"));
    formats!["export", &whole, out.join("whole.glb")].success();
    let read = |name: &str| std::fs::read(out.join(name)).unwrap();
    assert!(
        read("split.glb") == read("whole.glb"),
        "the split tile's glTF differs"
    );
    for (tile, name) in [(&root, "split"), (&whole, "whole")] {
        formats![
            "render",
            tile,
            "--splat",
            out.join(format!("{name}-splat/")),
            "--alpha",
            out.join(format!("{name}-alpha.png"))
        ]
        .success();
    }
    assert_eq!(read("split-alpha.png"), read("whole-alpha.png"));
    let files = common::listing(&out.join("whole-splat"));
    assert_eq!(common::listing(&out.join("split-splat")), files);
    assert!(
        files.iter().any(|f| f.ends_with("_layer1.png")),
        "{files:?}"
    );
    for file in &files {
        assert_eq!(
            read(&format!("split-splat/{file}")),
            read(&format!("whole-splat/{file}")),
            "{file}"
        );
    }
    for part in ["_tex0", "_obj0"] {
        let path = split_dir.join(format!("cataclysmctf_31_27{part}.adt"));
        for command in [
            vec!["export".into(), path.clone(), out.join("part.glb")],
            vec![
                "render".into(),
                path.clone(),
                "--splat".into(),
                out.join("p/"),
            ],
            vec![
                "render".into(),
                path,
                root.clone(),
                "--heightmap".into(),
                out.join("h/"),
            ],
        ] {
            formats_command()
                .args(&command)
                .assert()
                .failure()
                .stderr(predicate::str::contains(
                    "a part of a split tile, not a tile: give its root file",
                ));
        }
    }
}

/// Every position of every mesh of a `.glb` (terrain and liquids), read
/// back with the `gltf` crate.
fn glb_positions(glb: &[u8]) -> Vec<[f32; 3]> {
    let gltf::Gltf { document, blob } = gltf::Gltf::from_slice(glb).expect("a GLB");
    let blob = blob.expect("a binary chunk");
    document
        .meshes()
        .flat_map(|m| m.primitives().collect::<Vec<_>>())
        .flat_map(|p| {
            let reader = p.reader(|_| Some(&blob[..]));
            reader
                .read_positions()
                .expect("positions")
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A tile whose numbers are not numbers (a chunk's base height NaN, an
/// MCVT value infinite, a liquid's level NaN) exports a glTF without
/// them: glTF validators refuse NaN and infinity in an accessor (the
/// Khronos validator: ACCESSOR_INVALID_FLOAT). Those chunks and that liquid
/// are left out, each said in a warning, and the heightmap holds NaN
/// ("no height") there, not infinity.
#[test]
fn heights_that_are_not_numbers_are_left_out_of_the_export() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp_dir("not-finite");
    let bytes = std::fs::read(root.join("adt/wowserfmt_continent4229.adt")).unwrap();
    let mut adt = Adt::from_bytes(&bytes).unwrap();
    for (i, mcnk) in adt.mcnks_mut().enumerate() {
        match i {
            5 => mcnk.position[2] = f32::NAN,
            7 => mcnk.heights_mut().unwrap().height[10] = f32::INFINITY,
            _ => {}
        }
    }
    let liquid = adt
        .mh2o_or_insert()
        .unwrap()
        .chunks
        .iter_mut()
        .flat_map(|c| c.instances.iter_mut())
        // An ocean (depths only): its heights are its `min_height_level`.
        .find(|i| {
            i.vertex_data
                .as_ref()
                .is_some_and(|d| d.heightmap().is_none())
        })
        .unwrap();
    liquid.min_height_level = f32::NAN;
    let tile = out.join("continent_42_29.adt");
    std::fs::write(&tile, adt.to_bytes().unwrap()).unwrap();
    let glb = out.join("tile.glb");
    formats!["export", &tile, &glb]
        .success()
        .stderr(predicate::str::contains(
            "2 of 256 chunks have no heights, 2 of them with NaN or infinite heights (left out)",
        ))
        .stderr(predicate::str::contains(
            "1 of 9 liquid instances have NaN or infinite heights (left out)",
        ));
    let positions = glb_positions(&std::fs::read(&glb).unwrap());
    // 254 chunks of terrain and the liquids but the one.
    assert!(positions.len() > 254 * 145, "{}", positions.len());
    assert!(positions.iter().flatten().all(|c| c.is_finite()));
    let (terrain, _) = common::glb_terrain(&std::fs::read(&glb).unwrap());
    assert_eq!(terrain.len(), 254 * 145);
    // The heightmap: NaN in those chunks' samples, every other one finite.
    let tif = out.join("tile.tif");
    formats!["render", &tile, "--heightmap", &tif]
        .success()
        .stderr(predicate::str::contains(
            "2 of them with NaN or infinite heights",
        ));
    let (_, map) = heightmap(&tile);
    assert!(map.heights.iter().all(|h| h.is_finite() || h.is_nan()));
    assert!(map.get(5 * 16 + 3, 3).unwrap().is_nan());
    assert!(map.get(7 * 16 + 3, 3).unwrap().is_nan());
    assert!(map.get(6 * 16 + 3, 3).unwrap().is_finite());
}

/// A tile only the lenient reader takes (cut short: its last 42 chunks
/// lost) still owns the edges it has: exported with its map, its western
/// neighbour takes its copy of their seam, as `render` does, so the two
/// meshes meet to the bit. (The first pass read the edges strictly, so the
/// damaged tile gave none and one vertex of the seam differed.)
#[test]
fn a_damaged_tile_shares_its_edges_in_a_map_export() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folder = map_copy(&root, "damaged-seam", &["30_27", "30_28", "32_27"]);
    let bytes = std::fs::read(root.join("maps/cataclysmctf/cataclysmctf_31_27.adt")).unwrap();
    std::fs::write(folder.join("cataclysmctf_31_27.adt"), &bytes[..2_000_000]).unwrap();
    let out = temp_dir("damaged-seam-out");
    formats!["export", folder.join("cataclysmctf.wdt"), &out]
        .success()
        .stderr(predicate::str::contains(
            "cataclysmctf_31_27.adt: read leniently",
        ));
    let positions = |name: &str| common::glb_terrain(&std::fs::read(out.join(name)).unwrap()).0;
    let (west, east) = (
        positions("cataclysmctf_30_27.glb"),
        positions("cataclysmctf_31_27.glb"),
    );
    // The damaged tile has chunk rows 0..13 whole (its chunks in row order):
    // the seam's outer vertices there, north to south, in both tiles.
    let bits = |p: [f32; 3]| p.map(f32::to_bits);
    let mut compared = 0;
    for row in 0..13 {
        for r in 0..9 {
            let w = west[(row * 16 + 15) * 145 + r * 17 + 8];
            let e = east[(row * 16) * 145 + r * 17];
            assert_eq!(bits(w), bits(e), "chunk row {row}, vertex row {r}");
            compared += 1;
        }
    }
    assert_eq!(compared, 13 * 9);
}

/// A tile cut before its first MCNK is an error that says where it is cut
/// (the strict reader's error and offset), not only that it "has no MCNK";
/// so is a map's WDT cut inside its chunks, rather than being called a
/// companion WDT for the chunks it has left. A companion cut short beside
/// the map is still skipped, by its name.
#[test]
fn a_file_cut_short_says_where() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = temp_dir("cut-where");
    let bytes = std::fs::read(root.join("maps/cataclysmctf/cataclysmctf_31_27.adt")).unwrap();
    let tile = out.join("cataclysmctf_31_27.adt");
    std::fs::write(&tile, &bytes[..1000]).unwrap();
    let cut = "the tile has no MCNK; ";
    let strict = "the strict reader's error: chunks[2].MCIN: chunk size 4096 at 0x58 exceeds";
    formats!["export", &tile, out.join("cut.glb")]
        .failure()
        .stderr(predicate::str::contains(cut))
        .stderr(predicate::str::contains(strict));
    let other = copy_as(
        &root,
        "maps/cataclysmctf/cataclysmctf_30_27.adt",
        &out,
        "cataclysmctf_30_27.adt",
    );
    formats!["render", &tile, &other, "--heightmap", out.join("heights/")]
        .failure()
        .stderr(predicate::str::contains(cut))
        .stderr(predicate::str::contains(strict));
    // A map's WDT cut inside MPHD, with a light WDT cut short beside it.
    let folder = map_copy(&root, "cut-wdt", &["30_27"]);
    let wdt = std::fs::read(folder.join("cataclysmctf.wdt")).unwrap();
    std::fs::write(folder.join("cataclysmctf.wdt"), &wdt[..20]).unwrap();
    let light = std::fs::read(root.join("wdt/twinpeaks_cataclysmctf_lgt.wdt")).unwrap();
    std::fs::write(folder.join("cataclysmctf_lgt.wdt"), &light[..6]).unwrap();
    let wdt_error = "cataclysmctf.wdt: chunks[1].MPHD: chunk size 32 at 0x10 exceeds";
    formats!["export", folder.join("cataclysmctf.wdt"), out.join("map")]
        .failure()
        .stderr(predicate::str::contains(wdt_error))
        .stderr(predicate::str::contains("not a map's").not());
    formats!["render", &folder, "--heightmap", out.join("map-heights")]
        .failure()
        .stderr(predicate::str::contains(
            "skipped 1 WDT that is not a map's: cataclysmctf_lgt.wdt (a light WDT (_lgt.wdt))",
        ))
        .stderr(predicate::str::contains(wdt_error));
}

/// `--range` draws 16-bit PNGs; given for one tile's float TIFF, which holds
/// the heights themselves, it is said to be unused rather than silently
/// ignored (the TIFF is the same with it or without).
#[test]
fn a_range_for_a_float_tiff_is_said_to_be_unused() {
    let Some((folder, out)) = map_and_out("range-tiff") else {
        return;
    };
    let tile = folder.join("cataclysmctf_30_27.adt");
    let (with, without) = (out.join("with.tif"), out.join("without.tif"));
    formats!["render", &tile, "--range", "0:100", "--heightmap", &with]
        .success()
        .stderr(predicate::str::contains(
            "warning: --range 0:100 is not used for",
        ));
    formats!["render", &tile, "--heightmap", &without]
        .success()
        .stderr(predicate::str::contains("--range").not());
    assert_eq!(
        std::fs::read(&with).unwrap(),
        std::fs::read(&without).unwrap()
    );
}
