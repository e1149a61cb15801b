//! Emitters (seed 000): `PREM` (models), `PRE2` (quads), `RIBB` (ribbons) and,
//! for version > 800, `CORN` (PopcornFX; layout from `MDX_VERSIONS.md` §5.4).

use format_core::{Codec, FixedStr, Mdl};

use super::node::{Node, node_flags};
use super::track::tracks;

tracks! {
    /// `(KPEE) (KPEG) (KPLN) (KPLT) (KPEL) (KPES) (KPEV)`
    ParticleEmitterTrack {
        /// `KPEE: float emissionRate`
        "KPEE" => EmissionRate(f32),
        /// `KPEG: float gravity`
        "KPEG" => Gravity(f32),
        /// `KPLN: float longitude`
        "KPLN" => Longitude(f32),
        /// `KPLT: float latitude`
        "KPLT" => Latitude(f32),
        /// `KPEL: float lifespan`
        "KPEL" => Lifespan(f32),
        /// `KPES: float speed`
        "KPES" => Speed(f32),
        /// `KPEV: float visibility`
        "KPEV" => Visibility(f32),
    }
}

/// The flag words of a `ParticleEmitter`'s node in MDL.
const PARTICLE_EMITTER_FLAGS: &[(u32, &str)] = &[
    (node_flags::EMITTER_USES_MDL_OR_UNSHADED, "EmitterUsesMDL"),
    (node_flags::EMITTER_USES_TGA_OR_SORT_FAR_Z, "EmitterUsesTGA"),
];

/// `ParticleEmitter { uint32 inclusiveSize; Node node; float emissionRate; float gravity; float longitude; float latitude; char[260] spawnModelFileName; float lifespan; float initialiVelocity; (KPEE) (KPEG) (KPLN) (KPLT) (KPEL) (KPES) (KPEV) }`
///
/// MDL: `ParticleEmitter "name" { node, statics, Particle { LifeSpan,
/// InitVelocity, Path }, tracks }`: an animated `LifeSpan` or
/// `InitVelocity` is written in a `Particle { }` block of its own where it
/// comes in the track list (the game's and mdx-m3-viewer's readers look for
/// them there only), so the order survives.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(
    block = "ParticleEmitter",
    name = node.name,
    order(
        node, emission_rate, gravity, longitude, latitude, lifespan, initial_velocity,
        spawn_model_file_name, tracks
    )
)]
pub struct ParticleEmitter {
    /// The node.
    #[mdl(part(args = (node_flags::PARTICLE_EMITTER, PARTICLE_EMITTER_FLAGS)))]
    pub node: Node,
    /// Particles per second.
    #[mdl(static)]
    pub emission_rate: f32,
    /// Gravity.
    #[mdl(static)]
    pub gravity: f32,
    /// Longitude.
    #[mdl(static)]
    pub longitude: f32,
    /// Latitude.
    #[mdl(static)]
    pub latitude: f32,
    /// The model (or texture) emitted.
    #[mdl(key = "Path", within = "Particle")]
    pub spawn_model_file_name: FixedStr<260>,
    /// Particle lifespan.
    #[mdl(static, key = "LifeSpan", alias = "Lifespan", within = "Particle")]
    pub lifespan: f32,
    /// Initial velocity.
    #[mdl(
        static,
        key = "InitVelocity",
        alias = "InitialVelocity",
        within = "Particle"
    )]
    pub initial_velocity: f32,
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks, tail)]
    pub tracks: Vec<ParticleEmitterTrack>,
}

/// `PREM { ParticleEmitter[?] emitters }`: emitters that emit models.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "PREM")]
pub struct ParticleEmitterChunk {
    /// The emitters.
    #[format(until_end)]
    pub emitters: Vec<ParticleEmitter>,
}

