//! One test per capability of `#[derive(Codec)]` (the nine points of the
//! foundation issue), on explicit bytes.

mod support;

use format_core::{
    Context, CutChunk, Derived, Encode, ErrorKind, FixedStr, FourCC, Mode, SizeKind, TagOrder,
    UnknownChunk, decode, encode,
};
use support::*;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn ctx(version: u32) -> Context {
    Context::new().with_version(version)
}

fn node(name: &str, tracks: Vec<NodeTrack>) -> Node {
    Node {
        name: FixedStr::try_from(name).unwrap(),
        object_id: 1,
        parent_id: u32::MAX,
        flags: 0x100,
        tracks,
    }
}

fn linear<T>(keys: Vec<(i32, T)>) -> Track<T> {
    Track {
        tracks_count: Derived::new(),
        interpolation_type: Interpolation::Linear,
        global_sequence_id: -1,
        keys: keys
            .into_iter()
            .map(|(frame, value)| Key {
                frame,
                value,
                in_tan: None,
                out_tan: None,
            })
            .collect(),
    }
}

fn sequence(name: &str) -> Sequence {
    Sequence {
        name: FixedStr::try_from(name).unwrap(),
        interval: [0, 1000],
        move_speed: 270.0,
        flags: 0,
        rarity: 0.0,
        sync_point: 0,
        extent: Extent {
            bounds_radius: 1.5,
            minimum: [-1.0; 3],
            maximum: [1.0; 3],
        },
    }
}

// 1. A magic, and chunk headers whose body is read through a bounded region.
#[test]
fn chunk_header_and_magic() {
    let chunk = SequenceChunk {
        sequences: vec![sequence("Stand"), sequence("Walk")],
    };
    let bytes = encode(&chunk, Context::new()).unwrap();
    assert_eq!(&bytes[..4], b"SEQS");
    assert_eq!(&bytes[4..8], &264u32.to_le_bytes());
    assert_eq!(bytes.len(), 8 + 264);
    assert_eq!(
        decode::<SequenceChunk>(&bytes, Context::new()).unwrap(),
        chunk
    );

    // The body region is exactly the declared size: a VERS that declares 8 bytes
    // but holds a 4-byte version is an under-run, named with offsets.
    let mut vers = b"VERS".to_vec();
    vers.extend(le(&[8, 800, 0]));
    let e = decode::<VersionChunk>(&vers, Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "VERS: chunk size 8 at 0x4 is larger than its contents: 4 bytes read, 4 unread at 0xc"
    );

    let mut model = b"MDLY".to_vec();
    model.extend(le(&[0]));
    let e = decode::<Model>(&model, Context::new()).unwrap_err();
    assert_eq!(e.to_string(), "expected tag `MDLX` at 0x0, found `MDLY`");
}

// 2. Inclusive sizes: bounded on read, back-patched on write.
#[test]
fn inclusive_size_is_back_patched_and_bounds_the_read() {
    let n = node(
        "Bone_Root",
        vec![NodeTrack::Translation(linear(vec![(0, [1.0, 2.0, 3.0])]))],
    );
    let bytes = encode(&n, Context::new()).unwrap();
    let declared = u32::from_le_bytes(bytes[..4].try_into().unwrap());
    assert_eq!(declared as usize, bytes.len());
    assert_eq!(declared, 4 + 80 + 12 + 16 + 16);
    assert_eq!(decode::<Node>(&bytes, Context::new()).unwrap(), n);

    // Declare 8 bytes less: the track's key no longer fits in the object.
    let mut short = bytes.clone();
    short[..4].copy_from_slice(&(declared - 8).to_le_bytes());
    let e = decode::<Node>(&short, Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tracks[0].KGTR.keys: count 1 needs at least 16 bytes (16 each) at 0x70, 8 left"
    );
    // Declare less than the fixed fields: the read crosses the declared end.
    short[..4].copy_from_slice(&90u32.to_le_bytes());
    let e = decode::<Node>(&short, Context::new()).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::SizeOverrun {
            kind: SizeKind::Inclusive,
            declared: 90,
            size_offset: 0,
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "parent_id: need 4 bytes at 0x58, 2 left before the end set by the inclusive size 90 at 0x0"
    );

    // Nested: a bone (node + 8 bytes) inside a chunk inside a model.
    let bone = Bone {
        node: node("b", vec![]),
        geoset_id: 0,
        geoset_animation_id: u32::MAX,
    };
    let model = Model {
        chunks: vec![Chunk::Bones(BoneList {
            bones: vec![bone.clone(), bone],
        })],
    };
    let bytes = encode(&model, Context::new()).unwrap();
    assert_eq!(&bytes[4..8], b"BONE");
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        2 * (96 + 8)
    );
    assert_eq!(decode::<Model>(&bytes, Context::new()).unwrap(), model);
}

