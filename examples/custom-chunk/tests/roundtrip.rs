//! `Marks` through real files of the corpus (`../shared/corpus` beside the
//! repository): set into a model, a tile (top level and a map chunk) and a
//! map, written, read back strictly, found again; the file around it is
//! unchanged. Under `CI=true` a missing corpus is a failure; elsewhere the
//! tests say loudly that they did not run.

use std::path::Path;

use custom_chunk::{Marks, mdl_blocks};
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

#[test]
fn a_model_carries_marks_through_mdl() {
    let Some(data) = corpus_file("mdx/zf_all.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    model.set_chunk(&spawn_points()).unwrap();
    let blocks = mdl_blocks().unwrap();

    let text = formats::mdl::to_string_with(&model, &blocks);
    // A block of its own, after the model's last block, not `ExtChunk` bytes.
    let block = "Marks \"spawn points\" {\n\tPoints 3 {\n\t\t{ 0, 0, 0 },\n\t\t{ 64, -32, 12.5 },\n\t\t{ -1.5, 2.25, 1000000 },\n\t}\n}\n";
    assert!(
        text.ends_with(block),
        "{}",
        &text[text.len().saturating_sub(400)..]
    );
    assert!(!text.contains("ExtChunk"));

    // Read back (strict and lenient): the same model, byte for byte.
    let back = formats::mdl::from_str_with(&text, &blocks).unwrap();
    assert_eq!(back, model);
    assert_eq!(back.to_bytes().unwrap(), model.to_bytes().unwrap());
    assert_eq!(back.chunk::<Marks>().unwrap().unwrap(), spawn_points());
    let (lenient, diagnostics) = formats::mdl::from_str_lenient_with(&text, &blocks).unwrap();
    assert_eq!((lenient, diagnostics.len()), (model.clone(), 0));

    // Plain MDL keeps the block too (it has no `Ext*` key).
    let plain = formats::mdl::to_string_plain_with(&model, &blocks).unwrap();
    assert!(plain.text.ends_with(block));

    // Without the blocks, the same chunk is `ExtChunk` bytes, and a reader
    // that does not know `Marks` refuses the block (strict) or skips it.
    assert!(formats::mdl::to_string(&model).contains("ExtChunk #\"4d59434b"));
    let e = formats::mdl::from_str(&text).unwrap_err().to_string();
    assert!(e.contains("unknown statement `Marks`"), "{e}");

    // A field of the block given twice is refused, with both places.
    let twice = text.replace(
        "\t\t{ -1.5, 2.25, 1000000 },\n\t}\n}",
        "\t\t{ -1.5, 2.25, 1000000 },\n\t}\n\tPoints 1 {\n\t\t{ 1, 1, 1 },\n\t}\n}",
    );
    let e = formats::mdl::from_str_with(&twice, &blocks)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("Marks \"spawn points\"") && e.contains("`Points` is given twice"),
        "{e}"
    );
}

#[test]
fn mdl_blocks_refuse_a_block_formats_reads() {
    use formats::core::FixedStr;

    /// A chunk of the user's whose block keyword is one `formats` reads.
    #[derive(formats::Codec, formats::Mdl, Debug, PartialEq)]
    #[format(chunk = "XLIT")]
    #[mdl(block = "Light", name = name)]
    struct NotALight {
        name: FixedStr<8>,
    }
    let e = formats::mdl::Blocks::new().with::<NotALight>().unwrap_err();
    assert!(
        e.to_string()
            .contains("`Light` is a block MDL reads itself"),
        "{e}"
    );
    let e = mdl_blocks().unwrap().with::<Marks>().unwrap_err();
    assert!(e.to_string().contains("share a tag or a keyword"), "{e}");
}
