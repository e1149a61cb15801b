//! MCAL alpha maps and MCSH shadow maps of the corpus: the library's decoder
//! against an independent reading of the seed (written here from its text and
//! sample code, not from the decoder), decode -> encode -> decode stability,
//! and the run-length compressor, including generated maps.

use crate::common;

use common::corpus_root;
use formats::adt::Adt;
use formats::adt::alpha::{AlphaFormat, AlphaMap, EdgeFix, compress, decompress};
use formats::wdt::Wdt;
use proptest::collection::vec;
use proptest::prelude::*;

/// The seed's "Uncompressed (2048)": each byte holds two values, LSB first,
/// "record each value separately ... in the order of a then b", normalized with
/// `value & 0xF | 0x10 * value`; without FLAG_DO_NOT_FIX_ALPHA_MAP
/// `alpha_map[x][63] == alpha_map[x][62]`, `alpha_map[63][x] == alpha_map[62][x]`.
fn spec_4bit(data: &[u8], fix: bool) -> [[u8; 64]; 64] {
    let mut map = [[0u8; 64]; 64];
    for (i, byte) in data[..2048].iter().enumerate() {
        let a = byte & 0x0f;
        let b = byte >> 4;
        let (row, col) = (i / 32, (i % 32) * 2);
        map[row][col] = (a & 0xF) | (0x10 * a);
        map[row][col + 1] = (b & 0xF) | (0x10 * b);
    }
    if fix {
        for row in map.iter_mut() {
            row[63] = row[62];
        }
        map[63] = map[62];
    }
    map
}

/// The seed's "Uncompressed (4096)": "just read the values straight".
fn spec_8bit(data: &[u8]) -> [[u8; 64]; 64] {
    let mut map = [[0u8; 64]; 64];
    for (i, v) in data[..4096].iter().enumerate() {
        map[i / 64][i % 64] = *v;
    }
    map
}

/// The seed's sample C++ code for compressed maps, transliterated. Returns the
/// map and `offI`, the bytes read.
fn spec_compressed(buff_in: &[u8]) -> ([[u8; 64]; 64], usize) {
    let mut off_i = 0usize;
    let mut off_o = 0usize;
    let mut buff_out = [0u8; 4096];
    while off_o < 4096 {
        let fill = buff_in[off_i] & 0x80 != 0;
        let n = buff_in[off_i] & 0x7F;
        off_i += 1;
        for _ in 0..n {
            buff_out[off_o] = buff_in[off_i];
            off_o += 1;
            if !fill {
                off_i += 1;
            }
        }
        if fill {
            off_i += 1;
        }
    }
    let mut map = [[0u8; 64]; 64];
    for (i, v) in buff_out.iter().enumerate() {
        map[i / 64][i % 64] = *v;
    }
    (map, off_i)
}

fn rows(map: &AlphaMap) -> [[u8; 64]; 64] {
    let mut out = [[0u8; 64]; 64];
    for (y, row) in out.iter_mut().enumerate() {
        for (x, v) in row.iter_mut().enumerate() {
            *v = map.get(x, y);
        }
    }
    out
}

/// Each corpus tile with its map's MPHD flags (from the companion WDT where
/// the corpus has one, else from the manifest's notes).
fn tiles() -> Vec<(String, Adt, u32)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    let wdt = |name: &str| {
        Wdt::from_bytes(&std::fs::read(root.join(name)).unwrap())
            .unwrap()
            .mphd_flags()
    };
    common::files_in(&root, "adt", ".adt")
        .into_iter()
        .map(|path| {
            let flags = match path.as_str() {
                "adt/wowserfmt_continent4229.adt" => wdt("wdt/wowserfmt_continent.wdt"),
                "adt/wowserfmt_pvpzone3430.adt" => wdt("wdt/wowserfmt_pvpzone.wdt"),
                "adt/twinpeaks_cataclysmctf_30_27.adt" => wdt("wdt/twinpeaks_cataclysmctf.wdt"),
                "adt/bfgilneas_gilneas_bg_2_28_31.adt" => wdt("wdt/bfgilneas_Gilneas_BG_2.wdt"),
                "adt/patch5_Aeven_10_3.adt" => wdt("wdt/patch5_Aeven.wdt"),
                "adt/warcraftnet_Northrend_37_25.adt" => 0x4,
                _ => 0,
            };
            let tile = Adt::from_bytes(&std::fs::read(root.join(&path)).unwrap()).unwrap();
            (path, tile, flags)
        })
        .collect()
}

