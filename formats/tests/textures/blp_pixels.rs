//! Every level of every corpus BLP decodes; encoding round-trips within the
//! bounds each encoding allows; hostile headers are refused before allocating.

use crate::common;

use std::fmt::Write;

use formats::blp::{AlphaKind, Blp, Header, RgbaImage, Target, codec};

#[test]
fn every_level_of_every_corpus_blp_decodes() {
    let files = common::blp_corpus();
    for (name, data) in &files {
        let blp = Blp::from_bytes(data).unwrap();
        for level in 0..blp.levels.len() {
            let image = blp
                .decode_level(level)
                .unwrap_or_else(|e| panic!("{name} level {level}: {e}"));
            // Every level is the size the header gives it, whatever its
            // bytes hold (two corpus JPEGs point smaller levels at a larger
            // level's frame).
            assert_eq!(
                (image.width, image.height),
                blp.level_size(level),
                "{name} level {level}"
            );
            assert_eq!(
                image.data.len(),
                image.width as usize * image.height as usize * 4
            );
            if std::env::var_os("BLP_PNG_DIR").is_some() && level == 0 {
                let dir = std::path::PathBuf::from(std::env::var_os("BLP_PNG_DIR").unwrap());
                let file = dir.join(name.replace('/', "_") + ".png");
                std::fs::write(file, image.to_png().unwrap()).unwrap();
            }
        }
    }
}

/// The largest side of the images the encoding bounds are measured on (DXT
/// is encoded by cluster fit, about 150 µs a 4 x 4 block).
const BOUND_SIDE: u32 = 128;

/// Level 0 of every corpus texture, halved by a 2 x 2 box filter (the
/// encoder's own mip chain of it, encoded losslessly) until its larger side
/// is at most [`BOUND_SIDE`].
fn sources() -> Vec<(String, RgbaImage)> {
    common::blp_corpus()
        .into_iter()
        .map(|(name, data)| {
            let level0 = Blp::from_bytes(&data).unwrap().decode_level(0).unwrap();
            let chain = Blp::encode(&level0, Target::Bgra).unwrap();
            let level = (0..chain.levels.len())
                .find(|&l| {
                    let (w, h) = chain.level_size(l);
                    w.max(h) <= BOUND_SIDE
                })
                .unwrap();
            (name, chain.decode_level(level).unwrap())
        })
        .collect()
}

/// Per channel (R, G, B, A): the root mean square of `a - b`.
fn rms_error(a: &RgbaImage, b: &RgbaImage) -> [f64; 4] {
    assert_eq!((a.width, a.height), (b.width, b.height));
    let mut sums = [0f64; 4];
    for (pa, pb) in a.data.chunks_exact(4).zip(b.data.chunks_exact(4)) {
        for c in 0..4 {
            sums[c] += (f64::from(pa[c]) - f64::from(pb[c])).powi(2);
        }
    }
    let n = f64::from(a.width * a.height);
    sums.map(|s| (s / n).sqrt())
}

/// Per channel: the root mean square deviation of each pixel from the mean of
/// its 4 x 4 block (a DXT block): the image's own detail at that scale.
fn block_detail(image: &RgbaImage) -> [f64; 4] {
    let (w, h) = (image.width as usize, image.height as usize);
    let mut sums = [0f64; 4];
    for by in (0..h).step_by(4) {
        for bx in (0..w).step_by(4) {
            let pixels: Vec<&[u8]> = (by..(by + 4).min(h))
                .flat_map(|y| (bx..(bx + 4).min(w)).map(move |x| y * w + x))
                .map(|i| &image.data[4 * i..4 * i + 4])
                .collect();
            for (c, sum) in sums.iter_mut().enumerate() {
                let mean =
                    pixels.iter().map(|p| f64::from(p[c])).sum::<f64>() / pixels.len() as f64;
                *sum += pixels
                    .iter()
                    .map(|p| (f64::from(p[c]) - mean).powi(2))
                    .sum::<f64>();
            }
        }
    }
    sums.map(|s| (s / (w * h) as f64).sqrt())
}

