//! Textures and what animates them (seed 000): `TEXS`, `SNDS`, `TXAN`.

use format_core::{Codec, FixedStr, Mdl};

use super::track::tracks;

/// `Texture { uint32 replaceableId; char[260] fileName; uint32 flags }` (268 bytes)
///
/// MDL: `Bitmap { Image "path", ReplaceableId n, WrapWidth, WrapHeight }`.
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[mdl(block = "Bitmap", order(file_name, replaceable_id, flags))]
#[repr(C)]
pub struct Texture {
    /// 0: the file below; 1: team colour, 2: team glow, 11+: game-chosen textures.
    #[mdl(nonzero)]
    pub replaceable_id: u32,
    /// Path of the image, empty for a replaceable texture.
    #[mdl(key = "Image", alias = "Path")]
    pub file_name: FixedStr<260>,
    /// 0x1: wrap width, 0x2: wrap height (seed 002).
    #[mdl(flags(WrapWidth = 1, WrapHeight = 2))]
    pub flags: u32,
}

/// `TEXS { Texture[size / 268] textures }`
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "TEXS")]
#[mdl(block = "Textures")]
pub struct TextureChunk {
    /// The textures; layers refer to them by index.
    #[format(count = size / 268)]
    #[mdl(items)]
    pub textures: Vec<Texture>,
}

/// `SoundTrack { char[260] fileName; float volume; float pitch; uint32 flags }` (272 bytes)
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SoundTrack {
    /// Path of the sound.
    pub file_name: FixedStr<260>,
    /// Volume.
    pub volume: f32,
    /// Pitch.
    pub pitch: f32,
    /// Flags.
    pub flags: u32,
}

/// `SNDS { SoundTrack[size / 272] soundTracks }`: "only used at some point
/// before Warcraft 3 released".
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "SNDS")]
pub struct SoundTrackChunk {
    /// The sound tracks.
    #[format(count = size / 272)]
    pub sound_tracks: Vec<SoundTrack>,
}

tracks! {
    /// `(KTAT) (KTAR) (KTAS)`
    TextureAnimationTrack {
        /// `KTAT: float[3] translation`
        "KTAT" => Translation([f32; 3]),
        /// `KTAR: float[4] rotation`
        "KTAR" => Rotation([f32; 4]),
        /// `KTAS: float[3] scaling`
        "KTAS" => Scaling([f32; 3]),
    }
}

/// `TextureAnimation { uint32 inclusiveSize; (KTAT) (KTAR) (KTAS) }`
///
/// MDL: `TVertexAnim { tracks }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(block = "TVertexAnim")]
pub struct TextureAnimation {
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks)]
    pub tracks: Vec<TextureAnimationTrack>,
}

/// `TXAN { TextureAnimation[?] animations }`
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "TXAN")]
#[mdl(block = "TextureAnims")]
pub struct TextureAnimationChunk {
    /// The texture animations; layers refer to them by index.
    #[format(until_end)]
    #[mdl(items = "texture animations")]
    pub animations: Vec<TextureAnimation>,
}
