//! MDX -> MDL -> MDX is byte-exact for every corpus `.mdx` of versions 800 to
//! 1200, and the MDL written is stable (MDL -> model -> MDL gives the same text).

use crate::common;

use common::{corpus_root, manifest_models};
use formats::mdx::Model;

/// The manifest's `.mdx` rows of versions 800 to 1200, with their bytes.
fn wc3_files() -> Vec<(String, Vec<u8>)> {
    if corpus_root().is_none() {
        return Vec::new();
    }
    let files: Vec<(String, Vec<u8>)> = manifest_models(800..=1200)
        .into_iter()
        .map(|(f, data)| (f.path, data))
        .collect();
    assert_eq!(
        files.len(),
        56,
        "the manifest lists 56 .mdx files of versions 800-1200"
    );
    files
}

/// Models compare through `Debug`, which treats NaN as equal to itself.
fn same(a: &Model, b: &Model) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[test]
fn every_wc3_mdx_goes_through_mdl_byte_exact() {
    let mut failures = Vec::new();
    let mut exact = 0;
    let files = wc3_files();
    for (path, data) in &files {
        // The two light-quirk files read leniently (MDX_VERSIONS.md §8.3).
        let model = match Model::from_bytes(data) {
            Ok(model) => model,
            Err(_) => Model::from_bytes_lenient(data).unwrap().0,
        };
        let text = formats::mdl::to_string(&model);
        let back = match formats::mdl::from_str(&text) {
            Ok(back) => back,
            Err(e) => {
                failures.push(format!("{path}: MDL does not read back: {e}"));
                continue;
            }
        };
        if !same(&model, &back) {
            failures.push(format!("{path}: model differs after MDL"));
            continue;
        }
        match back.to_bytes() {
            Ok(bytes) if bytes == *data => exact += 1,
            Ok(_) => failures.push(format!("{path}: bytes differ after MDL")),
            Err(e) => failures.push(format!("{path}: does not write: {e}")),
        }
        let again = formats::mdl::to_string(&back);
        if again != text {
            failures.push(format!("{path}: MDL text not stable"));
        }
    }
    println!("{exact} of {} files byte-exact through MDL", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// MDL has no words for the WoW alpha layouts (v1300-1500): their chunks
/// travel as `ExtChunk` blocks, and the model still comes back byte-exact.
#[test]
fn the_wow_alpha_model_goes_through_mdl_as_extension_chunks() {
    let Some(data) = common::corpus_file("mdx/wowalpha_Boar.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let text = formats::mdl::to_string(&model);
    assert!(
        text.contains("ExtChunk"),
        "alpha chunks are carried as extension blocks"
    );
    let back = formats::mdl::from_str(&text).unwrap();
    assert!(same(&model, &back));
    assert_eq!(back.to_bytes().unwrap(), data);
    assert_eq!(formats::mdl::to_string(&back), text);
}

/// An event object with no `KEVT` at all (which other MDX readers refuse)
/// is `ExtNoEventTrack` in MDL and comes back without one; one without an
/// `EventTrack` in MDL (as other tools write an empty one) is an empty
/// `KEVT`.
#[test]
fn event_objects_without_a_track_round_trip_through_mdl() {
    let Some(data) = common::corpus_file("mdx/zf_eventobj.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    model.event_objects_mut()[0].track = None;
    let text = formats::mdl::to_string(&model);
    assert!(text.contains("\tExtNoEventTrack,\n"), "{text}");
    let back = formats::mdl::from_str(&text).unwrap();
    assert!(back.event_objects()[0].track.is_none());
    assert_eq!(back.to_bytes().unwrap(), model.to_bytes().unwrap());
    let without = text.replace("\tExtNoEventTrack,\n", "");
    let read = formats::mdl::from_str(&without).unwrap();
    let track = read.event_objects()[0].track.as_ref().unwrap();
    assert_eq!((track.global_sequence_id, track.tracks.len()), (-1, 0));
}