// 3. Optional tagged sub-chunks found by peeking, in any order, order kept; a
//    malformed known sub-chunk is an error, and an unknown one is not skipped.
#[test]
fn tagged_sub_chunks_keep_their_order_and_fail_loudly() {
    // The derive lists every tag its variants name, gates ignored, fallback excluded.
    let tag = |s: &[u8; 4]| FourCC::new(*s);
    assert_eq!(
        <NodeTrack as format_core::Tagged>::TAGS,
        [tag(b"KGTR"), tag(b"KGRT"), tag(b"KGSC")]
    );
    assert_eq!(
        <LayerTrack as format_core::Tagged>::TAGS,
        [tag(b"KMTF"), tag(b"KMTA"), tag(b"KMTE")]
    );
    assert_eq!(
        <Chunk as format_core::Tagged>::TAGS.len(),
        8,
        "Unknown adds no tag"
    );

    let n = node(
        "Helper",
        vec![
            NodeTrack::Scaling(linear(vec![(0, [1.0; 3])])),
            NodeTrack::Rotation(linear(vec![
                (0, [0.0, 0.0, 0.0, 1.0]),
                (100, [0.0, 0.0, 1.0, 0.0]),
            ])),
            NodeTrack::Translation(linear(vec![])),
        ],
    );
    let bytes = encode(&n, Context::new()).unwrap();
    let back = decode::<Node>(&bytes, Context::new()).unwrap();
    let tags: Vec<&str> = back
        .tracks
        .iter()
        .map(|t| match t {
            NodeTrack::Translation(_) => "KGTR",
            NodeTrack::Rotation(_) => "KGRT",
            NodeTrack::Scaling(_) => "KGSC",
        })
        .collect();
    assert_eq!(tags, ["KGSC", "KGRT", "KGTR"]);
    assert_eq!(back, n);

    // A KGRT whose key count is far larger than the object: an error, not a skip.
    let kgrt = 96 + 16 + 16; // after the KGSC track
    assert_eq!(&bytes[kgrt..kgrt + 4], b"KGRT");
    let mut broken = bytes.clone();
    broken[kgrt + 4..kgrt + 8].copy_from_slice(&1000u32.to_le_bytes());
    let e = decode::<Node>(&broken, Context::new()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::CountTooLarge { count: 1000, .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("tracks[1].KGRT.keys: count 1000 needs at least 20000 bytes"),
        "{e}"
    );

    // An unknown tag inside the object stops the track list; the bytes it leaves
    // unread make the inclusive size disagree, so the read fails.
    let mut unknown = bytes.clone();
    unknown[kgrt..kgrt + 4].copy_from_slice(b"KXXX");
    let e = decode::<Node>(&unknown, Context::new()).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::SizeUnderrun { unread: 72, .. }),
        "{e}"
    );
}

