//! proptest strategies for `formats::mdx`: one per type, named after it, each
//! producing only values whose bytes read back to the same value. The rules
//! they follow are properties of the format, not of these tests:
//!
//! - a version-gated field is `Some` exactly when the version has it (in 900 the
//!   layer's fresnel block may be there or not, the file says);
//! - key tangents are there exactly when the interpolation type has them;
//! - enums with an `Other(v)` fallback only get values no named variant has;
//! - an `UnknownTail` (an unknown track or sub-chunk tag) takes every byte up to
//!   the end of its object, so it is only ever the last thing in one, and never
//!   in a layer (in 900 a tail of 20 bytes or more after a layer without
//!   fresnel would read as the fresnel block);
//! - an unknown chunk never has a tag a chunk or a light track has (a light
//!   track tag right after `LITE` is the known writer bug the reader looks for);
//! - floats are finite or infinite, never NaN (`PartialEq`); the NaN property
//!   puts its own in afterwards.
//!
//! Version-dependent fields the version changes of `Model::set_version` look at
//! are often given the values real files have when unused (emissive gain 1,
//! the default fresnel, LOD 0, shadow intensity 0.4, ...), so that converting
//! down sometimes succeeds.
//!
//! Shared by several test crates (`mdx_proptest`, `mdl_proptest`), each using
//! part of it.
#![allow(dead_code, unused_imports)]

mod alpha;
mod geometry;
mod nodes;

use format_core::{Derived, FixedStr, FourCC, UnknownChunk, UnknownTail};
use formats::mdx::*;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::Union;

pub use alpha::*;
pub use geometry::*;
pub use nodes::*;

/// The versions `formats::mdx` reads and writes.
pub const VERSIONS: [u32; 5] = [800, 900, 1000, 1100, 1200];

// ---------------------------------------------------------------- primitives

/// Any float but NaN: mostly ordinary values, sometimes subnormals, zeros of
/// both signs, huge values and infinities.
///
/// Boxed, like the other unions here: a `prop_oneof!` value tree holds a test
/// runner per choice, and unboxed trees of whole objects overflow the 2 MiB
/// stack of a test thread in debug builds.
pub fn float() -> BoxedStrategy<f32> {
    use proptest::num::f32 as f;
    prop_oneof![
        4 => -1.0e4f32..1.0e4,
        1 => f::POSITIVE | f::NEGATIVE | f::NORMAL | f::SUBNORMAL | f::ZERO | f::INFINITE,
        1 => Just(0.0f32),
        1 => Just(1.0f32),
    ]
    .boxed()
}

pub fn vec2() -> impl Strategy<Value = [f32; 2]> {
    [float(), float()]
}

pub fn vec3() -> impl Strategy<Value = [f32; 3]> {
    [float(), float(), float()]
}

pub fn vec4() -> impl Strategy<Value = [f32; 4]> {
    [float(), float(), float(), float()]
}

/// A 3x4 bind-pose matrix.
pub fn matrix() -> impl Strategy<Value = [f32; 12]> {
    proptest::array::uniform(float())
}

/// `char[N]`: empty, a short text with zero padding, or `N` arbitrary bytes
/// (kept raw, including bytes after a NUL and no NUL at all).
pub fn fixed_str<const N: usize>() -> BoxedStrategy<FixedStr<N>> {
    prop_oneof![
        1 => Just(FixedStr::default()),
        2 => vec(proptest::char::range(' ', '~'), 0..(N + 1).min(24)).prop_map(|chars| {
            let text: String = chars.into_iter().collect();
            FixedStr::try_from(text.as_str()).expect("short text fits")
        }),
        1 => vec(any::<u8>(), N)
            .prop_map(|bytes| FixedStr::from_bytes(bytes.try_into().expect("N bytes"))),
    ]
    .boxed()
}

/// A tag no track enum and no object knows: never starting with `K` (every
/// track tag does), or one of a few readable ones.
pub fn four_cc() -> impl Strategy<Value = FourCC> {
    prop_oneof![
        Just(FourCC::of("KZZZ")),
        Just(FourCC::of("XTRA")),
        any::<[u8; 4]>()
            .prop_filter("track tags start with K", |b| b[0] != b'K')
            .prop_map(FourCC::new),
    ]
}

