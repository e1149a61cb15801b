//! `formats::render` and `formats render`: the PNGs decoded back (by the png
//! crate, and every corpus picture and every file the command writes by
//! Pillow) and compared with the data they were drawn from.

use crate::common;

use common::formats;

use formats::adt::Adt;
use formats::adt::alpha::BIG_ALPHA_FLAGS;
use formats::mdx::Model;
use formats::render::{self, Color, Image};
use formats::wdt::Wdt;
use predicates::prelude::*;

/// Decodes a PNG: (width, height, color type, bit depth, bytes).
fn decode(png_bytes: &[u8]) -> (u32, u32, png::ColorType, png::BitDepth, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a PNG frame");
    buf.truncate(info.buffer_size());
    (
        info.width,
        info.height,
        info.color_type,
        info.bit_depth,
        buf,
    )
}

fn round_trip(image: &Image) -> Vec<u8> {
    let (w, h, _, _, data) = decode(&image.to_png().unwrap());
    assert_eq!((w as usize, h as usize), (image.width, image.height));
    assert_eq!(data, image.data);
    data
}

/// What Pillow read of an image of ours (`what`, for messages) in the
/// layout of ours, `color`: its pixels (16-bit
/// big-endian, as PNG stores them; Pillow holds them little-endian).
fn pillow_pixels(theirs: &common::PillowImage, color: Color, what: &str) -> Vec<u8> {
    let mode = match color {
        Color::Rgb8 => "RGB",
        Color::Gray8 => "L",
        Color::Gray16 => "I;16",
    };
    assert_eq!(theirs.mode, mode, "{what}");
    match color {
        Color::Gray16 => theirs.u16s().iter().flat_map(|v| v.to_be_bytes()).collect(),
        _ => theirs.bytes.clone(),
    }
}

#[test]
fn the_heightmap_is_brightest_at_the_highest_mcvt_point() {
    for (path, tile) in common::corpus_tiles() {
        let image = render::heightmap(&tile).unwrap();
        assert_eq!(
            (image.width, image.height, image.color),
            (257, 257, Color::Gray16)
        );
        let data = round_trip(&image);
        let pixel = |x: usize, y: usize| {
            let at = 2 * (y * 257 + x);
            u16::from_be_bytes([data[at], data[at + 1]])
        };
        // Outer and inner vertices, computed here from the chunks' MCVT: outer
        // at even pixels, inner at odd ones, 16 pixels per chunk.
        let mut points = Vec::new();
        for mcnk in tile.mcnks() {
            let heights = &mcnk.heights().unwrap().height;
            let (x0, y0) = (mcnk.index_x as usize * 16, mcnk.index_y as usize * 16);
            for row in 0..9 {
                for col in 0..9 {
                    let h = mcnk.position[2] + heights[row * 17 + col];
                    points.push((x0 + 2 * col, y0 + 2 * row, h));
                    if row < 8 && col < 8 {
                        let h = mcnk.position[2] + heights[row * 17 + 9 + col];
                        points.push((x0 + 2 * col + 1, y0 + 2 * row + 1, h));
                    }
                }
            }
        }
        let top = points.iter().max_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
        let bottom = points.iter().min_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
        assert_eq!(pixel(top.0, top.1), u16::MAX, "{path}");
        assert_eq!(pixel(bottom.0, bottom.1), 0, "{path}");
        assert!(top.2 > bottom.2, "{path}: a flat tile");
        // Everything else is in between, in the order of the heights.
        let (a, b) = (points[0], points[points.len() / 2 + 1]);
        assert_eq!(
            a.2.total_cmp(&b.2),
            pixel(a.0, a.1).cmp(&pixel(b.0, b.1)),
            "{path}"
        );
    }
}

