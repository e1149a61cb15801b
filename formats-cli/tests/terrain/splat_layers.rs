//! Splat maps past 4 layers: no corpus tile has more than 4 in a chunk, so
//! corpus tiles are edited to have 7 in one chunk (MCLY entries and their
//! MCAL alpha maps added, in the encoding each tile uses: 8-bit, 4-bit and
//! run-length compressed), written and read back, and their splat maps and
//! manifests checked, from the library and from `formats render --splat`.

use crate::common;

use formats::adt::Adt;
use formats::adt::alpha::{AlphaFormat, AlphaMap, EdgeFix, MAP_SIZE};
use formats::adt::mcnk::{SMLayer, layer_flags};
use formats::render;
use formats::terrain::{SPLAT_SIDE, TileSplat};

/// Layers in the edited chunk.
const LAYERS: usize = 7;

/// What layer `layer`'s alpha map holds at (`x`, `y`) in the edited chunk: a
/// different pattern per layer, in steps of 17 so that 4-bit maps hold it
/// exactly, and with row and column 63 repeating 62 so that the 63 x 63
/// edge fix of 4-bit maps does not change it.
fn pattern(layer: usize, x: usize, y: usize) -> u8 {
    let (x, y) = (x.min(62), y.min(62));
    (17 * ((x / 4 + 3 * (y / 4) + 5 * layer) % 16)) as u8
}

/// The tiles: one per alpha encoding of the corpus.
const TILES: [&str; 3] = [
    // 8-bit uncompressed (4096 bytes per layer).
    "maps/cataclysmctf/cataclysmctf_30_27.adt",
    // 4-bit (2048 bytes per layer).
    "adt/wowserfmt_continent4229.adt",
    // Run-length compressed, some layers 8-bit uncompressed.
    "adt/warcraftnet_Northrend_37_25.adt",
];

/// `adt` with one chunk (the first with the most layers) given [`LAYERS`]
/// layers: those it has, then new ones (texture `3 * layer` of MTEX, alpha map
/// [`pattern`]) in the tile's alpha encoding (alternately compressed and
/// not, where the tile mixes both). Returns the edited tile, written and read
/// back, the chunk's `(IndexX, IndexY)` and the number of layers it had.
fn with_more_layers(adt: &Adt, mphd_flags: u32) -> (Adt, (u32, u32), usize) {
    let mut edited = adt.clone();
    let textures = adt.mtex().unwrap().names().len();
    let compressed = adt
        .mcnks()
        .flat_map(|m| m.layers().map(|l| l.layers.clone()).unwrap_or_default())
        .any(|l| l.flags & layer_flags::ALPHA_MAP_COMPRESSED != 0);
    let count = |m: &formats::adt::mcnk::Mcnk| m.layers().map_or(0, |l| l.layers.len());
    let most = adt.mcnks().map(count).max().unwrap();
    let mcnk = edited.mcnks_mut().find(|m| count(m) == most).unwrap();
    let chunk = (mcnk.index_x, mcnk.index_y);
    let had = most;
    assert!(had >= 1, "a chunk with a base layer");
    assert!(had <= 4, "the corpus has at most 4 layers per chunk");
    let fix = EdgeFix::for_chunk(mcnk.flags);
    for layer in had..LAYERS {
        let flags = layer_flags::USE_ALPHA_MAP
            | if compressed && layer % 2 == 0 {
                layer_flags::ALPHA_MAP_COMPRESSED
            } else {
                0
            };
        let mut map = AlphaMap::filled(0);
        for y in 0..MAP_SIZE {
            for x in 0..MAP_SIZE {
                map.set(x, y, pattern(layer, x, y));
            }
        }
        let bytes = map.encode(AlphaFormat::for_layer(flags, mphd_flags), fix);
        let mcal = mcnk.alpha_mut().unwrap();
        let offset_in_mcal = mcal.data.len() as u32;
        mcal.data.extend_from_slice(&bytes);
        mcal.declared_size = None;
        mcnk.layers_mut().unwrap().layers.push(SMLayer {
            texture_id: ((3 * layer) % textures) as u32,
            flags,
            offset_in_mcal,
            effect_id: 0xFFFF_FFFF,
        });
    }
    let bytes = edited.to_bytes().unwrap();
    let back = Adt::from_bytes(&bytes).unwrap();
    assert_eq!(
        back.to_bytes().unwrap(),
        bytes,
        "the edited tile reads back exactly"
    );
    // Valid: no error `formats validate` finds (texture ids in MTEX, ...),
    // and the MCNK header the client reads says 7 layers (nLayers, 12 bytes
    // into the header).
    let errors: Vec<_> = formats::validate::tile(&back)
        .into_iter()
        .filter(|f| f.severity() == formats::validate::Severity::Error)
        .map(|f| f.message)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let index = back
        .mcnks()
        .position(|m| (m.index_x, m.index_y) == chunk)
        .unwrap();
    let mut at = 0;
    let mut mcnks = 0;
    let n_layers = loop {
        let tag = &bytes[at..at + 4];
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().unwrap()) as usize;
        if tag == b"KNCM" {
            if mcnks == index {
                break u32::from_le_bytes(bytes[at + 8 + 12..at + 8 + 16].try_into().unwrap());
            }
            mcnks += 1;
        }
        at += 8 + size;
    };
    assert_eq!(n_layers as usize, LAYERS);
    (back, chunk, had)
}