prop_compose! {
    /// An unknown track or sub-chunk: its tag and the rest of its object.
    pub fn unknown_tail()(tag in four_cc(), bytes in vec(any::<u8>(), 0..24)) -> UnknownTail {
        UnknownTail { tag, bytes }
    }
}

/// Every tag a top-level chunk or a light track has.
const KNOWN_TAGS: [&str; 31] = [
    "VERS", "MODL", "SEQS", "GLBS", "MTLS", "TEXS", "SNDS", "TXAN", "GEOS", "GEOA", "BONE", "LITE",
    "HELP", "ATCH", "PIVT", "PREM", "PRE2", "RIBB", "CORN", "CAMS", "EVTS", "CLID", "FAFX", "BPOS",
    "KLAS", "KLAE", "KLAC", "KLAI", "KLBI", "KLBC", "KLAV",
];

prop_compose! {
    /// A top-level chunk no variant of `Chunk` knows (real files have `MDVI`
    /// and `INFO`), with its bytes.
    pub fn unknown_chunk()(
        tag in prop_oneof![
            Just(FourCC::of("MDVI")),
            Just(FourCC::of("INFO")),
            Just(FourCC::of("ZZZZ")),
            any::<[u8; 4]>()
                .prop_map(FourCC::new)
                .prop_filter("an unknown tag", |tag| {
                    !KNOWN_TAGS.iter().any(|known| *tag == FourCC::of(known))
                }),
        ],
        bytes in vec(any::<u8>(), 0..32),
    ) -> UnknownChunk {
        UnknownChunk { tag, bytes }
    }
}

/// A list of known tracks, sometimes ended by an unknown one (which takes the
/// rest of the object, so it can only be last).
fn tracks_with_tail<T: core::fmt::Debug + 'static>(
    known: impl Strategy<Value = T> + 'static,
    unknown: fn(UnknownTail) -> T,
) -> BoxedStrategy<Vec<T>> {
    (
        vec(known, 0..3),
        proptest::option::weighted(0.15, unknown_tail()),
    )
        .prop_map(move |(mut tracks, tail)| {
            tracks.extend(tail.map(unknown));
            tracks
        })
        .boxed()
}

/// At most one unknown sub-chunk, for the `unknown` lists that end an object.
fn unknown_tails() -> impl Strategy<Value = Vec<UnknownTail>> {
    proptest::option::weighted(0.15, unknown_tail()).prop_map(Vec::from_iter)
}

/// `Some(default)` more often than `Some(value)`: the value a version change
/// adds or may drop without loss.
fn usually<T: Clone + core::fmt::Debug + 'static>(
    default: T,
    other: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![2 => Just(default), 1 => other].boxed()
}

// ---------------------------------------------------------------- tracks

/// 0-3, or a number no variant names (it has tangents, like 2 and 3).
pub fn interpolation() -> impl Strategy<Value = Interpolation> {
    prop_oneof![
        2 => Just(Interpolation::None),
        2 => Just(Interpolation::Linear),
        2 => Just(Interpolation::Hermite),
        2 => Just(Interpolation::Bezier),
        1 => (4u32..).prop_map(Interpolation::Other),
    ]
}

/// A keyframe track of values from `value`; keys have tangents exactly when
/// the interpolation type does.
pub fn track<T, S>(value: fn() -> S) -> BoxedStrategy<Track<T>>
where
    T: core::fmt::Debug + Clone + 'static,
    S: Strategy<Value = T> + 'static,
{
    (
        interpolation(),
        prop_oneof![Just(-1i32), any::<i32>()],
        vec((any::<i32>(), value(), value(), value()), 0..4),
    )
        .prop_map(|(interpolation_type, global_sequence_id, keys)| {
            let with_tangents = interpolation_type.has_tangents();
            let tangents = keys
                .iter()
                .filter(|_| with_tangents)
                .map(|(_, _, in_tan, out_tan)| Tangents {
                    in_tan: in_tan.clone(),
                    out_tan: out_tan.clone(),
                })
                .collect();
            Track {
                tracks_count: Derived::default(),
                interpolation_type,
                global_sequence_id,
                keys: keys
                    .into_iter()
                    .map(|(frame, value, _, _)| Key::new(frame, value))
                    .collect(),
                tangents,
            }
        })
        .boxed()
}

fn u32_value() -> impl Strategy<Value = u32> {
    any::<u32>()
}

// ---------------------------------------------------------------- chunks and models