#[test]
fn the_alpha_image_holds_layers_1_2_3_in_red_green_blue() {
    for (i, (path, tile)) in common::corpus_tiles().into_iter().enumerate() {
        let flags = render::guess_mphd_flags(&tile);
        let image = render::alpha_maps(&tile, flags).unwrap();
        assert_eq!(
            (image.width, image.height, image.color),
            (1024, 1024, Color::Rgb8)
        );
        // PNG encoding is slow in debug builds: one tile goes through it.
        let data = if i == 0 {
            round_trip(&image)
        } else {
            image.data
        };
        let mut alpha_layers = 0;
        for mcnk in tile.mcnks() {
            for (layer, map) in mcnk.alpha_maps(flags).unwrap() {
                alpha_layers += 1;
                for (x, y) in [(0, 0), (17, 40), (63, 63), (31, 5)] {
                    let px = mcnk.index_x as usize * 64 + x;
                    let py = mcnk.index_y as usize * 64 + y;
                    let at = 3 * (py * 1024 + px) + layer - 1;
                    assert_eq!(data[at], map.get(x, y), "{path}");
                }
            }
        }
        let lit = data.iter().filter(|v| **v != 0).count();
        assert_eq!(
            lit > 0,
            alpha_layers > 0,
            "{path}: {alpha_layers} alpha layers"
        );
    }
}

#[test]
fn the_guessed_alpha_depth_is_the_one_the_manifest_and_the_wdts_give() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    // ADT_MANIFEST.md: 8-bit (4096 bytes per layer, or compressed) and 4-bit tiles.
    let big = [
        "twinpeaks_cataclysmctf_30_27",
        "bfgilneas_gilneas_bg_2_28_31",
        "warcraftnet_Northrend_37_25",
    ];
    let small = [
        "wowserfmt_continent4229",
        "wowserfmt_pvpzone3430",
        "patch5_Aeven_10_3",
        "tswowassets_kalimdor_1_1",
    ];
    for (names, expected) in [(&big[..], BIG_ALPHA_FLAGS), (&small[..], 0)] {
        for name in names {
            let data = std::fs::read(root.join(format!("adt/{name}.adt"))).unwrap();
            let tile = Adt::from_bytes(&data).unwrap();
            assert_eq!(render::guess_mphd_flags(&tile), expected, "{name}");
        }
    }
    // And the map's own WDT agrees where the corpus has it.
    for (adt, wdt) in [
        ("twinpeaks_cataclysmctf_30_27", "twinpeaks_cataclysmctf"),
        ("bfgilneas_gilneas_bg_2_28_31", "bfgilneas_Gilneas_BG_2"),
        ("patch5_Aeven_10_3", "patch5_Aeven"),
        ("wowserfmt_continent4229", "wowserfmt_continent"),
        ("wowserfmt_pvpzone3430", "wowserfmt_pvpzone"),
    ] {
        let tile = Adt::from_bytes(&std::fs::read(root.join(format!("adt/{adt}.adt"))).unwrap());
        let map = Wdt::from_bytes(&std::fs::read(root.join(format!("wdt/{wdt}.wdt"))).unwrap());
        let (tile, map) = (tile.unwrap(), map.unwrap());
        assert_eq!(
            render::guess_mphd_flags(&tile) != 0,
            map.mphd_flags() & BIG_ALPHA_FLAGS != 0,
            "{adt}"
        );
    }
}

#[test]
fn the_sample_cube_seen_from_the_front_is_a_square() {
    let model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let image = render::wireframe(&model, 64);
    let data = round_trip(&image);
    let at = |x: usize, y: usize| data[y * 64 + x];
    // A 1x1 square fit into 64 pixels with a 5% margin: edges at 3 and 60.
    for i in 3..=60 {
        assert_eq!(
            [at(3, i), at(60, i), at(i, 3), at(i, 60)],
            [255; 4],
            "edge pixel {i}"
        );
        assert_eq!([at(1, i), at(62, i), at(i, 1), at(i, 62)], [0; 4]);
    }
}

#[test]
fn a_real_model_has_a_non_trivial_wireframe() {
    let Some(data) = common::corpus_file("mdx/pqw3_HarvestGolem.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let image = render::wireframe(&model, 256);
    let white = image.data.iter().filter(|v| **v == 255).count();
    assert!(
        white > 5_000 && white < 256 * 256 / 2,
        "{white} white pixels"
    );
    // Fit to the image: something on the top and bottom margin rows, nothing outside.
    let row = |y: usize| &image.data[y * 256..(y + 1) * 256];
    assert!(row(0).iter().all(|v| *v == 0));
    let used: Vec<usize> = (0..256).filter(|y| row(*y).contains(&255)).collect();
    assert_eq!((used[0], used[used.len() - 1]), (13, 242));
}

#[test]
fn every_corpus_model_draws() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let mut drawn = 0;
    for path in common::files_in(&root, "mdx", ".mdx") {
        let data = std::fs::read(root.join(&path)).unwrap();
        let (model, _) = Model::from_bytes_lenient(&data).unwrap();
        let image = render::wireframe(&model, 64);
        assert_eq!(image.data.len(), 64 * 64, "{path}");
        let wc3: usize = model.geosets().iter().map(|g| g.triangle_count()).sum();
        let alpha: usize = model
            .alpha_geosets()
            .iter()
            .map(|g| g.triangle_count())
            .sum();
        let triangles = wc3 + alpha;
        let white = image.data.contains(&255);
        assert_eq!(white, triangles > 0, "{path}");
        drawn += usize::from(white);
    }
    // 34 of the 57 corpus models have triangles (the zf_* test files mostly
    // do not), the WoW alpha boar among them.
    assert!(drawn >= 34, "{drawn}");
}

