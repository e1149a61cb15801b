//! Animation timing (seed 000): `SEQS` and `GLBS`.

use format_core::{Codec, FixedStr};

use super::header::Extent;

/// `Sequence { char[80] name; uint32[2] interval; float moveSpeed; uint32 flags; float rarity; uint32 syncPoint; Extent extent }`
/// (132 bytes of plain data: `SEQS` is read with one copy).
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Sequence {
    /// The animation's name (`Stand`, `Walk`, `Attack - 1`, ...).
    pub name: FixedStr<80>,
    /// Start and end, in milliseconds.
    pub interval: [u32; 2],
    /// Movement speed the animation is made for.
    pub move_speed: f32,
    /// 0: looping, 1: non looping
    pub flags: u32,
    /// Rarity among animations of the same name.
    pub rarity: f32,
    /// Synchronisation point.
    pub sync_point: u32,
    /// Bounds during this sequence.
    pub extent: Extent,
}

/// `SEQS { Sequence[size / 132] sequences }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "SEQS")]
pub struct SequenceChunk {
    /// The sequences.
    #[format(count = size / 132)]
    pub sequences: Vec<Sequence>,
}

/// `GLBS { uint32[size / 4] globalSequences }`: durations of the animation
/// loops that run independently of the sequences.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GLBS")]
pub struct GlobalSequenceChunk {
    /// Durations in milliseconds.
    #[format(count = size / 4)]
    pub global_sequences: Vec<u32>,
}
