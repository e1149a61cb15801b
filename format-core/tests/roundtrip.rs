//! Property tests over the derived test types (which together use every
//! attribute): value -> bytes -> value is equal, and bytes -> value -> bytes is
//! identical, including bytes that were corrupted on purpose.

mod support;

use format_core::{Context, Derived, FixedStr, FourCC, UnknownChunk, decode, encode};
use proptest::collection::vec;
use proptest::prelude::*;
use support::*;

const VERSIONS: [u32; 4] = [800, 900, 1000, 1100];

fn float() -> impl Strategy<Value = f32> + Clone {
    -1.0e6f32..1.0e6f32
}

fn vec3() -> impl Strategy<Value = [f32; 3]> + Clone {
    [float(), float(), float()]
}

fn vec4() -> impl Strategy<Value = [f32; 4]> + Clone {
    [float(), float(), float(), float()]
}

/// Any 80 bytes: text, NUL padding and whatever follows the NUL are all kept.
fn name80() -> impl Strategy<Value = FixedStr<80>> {
    prop_oneof![
        "[A-Za-z0-9_ ]{0,80}".prop_map(|s| FixedStr::try_from(s.as_str()).unwrap()),
        vec(any::<u8>(), 80).prop_map(|b| FixedStr::from_bytes(b.try_into().unwrap())),
    ]
}

fn extent() -> impl Strategy<Value = Extent> {
    (float(), vec3(), vec3()).prop_map(|(bounds_radius, minimum, maximum)| Extent {
        bounds_radius,
        minimum,
        maximum,
    })
}

fn interpolation() -> impl Strategy<Value = Interpolation> {
    prop_oneof![
        Just(Interpolation::None),
        Just(Interpolation::Linear),
        Just(Interpolation::Hermite),
        Just(Interpolation::Bezier),
        (4u32..).prop_map(Interpolation::Other),
    ]
}

fn track<T: Clone + std::fmt::Debug + 'static>(
    value: impl Strategy<Value = T> + Clone + 'static,
) -> impl Strategy<Value = Track<T>> {
    (interpolation(), any::<i32>()).prop_flat_map(
        move |(interpolation_type, global_sequence_id)| {
            let tangents = interpolation_type.has_tangents();
            let key = (any::<i32>(), value.clone(), value.clone(), value.clone()).prop_map(
                move |(frame, value, in_tan, out_tan)| Key {
                    frame,
                    value,
                    in_tan: tangents.then_some(in_tan),
                    out_tan: tangents.then_some(out_tan),
                },
            );
            vec(key, 0..4).prop_map(move |keys| Track {
                tracks_count: Derived::new(),
                interpolation_type,
                global_sequence_id,
                keys,
            })
        },
    )
}

fn node() -> impl Strategy<Value = Node> {
    let tracks = vec(
        prop_oneof![
            track(vec3()).prop_map(NodeTrack::Translation),
            track(vec4()).prop_map(NodeTrack::Rotation),
            track(vec3()).prop_map(NodeTrack::Scaling),
        ],
        0..4,
    );
    (name80(), any::<u32>(), any::<u32>(), any::<u32>(), tracks).prop_map(
        |(name, object_id, parent_id, flags, tracks)| Node {
            name,
            object_id,
            parent_id,
            flags,
            tracks,
        },
    )
}

