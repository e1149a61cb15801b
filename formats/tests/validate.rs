//! `formats::validate`: each rule triggered by a model or tile broken on
//! purpose, and the findings real corpus files have (checked by hand against
//! `formats dump`/`formats info`).

mod common;

use formats::adt::Adt;
use formats::adt::mcnk::McnkChunk;
use formats::mdx::{Interpolation, Key, LayerTrack, Model, NodeTrack, TextureEntry, Track};
use formats::validate::{self, Finding, Rule};

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
    let found = rule_paths(validate::model(&model));
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

// The map makers' checks (`validate::sanity`): each rule triggered by a
// built model, silent on the clean one, and found (or not) in real models.

mod sanity {
    use super::*;
    use formats::core::FixedStr;
    use formats::mdx::{Attachment, Chunk, CornEmitter, Node, ParticleEmitter, Texture};
    use formats::validate::Severity;

    /// The sample with a Death sequence (it has Stand and Birth): clean of
    /// every rule.
    fn clean() -> Model {
        let mut model = sample();
        model.sequences_mut()[1].name.set("Death").unwrap();
        model
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

    fn set_version(model: &mut Model, version: u32) {
        for chunk in &mut model.chunks {
            if let Chunk::Version(v) = chunk {
                v.version = version;
            }
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
        // The sample itself is no unit: no Death.
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
        assert_eq!(
            message(|m| m.sequences_mut().clear()),
            "no sequences at all: the model stands still in its bind pose"
        );
        assert_eq!(
            after(rename(1, "Decay")),
            one(Rule::MissingDeathSequence, SEQS)
        );
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
                m.pivot_points_mut().push([0.0; 3]);
            }),
            one(Rule::BoneWithoutVertex, "chunks[6].BONE.bones[1]")
        );
    }

    #[test]
    fn attachments_and_emitters() {
        let attach = |path: &'static str| {
            move |m: &mut Model| {
                m.attachments_mut().push(Attachment {
                    node: node("Origin Ref", 1),
                    path: FixedStr::try_from(path).unwrap(),
                    attachment_id: 0,
                    tracks: Vec::new(),
                });
                m.pivot_points_mut().push([0.0; 3]);
            }
        };
        assert_eq!(after(attach("")), []);
        assert_eq!(after(attach("Abilities\\Spells\\Aura.mdx")), []);
        // ATCH goes after BONE (chunks[6]) and before PIVT.
        assert_eq!(
            after(attach("Textures\\Aura.blp")),
            one(Rule::AttachmentPath, "chunks[7].ATCH.attachments[0].path")
        );
        let spawn = |path: &'static str| {
            move |m: &mut Model| {
                m.particle_emitters_mut().push(ParticleEmitter {
                    node: node("Spawner", 1),
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
                "chunks[8].PREM.emitters[0].spawn_model_file_name"
            )
        );
        let popcorn = |path: &'static str| {
            move |m: &mut Model| {
                set_version(m, 1000);
                m.corn_emitters_mut().push(CornEmitter {
                    node: node("Popcorn", 1),
                    life_span: 1.0,
                    emission_rate: 1.0,
                    speed: 1.0,
                    color: [1.0; 3],
                    alpha: 1.0,
                    replaceable_id: 0,
                    path: FixedStr::try_from(path).unwrap(),
                    flags: FixedStr::default(),
                    tracks: Vec::new(),
                });
                m.pivot_points_mut().push([0.0; 3]);
            }
        };
        assert_eq!(after(popcorn("SharedFX/Dust.pkfx")), []);
        assert_eq!(
            after(popcorn("SharedFX/Dust.mdx")),
            one(Rule::EmitterPath, "chunks[8].CORN.emitters[0].path")
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
            emitter.node = node("Particles", 1);
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
                    "chunks[8].PRE2.emitters[0].texture_id".to_string()
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
    /// slots 1 and 3 of its matrix indices 0 to 4).
    #[test]
    fn real_models_break_map_maker_rules() {
        if common::corpus_root().is_none() {
            return;
        }
        use Rule::*;
        // A classic model with a 10185-vertex geoset, and two odd names.
        assert_eq!(
            rules("mdx/amisd_456.mdx"),
            [SequenceName, SequenceName, GeosetVertexLimit]
        );
        // Reforged HD geosets are not held to the classic limit (10824 vertices).
        assert_eq!(rules("mdx/pqw3_HarvestGolem.mdx"), []);
        assert_eq!(
            rules("mdx/tm_TM_DruidBear.mdx")
                .iter()
                .filter(|r| **r != BoneWithoutVertex)
                .collect::<Vec<_>>(),
            [&SequenceName] // "Walk Slow"
        );
        assert_eq!(
            rules("mdx/rms_PackHorse.mdx"),
            [SequenceName, ZeroLengthGlobalSequence] // "TempWalk"; GLBS[0] is 0
        );
        assert_eq!(
            rules("mdx/pqw3_BossMinimapIcon.mdx"),
            [ZeroLengthSequence, MissingDeathSequence] // Stand 4000..4000
        );
        assert_eq!(
            rules("mdx/wowconv_5-high-overlord-saurfang-37192.mdx"),
            [
                AnimationFile,
                MissingDeathSequence,
                UnusedTextureAnimation,
                UnusedTextureAnimation
            ]
        );
        assert_eq!(
            rules("mdx/w3mt_Hero_Glow.mdx"),
            [
                MissingStandSequence,
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
            [BoneWithoutVertex, BoneWithoutVertex, BoneWithoutVertex]
        );
        assert_eq!(
            rules("mdx/zf_attachment.mdx"),
            [MissingStandSequence, AttachmentPath]
        );
        assert_eq!(
            rules("mdx/zf_particle_emitter.mdx"),
            [MissingStandSequence, EmitterPath, EmitterPath]
        );
        // Portraits need neither Stand nor Death, and these have their
        // Portrait and Portrait Talk (their face bones bind no vertex).
        for portrait in [
            "mdx/pqw3_VillagerMaleRich_Portrait.mdx",
            "mdx/pqw3_girl2_portrait.mdx",
        ] {
            let found = rules(portrait);
            assert!(
                found.iter().all(|r| *r == BoneWithoutVertex),
                "{portrait}: {found:?}"
            );
        }
        // Clean of every rule, structure and map makers' alike: a classic
        // and a Reforged unit, an HD doodad, a spell effect.
        for clean in [
            "mdx/risk_HumanBattleship_v800.mdx",
            "mdx/risk_HumanBattleship_v1200.mdx",
            "mdx/pqw3_Wood-floor-01.mdx",
            "mdx/pqw3_BlueUnsummon.mdx",
            "mdx/dbz_FountainOfSouls_rev-294411b2.mdx",
        ] {
            let data = common::corpus_file(clean).unwrap();
            let model = Model::from_bytes_lenient(&data).unwrap().0;
            assert_eq!(validate::model(&model), [], "{clean}");
            assert_eq!(validate::sanity(&model), [], "{clean}");
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

/// The rows `| \`id\` | severity | ...` of the markdown table in `text`.
fn documented_rules(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|l| l.trim_start_matches("//!").trim())
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let id = cells.first()?.strip_prefix('`')?.strip_suffix('`')?;
            Some((id.to_string(), cells.get(1)?.to_string()))
        })
        // A rule id, or what looks like one (a typo must not slip through).
        .filter(|(id, _)| {
            id.contains('-') && id.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        })
        .collect()
}

/// Every rule, by id and severity, in the order of `Rule::ALL`.
fn every_rule() -> Vec<(String, String)> {
    Rule::ALL
        .iter()
        .map(|r| (r.id().to_string(), r.severity().to_string()))
        .collect()
}

#[test]
fn every_rule_has_a_unique_id_and_is_documented_in_the_module_and_readme_tables() {
    let ids: std::collections::HashSet<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(ids.len(), Rule::ALL.len());
    for rule in Rule::ALL {
        assert_eq!(Rule::from_id(rule.id()), Some(*rule));
        assert!(!rule.what().is_empty() && !rule.why().is_empty() && !rule.category().is_empty());
        // serde (`--json`) names a rule by its id.
        assert_eq!(serde_json::to_value(rule).unwrap(), rule.id());
    }
    let docs = include_str!("../src/validate/mod.rs");
    assert_eq!(documented_rules(docs), every_rule());
    let readme = include_str!("../../README.md");
    assert_eq!(documented_rules(readme), every_rule());
}

/// Each rule has a test that breaks it on a real or built model: it is named
/// here (`Rule::Name`, or `Name` under `use Rule::*`), or for the extents in
/// `bounds.rs`. A new rule without a test fails this.
#[test]
fn every_rule_is_named_by_a_test() {
    let tests = [include_str!("validate.rs"), include_str!("bounds.rs")].concat();
    let words: std::collections::HashSet<&str> =
        tests.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    for rule in Rule::ALL {
        assert!(
            words.contains(format!("{rule:?}").as_str()),
            "{rule:?} has no test"
        );
    }
}
