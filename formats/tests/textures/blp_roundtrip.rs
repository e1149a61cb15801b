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

/// The lenient reader changes nothing for a file the strict one takes: the
/// same value, no diagnostic, on every corpus texture.
#[test]
fn the_lenient_reader_reads_every_corpus_blp_as_the_strict_one() {
    for (name, data) in common::blp_corpus() {
        let strict = Blp::from_bytes(&data).unwrap();
        let (lenient, diagnostics) = Blp::from_bytes_lenient(&data).unwrap();
        assert_eq!(lenient, strict, "{name}");
        assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
        assert!(lenient.missing_levels().is_empty(), "{name}");
    }
}

/// `dbz_Mummy2.blp` (`WILD_MANIFEST.md`): a 128 x 128 BLP1 JPEG whose mip
/// table puts a level 8 of 327 bytes at the end of the file, and a level 9
/// further on (its entry 10 has an offset and no size). Pillow and the game
/// show its level 0; the strict reader refuses it at level 8's entry.
#[test]
fn a_blp_with_mip_levels_past_its_end_reads_leniently_and_writes_back() {
    let Some(data) = common::wild_file("dbz_Mummy2.blp") else {
        return;
    };
    assert_eq!(data.len(), 46605);
    let strict = Blp::from_bytes(&data).unwrap_err();
    assert_eq!(
        strict.offset(),
        0x1c + 4 * 8,
        "level 8's entry in mipOffsets"
    );
    assert_eq!(strict.path_string(), "levels[8]");
    assert!(
        strict
            .to_string()
            .ends_with("327 bytes at 0xb60d (offset 46605 from 0x0) do not lie in 0x0..0xb60d"),
        "{strict}"
    );
    let (blp, diagnostics) = Blp::from_bytes_lenient(&data).unwrap();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0].offset, 0x3c);
    assert!(
        diagnostics[0].message.starts_with(&format!(
            "{strict}; the list ends before this entry: it and the entries after it are kept \
             in the table as read"
        )),
        "{}",
        diagnostics[0]
    );
    // Levels 0 to 7 (128 x 128 down to 1 x 1) are there; 8 and 9 are not.
    assert_eq!(blp.levels.len(), 8);
    assert_eq!(blp.missing_levels(), 8..10);
    // The table as it was: written back byte for byte, and read again.
    let bytes = blp.to_bytes().unwrap();
    assert!(bytes == data, "not written back byte for byte");
    let table = blp.mip_table().unwrap();
    assert_eq!(
        (
            table.offsets[8],
            table.sizes[8],
            table.offsets[9],
            table.sizes[9]
        ),
        (0xb60d, 327, 0xc65a2, 54)
    );
    assert_eq!((table.offsets[10], table.sizes[10]), (0xc65d8, 0));
    let (again, _) = Blp::from_bytes_lenient(&bytes).unwrap();
    assert_eq!(again, blp);
    // Every level there decodes, at its size; a missing one says where it is.
    for level in 0..8 {
        let image = blp.decode_level(level).unwrap();
        assert_eq!((image.width, image.height), blp.level_size(level));
    }
    let e = blp.decode_level(8).unwrap_err();
    assert_eq!((e.offset(), e.path_string().as_str()), (0x3c, "levels[8]"));
    assert!(
        e.to_string().contains(
            "level 8: the mip table puts its 327 bytes at 0xb60d, outside the file (46605 bytes)"
        ),
        "{e}"
    );
    let e = blp.decode_level(9).unwrap_err();
    assert!(
        e.to_string().contains("at 0xc65a2, outside the file"),
        "{e}"
    );
    let e = blp.decode_level(10).unwrap_err();
    assert_eq!(e.to_string(), "no level 10: the texture has 8 mip levels");
}

