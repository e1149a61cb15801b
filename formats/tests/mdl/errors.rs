//! MDL errors name the line, column and block path; lenient reads say what
//! they accepted; bad input never panics or allocates for a declared count.

use format_core::ErrorKind;

const GEOSET: &str = "Version {\r\n\tFormatVersion 800,\r\n}\r\nGeoset {\r\n\tVertices 2 {\r\n\t\t{ 0, 0, 0 },\r\n\t\t{ 1, 2, }\r\n\t}\r\n}\r\n";

#[test]
fn a_strict_error_names_line_column_and_block() {
    let e = formats::mdl::from_str(GEOSET).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Geoset 0 > Vertices: line 7, column 3: expected { 3 values }"
    );
    match e.kind() {
        ErrorKind::Text {
            line,
            column,
            block,
            ..
        } => {
            assert_eq!(
                (*line, *column, block.as_str()),
                (7, 3, "Geoset 0 > Vertices")
            );
        }
        other => panic!("{other:?}"),
    }
    let e = formats::mdl::from_str("Model \"m\" {\n  BlendTime x,\n}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Model: line 2, column 13: expected an integer, found `x`"
    );
    let e = formats::mdl::from_str("Bone \"b\" {\n  ObjectId 1,\n  Translation 1 {\n    Linear,\n    0: { 1, 2, 3 },\n    Wobble,\n  }\n}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Bone \"b\" > Translation: line 6, column 5: unknown statement `Wobble`"
    );
}

#[test]
fn lenient_reads_accept_count_mismatches_and_say_so() {
    let text = "Sequences 3 {\n  Anim \"Stand\" {\n    Interval { 0, 1000 },\n  }\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Sequences: line 1, column 11: the header says 3 sequences, the block has 1"
    );
    let (model, diagnostics) = formats::mdl::from_str_lenient(text).unwrap();
    assert_eq!(model.sequences().len(), 1);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].offset, 10);
    assert!(
        diagnostics[0].message.ends_with("; used the block's"),
        "{}",
        diagnostics[0]
    );
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    // A huge declared count allocates nothing: the block's items decide.
    let e = formats::mdl::from_str("PivotPoints 4294967295 { { 0, 0, 0 } }").unwrap_err();
    assert!(e.to_string().contains("the header says 4294967295"), "{e}");
    for text in [
        "Geoset {",
        "}",
        "Bone {",
        "Bone \"x\" { ObjectId 99999999999 }",
        "Geoset { Faces 1 3 { Triangles { { 0, 1, 70000 } } } }",
        "CollisionShape \"c\" { Sphere, Vertices 2 { {0,0,0}, {1,1,1} } }",
        "Materials 1 { Material { Layer { FilterMode Sideways } } }",
        "ExtChunk #\"4142\"",
        "ExtChunk #\"zz\"",
        "Model \"\u{1F600}\" { BlendTime 1e999 }",
        "Bone \"b\" { Rotation 1 { Hermite, 0: { 0, 0, 0, 1 } } }",
        &"{".repeat(10_000),
    ] {
        assert!(formats::mdl::from_str(text).is_err(), "{text:?}");
        let _ = formats::mdl::from_str_lenient(text);
    }
}

#[test]
fn a_version_in_an_ext_chunk_sets_the_version() {
    // `VERS` 1000 in binary, then a geoset: read with the 1000 layout (a LOD).
    let text = "ExtChunk #\"5645525304000000e8030000\",\nGeoset {\n}\n";
    let model = formats::mdl::from_str(text).unwrap();
    assert_eq!(model.version(), 1000);
    assert_eq!(model.geosets()[0].lod, Some(0));
    let again = formats::mdl::from_str(&formats::mdl::to_string(&model)).unwrap();
    assert_eq!(again, model);
}

#[test]
fn a_reforged_value_in_an_older_version_is_strict_error_lenient_drop() {
    let text = "Version {\n\tFormatVersion 800,\n}\nGeoset {\n\tLevelOfDetail 1,\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Geoset 0: line 5, column 2: version 800 has no `LevelOfDetail` (from 801 on)"
    );
    let (model, diagnostics) = formats::mdl::from_str_lenient(text).unwrap();
    assert_eq!(model.geosets()[0].lod, None);
    assert!(diagnostics[0].message.ends_with("; dropped it"));
    // Found by the fuzzer: any version above 800 has them (`version > 800`).
    let text = text.replace("800", "815");
    let model = formats::mdl::from_str(&text).unwrap();
    assert_eq!(model.geosets()[0].lod, Some(1));
    assert_eq!(
        formats::mdl::from_str(&formats::mdl::to_string(&model)).unwrap(),
        model
    );
}

#[test]
fn a_texture_list_before_1100_is_strict_error() {
    let text = "Version {\n\tFormatVersion 1000,\n}\nMaterials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tTextureEntries 0,\n\t\t}\n\t}\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Materials > Material 0 > Layer 0: line 7, column 4: version 1000 has no `TextureEntries` (from 1100 on)"
    );
    let (model, _) = formats::mdl::from_str_lenient(text).unwrap();
    assert_eq!(model.materials()[0].layers[0].textures, None);
}

