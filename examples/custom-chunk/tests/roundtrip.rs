//! `Marks` through real files of the corpus (`../shared/corpus` beside the
//! repository): set into a model, a tile (top level and a map chunk) and a
//! map, written, read back strictly, found again; the file around it is
//! unchanged. Under `CI=true` a missing corpus is a failure; elsewhere the
//! tests say loudly that they did not run.

use std::path::Path;

use custom_chunk::Marks;
use formats::adt::Adt;
use formats::core::{Context, TagOrder, encode};
use formats::mdx::Model;
use formats::wdt::Wdt;

/// The bytes of corpus file `relative`, or `None` (loudly) outside CI when the
/// corpus is missing.
fn corpus_file(relative: &str) -> Option<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    if !root.is_dir() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "corpus missing at {}: CI must have ../shared beside the repository",
                root.display()
            );
        }
        eprintln!(
            "\n!!! corpus missing at {}: the custom-chunk tests did NOT run (they are mandatory under CI=true) !!!\n",
            root.display()
        );
        return None;
    }
    let path = root.join(relative);
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

fn spawn_points() -> Marks {
    Marks::new(
        "spawn points",
        vec![[0.0, 0.0, 0.0], [64.0, -32.0, 12.5], [-1.5, 2.25, 1e6]],
    )
    .unwrap()
}

#[test]
fn a_model_carries_marks() {
    let Some(data) = corpus_file("mdx/zf_all.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    assert!(model.chunk::<Marks>().is_none());
    model.set_chunk(&spawn_points()).unwrap();
    let written = model.to_bytes().unwrap();
    // The file, then the chunk: tag, size, body.
    let chunk = encode(&spawn_points(), Context::new()).unwrap();
    assert_eq!(written, [data.as_slice(), &chunk].concat());
    assert_eq!(&chunk[..4], b"MYCK");

    let reread = Model::from_bytes(&written).unwrap();
    assert_eq!(reread.chunk::<Marks>().unwrap().unwrap(), spawn_points());
    assert_eq!(reread.unknown_chunks().count(), 1);
    assert_eq!(
        reread.chunks[..model.chunks.len() - 1],
        model.chunks[..model.chunks.len() - 1]
    );
}

#[test]
fn a_tile_and_one_of_its_map_chunks_carry_marks() {
    let Some(data) = corpus_file("adt/wowserfmt_pvpzone3430.adt") else {
        return;
    };
    let mut tile = Adt::from_bytes(&data).unwrap();
    tile.set_chunk(&spawn_points()).unwrap();
    let one = Marks::new("one", vec![[1.0, 2.0, 3.0]]).unwrap();
    tile.mcnk_mut(0).unwrap().set_chunk(&one).unwrap();
    let written = tile.to_bytes().unwrap();
    // ADT tags are stored reversed.
    let reversed = Context::new().with_tag_order(TagOrder::Reversed);
    let chunk = encode(&spawn_points(), reversed).unwrap();
    assert_eq!(&chunk[..4], b"KCYM");
    assert!(written.ends_with(&chunk));

    let reread = Adt::from_bytes(&written).unwrap();
    assert_eq!(reread.chunk::<Marks>().unwrap().unwrap(), spawn_points());
    assert_eq!(
        reread.mcnk(0).unwrap().chunk::<Marks>().unwrap().unwrap(),
        one
    );
    assert!(reread.mcnk(1).unwrap().chunk::<Marks>().is_none());
}

#[test]
fn a_map_carries_marks() {
    let Some(data) = corpus_file("wdt/wowserfmt_pvpzone.wdt") else {
        return;
    };
    let mut map = Wdt::from_bytes(&data).unwrap();
    map.set_chunk(&spawn_points()).unwrap();
    let reread = Wdt::from_bytes(&map.to_bytes().unwrap()).unwrap();
    assert_eq!(reread.chunk::<Marks>().unwrap().unwrap(), spawn_points());
    assert_eq!(reread, map);
}
