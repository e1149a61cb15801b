//! The model's header chunks (seed 000): `VERS`, `MODL`, and the `Extent` they
//! and many objects share.

use format_core::{Codec, FixedStr, Mdl};

/// `Extent { float boundsRadius; float[3] minimum; float[3] maximum }`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Extent {
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// Minimum corner of the bounding box.
    pub minimum: [f32; 3],
    /// Maximum corner of the bounding box.
    pub maximum: [f32; 3],
}

/// `VERS { uint32 version }`: 800 for Warcraft 3: RoC and TFT, >800 for Reforged.
/// Every chunk after it is read and written with this version.
///
/// MDL: `Version { FormatVersion 800 }`, which sets the version the blocks
/// after it are read in.
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "VERS")]
#[mdl(block = "Version")]
pub struct VersionChunk {
    /// 800, 900, 1000, 1100 or 1200.
    #[format(sets_version)]
    #[mdl(key = "FormatVersion", required, sets_version)]
    pub version: u32,
}

/// `MODL { char[80] name; char[260] animationFileName; Extent extent; uint32 blendTime }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "MODL")]
pub struct ModelChunk {
    /// The model's name.
    pub name: FixedStr<80>,
    /// Unused by the game; 18 corpus files keep old bytes after its NUL.
    pub animation_file_name: FixedStr<260>,
    /// Bounds of the whole model.
    pub extent: Extent,
    /// Blend time in milliseconds.
    pub blend_time: u32,
}
