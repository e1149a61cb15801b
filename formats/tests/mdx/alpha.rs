//! The WoW alpha model of the corpus (`wowalpha_Boar.mdx`, v1300): byte-exact
//! round trip, object counts against `MDX_VERSIONS.md` §6.2, every rotation
//! key a unit quaternion, and strict errors on damaged copies.

use crate::common;

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
            for key in track.key_frames() {
                let tangents = key.tangents.map(|t| [t.in_tan, t.out_tan]);
                let values = [Some(key.value)]
                    .into_iter()
                    .chain(tangents.into_iter().flatten().map(Some));
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

/// The negative control of `MDX_VERSIONS.md` §6.1: read without sign
/// extension (z as an unsigned 21-bit value, as GMP does), 3 861 of Boar's
/// rotation keys have x² + y² + z² > 1, which no unit quaternion has.
#[test]
fn boar_rotation_keys_need_sign_extended_z() {
    let Some((_, model)) = boar() else { return };
    let mut broken = 0;
    for object in gen_objects(&model) {
        for track in &object.tracks {
            if let GenObjectTrack::Rotation(track) = track {
                for key in &track.keys {
                    let [x, y, _, _] = key.value.to_quaternion();
                    let z = (key.value.m_data & 0x1F_FFFF) as f32 / 1_048_576.0;
                    if x * x + y * y + z * z > 1.0 {
                        broken += 1;
                    }
                }
            }
        }
    }
    assert_eq!(broken, 3861);
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

/// The sizes seed 003 and `MDX_VERSIONS.md` §6.3 and §7 give for the layouts
/// no real file has (the derive could get a field's width wrong silently).
#[test]
fn alpha_layouts_have_the_sizes_of_the_spec() {
    use format_core::{Context, encode};
    let ctx = |v: u32| Context::new().with_version(v);
    let size = |bytes: Result<Vec<u8>, format_core::Error>| bytes.expect("encodes").len();
    let node = 96; // MDLGENOBJECT without tracks
    let emitter2 = alpha::ParticleEmitter2 {
        spline: vec![[0.0; 3]; 2],
        ..Default::default()
    };
    assert_eq!(size(encode(&emitter2, ctx(1300))), 4 + node + 795 + 2 * 12);
    let ribbon = alpha::RibbonEmitter::default();
    assert_eq!(size(encode(&ribbon, ctx(1300))), 4 + node + 56);
    let light = alpha::Light::default();
    assert_eq!(size(encode(&light, ctx(1300))), 4 + node + 44);
    let emitter = alpha::ParticleEmitter::default();
    assert_eq!(size(encode(&emitter, ctx(1300))), 4 + node + 16 + 260 + 8);
    let anim = alpha::GeosetAnim::default();
    assert_eq!(size(encode(&anim, ctx(1300))), 4 + 4 + 4 + 12 + 4);
    let camera = alpha::Camera::default();
    assert_eq!(size(encode(&camera, ctx(1300))), 120);
    let attachment = alpha::Attachment::default();
    assert_eq!(size(encode(&attachment, ctx(1300))), 365, "Boar's size");
    assert_eq!(size(encode(&alpha::Sequence::default(), ctx(1300))), 140);
    let header = alpha::GeosetSection::default();
    assert_eq!(size(encode(&header, ctx(1500))), 64);
    assert_eq!(size(encode(&alpha::Vertex::default(), ctx(1500))), 48);
    // Shapes: the node, one type byte, then 24, 20, 16 or 8 bytes.
    for (shape_type, payload) in [
        (GeomShape::Cylinder, 20),
        (GeomShape::Sphere, 16),
        (GeomShape::Plane, 8),
    ] {
        let mut shape = alpha::HitTestShape {
            shape_type,
            ..Default::default()
        };
        match shape_type {
            GeomShape::Cylinder => shape.cylinder = Some(Default::default()),
            GeomShape::Sphere => shape.sphere = Some(Default::default()),
            _ => shape.plane = Some(Default::default()),
        }
        assert_eq!(size(encode(&shape, ctx(1300))), 4 + node + 1 + payload);
        // The payload must match the type.
        shape.box_ = Some(Default::default());
        assert!(
            encode(&shape, ctx(1300)).is_err(),
            "{shape_type:?} with a box"
        );
    }
}

/// A v1500 `GEOS` built by hand from seed 003: a count, a 64-byte header,
/// then the batch (48-byte vertices, the primitive header, indices padded to
/// a multiple of 8).
#[test]
fn batched_geosets_read_as_seed_003_lays_them_out() {
    let mut body = Vec::new();
    let words = |b: &mut Vec<u8>, ws: &[u32]| ws.iter().for_each(|w| b.extend(w.to_le_bytes()));
    words(&mut body, &[1]); // numGeosets
    words(&mut body, &[7, 0, 0, 0, 2.5f32.to_bits(), 0, 3, 0x20]);
    body.extend(b"PVTX");
    words(&mut body, &[2]);
    body.extend(b"PTYP");
    words(&mut body, &[1]);
    body.extend(b"PVTX");
    words(&mut body, &[3]);
    body.extend([0; 8]);
    for i in 0..2u8 {
        words(
            &mut body,
            &[1.0f32.to_bits(), 2.0f32.to_bits(), f32::from(i).to_bits()],
        );
        body.extend([255, 0, 0, 0, i, 0, 0, 0]);
        words(&mut body, &[0, 0, 1.0f32.to_bits(), 0, 0, 0, 0]);
    }
    words(&mut body, &[3, 0]);
    for half in [3u16, 0, 1, 0, 0, 1, 1] {
        body.extend(half.to_le_bytes());
    }
    body.extend([0; 10]); // 5 u16 of padding: 3 + 5 = 8
    let mut bytes = b"MDLXVERS\x04\x00\x00\x00".to_vec();
    bytes.extend(1500u32.to_le_bytes());
    bytes.extend(b"GEOS");
    bytes.extend((body.len() as u32).to_le_bytes());
    bytes.extend(&body);

    let model = Model::from_bytes(&bytes).expect("reads");
    let Some(Chunk::AlphaBatchedGeosets(geos)) = model.chunks.get(1) else {
        panic!("{:?}", model.chunks)
    };
    assert_eq!(geos.geosets[0].material_id, 7);
    assert_eq!(geos.geosets[0].bounds_radius, 2.5);
    assert_eq!(geos.geosets[0].geoset_index, 3);
    assert_eq!(geos.geosets[0].flags, 0x20);
    let batch = &geos.batches[0];
    assert_eq!(batch.vertices.len(), 2);
    assert_eq!(batch.vertices[1].position, [1.0, 2.0, 1.0]);
    assert_eq!(batch.vertices[1].bone_weights, [255, 0, 0, 0]);
    assert_eq!(batch.vertices[1].bone_indices, [1, 0, 0, 0]);
    assert_eq!(batch.vertices[1].normal, [0.0, 0.0, 1.0]);
    assert_eq!(batch.primitive_type, 3);
    assert_eq!((batch.min_vertex, batch.max_vertex), (0, 1));
    assert_eq!(batch.primitive_vertices, [0, 1, 1]);
    assert_eq!(batch.padding, [0; 5]);
    assert_eq!(batch.triangle_count(), 1);
    assert_eq!(model.to_bytes().expect("writes"), bytes);
    // Each geoset has exactly one batch, checked before anything is written.
    let edit = |change: fn(&mut formats::mdx::alpha::BatchedGeosetChunk)| {
        let mut edited = model.clone();
        if let Some(Chunk::AlphaBatchedGeosets(geos)) = edited.chunks.get_mut(1) {
            change(geos);
        }
        edited
            .to_bytes()
            .expect_err("an inconsistent GEOS is refused")
    };
    let error = edit(|geos| geos.batches.push(geos.batches[0].clone()));
    assert!(error.to_string().contains("exactly one batch"), "{error}");
    // Batch i is written with the vertex count of header i.
    let error = edit(|geos| geos.geosets[0].vertex_count = 3);
    assert!(error.path_string().contains("batches[0]"), "{error}");
    // Its one triangle (seen edge-on from the front: a line) is drawn.
    #[cfg(feature = "render")]
    assert!(formats::render::wireframe(&model, 32).data.contains(&255));

    // The same bytes as version 1400 are not a v1300/1400 GEOS.
    let mut v1400 = bytes.clone();
    v1400[12..16].copy_from_slice(&1400u32.to_le_bytes());
    let error = Model::from_bytes(&v1400).expect_err("not a 1400 layout");
    assert!(error.path_string().starts_with("chunks[1].GEOS"), "{error}");
}

/// `KMTF` (CONFLICT, `MDX_VERSIONS.md` §6.4) is read in the form that ends on
/// the next tag or the layer's end, and written back in that form.
#[test]
fn flipbook_tracks_are_read_in_the_form_that_fits() {
    use alpha::{FlipTrack, TexLayerTrack};
    use format_core::{Context, decode, encode};
    let layer = |tracks: &[u8]| {
        let mut bytes = ((28 + tracks.len()) as u32).to_le_bytes().to_vec();
        for w in [2u32, 0, 0, u32::MAX, 0, 1.0f32.to_bits()] {
            bytes.extend(w.to_le_bytes());
        }
        bytes.extend(tracks);
        bytes
    };
    let words = |ws: &[u32]| ws.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
    let ctx = Context::new().with_version(1300);
    // Simple: count 2, globalSeqId -1, (time, value) pairs; then a KMTA.
    let mut simple = b"KMTF".to_vec();
    simple.extend(words(&[2, u32::MAX, 0, 1, 100, 2]));
    simple.extend(b"KMTA");
    simple.extend(words(&[0, 0, u32::MAX]));
    // Key: count 2, interpolation 0, globalSeqId -1, (frame, value) pairs; at the end.
    let mut key = b"KMTF".to_vec();
    key.extend(words(&[2, 0, u32::MAX, 0, 1, 100, 2]));
    for (tracks, simple_form) in [(simple, true), (key, false)] {
        let bytes = layer(&tracks);
        let read: alpha::TexLayer = decode(&bytes, ctx).expect("reads");
        let Some(TexLayerTrack::Flip(flip)) = read.tracks.first() else {
            panic!("{read:?}")
        };
        assert_eq!(
            matches!(flip, FlipTrack::Simple(_)),
            simple_form,
            "{flip:?}"
        );
        assert_eq!(flip.keys(), [(0, 1), (100, 2)]);
        assert_eq!(encode(&read, ctx).expect("writes"), bytes);
    }
    // Neither form ends on a tag or at the end: an error at the track.
    let mut neither = b"KMTF".to_vec();
    neither.extend(words(&[1, 9, 0, 0, 0]));
    let error = decode::<alpha::TexLayer>(&layer(&neither), ctx).expect_err("no form fits");
    assert!(
        error
            .to_string()
            .contains("no variant of `FlipTrack` applies"),
        "{error}"
    );
    assert_eq!(error.offset(), 32, "{error}");
}
