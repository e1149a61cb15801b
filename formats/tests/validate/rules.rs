//! `formats::validate`: each rule triggered by a model or tile broken on
//! purpose, and the findings real corpus files have (checked by hand against
//! `formats dump`/`formats info`).

use crate::common;
use testkit::rule_table::{DOCS, documented_rules, viewer_grades};

use formats::adt::mcnk::{McnkChunk, layer_flags};
use formats::adt::{Adt, AdtChunk, SplitAdt};
use formats::mdx::{Interpolation, Key, LayerTrack, Model, NodeTrack, TextureEntry, Track};
use formats::validate::{self, Family, Finding, Rule, Severity};

fn sample() -> Model {
    Model::from_bytes(&formats::sample::sample_mdx()).unwrap()
}

/// `findings` as (rule, path) pairs.
fn rule_paths(findings: Vec<Finding>) -> Vec<(Rule, String)> {
    findings.into_iter().map(|f| (f.rule, f.path)).collect()
}

/// The findings of the sample after `edit`, as (rule, path) pairs.
fn after(edit: impl FnOnce(&mut Model)) -> Vec<(Rule, String)> {
    let mut model = sample();
    edit(&mut model);
    rule_paths(validate::model(&model))
}

fn one(rule: Rule, path: &str) -> Vec<(Rule, String)> {
    vec![(rule, path.to_string())]
}

/// The sample's one bone track.
fn bone_track(model: &mut Model) -> &mut Track<[f32; 3]> {
    match &mut model.bones_mut()[0].node.tracks[0] {
        NodeTrack::Translation(track) => track,
        other => panic!("the sample's bone track is a translation, not {other:?}"),
    }
}

fn bone_keys(model: &mut Model) -> &mut Vec<Key<[f32; 3]>> {
    &mut bone_track(model).keys
}

/// Rewrites the model's `VERS` (nothing else changes).
fn set_version(model: &mut Model, version: u32) {
    for chunk in &mut model.chunks {
        if let formats::mdx::Chunk::Version(v) = chunk {
            v.version = version;
        }
    }
}

#[test]
fn the_sample_model_is_clean() {
    assert_eq!(validate::model(&sample()), Vec::<Finding>::new());
}

#[test]
fn indices_out_of_range() {
    const LAYER: &str = "chunks[4].MTLS.materials[0].layers[0]";
    assert_eq!(
        after(|m| m.materials_mut()[0].layers[0].texture_id = 1),
        one(Rule::TextureIndex, &format!("{LAYER}.texture_id"))
    );
    // Texture ids of a layer's entries and of their tracks (1100 and later),
    // entry by entry, then the layer's own texture-id tracks.
    assert_eq!(
        after(|m| {
            let bad_track = || Track::new(Interpolation::None, vec![Key::new(0, 9u32)]);
            let layer = &mut m.materials_mut()[0].layers[0];
            layer.textures = Some(
                (0..2)
                    .map(|slot| TextureEntry {
                        texture_id: 5,
                        slot,
                        texture_id_track: Some(bad_track()),
                    })
                    .collect(),
            );
            layer.tracks.push(LayerTrack::TextureId(bad_track()));
        }),
        [
            format!("{LAYER}.textures[0].texture_id"),
            format!("{LAYER}.textures[0].texture_id_track.keys[0].value"),
            format!("{LAYER}.textures[1].texture_id"),
            format!("{LAYER}.textures[1].texture_id_track.keys[0].value"),
            format!("{LAYER}.tracks[0].TextureId.keys[0].value"),
        ]
        .map(|path| (Rule::TextureIndex, path))
    );
    assert_eq!(
        after(|m| m.materials_mut()[0].layers[0].texture_animation_id = 0),
        one(
            Rule::TextureAnimationIndex,
            &format!("{LAYER}.texture_animation_id")
        )
    );
    assert_eq!(
        after(|m| m.geosets_mut()[0].material_id = 1),
        one(Rule::MaterialIndex, "chunks[5].GEOS.geosets[0].material_id")
    );
    assert_eq!(
        after(|m| m.bones_mut()[0].geoset_id = 1),
        one(Rule::GeosetIndex, "chunks[6].BONE.bones[0].geoset_id")
    );
    assert_eq!(
        after(|m| m.bones_mut()[0].geoset_animation_id = 0),
        one(
            Rule::GeosetAnimationIndex,
            "chunks[6].BONE.bones[0].geoset_animation_id"
        )
    );
    assert_eq!(
        after(|m| m.geosets_mut()[0].faces[4] = 8),
        one(Rule::VertexIndex, "chunks[5].GEOS.geosets[0].faces[4]")
    );
    assert_eq!(
        after(|m| bone_track(m).global_sequence_id = 0),
        one(
            Rule::GlobalSequenceIndex,
            "chunks[6].BONE.bones[0].node.tracks[0].Translation.global_sequence_id"
        )
    );
}

#[test]
fn global_sequence_keys_must_fit_their_global_sequence() {
    let findings = after(|m| {
        m.global_sequences_mut().push(400);
        bone_track(m).global_sequence_id = 0;
    });
    // Keys at 0, 500 and 1000 against a 400 ms global sequence.
    // GLBS is added before BONE, which moves to chunks[7].
    let path = "chunks[7].BONE.bones[0].node.tracks[0].Translation.keys[1]";
    assert_eq!(findings, one(Rule::KeyOutsideSequence, path));
}

#[test]
fn the_node_tree() {
    const BONE: &str = "chunks[6].BONE.bones[0].node";
    assert_eq!(
        after(|m| m.bones_mut()[0].node.parent_id = 5),
        one(Rule::ParentIndex, &format!("{BONE}.parent_id"))
    );
    assert_eq!(
        after(|m| m.bones_mut()[0].node.parent_id = 0),
        one(Rule::ParentIndex, &format!("{BONE}.parent_id"))
    );
    assert_eq!(
        after(|m| m.bones_mut()[0].node.object_id = 1),
        one(Rule::ObjectIds, &format!("{BONE}.object_id"))
    );
    assert_eq!(
        after(|m| m.pivot_points_mut().clear()),
        one(Rule::PivotCount, "chunks[7].PIVT")
    );
    assert_eq!(
        after(|m| m.pivot_points_mut().push([0.0; 3])),
        one(Rule::ExtraPivotPoints, "chunks[7].PIVT")
    );
    let mut model = sample();
    model.pivot_points_mut().push([0.0; 3]);
    let found = validate::model(&model);
    assert_eq!(
        found[0].message,
        "2 pivot points for 1 nodes (one per node)"
    );
    assert_eq!(found[0].severity(), Severity::Warning);
}

#[test]
fn sequences_and_keys_in_order() {
    const SEQS: &str = "chunks[2].SEQS.sequences[1].interval";
    assert_eq!(
        after(|m| m.sequences_mut()[1].interval = [900, 3000]),
        one(Rule::SequenceOrder, SEQS)
    );
    assert_eq!(
        after(|m| m.sequences_mut()[1].interval = [3000, 2000]),
        one(Rule::NegativeLengthSequence, SEQS)
    );
    // Every earlier sequence counts, not only the one before: Stand made
    // 0..3000, Birth 100..200 inside it, and a third sequence 300..400 after
    // Birth, inside Stand.
    let nested = |m: &mut Model| {
        m.sequences_mut()[0].interval = [0, 3000];
        m.sequences_mut()[1].interval = [100, 200];
        let mut third = m.sequences()[1];
        third.interval = [300, 400];
        m.sequences_mut().push(third);
    };
    let mut model = sample();
    nested(&mut model);
    let found: Vec<(Rule, String, String)> = validate::model(&model)
        .into_iter()
        .filter(|f| f.rule == Rule::SequenceOrder)
        .map(|f| (f.rule, f.path, f.message))
        .collect();
    let order = |s: usize, message: &str| {
        let path = format!("chunks[2].SEQS.sequences[{s}].interval");
        (Rule::SequenceOrder, path, message.to_string())
    };
    assert_eq!(
        found,
        [
            order(1, "starts at 100, before sequence 0 ends at 3000"),
            order(2, "starts at 300, before sequence 0 ends at 3000")
        ]
    );
    // A 0 ms sequence where the next starts: a key there is in both.
    let same_start = |m: &mut Model| {
        m.sequences_mut()[0].interval = [0, 0];
        m.sequences_mut()[1].interval = [0, 1000];
    };
    assert_eq!(after(same_start), one(Rule::SequenceOrder, SEQS));
    let mut model = sample();
    same_start(&mut model);
    assert_eq!(
        validate::model(&model)[0].message,
        "starts at 0, where sequence 0 starts"
    );
    assert_eq!(validate::model(&model)[0].severity(), Severity::Error);
    // Reforged plays overlapping sequences as meant: nothing to report; a
    // sequence ending before it starts is still a warning.
    let reforged = |edit: fn(&mut Model)| {
        move |m: &mut Model| {
            set_version(m, 1000);
            edit(m);
        }
    };
    assert_eq!(after(reforged(same_start)), []);
    assert_eq!(after(reforged(nested)), []);
    assert_eq!(
        after(reforged(|m| m.sequences_mut()[1].interval = [900, 3000])),
        []
    );
    let mut backwards = sample();
    reforged(|m| m.sequences_mut()[1].interval = [3000, 2000])(&mut backwards);
    let found = validate::model(&backwards);
    assert_eq!(
        rule_paths(found.clone()),
        one(Rule::NegativeLengthSequence, SEQS)
    );
    assert_eq!(found[0].message, "ends at 2000, before it starts at 3000");
    assert_eq!(found[0].severity(), Severity::Warning);
    assert_eq!(
        after(|m| m.sequences_mut()[0].interval = [0, 0]),
        [(
            Rule::KeyOutsideSequence,
            "chunks[6].BONE.bones[0].node.tracks[0].Translation.keys[1]".to_string()
        )],
        "a 0 ms sequence alone is no sequence-order finding"
    );
    const KEYS: &str = "chunks[6].BONE.bones[0].node.tracks[0].Translation.keys";
    assert_eq!(
        after(|m| bone_keys(m).swap(0, 1)),
        one(Rule::KeyOrder, &format!("{KEYS}[1]"))
    );
    let outside = after(|m| bone_keys(m)[2].frame = 1500);
    assert_eq!(
        outside,
        one(Rule::KeyOutsideSequence, &format!("{KEYS}[2]"))
    );
}

