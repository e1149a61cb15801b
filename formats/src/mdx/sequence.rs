//! Animation timing (seed 000): `SEQS` and `GLBS`.

use format_core::{Codec, FixedStr, Mdl};

use super::header::Extent;

/// `Sequence { char[80] name; uint32[2] interval; float moveSpeed; uint32 flags; float rarity; uint32 syncPoint; Extent extent }`
/// (132 bytes of plain data: `SEQS` is read with one copy).
///
/// MDL: `Anim "name" { Interval { start, end }, NonLooping, MoveSpeed,
/// Rarity, SyncPoint, extent }` (a zero left out).
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[mdl(block = "Anim", name = name, order(interval, flags, move_speed, rarity, sync_point, extent))]
#[repr(C)]
pub struct Sequence {
    /// The animation's name (`Stand`, `Walk`, `Attack - 1`, ...).
    pub name: FixedStr<80>,
    /// Start and end, in milliseconds.
    pub interval: [u32; 2],
    /// Movement speed the animation is made for.
    #[mdl(nonzero)]
    pub move_speed: f32,
    /// 0: looping, 1: non looping
    #[mdl(flags(NonLooping = 1))]
    pub flags: u32,
    /// Rarity among animations of the same name.
    #[mdl(nonzero)]
    pub rarity: f32,
    /// Synchronisation point.
    #[mdl(nonzero)]
    pub sync_point: u32,
    /// Bounds during this sequence.
    #[mdl(part)]
    pub extent: Extent,
}

/// `SEQS { Sequence[size / 132] sequences }`
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "SEQS")]
#[mdl(block = "Sequences")]
pub struct SequenceChunk {
    /// The sequences.
    #[format(count = size / 132)]
    #[mdl(items)]
    pub sequences: Vec<Sequence>,
}

/// `GLBS { uint32[size / 4] globalSequences }`: durations of the animation
/// loops that run independently of the sequences.
///
/// MDL: `GlobalSequences n { Duration d, ... }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GLBS")]
#[mdl(block = "GlobalSequences")]
pub struct GlobalSequenceChunk {
    /// Durations in milliseconds.
    #[format(count = size / 4)]
    #[mdl(each = "Duration")]
    pub global_sequences: Vec<u32>,
}
