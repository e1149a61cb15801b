//! `MTXF`, `MTXP`, `MAMP`: per-texture flags and parameters, and the alpha
//! texture size (split files: tex).

use format_core::Codec;

/// `SMTextureFlags` bits.
pub mod texture_flags {
    /// probably just 'disable_all_shading'
    pub const DO_NOT_LOAD_SPECULAR_OR_HEIGHT_TEXTURE_BUT_USE_CUBEMAP: u32 = 0x1;
    /// ≥ Mists: `uint32_t texture_scale : 4` (bits 4..8)
    pub const TEXTURE_SCALE_MASK: u32 = 0xf0;
}

/// `MTXF` (WotLK+): array of flags for entries in MTEX. Always same number of entries as MTEX.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mtxf {
    /// `SMTextureFlags MTXF[]` ([`texture_flags`])
    #[format(count = size / 4)]
    pub flags: Vec<u32>,
}

/// `SMTextureParams` (16 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SMTextureParams {
    /// same as in mtxf (or taken from there if no mtxp present)
    pub flags: u32,
    /// default 0.0 -- the _h texture values are scaled to [0, value) to determine actual "height".
    pub height_scale: f32,
    /// default 1.0 -- note that _h based chunks are still influenced by MCAL
    pub height_offset: f32,
    /// no default, no non-zero values in 20490
    pub padding: u32,
}

/// `MTXP` (MoP?+): `SMTextureParams mapTeXtureParameters[]`.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mtxp {
    /// One entry per MTEX texture.
    #[format(count = size / 16)]
    pub map_texture_parameters: Vec<SMTextureParams>,
}

/// `MAMP` (Cata+): `char fred; // texture_size = 64 / (2^mamp_value)`.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mamp {
    /// texture_size = 64 / (2^mamp_value). either defined here or in MHDR.mamp_value.
    pub mamp_value: u8,
    /// Whatever follows the value inside the chunk (writers pad it to 4 bytes).
    #[format(until_end)]
    pub padding: Vec<u8>,
}