/// Per channel: the root mean square error of `image` in the uniform 3-3-2
/// palette (8 levels of red and green, 4 of blue: 256 colours that ignore the
/// image), each sample at its nearest level.
fn uniform_palette_error(image: &RgbaImage) -> [f64; 4] {
    let nearest = |v: u8, levels: u32| {
        let step = 255.0 / f64::from(levels - 1);
        (f64::from(v) / step).round() * step
    };
    let mut sums = [0f64; 4];
    for p in image.data.chunks_exact(4) {
        for (c, levels) in [8, 8, 4].into_iter().enumerate() {
            sums[c] += (f64::from(p[c]) - nearest(p[c], levels)).powi(2);
        }
    }
    let n = f64::from(image.width * image.height);
    sums.map(|s| (s / n).sqrt())
}

/// Per channel (R, G, B, A): the most a baseline JPEG stream's quantization
/// can move a pixel, as a root mean square: each coefficient of the
/// orthonormal 8 x 8 DCT is rounded to a multiple of its quantizer q, so it
/// errs by at most q / 2, and by Parseval a block's squared pixel errors sum
/// to its squared coefficient errors: at most sum (q / 2)^2 over the 64
/// coefficients, per 64 pixels. The tables are the stream's own (DQT, and the
/// SOF's table of each component, stored B, G, R, A).
fn jpeg_quantization_bound(stream: &[u8]) -> [f64; 4] {
    let mut tables = [[0u16; 64]; 4];
    let mut selectors = Vec::new();
    let mut at = 2;
    // Tables may follow the frame header: read every segment up to the scan.
    while at + 4 <= stream.len() && stream[at + 1] != 0xda {
        let marker = stream[at + 1];
        let len = usize::from(u16::from_be_bytes([stream[at + 2], stream[at + 3]]));
        let segment = &stream[at + 4..at + 2 + len];
        match marker {
            0xdb => {
                let mut t = segment;
                while let [pq_tq, rest @ ..] = t {
                    let wide = pq_tq >> 4 == 1;
                    let table = &mut tables[usize::from(pq_tq & 3)];
                    for (k, q) in table.iter_mut().enumerate() {
                        *q = if wide {
                            u16::from_be_bytes([rest[2 * k], rest[2 * k + 1]])
                        } else {
                            u16::from(rest[k])
                        };
                    }
                    t = &rest[if wide { 128 } else { 64 }..];
                }
            }
            0xc0 | 0xc1 => {
                selectors = segment[6..].chunks_exact(3).map(|c| c[2]).collect();
            }
            _ => {}
        }
        at += 2 + len;
    }
    let bound: Vec<f64> = selectors
        .iter()
        .map(|&t| {
            let sum: f64 = tables[usize::from(t)]
                .iter()
                .map(|&q| (f64::from(q) / 2.0).powi(2))
                .sum();
            (sum / 64.0).sqrt()
        })
        .collect();
    let [b, g, r, a] = bound[..] else {
        panic!("4 components, not {}", bound.len())
    };
    [r, g, b, a]
}

