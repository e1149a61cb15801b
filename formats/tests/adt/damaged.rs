//! Damaged tiles: a tile whose file ends inside one of its chunks (a
//! download or a copy cut short), as `mdx_damaged.rs` does it for models.
//! The strict reader refuses it; the lenient reader keeps the chunk the file
//! ends inside as its bytes (`AdtChunk::Cut`) with a diagnostic naming it and
//! where it starts, reads every chunk before it as the whole file gives
//! them, and writes the cut file back byte for byte, the offsets of `MHDR`
//! and `MCIN` into the missing chunks included. Built from every corpus tile
//! (and the tiles of the corpus map), cut inside its first chunks, its
//! `MCIN`, its first and middle `MCNK` and its last chunk.

use crate::common;

use formats::adt::{Adt, AdtChunk};

/// Where each top-level chunk of `data` starts (tag, then a `u32` size).
fn chunk_starts(data: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = 0;
    while at + 8 <= data.len() {
        starts.push(at);
        let size = u32::from_le_bytes(data[at + 4..at + 8].try_into().unwrap());
        at += 8 + size as usize;
    }
    assert_eq!(at, data.len(), "the corpus tile is whole");
    starts
}

/// Reads `data` (the file of `tile`) cut to `len` bytes, inside its
/// `index`th chunk (which starts at `start`), and checks everything the
/// lenient reader promises.
fn check_cut(name: &str, tile: &Adt, data: &[u8], index: usize, start: usize, len: usize) {
    let cut = &data[..len];
    let at = format!("{name} cut to {len} bytes (inside chunks[{index}], at {start:#x})");
    assert!(
        Adt::from_bytes(cut).is_err(),
        "{at}: strict read accepts it"
    );
    let (read, diagnostics) =
        Adt::from_bytes_lenient(cut).unwrap_or_else(|e| panic!("{at}: lenient read: {e}"));
    // The chunks before are read as the whole file gives them.
    assert_eq!(read.chunks.len(), index + 1, "{at}");
    assert!(
        read.chunks[..index] == tile.chunks[..index],
        "{at}: the chunks before differ"
    );
    // The cut one is kept as its bytes.
    let Some(AdtChunk::Cut(kept)) = read.chunks.last() else {
        panic!(
            "{at}: the last chunk is {:?}",
            read.chunks.last().map(AdtChunk::tag)
        );
    };
    let tag = tile.chunks[index].tag();
    // One diagnostic names it, by path and offset.
    let named = format!("chunks[{index}].{tag}: ");
    common::check_cut_chunk(kept, tag, &diagnostics, &named, (start, len), &at);
    // Written back: the cut file, exactly (MHDR's and MCIN's offsets into
    // the chunks that are missing as they were).
    let written = read
        .to_bytes()
        .unwrap_or_else(|e| panic!("{at}: write: {e}"));
    assert!(written == cut, "{at}: not written back byte for byte");
}