#[test]
fn normals_must_be_unit_length() {
    let findings = after(|m| {
        m.geosets_mut()[0].vertex_normals[3] = [0.0, 0.0, 0.0];
        m.geosets_mut()[0].vertex_normals[5] = [f32::NAN, 0.0, 0.0];
    });
    let path = "chunks[5].GEOS.geosets[0].vertex_normals[3]";
    assert_eq!(findings, one(Rule::NormalLength, path));
    let mut model = sample();
    model.geosets_mut()[0].vertex_normals[3] = [0.0, 0.0, 0.0];
    model.geosets_mut()[0].vertex_normals[5] = [f32::NAN, 0.0, 0.0];
    assert_eq!(
        validate::model(&model)[0].message,
        "2 of 8 normals are not unit length (first: [0.0, 0.0, 0.0], length 0)"
    );
}

#[test]
fn real_models_break_real_rules() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let read = |name: &str| {
        let data = std::fs::read(root.join("mdx").join(name)).unwrap();
        let model = Model::from_bytes_lenient(&data).unwrap().0;
        validate::model(&model)
    };
    // zf_bone: a test file of odd values (`formats dump`: bone 1 has object
    // id 666; bone 2 geoset 456, geoset animation 789, parent 123, in a model
    // with no geosets).
    let rules: Vec<Rule> = read("zf_bone.mdx").iter().map(|f| f.rule).collect();
    assert_eq!(
        rules,
        [
            Rule::GeosetIndex,
            Rule::GeosetAnimationIndex,
            Rule::ObjectIds,
            Rule::ParentIndex
        ]
    );
    // `formats info`: stand 0..2000, Death AZ 5000..5200, walk 3000..4000.
    let findings = read("amisd_File00001202_98f1fm0.mdx");
    assert_eq!(findings.len(), 1);
    assert_eq!(
        findings[0].to_string(),
        "chunks[2].SEQS.sequences[2].interval: starts at 3000, before sequence 1 ends at 5200"
    );
    assert_eq!(findings[0].severity(), Severity::Error, "a classic model");
    // zf_sequence: "" 0..0, then "1" from 0 (mdx-m3-viewer: "This sequence
    // starts at the same frame as sequence 0").
    let findings = read("zf_sequence.mdx");
    assert_eq!(
        findings[0].to_string(),
        "chunks[2].SEQS.sequences[1].interval: starts at 0, where sequence 0 starts"
    );
    // tm_blob: 48 normals several units long.
    let findings = read("tm_blob.mdx");
    let normals: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.rule == Rule::NormalLength)
        .collect();
    assert_eq!(normals.len(), 1);
    assert!(
        normals[0]
            .message
            .starts_with("48 of 1802 normals are not unit length"),
        "{}",
        normals[0]
    );
    // wc3lib_Orc_Exp: the camera's keys run past the sequences (Birth ends
    // at 87400, they go on to 43300..), and 16 bone and helper tracks of
    // global sequence 9, which is 0 ms long, have their key at 70500.
    let findings = read("wc3lib_Orc_Exp.mdx");
    assert!(findings.iter().all(|f| f.rule == Rule::KeyOutsideSequence));
    let camera = findings
        .iter()
        .filter(|f| f.path.starts_with("chunks[13].CAMS.cameras[0].tracks["))
        .count();
    let global = findings
        .iter()
        .filter(|f| f.message == "1 of 1 keys are outside global sequence 9 (first: frame 70500)")
        .count();
    assert_eq!((camera, global, findings.len()), (3, 16, 19));
}

#[test]
fn every_corpus_model_validates_without_panicking_and_some_are_clean() {
    let models = common::corpus_models();
    if models.is_empty() {
        return;
    }
    let clean = models
        .iter()
        .filter(|(_, model)| validate::model(model).is_empty())
        .count();
    assert!(clean >= 25, "{clean} of {} models are clean", models.len());
}

#[test]
fn every_corpus_tile_is_consistent() {
    for (path, tile) in common::corpus_tiles() {
        assert_eq!(validate::tile(&tile), Vec::<Finding>::new(), "{path}");
    }
}

#[test]
fn tile_references_out_of_range() {
    let Some(data) = common::corpus_file("adt/warcraftnet_Northrend_37_25.adt") else {
        return;
    };
    let mut tile = Adt::from_bytes(&data).unwrap();
    let doodads = tile.mddf().unwrap().doodad_defs.len() as u32;
    tile.mmid_mut().unwrap().offsets[1] += 1; // inside the first name
    tile.mwid_mut().unwrap().offsets[2] = 100_000; // past MWMO
    tile.mddf_mut().unwrap().doodad_defs[0].name_id = 5000;
    let mcnk = tile.mcnk_mut(3).unwrap();
    let refs = mcnk
        .chunks
        .iter_mut()
        .find_map(|c| match c {
            McnkChunk::Mcrf(r) => Some(r),
            _ => None,
        })
        .unwrap();
    refs.doodad_refs.push(doodads);
    let findings = rule_paths(validate::tile(&tile));
    let mcrf = findings
        .iter()
        .find(|(rule, _)| *rule == Rule::McrfReference)
        .unwrap();
    assert!(
        mcrf.1.starts_with("chunks[14].MCNK.chunks["),
        "{findings:?}"
    );
    assert!(mcrf.1.contains(".MCRF.doodad_refs["), "{findings:?}");
    let rules: Vec<Rule> = findings.iter().map(|f| f.0).collect();
    assert_eq!(
        rules,
        [
            Rule::NameOffset,
            Rule::NameOffset,
            Rule::NameId,
            Rule::McrfReference
        ]
    );
    assert_eq!(findings[0].1, "chunks[5].MMID.offsets[1]");
    assert_eq!(findings[1].1, "chunks[7].MWID.offsets[2]");
    assert_eq!(findings[2].1, "chunks[8].MDDF.doodad_defs[0].name_id");
}

#[test]
fn tile_chunks_layers_alpha_and_liquids() {
    let Some(data) = common::corpus_file("adt/warcraftnet_Northrend_37_25.adt") else {
        return;
    };
    let clean = Adt::from_bytes(&data).unwrap();
    let mut tile = clean.clone();
    // MCNK 17 (chunks[28]) says it is MCNK 18; MCNK 0 gets a fifth layer, and
    // its layer 1 an alpha map past MCAL; the first liquid spills over.
    tile.mcnk_mut(17).unwrap().index_x += 1;
    let mcnk = tile.mcnk_mut(0).unwrap();
    let mcal = mcnk.alpha().unwrap().data.len() as u32;
    let layers = &mut mcnk.layers_mut().unwrap().layers;
    while layers.len() < 5 {
        layers.push(layers[0]);
    }
    layers[1].offset_in_mcal = mcal;
    // Layer 2 uncompressed with 100 bytes left; layer 3 compressed with one.
    layers[2].flags = layer_flags::USE_ALPHA_MAP;
    layers[2].offset_in_mcal = mcal - 100;
    layers[3].flags = layer_flags::USE_ALPHA_MAP | layer_flags::ALPHA_MAP_COMPRESSED;
    layers[3].offset_in_mcal = mcal - 1;
    let (j, k) = tile
        .mh2o()
        .unwrap()
        .chunks
        .iter()
        .enumerate()
        .find_map(|(j, c)| (!c.instances.is_empty()).then_some((j, 0)))
        .unwrap();
    let instance = &mut tile.mh2o_mut().unwrap().chunks[j].instances[k];
    instance.width = 9 - instance.x_offset;
    let findings = validate::tile(&tile);
    let mcnk0 = "chunks[11].MCNK.chunks[3].MCLY";
    assert_eq!(
        rule_paths(findings.clone()),
        [
            (
                Rule::LiquidExtent,
                format!("chunks[10].MH2O.chunks[{j}].instances[{k}]")
            ),
            (Rule::LayerCount, format!("{mcnk0}.layers")),
            (
                Rule::AlphaOffset,
                format!("{mcnk0}.layers[1].offset_in_mcal")
            ),
            (
                Rule::AlphaOffset,
                format!("{mcnk0}.layers[2].offset_in_mcal")
            ),
            (
                Rule::AlphaOffset,
                format!("{mcnk0}.layers[3].offset_in_mcal")
            ),
            (Rule::ChunkIndex, "chunks[28].MCNK".to_string()),
            // Its position is then not its new indices' corner either.
            (Rule::ChunkPosition, "chunks[28].MCNK.position".to_string()),
        ]
    );
    let messages: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert!(
        messages[2].contains("is past the end of MCAL"),
        "{messages:?}"
    );
    assert!(messages[3].contains("leaves 100 bytes"), "{messages:?}");
    assert!(messages[4].contains("does not decode"), "{messages:?}");
    assert!(
        messages[5].contains("IndexX 2, IndexY 1: MCNK 17"),
        "{messages:?}"
    );
    // A tile that lost its last MCNK.
    let mut short = clean;
    let last = short
        .chunks
        .iter()
        .rposition(|c| matches!(c, AdtChunk::Mcnk(_)));
    short.chunks.remove(last.unwrap());
    let findings = validate::tile(&short);
    assert_eq!(
        rule_paths(findings.clone()),
        [(Rule::ChunkCount, "chunks".to_string())]
    );
    assert!(findings[0].message.contains("255 MCNK"), "{findings:?}");
}