tracks! {
    /// `(KP2S) (KP2R) (KP2L) (KP2G) (KP2E) (KP2N) (KP2W) (KP2V)`
    ParticleEmitter2Track {
        /// `KP2S: float speed`
        "KP2S" => Speed(f32),
        /// `KP2R: float variation`
        "KP2R" => Variation(f32),
        /// `KP2L: float latitude`
        "KP2L" => Latitude(f32),
        /// `KP2G: float gravity`
        "KP2G" => Gravity(f32),
        /// `KP2E: float emissionRate`
        "KP2E" => EmissionRate(f32),
        /// `KP2N: float length`
        "KP2N" => Length(f32),
        /// `KP2W: float width`
        "KP2W" => Width(f32),
        /// `KP2V: float visibility`
        "KP2V" => Visibility(f32),
    }
}

/// The flag words of a `ParticleEmitter2`'s node in MDL.
const PARTICLE_EMITTER2_FLAGS: &[(u32, &str)] = &[
    (node_flags::EMITTER_USES_MDL_OR_UNSHADED, "Unshaded"),
    (node_flags::EMITTER_USES_TGA_OR_SORT_FAR_Z, "SortPrimsFarZ"),
    (node_flags::LINE_EMITTER, "LineEmitter"),
    (node_flags::UNFOGGED, "Unfogged"),
    (node_flags::MODEL_SPACE, "ModelSpace"),
    (node_flags::XY_QUAD, "XYQuad"),
];

/// `ParticleEmitter2`: emitters that emit quads.
///
/// ```text
/// ParticleEmitter2 {
///   uint32 inclusiveSize
///   Node node
///   float speed; float variation; float latitude; float gravity; float lifespan
///   float emissionRate; float length; float width
///   uint32 filterMode; uint32 rows; uint32 columns; uint32 headOrTail
///   float tailLength; float time
///   float[3][3] segmentColor; uint8[3] segmentAlpha; float[3] segmentScaling
///   uint32[3] headInterval; uint32[3] headDecayInterval
///   uint32[3] tailInterval; uint32[3] tailDecayInterval
///   uint32 textureId; uint32 squirt; uint32 priorityPlane; uint32 replaceableId
///   (KP2S) (KP2R) (KP2L) (KP2G) (KP2E) (KP2N) (KP2W) (KP2V)
/// }
/// ```
///
/// MDL: `ParticleEmitter2 "name" { node, statics, the filter mode and
/// head or tail as words (`Additive,`, `Both,`), SegmentColor { Color,
/// Color, Color }, Alpha, ..., Squirt, tracks }`; left out, the segment
/// colours are black (as war3mdlx converts them and mdx-m3-viewer reads
/// them), alphas 255, scalings 1, one row and one column, `Time` 0.5.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(
    block = "ParticleEmitter2",
    name = node.name,
    order(
        node, speed, variation, latitude, gravity, lifespan, emission_rate, width, length,
        filter_mode, rows, columns, head_or_tail, tail_length, time, segment_color,
        segment_alpha, segment_scaling, head_interval, head_decay_interval, tail_interval,
        tail_decay_interval, texture_id, squirt, priority_plane, replaceable_id, tracks
    )
)]
pub struct ParticleEmitter2 {
    /// The node.
    #[mdl(part(args = (node_flags::PARTICLE_EMITTER, PARTICLE_EMITTER2_FLAGS)))]
    pub node: Node,
    /// Speed.
    #[mdl(static)]
    pub speed: f32,
    /// Speed variation.
    #[mdl(static)]
    pub variation: f32,
    /// Latitude.
    #[mdl(static)]
    pub latitude: f32,
    /// Gravity.
    #[mdl(static)]
    pub gravity: f32,
    /// Particle lifespan.
    #[mdl(key = "LifeSpan", alias = "Lifespan")]
    pub lifespan: f32,
    /// Particles per second.
    #[mdl(static)]
    pub emission_rate: f32,
    /// Length of the emitting area.
    #[mdl(static)]
    pub length: f32,
    /// Width of the emitting area.
    #[mdl(static)]
    pub width: f32,
    /// 0: blend, 1: additive, 2: modulate, 3: modulate 2x, 4: alpha key
    #[mdl(
        words("Blend", "Additive", "Modulate", "Modulate2x", "AlphaKey"),
        key = "ExtFilterMode"
    )]
    pub filter_mode: u32,
    /// Rows of the texture atlas.
    #[mdl(default = 1)]
    pub rows: u32,
    /// Columns of the texture atlas.
    #[mdl(default = 1)]
    pub columns: u32,
    /// 0: head, 1: tail, 2: both
    #[mdl(words("Head", "Tail", "Both"), key = "ExtHeadOrTail")]
    pub head_or_tail: u32,
    /// Tail length.
    pub tail_length: f32,
    /// Middle of the lifetime (0..1) for the segment values.
    #[mdl(default = 0.5)]
    pub time: f32,
    /// Colour at start, middle, end.
    #[mdl(rgb, array = "Color")]
    pub segment_color: [[f32; 3]; 3],
    /// Alpha at start, middle, end (0..255).
    #[mdl(key = "Alpha", default = [255; 3])]
    pub segment_alpha: [u8; 3],
    /// Scale at start, middle, end.
    #[mdl(key = "ParticleScaling", default = [1.0; 3])]
    pub segment_scaling: [f32; 3],
    /// Head start, end, repeat.
    #[mdl(key = "LifeSpanUVAnim")]
    pub head_interval: [u32; 3],
    /// Head decay start, end, repeat.
    #[mdl(key = "DecayUVAnim")]
    pub head_decay_interval: [u32; 3],
    /// Tail start, end, repeat.
    #[mdl(key = "TailUVAnim")]
    pub tail_interval: [u32; 3],
    /// Tail decay start, end, repeat.
    #[mdl(key = "TailDecayUVAnim")]
    pub tail_decay_interval: [u32; 3],
    /// Index into `TEXS`.
    #[mdl(key = "TextureID")]
    pub texture_id: u32,
    /// 0: no squirt, 1: squirt.
    #[mdl(flags(Squirt = 1), key = "ExtSquirt")]
    pub squirt: u32,
    /// Draw order.
    pub priority_plane: i32,
    /// Replaceable texture id.
    pub replaceable_id: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks, tail)]
    pub tracks: Vec<ParticleEmitter2Track>,
}

