//! Every level of every corpus BLP decodes; encoding round-trips within the
//! bounds each encoding allows; hostile headers are refused before allocating.

mod common;

use formats::blp::{Blp, RgbaImage, Target};

#[test]
fn every_level_of_every_corpus_blp_decodes() {
    let files = common::blp_corpus();
    for (name, data) in &files {
        let blp = Blp::from_bytes(data).unwrap();
        for level in 0..blp.levels.len() {
            let image = blp
                .decode_level(level)
                .unwrap_or_else(|e| panic!("{name} level {level}: {e}"));
            assert_eq!(
                image.data.len(),
                image.width as usize * image.height as usize * 4
            );
            if level == 0 {
                assert_eq!((image.width, image.height), blp.size(), "{name}");
            }
            if std::env::var_os("BLP_PNG_DIR").is_some() && level == 0 {
                let dir = std::path::PathBuf::from(std::env::var_os("BLP_PNG_DIR").unwrap());
                let file = dir.join(name.replace('/', "_") + ".png");
                std::fs::write(file, image.to_png().unwrap()).unwrap();
            }
        }
    }
}

/// Per channel (R, G, B, A): the largest and the mean absolute difference.
fn differences(a: &RgbaImage, b: &RgbaImage) -> [(u8, f64); 4] {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let mut out = [(0u8, 0f64); 4];
    for (c, slot) in out.iter_mut().enumerate() {
        let diffs = a
            .data
            .iter()
            .zip(&b.data)
            .skip(c)
            .step_by(4)
            .map(|(x, y)| x.abs_diff(*y));
        let (mut max, mut sum, mut n) = (0u8, 0u64, 0u64);
        for d in diffs {
            max = max.max(d);
            sum += u64::from(d);
            n += 1;
        }
        *slot = (max, sum as f64 / n as f64);
    }
    out
}

/// Level 0 of two corpus textures: an opaque icon and a DXT5 texture with alpha.
fn sources() -> Vec<(&'static str, RgbaImage)> {
    [
        "blp/dbz_BTNJacoEliteCombo.blp",
        "blp/twinpeaks_jlo_worc_balloon.blp",
    ]
    .into_iter()
    .filter_map(|name| {
        let blp = Blp::from_bytes(&common::corpus_file(name)?).unwrap();
        Some((name, blp.decode_level(0).unwrap()))
    })
    .collect()
}

#[test]
fn encoding_round_trips_within_each_encodings_bounds() {
    for (name, source) in sources() {
        for (target, _) in Target::ALL {
            let blp = Blp::encode(&source, target).unwrap();
            let bytes = blp.to_bytes().unwrap();
            let back = Blp::from_bytes(&bytes).unwrap();
            assert_eq!(
                back, blp,
                "{name} {target:?}: a fresh texture reads back equal"
            );
            let larger = source.width.max(source.height);
            assert_eq!(
                back.levels.len(),
                larger.ilog2() as usize + 1,
                "down to 1x1"
            );
            for level in 0..back.levels.len() {
                let image = back.decode_level(level).unwrap();
                assert_eq!((image.width, image.height), back.level_size(level));
            }
            let decoded = back.decode_level(0).unwrap();
            let mut expected = source.clone();
            if target == Target::Dxt1 {
                // 1-bit alpha: below 128 transparent black, opaque otherwise.
                for px in expected.data.chunks_exact_mut(4) {
                    if px[3] < 128 {
                        px.copy_from_slice(&[0; 4]);
                    } else {
                        px[3] = 255;
                    }
                }
            }
            let d = differences(&expected, &decoded);
            eprintln!("{name} {target:?}: (max, mean) per channel {d:?}");
            let (max, mean): (Vec<u8>, Vec<f64>) = d.into_iter().unzip();
            let (max_bound, mean_bound) = match target {
                Target::Bgra => (0, 0.0),
                Target::Blp1Jpeg => (32, 2.5),
                Target::Blp1Palette => (128, 3.0),
                Target::Dxt1 | Target::Dxt5 => (128, 3.0),
            };
            assert!(
                max.iter().all(|&m| m <= max_bound),
                "{name} {target:?}: {d:?}"
            );
            assert!(
                mean.iter().all(|&m| m <= mean_bound),
                "{name} {target:?}: {d:?}"
            );
            if matches!(target, Target::Bgra | Target::Blp1Palette | Target::Dxt1) {
                assert_eq!(max[3], 0, "{name} {target:?}: alpha is kept exactly");
            }
        }
    }
}