/// A chunk moved off its place in the grid: named, and only it, whichever
/// chunk it is (the first places the tile).
#[test]
fn misplaced_chunks() {
    let Some(data) = common::corpus_file("adt/warcraftnet_Northrend_37_25.adt") else {
        return;
    };
    for (n, at) in [
        (20, "chunks[31].MCNK.position"),
        (0, "chunks[11].MCNK.position"),
    ] {
        let mut tile = Adt::from_bytes(&data).unwrap();
        tile.mcnk_mut(n).unwrap().position[0] += 5.0;
        let findings = validate::tile(&tile);
        assert_eq!(
            rule_paths(findings.clone()),
            [(Rule::ChunkPosition, at.to_string())]
        );
        assert!(
            findings[0]
                .message
                .contains("of tile (37, 25), which the first MCNK places"),
            "{findings:?}"
        );
    }
}

/// The files of a split tile are checked on their own: a Northrend tile
/// split as Cataclysm stores it is clean; its `_tex0` and `_obj0` broken
/// name what broke on their paths.
#[test]
fn split_files_are_checked_on_their_own() {
    let Some(data) = common::corpus_file("adt/warcraftnet_Northrend_37_25.adt") else {
        return;
    };
    let split = SplitAdt::from_monolithic(&Adt::from_bytes(&data).unwrap());
    assert_eq!(validate::tile(&split.root), Vec::<Finding>::new());
    for file in [&split.tex0, &split.obj0, &split.obj1, &split.lod] {
        assert_eq!(validate::split_file(file), Vec::<Finding>::new());
    }
    let mut tex0 = split.tex0.clone();
    let (i, mcnk) = tex0
        .chunks
        .iter_mut()
        .enumerate()
        .find_map(|(i, c)| match c {
            AdtChunk::Mcnk(m) => Some((i, m)),
            _ => None,
        })
        .unwrap();
    let (j, layers) = mcnk
        .chunks
        .iter_mut()
        .enumerate()
        .find_map(|(j, c)| match c {
            McnkChunk::Mcly(m) => Some((j, &mut m.layers)),
            _ => None,
        })
        .unwrap();
    layers[0].texture_id = 999;
    let findings = rule_paths(validate::split_file(&tex0));
    let at = format!("chunks[{i}].MCNK.chunks[{j}].MCLY.layers[0].texture_id");
    assert_eq!(findings, [(Rule::TextureIndex, at)]);
    // A tex file missing its last map chunk.
    let last = tex0
        .chunks
        .iter()
        .rposition(|c| matches!(c, AdtChunk::Mcnk(_)));
    tex0.chunks.remove(last.unwrap());
    let rules: Vec<Rule> = validate::split_file(&tex0).iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::TextureIndex, Rule::ChunkCount]);

    // _obj0: MCRD names a doodad past MDDF, MMID an offset past MMDX.
    let mut obj0 = split.obj0.clone();
    let doodads = obj0
        .chunks
        .iter()
        .find_map(|c| match c {
            AdtChunk::Mddf(m) => Some(m.doodad_defs.len() as u32),
            _ => None,
        })
        .unwrap();
    let mut broken = None;
    for (i, chunk) in obj0.chunks.iter_mut().enumerate() {
        match chunk {
            AdtChunk::Mmid(m) => m.offsets[0] = 1_000_000,
            AdtChunk::Mcnk(m) if broken.is_none() => {
                if let Some((j, McnkChunk::Mcrd(refs))) = m
                    .chunks
                    .iter_mut()
                    .enumerate()
                    .find(|(_, c)| matches!(c, McnkChunk::Mcrd(_)))
                {
                    refs.entries.push(doodads);
                    broken = Some((i, j, refs.entries.len() - 1));
                }
            }
            _ => {}
        }
    }
    let (i, j, k) = broken.expect("an obj0 MCNK with MCRD");
    let findings = rule_paths(validate::split_file(&obj0));
    assert_eq!(findings.len(), 2, "{findings:?}");
    assert_eq!(findings[0].0, Rule::NameOffset);
    assert_eq!(
        findings[1],
        (
            Rule::McrfReference,
            format!("chunks[{i}].MCNK.chunks[{j}].MCRD.entries[{k}]")
        )
    );
}

mod damaged {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Whatever a damaged sample reads as, checking and drawing it
        /// neither panics nor hangs (indices, counts and floats are hostile).
        #[test]
        fn damaged_models_validate_and_render(
            edits in proptest::collection::vec((any::<proptest::sample::Index>(), any::<u8>()), 1..8)
        ) {
            let mut data = formats::sample::sample_mdx();
            for (at, byte) in edits {
                let i = at.index(data.len());
                data[i] = byte;
            }
            if let Ok((model, _)) = Model::from_bytes_lenient(&data) {
                for finding in validate::model(&model) {
                    prop_assert!(!finding.path.is_empty() && !finding.message.is_empty());
                }
                #[cfg(feature = "render")]
                {
                    let image = formats::render::wireframe(&model, 48);
                    prop_assert_eq!(image.data.len(), 48 * 48);
                }
            }
        }
    }
}

#[test]
fn the_wow_alpha_boar_has_a_node_for_every_pivot_and_breaks_when_one_goes() {
    let Some(data) = common::corpus_file("mdx/wowalpha_Boar.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    // 26 bones, 4 helpers, 9 attachments, 17 events and 1 hit-test shape: 57
    // MDLGENOBJECTs for 57 pivot points, ids 0 to 56 in file order.
    assert_eq!(validate::model(&model), Vec::<Finding>::new());
    model.alpha_helpers_mut()[1].parent_id = 999;
    model.alpha_bones_mut().pop();
    let found = rule_paths(validate::model(&model));
    assert!(
        found.contains(&(Rule::ExtraPivotPoints, "chunks[9].PIVT".into())),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            Rule::ObjectIds,
            "chunks[7].HELP.helpers[0].object_id".into()
        )),
        "{found:?}"
    );
    assert!(
        found.contains(&(
            Rule::ParentIndex,
            "chunks[7].HELP.helpers[1].parent_id".into()
        )),
        "{found:?}"
    );
}

