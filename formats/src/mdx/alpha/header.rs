//! `MODL` and `SEQS` (seed 003). `VERS`, `GLBS`, `TEXS` and `PIVT` are the WC3
//! chunks ([`VersionChunk`](crate::mdx::VersionChunk), ...), unchanged.
//!
//! `CMdlBounds` is the WC3 [`Extent`], radius first: seed 003's
//! `{ box; radius }` order is wrong (`MDX_VERSIONS.md` §9, verified).

use format_core::{Codec, FixedStr};

use crate::mdx::header::Extent;

/// `MDLMODELSECTION { char name[0x50]; char animationFile[0x104]; CMdlBounds bounds; uint32_t blendTime; uint8_t flags; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "MODL")]
pub struct ModelChunk {
    /// The model's name.
    pub name: FixedStr<80>,
    /// Always 0 filled.
    pub animation_file: FixedStr<260>,
    /// Bounds of the whole model.
    pub bounds: Extent,
    /// Blend time in milliseconds.
    pub blend_time: u32,
    /// Deprecated, always 0. &1, 2: GROUND_TRACK, &4: always animate.
    pub flags: u8,
}

/// `MDLSEQUENCESSECTION` (140 bytes; `MDX_VERSIONS.md` §6.2, verified):
/// `char name[0x50]; CiRange time; float movespeed; uint32_t flags; CMdlBounds bounds; float frequency; CiRange replay; uint32_t blendTime;`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Sequence {
    /// The animation's name.
    pub name: FixedStr<80>,
    /// Start time, end time.
    pub time: [u32; 2],
    /// Movement speed of the entity while playing this animation.
    pub move_speed: f32,
    /// &1: non looping.
    pub flags: u32,
    /// Bounds during this sequence.
    pub bounds: Extent,
    /// Chance of this animation playing; for all animations of the same type
    /// this must add to 1.0.
    pub frequency: f32,
    /// The client picks a random number of repetitions within these bounds.
    pub replay: [u32; 2],
    /// Blend time in milliseconds.
    pub blend_time: u32,
}

/// `SEQS { uint32_t numSeqs; MDLSEQUENCESSECTION sequences[numSeqs]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "SEQS")]
pub struct SequenceChunk {
    /// The sequences ("limited to 0xFF").
    #[format(count = u32)]
    pub sequences: Vec<Sequence>,
}