#[test]
fn corpus_alpha_maps_match_an_independent_reading_of_the_seed() {
    let mut total = [0usize; 3];
    for (path, tile, mphd) in tiles() {
        let mut counts = [0usize; 3];
        for (n, mcnk) in tile.mcnks().enumerate() {
            let data = &mcnk.alpha().unwrap().data;
            let decoded = mcnk.alpha_maps(mphd).unwrap();
            let layers = &mcnk.layers().unwrap().layers;
            let with_alpha: Vec<_> = layers
                .iter()
                .enumerate()
                .filter(|(_, l)| l.flags & 0x100 != 0)
                .collect();
            assert_eq!(decoded.len(), with_alpha.len(), "{path} MCNK {n}");
            let fix = mcnk.flags & 0x8000 == 0;
            for ((i, layer), (j, map)) in with_alpha.into_iter().zip(&decoded) {
                assert_eq!(i, *j);
                let at = &data[layer.offset_in_mcal as usize..];
                let big = mphd & (0x4 | 0x80) != 0;
                let (expected, kind) = match (big, layer.flags & 0x200 != 0) {
                    (false, _) => (spec_4bit(at, fix), 0),
                    (true, false) => (spec_8bit(at), 1),
                    (true, true) => (spec_compressed(at).0, 2),
                };
                assert!(
                    rows(map) == expected,
                    "{path} MCNK {n} layer {i}: decoded map differs"
                );
                counts[kind] += 1;
            }
        }
        println!(
            "{path:<48} {:>4} 4-bit, {:>4} 8-bit, {:>4} compressed maps agree",
            counts[0], counts[1], counts[2]
        );
        for (t, c) in total.iter_mut().zip(counts) {
            *t += c;
        }
    }
    if corpus_root().is_some() {
        // Every encoding is exercised by the corpus.
        assert!(total.iter().all(|&n| n > 0), "{total:?}");
    }
}

#[test]
fn decode_encode_decode_is_stable_and_raw_bytes_come_back() {
    for (path, tile, mphd) in tiles() {
        let mut identical = 0;
        let mut maps = 0;
        for mcnk in tile.mcnks() {
            let data = &mcnk.alpha().unwrap().data;
            let fix = EdgeFix::for_chunk(mcnk.flags);
            for layer in mcnk
                .layers()
                .unwrap()
                .layers
                .iter()
                .filter(|l| l.flags & 0x100 != 0)
            {
                let format = AlphaFormat::for_layer(layer.flags, mphd);
                let raw = &data[layer.offset_in_mcal as usize..];
                let (map, used) = AlphaMap::decode(raw, format, fix).unwrap();
                let encoded = map.encode(format, fix);
                let (again, used_again) = AlphaMap::decode(&encoded, format, fix).unwrap();
                assert_eq!(
                    again, map,
                    "{path}: decode -> encode -> decode changed the map"
                );
                assert_eq!(used_again, encoded.len());
                // Uncompressed maps without the edge fix carry no ignored values:
                // their bytes come back exactly.
                if format != AlphaFormat::Compressed && fix == EdgeFix::None {
                    assert_eq!(encoded, raw[..used], "{path}");
                }
                if encoded == raw[..used] {
                    identical += 1;
                }
                // The compressor's output of any map re-decodes exactly.
                let compressed = compress(&map.values);
                let (back, consumed) = decompress(&compressed).unwrap();
                assert_eq!((back, consumed), (map, compressed.len()), "{path}");
                maps += 1;
            }
        }
        println!("{path:<48} {maps:>4} maps stable, {identical} re-encoded to the same bytes");
    }
}

#[test]
fn corpus_shadow_maps_decode_lsb_first() {
    for (path, tile, _) in tiles() {
        let mut maps = 0;
        for mcnk in tile.mcnks() {
            let Some(shadow) = mcnk.shadow() else {
                continue;
            };
            // The seed: "8 bytes (64 values) X 64 bytes", "the shadow values come LSB first".
            let bytes: Vec<u8> = shadow
                .shadow_map
                .iter()
                .flat_map(|r| r.to_le_bytes())
                .collect();
            assert_eq!(bytes.len(), 512, "{path}");
            let bits = shadow.bits();
            for y in 0..64 {
                for x in 0..64 {
                    let expected = bytes[y * 8 + x / 8] >> (x % 8) & 1 == 1;
                    assert_eq!(bits[y][x], expected, "{path} ({x}, {y})");
                    assert_eq!(shadow.get(x, y), expected);
                }
            }
            maps += 1;
        }
        println!("{path:<48} {maps:>4} shadow maps");
    }
}

