//! The WoW alpha model of the corpus (`wowalpha_Boar.mdx`, v1300): byte-exact
//! round trip, object counts against `MDX_VERSIONS.md` §6.2, every rotation
//! key a unit quaternion, and strict errors on damaged copies.

mod common;

use format_core::ErrorKind;
use formats::mdx::alpha::{self, GenObjectTrack, GeomShape};
use formats::mdx::{Chunk, Model};

const BOAR: &str = "mdx/wowalpha_Boar.mdx";

fn boar() -> Option<(Vec<u8>, Model)> {
    let bytes = common::corpus_file(BOAR)?;
    let model = Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("{BOAR}: {e}"));
    Some((bytes, model))
}

#[test]
fn boar_round_trips_byte_exact_with_every_chunk_typed() {
    let Some((bytes, model)) = boar() else { return };
    assert_eq!(model.version(), 1300);
    assert_eq!(model.unknown_chunks().count(), 0, "every chunk is typed");
    let tags: Vec<String> = model
        .chunks
        .iter()
        .map(|c| match c {
            Chunk::Version(_) => "VERS",
            Chunk::AlphaModel(_) => "MODL",
            Chunk::AlphaSequences(_) => "SEQS",
            Chunk::AlphaMaterials(_) => "MTLS",
            Chunk::Textures(_) => "TEXS",
            Chunk::AlphaGeosets(_) => "GEOS",
            Chunk::AlphaBones(_) => "BONE",
            Chunk::AlphaHelpers(_) => "HELP",
            Chunk::AlphaAttachments(_) => "ATCH",
            Chunk::PivotPoints(_) => "PIVT",
            Chunk::AlphaCameras(_) => "CAMS",
            Chunk::AlphaEvents(_) => "EVTS",
            Chunk::AlphaHitTestShapes(_) => "HTST",
            Chunk::AlphaCollision(_) => "CLID",
            other => panic!("unexpected chunk {other:?}"),
        })
        .map(String::from)
        .collect();
    assert_eq!(
        tags.join(" "),
        "VERS MODL SEQS MTLS TEXS GEOS BONE HELP ATCH PIVT CAMS EVTS HTST CLID",
        "the manifest's chunk list"
    );
    let written = model.to_bytes().expect("Boar writes");
    assert!(written == bytes, "Boar is not byte-exact");
    assert_eq!(Model::from_bytes(&written).expect("rereads"), model);
}