/// Every corpus texture (level 0 at most [`BOUND_SIDE`] square) encoded in
/// each encoding, written, read and decoded. Lossless ones give the image
/// back; a lossy one's error per channel, as a root mean square, is held to
/// what the encoding itself can be shown to, or should, achieve on that
/// image, not to numbers fitted to a few images (before, a mean error of 2.5
/// for JPEG and 3.0 for DXT, fitted to two textures, failed on Goods01_D and
/// GLOWSTAR):
///
/// - JPEG: the quantization bound of its own tables
///   ([`jpeg_quantization_bound`]; 9.1 for colour, 6.7 for alpha at our
///   quality 90), plus 1 for the rounding of the encoder's DCT, our IDCT and
///   the 8-bit samples. Measured: 0.51 of that at most (dbz_GutsArm).
/// - DXT: a block is 4 colours on a line between two 5:6:5 endpoints, and
///   the block's mean colour is such a line (of length 0): a fit errs by no
///   more than the block's own deviation from its mean ([`block_detail`])
///   plus the rounding of an endpoint to 5 or 6 bits (255 / 31 / 2 for red
///   and blue, 255 / 63 / 2 for green). DXT5 alpha likewise, with 8-bit
///   endpoints (0.5). Measured: 0.44 of that at most (the blue channel of
///   SmileyGW, which the fit's perceptual weights neglect).
/// - Palette (NeuQuant above 256 colours): alpha exact, and no more error in
///   R, G and B together than the fixed 3-3-2 palette, 256 colours that
///   ignore the image ([`uniform_palette_error`]). Measured: 0.56 of it at
///   most (ap_evilarchmage).
/// - DXT1: alpha is cut at 128 (transparent black below), exactly.
#[test]
fn encoding_round_trips_within_each_encodings_bounds() {
    let sources = sources();
    for (name, source) in &sources {
        let mut report = format!("{name} {}x{}:", source.width, source.height);
        for (target, target_name) in Target::ALL {
            let blp = Blp::encode(source, target).unwrap();
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
            let error = rms_error(&expected, &decoded);
            let bound: [f64; 4] = match target {
                Target::Bgra => [0.0; 4],
                Target::Blp1Jpeg => {
                    let stream = [back.jpeg_header.as_deref().unwrap(), &back.levels[0]].concat();
                    jpeg_quantization_bound(&stream).map(|b| b + 1.0)
                }
                Target::Dxt1 | Target::Dxt5 => {
                    let detail = block_detail(&expected);
                    let endpoint = [255.0 / 31.0 / 2.0, 255.0 / 63.0 / 2.0, 255.0 / 31.0 / 2.0];
                    let alpha = if target == Target::Dxt1 {
                        0.0
                    } else {
                        detail[3] + 0.5
                    };
                    [
                        detail[0] + endpoint[0],
                        detail[1] + endpoint[1],
                        detail[2] + endpoint[2],
                        alpha,
                    ]
                }
                // The fixed palette's error per channel, and alpha exact;
                // held to in R, G and B together below.
                Target::Blp1Palette => uniform_palette_error(source),
            };
            if target == Target::Blp1Palette {
                let total = |e: &[f64; 4]| e[..3].iter().map(|e| e * e).sum::<f64>();
                assert!(
                    total(&error) <= total(&bound),
                    "{name} palette: errs by {error:.2?} (root mean square), \
                     the 3-3-2 palette by {bound:.2?}"
                );
            }
            let per_channel = if target == Target::Blp1Palette {
                3..4
            } else {
                0..4
            };
            for c in per_channel {
                assert!(
                    error[c] <= bound[c],
                    "{name} {target_name}: channel {c} errs by {:.2} (root mean square), \
                     the bound is {:.2}; all channels {error:.2?}",
                    error[c],
                    bound[c]
                );
            }
            let _ = write!(report, " {target_name} {error:.1?} <= {bound:.1?}");
        }
        eprintln!("{report}");
    }
    if common::corpus_root().is_some() {
        assert_eq!(sources.len(), 40, "every corpus texture");
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

/// alphaDepth 0 says opaque for every BLP2 encoding: `alpha_kind` says so
/// and the decoder gives alpha 255, for DXT3 and DXT5 too (whose blocks
/// carry alpha anyway; Pillow's plugin likewise reads any BLP2 with
/// alphaDepth 0 as RGB). Before, `alpha_kind` said `None` while DXT3 and DXT5
/// decoded the blocks' alpha.
#[test]
fn alpha_depth_0_is_opaque_for_dxt3_and_dxt5_too() {
    // Left half transparent, right half 200.
    let rgba: Vec<u8> = (0..16 * 8u32)
        .flat_map(|i| [(i * 2) as u8, 90, 180, if i % 16 < 8 { 0 } else { 200 }])
        .collect();
    let image = RgbaImage::new(16, 8, rgba).unwrap();
    let dxt5 = Blp::encode(&image, Target::Dxt5).unwrap();
    for alpha_type in [7, 1] {
        let mut with_alpha = dxt5.clone();
        let Header::Blp2(header) = &mut with_alpha.header else {
            unreachable!("BLP2 DXT")
        };
        header.alpha_type = alpha_type;
        let mut without = with_alpha.clone();
        let Header::Blp2(header) = &mut without.header else {
            unreachable!("BLP2 DXT")
        };
        header.alpha_depth = 0;
        let encoding = without.encoding().unwrap();
        assert_eq!(with_alpha.alpha_kind().unwrap(), AlphaKind::Blocks);
        assert_eq!(
            without.alpha_kind().unwrap(),
            AlphaKind::None,
            "{encoding:?}"
        );
        for level in 0..without.levels.len() {
            let stored = with_alpha.decode_level(level).unwrap();
            let opaque = without.decode_level(level).unwrap();
            assert_eq!(colours(&opaque), colours(&stored), "{encoding:?} {level}");
            assert!(
                alphas(&opaque).iter().all(|&a| a == 255),
                "{encoding:?} level {level}: {:?}",
                alphas(&opaque)
            );
            if level == 0 {
                assert!(stored.has_alpha(), "{encoding:?}: the blocks hold alpha");
            }
        }
    }
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
            .ends_with("no level 1: the texture has 1 mip level"),
        "no decoration: not about any byte"
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
    assert_eq!(
        err.to_string(),
        "levels[2]: invalid value at 0x10156: level 2: 128x128 JPEG: \
         JPEG byte 287: frame header: 85 components declared, fewer there"
    );
    // A JPEG frame larger than level 0 is refused before its pixels are allocated.
    let mut big = Blp::from_bytes(&data).unwrap();
    if let formats::blp::Header::Blp1(h) = &mut big.header {
        h.width = 64;
        h.height = 64;
    }
    let err = big.decode_level(0).unwrap_err().to_string();
    assert!(
        err.ends_with("level 0: 64x64 JPEG: a 512x512 JPEG frame is larger than level 0 (64x64)"),
        "{err}"
    );
    // So is a frame smaller than its level: level 1's 256 x 256 stream as level 0.
    let mut small = Blp::from_bytes(&data).unwrap();
    small.levels[0] = small.levels[1].clone();
    let err = small.decode_level(0).unwrap_err().to_string();
    assert!(
        err.ends_with(
            "level 0: 512x512 JPEG: a 256x256 JPEG frame is smaller than the level (512x512)"
        ),
        "{err}"
    );
}

/// The corpus levels whose JPEG frame is larger than the level: each is the
/// stream of a larger level, and decodes to that level's top-left corner.
#[test]
fn jpeg_levels_that_repeat_a_larger_levels_stream_are_its_top_left_corner() {
    for (name, shared) in [
        ("blp/pqw3_DISPASLichKing.blp", 1),
        ("textures/Textures/SmileyGW.blp", 0),
    ] {
        let Some(data) = common::corpus_file(name) else {
            return;
        };
        let blp = Blp::from_bytes(&data).unwrap();
        let frame = blp.decode_level(shared).unwrap();
        assert_eq!((frame.width, frame.height), blp.level_size(shared));
        for level in shared + 1..blp.levels.len() {
            assert_eq!(blp.levels[level], blp.levels[shared], "{name} {level}");
            let image = blp.decode_level(level).unwrap();
            let (w, h) = blp.level_size(level);
            assert_eq!((image.width, image.height), (w, h), "{name} {level}");
            let row = 4 * frame.width as usize;
            let corner: Vec<u8> = (0..h as usize)
                .flat_map(|y| &frame.data[y * row..y * row + 4 * w as usize])
                .copied()
                .collect();
            assert_eq!(image.data, corner, "{name} level {level}");
        }
    }
}

/// A 1.1 MB file declaring a 16384 x 16384 frame at 16 mip entries: before
/// the scan length was checked, `formats check` decoded the padded scan 16
/// times into 1 GiB each (138 s). 16384 x 16384 in 4 components needs at
/// least 4 MiB of scan (2 bits per 8 x 8 block): refused from the frame
/// header, at every level, before any pixel buffer.
#[test]
fn a_small_jpeg_declaring_a_huge_frame_is_refused_before_decoding() {
    let data = common::hostile_jpeg(16384, 16, 1_100_000);
    let blp = Blp::from_bytes(&data).unwrap();
    assert_eq!(blp.levels.len(), 16);
    assert_eq!(blp.to_bytes().unwrap(), data);
    for level in 0..16 {
        let err = blp.decode_level(level).unwrap_err();
        let (w, h) = blp.level_size(level);
        assert_eq!(err.offset(), 160);
        assert_eq!(err.path_string(), format!("levels[{level}]"));
        assert!(
            err.to_string().ends_with(&format!(
                "level {level}: {w}x{h} JPEG: a 16384x16384 JPEG frame of 4 components \
                 needs at least 4194304 bytes, the stream has 1100000"
            )),
            "{err}"
        );
    }
    // The bound is the scan's least length, not a guess: a frame of 1024 x
    // 1024 in 16 KiB of zeros (the least, 1024 * 1024 / 64) decodes, to the
    // flat image the zero codes make.
    let data = common::hostile_jpeg(1024, 1, 1024 * 1024 / 64);
    let image = Blp::from_bytes(&data).unwrap().decode_level(0).unwrap();
    assert_eq!((image.width, image.height), (1024, 1024));
    let data = common::hostile_jpeg(1024, 1, 1024 * 1024 / 64 - 1);
    let err = Blp::from_bytes(&data).unwrap().decode_level(0).unwrap_err();
    assert!(
        err.to_string().contains("needs at least 16384 bytes"),
        "{err}"
    );
}

/// A one-level BLP1 JPEG texture of 32 x 16 pixels whose stored fourth
/// channel is `alpha(x, y)`, with `alphaBits` = `alpha_bits`. Quality 100
/// (every quantizer 1) and alpha constant over each 8 x 8 block, so the
/// fourth channel decodes to exactly the values given.
fn blp1_jpeg(alpha_bits: u32, alpha: impl Fn(u32, u32) -> u8) -> Blp {
    let (w, h) = (32u32, 16u32);
    let rgba: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .flat_map(|(x, y)| [(x * 8) as u8, (y * 16) as u8, 90, alpha(x, y)])
        .collect();
    let stream = codec::jpeg::encode(&rgba, w, h, false, 100).unwrap();
    let mut streams = vec![stream];
    let shared = codec::jpeg::split_common_header(&mut streams, 624);
    let mut blp = Blp::encode(&RgbaImage::new(w, h, rgba).unwrap(), Target::Blp1Jpeg).unwrap();
    let Header::Blp1(header) = &mut blp.header else {
        unreachable!("BLP1 JPEG")
    };
    header.alpha_bits = alpha_bits;
    header.has_mipmaps = 0;
    blp.jpeg_header = Some(shared);
    blp.levels = streams;
    // Written and read back: the field is kept as read, the file byte-exact.
    let bytes = blp.to_bytes().unwrap();
    let back = Blp::from_bytes(&bytes).unwrap();
    assert_eq!(back.header.alpha_bits(), alpha_bits);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    back
}

/// The level's stored B, G, R, A samples as R, G, B, A: what the decoder
/// gives when `alphaBits` is 8 (the fourth channel is the alpha, as stored).
fn stored_samples(blp: &Blp, level: usize) -> RgbaImage {
    let mut raw = blp.clone();
    let Header::Blp1(header) = &mut raw.header else {
        panic!("not BLP1")
    };
    header.alpha_bits = 8;
    assert_eq!(raw.alpha_kind().unwrap(), AlphaKind::JpegChannel);
    raw.decode_level(level).unwrap()
}

fn alphas(image: &RgbaImage) -> Vec<u8> {
    image.data.iter().skip(3).step_by(4).copied().collect()
}

fn colours(image: &RgbaImage) -> Vec<[u8; 3]> {
    image
        .data
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2]])
        .collect()
}

