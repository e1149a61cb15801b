//! Plain MDL (`formats::mdl::to_string_plain`) of every corpus model of
//! versions 800 to 1200: no extension left in the text, the text reads back
//! strictly, writing it again leaves nothing more out, and what was left
//! out is exactly what the full MDL carries beyond plain MDL. (That another
//! reader takes it is `convert_sanity.rs`'s test with mdx-m3-viewer.)

use crate::common;

use format_core::FixedStr;
use formats::mdl::{self, LeftOut};
use formats::mdx::{
    Chunk, FilterMode, GeosetAnimation, GeosetAnimationChunk, GeosetAnimationTrack, Interpolation,
    Key, KeyFrame, Model, NodeTrack, Track,
};

/// Whether a line of MDL uses the extension: an `Ext*` key or block, or a
/// `#"hex"` value.
fn extended(line: &str) -> bool {
    let line = line.trim_start();
    !line.starts_with("//") && (line.starts_with("Ext") || line.contains("#\""))
}

/// The vertices of every geoset and the names of every node: what a
/// reader must find in plain MDL as in the model.
fn geometry(model: &Model) -> (Vec<Vec<[f32; 3]>>, Vec<usize>) {
    let mut vertices = Vec::new();
    let mut faces = Vec::new();
    for chunk in &model.chunks {
        if let Chunk::Geosets(c) = chunk {
            for g in &c.geosets {
                vertices.push(g.vertex_positions.clone());
                faces.push(g.faces.len());
            }
        }
    }
    (vertices, faces)
}

#[test]
fn every_corpus_model_writes_plain_mdl_that_reads_back() {
    let models = common::manifest_models(800..=1200);
    assert!(models.len() >= 40 || common::corpus_root().is_none());
    let (mut clean, mut with_notes) = (0, 0);
    for (file, bytes) in &models {
        let name = &file.path;
        let model = Model::from_bytes_lenient(bytes).unwrap().0;
        let plain = mdl::to_string_plain(&model).unwrap_or_else(|e| panic!("{name}: {e}"));
        let full = mdl::to_string(&model);
        if let Some(line) = plain.text.lines().find(|l| extended(l)) {
            panic!("{name}: plain MDL has {line:?}");
        }
        // Strict, and stable: what plain MDL holds, it holds again.
        let back = mdl::from_str(&plain.text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = mdl::to_string_plain(&back).unwrap();
        assert_eq!(again.left_out, [], "{name}");
        assert_eq!(again.text, plain.text, "{name}");
        assert_eq!(geometry(&back), geometry(&model), "{name}");
        // Notes only where the full MDL needs the extension, and the other
        // way round (the light tracks after `LITE` and a repeated chunk are
        // the extension's `ExtTracksAfterChunk` and `ExtChunk`).
        let full_extended = full.lines().skip(1).any(extended);
        assert_eq!(
            !plain.left_out.is_empty(),
            full_extended,
            "{name}: {:?}",
            plain.left_out
        );
        if plain.left_out.is_empty() {
            // Nothing left out: the same text as the full writer's.
            assert_eq!(
                plain.text.lines().skip(1).collect::<Vec<_>>(),
                full.lines().skip(1).collect::<Vec<_>>(),
                "{name}"
            );
            // By bytes: a model may hold NaNs.
            assert!(
                back.to_bytes().unwrap() == model.to_bytes().unwrap(),
                "{name}"
            );
            clean += 1;
        } else {
            with_notes += 1;
        }
    }
    eprintln!("{clean} models are plain MDL as they are; {with_notes} had something left out");
}

/// A model with one of everything the extension carries: each is left out
/// (or written plainly) with a note naming its block.
#[test]
fn each_extension_is_left_out_with_a_note() {
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let mut name = [0u8; 80];
    name[..10].copy_from_slice(b"Ro\"ot\0abc\0");
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::Bones(c) => {
                c.bones[0].node.name = FixedStr::from_bytes(name);
                c.bones[0].node.flags |= 0x0040_0000;
                // An interpolation with no word, its keys with tangents.
                let keys = vec![KeyFrame::with_tangents(
                    10,
                    [1.0, 2.0, 3.0],
                    [0.0; 3],
                    [0.5; 3],
                )];
                let track = Track::from_key_frames(Interpolation::Other(6), keys);
                c.bones[0].node.tracks.push(NodeTrack::Translation(track));
            }
            Chunk::Geosets(c) => {
                let g = &mut c.geosets[0];
                g.face_groups[0] += 3;
            }
            Chunk::Sequences(c) => c.sequences[0].flags |= 0x80,
            Chunk::Materials(c) => c.materials[0].layers[0].filter_mode = FilterMode::Other(9),
            _ => {}
        }
    }
    let unknown: Chunk = format_core::decode(
        b"ABCD\x04\x00\x00\x00\x01\x02\x03\x04",
        format_core::Context::new().with_version(800),
    )
    .unwrap();
    model.chunks.push(unknown);
    let full = mdl::to_string(&model);
    assert!(
        full.lines().skip(1).filter(|l| extended(l)).count() >= 5,
        "{full}"
    );

    let plain = mdl::to_string_plain(&model).unwrap();
    let notes: Vec<String> = plain.left_out.iter().map(LeftOut::to_string).collect();
    let has = |path: &str, what: &str| {
        assert!(
            plain
                .left_out
                .iter()
                .any(|n| n.path == path && n.what.contains(what)),
            "no note {path}: {what} in {notes:#?}"
        );
    };
    has("Bone \"Ro'ot\"", "3 bytes after its NUL left out");
    has("Bone \"Ro'ot\"", "`\"` and line breaks written as `'`");
    has("Bone \"Ro'ot\"", "ExtNodeFlags");
    has(
        "Bone \"Ro'ot\" > Translation 1",
        "`Interpolation 6` (no MDL word for it; written as Hermite)",
    );
    has("Geoset 0", "do not add up");
    has("Sequences 0 > Anim \"Stand\"", "ExtFlags");
    has("model", "`ExtChunk`: `ABCD` and 8 bytes");
    has(
        "Materials 0 > Material 0 > Layer 0",
        "`FilterMode 9` (no MDL word for it; written as None)",
    );
    assert!(!plain.text.lines().any(extended), "{}", plain.text);
    let back = mdl::from_str(&plain.text).unwrap();
    // A value with no word is written as the word a reader assumes without
    // one, so the plain MDL of the plain model is the same text.
    let again = mdl::to_string_plain(&back).unwrap();
    assert_eq!((again.left_out, again.text), (vec![], plain.text.clone()));
    assert_eq!(geometry(&back).0, geometry(&model).0);
    assert_eq!(back.unknown_chunks().count(), 0);
}

