//! Editing a [`Blp`] itself: its mip levels regenerated from level 0, fewer
//! or more of them, in every encoding family (JPEG, palette, DXT, BGRA).
//! Written and read back, the mip table says where each level is (inside the
//! file, one after the other, as many entries as levels), every level decodes
//! at its size, and level 0's pixels are those of the file edited.

use crate::common;

use formats::blp::codec::{self, dxt::Dxt};
use formats::blp::{AlphaKind, Blp, Encoding, Header, JPEG_QUALITY, MipTable, RgbaImage, Target};

/// The longest shared JPEG header real files have (BLP.md).
const MAX_JPEG_HEADER: usize = 624;

/// `image` and its smaller levels down to 1 x 1, each a 2 x 2 box filter of
/// the one before: [`Blp::encode`]'s own chain, through lossless BGRA.
fn mip_chain(image: &RgbaImage) -> Vec<RgbaImage> {
    let bgra = Blp::encode(image, Target::Bgra).unwrap();
    (0..bgra.levels.len())
        .map(|level| bgra.decode_level(level).unwrap())
        .collect()
}

/// A palette level of `image` in the texture's own palette: each pixel the
/// nearest colour's index, then the alpha plane (`alpha_bits` 0 or 8, the
/// depths of the corpus palette textures).
fn palette_level(image: &RgbaImage, palette: &[[u8; 4]], alpha_bits: u32) -> Vec<u8> {
    let distance = |[b, g, r, _]: [u8; 4], p: &[u8]| -> u32 {
        [r, g, b]
            .iter()
            .zip(p)
            .map(|(&a, &b)| u32::from(a.abs_diff(b)).pow(2))
            .sum()
    };
    let mut out: Vec<u8> = image
        .data
        .chunks_exact(4)
        .map(|p| {
            let (index, _) = palette
                .iter()
                .enumerate()
                .min_by_key(|(_, c)| distance(**c, p))
                .unwrap();
            index as u8
        })
        .collect();
    match alpha_bits {
        0 => {}
        8 => out.extend(image.data.iter().skip(3).step_by(4)),
        other => panic!("no corpus palette texture has {other}-bit alpha"),
    }
    out
}

/// `blp` with `count` levels: level 0 as it is, levels 1.. encoded afresh from
/// level 0's mip chain in the texture's own encoding (its header, palette and
/// alpha kept; the JPEG header shared by all levels split off again).
fn regenerate(blp: &Blp, count: usize) -> Blp {
    let chain = mip_chain(&blp.decode_level(0).unwrap());
    assert!(count <= chain.len());
    let smaller = &chain[1..count];
    let mut out = blp.clone();
    let encoding = blp.encoding().unwrap();
    let dxt = |d: Dxt| -> Vec<Vec<u8>> {
        smaller
            .iter()
            .map(|m| codec::dxt::encode(&m.data, d, m.width, m.height))
            .collect()
    };
    let new_levels = match encoding {
        Encoding::Jpeg => {
            let opaque = blp.alpha_kind().unwrap() == AlphaKind::None;
            let header = blp.jpeg_header.as_deref().unwrap();
            let mut streams = vec![[header, &blp.levels[0][..]].concat()];
            for m in smaller {
                let stream =
                    codec::jpeg::encode(&m.data, m.width, m.height, opaque, JPEG_QUALITY).unwrap();
                streams.push(stream);
            }
            let shared = codec::jpeg::split_common_header(&mut streams, MAX_JPEG_HEADER);
            out.jpeg_header = Some(shared);
            out.levels = streams;
            Vec::new()
        }
        Encoding::Palette => {
            let palette = blp.palette.as_deref().unwrap();
            let bits = blp.header.alpha_bits();
            smaller
                .iter()
                .map(|m| palette_level(m, palette, bits))
                .collect()
        }
        Encoding::Dxt1 => dxt(Dxt::Dxt1),
        Encoding::Dxt3 => dxt(Dxt::Dxt3),
        Encoding::Dxt5 => dxt(Dxt::Dxt5),
        Encoding::Bgra => smaller
            .iter()
            .map(|m| codec::encode_bgra(&m.data))
            .collect(),
    };
    if encoding != Encoding::Jpeg {
        out.levels.truncate(1);
        out.levels.extend(new_levels);
    }
    match &mut out.header {
        Header::Blp1(h) => h.has_mipmaps = u32::from(count > 1),
        Header::Blp2(h) => h.has_mips = if count > 1 { h.has_mips.max(1) } else { 0 },
    }
    out
}

