//! Input beyond the corpus: lenient reads that keep undecodable chunks as
//! bytes, header counts larger than their data, and navigation tables large
//! enough to expose anything quadratic.

use crate::common;

use common::corpus_root;
use format_core::UnknownChunk;
use formats::adt::header::{Mhdr, Mver};
use formats::adt::mcnk::{Mcnk, McnkChunk, Mcrf};
use formats::adt::{Adt, AdtChunk};

/// A tile with one MCNK whose sub-chunks are `subs`, and that MCNK's offset.
fn one_mcnk_tile(subs: Vec<McnkChunk>) -> (Adt, usize) {
    let mut mcnk = Mcnk::new(0, 0);
    mcnk.chunks = subs;
    let tile = Adt {
        chunks: vec![
            AdtChunk::Mver(Mver { version: 18 }),
            AdtChunk::Mhdr(Mhdr::default()),
            AdtChunk::Mcnk(mcnk),
        ],
    };
    (tile, 12 + 72)
}

#[test]
fn lenient_reads_keep_undecodable_chunks_as_bytes() {
    // An MCVT of 8 bytes cannot hold its 145 heights.
    let odd = UnknownChunk {
        tag: (*b"MCVT").into(),
        bytes: vec![1; 8],
    };
    let (tile, _) = one_mcnk_tile(vec![McnkChunk::Unknown(odd)]);
    let bytes = tile.to_bytes().unwrap();
    let e = Adt::from_bytes(&bytes).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("chunks[2].MCNK.chunks[0].MCVT: need 580 bytes"),
        "{e}"
    );
    let (lenient, notes) = Adt::from_bytes_lenient(&bytes).unwrap();
    assert_eq!(lenient, tile);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert_eq!(notes[0].offset, e.offset());
    // The note names the sub-chunk as the strict error does, the MCNK's
    // place in the tile included (it said `[0].MCVT: …`).
    assert!(
        notes[0]
            .message
            .starts_with("chunks[2].MCNK.chunks[0].MCVT: need 580 bytes"),
        "{}",
        notes[0]
    );
    assert!(notes[0].message.ends_with("kept the sub-chunk as bytes"));
    assert_eq!(lenient.to_bytes().unwrap(), bytes);

    // A damaged MH2O offset: strict fails, lenient keeps MH2O as bytes and
    // reads every MCNK.
    let Some(root) = corpus_root() else { return };
    let mut data = std::fs::read(root.join("adt/tswowassets_kalimdor_1_1.adt")).unwrap();
    let mh2o = 20 + u32::from_le_bytes(data[60..64].try_into().unwrap()) as usize + 8;
    let chunk = (0..256).find(|c| data[mh2o + 12 * c + 4] != 0).unwrap();
    data[mh2o + 12 * chunk + 3] = 0x7f;
    assert!(Adt::from_bytes(&data).is_err());
    let (tile, notes) = Adt::from_bytes_lenient(&data).unwrap();
    println!("{}", notes[0]);
    assert_eq!(notes.len(), 1);
    assert!(tile.mh2o().is_none() && tile.mcnks().count() == 256);
    assert!(tile.to_bytes().unwrap() == data);
}

/// An empty fixed-size sub-chunk (size 0, as every MCSH of three public
/// Gilneas tiles has it: "no shadow map") is the format as written, not
/// damage: the strict reader keeps it as an empty sub-chunk, and the tile
/// writes back byte for byte, its terrain whole.
#[test]
fn an_empty_shadow_map_reads_strictly() {
    let heights = McnkChunk::Mcvt(formats::adt::mcnk::Mcvt { height: [2.0; 145] });
    let empty = McnkChunk::Unknown(UnknownChunk {
        tag: (*b"MCSH").into(),
        bytes: Vec::new(),
    });
    let (tile, _) = one_mcnk_tile(vec![heights, empty]);
    let bytes = tile.to_bytes().unwrap();
    let strict = Adt::from_bytes(&bytes).unwrap();
    assert_eq!(strict, tile);
    assert_eq!(strict.to_bytes().unwrap(), bytes);
    let (lenient, notes) = Adt::from_bytes_lenient(&bytes).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(lenient, tile);
    // An MCSH that is neither empty nor whole is still an error.
    let short = McnkChunk::Unknown(UnknownChunk {
        tag: (*b"MCSH").into(),
        bytes: vec![0; 8],
    });
    let (tile, _) = one_mcnk_tile(vec![short]);
    let e = Adt::from_bytes(&tile.to_bytes().unwrap()).unwrap_err();
    assert!(e.to_string().contains("MCSH: need 512 bytes"), "{e}");
}