// 4. Version-gated fields and variants: read from the context, checked on write.
#[test]
fn version_gates() {
    let layer = |emissive: Option<f32>, fresnel: Option<[f32; 3]>, tracks| Layer {
        filter_mode: FilterMode::Blend,
        shading_flags: 0x10,
        texture_id: 0,
        texture_animation_id: u32::MAX,
        coord_id: 0,
        alpha: 1.0,
        emissive_gain: emissive,
        fresnel_color: fresnel,
        tracks,
    };
    let v800 = layer(None, None, vec![]);
    let v900 = layer(
        Some(1.0),
        None,
        vec![LayerTrack::EmissiveGain(linear(vec![(0, 0.5)]))],
    );
    let v1000 = layer(Some(1.0), Some([1.0, 0.5, 0.0]), vec![]);
    assert_eq!(encode(&v800, ctx(800)).unwrap().len(), 28);
    assert_eq!(encode(&v1000, ctx(1000)).unwrap().len(), 28 + 4 + 12);
    for (value, version) in [(&v800, 800), (&v900, 900), (&v1000, 1000)] {
        let bytes = encode(value, ctx(version)).unwrap();
        assert_eq!(&decode::<Layer>(&bytes, ctx(version)).unwrap(), value);
    }

    // Presence that disagrees with the version is a write error, either way.
    let e = encode(&v1000, ctx(800)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "emissive_gain: cannot write at output offset 0x1c: `emissive_gain` is present but `version > 800` is false (version 800)"
    );
    let e = encode(&v800, ctx(1000)).unwrap_err();
    assert!(
        e.to_string()
            .contains("`emissive_gain` is missing but `version > 800` requires it")
    );

    // A KMTE track is not a v800 track: not written, and not recognised on read.
    let e = encode(&layer(None, None, v900.tracks.clone()), ctx(800)).unwrap_err();
    assert!(
        e.to_string()
            .contains("`EmissiveGain` cannot be written: `version > 800` is false")
    );
    let bytes = encode(&v900, ctx(900)).unwrap();
    assert!(decode::<Layer>(&bytes, ctx(800)).is_err());

    // The version comes from a VERS chunk read earlier in the same file.
    let material = |layers| Material {
        priority_plane: 0,
        flags: 0,
        shader: Some(FixedStr::try_from("Shader_HD_DefaultUnit").unwrap()),
        layers,
    };
    let model = Model {
        chunks: vec![
            Chunk::Version(VersionChunk { version: 1000 }),
            Chunk::Materials(MaterialChunk {
                materials: vec![material(vec![v1000.clone()])],
            }),
        ],
    };
    let bytes = encode(&model, Context::new()).unwrap();
    assert_eq!(decode::<Model>(&bytes, Context::new()).unwrap(), model);
}