/// The splat map of layer `layer` of the edited tile: the original tile's
/// map, with the edited chunk's 64 x 64 cell holding [`pattern`] for the
/// layers added.
fn expected_map(original: &TileSplat, layer: usize, chunk: (u32, u32), had: usize) -> Vec<u8> {
    let mut map = original
        .maps
        .get(layer)
        .cloned()
        .unwrap_or_else(|| vec![0; SPLAT_SIDE * SPLAT_SIDE]);
    if layer >= had {
        let (cx, cy) = (chunk.0 as usize * MAP_SIZE, chunk.1 as usize * MAP_SIZE);
        for y in 0..MAP_SIZE {
            for x in 0..MAP_SIZE {
                map[(cy + y) * SPLAT_SIDE + cx + x] = pattern(layer, x, y);
            }
        }
    }
    map
}

#[test]
fn a_chunk_of_7_layers_has_a_splat_map_per_layer() {
    for path in TILES {
        let Some(data) = common::corpus_file(path) else {
            return;
        };
        let adt = Adt::from_bytes(&data).unwrap();
        let flags = render::guess_mphd_flags(&adt);
        let original = TileSplat::from_adt(&adt, flags).unwrap();
        let (edited, edited_chunk, had) = with_more_layers(&adt, flags);
        assert_eq!(render::guess_mphd_flags(&edited), flags, "{path}");
        let splat = TileSplat::from_adt(&edited, flags).unwrap();

        assert_eq!(splat.maps.len(), LAYERS, "{path}: a map per layer");
        assert_eq!(splat.manifest.layer_count, LAYERS, "{path}");
        for (layer, map) in splat.maps.iter().enumerate() {
            assert!(
                *map == expected_map(&original, layer, edited_chunk, had),
                "{path}: splat map {layer}"
            );
        }
        assert!(
            splat.maps[0].iter().all(|&v| v == 0),
            "{path}: the base layer"
        );

        // The manifest: the edited chunk lists all 7 layers with their
        // textures, flags and alpha encodings; every other chunk is as it was.
        let names = edited.mtex().unwrap().names();
        assert_eq!(splat.manifest.textures, names, "{path}");
        assert_eq!(splat.manifest.chunks.len(), 256, "{path}");
        for (chunk, before) in splat.manifest.chunks.iter().zip(&original.manifest.chunks) {
            if (chunk.chunk.x, chunk.chunk.y) != edited_chunk {
                assert_eq!(chunk, before, "{path}");
                continue;
            }
            assert_eq!(chunk.layers.len(), LAYERS, "{path}");
            assert_eq!(chunk.layers[..had], before.layers[..], "{path}");
            assert_eq!(chunk.layers[0].alpha, None, "{path}: the base layer");
            for (layer, info) in chunk.layers.iter().enumerate().skip(had) {
                assert_eq!(info.layer, layer, "{path}");
                let id = (3 * layer) % names.len();
                assert_eq!(info.texture_id, id as u32, "{path}");
                assert_eq!(info.texture.as_ref(), Some(&names[id]), "{path}");
                assert_eq!(info.effect_id, 0xFFFF_FFFF, "{path}");
                assert_eq!(
                    info.alpha,
                    Some(AlphaFormat::for_layer(info.flags, flags)),
                    "{path}"
                );
            }
        }
        let formats: Vec<_> = splat
            .manifest
            .chunks
            .iter()
            .find(|c| (c.chunk.x, c.chunk.y) == edited_chunk)
            .unwrap()
            .layers[had..]
            .iter()
            .map(|l| l.alpha.unwrap())
            .collect();
        eprintln!("{path}: chunk {edited_chunk:?}: layers {had}..{LAYERS} added as {formats:?}");
    }
}

