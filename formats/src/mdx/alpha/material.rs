//! `MTLS` (`MDLMATERIALSECTION`, `MDLTEXLAYER`) and `TXAN` (seed 003). `TEXS`
//! is the WC3 chunk ([`TextureChunk`](crate::mdx::TextureChunk)), unchanged.
//!
//! Verified on the real v1300 file (`MDX_VERSIONS.md` §6.2): no material
//! flags and no `LAYS` tag, unlike seed 001 and WC3.

use format_core::{Codec, Derived, Tagged, UnknownTail};

use super::track::{CompressedQuaternion, FlipTrack};
use crate::mdx::track::{Track, tracks};

/// `MTLS { uint32_t numMaterials; uint32_t unused; MDLMATERIALSECTION materials[numMaterials]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "MTLS")]
pub struct MaterialChunk {
    /// `numMaterials` ("limited to 0xFF"), computed from `materials` on write.
    #[format(calc = materials.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub num_materials: Derived<u32>,
    /// "has values but is ignored by the client"; kept as read.
    pub unused: u32,
    /// The materials.
    #[format(count = num_materials)]
    pub materials: Vec<Material>,
}

/// `MDLMATERIALSECTION { uint32_t size; int32_t priorityPlane; uint32_t numLayers; MDLTEXLAYER texLayers[numLayers]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Material {
    /// Priority is sorted lowest to highest.
    pub priority_plane: i32,
    /// The layers.
    #[format(count = u32)]
    pub tex_layers: Vec<TexLayer>,
}

/// The layer tracks: `KMTA alphaKeys; KMTF flipKeys;`
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TexLayerTrack {
    /// `KMTA: MDLKEYTRACK<float> alphaKeys`
    #[format(tag = "KMTA")]
    Alpha(Track<f32>),
    /// `KMTF: MDLSIMPLEKEYTRACK<MDLINTKEY> flipKeys` (or a key track: see [`FlipTrack`])
    #[format(tag = "KMTF", args(<TexLayerTrack as Tagged>::TAGS))]
    Flip(FlipTrack),
    /// A tag the spec does not list: it and the rest of the layer, verbatim.
    #[format(unknown)]
    Unknown(UnknownTail),
}

/// `MDLTEXLAYER` (28 bytes before the tracks)
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct TexLayer {
    /// `MDLTEXOP`: 0 load, 1 transparent, 2 blend, 3 add, 4 add alpha, 5 modulate, 6 modulate 2x.
    pub blend_mode: u32,
    /// `MDLGEO`, see [`layer_flags`].
    pub flags: u32,
    /// TEXS index or `0xFFFFFFFF` for none.
    pub texture_id: u32,
    /// TXAN index or `0xFFFFFFFF` for none.
    pub transform_id: u32,
    /// UVAS index or -1 for none.
    pub coord_id: i32,
    /// 0 for transparent, 1 for opaque.
    pub static_alpha: f32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<TexLayerTrack>,
}

/// `MDLGEO` layer flags (seed 003).
pub mod layer_flags {
    /// 0x1
    pub const MODEL_GEO_UNSHADED: u32 = 0x1;
    /// 0x2: unused until v1500
    pub const MODEL_GEO_SPHERE_ENV_MAP: u32 = 0x2;
    /// 0x4: unused until v1500
    pub const MODEL_GEO_WRAPWIDTH: u32 = 0x4;
    /// 0x8: unused until v1500
    pub const MODEL_GEO_WRAPHEIGHT: u32 = 0x8;
    /// 0x10
    pub const MODEL_GEO_TWOSIDED: u32 = 0x10;
    /// 0x20
    pub const MODEL_GEO_UNFOGGED: u32 = 0x20;
    /// 0x40
    pub const MODEL_GEO_NO_DEPTH_TEST: u32 = 0x40;
    /// 0x80
    pub const MODEL_GEO_NO_DEPTH_SET: u32 = 0x80;
    /// 0x100: added in v1500 ("unlit" in Reforged: same bit, other meaning)
    pub const MODEL_GEO_NO_FALLBACK: u32 = 0x100;
}

tracks! {
    /// `KTAT transkeys; KTAR rotkeys; KTAS scalekeys;`
    TexAnimTrack {
        /// `KTAT: MDLKEYTRACK<C3Vector> transkeys`
        "KTAT" => Translation([f32; 3]),
        /// `KTAR: MDLKEYTRACK<C4QuaternionCompressed> rotkeys`
        "KTAR" => Rotation(CompressedQuaternion),
        /// `KTAS: MDLKEYTRACK<C3Vector> scalekeys`
        "KTAS" => Scaling([f32; 3]),
    }
}

/// `MDLTEXANIMSECTION { uint32_t size; KTAT transkeys; KTAR rotkeys; KTAS scalekeys; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct TexAnim {
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<TexAnimTrack>,
}

/// `TXAN { uint32_t numTexAnims; MDLTEXANIMSECTION textureAnims[numTexAnims]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "TXAN")]
pub struct TexAnimChunk {
    /// The texture animations.
    #[format(count = u32)]
    pub texture_anims: Vec<TexAnim>,
}