fn layer(version: u32) -> impl Strategy<Value = Layer> {
    let mut tracks = vec![
        track(any::<u32>()).prop_map(LayerTrack::TextureId).boxed(),
        track(float()).prop_map(LayerTrack::Alpha).boxed(),
    ];
    if version > 800 {
        tracks.push(track(float()).prop_map(LayerTrack::EmissiveGain).boxed());
    }
    let filter_mode = prop_oneof![
        Just(FilterMode::None),
        Just(FilterMode::Transparent),
        Just(FilterMode::Blend),
        Just(FilterMode::Additive),
        Just(FilterMode::AddAlpha),
        Just(FilterMode::Modulate),
        Just(FilterMode::Modulate2x),
    ];
    (
        filter_mode,
        any::<[u32; 4]>(),
        float(),
        float(),
        vec3(),
        vec(proptest::strategy::Union::new(tracks), 0..3),
    )
        .prop_map(
            move |(filter_mode, ids, alpha, gain, fresnel, tracks)| Layer {
                filter_mode,
                shading_flags: ids[0],
                texture_id: ids[1],
                texture_animation_id: ids[2],
                coord_id: ids[3],
                alpha,
                emissive_gain: (version > 800).then_some(gain),
                fresnel_color: (version > 900).then_some(fresnel),
                tracks,
            },
        )
}

fn material(version: u32) -> impl Strategy<Value = Material> {
    (
        any::<i32>(),
        any::<u32>(),
        name80(),
        vec(layer(version), 0..3),
    )
        .prop_map(move |(priority_plane, flags, shader, layers)| Material {
            priority_plane,
            flags,
            shader: (version > 800 && version < 1100).then_some(shader),
            layers,
        })
}

fn geoset(version: u32) -> impl Strategy<Value = Geoset> {
    (0usize..6).prop_flat_map(move |n| {
        (
            (
                vec(vec3(), n),
                vec(vec3(), n),
                vec(any::<u16>(), 0..9),
                vec(any::<u8>(), n),
            ),
            (any::<u32>(), extent(), vec(extent(), 0..3)),
            (any::<bool>(), vec(vec4(), n)),
            vec(
                vec([float(), float()], n).prop_map(|t| TextureCoordinateSet {
                    texture_coordinates: t,
                }),
                0..3,
            ),
        )
            .prop_map(move |(arrays, fixed, tangents, uvs)| Geoset {
                vertex_positions: arrays.0,
                vertex_normals: arrays.1,
                faces: arrays.2,
                vertex_groups: arrays.3,
                material_id: fixed.0,
                extent: fixed.1,
                sequence_extents: fixed.2,
                tangents: (version > 800 && tangents.0).then_some(tangents.1),
                texture_coordinate_sets: uvs,
            })
    })
}

fn collision_shape() -> impl Strategy<Value = CollisionShape> {
    let shape_type = prop_oneof![
        Just(ShapeType::Cube),
        Just(ShapeType::Plane),
        Just(ShapeType::Sphere),
        Just(ShapeType::Cylinder),
    ];
    (node(), shape_type, vec3(), vec3(), float()).prop_map(|(node, shape_type, a, b, r)| {
        let mut vertices = vec![a, b];
        vertices.truncate(shape_type.vertex_count() as usize);
        CollisionShape {
            node,
            shape_type,
            vertices,
            radius: shape_type.has_radius().then_some(r),
        }
    })
}

fn sequence() -> impl Strategy<Value = Sequence> {
    (
        name80(),
        any::<[u32; 2]>(),
        float(),
        any::<u32>(),
        float(),
        any::<u32>(),
        extent(),
    )
        .prop_map(
            |(name, interval, move_speed, flags, rarity, sync_point, extent)| Sequence {
                name,
                interval,
                move_speed,
                flags,
                rarity,
                sync_point,
                extent,
            },
        )
}

/// Unknown chunks never use a tag the model knows.
fn unknown_chunk() -> impl Strategy<Value = UnknownChunk> {
    const KNOWN: [&[u8; 4]; 8] = [
        b"VERS", b"SEQS", b"MTLS", b"PIVT", b"GEOS", b"BONE", b"CLID", b"INFO",
    ];
    (any::<[u8; 4]>(), vec(any::<u8>(), 0..40))
        .prop_filter("tag must be unknown", |(tag, _)| !KNOWN.contains(&tag))
        .prop_map(|(tag, bytes)| UnknownChunk {
            tag: FourCC::new(tag),
            bytes,
        })
}