/// Writes `edited` (whose level count differs from the file it was made
/// from), reads it back and checks its mip table, its levels' pixels and
/// that level 0 shows `level_0`. Returns what was read back.
fn write_and_check(name: &str, edited: &Blp, level_0: &RgbaImage) -> Blp {
    let count = edited.levels.len();
    let what = format!("{name} with {count} levels");
    let bytes = edited.to_bytes().unwrap();
    let back = Blp::from_bytes(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(back.header, edited.header, "{what}");
    assert_eq!(back.levels, edited.levels, "{what}");
    assert_eq!(back.jpeg_header, edited.jpeg_header, "{what}");
    assert_eq!(back.palette, edited.palette, "{what}");
    assert_eq!(
        back.to_bytes().unwrap(),
        bytes,
        "{what}: the edit reads back exactly"
    );

    // The table: `count` entries, each inside the file and holding its
    // level's bytes, none overlapping another or the header; the rest 0.
    // The level count changed, so the layout is the fresh one: the levels
    // one after the other from the end of the header to the end of the file.
    let table = MipTable::read(&bytes, back.header.table_offset()).unwrap();
    assert_eq!(back.mip_table().unwrap(), table, "{what}");
    let mut end = back.header_len();
    for (level, (&offset, &size)) in table.offsets.iter().zip(&table.sizes).enumerate() {
        let (offset, size) = (offset as usize, size as usize);
        if level >= count {
            assert_eq!(
                (offset, size),
                (0, 0),
                "{what}: entry {level} is past the levels"
            );
            continue;
        }
        assert_eq!(
            size,
            back.levels[level].len(),
            "{what}: size of level {level}"
        );
        assert!(
            size > 0,
            "{what}: level {level} is empty: it would end the table"
        );
        assert!(
            offset >= end,
            "{what}: level {level} at {offset} overlaps what ends at {end}"
        );
        assert!(
            offset + size <= bytes.len(),
            "{what}: level {level} past the end"
        );
        assert_eq!(
            bytes[offset..offset + size],
            back.levels[level][..],
            "{what}: level {level}'s bytes are where the table says"
        );
        assert_eq!(
            offset, end,
            "{what}: level {level} right after the one before"
        );
        end = offset + size;
    }
    assert_eq!(end, bytes.len(), "{what}: nothing after the last level");

    // Every level decodes at its size; level 0 is the image it was.
    for level in 0..count {
        let image = back
            .decode_level(level)
            .unwrap_or_else(|e| panic!("{what}: level {level}: {e}"));
        assert_eq!(
            (image.width, image.height),
            back.level_size(level),
            "{what}: level {level}"
        );
    }
    assert!(
        back.decode_level(count).is_err(),
        "{what}: no level {count}"
    );
    assert!(
        back.decode_level(0).unwrap() == *level_0,
        "{what}: level 0's pixels changed"
    );
    back
}

/// The largest mean absolute difference of a channel between `a` and `b`,
/// counting colour only where both pixels are opaque (a transparent DXT1
/// pixel decodes black).
fn mean_difference(a: &RgbaImage, b: &RgbaImage) -> f64 {
    let mut sums = [0u64; 4];
    let mut counts = [0u64; 4];
    for (p, q) in a.data.chunks_exact(4).zip(b.data.chunks_exact(4)) {
        let opaque = p[3] == 255 && q[3] == 255;
        for c in 0..4 {
            if c == 3 || opaque {
                sums[c] += u64::from(p[c].abs_diff(q[c]));
                counts[c] += 1;
            }
        }
    }
    (0..4)
        .filter(|&c| counts[c] > 0)
        .map(|c| sums[c] as f64 / counts[c] as f64)
        .fold(0.0, f64::max)
}

/// One texture per header family of the corpus (BLP_MANIFEST.md), with the
/// layout quirk each brings along.
const TEXTURES: [&str; 9] = [
    // JPEG, alphaBits 8, a 448-byte gap before level 0; 9 levels.
    "blp/slk_furbolgshaman.blp",
    // JPEG, no alpha, one level (hasMipmaps 0) and a gap.
    "blp/ap_war3mapMap.blp",
    // BLP1 palette, 8-bit alpha, 128 x 129, level 0 inside the palette.
    "blp/dbz_GutsArm.blp",
    // BLP1 palette, no alpha, eight levels all at one offset.
    "blp/dbz_DB4.blp",
    // BLP2 palette, 512 x 512.
    "blp/twinpeaks_mm_irnfg_floor_01.blp",
    // DXT1 with 1-bit alpha, one level.
    "blp/twinpeaks_wildhammer_base02_000_00_00.blp",
    // DXT3, 256 x 256.
    "blp/slavery_Battleground012930.blp",
    // DXT5, 512 x 256.
    "blp/twinpeaks_jlo_worc_balloon.blp",
    // Uncompressed BGRA, 512 x 512.
    "blp/twinpeaks_Stratholme_Smoke_01.blp",
];

#[test]
fn mip_levels_regenerated_from_level_0_fewer_and_more() {
    for name in TEXTURES {
        let Some(data) = common::corpus_file(name) else {
            return;
        };
        let blp = Blp::from_bytes(&data).unwrap();
        let level_0 = blp.decode_level(0).unwrap();
        let chain = mip_chain(&level_0);
        let full = chain.len();
        let (w, h) = blp.size();
        assert_eq!(full, w.max(h).ilog2() as usize + 1, "{name}: down to 1 x 1");
        let read = blp.levels.len();
        // Fewer than the file has (or more, for a file of one level).
        let three = write_and_check(name, &regenerate(&blp, 3), &level_0);
        assert_ne!(read, 3, "{name}: the count changes");
        // Down to level 0 alone, then back up to the full chain.
        let one = if read == 1 {
            blp.clone()
        } else {
            write_and_check(name, &regenerate(&blp, 1), &level_0)
        };
        assert_eq!(one.levels.len(), 1);
        let all = write_and_check(name, &regenerate(&one, full), &level_0);
        // The new levels show the mip chain, within what each encoding loses
        // (measured on levels of 64 pixels or more: a mean of at most 4.5 per
        // channel, 6.1 for DXT1 with 1-bit alpha; smaller levels lose more).
        let one_bit = blp.alpha_kind().unwrap() == AlphaKind::Bits(1);
        for (level, expected) in chain.iter().enumerate().skip(1) {
            let image = all.decode_level(level).unwrap();
            let mut expected = expected.clone();
            if one_bit {
                // 1-bit alpha: below 128 transparent, opaque otherwise.
                for px in expected.data.chunks_exact_mut(4) {
                    px[3] = if px[3] < 128 { 0 } else { 255 };
                }
            }
            let mean = mean_difference(&image, &expected);
            let bound = match blp.encoding().unwrap() {
                Encoding::Bgra => 0.0,
                _ if expected.data.len() < 64 * 4 => 255.0,
                _ => 8.0,
            };
            assert!(
                mean <= bound,
                "{name} level {level}: mean difference {mean}"
            );
            if level < 3 {
                assert_eq!(three.decode_level(level).unwrap(), image, "{name} {level}");
            }
        }
    }
}