/// A map of runs: lengths 1..=80 (some crossing rows), values from a small or
/// the full range, so fills, copies and their boundaries all occur.
fn alpha_map() -> impl Strategy<Value = AlphaMap> {
    let palette = prop_oneof![Just(2u16), Just(3), Just(16), Just(256)];
    let run = prop_oneof![3 => 1usize..=4, 1 => 1usize..=80];
    (palette, vec((run, any::<u8>()), 1..1200)).prop_map(|(palette, runs)| {
        let mut values = Vec::with_capacity(4096);
        for (len, value) in runs {
            let value = (u16::from(value) % palette) as u8;
            values.extend(std::iter::repeat_n(value, len));
        }
        values.resize(4096, 0);
        AlphaMap { values }
    })
}

/// Walks compressed data control by control: every run stays inside its row.
fn runs_stay_in_rows(packed: &[u8]) -> Result<(), TestCaseError> {
    let mut at = 0;
    for y in 0..64 {
        let mut row = 0;
        while row < 64 {
            let control = packed[at];
            let count = (control & 0x7f) as usize;
            prop_assert!(count > 0 && row + count <= 64, "row {} run of {}", y, count);
            at += if control & 0x80 != 0 { 2 } else { 1 + count };
            row += count;
        }
    }
    prop_assert_eq!(at, packed.len());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_compressor_output_re_decodes_exactly(map in alpha_map()) {
        let packed = compress(&map.values);
        let (back, used) = decompress(&packed).unwrap();
        prop_assert_eq!(&back, &map);
        prop_assert_eq!(used, packed.len(), "compressed data left over");
        runs_stay_in_rows(&packed)?;
        // Never worse than one copy control byte per row.
        prop_assert!(packed.len() <= 64 * 65);
        for format in [AlphaFormat::Uncompressed8Bit, AlphaFormat::Compressed] {
            let bytes = map.encode(format, EdgeFix::None);
            prop_assert_eq!(AlphaMap::decode(&bytes, format, EdgeFix::None).unwrap().0, map.clone());
        }
    }

    #[test]
    fn four_bit_maps_are_stable_after_one_round(map in alpha_map()) {
        let four_bit = AlphaFormat::Uncompressed4Bit;
        let once = AlphaMap::decode(&map.encode(four_bit, EdgeFix::Fix63), four_bit, EdgeFix::Fix63)
            .unwrap()
            .0;
        let twice = AlphaMap::decode(&once.encode(four_bit, EdgeFix::Fix63), four_bit, EdgeFix::Fix63)
            .unwrap()
            .0;
        prop_assert_eq!(&twice, &once);
        for y in 0..64 {
            for x in 0..64 {
                let v = once.get(x, y);
                prop_assert_eq!(v % 17, 0, "4-bit values are multiples of 17");
                let source = map.get(x.min(62), y.min(62));
                prop_assert!(v.abs_diff(source) <= 8, "({}, {}) {} -> {}", x, y, source, v);
            }
        }
    }

    #[test]
    fn any_bytes_decompress_or_error(data in vec(any::<u8>(), 0..300)) {
        match decompress(&data) {
            Ok((map, used)) => {
                prop_assert!(used <= data.len());
                prop_assert_eq!(map.values.len(), 4096);
            }
            Err(e) => prop_assert!(e.offset() <= data.len(), "{}", e),
        }
    }
}

#[test]
fn short_uncompressed_maps_are_an_error() {
    assert!(AlphaMap::decode(&[0; 2047], AlphaFormat::Uncompressed4Bit, EdgeFix::None).is_err());
    assert!(AlphaMap::decode(&[0; 4095], AlphaFormat::Uncompressed8Bit, EdgeFix::None).is_err());
    assert!(
        decompress(&[0x80 | 64, 1]).is_err(),
        "one row of a map is not a map"
    );
}