// 5. Arrays: a count prefix, an expression, size / N, until the end; counts are
//    checked against the bytes left before anything is allocated.
#[test]
fn array_lengths() {
    let geoset = Geoset {
        vertex_positions: vec![[0.0; 3], [1.0; 3], [2.0; 3]],
        vertex_normals: vec![[0.0, 0.0, 1.0]; 3],
        faces: vec![0, 1, 2],
        vertex_groups: vec![0, 0, 0],
        material_id: 0,
        extent: Extent {
            bounds_radius: 1.0,
            minimum: [0.0; 3],
            maximum: [2.0; 3],
        },
        sequence_extents: vec![],
        tangents: Some(vec![[1.0, 0.0, 0.0, 1.0]; 3]),
        texture_coordinate_sets: vec![TextureCoordinateSet {
            texture_coordinates: vec![[0.5; 2]; 3],
        }],
    };
    let bytes = encode(&geoset, ctx(1000)).unwrap();
    assert_eq!(&bytes[4..8], b"VRTX");
    assert_eq!(&bytes[8..12], &3u32.to_le_bytes());
    assert_eq!(decode::<Geoset>(&bytes, ctx(1000)).unwrap(), geoset);
    // Without TANG in a v1000 file the optional sub-chunk is simply absent.
    let no_tangents = Geoset {
        tangents: None,
        ..geoset.clone()
    };
    let bytes = encode(&no_tangents, ctx(1000)).unwrap();
    assert_eq!(decode::<Geoset>(&bytes, ctx(1000)).unwrap(), no_tangents);

    // A count far beyond the data is refused before allocating.
    let mut huge = bytes.clone();
    huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = decode::<Geoset>(&huge, ctx(1000)).unwrap_err();
    assert_eq!(
        e.kind(),
        &ErrorKind::CountTooLarge {
            offset: 12,
            count: u64::from(u32::MAX),
            element_size: 12,
            needed: u64::from(u32::MAX) * 12,
            available: bytes.len() - 12,
        }
    );
    assert_eq!(e.path_string(), "vertex_positions");

    // count = <expression over an earlier field>.
    let sphere = CollisionShape {
        node: node("Collision", vec![]),
        shape_type: ShapeType::Sphere,
        vertices: vec![[0.0; 3]],
        radius: Some(2.0),
    };
    let bytes = encode(&sphere, Context::new()).unwrap();
    assert_eq!(bytes.len(), 96 + 4 + 12 + 4);
    assert_eq!(
        decode::<CollisionShape>(&bytes, Context::new()).unwrap(),
        sphere
    );

    // count = size / N must divide exactly.
    let mut pivots = b"PIVT".to_vec();
    pivots.extend(le(&[13]));
    pivots.extend([0u8; 13]);
    let e = decode::<PivotChunk>(&pivots, Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "PIVT.0: invalid value at 0x8: size 13 is not a multiple of the 12-byte element size"
    );
    let p = PivotChunk(vec![[1.0, 2.0, 3.0]; 4]);
    assert_eq!(
        decode::<PivotChunk>(&encode(&p, Context::new()).unwrap(), Context::new()).unwrap(),
        p
    );
}

// 6. Per-element arguments: the track's interpolation decides each key's tangents.
#[test]
fn per_element_arguments() {
    let key = |frame, value| Key {
        frame,
        value,
        in_tan: Some(value * 2.0),
        out_tan: Some(value * 3.0),
    };
    let hermite = Track {
        tracks_count: Derived::new(),
        interpolation_type: Interpolation::Hermite,
        global_sequence_id: 0,
        keys: vec![key(0, 1.0f32), key(10, 2.0)],
    };
    let bytes = encode(&hermite, Context::new()).unwrap();
    assert_eq!(bytes.len(), 12 + 2 * 16);
    assert_eq!(
        decode::<Track<f32>>(&bytes, Context::new()).unwrap(),
        hermite
    );

    let linear_track = linear(vec![(0, 1.0f32), (10, 2.0)]);
    let bytes = encode(&linear_track, Context::new()).unwrap();
    assert_eq!(bytes.len(), 12 + 2 * 8);

    // Tangents on a linear key disagree with the argument: a write error at the key.
    let mut wrong = linear_track;
    wrong.keys[1].in_tan = Some(0.0);
    let e = encode(&wrong, Context::new()).unwrap_err();
    assert!(
        e.to_string().starts_with("keys[1].in_tan: cannot write"),
        "{e}"
    );
}

