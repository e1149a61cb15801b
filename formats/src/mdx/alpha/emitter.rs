//! The emitters (seed 003): `PREM`, `PRE2` (the alpha layout, with splines)
//! and `RIBB`. No real file has one: these rest on seed 003, WMV, WEX and GMP,
//! which agree on the byte layouts (`MDX_VERSIONS.md` §6.3).
//!
//! `CORN` has no alpha layout in any source: alpha files use the Reforged
//! chunk ([`CornEmitterChunk`](crate::mdx::CornEmitterChunk)).

use format_core::{Codec, FixedStr, Tagged, UnknownTail};

use super::node::GenObject;
use super::track::FlipTrack;
use crate::mdx::track::{Track, tracks};

tracks! {
    /// `KPEE emissionRate; KPEG gravity; KPLN longitude; KPLT latitude; KPEL life; KPES speed; KVIS visibilityKeys;`
    ParticleEmitterTrack {
        /// `KPEE: MDLKEYTRACK<float> emissionRate`
        "KPEE" => EmissionRate(f32),
        /// `KPEG: MDLKEYTRACK<float> gravity`
        "KPEG" => Gravity(f32),
        /// `KPLN: MDLKEYTRACK<float> longitude`
        "KPLN" => Longitude(f32),
        /// `KPLT: MDLKEYTRACK<float> latitude`
        "KPLT" => Latitude(f32),
        /// `KPEL: MDLKEYTRACK<float> life`
        "KPEL" => Life(f32),
        /// `KPES: MDLKEYTRACK<float> speed`
        "KPES" => Speed(f32),
        /// `KVIS: MDLKEYTRACK<float> visibilityKeys`
        "KVIS" => Visibility(f32),
    }
}

/// `MDLPARTICLEEMITTER { uint32_t size; MDLGENOBJECT object; float staticEmissionRate; float staticGravity; float staticLongitude; float staticLatitude; MDLPARTICLE particle; tracks }`
/// with `MDLPARTICLE { char path[0x104]; float staticLife; float staticSpeed; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct ParticleEmitter {
    /// The node.
    pub object: GenObject,
    /// Particles per second.
    pub static_emission_rate: f32,
    /// Gravity.
    pub static_gravity: f32,
    /// Longitude.
    pub static_longitude: f32,
    /// Latitude.
    pub static_latitude: f32,
    /// `MDLPARTICLE.path`: the particle model.
    pub path: FixedStr<260>,
    /// `MDLPARTICLE.staticLife`.
    pub static_life: f32,
    /// `MDLPARTICLE.staticSpeed`.
    pub static_speed: f32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<ParticleEmitterTrack>,
}

/// `PREM { uint32_t numEmitters; MDLPARTICLEEMITTER emitters[numEmitters]; }` ("deprecated use PRE2 instead")
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "PREM")]
pub struct ParticleEmitterChunk {
    /// The emitters.
    #[format(count = u32)]
    pub emitters: Vec<ParticleEmitter>,
}

tracks! {
    /// `KVIS KP2S KP2R KP2L KPLN KP2G KLIF KP2E KP2W KP2N KP2Z`
    ParticleEmitter2Track {
        /// `KVIS: MDLKEYTRACK<float> visibilityKeys`
        "KVIS" => Visibility(f32),
        /// `KP2S: MDLKEYTRACK<float> speed`
        "KP2S" => Speed(f32),
        /// `KP2R: MDLKEYTRACK<float> variation`
        "KP2R" => Variation(f32),
        /// `KP2L: MDLKEYTRACK<float> latitude`
        "KP2L" => Latitude(f32),
        /// `KPLN: MDLKEYTRACK<float> longitude`
        "KPLN" => Longitude(f32),
        /// `KP2G: MDLKEYTRACK<float> gravity`
        "KP2G" => Gravity(f32),
        /// `KLIF: MDLKEYTRACK<float> life`
        "KLIF" => Life(f32),
        /// `KP2E: MDLKEYTRACK<float> emissionRate`
        "KP2E" => EmissionRate(f32),
        /// `KP2W: MDLKEYTRACK<float> width`
        "KP2W" => Width(f32),
        /// `KP2N: MDLKEYTRACK<float> length`
        "KP2N" => Length(f32),
        /// `KP2Z: MDLKEYTRACK<float> zsource`
        "KP2Z" => ZSource(f32),
    }
}