#[test]
fn a_chunk_kept_whole_as_bytes_has_one_note_not_its_sub_chunks_too() {
    // MCNK 0's MCVT says size 0: the sub-chunk walk keeps those 8 bytes as
    // an unknown sub-chunk, then lands inside the heights and gives up, so
    // the whole MCNK is kept as bytes. One note says so; the sub-chunk's
    // note (about a recovery that did not stand) is not left behind.
    let Some(root) = corpus_root() else { return };
    let mut data = std::fs::read(root.join("adt/wowserfmt_continent4229.adt")).unwrap();
    let mcnk = u32::from_le_bytes(data[84 + 8..84 + 12].try_into().unwrap()) as usize;
    let mcvt = mcnk + 8 + 128;
    assert_eq!(&data[mcvt..mcvt + 4], b"TVCM");
    data[mcvt + 4..mcvt + 8].copy_from_slice(&0u32.to_le_bytes());
    let (tile, notes) = Adt::from_bytes_lenient(&data).unwrap();
    let texts: Vec<String> = notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 1, "{texts:#?}");
    assert!(
        notes[0].message.starts_with("chunks[11].MCNK.chunks[1]."),
        "{texts:#?}"
    );
    assert!(
        notes[0]
            .message
            .contains("as they are (AdtChunk::Unknown), to be written back unchanged"),
        "{texts:#?}"
    );
    assert!(matches!(&tile.chunks[11], AdtChunk::Unknown(u) if u.tag == *b"MCNK"));
    assert_eq!(tile.mcnks().count(), 255);
    assert!(tile.to_bytes().unwrap() == data);
}

#[test]
fn header_counts_beyond_the_data_are_kept_not_fatal() {
    let refs = Mcrf {
        doodad_refs: vec![4, 5],
        object_refs: vec![6],
    };
    let classic = UnknownChunk {
        tag: (*b"MCSE").into(),
        bytes: vec![7; 52],
    };
    let (tile, mcnk) = one_mcnk_tile(vec![
        McnkChunk::Mcrf(refs.clone()),
        McnkChunk::Unknown(classic),
    ]);
    let mut bytes = tile.to_bytes().unwrap();
    let header = mcnk + 8;
    assert_eq!(bytes[header + 0x10], 2, "nDoodadRefs");
    bytes[header + 0x10] = 9; // more doodad references than MCRF holds
    bytes[header + 0x5C] = 1; // one 52-byte (≤ BC) sound emitter
    let back = Adt::from_bytes(&bytes).unwrap();
    let m = back.mcnk(0).unwrap();
    // Read as far as MCRF goes: all three are doodads, the counts are kept.
    let all_doodads = Mcrf {
        doodad_refs: vec![4, 5, 6],
        object_refs: vec![],
    };
    assert_eq!(m.references(), Some(&all_doodads));
    assert!(matches!(&m.chunks[1], McnkChunk::Unknown(u) if u.tag == *b"MCSE"));
    // What the header said that the sub-chunks do not give, with what they
    // give: nDoodadRefs 9 (3 read), nMapObjRefs 1 (0), nSndEmitters 1 (no MCSE).
    let mut differ: Vec<(u32, Option<u32>)> = m
        .kept
        .values()
        .iter()
        .filter(|v| v.raw != v.derived.unwrap_or(0))
        .map(|v| (v.raw, v.derived))
        .collect();
    differ.sort();
    assert_eq!(
        differ,
        [(1, Some(0)), (1, Some(0)), (9, Some(3))],
        "{:?}",
        m.kept
    );
    assert_eq!(back.to_bytes().unwrap(), bytes);
}

#[test]
fn large_navigation_tables_take_linear_time() {
    // 20,000 MHDR chunks and a 200,000-entry MCIN whose every value is kept
    // (no MCNK to point at): reading and writing must stay linear.
    let mut data = b"REVM\x04\x00\x00\x00\x12\x00\x00\x00".to_vec();
    for i in 0..20_000u32 {
        data.extend_from_slice(b"RDHM\x40\x00\x00\x00");
        let mut body = [0u8; 64];
        body[8..12].copy_from_slice(&i.to_le_bytes());
        data.extend_from_slice(&body);
    }
    data.extend_from_slice(b"NICM");
    data.extend_from_slice(&(200_000u32 * 16).to_le_bytes());
    for i in 0..200_000u32 {
        data.extend_from_slice(
            &[(i + 1).to_le_bytes(), 9u32.to_le_bytes(), [0; 4], [0; 4]].concat(),
        );
    }
    let start = std::time::Instant::now();
    let tile = Adt::from_bytes(&data).unwrap();
    let kept: usize = tile
        .mcin()
        .unwrap()
        .entries
        .iter()
        .map(|e| e.kept.values().len())
        .sum();
    assert_eq!(kept, 400_000);
    assert!(tile.to_bytes().unwrap() == data);
    let took = start.elapsed();
    println!("{} bytes read and written in {took:?}", data.len());
    assert!(took.as_secs() < 20, "{took:?}: quadratic somewhere");
}