#[test]
fn every_corpus_tile_cut_inside_a_chunk_reads_leniently_and_writes_back() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let mut tiles = common::files_in(&root, "adt", ".adt");
    tiles.extend(common::files_in(&root, "maps/cataclysmctf", ".adt"));
    assert_eq!(tiles.len(), 12);
    let mut checked = 0;
    for name in &tiles {
        let data = std::fs::read(root.join(name)).unwrap();
        let tile = Adt::from_bytes(&data).unwrap();
        let starts = chunk_starts(&data);
        assert_eq!(starts.len(), tile.chunks.len(), "{name}");
        let first_mcnk = tile
            .chunks
            .iter()
            .position(|c| matches!(c, AdtChunk::Mcnk(_)))
            .unwrap();
        let mcin = tile
            .chunks
            .iter()
            .position(|c| matches!(c, AdtChunk::Mcin(_)));
        let last = starts.len() - 1;
        let mut indices = vec![1, 2, first_mcnk, (first_mcnk + last) / 2, last];
        indices.extend(mcin);
        indices.sort_unstable();
        indices.dedup();
        for index in indices {
            let start = starts[index];
            let end = starts.get(index + 1).copied().unwrap_or(data.len());
            // Inside the size, just after it, and halfway through the body.
            for len in [start + 6, start + 9, start + (end - start) / 2] {
                if len > start + 4 && len < end {
                    check_cut(name, &tile, &data, index, start, len);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 12 * 12, "{checked} cuts");
}

/// A cut chunk moved before another chunk is refused on write: the chunks
/// after it would read back as its missing bytes.
#[test]
fn a_cut_chunk_before_another_chunk_is_refused_on_write() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let data = std::fs::read(root.join("adt/blizzardry_Azeroth_38_46.adt")).unwrap();
    let (mut tile, _) = Adt::from_bytes_lenient(&data[..data.len() - 5]).unwrap();
    let cut = tile.chunks.pop().unwrap();
    assert!(matches!(cut, AdtChunk::Cut(_)));
    let at = tile.chunks.len() - 1;
    tile.chunks.insert(at, cut);
    let e = tile.to_bytes().unwrap_err();
    assert!(e.to_string().contains("can only be the last chunk"), "{e}");
    assert!(e.to_string().starts_with(&format!("chunks[{at}].")), "{e}");
}

/// The `_tex0` and `_obj0` files of a corpus tile split as Cataclysm splits
/// it, cut inside their last chunk: read leniently (`AdtChunk::Cut` last,
/// a diagnostic at its start) and written back byte for byte.
#[test]
fn cut_split_files_read_leniently_and_write_back() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let data = std::fs::read(root.join("adt/blizzardry_Azeroth_38_46.adt")).unwrap();
    let split = formats::adt::SplitAdt::from_monolithic(&Adt::from_bytes(&data).unwrap());
    for (name, file) in [("tex0", &split.tex0), ("obj0", &split.obj0)] {
        let bytes = file.to_bytes().unwrap();
        let starts = chunk_starts(&bytes);
        let start = *starts.last().unwrap();
        let cut = &bytes[..start + (bytes.len() - start) / 2];
        let at = format!("{name} cut to {} bytes", cut.len());
        assert!(formats::adt::SplitFile::from_bytes(cut).is_err(), "{at}");
        let (read, notes) = formats::adt::SplitFile::from_bytes_lenient(cut).unwrap();
        assert!(
            read.chunks[..starts.len() - 1] == file.chunks[..starts.len() - 1],
            "{at}"
        );
        assert!(matches!(read.chunks.last(), Some(AdtChunk::Cut(_))), "{at}");
        assert_eq!(notes.len(), 1, "{at}");
        assert_eq!(notes[0].offset, start, "{at}");
        assert!(read.to_bytes().unwrap() == cut, "{at}: not written back");
    }
}

/// A file that is not a tile or a WDT at all (an MDX model renamed, an empty
/// file from a failed copy) is refused in both modes, saying what it is,
/// rather than kept whole as one cut chunk by the lenient reader (and passed
/// by `check` as "parsed leniently, byte-exact").
#[test]
fn a_file_that_is_no_tile_is_refused_in_both_modes_saying_what_it_is() {
    use formats::adt::SplitFile;
    use formats::wdt::Wdt;
    let model = formats::sample::sample_mdx();
    let cases: [(&[u8], &str); 4] = [
        (
            &model,
            "it starts with \"MDLX\" (an MDX model), not with its MVER chunk",
        ),
        (
            b"",
            "it is empty (such a file starts with its MVER chunk (`REVM` on disk))",
        ),
        (b"RE", "it is only 2 bytes"),
        (
            b"MVER\x04\0\0\0\x12\0\0\0",
            "it starts with \"MVER\", not with its MVER chunk (`REVM` on disk)",
        ),
    ];
    for (data, says) in cases {
        let errors = [
            ("an ADT file", Adt::from_bytes(data).err()),
            ("an ADT file", Adt::from_bytes_lenient(data).err()),
            ("an ADT file", SplitFile::from_bytes_lenient(data).err()),
            ("a WDT file", Wdt::from_bytes(data).err()),
            ("a WDT file", Wdt::from_bytes_lenient(data).err()),
        ];
        for (file, e) in errors {
            let e = e.unwrap_or_else(|| panic!("{says}: read as {file}"));
            assert_eq!(e.offset(), 0);
            let message = e.to_string();
            assert!(
                message.contains(&format!("not {file}: {says}")),
                "{message}"
            );
        }
    }
    // The smallest tile: its MVER alone.
    let mver = b"REVM\x04\0\0\0\x12\0\0\0";
    assert_eq!(Adt::from_bytes(mver).unwrap().to_bytes().unwrap(), mver);
}
