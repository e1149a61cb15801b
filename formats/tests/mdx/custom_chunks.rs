//! Chunks of the user's own (`chunk::<T>()`, `set_chunk(&T)`) in real files:
//! an MDX model, an ADT tile (top level and MCNK sub-chunks) and a WDT map.
//! Each is set, written, read back strictly and found again, decoded in the
//! file's context; the chunks around it stay as they were.

use crate::common;

use formats::Codec;
use formats::adt::{Adt, AdtChunk};
use formats::core::{FixedStr, FourCC, UnknownChunk};
use formats::mdx::{Chunk, Model};
use formats::wdt::{Wdt, WdtChunk};

/// A chunk no seed has: a name and a list of points.
#[derive(Codec, Debug, Clone, PartialEq)]
#[format(chunk = "MYCK")]
struct Marks {
    name: FixedStr<32>,
    #[format(count = u32)]
    points: Vec<[f32; 3]>,
}

fn marks(name: &str, n: usize) -> Marks {
    Marks {
        name: FixedStr::try_from(name).unwrap(),
        points: (0..n).map(|i| [i as f32, 0.5, -2.0]).collect(),
    }
}

/// A field only from version 1000 on: read in the model's context.
#[derive(Codec, Debug, Clone, PartialEq)]
#[format(chunk = "MYVR")]
struct Versioned {
    base: u32,
    #[format(if = version >= 1000)]
    hd: Option<u32>,
}

/// A tag MDX reads itself.
#[derive(Codec, Debug, Clone, PartialEq)]
#[format(chunk = "TEXS")]
struct NotMine {
    #[format(until_end)]
    bytes: Vec<u8>,
}

/// A tag but no size: not a chunk.
#[derive(Codec, Debug, Clone, PartialEq)]
#[format(magic = "MYMG")]
struct Bare {
    value: u32,
}

fn tags(model: &Model) -> Vec<FourCC> {
    model.chunks.iter().map(Chunk::tag).collect()
}