/// BLP.md: BLP1 JPEG files with alphaBits 3 to 10 (a mip count some tool
/// wrote there): "whether such an image has alpha must be decided from the
/// decoded fourth channel, and the field kept as read". A fourth channel
/// that is 0 everywhere is no alpha (the image is opaque). 8 in that range is
/// the 8-bit alpha of the header's definition
/// (`alpha_bits_0_and_8_do_not_look_at_the_data`).
const ODD_ALPHA_BITS: [u32; 7] = [3, 4, 5, 6, 7, 9, 10];

#[test]
fn odd_alpha_bits_with_a_fourth_channel_of_zeros_decode_opaque() {
    for bits in ODD_ALPHA_BITS {
        let blp = blp1_jpeg(bits, |_, _| 0);
        assert_eq!(blp.alpha_kind().unwrap(), AlphaKind::FromData(bits));
        let stored = stored_samples(&blp, 0);
        assert!(
            alphas(&stored).iter().all(|&a| a == 0),
            "the test image stores 0 as every fourth sample"
        );
        let image = blp.decode_level(0).unwrap();
        assert_eq!((image.width, image.height), (32, 16));
        assert!(
            alphas(&image).iter().all(|&a| a == 255),
            "alphaBits {bits}: a fourth channel of zeros is no alpha: {:?}",
            &alphas(&image)[..8]
        );
        assert_eq!(colours(&image), colours(&stored), "alphaBits {bits}");
    }
}