/// The manifest of every corpus tile lists every chunk's MCLY layers as the
/// file has them (read from its bytes here, not through the ADT reader the
/// splat code uses): texture id and its MTEX path, flags, effect id, and an
/// alpha format exactly where the flags say `use_alpha_map`.
#[test]
fn the_manifest_lists_every_chunks_mcly_layers_as_the_file_has_them() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let mut flags_seen = std::collections::BTreeMap::new();
    for (path, adt) in common::corpus_tiles() {
        let (names, chunks) = common::raw_layers(&std::fs::read(root.join(&path)).unwrap());
        let mphd_flags = render::guess_mphd_flags(&adt);
        let manifest = TileSplat::from_adt(&adt, mphd_flags).unwrap().manifest;
        assert_eq!(manifest.textures, names, "{path}");
        assert_eq!(manifest.chunks.len(), 256, "{path}");
        assert_eq!(manifest.chunks.len(), chunks.len(), "{path}");
        for (listed, (index, layers)) in manifest.chunks.iter().zip(&chunks) {
            let at = format!("{path} chunk {index:?}");
            assert_eq!((listed.chunk.x, listed.chunk.y), *index, "{at}");
            assert_eq!(listed.layers.len(), layers.len(), "{at}");
            for (layer, (info, raw)) in listed.layers.iter().zip(layers).enumerate() {
                assert_eq!(info.layer, layer, "{at}");
                assert_eq!(
                    (info.texture_id, info.flags, info.effect_id),
                    (raw.texture_id, raw.flags, raw.effect_id),
                    "{at} layer {layer}"
                );
                let texture = names.get(raw.texture_id as usize);
                assert!(
                    texture.is_some(),
                    "{at}: every corpus layer names a texture"
                );
                assert_eq!(info.texture.as_ref(), texture, "{at} layer {layer}");
                assert_eq!(info.alpha.is_some(), raw.flags & 0x100 != 0, "{at}");
                *flags_seen.entry(raw.flags).or_insert(0) += 1;
            }
        }
    }
    // The corpus's layers: base layers (0), alpha-mapped ones (0x100) and
    // Northrend's compressed ones (0x300).
    assert_eq!(
        flags_seen.into_iter().collect::<Vec<_>>(),
        [(0, 2268), (0x100, 2455), (0x300, 634)]
    );
}

