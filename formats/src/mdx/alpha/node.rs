//! `MDLGENOBJECT` (seed 003): the base of bones, lights, helpers, attachments,
//! emitters, events and hit-test shapes, with its flags.

use format_core::{Codec, FixedStr};

use super::track::CompressedQuaternion;
use crate::mdx::track::tracks;

tracks! {
    /// `KGTR transkeys; KGRT rotkeys; KGSC scalekeys;`
    GenObjectTrack {
        /// `KGTR: MDLKEYTRACK<C3Vector> transkeys`
        "KGTR" => Translation([f32; 3]),
        /// `KGRT: MDLKEYTRACK<C4QuaternionCompressed> rotkeys` (8 bytes per
        /// value: `MDX_VERSIONS.md` §6.1, verified on the real v1300 file)
        "KGRT" => Rotation(CompressedQuaternion),
        /// `KGSC: MDLKEYTRACK<C3Vector> scalekeys`
        "KGSC" => Scaling([f32; 3]),
    }
}

/// `MDLGENOBJECT { uint32_t size; char name[0x50]; uint32_t objectId; uint32_t parentId; uint32_t flags; KGTR transkeys; KGRT rotkeys; KGSC scalekeys; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct GenObject {
    /// The object's name.
    pub name: FixedStr<80>,
    /// Globally unique id, used as the index in the hierarchy; index into `PIVT`.
    pub object_id: u32,
    /// Parent `MDLGENOBJECT`'s `objectId`, or `0xFFFFFFFF` if none.
    pub parent_id: u32,
    /// See [`gen_object_flags`]; the bits differ from WC3's node flags, so the
    /// value is kept as read, never translated.
    pub flags: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<GenObjectTrack>,
}

impl GenObject {
    /// `parentId` when there is one.
    pub fn parent(&self) -> Option<u32> {
        (self.parent_id != u32::MAX).then_some(self.parent_id)
    }
}

/// `MDLGENOBJECT.flags` bits (seed 003). "Flags ≥ 0x20000 are only applicable
/// to PRE2 objects."
pub mod gen_object_flags {
    /// 0x1
    pub const DONT_INHERIT_TRANSLATION: u32 = 0x1;
    /// 0x2
    pub const DONT_INHERIT_SCALING: u32 = 0x2;
    /// 0x4
    pub const DONT_INHERIT_ROTATION: u32 = 0x4;
    /// 0x8
    pub const BILLBOARD: u32 = 0x8;
    /// 0x10
    pub const BILLBOARD_LOCK_X: u32 = 0x10;
    /// 0x20
    pub const BILLBOARD_LOCK_Y: u32 = 0x20;
    /// 0x40
    pub const BILLBOARD_LOCK_Z: u32 = 0x40;
    /// 0x80: not explicitly set in the files however all other GENOBJECT flags are
    pub const GENOBJECT_MDLBONESECTION: u32 = 0x80;
    /// 0x100
    pub const GENOBJECT_MDLLIGHTSECTION: u32 = 0x100;
    /// 0x200
    pub const GENOBJECT_MDLEVENTSECTION: u32 = 0x200;
    /// 0x400
    pub const GENOBJECT_MDLATTACHMENTSECTION: u32 = 0x400;
    /// 0x800
    pub const GENOBJECT_MDLPARTICLEEMITTER2: u32 = 0x800;
    /// 0x1000
    pub const GENOBJECT_MDLHITTESTSHAPE: u32 = 0x1000;
    /// 0x2000
    pub const GENOBJECT_MDLRIBBONEMITTER: u32 = 0x2000;
    /// 0x4000
    pub const PROJECT: u32 = 0x4000;
    /// 0x8000: EMITTER_USES_TGA (PREM), UNSHADED (PRE2)
    pub const EMITTER_USES_TGA_OR_UNSHADED: u32 = 0x8000;
    /// 0x10000: EMITTER_USES_MDL (PREM), SORT_PRIMITIVES_FAR_Z (PRE2)
    pub const EMITTER_USES_MDL_OR_SORT_PRIMITIVES_FAR_Z: u32 = 0x10000;
    /// 0x20000
    pub const LINE_EMITTER: u32 = 0x20000;
    /// 0x40000: disables fog on particle materials
    pub const PARTICLE_UNFOGGED: u32 = 0x40000;
    /// 0x80000: uses model space instead of world space
    pub const PARTICLE_USE_MODEL_SPACE: u32 = 0x80000;
    /// 0x100000
    pub const PARTICLE_INHERIT_SCALE: u32 = 0x100000;
    /// 0x200000: a cumulative velocity is applied to new particles
    pub const PARTICLE_INSTANT_VELOCITY_LINEAR: u32 = 0x200000;
    /// 0x400000: particles are destroyed after their first update tick
    pub const PARTICLE_0XKILL: u32 = 0x400000;
    /// 0x800000: particle X and Y velocities are set to 0.0 at instantiation
    pub const PARTICLE_Z_VELOCITY_ONLY: u32 = 0x800000;
    /// 0x1000000: 50% chance to invert each particle position component at instantiation
    pub const PARTICLE_TUMBLER: u32 = 0x1000000;
    /// 0x2000000
    pub const PARTICLE_TAIL_GROWS: u32 = 0x2000000;
    /// 0x4000000: extrudes between the previous and current translation
    pub const PARTICLE_EXTRUDE: u32 = 0x4000000;
    /// 0x8000000: particles align to the XY axis facing the Z axis
    pub const PARTICLE_XYQUADS: u32 = 0x8000000;
    /// 0x10000000
    pub const PARTICLE_PROJECT: u32 = 0x10000000;
    /// 0x20000000: particles follow each other
    pub const PARTICLE_FOLLOW: u32 = 0x20000000;
}