/// `dbz_Android15.blp` (`WILD_MANIFEST.md`): a 128 x 128 BLP1 JPEG with a
/// ninth level (past its 1 x 1 level 7) whose 45 bytes cut the JPEG frame
/// header short. It reads strictly and byte-exact; every other level decodes.
#[test]
fn a_blp_whose_smallest_level_does_not_decode_decodes_the_others() {
    let Some(data) = common::wild_file("dbz_Android15.blp") else {
        return;
    };
    let blp = Blp::from_bytes(&data).unwrap();
    assert_eq!(blp.to_bytes().unwrap(), data);
    assert_eq!(blp.levels.len(), 9);
    assert!(blp.missing_levels().is_empty());
    for level in 0..8 {
        let image = blp.decode_level(level).unwrap();
        assert_eq!((image.width, image.height), blp.level_size(level));
    }
    let e = blp.decode_level(8).unwrap_err();
    assert_eq!(
        (e.offset(), e.path_string().as_str()),
        (0x478a, "levels[8]")
    );
    assert!(
        e.to_string()
            .ends_with("level 8: 1x1 JPEG: JPEG byte 622: the frame header is cut short"),
        "{e}"
    );
}

/// A BLP built here with mip entries outside the file, as the wild ones
/// have: a BGRA 8 x 8 texture (levels 0 to 3) whose table gets a level 4
/// starting at the end of the file and a level 5 of 0xFFFEA5FC bytes; then
/// the same with level 2's offset past the end, so that level 3, which is
/// there, is read as bytes no level covers. Both read leniently, write back
/// byte for byte, and decode the levels before the first one outside.
#[test]
fn a_built_blp_with_mip_entries_past_its_end_reads_leniently() {
    let image = formats::blp::RgbaImage::new(8, 8, (0..=255).collect()).unwrap();
    let blp = Blp::encode(&image, formats::blp::Target::Bgra).unwrap();
    let data = blp.to_bytes().unwrap();
    let table = 4 + 16; // BLP2
    let set = |data: &mut Vec<u8>, at: usize, value: u32| {
        data[at..at + 4].copy_from_slice(&value.to_le_bytes());
    };
    let mut past = data.clone();
    let len = u32::try_from(past.len()).unwrap();
    set(&mut past, table + 4 * 4, len);
    set(&mut past, table + 64 + 4 * 4, 16);
    set(&mut past, table + 4 * 5, 1172);
    set(&mut past, table + 64 + 4 * 5, 0xFFFE_A5FC);
    let mut middle = data.clone();
    set(&mut middle, table + 4 * 2, len + 100);
    for (what, file, kept) in [
        ("past the end", &past, 4..6),
        ("in the middle", &middle, 2..4),
    ] {
        let strict = Blp::from_bytes(file).unwrap_err();
        assert_eq!(
            strict.path_string(),
            format!("levels[{}]", kept.start),
            "{what}"
        );
        let (read, diagnostics) = Blp::from_bytes_lenient(file).unwrap();
        assert_eq!(diagnostics.len(), 1, "{what}: {diagnostics:?}");
        assert_eq!(diagnostics[0].offset, strict.offset(), "{what}");
        assert_eq!(read.levels.len(), kept.start, "{what}");
        assert_eq!(read.missing_levels(), kept, "{what}");
        assert!(
            read.to_bytes().unwrap() == *file,
            "{what}: not byte for byte"
        );
        for level in 0..read.levels.len() {
            assert_eq!(
                read.decode_level(level).unwrap(),
                blp.decode_level(level).unwrap(),
                "{what}: level {level}"
            );
        }
        // Laid out afresh, the table lists the levels there are.
        let mut fresh = read.clone();
        fresh.relayout();
        let back = Blp::from_bytes(&fresh.to_bytes().unwrap()).unwrap();
        assert_eq!(back.levels, read.levels, "{what}");
        assert!(back.missing_levels().is_empty(), "{what}");
    }
    // Level 0 outside too: nothing to read, still written back as it was.
    let mut none = data.clone();
    set(&mut none, table, len + 8);
    let (read, _) = Blp::from_bytes_lenient(&none).unwrap();
    assert!(read.levels.is_empty());
    assert_eq!(read.missing_levels(), 0..4);
    assert!(read.to_bytes().unwrap() == none);
    assert!(read.decode_level(0).is_err());
}
