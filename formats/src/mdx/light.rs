//! Lights (seed 000 `Light`; `shadowIntensity` from `MDX_VERSIONS.md` §4.1):
//! `LITE`, and the one quirk no declaration describes: light tracks a writer
//! stored after the chunk (`MDX_VERSIONS.md` §8.3), read and written by the
//! model's chunk list through [`AfterChunk`].

use format_core::{
    AfterChunk, Codec, Decode, Encode, Error, FourCC, HasTag, Mdl, Reader, Result, Tagged, Writer,
};

use super::node::{Node, node_flags};
use super::track::tracks;

/// `uint32 type // 0: omni light 1: directional light 2: ambient light`
///
/// MDL: the words `Omnidirectional`, `Directional`, `Ambient` (`LightType n`
/// for a value with none).
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u32)]
pub enum LightType {
    /// 0: omni light.
    #[default]
    #[mdl(word = "Omnidirectional")]
    Omni = 0,
    /// 1: directional light.
    #[mdl(word = "Directional")]
    Directional = 1,
    /// 2: ambient light.
    #[mdl(word = "Ambient")]
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
///
/// MDL: `Light "name" { node, type word, static values, tracks }`. A key
/// left out reads as 0 (colours black, as war3mdlx converts them and
/// mdx-m3-viewer reads them); tracks a file stored after the chunk are
/// `ExtTracksAfterChunk { }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(block = "Light", name = node.name)]
pub struct Light {
    /// The node.
    #[mdl(part(args = (node_flags::LIGHT, &[])))]
    pub node: Node,
    /// Omni, directional or ambient.
    #[mdl(word = "LightType")]
    pub light_type: LightType,
    /// Attenuation start.
    #[mdl(static)]
    pub attenuation_start: f32,
    /// Attenuation end.
    #[mdl(static)]
    pub attenuation_end: f32,
    /// Colour (blue, green, red).
    #[mdl(static, rgb)]
    pub color: [f32; 3],
    /// Intensity.
    #[mdl(static)]
    pub intensity: f32,
    /// Ambient colour.
    #[mdl(static, rgb, key = "AmbColor", alias = "AmbientColor")]
    pub ambient_color: [f32; 3],
    /// Ambient intensity.
    #[mdl(static, key = "AmbIntensity", alias = "AmbientIntensity")]
    pub ambient_intensity: f32,
    /// Shadow intensity (version >= 1200).
    #[format(if = version >= 1200)]
    #[mdl(static, since = 1200)]
    pub shadow_intensity: Option<f32>,
    /// The tracks inside the light's inclusive size, in file order.
    #[format(tagged)]
    #[mdl(tracks, tail)]
    pub tracks: Vec<LightTrack>,
    /// Tracks of this light that the file stores *after* the `LITE` chunk,
    /// outside both the chunk's size and the light's inclusive size (a writer
    /// bug seen in two corpus files, `MDX_VERSIONS.md` §8.3). Only a lenient
    /// read fills this (on the last light of the chunk); writing puts them back
    /// after the chunk, so the file stays byte-exact.
    /// [`Model::repair_sizes`](super::Model::repair_sizes) moves them into
    /// `tracks`.
    #[format(skip)]
    #[mdl(tracks_in = "ExtTracksAfterChunk")]
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

/// The one quirk no chunk's declaration describes: light tracks a writer
/// stored *after* the `LITE` chunk, outside both the chunk's size and the
/// last light's inclusive size (`MDX_VERSIONS.md` §8.3, two corpus files).
/// The track belongs to no chunk, and is found only by what follows a
/// `LITE`: the chunk list reads and writes it through this hook
/// (`#[format(after_chunk)]` on [`Chunk::Lights`](super::Chunk::Lights)).
impl AfterChunk for LightChunk {
    /// Light tracks right after the chunk: an error in strict mode; in
    /// lenient mode they are attached to the chunk's last light. Only the
    /// tags the spec lists are looked for (`LightTrack::Unknown` would take
    /// any tag).
    fn read_after(&mut self, r: &mut Reader<'_>) -> Result<()> {
        while let Some(tag) = r.peek_tag().filter(|tag| LightTrack::TAGS.contains(tag)) {
            let offset = r.pos();
            let Some(light) = self.lights.last_mut() else {
                return Err(Error::invalid(
                    offset,
                    format!("light track `{tag}` follows a LITE chunk that has no light"),
                ));
            };
            let error = Error::invalid(
                offset,
                format!(
                    "light track `{tag}` follows the LITE chunk, outside its size and the \
                     inclusive size of light `{}` (a writer bug; read leniently to keep it)",
                    light.node.name.to_string_lossy()
                ),
            )
            .in_tag(LITE);
            r.recover(
                error,
                "attached it to the chunk's last light, to be written back after the chunk \
                 (Model::repair_sizes moves it inside the light)",
            )?;
            let track = LightTrack::decode(r, ()).map_err(|e| e.in_tag(LITE))?;
            light.tracks_after_chunk.push(track);
        }
        Ok(())
    }

    /// The tracks a lenient read found after the chunk, in the same place.
    fn write_after(&self, w: &mut Writer) -> Result<()> {
        let last = self.lights.len().saturating_sub(1);
        for (index, light) in self.lights.iter().enumerate() {
            if light.tracks_after_chunk.is_empty() {
                continue;
            }
            if index != last {
                return Err(Error::inconsistent(
                    w.pos(),
                    "only the last light of a LITE chunk can have tracks after the chunk",
                )
                .in_field("tracks_after_chunk")
                .at_index(index)
                .in_tag(LITE));
            }
            for track in &light.tracks_after_chunk {
                track.encode(w, ())?;
            }
        }
        Ok(())
    }
}

/// The tag errors about the quirk are placed in.
const LITE: FourCC = <LightChunk as HasTag>::TAG;

impl LightChunk {
    /// Moves every light track a file stored after the chunk into its light,
    /// so the written sizes include it (`MDX_VERSIONS.md` §8.3). Returns how
    /// many tracks moved.
    pub(super) fn repair_sizes(&mut self) -> usize {
        let mut moved = 0;
        for light in &mut self.lights {
            moved += light.tracks_after_chunk.len();
            // Before a trailing unknown sub-chunk, which ends the light.
            let at = match light.tracks.last() {
                Some(LightTrack::Unknown(_)) => light.tracks.len() - 1,
                _ => light.tracks.len(),
            };
            light
                .tracks
                .splice(at..at, light.tracks_after_chunk.drain(..));
        }
        moved
    }
}