#[test]
fn a_missing_comma_is_an_error_not_a_lost_statement() {
    // Each pair: a hand edit that dropped a `,`, so the next line's
    // statement ran into this one's, and what the error says. Before, the
    // reader took the first value and dropped the rest in both modes.
    let layer = |body: &str| {
        format!("Materials 1 {{\n\tMaterial {{\n\t\tLayer {{\n{body}\t\t}}\n\t}}\n}}\n")
    };
    for (text, expected) in [
        (
            layer("\t\t\tFilterMode Additive\n\t\t\tUnshaded,\n"),
            "Materials > Material 0 > Layer 0: line 5, column 4: expected `,` after the value of `FilterMode`, found `Unshaded`",
        ),
        (
            layer(
                "\t\t\tstatic Alpha 1\n\t\t\tAlpha 1 {\n\t\t\t\tLinear,\n\t\t\t\t0: 0.5,\n\t\t\t}\n",
            ),
            "Materials > Material 0 > Layer 0: line 5, column 4: expected `,` after the value of `Alpha`, found `Alpha`",
        ),
        (
            "Model \"m\" {\n\tNumGeosets 0\n\tBlendTime 300,\n}\n".to_string(),
            "Model: line 3, column 2: expected `,` after the value of `NumGeosets`, found `BlendTime`",
        ),
        (
            "Bone \"b\" {\n\tObjectId 0,\n\tGeosetId Multiple\n\tGeosetAnimId 2,\n}\n".to_string(),
            "Bone \"b\": line 4, column 2: expected `,` after the value of `GeosetId`, found `GeosetAnimId`",
        ),
    ] {
        let e = formats::mdl::from_str(&text).unwrap_err();
        assert_eq!(e.to_string(), expected, "{text}");
        let e = formats::mdl::from_str_lenient(&text).unwrap_err();
        assert_eq!(e.to_string(), expected, "{text}");
        // With the comma back, it reads.
        let fixed = text
            .replacen("Additive\n", "Additive,\n", 1)
            .replacen("Alpha 1\n", "Alpha 1,\n", 1)
            .replacen("NumGeosets 0\n", "NumGeosets 0,\n", 1)
            .replacen("Multiple\n", "Multiple,\n", 1);
        formats::mdl::from_str(&fixed).unwrap();
    }
}

#[test]
fn an_unclosed_string_is_reported_where_it_starts() {
    // A `"` left out, and a `\"` (MDL strings have no escapes: it ends the
    // string): both were reported at the next string's quote, lines later.
    let tail = "\tBlendTime 150,\n}\nTextures 1 {\n\tBitmap {\n\t\tImage \"a\\b.blp\",\n\t}\n}\n";
    for (name, column) in [("\"Jaina", 7), ("\"Ja\\\"ina\"", 15)] {
        let text = format!("Version {{\n\tFormatVersion 800,\n}}\nModel {name} {{\n{tail}");
        let e = formats::mdl::from_str(&text).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "line 4, column {column}: unterminated string: no `\"` closes it on its line (MDL strings have no escapes)"
            ),
            "{text}"
        );
    }
    // Backslashes in paths stay as they are.
    let model = formats::mdl::from_str(&format!("Model \"J\" {{\n{tail}")).unwrap();
    assert_eq!(model.textures()[0].file_name.text(), b"a\\b.blp");
}

#[test]
fn a_key_gone_wrong_is_an_error_in_both_modes() {
    // A hand-added key without its `:`, and two keys on a line without the
    // `,` between them: before, both were "unknown statement the number
    // 3333", and the lenient reader (`formats convert`) dropped the keys.
    let track = |keys: &str| {
        format!(
            "Materials 1 {{\n\tMaterial {{\n\t\tLayer {{\n\t\t\tAlpha 2 {{\n\t\t\t\tLinear,\n{keys}\t\t\t}}\n\t\t}}\n\t}}\n}}\n"
        )
    };
    let path = "Materials > Material 0 > Layer 0 > Alpha";
    for (text, expected) in [
        (
            track("\t\t\t\t0: 1,\n\t\t\t\t3333 0.75,\n"),
            format!("{path}: line 7, column 5: expected a key `3333: value`"),
        ),
        (
            track("\t\t\t\t0: 1 3333: 0.75,\n"),
            format!(
                "{path}: line 6, column 10: expected `,` after the value of key 0, found the number 3333"
            ),
        ),
    ] {
        let e = formats::mdl::from_str(&text).unwrap_err();
        assert_eq!(e.to_string(), expected, "{text}");
        let e = formats::mdl::from_str_lenient(&text).unwrap_err();
        assert_eq!(e.to_string(), expected, "{text}");
    }
    let text = track("\t\t\t\t0: 1,\n\t\t\t\t3333: 0.75,\n");
    let model = formats::mdl::from_str(&text).unwrap();
    let formats::mdx::LayerTrack::Alpha(alpha) = &model.materials()[0].layers[0].tracks[0] else {
        panic!("no alpha track");
    };
    assert_eq!(alpha.keys.len(), 2);
}

