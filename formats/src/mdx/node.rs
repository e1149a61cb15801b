//! The Node base (seed 000, `Node`): name, object id, parent and flags, with
//! the translation, rotation and scaling tracks. Bones, lights, helpers,
//! attachments, emitters, event objects and collision shapes all start with one.

use format_core::{Codec, FixedStr};

use super::track::tracks;

tracks! {
    /// `(KGTR) (KGRT) (KGSC)`
    NodeTrack {
        /// `KGTR: float[3] translation`
        "KGTR" => Translation([f32; 3]),
        /// `KGRT: float[4] rotation` (a quaternion)
        "KGRT" => Rotation([f32; 4]),
        /// `KGSC: float[3] scaling`
        "KGSC" => Scaling([f32; 3]),
    }
}

/// `Node { uint32 inclusiveSize; char[80] name; uint32 objectId; uint32 parentId; uint32 flags; (KGTR) (KGRT) (KGSC) }`
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Node {
    /// The node's name.
    pub name: FixedStr<80>,
    /// Its index among all nodes (the order of `PIVT`).
    pub object_id: u32,
    /// The parent's `object_id`, or `0xffffffff` for none.
    pub parent_id: u32,
    /// See [`node_flags`].
    pub flags: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<NodeTrack>,
}

impl Node {
    /// `parentId` when there is one.
    pub fn parent(&self) -> Option<u32> {
        (self.parent_id != u32::MAX).then_some(self.parent_id)
    }
}

/// `Node.flags` bits (seed 000).
pub mod node_flags {
    /// 0x0: helper
    pub const HELPER: u32 = 0x0;
    /// 0x1: dont inherit translation
    pub const DONT_INHERIT_TRANSLATION: u32 = 0x1;
    /// 0x2: dont inherit rotation
    pub const DONT_INHERIT_ROTATION: u32 = 0x2;
    /// 0x4: dont inherit scaling
    pub const DONT_INHERIT_SCALING: u32 = 0x4;
    /// 0x8: billboarded
    pub const BILLBOARDED: u32 = 0x8;
    /// 0x10: billboarded lock x
    pub const BILLBOARDED_LOCK_X: u32 = 0x10;
    /// 0x20: billboarded lock y
    pub const BILLBOARDED_LOCK_Y: u32 = 0x20;
    /// 0x40: billboarded lock z
    pub const BILLBOARDED_LOCK_Z: u32 = 0x40;
    /// 0x80: camera anchored
    pub const CAMERA_ANCHORED: u32 = 0x80;
    /// 0x100: bone
    pub const BONE: u32 = 0x100;
    /// 0x200: light
    pub const LIGHT: u32 = 0x200;
    /// 0x400: event object
    pub const EVENT_OBJECT: u32 = 0x400;
    /// 0x800: attachment
    pub const ATTACHMENT: u32 = 0x800;
    /// 0x1000: particle emitter
    pub const PARTICLE_EMITTER: u32 = 0x1000;
    /// 0x2000: collision shape
    pub const COLLISION_SHAPE: u32 = 0x2000;
    /// 0x4000: ribbon emitter
    pub const RIBBON_EMITTER: u32 = 0x4000;
    /// 0x8000: if particle emitter: emitter uses mdl, if particle emitter 2: unshaded
    pub const EMITTER_USES_MDL_OR_UNSHADED: u32 = 0x8000;
    /// 0x10000: if particle emitter: emitter uses tga, if particle emitter 2: sort primitives far z
    pub const EMITTER_USES_TGA_OR_SORT_FAR_Z: u32 = 0x10000;
    /// 0x20000: line emitter
    pub const LINE_EMITTER: u32 = 0x20000;
    /// 0x40000: unfogged
    pub const UNFOGGED: u32 = 0x40000;
    /// 0x80000: model space
    pub const MODEL_SPACE: u32 = 0x80000;
    /// 0x100000: xy quad
    pub const XY_QUAD: u32 = 0x100000;
}
