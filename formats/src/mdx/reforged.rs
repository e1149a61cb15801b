//! The chunks Reforged added (seed 000, "for version > 800"; layouts checked in
//! `MDX_VERSIONS.md` §5.2, §5.3): `BPOS`, `FAFX`. (`CORN`, an emitter, is in
//! [`emitter`](super::emitter).)

use format_core::{Codec, Derived, FixedStr, Mdl};

/// `BPOS { uint32 count; float[count][12] bindPose }`: one 3x4 matrix per node
/// and camera.
///
/// A count larger than the chunk holds (a known writer bug, see HiveWE's
/// `bpos_count_overflow` test) is an error in strict mode; a lenient read keeps
/// the matrices that are there and notes it (the count is then written as the
/// number of matrices).
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "BPOS")]
#[mdl(block = "BindPose")]
pub struct BindPoseChunk {
    /// `count`, computed from `bind_pose` on write.
    #[format(calc = bind_pose.len())]
    #[mdl(skip)]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub count: Derived<u32>,
    /// The matrices (a lenient read clamps a count larger than the chunk).
    #[format(count = count, clamp)]
    #[mdl(list, key = "Matrices")]
    pub bind_pose: Vec<[f32; 12]>,
}

/// `FaceEffect { char[80] target; char[260] path }`: 340 bytes (the seed's
/// "size / 380" is wrong, `MDX_VERSIONS.md` §5.2).
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[mdl(block = "FaceFX", name = target)]
#[repr(C)]
pub struct FaceEffect {
    /// The animated target (`Node`).
    pub target: FixedStr<80>,
    /// Path of the `.facefx` file.
    pub path: FixedStr<260>,
}

/// `FAFX { FaceEffect[size / 340] faceEffects }`: face animations using the FaceFX runtime.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "FAFX")]
pub struct FaceEffectChunk {
    /// The face effects.
    #[format(count = size / 340)]
    pub face_effects: Vec<FaceEffect>,
}