prop_compose! {
    /// A `LITE` chunk (its lights have no tracks after the chunk).
    pub fn light_chunk(version: u32)(lights in vec(light(version), 0..3)) -> LightChunk {
        LightChunk { lights }
    }
}

/// Any chunk but `VERS`, of the chunks `version` has.
pub fn chunk(version: u32) -> BoxedStrategy<Chunk> {
    let known = prop_oneof![
        model_chunk().prop_map(Chunk::Model),
        vec(sequence(), 0..3).prop_map(|sequences| Chunk::Sequences(SequenceChunk { sequences })),
        vec(any::<u32>(), 0..4).prop_map(|global_sequences| {
            Chunk::GlobalSequences(GlobalSequenceChunk { global_sequences })
        }),
        vec(texture(), 0..3).prop_map(|textures| Chunk::Textures(TextureChunk { textures })),
        vec(sound_track(), 0..3)
            .prop_map(|sound_tracks| Chunk::SoundTracks(SoundTrackChunk { sound_tracks })),
        vec(texture_animation(), 0..3).prop_map(|animations| {
            Chunk::TextureAnimations(TextureAnimationChunk { animations })
        }),
        vec(geoset_animation(), 0..3).prop_map(|animations| {
            Chunk::GeosetAnimations(GeosetAnimationChunk { animations })
        }),
        vec(bone(), 0..3).prop_map(|bones| Chunk::Bones(BoneChunk { bones })),
        vec(helper(), 0..3).prop_map(|helpers| Chunk::Helpers(HelperChunk { helpers })),
        vec(attachment(), 0..3)
            .prop_map(|attachments| Chunk::Attachments(AttachmentChunk { attachments })),
        vec(vec3(), 0..4).prop_map(|points| Chunk::PivotPoints(PivotPointChunk { points })),
        vec(particle_emitter(), 0..3)
            .prop_map(|emitters| Chunk::ParticleEmitters(ParticleEmitterChunk { emitters })),
        vec(particle_emitter2(), 0..3)
            .prop_map(|emitters| Chunk::ParticleEmitters2(ParticleEmitter2Chunk { emitters })),
        vec(ribbon_emitter(), 0..3)
            .prop_map(|emitters| Chunk::RibbonEmitters(RibbonEmitterChunk { emitters })),
        vec(camera(), 0..3).prop_map(|cameras| Chunk::Cameras(CameraChunk { cameras })),
        vec(event_object(), 0..3)
            .prop_map(|objects| Chunk::EventObjects(EventObjectChunk { objects })),
        vec(collision_shape(), 0..3)
            .prop_map(|shapes| Chunk::CollisionShapes(CollisionShapeChunk { shapes })),
    ];
    // The chunks with the most version-dependent fields come up more often.
    let materials = vec(material(version), 0..3)
        .prop_map(|materials| Chunk::Materials(MaterialChunk { materials }));
    let geosets =
        vec(geoset(version), 0..3).prop_map(|geosets| Chunk::Geosets(GeosetChunk { geosets }));
    let lights = light_chunk(version).prop_map(Chunk::Lights);
    let unknown = unknown_chunk().prop_map(Chunk::Unknown);
    if version > 800 {
        prop_oneof![
            17 => known,
            4 => materials,
            2 => geosets,
            2 => lights,
            2 => unknown,
            1 => vec(corn_emitter(), 0..3)
                .prop_map(|emitters| Chunk::CornEmitters(CornEmitterChunk { emitters })),
            1 => vec(face_effect(), 0..3)
                .prop_map(|face_effects| Chunk::FaceEffects(FaceEffectChunk { face_effects })),
            1 => bind_pose_chunk().prop_map(Chunk::BindPoses),
        ]
        .boxed()
    } else {
        prop_oneof![17 => known, 4 => materials, 2 => geosets, 2 => lights, 2 => unknown].boxed()
    }
}

prop_compose! {
    /// A model of `version`: `VERS` first, then up to 7 chunks of that version
    /// in any order.
    pub fn model(version: u32)(rest in vec(chunk(version), 0..8)) -> Model {
        let mut chunks = vec![Chunk::Version(VersionChunk { version })];
        chunks.extend(rest);
        Model { chunks }
    }
}

/// A model of any supported version.
pub fn any_model() -> impl Strategy<Value = Model> {
    Union::new(VERSIONS.map(model))
}