#[test]
fn a_model_keeps_a_chunk_of_the_users_own_in_place() {
    // A model with an unknown chunk of its own (`MDVI`, after `PIVT`).
    let Some(data) = common::corpus_file("mdx/edem_Basket02.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    let before = tags(&model);
    assert_eq!(before.last(), Some(&FourCC::of("MDVI")));
    assert!(model.chunk::<Marks>().is_none());

    model.set_chunk(&marks("first", 3)).unwrap();
    let bytes = model.to_bytes().unwrap();
    let mut back = Model::from_bytes(&bytes).unwrap();
    assert_eq!(back.chunk::<Marks>().unwrap().unwrap(), marks("first", 3));
    // Appended after every chunk; the others (MDVI included) untouched.
    let mut expected = before.clone();
    expected.push(FourCC::of("MYCK"));
    assert_eq!(tags(&back), expected);
    assert_eq!(back.chunks[..before.len()], model.chunks[..before.len()]);
    assert_eq!(&bytes[..data.len()], &data[..]);

    // Setting it again replaces it where it is.
    back.chunks.swap(before.len() - 1, before.len());
    back.set_chunk(&marks("second", 1)).unwrap();
    let again = Model::from_bytes(&back.to_bytes().unwrap()).unwrap();
    assert_eq!(again.chunks.len(), before.len() + 1);
    assert_eq!(again.chunks[before.len() - 1].tag(), FourCC::of("MYCK"));
    assert_eq!(again.chunk::<Marks>().unwrap().unwrap(), marks("second", 1));
    // Removing it gives back the file.
    let mut removed = again.clone();
    removed.chunks.retain(|c| c.tag() != FourCC::of("MYCK"));
    assert_eq!(removed.to_bytes().unwrap(), data);
}

#[test]
fn a_chunk_of_the_users_own_is_decoded_in_the_models_version() {
    let (Some(classic), Some(reforged)) = (
        common::corpus_file("mdx/zf_all.mdx"),
        common::corpus_file("mdx/pqw3_BossMinimapIcon.mdx"),
    ) else {
        return;
    };
    let mut classic = Model::from_bytes(&classic).unwrap();
    let mut reforged = Model::from_bytes(&reforged).unwrap();
    assert!(reforged.version() >= 1000, "{}", reforged.version());
    let hd = Versioned {
        base: 1,
        hd: Some(2),
    };
    reforged.set_chunk(&hd).unwrap();
    let back = Model::from_bytes(&reforged.to_bytes().unwrap()).unwrap();
    assert_eq!(back.chunk::<Versioned>().unwrap().unwrap(), hd);
    // Version 800 has no `hd`: it cannot be written there, and the 1000
    // bytes do not read as a version-800 `MYVR`.
    let error = classic.set_chunk(&hd).unwrap_err();
    assert!(error.to_string().contains("hd"), "{error}");
    let Some(Chunk::Unknown(kept)) = back.chunks.last() else {
        panic!("MYVR is kept as an unknown chunk")
    };
    classic.chunks.push(Chunk::Unknown(kept.clone()));
    let error = classic.chunk::<Versioned>().unwrap().unwrap_err();
    assert!(error.path_string().starts_with("chunks["), "{error}");
    classic.set_chunk(&Versioned { base: 1, hd: None }).unwrap();
    assert_eq!(
        classic.chunk::<Versioned>().unwrap().unwrap(),
        Versioned { base: 1, hd: None }
    );
}

#[test]
fn a_tag_the_format_reads_itself_is_refused_both_ways() {
    let Some(data) = common::corpus_file("mdx/zf_bone.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    let error = model.chunk::<NotMine>().unwrap().unwrap_err();
    assert!(error.to_string().contains("reads itself"), "{error}");
    let error = model.set_chunk(&NotMine { bytes: vec![] }).unwrap_err();
    assert!(error.to_string().contains("reads itself"), "{error}");
    let error = model.set_chunk(&Bare { value: 7 }).unwrap_err();
    assert!(
        error.to_string().contains("does not encode as one chunk"),
        "{error}"
    );
    assert_eq!(model.to_bytes().unwrap(), data);
}

#[test]
fn a_tile_keeps_chunks_of_the_users_own_at_the_top_and_in_a_map_chunk() {
    let Some(data) = common::corpus_file("adt/warcraftnet_Northrend_37_25.adt") else {
        return;
    };
    let mut tile = Adt::from_bytes(&data).unwrap();
    let original = tile.clone();
    assert!(tile.chunk::<Marks>().is_none());
    tile.set_chunk(&marks("tile", 4)).unwrap();
    tile.mcnk_mut(17)
        .unwrap()
        .set_chunk(&marks("chunk 17", 2))
        .unwrap();
    let bytes = tile.to_bytes().unwrap();
    // Tags are stored reversed, as every ADT tag.
    assert_eq!(bytes.windows(4).filter(|w| w == b"KCYM").count(), 2);
    let back = Adt::from_bytes(&bytes).unwrap();
    assert_eq!(back.chunk::<Marks>().unwrap().unwrap(), marks("tile", 4));
    assert_eq!(
        back.mcnk(17).unwrap().chunk::<Marks>().unwrap().unwrap(),
        marks("chunk 17", 2)
    );
    assert!(back.mcnk(16).unwrap().chunk::<Marks>().is_none());
    // Every other chunk and sub-chunk reads back as it was.
    assert!(
        matches!(back.chunks.last(), Some(AdtChunk::Unknown(u)) if u.tag == FourCC::of("MYCK"))
    );
    assert_eq!(back.chunks.len(), original.chunks.len() + 1);
    for (i, (a, b)) in original.mcnks().zip(back.mcnks()).enumerate() {
        let extra = usize::from(i == 17);
        assert_eq!(a.chunks[..], b.chunks[..b.chunks.len() - extra], "MCNK {i}");
    }
}

#[test]
fn a_map_keeps_a_chunk_of_the_users_own() {
    let Some(data) = common::corpus_file("wdt/twinpeaks_cataclysmctf.wdt") else {
        return;
    };
    let mut wdt = Wdt::from_bytes(&data).unwrap();
    assert!(wdt.chunk::<Marks>().is_none());
    wdt.set_chunk(&marks("map", 5)).unwrap();
    let bytes = wdt.to_bytes().unwrap();
    assert_eq!(&bytes[..data.len()], &data[..]);
    assert_eq!(&bytes[data.len()..][..4], b"KCYM");
    let mut back = Wdt::from_bytes(&bytes).unwrap();
    assert_eq!(back.chunk::<Marks>().unwrap().unwrap(), marks("map", 5));
    assert!(matches!(
        back.chunks.last(),
        Some(WdtChunk::Unknown(UnknownChunk { tag, .. })) if *tag == FourCC::of("MYCK")
    ));
    back.chunks.pop();
    assert_eq!(back.to_bytes().unwrap(), data);
}