#[test]
fn odd_alpha_bits_with_a_varying_fourth_channel_keep_it_as_alpha() {
    // Left half transparent, right half 200; then all transparent but one
    // 8 x 8 block: "0 everywhere" is the rule, not "mostly 0".
    let half = |x: u32, _: u32| if x < 16 { 0 } else { 200 };
    let one_block = |x: u32, y: u32| if x >= 24 && y >= 8 { 255 } else { 0 };
    for bits in ODD_ALPHA_BITS {
        for (what, blp) in [
            ("half", blp1_jpeg(bits, half)),
            ("one block", blp1_jpeg(bits, one_block)),
        ] {
            let stored = stored_samples(&blp, 0);
            let image = blp.decode_level(0).unwrap();
            assert_eq!(image, stored, "alphaBits {bits}, {what}: alpha as stored");
            let a = alphas(&image);
            assert_eq!(a[0], 0, "alphaBits {bits}, {what}: transparent stays so");
            assert!(
                a.iter().any(|&v| v >= 200),
                "alphaBits {bits}, {what}: {a:?}"
            );
        }
    }
}

#[test]
fn alpha_bits_0_and_8_do_not_look_at_the_data() {
    // alphaBits 8: the fourth channel is the alpha even when it is 0 everywhere.
    let blp = blp1_jpeg(8, |_, _| 0);
    assert_eq!(blp.alpha_kind().unwrap(), AlphaKind::JpegChannel);
    assert!(
        alphas(&blp.decode_level(0).unwrap())
            .iter()
            .all(|&a| a == 0)
    );
    // alphaBits 0: opaque even when the fourth channel varies.
    let blp = blp1_jpeg(0, |x, _| if x < 16 { 0 } else { 200 });
    assert_eq!(blp.alpha_kind().unwrap(), AlphaKind::None);
    assert!(
        alphas(&blp.decode_level(0).unwrap())
            .iter()
            .all(|&a| a == 255)
    );
}

