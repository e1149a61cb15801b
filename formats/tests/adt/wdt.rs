//! Every WDT of the corpus, typed: byte-exact round trip, and the values the
//! manifest lists (MVER, top-level tags, MPHD flags, MAIN tile count).

use crate::common;

use common::{corpus_root, files_in, manifest_files};
use formats::wdt::{Wdt, WdtChunk, WdtKind};

#[test]
fn every_corpus_wdt_round_trips_byte_exact_and_matches_the_manifest() {
    let Some(root) = corpus_root() else { return };
    let listed = manifest_files(&root, "ADT_MANIFEST.md", "wdt", ".wdt");
    let mut paths: Vec<String> = listed.iter().map(|f| f.path.clone()).collect();
    paths.sort();
    assert_eq!(
        paths,
        files_in(&root, "wdt", ".wdt"),
        "manifest and wdt/ disagree"
    );
    assert!(!listed.is_empty());
    for file in &listed {
        let data = std::fs::read(root.join(&file.path)).unwrap();
        let wdt = Wdt::from_bytes(&data).unwrap_or_else(|e| panic!("{}: {e}", file.path));
        assert!(
            wdt.to_bytes().unwrap() == data,
            "{}: written bytes differ",
            file.path
        );
        assert_eq!(Wdt::from_bytes(&wdt.to_bytes().unwrap()).unwrap(), wdt);

        assert_eq!(
            wdt.version().map(|v| v.to_string()).as_deref(),
            Some(file.cell("MVER")),
            "{}",
            file.path
        );
        let tags: Vec<String> = wdt
            .chunks
            .iter()
            .map(|c| match c {
                WdtChunk::Mver(_) => "MVER".to_string(),
                WdtChunk::Mphd(_) => "MPHD".to_string(),
                WdtChunk::Main(_) => "MAIN".to_string(),
                WdtChunk::Maid(_) => "MAID".to_string(),
                WdtChunk::Mwmo(_) => "MWMO".to_string(),
                WdtChunk::Modf(_) => "MODF".to_string(),
                WdtChunk::Unknown(u) => u.tag.to_string(),
                WdtChunk::Cut(_) => panic!("{}: a strict read made a cut chunk", file.path),
            })
            .collect();
        assert_eq!(tags.join(" "), file.cell("top-level tags"), "{}", file.path);
        let flags_tiles = file.cell("MPHD flags");
        let kind = wdt.kind();
        match flags_tiles.split_once(" / ") {
            Some((flags, tiles)) => {
                let flags = u32::from_str_radix(flags.trim_start_matches("0x"), 16).unwrap();
                assert_eq!(wdt.mphd_flags(), flags, "{}", file.path);
                assert_eq!(
                    wdt.main().unwrap().tile_count().to_string(),
                    tiles,
                    "{}",
                    file.path
                );
                assert_eq!(kind, WdtKind::Map, "{}", file.path);
            }
            None => assert!(
                matches!(kind, WdtKind::Light | WdtKind::Occlusion),
                "{}: {kind:?}",
                file.path
            ),
        }
        println!(
            "{:<44} {:>6} bytes  byte-exact  {kind:?}  [{}]",
            file.path,
            data.len(),
            tags.join(" ")
        );
    }
    println!("{} WDT files round-tripped byte-exact", listed.len());
}

#[test]
fn truncated_wdts_error_with_an_offset() {
    let Some(root) = corpus_root() else { return };
    let data = std::fs::read(root.join("wdt/bfgilneas_Gilneas_BG_2.wdt")).unwrap();
    for cut in [1, 4, 11, 13, 40, 51, 1000, data.len() - 9, data.len() - 1] {
        let e = Wdt::from_bytes(&data[..cut]).unwrap_err();
        assert!(e.offset() <= cut, "cut {cut}: {e}");
    }
    // Cut at a chunk boundary: a shorter, valid file that writes back as itself.
    let boundary = 12 + 40 + 8 + 32768;
    let wdt = Wdt::from_bytes(&data[..boundary]).unwrap();
    assert_eq!(wdt.to_bytes().unwrap(), &data[..boundary]);
}

/// Every corpus WDT cut inside each of its chunks (in its size, just after
/// it, halfway through the body): the strict reader refuses it, the lenient
/// one reads the chunks before as the whole file gives them, keeps the cut
/// one as `WdtChunk::Cut` with a diagnostic at its start, and writes the cut
/// file back byte for byte. A cut chunk moved before another is refused on
/// write.
#[test]
fn cut_wdts_read_leniently_and_write_back() {
    let Some(root) = corpus_root() else { return };
    let mut checked = 0;
    for path in files_in(&root, "wdt", ".wdt") {
        let data = std::fs::read(root.join(&path)).unwrap();
        let whole = Wdt::from_bytes(&data).unwrap();
        let mut start = 0;
        for (index, chunk) in whole.chunks.iter().enumerate() {
            let size = u32::from_le_bytes(data[start + 4..start + 8].try_into().unwrap()) as usize;
            let end = start + 8 + size;
            for len in [start + 6, start + 9, start + (end - start) / 2] {
                if len <= start + 4 || len >= end {
                    continue;
                }
                let at = format!("{path} cut to {len} bytes (inside [{index}])");
                let cut = &data[..len];
                assert!(Wdt::from_bytes(cut).is_err(), "{at}");
                let (read, notes) = Wdt::from_bytes_lenient(cut).unwrap();
                assert!(read.chunks[..index] == whole.chunks[..index], "{at}");
                let Some(WdtChunk::Cut(kept)) = read.chunks.last() else {
                    panic!("{at}: {:?}", read.chunks.last());
                };
                assert_eq!(
                    (read.chunks.len(), kept.tag),
                    (index + 1, chunk.tag()),
                    "{at}"
                );
                assert_eq!(notes.len(), 1, "{at}");
                assert_eq!(notes[0].offset, start, "{at}");
                let named = format!("chunks[{index}].{}: ", chunk.tag());
                assert!(notes[0].message.starts_with(&named), "{at}: {}", notes[0]);
                assert!(
                    notes[0].message.contains("(WdtChunk::Cut)"),
                    "{at}: {}",
                    notes[0]
                );
                assert!(read.to_bytes().unwrap() == cut, "{at}: not written back");
                checked += 1;
            }
            start = end;
        }
    }
    assert!(checked >= 4 * 9, "{checked} cuts");
    let data = std::fs::read(root.join("wdt/bfgilneas_Gilneas_BG_2.wdt")).unwrap();
    let (mut wdt, _) = Wdt::from_bytes_lenient(&data[..data.len() - 3]).unwrap();
    let cut = wdt.chunks.pop().unwrap();
    wdt.chunks.insert(0, cut);
    let e = wdt.to_bytes().unwrap_err();
    assert!(e.to_string().starts_with("chunks[0].MODF: "), "{e}");
    assert!(e.to_string().contains("can only be the last chunk"), "{e}");
}

#[test]
fn wdts_survive_a_json_round_trip() {
    let Some(root) = corpus_root() else { return };
    for path in files_in(&root, "wdt", ".wdt") {
        let data = std::fs::read(root.join(&path)).unwrap();
        let wdt = Wdt::from_bytes(&data).unwrap();
        let back: Wdt = serde_json::from_str(&serde_json::to_string(&wdt).unwrap()).unwrap();
        assert_eq!(back, wdt, "{path}");
        assert!(back.to_bytes().unwrap() == data, "{path}");
    }
}