// 7. Enums: a chunk list dispatched on the tag with an unknown fallback that keeps
//    bytes and position; value enums that keep unknown values.
#[test]
fn enums_keep_unknowns() {
    let model = Model {
        chunks: vec![
            Chunk::Unknown(UnknownChunk {
                tag: FourCC::new(*b"INFX"),
                bytes: b"made by hand".to_vec(),
            }),
            Chunk::Version(VersionChunk { version: 800 }),
            Chunk::Unknown(UnknownChunk {
                tag: FourCC::new(*b"MDVI"),
                bytes: vec![1, 2, 3],
            }),
            Chunk::Sequences(SequenceChunk {
                sequences: vec![sequence("Stand")],
            }),
            Chunk::Unknown(UnknownChunk {
                tag: FourCC::new([0; 4]),
                bytes: vec![],
            }),
        ],
    };
    let bytes = encode(&model, Context::new()).unwrap();
    assert_eq!(&bytes[4..8], b"INFX");
    let back = decode::<Model>(&bytes, Context::new()).unwrap();
    assert_eq!(back, model);
    assert_eq!(encode(&back, Context::new()).unwrap(), bytes);

    let other = Track::<f32> {
        interpolation_type: Interpolation::Other(7),
        ..linear(vec![])
    };
    let bytes = encode(&other, Context::new()).unwrap();
    assert_eq!(&bytes[4..8], &7u32.to_le_bytes());
    assert_eq!(decode::<Track<f32>>(&bytes, Context::new()).unwrap(), other);

    // The numbers, as the derive converts them: every variant to its number;
    // with a fallback, every number to a variant (a named one by name).
    assert_eq!(u32::from(Interpolation::Hermite), 2);
    assert_eq!(u32::from(Interpolation::Other(7)), 7);
    assert_eq!(Interpolation::from(3), Interpolation::Bezier);
    assert_eq!(Interpolation::from(7), Interpolation::Other(7));
    assert_eq!(u32::from(FilterMode::Blend), 2);

    // An unknown-value fallback holding a known value would not read back as itself.
    let e = encode(&Interpolation::Other(2), Context::new()).unwrap_err();
    assert!(
        e.to_string()
            .contains("`Other` holds the value of `Hermite`; use `Hermite`")
    );
    // Without a fallback, an unknown value is an error naming the type.
    let e = decode::<FilterMode>(&le(&[9]), Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "invalid value at 0x0: 9 is not a known `FilterMode`"
    );
    assert_eq!(
        decode::<FilterMode>(&le(&[6]), Context::new()).unwrap(),
        FilterMode::Modulate2x
    );

    // A tag-dispatched enum without a fallback names what it expected.
    let e = decode::<NodeTrack>(b"KGXX\0\0\0\0", Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "expected tag one of `KGTR`, `KGRT`, `KGSC` at 0x0, found `KGXX`"
    );
}