/// The corpus files with alphaBits 4, 6 and 9: every level decodes as the
/// rule says, from its own stored fourth channel.
#[test]
fn corpus_jpegs_with_odd_alpha_bits_follow_the_rule() {
    let mut seen = 0;
    for (name, data) in common::blp_corpus() {
        let blp = Blp::from_bytes(&data).unwrap();
        let Ok(AlphaKind::FromData(bits)) = blp.alpha_kind() else {
            continue;
        };
        assert!((3..=10).contains(&bits), "{name}: {bits}");
        seen += 1;
        for level in 0..blp.levels.len() {
            let stored = stored_samples(&blp, level);
            let image = blp.decode_level(level).unwrap();
            let no_alpha = alphas(&stored).iter().all(|&a| a == 0);
            if level == 0 {
                eprintln!("{name}: alphaBits {bits}, fourth channel all 0: {no_alpha}");
            }
            assert_eq!(colours(&image), colours(&stored), "{name} level {level}");
            if no_alpha {
                assert!(alphas(&image).iter().all(|&a| a == 255), "{name} {level}");
            } else {
                assert_eq!(alphas(&image), alphas(&stored), "{name} level {level}");
            }
        }
    }
    if common::corpus_root().is_some() {
        assert_eq!(seen, 3, "BLP_MANIFEST: alphaBits 6, 9 and 4");
    }
}