fn chunk(version: u32) -> impl Strategy<Value = Chunk> {
    prop_oneof![
        vec(sequence(), 0..3).prop_map(|sequences| Chunk::Sequences(SequenceChunk { sequences })),
        vec(material(version), 0..3)
            .prop_map(|materials| Chunk::Materials(MaterialChunk { materials })),
        vec(vec3(), 0..4).prop_map(|p| Chunk::Pivots(PivotChunk(p))),
        vec(geoset(version), 0..3).prop_map(|geosets| Chunk::Geosets(GeosetList { geosets })),
        vec((node(), any::<u32>(), any::<u32>()), 0..3).prop_map(|bones| Chunk::Bones(BoneList {
            bones: bones
                .into_iter()
                .map(|(node, geoset_id, geoset_animation_id)| Bone {
                    node,
                    geoset_id,
                    geoset_animation_id
                })
                .collect(),
        })),
        vec(collision_shape(), 0..3)
            .prop_map(|shapes| Chunk::CollisionShapes(ShapeList { shapes })),
        "[ -~]{0,30}".prop_map(|text| Chunk::Info(Info { text, note: 0 })),
        unknown_chunk().prop_map(Chunk::Unknown),
    ]
}

/// A model of one version: maybe an unknown chunk before `VERS` (real files have
/// `INFO` there), then `VERS`, then chunks of that version in any order.
fn model() -> impl Strategy<Value = Model> {
    proptest::sample::select(&VERSIONS[..]).prop_flat_map(|version| {
        (
            proptest::option::of(unknown_chunk()),
            vec(chunk(version), 0..6),
        )
            .prop_map(move |(leading, rest)| {
                let mut chunks: Vec<Chunk> = leading.into_iter().map(Chunk::Unknown).collect();
                chunks.push(Chunk::Version(VersionChunk { version }));
                chunks.extend(rest);
                Model { chunks }
            })
    })
}

proptest! {

    /// value -> bytes -> value is equal, and writing it again gives the same bytes.
    #[test]
    fn value_bytes_value(model in model()) {
        let bytes = encode(&model, Context::new()).unwrap();
        let back = decode::<Model>(&bytes, Context::new()).unwrap();
        prop_assert_eq!(&back, &model);
        prop_assert_eq!(encode(&back, Context::new()).unwrap(), bytes);
    }

    /// bytes -> value -> bytes is identical for every corruption of a valid file
    /// that still reads; none of them panics.
    #[test]
    fn corrupted_bytes_that_read_write_back_identically(
        model in model(),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = encode(&model, Context::new()).unwrap();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        if let Ok(value) = decode::<Model>(&bytes, Context::new()) {
            prop_assert_eq!(encode(&value, Context::new()).unwrap(), bytes);
        }
    }

    /// A cut file either fails with an error or (when cut between chunks) reads as
    /// a shorter model that writes back to exactly the cut bytes.
    #[test]
    fn truncated_bytes_never_panic(model in model(), at in any::<prop::sample::Index>()) {
        let bytes = encode(&model, Context::new()).unwrap();
        let cut = &bytes[..at.index(bytes.len())];
        match decode::<Model>(cut, Context::new()) {
            Ok(value) => prop_assert_eq!(encode(&value, Context::new()).unwrap(), cut),
            Err(e) => prop_assert!(e.offset() <= cut.len(), "{}", e),
        }
    }

    /// Arbitrary bytes after the magic: an error or a model, never a panic, and
    /// what reads writes back identically.
    #[test]
    fn arbitrary_bytes(tail in vec(any::<u8>(), 0..512)) {
        let mut bytes = b"MDLX".to_vec();
        bytes.extend(tail);
        if let Ok(value) = decode::<Model>(&bytes, Context::new()) {
            prop_assert_eq!(encode(&value, Context::new()).unwrap(), bytes);
        }
    }
}