/// A chunk list with a variant the derived reader never produces: built by
/// hand (as a lenient reader keeps a chunk cut short by the end of the file).
#[derive(format_core::Codec, Debug, PartialEq)]
enum Listed {
    #[format(chunk = "VERS")]
    Version(u32),
    #[format(not_read)]
    Cut(CutChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

#[test]
fn a_not_read_variant_is_written_but_never_read() {
    let cut = Listed::Cut(CutChunk {
        tag: FourCC::new(*b"VERS"),
        bytes: vec![9, 0, 0, 0, 1, 2],
    });
    // Written by its type, named by its own tag.
    let bytes = encode(&cut, Context::new()).unwrap();
    assert_eq!(bytes, b"VERS\x09\x00\x00\x00\x01\x02");
    assert_eq!(cut.tag(), FourCC::new(*b"VERS"));
    // Read back, the same bytes are a `VERS` chunk too short for its size:
    // the derived reader reports that rather than pick the hand-built variant.
    let e = decode::<Listed>(&bytes, Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "VERS: chunk size 9 at 0x4 exceeds the 2 bytes left"
    );
    // It adds no tag the reader accepts.
    use format_core::Tagged;
    assert_eq!(Listed::TAGS, [FourCC::new(*b"VERS")]);
    let whole = decode::<Listed>(b"VERS\x04\x00\x00\x00\x20\x03\x00\x00", Context::new());
    assert_eq!(whole.unwrap(), Listed::Version(800));
}

// 8. Derived fields: counts and sizes computed from the data on write.
#[test]
fn derived_fields_follow_edits() {
    let mut track = linear(vec![(0, 1u32)]);
    track.keys.push(Key {
        frame: 5,
        value: 2,
        in_tan: None,
        out_tan: None,
    });
    let bytes = encode(&track, Context::new()).unwrap();
    assert_eq!(&bytes[..4], &2u32.to_le_bytes());

    let mut chunk = MaterialChunk { materials: vec![] };
    let empty = encode(&chunk, ctx(800)).unwrap();
    assert_eq!(empty, b"MTLS\0\0\0\0");
    chunk.materials.push(Material {
        priority_plane: 0,
        flags: 0,
        shader: None,
        layers: vec![],
    });
    let one = encode(&chunk, ctx(800)).unwrap();
    assert_eq!(
        one,
        [b"MTLS".as_slice(), &le(&[20, 20, 0, 0]), b"LAYS", &le(&[0])].concat()
    );

    // A count given by an expression is checked against the array on write.
    let wrong = CollisionShape {
        node: node("c", vec![]),
        shape_type: ShapeType::Cube,
        vertices: vec![[0.0; 3]],
        radius: None,
    };
    let e = encode(&wrong, Context::new()).unwrap_err();
    assert!(
        e.to_string()
            .contains("`vertices` has 1 elements but its count says 2"),
        "{e}"
    );
}

// 9. The escape hatch, `skip`, and the tag byte order of the context.
#[test]
fn custom_functions_skip_and_tag_order() {
    let info = Info {
        text: "Generated by hand".into(),
        note: 0,
    };
    let model = Model {
        chunks: vec![Chunk::Info(info.clone())],
    };
    let bytes = encode(&model, Context::new()).unwrap();
    assert_eq!(&bytes[12..], b"Generated by hand\0");
    assert_eq!(decode::<Model>(&bytes, Context::new()).unwrap(), model);
    let e = decode::<Info>(b"no terminator", Context::new()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "text: invalid value at 0x0: string has no terminating NUL"
    );

    // ADT stores tags reversed; definitions still say the spec's tag.
    let reversed = Context::new().with_tag_order(TagOrder::Reversed);
    let bytes = encode(&VersionChunk { version: 18 }, reversed).unwrap();
    assert_eq!(bytes, [b"SREV".as_slice(), &le(&[4, 18])].concat());
    assert_eq!(
        decode::<VersionChunk>(&bytes, reversed).unwrap().version,
        18
    );
}

#[test]
fn strict_and_lenient_recovery() {
    use format_core::{Error, Reader};
    let data = le(&[1, 2]);
    for mode in [Mode::Strict, Mode::Lenient] {
        let mut r = Reader::with_context(&data, Context::new().with_mode(mode));
        let first = r.u32().unwrap();
        let result = r.recover(
            Error::invalid(4, "second word must be 1"),
            "kept it as read",
        );
        assert_eq!(result.is_ok(), mode == Mode::Lenient);
        assert_eq!(first, 1);
        let notes = r.take_diagnostics();
        if mode == Mode::Lenient {
            assert_eq!(notes.len(), 1);
            assert_eq!(
                notes[0].to_string(),
                "at 0x4: invalid value at 0x4: second word must be 1; kept it as read"
            );
        } else {
            assert!(notes.is_empty());
        }
    }
}

#[test]
fn layout_tables_read_like_the_spec() {
    let rows: Vec<(&str, &str, &str)> = Material::LAYOUT
        .iter()
        .map(|r| (r.field, r.ty, r.size))
        .collect();
    assert_eq!(
        rows,
        [
            ("inclusiveSize", "u32", "4"),
            ("priority_plane", "i32", "4"),
            ("flags", "u32", "4"),
            ("shader", "FixedStr<80>", "80"),
            ("\"LAYS\"", "tag", "4"),
            ("layers count", "u32", "4"),
            ("layers", "Layer[count]", "count × var"),
        ]
    );
    assert_eq!(
        Material::LAYOUT[3].condition,
        "if `version > 800 && version < 1100`"
    );
    assert_eq!(Sequence::LAYOUT.len(), 7);
    assert_eq!(Sequence::LAYOUT[3].condition, "");
    assert_eq!(std::mem::size_of::<Sequence>(), 132);
    let enum_rows: Vec<&str> = NodeTrack::LAYOUT.iter().map(|r| r.field).collect();
    assert_eq!(enum_rows, ["\"KGTR\"", "\"KGRT\"", "\"KGSC\""]);
}

#[test]
fn plain_arrays_are_one_copy_and_exact() {
    // NaN payloads and negative zero survive: plain data is copied, not converted.
    let values = [
        f32::from_bits(0x7fc0_0000),
        -0.0,
        f32::from_bits(0xffff_ffff),
    ];
    let mut w = format_core::Writer::new();
    <f32 as Encode>::encode_many(&values, &mut w, ()).unwrap();
    let bytes = w.into_bytes();
    let mut r = format_core::Reader::new(&bytes);
    let back = r.plain_vec::<f32>(3).unwrap();
    assert_eq!(
        back.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
        [0x7fc0_0000, 0x8000_0000, 0xffff_ffff]
    );
}

/// A field named like a context value shadows it for the fields after it only,
/// on both sides.
#[derive(format_core::Codec, Debug, PartialEq)]
struct Shadowing {
    #[format(if = version > 100)]
    before: Option<u8>,
    version: u32,
    #[format(if = version == 7)]
    after: Option<u8>,
    #[format(if = format_flags & 0x4 != 0)]
    big_alpha: Option<u16>,
}

#[test]
fn expressions_see_the_same_names_when_reading_and_writing() {
    let ctx = Context::new().with_version(200).with_flags(0x4);
    let value = Shadowing {
        before: Some(1),
        version: 7,
        after: Some(2),
        big_alpha: Some(3),
    };
    let bytes = encode(&value, ctx).unwrap();
    assert_eq!(bytes, [1, 7, 0, 0, 0, 2, 3, 0]);
    assert_eq!(decode::<Shadowing>(&bytes, ctx).unwrap(), value);

    let ctx = Context::new().with_version(50);
    let value = Shadowing {
        before: None,
        version: 8,
        after: None,
        big_alpha: None,
    };
    let bytes = encode(&value, ctx).unwrap();
    assert_eq!(bytes, [8, 0, 0, 0]);
    assert_eq!(decode::<Shadowing>(&bytes, ctx).unwrap(), value);
}

/// An element whose fields are all absent at this version: it reads no
/// bytes and still takes 4 KiB in memory.
#[derive(format_core::Codec, Debug, PartialEq)]
struct Sparse {
    #[format(if = version > 5)]
    big: Option<[u8; 4096]>,
}

#[derive(format_core::Codec, Debug, PartialEq)]
struct SparseList {
    #[format(count = u32)]
    items: Vec<Sparse>,
}

/// A count the input sets, of elements that read no bytes: checked as if
/// each read one byte, a million of them would take 4 GiB; they are refused
/// past 16 MiB, with the offset and the path, and a few are read as ever.
#[test]
fn elements_that_read_no_bytes_cannot_allocate_without_bound() {
    let mut data = 1_000_000u32.to_le_bytes().to_vec();
    data.resize(1_000_004, 0);
    let err = decode::<SparseList>(&data, ctx(1)).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "items[4095]: invalid value at 0x4: 4096 elements that read no bytes take more \
             than 16 MiB of memory (4097 bytes each)"
        ),
        "{err}"
    );
    // A few are read as ever (each counted as one byte against the bytes
    // left, here the 3 that follow).
    let bytes = [le(&[3]), vec![9; 3]].concat();
    let mut r = format_core::Reader::with_context(&bytes, ctx(1));
    let few = <SparseList as format_core::Decode>::decode(&mut r, ()).unwrap();
    assert_eq!(few.items.len(), 3);
    // At a version where they read their 4 KiB each, the bytes run out
    // after 244 of them (and no more than the bytes left was reserved).
    let err = decode::<SparseList>(&data, ctx(6)).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("items[244].big: need 4096 bytes at 0xf4004"),
        "{err}"
    );
}