/// Each way pixels cannot become an image, a PNG or a texture is its own
/// variant, and an unknown encoding name its own type.
#[test]
fn pixel_errors_say_why_by_variant() {
    use formats::blp::{PixelError, UnknownTarget};
    assert!(matches!(
        RgbaImage::new(0, 4, vec![]),
        Err(PixelError::Size {
            width: 0,
            height: 4
        })
    ));
    assert!(matches!(
        RgbaImage::new(2, 2, vec![0; 15]),
        Err(PixelError::DataLength {
            expected: 16,
            len: 15,
            ..
        })
    ));
    assert!(matches!(
        RgbaImage::from_png(b"not a PNG"),
        Err(PixelError::PngDecode(_))
    ));
    // Built from the public fields: written, but read back refused at the
    // IHDR width (byte 16).
    let wide = RgbaImage {
        width: 20_000,
        height: 1,
        data: vec![0; 80_000],
    };
    match RgbaImage::from_png(&wide.to_png().unwrap()) {
        Err(PixelError::PngHeader(e)) => assert_eq!(e.offset(), 16),
        other => panic!("{other:?}"),
    }
    let short = RgbaImage {
        width: 2,
        height: 2,
        data: vec![0; 3],
    };
    let error = short.to_png().unwrap_err();
    assert!(matches!(error, PixelError::PngEncode(_)));
    assert!(std::error::Error::source(&error).is_some());
    assert!(matches!(
        Blp::encode(&short, Target::Bgra),
        Err(PixelError::DataLength { .. })
    ));
    use codec::CodecError;
    assert!(matches!(
        codec::decode_bgra(&[0; 15], 2, 2, false),
        Err(CodecError::BgraShort {
            needed: 16,
            len: 15
        })
    ));
    assert!(matches!(
        codec::dxt::decode(&[0; 7], codec::dxt::Dxt::Dxt1, 4, 4, false),
        Err(CodecError::BlocksShort {
            needed: 8,
            blocks: 1,
            block: 8,
            len: 7
        })
    ));
    assert!(matches!(
        codec::palette::decode(&[0; 4], &[], 3, 2, 2),
        Err(CodecError::AlphaDepth { bits: 3 })
    ));
    assert!(matches!(
        codec::palette::decode(&[0; 4], &[], 8, 2, 2),
        Err(CodecError::PaletteShort {
            needed: 8,
            pixels: 4,
            alpha_bits: 8,
            len: 4
        })
    ));
    let error = "png".parse::<Target>().unwrap_err();
    assert_eq!(error, UnknownTarget { name: "png".into() });
    assert!(
        error
            .to_string()
            .starts_with("unknown encoding \"png\": one of blp1-jpeg"),
        "{error}"
    );
}
