//! `formats::validate`: each rule triggered by a model or tile broken on
//! purpose, and the findings real corpus files have (checked by hand against
//! `formats dump`/`formats info`).

mod common;

use formats::adt::Adt;
use formats::adt::mcnk::McnkChunk;
use formats::mdx::{Key, Model, NodeTrack};
use formats::validate::{self, Finding, Rule};

fn sample() -> Model {
    Model::from_bytes(&formats::sample::sample_mdx()).unwrap()
}

/// The findings of `model` after `edit`, as (rule, path) pairs.
fn after(edit: impl FnOnce(&mut Model)) -> Vec<(Rule, String)> {
    let mut model = sample();
    edit(&mut model);
    validate::model(&model)
        .into_iter()
        .map(|f| (f.rule, f.path))
        .collect()
}

fn one(rule: Rule, path: &str) -> Vec<(Rule, String)> {
    vec![(rule, path.to_string())]
}

fn bone_keys(model: &mut Model) -> &mut Vec<Key<[f32; 3]>> {
    match &mut model.bones_mut()[0].node.tracks[0] {
        NodeTrack::Translation(track) => &mut track.keys,
        other => panic!("the sample's bone track is a translation, not {other:?}"),
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
    let gs = after(|m| match &mut m.bones_mut()[0].node.tracks[0] {
        NodeTrack::Translation(track) => track.global_sequence_id = 0,
        _ => unreachable!(),
    });
    assert_eq!(
        gs,
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
        match &mut m.bones_mut()[0].node.tracks[0] {
            NodeTrack::Translation(track) => track.global_sequence_id = 0,
            _ => unreachable!(),
        }
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
        one(Rule::SequenceOrder, SEQS)
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
    let Some(root) = common::corpus_root() else {
        return;
    };
    let mut clean = 0;
    let files = common::files_in(&root, "mdx", ".mdx");
    for path in &files {
        let data = std::fs::read(root.join(path)).unwrap();
        let Ok((model, _)) = Model::from_bytes_lenient(&data) else {
            continue; // the WoW alpha model until issue 8
        };
        clean += usize::from(validate::model(&model).is_empty());
    }
    assert!(clean >= 25, "{clean} of {} models are clean", files.len());
}

#[test]
fn every_corpus_tile_is_consistent() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    for path in common::files_in(&root, "adt", ".adt") {
        let tile = Adt::from_bytes(&std::fs::read(root.join(&path)).unwrap()).unwrap();
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
    let findings: Vec<(Rule, String)> = validate::tile(&tile)
        .into_iter()
        .map(|f| (f.rule, f.path))
        .collect();
    let mcrf = findings
        .iter()
        .find(|(rule, _)| *rule == Rule::McrfReference)
        .unwrap();
    assert!(mcrf.1.starts_with("[14].MCNK.chunks["), "{findings:?}");
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
    assert_eq!(findings[0].1, "[5].MMID.offsets[1]");
    assert_eq!(findings[1].1, "[7].MWID.offsets[2]");
    assert_eq!(findings[2].1, "[8].MDDF.doodad_defs[0].name_id");
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
    let found: Vec<(Rule, String)> = validate::model(&model)
        .into_iter()
        .map(|f| (f.rule, f.path))
        .collect();
    assert!(
        found.contains(&(Rule::PivotCount, "chunks[9].PIVT".into())),
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