/// The Lich King converted from WoW by wow-converter (version 1000, a wild
/// file): its 21 sequences are out of order, 15 starting before an earlier
/// one ends (8 before the one just before), which Reforged plays as meant,
/// so `formats validate` finds no `sequence-order` in it; as a classic
/// model it has 15, errors, as mdx-m3-viewer counts them.
#[test]
fn overlapping_sequences_are_errors_in_classic_models_only() {
    let Some(data) = common::wild_file("wowconverter_7-the-lich-king-36597.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    assert_eq!(model.version(), 1000);
    let ordered = |model: &Model| -> Vec<Finding> {
        let all = validate::all(model).into_iter();
        all.filter(|f| f.rule == Rule::SequenceOrder).collect()
    };
    assert_eq!(ordered(&model), []);
    set_version(&mut model, 800);
    let found = ordered(&model);
    assert_eq!(found.len(), 15, "{found:#?}");
    assert!(found.iter().all(|f| f.severity() == Severity::Error));
}

// The map makers' checks (`validate::sanity`): each rule triggered by a
// built model, silent on the clean one, and found (or not) in real models.

mod sanity {
    use super::*;
    use formats::core::FixedStr;
    use formats::mdx::node::node_flags::XY_QUAD;
    use formats::mdx::{
        Attachment, AttachmentTrack, Chunk, CornEmitter, EventObject, EventTrack, FaceEffect,
        FilterMode, GeosetAnimation, GeosetAnimationTrack, Light, LightType, Node, ParticleEmitter,
        ParticleEmitter2, ParticleEmitter2Track, Texture,
    };

    /// The sample with a Death sequence (it has Stand and Birth) and an
    /// `Origin Ref` attachment (object id 1, `chunks[7].ATCH`, moving `PIVT`
    /// to `chunks[8]`): clean of every rule.
    fn clean() -> Model {
        let mut model = sample();
        model.sequences_mut()[1].name.set("Death").unwrap();
        model
            .attachments_mut()
            .push(attachment("Origin Ref", 1, ""));
        model.pivot_points_mut().push([0.0; 3]);
        model
    }

    fn attachment(name: &str, object_id: u32, path: &str) -> Attachment {
        Attachment {
            node: node(name, object_id),
            path: FixedStr::try_from(path).unwrap(),
            attachment_id: 0,
            tracks: Vec::new(),
        }
    }

    /// The map makers' findings of the clean model after `edit`, as (rule, path).
    fn after(edit: impl FnOnce(&mut Model)) -> Vec<(Rule, String)> {
        let mut model = clean();
        edit(&mut model);
        rule_paths(validate::sanity(&model))
    }

    fn message(edit: impl FnOnce(&mut Model)) -> String {
        let mut model = clean();
        edit(&mut model);
        let findings = validate::sanity(&model);
        assert_eq!(findings.len(), 1, "{findings:?}");
        findings[0].message.clone()
    }

    fn node(name: &str, object_id: u32) -> Node {
        Node {
            name: FixedStr::try_from(name).unwrap(),
            object_id,
            parent_id: u32::MAX,
            flags: 0,
            tracks: Vec::new(),
        }
    }

    /// An edit that makes the model 1000 and adds a popcorn emitter (a
    /// node at the origin) with this `path` and visibility guide (`flags`).
    fn popcorn(path: &'static str, flags: &'static str) -> impl FnOnce(&mut Model) {
        move |m: &mut Model| {
            set_version(m, 1000);
            m.corn_emitters_mut().push(CornEmitter {
                node: node("Popcorn", 2),
                life_span: 1.0,
                emission_rate: 1.0,
                speed: 1.0,
                color: [1.0; 3],
                alpha: 1.0,
                replaceable_id: 0,
                path: FixedStr::try_from(path).unwrap(),
                flags: FixedStr::try_from(flags).unwrap(),
                tracks: Vec::new(),
            });
            m.pivot_points_mut().push([0.0; 3]);
        }
    }

    fn rules(path: &str) -> Vec<Rule> {
        let data = common::corpus_file(path).unwrap();
        let model = Model::from_bytes_lenient(&data).unwrap().0;
        validate::sanity(&model).iter().map(|f| f.rule).collect()
    }

    #[test]
    fn the_clean_model_is_clean_of_every_rule() {
        assert_eq!(validate::model(&clean()), Vec::<Finding>::new());
        assert_eq!(validate::sanity(&clean()), Vec::<Finding>::new());
        // The sample itself has no Death; it is no unit (no Attack, Walk or
        // collision shape), so it needs no Origin Ref.
        let rules: Vec<Rule> = validate::sanity(&sample()).iter().map(|f| f.rule).collect();
        assert_eq!(rules, [Rule::MissingDeathSequence]);
    }

    #[test]
    fn header() {
        assert_eq!(
            after(|m| set_version(m, 900)),
            one(Rule::UnsupportedVersion, "chunks[0].VERS.version")
        );
        for version in [800, 1000, 1100, 1200] {
            assert_eq!(after(|m| set_version(m, version)), [], "{version}");
        }
        let modl = |m: &mut Model| match &mut m.chunks[1] {
            Chunk::Model(modl) => modl.animation_file_name.set("Walk.mdl").unwrap(),
            _ => unreachable!(),
        };
        assert_eq!(
            after(modl),
            one(Rule::AnimationFile, "chunks[1].MODL.animation_file_name")
        );
        // A model without its header chunks (a file of the magic alone reads
        // as one).
        let mut bare = clean();
        bare.chunks
            .retain(|c| !matches!(c, Chunk::Version(_) | Chunk::Model(_)));
        let found: Vec<(Rule, String, String)> = validate::sanity(&bare)
            .into_iter()
            .map(|f| (f.rule, f.path, f.message))
            .collect();
        let missing = |tag: &str| {
            (
                Rule::MissingHeader,
                "chunks".to_string(),
                format!("no {tag} chunk"),
            )
        };
        assert_eq!(found, [missing("VERS"), missing("MODL")]);
        let magic = Model::from_bytes(b"MDLX").unwrap();
        let rules: Vec<Rule> = validate::sanity(&magic).iter().map(|f| f.rule).collect();
        assert_eq!(&rules[..2], [Rule::MissingHeader, Rule::MissingHeader]);
        // A WoW alpha model is not checked.
        let mut alpha = clean();
        set_version(&mut alpha, 1300);
        assert_eq!(validate::sanity(&alpha), []);
    }

    #[test]
    fn standard_sequences() {
        const SEQS: &str = "chunks[2].SEQS";
        let rename = |s: usize, name: &'static str| {
            move |m: &mut Model| m.sequences_mut()[s].name.set(name).unwrap()
        };
        assert_eq!(
            after(rename(0, "Walk")),
            one(Rule::MissingStandSequence, SEQS)
        );
        // (The bone's track then runs on no sequence: `track-without-sequence`.)
        let mut model = clean();
        model.sequences_mut().clear();
        let found = validate::sanity(&model);
        assert_eq!(found[0].rule, Rule::MissingStandSequence);
        assert_eq!(
            found[0].message,
            "no sequences at all: the model stands still in its bind pose"
        );
        assert_eq!(
            after(rename(1, "Decay")),
            one(Rule::MissingDeathSequence, SEQS)
        );
        // A one-shot effect (every sequence a Birth or a Death: blood, an
        // impact) needs neither; one Stand among them makes it loop, and
        // then it needs a Death.
        let one_shot = |m: &mut Model| {
            rename(0, "Birth")(m);
            rename(1, "Death - 2")(m);
        };
        assert_eq!(after(one_shot), []);
        let looping = |m: &mut Model| {
            rename(0, "Birth")(m);
            rename(1, "Stand")(m);
        };
        assert_eq!(after(looping), one(Rule::MissingDeathSequence, SEQS));
        // Stand and Death may carry qualifiers and variation numbers.
        assert_eq!(after(rename(0, "Stand Ready - 2")), []);
        assert_eq!(after(rename(1, "Alternate Death 1")), []);
        // A portrait by name needs Portrait and Portrait Talk, not Stand or Death.
        let portrait = |m: &mut Model| match &mut m.chunks[1] {
            Chunk::Model(modl) => modl.name.set("Sample_Portrait").unwrap(),
            _ => unreachable!(),
        };
        assert_eq!(
            after(portrait),
            [
                (Rule::MissingPortraitSequence, SEQS.to_string()),
                (Rule::MissingPortraitSequence, SEQS.to_string())
            ]
        );
        assert_eq!(
            after(|m| {
                portrait(m);
                rename(0, "Portrait")(m);
                rename(1, "Portrait Talk")(m);
            }),
            []
        );
        // A model with Portrait sequences only is a portrait too.
        assert_eq!(
            message(|m| {
                rename(0, "Portrait")(m);
                rename(1, "Portrait 2")(m);
            }),
            "a portrait model without a \"Portrait Talk\" sequence"
        );
    }

    #[test]
    fn sequence_names_and_lengths() {
        const SEQ: &str = "chunks[2].SEQS.sequences[0]";
        assert_eq!(
            after(|m| m.sequences_mut()[0].name.set("Stand Slow").unwrap()),
            one(Rule::SequenceName, &format!("{SEQ}.name"))
        );
        assert_eq!(
            message(|m| m.sequences_mut()[0].name.set("Stand Slow").unwrap()),
            "\"Stand Slow\": \"slow\" is not a word the game knows in sequence names"
        );
        // The sample's Death (was Birth) is 2000..3000; no key falls there.
        assert_eq!(
            after(|m| m.sequences_mut()[1].interval = [2000, 2000]),
            one(
                Rule::ZeroLengthSequence,
                "chunks[2].SEQS.sequences[1].interval"
            )
        );
    }

    #[test]
    fn global_sequences() {
        const GLBS: &str = "chunks[3].GLBS.global_sequences[0]";
        assert_eq!(
            after(|m| m.global_sequences_mut().push(1000)),
            one(Rule::UnusedGlobalSequence, GLBS)
        );
        let used = |length: u32| {
            move |m: &mut Model| {
                m.global_sequences_mut().push(length);
                bone_track(m).global_sequence_id = 0;
            }
        };
        assert_eq!(after(used(1000)), []);
        assert_eq!(after(used(0)), one(Rule::ZeroLengthGlobalSequence, GLBS));
    }

    #[test]
    fn textures() {
        const TEX: &str = "chunks[3].TEXS.textures[0]";
        let path =
            |p: &'static str| move |m: &mut Model| m.textures_mut()[0].file_name.set(p).unwrap();
        for bad in [
            "Textures\\Sample.png",
            "Textures\\Sample",
            "Textures.blp\\Sample",
        ] {
            assert_eq!(
                after(path(bad)),
                one(Rule::TexturePath, &format!("{TEX}.file_name")),
                "{bad}"
            );
        }
        for good in ["Textures\\Sample.BLP", "a/b.tga", "Sample.dds"] {
            assert_eq!(after(path(good)), [], "{good}");
        }
        // .tif is Reforged's.
        assert_eq!(
            after(path("Sample.tif")),
            one(Rule::TexturePath, &format!("{TEX}.file_name"))
        );
        assert_eq!(
            after(|m| {
                path("Sample.tif")(m);
                set_version(m, 1000);
            }),
            []
        );
        assert_eq!(
            after(path("")),
            one(Rule::EmptyTexture, &format!("{TEX}.file_name"))
        );
        let replaceable = |id: u32| {
            move |m: &mut Model| {
                path("")(m);
                m.textures_mut()[0].replaceable_id = id;
            }
        };
        assert_eq!(after(replaceable(1)), []);
        assert_eq!(after(replaceable(37)), []);
        assert_eq!(
            after(replaceable(5)),
            one(Rule::ReplaceableId, &format!("{TEX}.replaceable_id"))
        );
        let second = |m: &mut Model| {
            let texture = m.textures()[0];
            m.textures_mut().push(texture);
        };
        assert_eq!(
            after(second),
            one(Rule::UnusedTexture, "chunks[3].TEXS.textures[1]")
        );
        // A texture-id track using it counts.
        assert_eq!(
            after(|m| {
                second(m);
                let keys = vec![Key::new(0, 0u32), Key::new(500, 1)];
                let track = Track::new(Interpolation::None, keys);
                let layer = &mut m.materials_mut()[0].layers[0];
                layer.tracks.push(LayerTrack::TextureId(track));
            }),
            []
        );
    }

    #[test]
    fn materials_and_texture_animations() {
        assert_eq!(
            after(|m| m.materials_mut()[0].layers.clear()),
            [
                (
                    Rule::MaterialWithoutLayers,
                    "chunks[4].MTLS.materials[0]".to_string()
                ),
                (
                    Rule::UnusedTexture,
                    "chunks[3].TEXS.textures[0]".to_string()
                )
            ]
        );
        assert_eq!(
            after(|m| {
                let material = m.materials()[0].clone();
                m.materials_mut().push(material);
            }),
            one(Rule::UnusedMaterial, "chunks[4].MTLS.materials[1]")
        );
        let animation = |m: &mut Model| m.texture_animations_mut().push(Default::default());
        assert_eq!(
            after(animation),
            one(Rule::UnusedTextureAnimation, "chunks[5].TXAN.animations[0]")
        );
        assert_eq!(
            after(|m| {
                animation(m);
                m.materials_mut()[0].layers[0].texture_animation_id = 0;
            }),
            []
        );
    }

    #[test]
    fn geosets() {
        const GEOSET: &str = "chunks[5].GEOS.geosets[0]";
        let grow = |count: usize| {
            move |m: &mut Model| {
                let geoset = &mut m.geosets_mut()[0];
                geoset.vertex_positions.resize(count, [0.0; 3]);
                geoset.vertex_groups.resize(count, 0);
            }
        };
        assert_eq!(after(grow(7432)), []);
        assert_eq!(
            after(grow(7433)),
            one(
                Rule::GeosetVertexLimit,
                &format!("{GEOSET}.vertex_positions")
            )
        );
        assert_eq!(
            after(|m| m.geosets_mut()[0].faces.clear()),
            one(Rule::GeosetWithoutFaces, &format!("{GEOSET}.faces"))
        );
    }

    #[test]
    fn vertices_bound_to_bones() {
        const GEOSET: &str = "chunks[5].GEOS.geosets[0]";
        assert_eq!(
            after(|m| m.geosets_mut()[0].vertex_groups[3] = 5),
            one(Rule::VertexSkinning, &format!("{GEOSET}.vertex_groups"))
        );
        assert_eq!(
            message(|m| m.geosets_mut()[0].vertex_groups[3] = 5),
            "1 of 8 vertices are not bound to bones (first: vertex 3 in matrix group 5, \
             which does not exist)"
        );
        // Every vertex bound to object 9, which does not exist: bone 0 has none.
        assert_eq!(
            after(|m| m.geosets_mut()[0].matrix_indices[0] = 9),
            [
                (Rule::VertexSkinning, format!("{GEOSET}.vertex_groups")),
                (
                    Rule::BoneWithoutVertex,
                    "chunks[6].BONE.bones[0]".to_string()
                )
            ]
        );
        // Reforged SKIN: 4 slots into the matrix indices, 4 weights out of 255.
        let skin = |weight: u8| {
            move |m: &mut Model| {
                set_version(m, 1000);
                let mut bytes = [0, 0, 0, 0, 255, 0, 0, 0].repeat(8);
                bytes[8 * 5 + 4] = weight;
                m.geosets_mut()[0].skin = Some(bytes);
            }
        };
        assert_eq!(after(skin(255)), []);
        assert_eq!(
            after(skin(200)),
            one(Rule::VertexSkinning, &format!("{GEOSET}.skin"))
        );
        assert_eq!(
            message(skin(200)),
            "1 of 8 vertices are not bound to bones (first: vertex 5 SKIN weights add up to 200, \
             not 255)"
        );
        // A second bone no vertex is bound to.
        assert_eq!(
            after(|m| {
                let mut bone = m.bones()[0].clone();
                bone.node = node("Unbound", 1);
                m.bones_mut().push(bone);
                m.attachments_mut()[0].node.object_id = 2; // after the bones
                m.pivot_points_mut().push([0.0; 3]);
            }),
            one(Rule::BoneWithoutVertex, "chunks[6].BONE.bones[1]")
        );
    }

    #[test]
    fn attachments_and_emitters() {
        let attach = |path: &'static str| {
            move |m: &mut Model| {
                m.attachments_mut().push(attachment("Chest Ref", 2, path));
                m.pivot_points_mut().push([0.0; 3]);
            }
        };
        assert_eq!(after(attach("")), []);
        assert_eq!(after(attach("Abilities\\Spells\\Aura.mdx")), []);
        assert_eq!(
            after(attach("Textures\\Aura.blp")),
            one(Rule::AttachmentPath, "chunks[7].ATCH.attachments[1].path")
        );
        let spawn = |path: &'static str| {
            move |m: &mut Model| {
                m.particle_emitters_mut().push(ParticleEmitter {
                    node: node("Spawner", 2),
                    emission_rate: 1.0,
                    gravity: 0.0,
                    longitude: 0.0,
                    latitude: 0.0,
                    spawn_model_file_name: FixedStr::try_from(path).unwrap(),
                    lifespan: 1.0,
                    initial_velocity: 0.0,
                    tracks: Vec::new(),
                });
                m.pivot_points_mut().push([0.0; 3]);
            }
        };
        assert_eq!(after(spawn("Abilities\\Weapons\\Bolt.MDL")), []);
        assert_eq!(
            after(spawn("")),
            one(
                Rule::EmitterPath,
                "chunks[9].PREM.emitters[0].spawn_model_file_name"
            )
        );
        let popcorn = |path| popcorn(path, "Always=on, Death=off");
        assert_eq!(after(popcorn("SharedFX/Dust.pkfx")), []);
        assert_eq!(
            after(popcorn("SharedFX/Dust.mdx")),
            one(Rule::EmitterPath, "chunks[9].CORN.emitters[0].path")
        );
    }

    #[test]
    fn emitters_without_a_texture() {
        let Some(data) = common::corpus_file("mdx/zf_all.mdx") else {
            return;
        };
        let all = Model::from_bytes(&data).unwrap();
        // A particle emitter 2 of zf_all, moved into the clean model.
        let emitter = |texture_id: u32, replaceable_id: u32| {
            let mut emitter = all.particle_emitters2()[0].clone();
            emitter.node = node("Particles", 2);
            emitter.node.tracks.clear();
            emitter.tracks.clear();
            (emitter.texture_id, emitter.replaceable_id) = (texture_id, replaceable_id);
            move |m: &mut Model| {
                m.particle_emitters2_mut().push(emitter);
                m.pivot_points_mut().push([0.0; 3]);
                let mut empty: Texture = m.textures()[0];
                empty.file_name = FixedStr::default();
                m.textures_mut().push(empty);
            }
        };
        assert_eq!(
            after(emitter(1, 0)),
            [
                (
                    Rule::EmptyTexture,
                    "chunks[3].TEXS.textures[1].file_name".to_string()
                ),
                (
                    Rule::EmitterMissingTexture,
                    "chunks[9].PRE2.emitters[0].texture_id".to_string()
                )
            ]
        );
        // The emitter's own replaceable id is its texture.
        assert_eq!(
            after(emitter(1, 2)),
            one(Rule::EmptyTexture, "chunks[3].TEXS.textures[1].file_name")
        );
        // zf_all's ribbons 0 and 2 use material 0, which has no layers
        // (`formats dump`).
        let mut found = rule_paths(validate::sanity(&all));
        found.retain(|(rule, _)| *rule == Rule::EmitterMissingTexture);
        assert_eq!(
            found,
            [
                (
                    Rule::EmitterMissingTexture,
                    "chunks[16].RIBB.emitters[0].material_id".to_string()
                ),
                (
                    Rule::EmitterMissingTexture,
                    "chunks[16].RIBB.emitters[2].material_id".to_string()
                )
            ]
        );
    }

    /// Real models: what `formats dump` shows them to hold (checked by hand:
    /// Hero_Glow's one material uses texture 3 only, TunableKaelSpheres'
    /// tracks run on global sequences 5, 6 and 7 of 8, tm_blob's SKIN uses
    /// slots 1 and 3 of its matrix indices 0 to 4). Keys with the value of
    /// their neighbours (`redundant-key`, an info) are left out where
    /// exporters left many.
    #[test]
    fn real_models_break_map_maker_rules() {
        if common::corpus_root().is_none() {
            return;
        }
        use Rule::*;
        let rules_but = |path: &str, left_out: &[Rule]| -> Vec<Rule> {
            let mut found = rules(path);
            found.retain(|r| !left_out.contains(r));
            found
        };
        // A classic model with a 10185-vertex geoset, two odd names, no
        // Origin Ref, and a texture animation's translation without keys.
        assert_eq!(
            rules_but("mdx/amisd_456.mdx", &[RedundantKey]),
            [
                SequenceName,
                SequenceName,
                GeosetVertexLimit,
                MissingOriginRef,
                EmptyTrack
            ]
        );
        // Reforged HD geosets are not held to the classic limit (10824
        // vertices); Blizzard left two keys at frame 21873 in every track
        // of this one's Death.
        assert_eq!(
            rules_but(
                "mdx/pqw3_HarvestGolem.mdx",
                &[RedundantKey, DuplicateKeyFrame]
            ),
            []
        );
        assert_eq!(rules("mdx/pqw3_HarvestGolem.mdx").len(), 62 * 2);
        assert_eq!(
            rules_but(
                "mdx/tm_TM_DruidBear.mdx",
                &[BoneWithoutVertex, RedundantKey]
            ),
            [SequenceName] // "Walk Slow"
        );
        assert_eq!(
            rules_but("mdx/rms_PackHorse.mdx", &[RedundantKey]),
            // "TempWalk"; GLBS[0] is 0; the alpha of "Decay Flesh" has no
            // key at its start.
            [SequenceName, ZeroLengthGlobalSequence, MissingOpeningKey]
        );
        assert_eq!(
            rules("mdx/pqw3_BossMinimapIcon.mdx"),
            // Stand 4000..4000
            [ZeroLengthSequence, MissingDeathSequence]
        );
        assert_eq!(
            rules("mdx/wowconv_5-high-overlord-saurfang-37192.mdx"),
            [
                AnimationFile,
                MissingDeathSequence,
                MissingOriginRef,
                UnusedTextureAnimation,
                UnusedTextureAnimation
            ]
        );
        assert_eq!(
            rules("mdx/w3mt_Hero_Glow.mdx"),
            [
                MissingStandSequence,
                TrackWithoutSequence,
                UnusedTexture,
                UnusedTexture,
                UnusedTexture
            ]
        );
        assert_eq!(
            rules("mdx/rms_TunableKaelSpheres.mdx"),
            [
                UnusedGlobalSequence,
                UnusedGlobalSequence,
                UnusedGlobalSequence,
                UnusedGlobalSequence,
                UnusedGlobalSequence,
                BoneWithoutVertex
            ]
        );
        assert_eq!(
            rules("mdx/tm_blob.mdx"),
            [
                LightAttenuation,
                RedundantKey,
                RedundantKey,
                RedundantKey,
                RedundantKey,
                RedundantKey,
                BoneWithoutVertex,
                BoneWithoutVertex,
                BoneWithoutVertex
            ]
        );
        // Its third attachment's visibility runs on no sequence, linearly.
        assert_eq!(
            rules("mdx/zf_attachment.mdx"),
            [
                MissingStandSequence,
                AttachmentPath,
                TrackWithoutSequence,
                VisibilityInterpolation
            ]
        );
        assert_eq!(
            rules_but("mdx/zf_particle_emitter.mdx", &[TrackWithoutSequence]),
            [
                MissingStandSequence,
                EmitterPath,
                EmitterPath,
                VisibilityInterpolation
            ]
        );
        // Portraits need neither Stand nor Death, and these have their
        // Portrait and Portrait Talk (their face bones bind no vertex), their
        // Origin Ref, their bind pose and face effect.
        for portrait in [
            "mdx/pqw3_VillagerMaleRich_Portrait.mdx",
            "mdx/pqw3_girl2_portrait.mdx",
        ] {
            let found = rules_but(portrait, &[RedundantKey]);
            assert!(
                found.iter().all(|r| *r == BoneWithoutVertex),
                "{portrait}: {found:?}"
            );
        }
        // Clean of every rule, structure and map makers' alike: a Reforged
        // unit, a classic ship and a spell effect (no Origin Ref in either,
        // nor an Attack, a Walk or a collision shape to say they are units:
        // not reported); an HD doodad but for the Origin Ref (its collision
        // shape makes it selectable), a fountain but for its light (which
        // starts at 0).
        let clean = |path: &str, expected: &[Rule]| {
            let data = common::corpus_file(path).unwrap();
            let model = Model::from_bytes_lenient(&data).unwrap().0;
            assert_eq!(validate::model(&model), [], "{path}");
            assert_eq!(rules(path), expected, "{path}");
        };
        for path in [
            "mdx/risk_HumanBattleship_v1200.mdx",
            "mdx/risk_HumanBattleship_v800.mdx",
            "mdx/pqw3_BlueUnsummon.mdx",
        ] {
            clean(path, &[]);
        }
        clean("mdx/pqw3_Wood-floor-01.mdx", &[MissingOriginRef]);
        clean(
            "mdx/dbz_FountainOfSouls_rev-294411b2.mdx",
            &[LightAttenuation],
        );
    }

    /// A particle emitter 2 (object id 2: after the bone and the origin)
    /// drawing the clean model's texture, that emits as meant.
    fn emitter2() -> ParticleEmitter2 {
        ParticleEmitter2 {
            node: node("Particles", 2),
            speed: 10.0,
            variation: 0.0,
            latitude: 5.0,
            gravity: 0.0,
            lifespan: 1.0,
            emission_rate: 10.0,
            length: 10.0,
            width: 10.0,
            filter_mode: 0,
            rows: 1,
            columns: 1,
            head_or_tail: 0,
            tail_length: 1.0,
            time: 0.5,
            segment_color: [[1.0; 3]; 3],
            segment_alpha: [255; 3],
            segment_scaling: [1.0; 3],
            head_interval: [0, 0, 1],
            head_decay_interval: [0, 0, 1],
            tail_interval: [0, 0, 1],
            tail_decay_interval: [0, 0, 1],
            texture_id: 0,
            squirt: 0,
            priority_plane: 0,
            replaceable_id: 0,
            tracks: Vec::new(),
        }
    }

    /// The clean model with `emitter` (`chunks[9].PRE2.emitters[0]`).
    fn with_emitter2(emitter: ParticleEmitter2) -> impl FnOnce(&mut Model) {
        move |m: &mut Model| {
            m.particle_emitters2_mut().push(emitter);
            m.pivot_points_mut().push([0.0; 3]);
        }
    }

    /// A light (object id 1) attenuating from `start` to `end`.
    fn light(start: f32, end: f32) -> Light {
        Light {
            node: node("Light", 1),
            light_type: LightType::Omni,
            attenuation_start: start,
            attenuation_end: end,
            color: [1.0; 3],
            intensity: 1.0,
            ambient_color: [1.0; 3],
            ambient_intensity: 0.0,
            shadow_intensity: None,
            tracks: Vec::new(),
            tracks_after_chunk: Vec::new(),
        }
    }

    /// The rules of a corpus model's findings whose path starts with `at`.
    fn found_at(path: &str, rule: Rule) -> Vec<String> {
        let data = common::corpus_file(path).unwrap();
        let model = Model::from_bytes_lenient(&data).unwrap().0;
        let found = validate::sanity(&model).into_iter();
        found.filter(|f| f.rule == rule).map(|f| f.path).collect()
    }

    #[test]
    fn textures_with_a_path_and_a_replaceable_id_and_models_without_textures() {
        const TEX: &str = "chunks[3].TEXS.textures[0]";
        assert_eq!(
            after(|m| m.textures_mut()[0].replaceable_id = 1),
            one(Rule::ReplaceableWithPath, &format!("{TEX}.replaceable_id"))
        );
        assert_eq!(
            message(|m| m.textures_mut()[0].replaceable_id = 2),
            "replaceable id 2 and the path \"Textures\\Sample.blp\" together"
        );
        // No textures, with a geoset to draw (its layer's texture 0 is then
        // out of range: a structural error, not this rule's).
        assert_eq!(
            after(|m| m.textures_mut().clear()),
            one(Rule::NoTextures, "chunks[3].TEXS")
        );
        // Models with nothing to draw need none: a helper rig, a test file
        // of lights.
        if common::corpus_root().is_none() {
            return;
        }
        assert_eq!(found_at("mdx/zf_geoset.mdx", Rule::NoTextures), ["TEXS"]);
        assert_eq!(
            found_at("mdx/rms_TunableKaelSpheres.mdx", Rule::NoTextures),
            Vec::<String>::new()
        );
        assert_eq!(
            found_at("mdx/zf_light.mdx", Rule::NoTextures),
            Vec::<String>::new()
        );
    }

    #[test]
    fn shaders_and_filter_modes() {
        const MTL: &str = "chunks[4].MTLS.materials[0]";
        let shader = |version: u32, name: &'static str| {
            move |m: &mut Model| {
                set_version(m, version);
                m.materials_mut()[0].shader = Some(FixedStr::try_from(name).unwrap());
            }
        };
        assert_eq!(
            after(shader(1000, "Shader_HD_Fancy")),
            one(Rule::UnknownShader, &format!("{MTL}.shader"))
        );
        for known in ["", "Shader_SD_FixedFunction", "shader_hd_defaultunit"] {
            assert_eq!(after(shader(1000, known)), [], "{known}");
        }
        let shader_type = |id: u32| {
            move |m: &mut Model| {
                set_version(m, 1100);
                m.materials_mut()[0].layers[0].shader_type_id = Some(id);
            }
        };
        assert_eq!(
            after(shader_type(2)),
            one(
                Rule::UnknownShader,
                &format!("{MTL}.layers[0].shader_type_id")
            )
        );
        assert_eq!(after(shader_type(0)), []);
        let filter = |mode: FilterMode| {
            move |m: &mut Model| m.materials_mut()[0].layers[0].filter_mode = mode
        };
        assert_eq!(
            after(filter(FilterMode::Other(7))),
            one(
                Rule::UnknownFilterMode,
                &format!("{MTL}.layers[0].filter_mode")
            )
        );
        assert_eq!(after(filter(FilterMode::Modulate2x)), []);
        // A particle emitter 2 has modes 0 (blend) to 4 (alpha key).
        let mut alpha_key = emitter2();
        alpha_key.filter_mode = 4;
        assert_eq!(after(with_emitter2(alpha_key)), []);
        let mut beyond = emitter2();
        beyond.filter_mode = 5;
        assert_eq!(
            after(with_emitter2(beyond)),
            one(
                Rule::UnknownFilterMode,
                "chunks[9].PRE2.emitters[0].filter_mode"
            )
        );
    }

    #[test]
    fn geosets_animated_twice_and_bones_hiding_their_geoset() {
        let animation = |alpha: f32| GeosetAnimation {
            alpha,
            color: [1.0; 3],
            ..GeosetAnimation::default()
        };
        // GEOA goes after GEOS (chunks[5]): BONE moves to chunks[7].
        assert_eq!(
            after(|m| m.geoset_animations_mut().push(animation(1.0))),
            []
        );
        assert_eq!(
            after(|m| m
                .geoset_animations_mut()
                .extend([animation(1.0), animation(0.5)])),
            one(
                Rule::GeosetAnimatedTwice,
                "chunks[6].GEOA.animations[1].geoset_id"
            )
        );
        // The sample's bone names geoset 0: with a geoset animation of alpha
        // 0 and no alpha track, the geoset may not show.
        let hiding = |alpha: f32, track: bool| {
            move |m: &mut Model| {
                let mut hidden = animation(alpha);
                if track {
                    let keys = vec![Key::new(0, 1.0f32)];
                    let alpha = Track::new(Interpolation::None, keys);
                    hidden.tracks.push(GeosetAnimationTrack::Alpha(alpha));
                }
                m.geoset_animations_mut().push(hidden);
                m.bones_mut()[0].geoset_animation_id = 0;
            }
        };
        assert_eq!(
            after(hiding(0.0, false)),
            one(
                Rule::InvisibleBoneGeoset,
                "chunks[7].BONE.bones[0].geoset_animation_id"
            )
        );
        assert_eq!(after(hiding(0.0, true)), []);
        assert_eq!(after(hiding(1.0, false)), []);
        if common::corpus_root().is_none() {
            return;
        }
        // zf_all's geoset animations 0 and 1 both name geoset 0.
        assert_eq!(
            found_at("mdx/zf_all.mdx", Rule::GeosetAnimatedTwice),
            ["chunks[8].GEOA.animations[1].geoset_id"]
        );
    }

    #[test]
    fn lights_attenuate_from_80_to_200() {
        let lit = |start: f32, end: f32| {
            move |m: &mut Model| {
                // LITE comes between BONE and ATCH: the light is node 1.
                m.lights_mut().push(light(start, end));
                m.attachments_mut()[0].node.object_id = 2;
                m.pivot_points_mut().push([0.0; 3]);
            }
        };
        assert_eq!(after(lit(80.0, 200.0)), []);
        // LITE goes after BONE (chunks[6]).
        const LIGHT: &str = "chunks[7].LITE.lights[0]";
        assert_eq!(
            after(lit(50.0, 300.0)),
            [
                (Rule::LightAttenuation, format!("{LIGHT}.attenuation_start")),
                (Rule::LightAttenuation, format!("{LIGHT}.attenuation_end"))
            ]
        );
        assert_eq!(
            message(lit(150.0, 100.0)),
            "attenuation ends at 100, not after it starts at 150"
        );
        if common::corpus_root().is_none() {
            return;
        }
        // tm_blob's mouth light starts at 10.
        assert_eq!(
            found_at("mdx/tm_blob.mdx", Rule::LightAttenuation),
            ["chunks[8].LITE.lights[0].attenuation_start"]
        );
    }

    #[test]
    fn a_unit_has_an_origin_attachment_point() {
        // The clean model (Stand, Death) is no unit: it needs no Origin Ref,
        // as the sample, which has no attachment point, does not.
        let sample_rules = rule_paths(validate::sanity(&sample()));
        assert!(
            !sample_rules
                .iter()
                .any(|(r, _)| *r == Rule::MissingOriginRef)
        );
        let rename = |name: &'static str| {
            move |m: &mut Model| m.attachments_mut()[0].node.name.set(name).unwrap()
        };
        assert_eq!(after(rename("Chest Ref")), []);
        // With a Walk it is a unit.
        let unit = |name: &'static str| {
            move |m: &mut Model| {
                let mut walk = m.sequences()[0];
                walk.name.set("Walk").unwrap();
                walk.interval = [4000, 5000];
                m.sequences_mut().push(walk);
                rename(name)(m);
            }
        };
        assert_eq!(after(unit("Origin Ref")), []);
        assert_eq!(after(unit("origin ref 2")), []);
        assert_eq!(after(unit("Origin Reference")), []);
        // Read word by word, as Blizzard's war eagle's `Origin  Ref` is.
        assert_eq!(after(unit("Origin  Ref")), []);
        assert_eq!(
            after(unit("Chest Ref")),
            one(Rule::MissingOriginRef, "chunks[7].ATCH")
        );
        assert_eq!(
            after(unit("OriginRef")),
            one(Rule::MissingOriginRef, "chunks[7].ATCH")
        );
        assert_eq!(
            message(unit("Chest Ref")),
            "no \"Origin Ref\" among the 1 attachment points"
        );
        if common::corpus_root().is_none() {
            return;
        }
        // The cube swings in Stand alone: no unit.
        assert_eq!(
            found_at("mdx/zf_cube.mdx", Rule::MissingOriginRef),
            Vec::<String>::new()
        );
        assert_eq!(
            found_at("mdx/tm_TM_DruidBear.mdx", Rule::MissingOriginRef),
            Vec::<String>::new()
        );
        // Selectable (collision shapes), without sequences to tell: a floor
        // tile, and Saurfang converted from WoW with Stand 1 and Stand 2.
        for path in [
            "mdx/pqw3_Wood-floor-01.mdx",
            "mdx/wowconv_5-high-overlord-saurfang-37192.mdx",
        ] {
            assert_eq!(found_at(path, Rule::MissingOriginRef).len(), 1, "{path}");
        }
    }

    #[test]
    fn particle_emitters_2_that_cannot_emit_as_meant() {
        const PRE2: &str = "chunks[9].PRE2.emitters[0]";
        assert_eq!(after(with_emitter2(emitter2())), []);
        let changed = |edit: fn(&mut ParticleEmitter2)| {
            let mut emitter = emitter2();
            edit(&mut emitter);
            with_emitter2(emitter)
        };
        assert_eq!(
            after(changed(|e| e.node.flags = XY_QUAD)),
            [],
            "an XY quad with speed and latitude"
        );
        assert_eq!(
            after(changed(|e| (e.node.flags, e.latitude) = (XY_QUAD, 0.0))),
            one(Rule::XyQuadWithoutSpeed, &format!("{PRE2}.node.flags"))
        );
        assert_eq!(
            after(changed(|e| (e.node.flags, e.speed) = (XY_QUAD, 0.0))),
            one(Rule::XyQuadWithoutSpeed, &format!("{PRE2}.node.flags"))
        );
        for time in [0.0, 1.0] {
            let mut emitter = emitter2();
            emitter.time = time;
            assert_eq!(after(with_emitter2(emitter)), [], "{time}");
        }
        for time in [-0.5, 1.5, f32::NAN] {
            let mut emitter = emitter2();
            emitter.time = time;
            assert_eq!(
                after(with_emitter2(emitter)),
                one(Rule::EmitterTimeMiddle, &format!("{PRE2}.time")),
                "{time}"
            );
        }
        assert_eq!(
            after(changed(|e| e.squirt = 1)),
            one(Rule::SquirtWithoutTrack, &format!("{PRE2}.squirt"))
        );
        assert_eq!(
            after(changed(|e| {
                e.squirt = 1;
                let burst = Track::new(Interpolation::None, vec![Key::new(0, 20.0f32)]);
                e.tracks.push(ParticleEmitter2Track::EmissionRate(burst));
            })),
            []
        );
        assert_eq!(after(changed(|e| e.replaceable_id = 2)), []);
        assert_eq!(
            after(changed(|e| e.replaceable_id = 3)),
            one(Rule::ReplaceableId, &format!("{PRE2}.replaceable_id"))
        );
        if common::corpus_root().is_none() {
            return;
        }
        // Found where mdx-m3-viewer finds them: Tank-Shell-Silver's
        // "Undershade" (speed and latitude 0), zf_particle_emitter2's
        // "values" (time middle 11.23, squirt, replaceable id 10).
        assert_eq!(
            found_at("mdx/risk_Tank-Shell-Silver.mdx", Rule::XyQuadWithoutSpeed),
            ["chunks[11].PRE2.emitters[6].node.flags"]
        );
        const VALUES: &str = "chunks[5].PRE2.emitters[1]";
        for (rule, field) in [
            (Rule::EmitterTimeMiddle, "time"),
            (Rule::SquirtWithoutTrack, "squirt"),
            (Rule::ReplaceableId, "replaceable_id"),
        ] {
            assert_eq!(
                found_at("mdx/zf_particle_emitter2.mdx", rule),
                [format!("{VALUES}.{field}")]
            );
        }
    }

    #[test]
    fn popcorn_emitters_need_their_visibility_guide() {
        let popcorn = |guide| popcorn("SharedFX/Dust.pkfx", guide);
        assert_eq!(after(popcorn("Always=off, Death=on")), []);
        assert_eq!(
            after(popcorn("")),
            one(
                Rule::PopcornWithoutGuide,
                "chunks[9].CORN.emitters[0].flags"
            )
        );
    }

    #[test]
    fn event_objects_fire() {
        let event = |frames: Option<Vec<u32>>| {
            move |m: &mut Model| {
                m.event_objects_mut().push(EventObject {
                    node: node("SNDxDTHE", 2),
                    track: frames.map(|tracks| EventTrack {
                        tracks_count: Default::default(),
                        global_sequence_id: -1,
                        tracks,
                    }),
                });
                m.pivot_points_mut().push([0.0; 3]);
            }
        };
        assert_eq!(after(event(Some(vec![2100]))), []);
        // EVTS goes after PIVT (chunks[8]).
        assert_eq!(
            after(event(None)),
            one(Rule::EventWithoutKeys, "chunks[9].EVTS.objects[0]")
        );
        assert_eq!(
            after(event(Some(Vec::new()))),
            one(Rule::EventWithoutKeys, "chunks[9].EVTS.objects[0].track")
        );
        if common::corpus_root().is_none() {
            return;
        }
        assert_eq!(
            found_at("mdx/zf_eventobj.mdx", Rule::EventWithoutKeys),
            ["chunks[5].EVTS.objects[0].track"]
        );
    }

    #[test]
    fn tracks_map_makers_fix() {
        const TRACK: &str = "chunks[6].BONE.bones[0].node.tracks[0].Translation";
        // The sample's bone rises from 0 (frame 0) to 0.5 (500) and back to 0
        // (1000) in Stand (0..1000), linearly.
        assert_eq!(
            after(|m| bone_keys(m).clear()),
            one(Rule::EmptyTrack, TRACK)
        );
        assert_eq!(
            after(|m| m.sequences_mut().clear())
                .into_iter()
                .filter(|(rule, _)| *rule == Rule::TrackWithoutSequence)
                .collect::<Vec<_>>(),
            one(
                Rule::TrackWithoutSequence,
                &format!("{TRACK}.global_sequence_id")
            )
        );
        assert_eq!(
            after(|m| bone_keys(m)[1].frame = 0),
            one(Rule::DuplicateKeyFrame, &format!("{TRACK}.keys[1]"))
        );
        // No key at 0 where Stand starts, the first (0.5 at 500) and last
        // (0.25 at 1000) differing: the value at 0 comes from before.
        let late = |last: f32| {
            move |m: &mut Model| {
                bone_keys(m).remove(0);
                bone_keys(m)[1].value[2] = last;
            }
        };
        assert_eq!(after(late(0.25)), one(Rule::MissingOpeningKey, TRACK));
        assert_eq!(after(late(0.5)), [], "first and last alike");
        assert_eq!(
            after(|m| {
                late(0.25)(m);
                bone_track(m).interpolation_type = Interpolation::None;
            }),
            [],
            "stepped: nothing to interpolate"
        );
        // A key with the value of its neighbours (within 0.001).
        assert_eq!(
            after(|m| bone_keys(m)[1].value[2] = 0.0009),
            one(Rule::RedundantKey, &format!("{TRACK}.keys[1]"))
        );
        assert_eq!(after(|m| bone_keys(m)[1].value[2] = 0.002), []);
        // Visibility steps: an attachment's visibility track that interpolates.
        let visibility = |interpolation: Interpolation| {
            move |m: &mut Model| {
                let keys = vec![Key::new(0, 1.0f32), Key::new(500, 0.0)];
                let track = Track::new(interpolation, keys);
                m.attachments_mut()[0]
                    .tracks
                    .push(AttachmentTrack::Visibility(track));
            }
        };
        assert_eq!(after(visibility(Interpolation::None)), []);
        assert_eq!(
            after(visibility(Interpolation::Linear)),
            one(
                Rule::VisibilityInterpolation,
                "chunks[7].ATCH.attachments[0].tracks[0].Visibility.interpolation_type"
            )
        );
        // Magos does not read a particle emitter 2's gravity or variation track.
        let mut falling = emitter2();
        let gravity = Track::new(Interpolation::None, vec![Key::new(0, 10.0f32)]);
        falling.tracks.push(ParticleEmitter2Track::Gravity(gravity));
        assert_eq!(
            after(with_emitter2(falling)),
            one(
                Rule::MagosEmitterTrack,
                "chunks[9].PRE2.emitters[0].tracks[0].Gravity"
            )
        );
        if common::corpus_root().is_none() {
            return;
        }
        // Where mdx-m3-viewer finds them: Blizzard's Dock_Stairs fades 7
        // materials in "Stand Hit 1" from frame 400, not 367; tm_blob's
        // bones hold still over three keys; amisd_456's texture animation
        // has a translation track without keys; zf_all's light 1 has two
        // keys at frame 220.
        let opening = found_at(
            "mdx/pqw3_Dock_Stairs_Small_Steep.mdx",
            Rule::MissingOpeningKey,
        );
        assert_eq!(opening.len(), 7);
        assert_eq!(
            opening[0],
            "chunks[3].MTLS.materials[2].layers[0].tracks[0].Alpha"
        );
        assert_eq!(found_at("mdx/tm_blob.mdx", Rule::RedundantKey).len(), 5);
        assert_eq!(
            found_at("mdx/amisd_456.mdx", Rule::EmptyTrack),
            ["chunks[5].TXAN.animations[0].tracks[0].Translation"]
        );
        assert_eq!(
            found_at("mdx/zf_all.mdx", Rule::DuplicateKeyFrame),
            ["chunks[10].LITE.lights[1].tracks[1].AttenuationEnd.keys[1]"]
        );
    }

    #[test]
    fn face_effects_and_the_bind_pose() {
        let reforged = |m: &mut Model| set_version(m, 1000);
        let face = |path: &'static str| {
            move |m: &mut Model| {
                reforged(m);
                m.face_effects_mut().push(FaceEffect {
                    target: FixedStr::try_from("Node").unwrap(),
                    path: FixedStr::try_from(path).unwrap(),
                });
            }
        };
        assert_eq!(after(face("Units/Critters/Kid/Kid.facefx")), []);
        assert_eq!(after(face("Units/Critters/Kid/Kid.FaceFX_ingame")), []);
        // FAFX goes after PIVT (chunks[8]).
        assert_eq!(
            after(face("Units/Critters/Kid/Kid.mdx")),
            one(Rule::FaceEffectPath, "chunks[9].FAFX.face_effects[0].path")
        );
        // One matrix per node (the bone and the origin), then per camera.
        let matrices = |count: usize| {
            move |m: &mut Model| {
                reforged(m);
                m.bind_poses_mut().extend(vec![[0.0; 12]; count]);
            }
        };
        assert_eq!(after(matrices(2)), []);
        assert_eq!(
            after(matrices(3)),
            one(Rule::BindPoseCount, "chunks[9].BPOS.bind_pose")
        );
        assert_eq!(
            message(matrices(1)),
            "1 matrix for 2 nodes and 0 cameras (one each)"
        );
        if common::corpus_root().is_none() {
            return;
        }
        // Blizzard's portraits: 155 matrices for 154 nodes and a camera,
        // and a face effect each.
        for portrait in [
            "mdx/pqw3_VillagerMaleRich_Portrait.mdx",
            "mdx/pqw3_girl2_portrait.mdx",
        ] {
            for rule in [Rule::BindPoseCount, Rule::FaceEffectPath] {
                assert_eq!(found_at(portrait, rule), Vec::<String>::new(), "{portrait}");
            }
        }
    }

    #[test]
    fn a_file_cut_short_is_a_structural_error() {
        let mut data = formats::sample::sample_mdx();
        data.truncate(data.len() - 5);
        let (model, _) = Model::from_bytes_lenient(&data).unwrap();
        let findings = validate::model(&model);
        let cut = findings.iter().find(|f| f.rule == Rule::CutChunk).unwrap();
        assert_eq!(cut.path, "chunks[7].PIVT");
        assert_eq!(
            cut.message,
            "the file ends inside this chunk: 5 of its 12 bytes are missing"
        );
        assert_eq!(cut.severity(), Severity::Error);
    }
}