#[test]
fn a_missing_comma_after_a_flag_is_an_error_not_flags_lost() {
    // `Unshaded` then `Unfogged,` on the next line is one statement: it
    // was "unknown statement `Unshaded`", and the lenient reader (`formats
    // convert`) dropped both flags.
    for (text, expected, words) in [
        (
            "Materials 1 {\n\tMaterial {\n\t\tLayer {\n\t\t\tUnshaded\n\t\t\tUnfogged,\n\t\t}\n\t}\n}\n",
            "Materials > Material 0 > Layer 0: line 5, column 4: expected `,` after `Unshaded`, found `Unfogged`",
            ["Unshaded,", "Unfogged,"],
        ),
        (
            "Bone \"b\" {\n\tObjectId 0,\n\tBillboarded\n\tCameraAnchored,\n}\n",
            "Bone \"b\": line 4, column 2: expected `,` after `Billboarded`, found `CameraAnchored`",
            ["Billboarded,", "CameraAnchored,"],
        ),
        (
            "GeosetAnim {\n\tDropShadow\n\tstatic Alpha 0.5,\n}\n",
            "GeosetAnim 0: line 3, column 2: expected `,` after `DropShadow`, found `static`",
            ["DropShadow,", "static Alpha 0.5,"],
        ),
    ] {
        let e = formats::mdl::from_str(text).unwrap_err();
        assert_eq!(e.to_string(), expected, "{text}");
        let e = formats::mdl::from_str_lenient(text).unwrap_err();
        assert_eq!(e.to_string(), expected, "{text}");
        // With the comma back, both are read (and written again).
        let fixed = text.replacen(
            &format!("{}\n", words[0].trim_end_matches(',')),
            &format!("{}\n", words[0]),
            1,
        );
        let written = formats::mdl::to_string(&formats::mdl::from_str(&fixed).unwrap());
        for word in words {
            assert!(written.contains(word), "{word}: {written}");
        }
    }
}

/// A field set twice in one block (a pasted block, an edit that added a
/// value instead of changing it) would lose the first value without a word:
/// strict refuses it naming both places, lenient keeps the last and says so.
/// What adds to a list (tracks, `TVertices`, `Layer`, flags) still repeats.
#[test]
fn a_field_given_twice_is_strict_error_lenient_last() {
    let text = "Version {\n  FormatVersion 800,\n}\nGeoset {\n  Vertices 1 {\n    { 1, 2, 3 },\n  }\n  Vertices 1 {\n    { 4, 5, 6 },\n  }\n  MaterialID 0,\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Geoset 0: line 8, column 3: `Vertices` is given twice in this block \
         (first at line 5, column 3): one would replace the other"
    );
    let (model, diagnostics) = formats::mdl::from_str_lenient(text).unwrap();
    assert_eq!(model.geosets()[0].vertex_positions, [[4.0, 5.0, 6.0]]);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert!(
        diagnostics[0].message.ends_with("; kept the last one"),
        "{}",
        diagnostics[0]
    );

    // `static` or not, it is the same field.
    let text = "GeosetAnim {\n  GeosetId 0,\n  static Alpha 0.5,\n  Alpha 1,\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert!(e.to_string().contains("`Alpha` is given twice"), "{e}");

    // Nested blocks are checked on their own.
    let text = "Bone \"b\" {\n  ObjectId 0,\n  ObjectId 1,\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert!(e.to_string().starts_with("Bone \"b\": line 3"), "{e}");
    let text = "Materials 1 {\n  Material {\n    Layer {\n      FilterMode None,\n      FilterMode Blend,\n    }\n  }\n}\n";
    let e = formats::mdl::from_str(text).unwrap_err();
    assert!(e.to_string().contains("`FilterMode` is given twice"), "{e}");

    // Lists, tracks and flags repeat.
    let text = "Version {\n  FormatVersion 800,\n}\nMaterials 1 {\n  Material {\n    Layer {\n      FilterMode None,\n      Unshaded,\n      Unshaded,\n    }\n    Layer {\n      FilterMode Blend,\n    }\n  }\n}\nGeoset {\n  Vertices 1 {\n    { 1, 2, 3 },\n  }\n  TVertices 1 {\n    { 0, 0 },\n  }\n  TVertices 1 {\n    { 1, 1 },\n  }\n  Anim {\n    BoundsRadius 1,\n  }\n  Anim {\n    BoundsRadius 2,\n  }\n}\nBone \"b\" {\n  ObjectId 0,\n  Translation 1 {\n    Linear,\n    0: { 0, 0, 0 },\n  }\n  Translation 1 {\n    Linear,\n    0: { 1, 0, 0 },\n  }\n}\n";
    let model = formats::mdl::from_str(text).unwrap();
    assert_eq!(model.materials()[0].layers.len(), 2);
    assert_eq!(model.geosets()[0].texture_coordinate_sets.len(), 2);
    assert_eq!(model.geosets()[0].sequence_extents.len(), 2);
    assert_eq!(model.bones()[0].node.tracks.len(), 2);
}