/// `PRE2 { ParticleEmitter2[?] emitters }`: emitters that emit quads.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "PRE2")]
pub struct ParticleEmitter2Chunk {
    /// The emitters.
    #[format(until_end)]
    pub emitters: Vec<ParticleEmitter2>,
}

tracks! {
    /// `(KRHA) (KRHB) (KRAL) (KRCO) (KRTX) (KRVS)`
    RibbonEmitterTrack {
        /// `KRHA: float heightAbove`
        "KRHA" => HeightAbove(f32),
        /// `KRHB: float heightBelow`
        "KRHB" => HeightBelow(f32),
        /// `KRAL: float alpha`
        "KRAL" => Alpha(f32),
        /// `KRCO: float[3] color`
        "KRCO" => Color([f32; 3]),
        /// `KRTX: uint32 textureSlot`
        "KRTX" => TextureSlot(u32),
        /// `KRVS: float visibility`
        "KRVS" => Visibility(f32),
    }
}

/// `RibbonEmitter { uint32 inclusiveSize; Node node; float heightAbove; float heightBelow; float alpha; float[3] color; float lifespan; uint32 textureSlot; uint32 emissionRate; uint32 rows; uint32 columns; uint32 materialId; float gravity; (KRHA) (KRHB) (KRAL) (KRCO) (KRTX) (KRVS) }`
///
/// MDL: `RibbonEmitter "name" { node, statics, LifeSpan, ..., tracks }`; a
/// colour left out is black (as mdx-m3-viewer reads it and war3mdlx, since
/// commit fd45aec, converts it), alpha 1, one row and one column.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(
    block = "RibbonEmitter",
    name = node.name,
    order(
        node, height_above, height_below, alpha, color, texture_slot, lifespan, emission_rate,
        rows, columns, material_id, gravity, tracks
    )
)]
pub struct RibbonEmitter {
    /// The node.
    #[mdl(part(args = (node_flags::RIBBON_EMITTER, &[])))]
    pub node: Node,
    /// Height above the emitter.
    #[mdl(static)]
    pub height_above: f32,
    /// Height below the emitter.
    #[mdl(static)]
    pub height_below: f32,
    /// Alpha.
    #[mdl(static, default = 1.0)]
    pub alpha: f32,
    /// Colour.
    #[mdl(static, rgb)]
    pub color: [f32; 3],
    /// Lifespan of a segment.
    #[mdl(key = "LifeSpan", alias = "Lifespan")]
    pub lifespan: f32,
    /// Texture slot.
    #[mdl(static)]
    pub texture_slot: u32,
    /// Segments per second.
    pub emission_rate: u32,
    /// Rows of the texture atlas.
    #[mdl(default = 1)]
    pub rows: u32,
    /// Columns of the texture atlas.
    #[mdl(default = 1)]
    pub columns: u32,
    /// Index into `MTLS`.
    #[mdl(key = "MaterialID")]
    pub material_id: u32,
    /// Gravity.
    pub gravity: f32,
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks, tail)]
    pub tracks: Vec<RibbonEmitterTrack>,
}