/// A rule's severity as the table writes it: `error`, or where Reforged
/// models are graded otherwise `error (Reforged: none)` (none: not
/// reported).
fn severity_cell(rule: Rule) -> String {
    let classic = rule.severity();
    match rule.severity_in(Family::Reforged) {
        Some(reforged) if reforged == classic => classic.to_string(),
        reforged => {
            let reforged = reforged.map_or("none", Severity::name);
            format!("{classic} (Reforged: {reforged})")
        }
    }
}

/// Every rule, by id and severity cell, in the order of `Rule::ALL`.
fn every_rule() -> Vec<(String, String)> {
    Rule::ALL
        .iter()
        .map(|r| (r.id().to_string(), severity_cell(*r)))
        .collect()
}

#[test]
fn every_rule_has_a_unique_id_and_is_documented_in_the_module_and_sweep_tables() {
    let ids: std::collections::HashSet<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(ids.len(), Rule::ALL.len());
    for rule in Rule::ALL {
        assert_eq!(Rule::from_id(rule.id()), Some(*rule));
        assert!(!rule.what().is_empty() && !rule.why().is_empty() && !rule.category().is_empty());
        // serde (`--json`) names a rule by its id.
        assert_eq!(serde_json::to_value(rule).unwrap(), rule.id());
    }
    let severities = |text: &str| -> Vec<(String, String)> {
        let rows = documented_rules(text).into_iter();
        rows.map(|(id, severity, _)| (id, severity)).collect()
    };
    assert_eq!(severities(DOCS), every_rule());
    // docs/sweeps.md counts how often each rule fires on the public sets.
    let sweeps = include_str!("../../../docs/sweeps.md");
    let listed: Vec<String> = documented_rules(sweeps)
        .into_iter()
        .map(|(id, ..)| id)
        .collect();
    let ids: Vec<String> = every_rule().into_iter().map(|(id, _)| id).collect();
    assert_eq!(listed, ids);
}