/// One byte in memory, four on disk: `#[format(repr = u32)]` is the type on
/// disk where the enum's own `#[repr(u8)]` says how it is kept in memory.
#[derive(format_core::Codec, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
#[format(repr = u32)]
enum NarrowMode {
    A = 1,
    B = 2,
}

#[derive(format_core::Codec, Debug, PartialEq)]
struct WithMode {
    mode: NarrowMode,
    x: u32,
}

#[test]
fn the_format_repr_is_the_type_on_disk_over_the_enums_own() {
    let value = WithMode {
        mode: NarrowMode::B,
        x: 7,
    };
    let bytes = encode(&value, Context::new()).unwrap();
    assert_eq!(bytes, le(&[2, 7]));
    assert_eq!(decode::<WithMode>(&bytes, Context::new()).unwrap(), value);
    assert_eq!(size_of::<NarrowMode>(), 1);
}

/// A count that exists from version 2 on, over a list that is there at
/// every version.
#[derive(format_core::Codec, Debug, PartialEq)]
struct GatedCount {
    #[format(if = version >= 2, calc = values.len())]
    n: Derived<u8>,
    #[format(count = u32)]
    values: Vec<u8>,
}

/// A computed value whose `if` does not hold is not written, so it is not
/// computed either: 300 values need not fit the `u8` count of version 2.
#[test]
fn a_calc_whose_condition_fails_is_not_computed() {
    let value = GatedCount {
        n: Derived::default(),
        values: vec![1; 300],
    };
    let bytes = encode(&value, ctx(1)).unwrap();
    assert_eq!(bytes.len(), 4 + 300);
    assert_eq!(
        decode::<GatedCount>(&bytes, ctx(1)).unwrap().values.len(),
        300
    );
    let err = encode(&value, ctx(2)).unwrap_err();
    assert!(err.to_string().contains("`n`"), "{err}");
}

