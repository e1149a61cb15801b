//! Every ADT of the corpus, typed: read, written back byte for byte, and read
//! again to the same value.

use crate::common;

use common::{corpus_root, files_in, manifest_files};
use formats::adt::Adt;
use formats::adt::mcnk::McnkChunk;

/// Each manifest-listed ADT round-trips byte-exact; returns how many.
#[test]
fn every_corpus_adt_round_trips_byte_exact() {
    let Some(root) = corpus_root() else { return };
    let listed = manifest_files(&root, "ADT_MANIFEST.md", "adt", ".adt");
    let mut listed_paths: Vec<String> = listed.iter().map(|f| f.path.clone()).collect();
    listed_paths.sort();
    assert_eq!(
        listed_paths,
        files_in(&root, "adt", ".adt"),
        "manifest and adt/ disagree"
    );
    assert!(!listed.is_empty(), "no ADT listed");
    for file in &listed {
        let data = std::fs::read(root.join(&file.path)).unwrap();
        let tile = Adt::from_bytes(&data).unwrap_or_else(|e| panic!("{}: {e}", file.path));
        let back = tile
            .to_bytes()
            .unwrap_or_else(|e| panic!("{}: {e}", file.path));
        if back != data {
            let at = back
                .iter()
                .zip(&data)
                .position(|(a, b)| a != b)
                .unwrap_or(back.len().min(data.len()));
            panic!(
                "{}: written bytes differ from {at:#x} ({} vs {} bytes)",
                file.path,
                back.len(),
                data.len()
            );
        }
        assert_eq!(
            Adt::from_bytes(&back).unwrap(),
            tile,
            "{}: re-read differs",
            file.path
        );
        assert_eq!(tile.version(), Some(18), "{}", file.path);
        assert_eq!(tile.mcnks().count(), 256, "{}", file.path);
        // The MCNK headers whose values differ from their sub-chunks somewhere.
        let kept = tile.mcnks().filter(|m| !m.kept.is_empty()).count();
        let declared = tile
            .mcnks()
            .flat_map(|m| &m.chunks)
            .filter(|c| match c {
                McnkChunk::Mcnr(m) => m.declared_size.is_some(),
                McnkChunk::Mclq(m) => m.declared_size.is_some(),
                McnkChunk::Mcal(m) => m.declared_size.is_some(),
                _ => false,
            })
            .count();
        println!(
            "{:<48} {:>8} bytes  byte-exact  (MCNK headers with kept values: {kept}, sub-chunk sizes kept: {declared}, MCIN entries kept: {})",
            file.path,
            data.len(),
            tile.mcin().map_or(0, |m| m
                .entries
                .iter()
                .filter(|e| !e.kept.is_empty())
                .count()),
        );
    }
    println!("{} ADT files round-tripped byte-exact", listed.len());
}

/// The serde view (default `serde` feature) carries everything: a tile through
/// JSON writes the same bytes.
#[test]
fn tiles_survive_a_json_round_trip() {
    let Some(root) = corpus_root() else { return };
    for name in [
        "adt/bfgilneas_gilneas_bg_2_28_31.adt",
        "adt/wowserfmt_pvpzone3430.adt",
        "adt/patch5_Aeven_10_3.adt",
    ] {
        let data = std::fs::read(root.join(name)).unwrap();
        let tile = Adt::from_bytes(&data).unwrap();
        let json = serde_json::to_string(&tile).unwrap();
        // The names chunks read as lists of names, not as hex.
        assert!(json.contains(r#"{"Mtex":{"filenames":[""#), "{name}");
        let back: Adt = serde_json::from_str(&json).unwrap();
        assert!(
            back.to_bytes().unwrap() == data,
            "{name}: JSON round trip lost something"
        );
        println!(
            "{name:<48} {:>9} bytes of JSON, byte-exact after",
            json.len()
        );
    }
}