/// `MDLPARTICLEEMITTER2` in its alpha layout (`!WC3Reforged`): 795 bytes
/// plus 12 per spline after the node. The three alpha bytes leave every field
/// after them unaligned.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct ParticleEmitter2 {
    /// The node.
    pub object: GenObject,
    /// Meaning unknown; kept as read.
    pub emitter_size: u32,
    /// `PARTICLE_EMITTER_TYPE`: 0 base, 1 plane, 2 sphere, 3 spline.
    pub emitter_type: u32,
    /// particleVelocity.
    pub static_speed: f32,
    /// particleVelocityVariation: the client adds 1.0 and multiplies by a random multiplier.
    pub static_variation: f32,
    /// Latitude.
    pub static_latitude: f32,
    /// Longitude.
    pub static_longitude: f32,
    /// particleAcceleration, only applied to the z axis.
    pub static_gravity: f32,
    /// Deducted from the particle starting z position; must be ≥ 0.0.
    pub static_zsource: f32,
    /// Base particle lifespan in seconds.
    pub static_life: f32,
    /// Base amount of particles per second; the client treats negatives as 0.0.
    pub static_emission_rate: f32,
    /// Height (PET_SPLINE: endAngle, PET_SPHERE: outerRadius).
    pub static_length: f32,
    /// Width (PET_SPLINE: startAngle, PET_SPHERE: innerRadius).
    pub static_width: f32,
    /// Texture rows.
    pub rows: u32,
    /// Texture columns.
    pub cols: u32,
    /// `PARTICLE_TYPE`: 0 head, 1 tail, 2 both.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub particle_type: u32,
    /// Tail length.
    pub tail_length: f32,
    /// Middle time.
    pub middle_time: f32,
    /// `C3Color startColor`.
    pub start_color: [f32; 3],
    /// `C3Color middleColor`.
    pub middle_color: [f32; 3],
    /// `C3Color endColor`.
    pub end_color: [f32; 3],
    /// Start alpha, out of 255.
    pub start_alpha: u8,
    /// Middle alpha.
    pub middle_alpha: u8,
    /// End alpha.
    pub end_alpha: u8,
    /// Start scale.
    pub start_scale: f32,
    /// Middle scale.
    pub middle_scale: f32,
    /// End scale.
    pub end_scale: f32,
    /// `lifespanUVAnim{Start, End, Repeat}`.
    pub lifespan_uv_anim: [u32; 3],
    /// `decayUVAnim{Start, End, Repeat}`.
    pub decay_uv_anim: [u32; 3],
    /// `tailUVAnim{Start, End, Repeat}`.
    pub tail_uv_anim: [u32; 3],
    /// `tailDecayUVAnim{Start, End, Repeat}`.
    pub tail_decay_uv_anim: [u32; 3],
    /// `PARTICLE_BLEND_MODE`: 0 blend, 1 add, 2 modulate, 3 modulate 2x, 4 alpha key.
    pub blend_mode: u32,
    /// TEXS index or `0xFFFFFFFF` if none.
    pub texture_id: u32,
    /// Priority is sorted lowest to highest.
    pub priority_plane: i32,
    /// Only seen in Wisp.mdx.
    pub replaceable_id: u32,
    /// Particle model.
    pub geometry_mdl: FixedStr<260>,
    /// Recursion model.
    pub recursion_mdl: FixedStr<260>,
    /// Default is 10.0.
    pub twinkle_fps: f32,
    /// Boolean: twinkle applies additional scaling to make a shrink and grow effect.
    pub twinkle_on_off: f32,
    /// Twinkle is not applied if twinkleScaleMax - twinkleScaleMin == 0.0.
    pub twinkle_scale_min: f32,
    /// See `twinkle_scale_min`.
    pub twinkle_scale_max: f32,
    /// Instant velocity scale, multiplier for each particle's initial velocity.
    pub ivel_scale: f32,
    /// `tumble{x,y,z}{Min,Max}`: a randomised rotation of each particle.
    pub tumble: [f32; 6],
    /// Decreases particle velocity over time.
    pub drag: f32,
    /// Spin.
    pub spin: f32,
    /// Simulates being blown.
    pub wind_vector: [f32; 3],
    /// How long `wind_vector` is applied.
    pub wind_time: f32,
    /// followSpeed1.
    pub follow_speed1: f32,
    /// followScale1.
    pub follow_scale1: f32,
    /// followSpeed2.
    pub follow_speed2: f32,
    /// followScale2.
    pub follow_scale2: f32,
    /// `uint32_t numSplines; C3Vector spline[numSplines];`
    #[format(count = u32)]
    pub spline: Vec<[f32; 3]>,
    /// Boolean.
    pub squirts: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<ParticleEmitter2Track>,
}