/// `RIBB { RibbonEmitter[?] emitters }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "RIBB")]
pub struct RibbonEmitterChunk {
    /// The emitters.
    #[format(until_end)]
    pub emitters: Vec<RibbonEmitter>,
}

tracks! {
    /// `(KPPA) (KPPC) (KPPE) (KPPL) (KPPS) (KPPV)`
    CornEmitterTrack {
        /// `KPPA: float alpha`
        "KPPA" => Alpha(f32),
        /// `KPPC: float[3] color` (3 floats as in MV, S000, S003; no file has one,
        /// and the emitter's inclusive size checks the track ends where it should)
        "KPPC" => Color([f32; 3]),
        /// `KPPE: float emissionRate`
        "KPPE" => EmissionRate(f32),
        /// `KPPL: float lifespan`
        "KPPL" => Lifespan(f32),
        /// `KPPS: float speed`
        "KPPS" => Speed(f32),
        /// `KPPV: float visibility`
        "KPPV" => Visibility(f32),
    }
}

/// `CornEmitter { uint32 inclusiveSize; Node node; float lifeSpan; float emissionRate; float speed; float[3] color; float alpha; uint32 replaceableId; char[260] path; char[260] flags; (KPPA) (KPPC) (KPPE) (KPPL) (KPPS) (KPPV) }`
/// (552 bytes after the node; the seed's `float[4] color` is colour and alpha).
///
/// MDL: `ParticleEmitterPopcorn "name" { node, statics, ReplaceableId, Path,
/// AnimVisibilityGuide, tracks }`; the colour is written as stored (no
/// writer of it is known to say its order), white and opaque when left out.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(block = "ParticleEmitterPopcorn", name = node.name)]
pub struct CornEmitter {
    /// The node.
    #[mdl(part(args = (node_flags::PARTICLE_EMITTER, &[])))]
    pub node: Node,
    /// Particle lifespan.
    #[mdl(static, key = "LifeSpan", alias = "Lifespan")]
    pub life_span: f32,
    /// Particles per second.
    #[mdl(static)]
    pub emission_rate: f32,
    /// Speed.
    #[mdl(static)]
    pub speed: f32,
    /// Colour.
    #[mdl(static, default = [1.0; 3])]
    pub color: [f32; 3],
    /// Alpha.
    #[mdl(static, default = 1.0)]
    pub alpha: f32,
    /// Replaceable texture id.
    pub replaceable_id: u32,
    /// Path of the `.pkfx` effect.
    pub path: FixedStr<260>,
    /// The "animation visibility guide" (`Always=off, Death=on`).
    #[mdl(key = "AnimVisibilityGuide")]
    pub flags: FixedStr<260>,
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks, tail)]
    pub tracks: Vec<CornEmitterTrack>,
}

/// `CORN { CornEmitter[?] emitters }`: emitters that use the PopcornFX runtime (version > 800).
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "CORN")]
pub struct CornEmitterChunk {
    /// The emitters.
    #[format(until_end)]
    pub emitters: Vec<CornEmitter>,
}