/// The counts and values `MDX_VERSIONS.md` §6.2 gives for Boar.
#[test]
fn boar_counts_match_the_spec_addendum() {
    let Some((_, model)) = boar() else { return };
    let modl = model.alpha_model_chunk().expect("MODL");
    assert_eq!(modl.flags, 0);
    assert_eq!(modl.blend_time, 0x3901);
    assert_eq!(model.alpha_sequences().len(), 10);
    let materials = model.alpha_materials();
    assert_eq!(materials.len(), 2);
    for material in materials {
        assert_eq!(material.tex_layers.len(), 1);
        assert!(material.tex_layers[0].tracks.is_empty());
    }
    let Some(Chunk::AlphaMaterials(mtls)) = chunk(&model, "MTLS") else {
        panic!("MTLS")
    };
    assert_eq!(mtls.unused, 0);
    assert_eq!(model.textures().len(), 1);
    assert_eq!(model.textures()[0].replaceable_id, 11);
    let geosets = model.alpha_geosets();
    assert_eq!(geosets.len(), 2);
    for geoset in geosets {
        let n = geoset.vertices.len();
        assert!(n > 0);
        assert_eq!(geoset.normals.len(), n);
        assert_eq!(geoset.vert_group_indices.len(), n);
        assert_eq!(geoset.bone_indices.len(), n);
        assert_eq!(geoset.bone_weights.len(), n);
        assert_eq!(geoset.tex_coords.len(), geoset.uv_set_count as usize * n);
        assert!(geoset.primitive_types.iter().all(|t| *t == 4));
        for weights in &geoset.bone_weights {
            let sum: u32 = weights.to_le_bytes().iter().map(|b| u32::from(*b)).sum();
            assert_eq!(sum, 255, "BWGT packs 4 weights summing to 255");
        }
    }
    assert_eq!(model.alpha_bones().len(), 26);
    assert_eq!(model.alpha_helpers().len(), 4);
    let attachments = model.alpha_attachments();
    assert_eq!(attachments.len(), 9);
    assert!(attachments.iter().all(|a| a.padding == 0xFF));
    let Some(Chunk::AlphaAttachments(atch)) = chunk(&model, "ATCH") else {
        panic!("ATCH")
    };
    assert_eq!(atch.unused, 34);
    assert_eq!(model.pivot_points().len(), 57);
    assert_eq!(model.alpha_cameras().len(), 1);
    let events = model.alpha_events();
    assert_eq!(events.len(), 17);
    assert_eq!(events.iter().filter(|e| e.event_keys.is_some()).count(), 15);
    let shapes = model.alpha_hit_test_shapes();
    assert_eq!(shapes.len(), 1);
    assert_eq!(shapes[0].shape_type, GeomShape::Box);
    assert!(shapes[0].box_.is_some());
    let Some(Chunk::AlphaCollision(clid)) = chunk(&model, "CLID") else {
        panic!("CLID")
    };
    assert_eq!(
        (
            clid.vertices.len(),
            clid.tri_indices.len(),
            clid.facet_normals.len()
        ),
        (8, 36, 12)
    );
    // 26 bones + 4 helpers + 9 attachments + 17 events + 1 shape, one pivot each.
    let objects = model.alpha_bones().len()
        + model.alpha_helpers().len()
        + attachments.len()
        + events.len()
        + shapes.len();
    assert_eq!(objects, model.pivot_points().len());
}

fn chunk<'a>(model: &'a Model, tag: &str) -> Option<&'a Chunk> {
    model.chunks.iter().find(|c| {
        matches!(
            (c, tag),
            (Chunk::AlphaMaterials(_), "MTLS")
                | (Chunk::AlphaAttachments(_), "ATCH")
                | (Chunk::AlphaCollision(_), "CLID")
        )
    })
}

/// Every `MDLGENOBJECT` of the model, whatever chunk holds it.
fn gen_objects(model: &Model) -> Vec<&alpha::GenObject> {
    let mut objects: Vec<&alpha::GenObject> = Vec::new();
    objects.extend(model.alpha_bones().iter().map(|b| &b.object));
    objects.extend(model.alpha_helpers());
    objects.extend(model.alpha_attachments().iter().map(|a| &a.object));
    objects.extend(model.alpha_events().iter().map(|e| &e.object));
    objects.extend(model.alpha_hit_test_shapes().iter().map(|s| &s.object));
    objects
}

#[test]
fn boar_rotation_keys_decode_to_unit_quaternions() {
    let Some((_, model)) = boar() else { return };
    let mut keys = 0;
    let mut interpolations = std::collections::BTreeSet::new();
    for object in gen_objects(&model) {
        for track in &object.tracks {
            let GenObjectTrack::Rotation(track) = track else {
                continue;
            };
            interpolations.insert(format!("{:?}", track.interpolation_type));
            for key in &track.keys {
                let values = [Some(key.value), key.in_tan, key.out_tan];
                for value in values.into_iter().flatten() {
                    let q = value.to_quaternion();
                    let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt();
                    assert!(
                        (norm - 1.0).abs() <= 1e-3,
                        "{}: key at {} is {q:?} (|q| = {norm})",
                        object.name.to_string_lossy(),
                        key.frame
                    );
                    // The raw value comes back from the decoded quaternion.
                    assert_eq!(
                        alpha::CompressedQuaternion::from_quaternion(q),
                        value,
                        "{:#x}",
                        value.m_data
                    );
                    keys += 1;
                }
            }
        }
    }
    println!("{keys} rotation keys, interpolations {interpolations:?}");
    assert_eq!(keys, 8478, "MDX_VERSIONS.md §6.1 counts 8 478 KGRT keys");
}