#[test]
fn palette_encoding_is_lossless_for_few_colours() {
    // 64x32, 200 colours, alpha a gradient.
    let data: Vec<u8> = (0..64 * 32u32)
        .flat_map(|i| {
            let c = (i % 200) as u8;
            [c, 255 - c, c / 2, (i / 8) as u8]
        })
        .collect();
    let image = RgbaImage::new(64, 32, data).unwrap();
    let blp = Blp::encode(&image, Target::Blp1Palette).unwrap();
    let back = Blp::from_bytes(&blp.to_bytes().unwrap()).unwrap();
    assert_eq!(back.decode_level(0).unwrap(), image);
    // Opaque images get no alpha plane (alphaBits 0).
    let opaque = RgbaImage::new(2, 2, [1, 2, 3, 255].repeat(4)).unwrap();
    let blp = Blp::encode(&opaque, Target::Blp1Palette).unwrap();
    assert_eq!(blp.header.alpha_bits(), 0);
    assert_eq!(blp.levels[0].len(), 4);
}

/// A BLP2 palette header of `width` x `height` with one level of `level` bytes.
fn blp2_palette(width: u32, height: u32, level: usize) -> Vec<u8> {
    let mut data = b"BLP2".to_vec();
    data.extend_from_slice(&1u32.to_le_bytes());
    data.extend_from_slice(&[1, 0, 8, 0]);
    data.extend_from_slice(&width.to_le_bytes());
    data.extend_from_slice(&height.to_le_bytes());
    let mut table = [0u32; 32];
    table[0] = 1172;
    table[16] = level as u32;
    for v in table {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.resize(1172 + level, 7);
    data
}

#[test]
fn hostile_sizes_are_refused_before_allocating() {
    // 65535 x 65535 would be 16 GiB of RGBA: refused by the side limit.
    let blp = Blp::from_bytes(&blp2_palette(65535, 65535, 100)).unwrap();
    let err = blp.decode_level(0).unwrap_err().to_string();
    assert!(err.contains("each side must be 1 to 16384"), "{err}");
    // Within the limit, the level's 100 bytes cannot hold 16384 x 16384 indices.
    let blp = Blp::from_bytes(&blp2_palette(16384, 16384, 100)).unwrap();
    let err = blp.decode_level(0).unwrap_err();
    assert_eq!(err.offset(), 1172);
    assert_eq!(err.path_string(), "levels[0]");
    assert!(
        err.to_string()
            .contains("level 0: 16384x16384 palette: 268435456 bytes needed"),
        "{err}"
    );
    assert!(
        blp.decode_level(1)
            .unwrap_err()
            .to_string()
            .contains("no such level")
    );
    let zero = Blp::from_bytes(&blp2_palette(0, 4, 100)).unwrap();
    assert!(zero.decode_level(0).is_err());
}

#[test]
fn a_jpeg_level_that_does_not_decode_names_the_level_and_offset() {
    let Some(data) = common::corpus_file("blp/dbz_MoroHead.blp") else {
        return;
    };
    let mut blp = Blp::from_bytes(&data).unwrap();
    blp.levels[2] = vec![0x55; 300];
    let err = blp.decode_level(2).unwrap_err();
    assert_eq!(err.offset(), 65878, "{err}");
    assert!(
        err.to_string()
            .starts_with("levels[2]: invalid value at 0x10156: level 2: JPEG"),
        "{err}"
    );
    // A JPEG frame larger than level 0 is refused before its pixels are allocated.
    let mut big = Blp::from_bytes(&data).unwrap();
    if let formats::blp::Header::Blp1(h) = &mut big.header {
        h.width = 64;
        h.height = 64;
    }
    let err = big.decode_level(0).unwrap_err().to_string();
    assert!(err.contains("level 0: JPEG headers"), "{err}");
}
