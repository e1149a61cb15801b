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

/// A geoset animation's colour flag has no word: `static Color` or a
/// `Color` track says it, `UseColor` (what this crate once wrote) still
/// reads, `ExtFlags` gives the flags whatever the statements say, and a
/// missing `GeosetId` (or `None`, `Multiple`) is `0xffffffff`, written as
/// its number.
#[test]
fn geoset_animation_colour_flag_and_geoset_spellings() {
    let read = |body: &str| {
        let text = format!("Version {{\n\tFormatVersion 800,\n}}\nGeosetAnim {{\n{body}}}\n");
        let model = formats::mdl::from_str(&text).unwrap();
        let anim = model.geoset_animations()[0].clone();
        let again = formats::mdl::to_string(&model);
        assert_eq!(formats::mdl::from_str(&again).unwrap(), model, "{again}");
        (anim, again)
    };
    let (anim, _) = read("\tstatic Color { 1, 0.5, 0 },\n");
    assert_eq!(
        (anim.flags, anim.color, anim.geoset_id),
        (2, [0.0, 0.5, 1.0], u32::MAX)
    );
    let (anim, text) = read("\tGeosetId None,\n\tUseColor,\n");
    assert_eq!((anim.flags, anim.color), (2, [1.0; 3]));
    assert!(
        text.contains("\tGeosetId 4294967295,\n") && text.contains("\tstatic Color { 1, 1, 1 },\n"),
        "{text}"
    );
    let (anim, text) =
        read("\tGeosetId Multiple,\n\tColor 1 {\n\t\tLinear,\n\t\t0: { 1, 0, 0 },\n\t}\n");
    assert_eq!((anim.flags, anim.geoset_id), (2, u32::MAX));
    assert!(
        !text.contains("static Color") && !text.contains("ExtFlags"),
        "{text}"
    );
    let (anim, text) = read("\tDropShadow,\n\tExtFlags 1,\n\tstatic Color { 0, 0, 0 },\n");
    assert_eq!((anim.flags, anim.color), (1, [0.0; 3]));
    assert!(text.contains("\tExtFlags 1,\n"), "{text}");
}

/// A `ParticleEmitter2`'s filter mode and head or tail are words by
/// number, `ExtFilterMode n` and `ExtHeadOrTail n` for the numbers no word
/// has, `Squirt` is 1 and `ExtSquirt n` any other value; `SegmentColor`
/// holds exactly three colours, red first.
#[test]
fn particle_emitter2_words_and_segment_colours() {
    let text = "Version {\n\tFormatVersion 800,\n}\nParticleEmitter2 \"p\" {\n\tObjectId 0,\n\
        \tModulate2x,\n\tBoth,\n\tSquirt,\n\tSegmentColor {\n\t\tColor { 1, 0, 0 },\n\
        \t\tColor { 0, 1, 0 },\n\t\tColor { 0, 0, 1 },\n\t},\n}\n";
    let model = formats::mdl::from_str(text).unwrap();
    let e = &model.particle_emitters2()[0];
    assert_eq!((e.filter_mode, e.head_or_tail, e.squirt), (3, 2, 1));
    assert_eq!(e.segment_color[0], [0.0, 0.0, 1.0]);
    assert_eq!(
        (e.rows, e.columns, e.time, e.segment_alpha),
        (1, 1, 0.5, [255; 3])
    );

    let mut odd = model.clone();
    let e = &mut odd.particle_emitters2_mut()[0];
    (e.filter_mode, e.head_or_tail, e.squirt) = (9, 7, 4);
    let text = formats::mdl::to_string(&odd);
    for line in [
        "\tExtFilterMode 9,\n",
        "\tExtHeadOrTail 7,\n",
        "\tExtSquirt 4,\n",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert_eq!(formats::mdl::from_str(&text).unwrap(), odd);
    let plain = formats::mdl::to_string_plain(&odd).unwrap();
    assert!(
        plain.text.contains("\tBlend,\n") && plain.text.contains("\tHead,\n"),
        "{}",
        plain.text
    );
    assert_eq!(plain.left_out.len(), 3, "{:?}", plain.left_out);

    let short = "ParticleEmitter2 \"p\" {\n\tSegmentColor {\n\t\tColor { 1, 0, 0 },\n\t},\n}\n";
    let e = formats::mdl::from_str(short).unwrap_err().to_string();
    assert!(
        e.contains(
            "ParticleEmitter2 \"p\": line 2, column 2: SegmentColor needs 3 `Color`, found 1"
        ),
        "{e}"
    );
}