/// An element that knows its place in its list.
#[derive(format_core::Codec, Debug, PartialEq)]
#[format(args(index: usize))]
struct Indexed {
    #[format(calc = index)]
    position: Derived<u8>,
}

/// A count prefix before a list whose elements take their index: the count
/// is read from the reader before the elements are (an offset into such a
/// list: `offsets.rs`).
#[derive(format_core::Codec, Debug, PartialEq)]
struct Prefixed {
    #[format(count = u32, args(index))]
    indexed: Vec<Indexed>,
}

#[test]
fn a_count_prefix_works_with_element_arguments() {
    let bytes = [3, 0, 0, 0, 0, 1, 2];
    let value = decode::<Prefixed>(&bytes, Context::new()).unwrap();
    assert_eq!(value.indexed.len(), 3);
    assert_eq!(encode(&value, Context::new()).unwrap(), bytes);
}

/// A tree: a node holds nodes of its own type.
#[derive(format_core::Codec, Debug, PartialEq)]
struct TreeNode {
    value: u32,
    #[format(count = u32)]
    kids: Vec<TreeNode>,
}

#[test]
fn a_type_may_hold_itself() {
    let tree = TreeNode {
        value: 1,
        kids: vec![
            TreeNode {
                value: 2,
                kids: Vec::new(),
            },
            TreeNode {
                value: 3,
                kids: vec![TreeNode {
                    value: 4,
                    kids: Vec::new(),
                }],
            },
        ],
    };
    let bytes = encode(&tree, Context::new()).unwrap();
    assert_eq!(bytes, le(&[1, 2, 2, 0, 3, 1, 4, 0]));
    assert_eq!(decode::<TreeNode>(&bytes, Context::new()).unwrap(), tree);
}

/// A tree deeper than the input can be trusted with: each level is 8 bytes,
/// so a megabyte nests 125 000 deep; the reader refuses past 256 levels
/// rather than overflow the stack.
#[test]
fn a_tree_nested_too_deep_is_an_error() {
    let deep: Vec<u8> = (0..100_000u32).flat_map(|_| le(&[7, 1])).collect();
    let err = decode::<TreeNode>(&deep, Context::new()).unwrap_err();
    assert!(
        err.to_string().contains("values nested more than 256 deep"),
        "{}",
        &err.to_string()[..200]
    );
    let ok: Vec<u8> = (0..200u32)
        .flat_map(|_| le(&[7, 1]))
        .chain(le(&[7, 0]))
        .collect();
    assert!(decode::<TreeNode>(&ok, Context::new()).is_ok());
}
