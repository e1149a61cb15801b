//! Tile and WDT views against the owned parse: on every corpus tile and
//! WDT the view's chunks build the same file; on damaged copies of the
//! tiles the first error the view reports (opening, then reading every
//! chunk) is the strict owned reader's, at the same offset and path.

use crate::common;

use common::{corpus_root, files_in};
use formats::adt::Adt;
use formats::wdt::Wdt;

fn corpus(folder: &str, extension: &str) -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    files_in(&root, folder, extension)
        .into_iter()
        .map(|path| {
            let data = std::fs::read(root.join(&path)).unwrap();
            (path, data)
        })
        .collect()
}

fn through_view(data: &[u8]) -> formats::Result<Adt> {
    Adt::view(data)?.to_owned()
}

#[test]
fn every_corpus_tile_and_wdt_reads_the_same_through_its_view() {
    let tiles = corpus("adt", ".adt");
    for (path, data) in &tiles {
        let owned = Adt::from_bytes(data).unwrap();
        let view = Adt::view(data).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(view.chunks.len(), owned.chunks.len(), "{path}");
    }
    let wdts = corpus("wdt", ".wdt");
    for (path, data) in &wdts {
        let Ok(owned) = Wdt::from_bytes(data) else {
            assert!(
                Wdt::view(data).and_then(|v| v.to_owned()).is_err(),
                "{path}"
            );
            continue;
        };
        let view = Wdt::view(data).unwrap_or_else(|e| panic!("{path}: {e}"));
        let viewed = view.to_owned().unwrap();
        assert!(viewed == owned, "{path}: the view's WDT differs");
        assert_eq!(
            viewed.to_bytes().unwrap(),
            owned.to_bytes().unwrap(),
            "{path}"
        );
    }
    eprintln!(
        "{} tiles and {} WDTs read the same through their views",
        tiles.len(),
        wdts.len()
    );
}

#[test]
fn a_damaged_tile_gives_the_owned_readers_error_through_its_view() {
    let mut compared = 0;
    for (path, data) in corpus("adt", ".adt") {
        let step = (data.len() / 61).max(1);
        for at in (4..data.len()).step_by(step) {
            let mut flipped = data.clone();
            flipped[at] ^= 0xff;
            for copy in [flipped, data[..at].to_vec()] {
                match (Adt::from_bytes(&copy), through_view(&copy)) {
                    (Ok(a), Ok(b)) => {
                        assert!(a.to_bytes().ok() == b.to_bytes().ok(), "{path} @{at}")
                    }
                    (Err(a), Err(b)) => {
                        assert_eq!(a.to_string(), b.to_string(), "{path} @{at}");
                        compared += 1;
                    }
                    (a, b) => panic!("{path} @{at}: owned {:?}, view {:?}", a.err(), b.err()),
                }
            }
        }
    }
    eprintln!("{compared} damaged tiles gave the same error through the view");
}
