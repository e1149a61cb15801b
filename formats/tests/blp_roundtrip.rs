//! Every corpus BLP (`blp/` and the model textures under `textures/`) reads and
//! writes back byte for byte; the layout quirks of BLP.md are kept as read and
//! recomputed after an edit.

use crate::common;

use formats::blp::{Blp, Encoding};

#[test]
fn every_corpus_blp_round_trips_byte_exact() {
    let files = common::blp_corpus();
    if files.is_empty() {
        return;
    }
    assert_eq!(files.len(), 40, "34 in blp/, 6 in textures/");
    for (name, data) in &files {
        let blp = Blp::from_bytes(data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&blp.to_bytes().unwrap(), data, "{name}");
        assert!(!blp.levels.is_empty(), "{name}");
        blp.encoding().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

fn corpus_blp(name: &str) -> Option<Blp> {
    let data = common::corpus_file(name)?;
    Some(Blp::from_bytes(&data).unwrap())
}

#[test]
fn a_gap_before_level_0_is_kept_and_dropped_by_a_relayout() {
    // BLP.md: the header ends at 732, level 0 starts at 1180.
    let Some(data) = common::corpus_file("blp/slk_furbolgshaman.blp") else {
        return;
    };
    let blp = Blp::from_bytes(&data).unwrap();
    assert_eq!(blp.header_len(), 732);
    let placement = blp.kept.placement().expect("not the fresh layout");
    assert_eq!(placement.gaps.len(), 1);
    assert_eq!(placement.gaps[0].0, 732);
    assert_eq!(placement.gaps[0].1.len(), 1180 - 732);
    assert_eq!(placement.targets[0].0, 1180);
    let mut fresh = blp.clone();
    fresh.relayout();
    let bytes = fresh.to_bytes().unwrap();
    assert_eq!(bytes.len(), data.len() - 448);
    let back = Blp::from_bytes(&bytes).unwrap();
    assert!(back.kept.is_empty());
    assert_eq!(back, fresh);
    assert_eq!(back.levels, blp.levels);
    assert_eq!(back.mip_table().unwrap().offsets[0], 732);
}

#[test]
fn level_0_inside_the_palette_is_kept_as_read() {
    // BLP.md: dbz_GutsArm.blp puts level 0 at 1176, inside the palette's last 4 bytes.
    let Some(blp) = corpus_blp("blp/dbz_GutsArm.blp") else {
        return;
    };
    assert_eq!(blp.header_len(), 1180);
    assert_eq!(blp.mip_table().unwrap().offsets[0], 1176);
    let palette_tail: Vec<u8> = blp.palette.as_ref().unwrap()[255].to_vec();
    assert_eq!(blp.levels[0][..4], palette_tail[..]);
    assert!(blp.kept.placement().unwrap().gaps.is_empty());
    // The same bytes in another place: level 0 edited where it overlaps the
    // palette no longer agrees with it, so the layout is recomputed.
    let mut edited = blp.clone();
    edited.levels[0][0] ^= 0xff;
    let bytes = edited.to_bytes().unwrap();
    let back = Blp::from_bytes(&bytes).unwrap();
    assert_eq!(back.mip_table().unwrap().offsets[0], 1180);
    assert_eq!(back.levels, edited.levels);
    assert!(back.kept.is_empty());
}

#[test]
fn levels_sharing_one_offset_are_kept_and_recomputed_after_an_edit() {
    // Eight levels at 1180, all 4096 bytes (level 0's data, repeated).
    let Some(blp) = corpus_blp("blp/dbz_DB4.blp") else {
        return;
    };
    assert_eq!(blp.levels.len(), 8);
    assert!(blp.levels.iter().all(|l| *l == blp.levels[0]));
    let table = blp.mip_table().unwrap();
    assert!(table.offsets[..8].iter().all(|&o| o == 1180));
    // Replace level 3 with bytes of its real size: offsets and sizes follow.
    let mut edited = blp.clone();
    edited.levels[3] = vec![7; 8 * 8];
    let bytes = edited.to_bytes().unwrap();
    let back = Blp::from_bytes(&bytes).unwrap();
    assert_eq!(back.levels, edited.levels);
    assert!(back.kept.is_empty());
    let t = back.mip_table().unwrap();
    assert_eq!(t.sizes[3], 64);
    assert_eq!(t.offsets[4], t.offsets[3] + 64);
    assert_eq!(bytes.len(), 1180 + 7 * 4096 + 64);
}

#[test]
fn a_table_entry_past_the_levels_is_kept() {
    // Build a file whose table has an entry after the first size of 0.
    let Some(data) = common::corpus_file("blp/twinpeaks_ul_tiles08.blp") else {
        return;
    };
    let mut odd = data.clone();
    // mipOffsets[15] = 1234 (mipSizes[15] stays 0).
    odd[20 + 60..20 + 64].copy_from_slice(&1234u32.to_le_bytes());
    let blp = Blp::from_bytes(&odd).unwrap();
    // Slot 15: the 16th offset (the sizes take slots 16 to 31).
    assert_eq!(blp.kept.raw(15), Some(1234));
    assert_eq!(blp.to_bytes().unwrap(), odd);
    let plain = Blp::from_bytes(&data).unwrap();
    assert!(plain.kept.is_empty(), "a fresh layout keeps nothing");
    assert_eq!(plain.levels, blp.levels);
}

#[test]
fn the_kept_trailing_bytes_go_when_a_level_grows() {
    let Some(data) = common::corpus_file("blp/twinpeaks_wildhammer_base02_000_00_00.blp") else {
        return;
    };
    let mut longer = data.clone();
    longer.extend_from_slice(b"trailing");
    let blp = Blp::from_bytes(&longer).unwrap();
    let placement = blp
        .kept
        .placement()
        .expect("trailing bytes are not a fresh layout");
    assert_eq!(placement.gaps[0].1, b"trailing");
    assert_eq!(blp.to_bytes().unwrap(), longer);
    let mut grown = blp.clone();
    grown.levels[0].extend_from_slice(&[0; 8]);
    let back = Blp::from_bytes(&grown.to_bytes().unwrap()).unwrap();
    assert_eq!(back.levels, grown.levels);
    assert!(back.kept.is_empty());
}

#[test]
fn files_that_are_not_blp_are_refused_clearly() {
    let Some(model) = common::corpus_file("mdx/zf_bone.mdx") else {
        return;
    };
    let err = Blp::from_bytes(&model).unwrap_err().to_string();
    assert!(err.contains("(an MDX model)"), "{err}");
    let err = Blp::from_bytes(b"PNG\x89....").unwrap_err().to_string();
    assert!(err.contains("not a BLP texture"), "{err}");
    // A level past the end names the level and the table entry.
    let data = formats::blp::tiny_blp2_bgra();
    let mut cut = data.clone();
    cut.truncate(data.len() - 1);
    let err = Blp::from_bytes(&cut).unwrap_err();
    assert_eq!(err.offset(), 20 + 4);
    assert!(
        err.to_string()
            .contains("4 bytes at 0x4a4 (offset 1188 from 0x0) do not lie in 0x0..0x4a7"),
        "{err}"
    );
    assert_eq!(err.path_string(), "levels[1]");
}

#[test]
fn encodings_of_the_corpus() {
    let files = common::blp_corpus();
    let mut seen = std::collections::BTreeMap::new();
    for (_, data) in &files {
        let blp = Blp::from_bytes(data).unwrap();
        *seen
            .entry((blp.version(), blp.encoding().unwrap()))
            .or_insert(0) += 1;
    }
    if files.is_empty() {
        return;
    }
    let expected = [
        ((1, Encoding::Jpeg), 17),
        ((1, Encoding::Palette), 7),
        ((2, Encoding::Palette), 1),
        ((2, Encoding::Dxt1), 6),
        ((2, Encoding::Dxt3), 3),
        ((2, Encoding::Dxt5), 5),
        ((2, Encoding::Bgra), 1),
    ];
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), expected);
}