/// `PRE2 { uint32_t numEmitters; MDLPARTICLEEMITTER2 emitters[numEmitters]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "PRE2")]
pub struct ParticleEmitter2Chunk {
    /// The emitters.
    #[format(count = u32)]
    pub emitters: Vec<ParticleEmitter2>,
}

/// `KRHA heightAbove; KRHB heightBelow; KRAL alphaKeys; KRCO colorKeys; KRTX textureSlot; KVIS visibilityKeys;`
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RibbonEmitterTrack {
    /// `KRHA: MDLKEYTRACK<float> heightAbove`
    #[format(tag = "KRHA")]
    HeightAbove(Track<f32>),
    /// `KRHB: MDLKEYTRACK<float> heightBelow`
    #[format(tag = "KRHB")]
    HeightBelow(Track<f32>),
    /// `KRAL: MDLKEYTRACK<float> alphaKeys`
    #[format(tag = "KRAL")]
    Alpha(Track<f32>),
    /// `KRCO: MDLKEYTRACK<C3Color> colorKeys`
    #[format(tag = "KRCO")]
    Color(Track<[f32; 3]>),
    /// `KRTX: MDLSIMPLEKEYTRACK<MDLINTKEY> textureSlot` ("unused by alpha
    /// files"; or a key track: see [`FlipTrack`])
    #[format(tag = "KRTX", args(<RibbonEmitterTrack as Tagged>::TAGS))]
    TextureSlot(FlipTrack),
    /// `KVIS: MDLKEYTRACK<float> visibilityKeys`
    #[format(tag = "KVIS")]
    Visibility(Track<f32>),
    /// A tag the spec does not list: it and the rest of the emitter, verbatim.
    #[format(unknown)]
    Unknown(UnknownTail),
}

/// `MDLRIBBONEMITTER { uint32_t size; MDLGENOBJECT object; uint32_t emitterSize; ...; float gravity; tracks }`
/// (56 bytes after the node)
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct RibbonEmitter {
    /// The node.
    pub object: GenObject,
    /// Meaning unknown; kept as read.
    pub emitter_size: u32,
    /// Must be ≥ 0.0.
    pub static_height_above: f32,
    /// Must be ≥ 0.0.
    pub static_height_below: f32,
    /// 0 is transparent, 1 is opaque.
    pub static_alpha: f32,
    /// `C3Color` (b, g, r).
    pub static_color: [f32; 3],
    /// In seconds; must be > 0.0, the client forces a minimum of 0.25 s.
    pub edge_lifetime: f32,
    /// Texture slot.
    pub static_texture_slot: u32,
    /// Must be ≥ 1.
    pub edges_per_second: u32,
    /// Texture rows.
    pub texture_rows: u32,
    /// Texture columns.
    pub texture_cols: u32,
    /// MTLS index.
    pub material_id: u32,
    /// Gravity.
    pub gravity: f32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<RibbonEmitterTrack>,
}

/// `RIBB { uint32_t numEmitters; MDLRIBBONEMITTER emitters[numEmitters]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "RIBB")]
pub struct RibbonEmitterChunk {
    /// The emitters.
    #[format(count = u32)]
    pub emitters: Vec<RibbonEmitter>,
}