/// A geoset animation with a `Color` track but without the colour flag (as
/// the mdx fuzz target made one): plain MDL has no `ExtFlags`, so it reads
/// back with the flag the track implies, and that model writes the same
/// text: the track, no `static Color` beside it.
#[test]
fn a_colour_track_without_the_colour_flag_writes_the_same_plain_mdl_twice() {
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let key = Key::new(10, [0.5, 0.25, 1.0]);
    let animation = GeosetAnimation {
        alpha: 1.0,
        flags: 0,
        color: [1.0; 3],
        geoset_id: 0,
        tracks: vec![GeosetAnimationTrack::Color(Track::new(
            Interpolation::Linear,
            vec![key],
        ))],
    };
    model
        .chunks
        .push(Chunk::GeosetAnimations(GeosetAnimationChunk {
            animations: vec![animation],
        }));
    let plain = mdl::to_string_plain(&model).unwrap();
    assert!(
        plain
            .left_out
            .iter()
            .any(|n| n.path == "GeosetAnim 0" && n.what.contains("ExtFlags 0")),
        "{:?}",
        plain.left_out
    );
    assert!(!plain.text.contains("static Color"), "{}", plain.text);
    let back = mdl::from_str(&plain.text).unwrap();
    let again = mdl::to_string_plain(&back).unwrap();
    assert_eq!((again.left_out, again.text), (vec![], plain.text));
    // The full MDL keeps the flags as they were.
    let full = mdl::from_str(&mdl::to_string(&model)).unwrap();
    assert_eq!(full.to_bytes().unwrap(), model.to_bytes().unwrap());
}

/// WoW alpha models have no MDL form, plain or not.
#[test]
fn alpha_models_have_no_plain_mdl() {
    let models = common::manifest_models(1300..=1500);
    for (file, bytes) in models.iter().take(1) {
        let model = Model::from_bytes_lenient(bytes).unwrap().0;
        let error = mdl::to_string_plain(&model).unwrap_err().to_string();
        assert!(
            error.contains("versions 800 to 1200"),
            "{}: {error}",
            file.path
        );
    }
}