/// A copy cut short at every chunk boundary and inside the geosets fails with
/// an error that names an offset inside the file and a path of fields.
#[test]
fn truncated_boar_is_a_strict_error_with_offset_and_path() {
    let Some((bytes, _)) = boar() else { return };
    // Inside GEOS (VERS 12 + MODL 381 + SEQS 1412 + MTLS 96 + TEXS 276 bytes, after "MDLX").
    let geos = 4 + 12 + 381 + 1412 + 96 + 276;
    assert_eq!(&bytes[geos..geos + 4], b"GEOS");
    let cut = &bytes[..geos + 5000];
    let error = Model::from_bytes(cut).expect_err("a truncated Boar is an error");
    assert_eq!(error.path_string(), "chunks[5].GEOS", "{error}");
    assert_eq!(error.offset(), geos + 4, "the GEOS size: {error}");
    assert!(
        matches!(error.kind(), ErrorKind::SizeExceedsData { .. }),
        "{error}"
    );
    // The first geoset's vertex count made too large: refused before allocating.
    let mut damaged = bytes.clone();
    let vrtx = geos + 16;
    assert_eq!(&bytes[vrtx..vrtx + 4], b"VRTX");
    damaged[vrtx + 4..vrtx + 8].copy_from_slice(&0x1000_0000_u32.to_le_bytes());
    let error = Model::from_bytes(&damaged).expect_err("a damaged Boar is an error");
    assert_eq!(
        error.path_string(),
        "chunks[5].GEOS.geosets[0].vertices",
        "{error}"
    );
    assert!(error.to_string().contains("count 268435456"), "{error}");
    // A damaged count: the first bone's inclusive size made too large.
    let mut damaged = bytes.clone();
    let bone = find(&bytes, b"BONE");
    damaged[bone + 12..bone + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = Model::from_bytes(&damaged).expect_err("a damaged Boar is an error");
    assert!(
        error.path_string().starts_with("chunks[6].BONE.bones[0]"),
        "{error}"
    );
    assert_eq!(error.offset(), bone + 12, "{error}");
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("tag present")
}

/// `set_version` refuses to convert between Warcraft III and alpha layouts
/// (which would write an invalid file), and changes only `VERS` between 1300
/// and 1400.
#[test]
fn set_version_refuses_wc3_alpha_conversions() {
    let Some((bytes, model)) = boar() else { return };
    for target in [800, 900, 1000, 1100, 1200, 1600] {
        let mut converted = model.clone();
        let losses = converted
            .set_version(target)
            .expect_err("alpha to WC3 is refused");
        assert_eq!(losses.len(), 1);
        assert_eq!(losses[0].path, "VERS");
        assert!(losses[0].what.contains("not supported"), "{}", losses[0]);
        assert_eq!(converted, model, "nothing changed");
    }
    // 1500 redesigned GEOS: refused while the model has geosets.
    let mut converted = model.clone();
    let losses = converted.set_version(1500).expect_err("GEOS blocks 1500");
    assert_eq!(losses[0].path, "chunks[5]", "{}", losses[0]);
    // 1400: VERS only.
    let mut v1400 = model.clone();
    v1400.set_version(1400).expect("1300 -> 1400");
    let written = v1400.to_bytes().expect("writes");
    assert_eq!(written.len(), bytes.len());
    let differing: Vec<usize> = (0..bytes.len())
        .filter(|&i| written[i] != bytes[i])
        .collect();
    assert_eq!(
        differing,
        [12],
        "only the VERS value differs (0x514 -> 0x578)"
    );
    assert_eq!(Model::from_bytes(&written).expect("rereads"), v1400);
    // And WC3 models are not converted to alpha.
    let mut wc3 = Model::from_bytes(&formats::sample::sample_mdx()).expect("sample");
    for target in [1300, 1400, 1500] {
        assert!(wc3.set_version(target).is_err(), "800 -> {target}");
    }
    assert_eq!(wc3.version(), 800);
}