#[test]
fn the_render_command_writes_pngs() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = common::temp_dir("render");
    let (height, alpha, alpha_wdt, wire) = (
        dir.join("h.png"),
        dir.join("a.png"),
        dir.join("aw.png"),
        dir.join("w.png"),
    );
    let tile = root.join("adt/bfgilneas_gilneas_bg_2_28_31.adt");
    formats!["render", &tile, "--heightmap", &height, "--alpha", &alpha].success();
    formats![
        "render",
        &tile,
        "--alpha",
        &alpha_wdt,
        "--wdt",
        root.join("wdt/bfgilneas_Gilneas_BG_2.wdt")
    ]
    .success();
    let (w, h, color, depth, _) = decode(&std::fs::read(&height).unwrap());
    assert_eq!(
        (w, h, color, depth),
        (257, 257, png::ColorType::Grayscale, png::BitDepth::Sixteen)
    );
    let (w, h, color, _, pixels) = decode(&std::fs::read(&alpha).unwrap());
    assert_eq!((w, h, color), (1024, 1024, png::ColorType::Rgb));
    assert_eq!(pixels, decode(&std::fs::read(&alpha_wdt).unwrap()).4);
    // No file: the built-in sample.
    formats!["render", "--size", "32", "--wireframe", &wire].success();
    assert_eq!(decode(&std::fs::read(&wire).unwrap()).0, 32);
    // Pillow reads every file written as the png crate does.
    let files = [&height, &alpha, &alpha_wdt, &wire].map(|f| f.to_path_buf());
    if let Some(read) = common::pillow_read(&files) {
        for (file, theirs) in files.iter().zip(&read) {
            let (w, h, color, depth, ours) = decode(&std::fs::read(file).unwrap());
            let color = match (color, depth) {
                (png::ColorType::Rgb, _) => Color::Rgb8,
                (_, png::BitDepth::Sixteen) => Color::Gray16,
                _ => Color::Gray8,
            };
            assert_eq!(theirs.size, (w as usize, h as usize), "{}", file.display());
            let what = file.display().to_string();
            assert!(pillow_pixels(theirs, color, &what) == ours, "{what}");
        }
    }
    // Asking a tile for a wireframe, or for nothing.
    formats!["render", &tile, "--wireframe", &wire]
        .failure()
        .stderr(predicate::str::contains("--wireframe draws models"));
    formats!["render", &tile]
        .failure()
        .stderr(predicate::str::contains("nothing to draw"));
}

/// Every image `formats render` draws from the corpus, as PNG, read by
/// Pillow (an independent decoder): each tile's alpha maps (RGB), heightmap
/// (16-bit gray) and each model's wireframe (8-bit gray) hold our pixels.
#[test]
fn pillow_reads_every_corpus_picture() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let mut images = Vec::new();
    for (path, tile) in common::corpus_tiles() {
        let flags = render::guess_mphd_flags(&tile);
        images.push((path.clone(), render::alpha_maps(&tile, flags).unwrap()));
        images.push((path, render::heightmap(&tile).unwrap()));
    }
    for path in common::files_in(&root, "mdx", ".mdx") {
        let data = std::fs::read(root.join(&path)).unwrap();
        let (model, _) = Model::from_bytes_lenient(&data).unwrap();
        images.push((path, render::wireframe(&model, 64)));
    }
    let out = common::temp_dir("render-pillow");
    let files: Vec<_> = images
        .iter()
        .enumerate()
        .map(|(i, (_, image))| {
            let file = out.join(format!("{i}.png"));
            std::fs::write(&file, image.to_png().unwrap()).unwrap();
            file
        })
        .collect();
    let Some(read) = common::pillow_read(&files) else {
        return;
    };
    for ((path, ours), theirs) in images.iter().zip(&read) {
        assert_eq!(theirs.size, (ours.width, ours.height), "{path}");
        let pixels = pillow_pixels(theirs, ours.color, path);
        assert!(pixels == ours.data, "{path}: Pillow reads other pixels");
    }
}