/// Whether `ours` (`None`: not reported) grades as mdx-m3-viewer's `grades`
/// map here: its errors are errors, its severe findings errors or warnings,
/// its warnings warnings, its unused infos, and where it reports nothing we
/// report nothing.
pub(crate) fn as_the_viewer(ours: Option<Severity>, grades: &[String]) -> bool {
    let Some(ours) = ours else {
        return grades.is_empty();
    };
    !grades.is_empty()
        && grades.iter().all(|grade| match grade.as_str() {
            "error" => ours == Severity::Error,
            "severe" => ours != Severity::Info,
            "warning" => ours == Severity::Warning,
            "unused" => ours == Severity::Info,
            other => panic!("no grade of mdx-m3-viewer's: {other}"),
        })
}

/// Each rule graded otherwise than [`as_the_viewer`] allows, in a model of
/// one of the versions Reforged reads (900 too), is listed (and why) under
/// the module docs' "Where a severity differs otherwise"; each rule listed
/// there is.
#[test]
fn severities_are_mdx_m3_viewers_or_the_docs_say_why() {
    let differ: Vec<&str> = Rule::ALL
        .iter()
        .filter(|rule| {
            [800, 900, 1000, 1100, 1200].iter().any(|&version| {
                let ours = rule.severity_in(Family::of(version));
                viewer_grades(**rule, version).is_some_and(|grades| !as_the_viewer(ours, &grades))
            })
        })
        .map(|rule| rule.id())
        .collect();
    let list = DOCS
        .split("//! otherwise, and why:\n//!\n")
        .nth(1)
        .unwrap()
        .split("\n//!\n")
        .next()
        .unwrap();
    let listed: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_prefix("//! - `")?.split('`').next())
        .collect();
    assert_eq!(differ, listed);
    // The viewer's grades in a few versions, as the column says them.
    let grades = |rule: Rule, version: u32| viewer_grades(rule, version);
    assert_eq!(
        grades(Rule::SequenceOrder, 800),
        Some(vec!["severe".into()])
    );
    assert_eq!(grades(Rule::SequenceOrder, 1000), Some(vec![]));
    assert_eq!(
        grades(Rule::UnsupportedVersion, 900),
        Some(vec!["error".into()])
    );
    assert_eq!(
        grades(Rule::UnsupportedVersion, 1100),
        Some(vec!["warning".into()])
    );
    assert_eq!(grades(Rule::ObjectIds, 800), None);
}

/// Each rule has a test that breaks it on a real or built model: it is named
/// here (`Rule::Name`, or `Name` under `use Rule::*`), or for the extents in
/// `bounds.rs`. A new rule without a test fails this.
#[test]
fn every_rule_is_named_by_a_test() {
    let tests = [include_str!("rules.rs"), include_str!("../anim/bounds.rs")].concat();
    let words: std::collections::HashSet<&str> =
        tests.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    for rule in Rule::ALL {
        assert!(
            words.contains(format!("{rule:?}").as_str()),
            "{rule:?} has no test"
        );
    }
}