/// `formats render tile.adt --splat DIR`: an 8-bit gray PNG per layer after
/// the base (layers 1 to 6) and a manifest listing all 7 layers of the chunk.
#[test]
fn render_splat_writes_a_map_and_manifest_entry_for_every_layer() {
    let Some(data) = common::corpus_file(TILES[0]) else {
        return;
    };
    let adt = Adt::from_bytes(&data).unwrap();
    let flags = render::guess_mphd_flags(&adt);
    let original = TileSplat::from_adt(&adt, flags).unwrap();
    let (edited, edited_chunk, had) = with_more_layers(&adt, flags);
    let dir = common::temp_dir("splat-layers");
    let tile = dir.join("cataclysmctf_30_27.adt");
    std::fs::write(&tile, edited.to_bytes().unwrap()).unwrap();
    let out = dir.join("splat");
    common::formats!["render", &tile, "--splat", &out].success();

    let written = common::listing(&out);
    let mut expected: Vec<String> = (1..LAYERS)
        .map(|layer| format!("cataclysmctf_30_27_layer{layer}.png"))
        .collect();
    expected.push("cataclysmctf_30_27_splat.json".into());
    assert_eq!(written, expected);
    for layer in 1..LAYERS {
        let file = out.join(format!("cataclysmctf_30_27_layer{layer}.png"));
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&file).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!(
            (info.width, info.height, info.color_type, info.bit_depth),
            (
                SPLAT_SIDE as u32,
                SPLAT_SIDE as u32,
                png::ColorType::Grayscale,
                png::BitDepth::Eight
            ),
            "layer {layer}"
        );
        assert!(
            buf[..info.buffer_size()] == expected_map(&original, layer, edited_chunk, had)[..],
            "layer {layer}: the PNG holds the splat map"
        );
    }

    // Pillow (a decoder we did not write) reads the same maps.
    if common::pillow_available() {
        let files: Vec<_> = (1..LAYERS)
            .map(|layer| out.join(format!("cataclysmctf_30_27_layer{layer}.png")))
            .collect();
        let images = common::pillow_read(&files).unwrap();
        for (layer, image) in (1..LAYERS).zip(&images) {
            assert_eq!(image.mode, "L", "layer {layer}");
            assert_eq!(image.size, (SPLAT_SIDE, SPLAT_SIDE), "layer {layer}");
            assert!(
                image.bytes == expected_map(&original, layer, edited_chunk, had),
                "layer {layer}: Pillow reads the splat map"
            );
        }
    }

    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("cataclysmctf_30_27_splat.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["layer_count"], LAYERS);
    assert_eq!(manifest["side"], SPLAT_SIDE);
    // Which file holds each layer's map: none for layer 0, the PNGs above.
    let mut maps = vec![serde_json::Value::Null];
    maps.extend((1..LAYERS).map(|layer| format!("cataclysmctf_30_27_layer{layer}.png").into()));
    assert_eq!(manifest["maps"], serde_json::Value::Array(maps));
    let names = edited.mtex().unwrap().names();
    let chunks = manifest["chunks"].as_array().unwrap();
    assert_eq!(chunks.len(), 256);
    let chunk = chunks
        .iter()
        .find(|c| c["chunk"]["x"] == edited_chunk.0 && c["chunk"]["y"] == edited_chunk.1)
        .unwrap();
    let layers = chunk["layers"].as_array().unwrap();
    assert_eq!(layers.len(), LAYERS, "{chunk}");
    // Every chunk's layers in the JSON as the edited file's MCLY has them.
    let (raw_names, raw) = common::raw_layers(&std::fs::read(&tile).unwrap());
    for (listed, (index, raw)) in chunks.iter().zip(&raw) {
        assert_eq!(
            (&listed["chunk"]["x"], &listed["chunk"]["y"]),
            (&index.0.into(), &index.1.into())
        );
        let listed = listed["layers"].as_array().unwrap();
        assert_eq!(listed.len(), raw.len(), "{index:?}");
        for (info, raw) in listed.iter().zip(raw) {
            assert_eq!(info["flags"], raw.flags, "{index:?} {info}");
            assert_eq!(info["texture_id"], raw.texture_id, "{index:?} {info}");
            let texture = &raw_names[raw.texture_id as usize];
            assert_eq!(info["texture"], *texture, "{index:?} {info}");
        }
    }
    for (layer, info) in layers.iter().enumerate() {
        assert_eq!(info["layer"], layer, "{info}");
        let id = info["texture_id"].as_u64().unwrap() as usize;
        assert_eq!(info["texture"], names[id], "{info}");
        assert_eq!(info["alpha"].is_null(), layer == 0, "{info}");
        if layer >= had {
            assert_eq!(id, (3 * layer) % names.len(), "{info}");
        }
    }
}
