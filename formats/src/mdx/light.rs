//! Lights (seed 000 `Light`; `shadowIntensity` from `MDX_VERSIONS.md` §4.1): `LITE`.

use format_core::Codec;

use super::node::Node;
use super::track::tracks;

/// `uint32 type // 0: omni light 1: directional light 2: ambient light`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u32)]
pub enum LightType {
    /// 0: omni light.
    #[default]
    Omni = 0,
    /// 1: directional light.
    Directional = 1,
    /// 2: ambient light.
    Ambient = 2,
    /// A value the spec does not name, kept as read.
    #[format(unknown)]
    Other(u32),
}

tracks! {
    /// `(KLAS) (KLAE) (KLAC) (KLAI) (KLBI) (KLBC) (KLAV)`
    LightTrack {
        /// `KLAS: float attenuationStart`
        "KLAS" => AttenuationStart(f32),
        /// `KLAE: float attenuationEnd`
        "KLAE" => AttenuationEnd(f32),
        /// `KLAC: float[3] color`
        "KLAC" => Color([f32; 3]),
        /// `KLAI: float intensity`
        "KLAI" => Intensity(f32),
        /// `KLBI: float ambientIntensity`
        "KLBI" => AmbientIntensity(f32),
        /// `KLBC: float[3] ambientColor`
        "KLBC" => AmbientColor([f32; 3]),
        /// `KLAV: float visibility`
        "KLAV" => Visibility(f32),
    }
}

/// `Light`
///
/// ```text
/// Light {
///   uint32 inclusiveSize
///   Node node
///   uint32 type
///   float attenuationStart
///   float attenuationEnd
///   float[3] color
///   float intensity
///   float[3] ambientColor
///   float ambientIntensity
///   if (version >= 1200) float shadowIntensity
///   (KLAS) (KLAE) (KLAC) (KLAI) (KLBI) (KLBC) (KLAV)
/// }
/// ```
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Light {
    /// The node.
    pub node: Node,
    /// Omni, directional or ambient.
    pub light_type: LightType,
    /// Attenuation start.
    pub attenuation_start: f32,
    /// Attenuation end.
    pub attenuation_end: f32,
    /// Colour (blue, green, red).
    pub color: [f32; 3],
    /// Intensity.
    pub intensity: f32,
    /// Ambient colour.
    pub ambient_color: [f32; 3],
    /// Ambient intensity.
    pub ambient_intensity: f32,
    /// Shadow intensity (version >= 1200).
    #[format(if = version >= 1200)]
    pub shadow_intensity: Option<f32>,
    /// The tracks inside the light's inclusive size, in file order.
    #[format(tagged)]
    pub tracks: Vec<LightTrack>,
    /// Tracks of this light that the file stores *after* the `LITE` chunk,
    /// outside both the chunk's size and the light's inclusive size (a writer
    /// bug seen in two corpus files, `MDX_VERSIONS.md` §8.3). Only a lenient
    /// read fills this (on the last light of the chunk); writing puts them back
    /// after the chunk, so the file stays byte-exact.
    /// [`Model::repair_sizes`](super::Model::repair_sizes) moves them into
    /// `tracks`.
    #[format(skip)]
    pub tracks_after_chunk: Vec<LightTrack>,
}

impl Light {
    /// Every track of the light: inside its size, then after the chunk.
    pub fn all_tracks(&self) -> impl Iterator<Item = &LightTrack> {
        self.tracks.iter().chain(&self.tracks_after_chunk)
    }
}

/// `LITE { Light[?] lights }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "LITE")]
pub struct LightChunk {
    /// The lights.
    #[format(until_end)]
    pub lights: Vec<Light>,
}