/// Each way a tile cannot be drawn, or a picture encoded, is its own
/// variant: tiles built to fail one way each, and images past what PNG and
/// TIFF hold.
#[test]
fn what_cannot_be_drawn_says_why_by_variant() {
    use formats::adt::AdtChunk;
    use formats::adt::mcnk::{Mcly, Mcnk, McnkChunk, SMLayer, layer_flags};
    use formats::render::RenderError;
    use formats::terrain::{TerrainError, TerrainTile, TileSplat};
    let tile = |mcnks: Vec<Mcnk>| Adt {
        chunks: mcnks.into_iter().map(AdtChunk::Mcnk).collect(),
    };
    let none = tile(vec![]);
    assert!(matches!(
        TerrainTile::from_adt(&none),
        Err(TerrainError::NoChunks)
    ));
    assert!(matches!(
        render::heightmap(&none),
        Err(RenderError::Terrain(TerrainError::NoChunks))
    ));
    let mut far = Mcnk::new(0, 0);
    far.position = [1e9, 0.0, 0.0];
    assert!(matches!(
        TerrainTile::from_adt(&tile(vec![far])),
        Err(TerrainError::OffMap { x: 1e9, y: 0.0 })
    ));
    // On the map, but no chunk has heights.
    assert!(matches!(
        render::heightmap(&tile(vec![Mcnk::new(0, 0)])),
        Err(RenderError::NoHeights)
    ));
    assert!(matches!(
        TileSplat::from_adt(&tile(vec![Mcnk::new(0, 0), Mcnk::new(16, 0)]), 0),
        Err(TerrainError::ChunkIndex { index: 1 })
    ));
    // A layer whose alpha map starts past the (missing) MCAL.
    let mut layered = Mcnk::new(0, 0);
    layered.chunks.push(McnkChunk::Mcly(Mcly {
        layers: vec![
            SMLayer::default(),
            SMLayer {
                flags: layer_flags::USE_ALPHA_MAP,
                offset_in_mcal: 64,
                ..SMLayer::default()
            },
        ],
    }));
    let layered = tile(vec![layered]);
    match TileSplat::from_adt(&layered, 0) {
        Err(TerrainError::Parse(e)) => assert_eq!(e.path_string(), "[0].MCAL"),
        other => panic!("{other:?}"),
    }
    match render::alpha_maps(&layered, 0) {
        Err(RenderError::Parse(e)) => assert_eq!(e.path_string(), "[0].MCAL"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        render::float_tiff(4, 4, &[0.0; 15]),
        Err(RenderError::FewerHeights {
            heights: 15,
            pixels: 16
        })
    ));
    assert!(matches!(
        render::float_tiff(1 << 33, 1, &[]),
        Err(RenderError::TooLarge { format: "TIFF", .. })
    ));
    assert!(matches!(
        render::float_tiff(0, 0, &[]),
        Err(RenderError::Tiff(_))
    ));
    let image = |width, height, data| Image {
        width,
        height,
        color: Color::Gray8,
        data,
    };
    assert!(matches!(
        image(1 << 33, 1, vec![]).to_png(),
        Err(RenderError::TooLarge { format: "PNG", .. })
    ));
    let error = image(2, 2, vec![0; 3]).to_png().unwrap_err();
    assert!(matches!(error, RenderError::Png(_)));
    assert!(std::error::Error::source(&error).is_some());
    // A split part beside the root that does not parse.
    let dir = common::temp_dir("split-part-error");
    std::fs::write(dir.join("Map_32_32_tex0.adt"), b"junk").unwrap();
    let merged =
        formats::terrain::with_split_parts(tile(vec![Mcnk::new(0, 0)]), &dir.join("Map_32_32.adt"));
    std::fs::remove_dir_all(&dir).unwrap();
    match merged {
        Err(TerrainError::Part { path, .. }) => assert!(path.ends_with("Map_32_32_tex0.adt")),
        other => panic!("{other:?}"),
    }
}
