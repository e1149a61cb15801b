//! The node objects without emitters or lights, and collision (seed 003):
//! `BONE`, `HELP`, `ATCH`, `EVTS` (`KEVT`), `HTST`, `CLID`. `PIVT` is the WC3
//! chunk ([`PivotPointChunk`](crate::mdx::PivotPointChunk)), unchanged.
//!
//! All but the cylinder, sphere and plane hit-test shapes and `KVIS` on an
//! attachment are verified on the real v1300 file (`MDX_VERSIONS.md` §6.2).

use format_core::{Codec, Derived, FixedStr};

use super::node::GenObject;
use super::track::SimpleTrack;
use crate::mdx::track::tracks;

/// `MDLBONESECTION { MDLGENOBJECT object; uint32_t geosetId; uint32_t geosetAnimId; }`
/// (no size of its own)
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bone {
    /// The node.
    pub object: GenObject,
    /// GEOS index or `0xFFFFFFFF` if none.
    pub geoset_id: u32,
    /// GEOA index or `0xFFFFFFFF` if none.
    pub geoset_anim_id: u32,
}

/// `BONE { uint32_t numBones; MDLBONESECTION bones[numBones]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "BONE")]
pub struct BoneChunk {
    /// The bones.
    #[format(count = u32)]
    pub bones: Vec<Bone>,
}

/// `HELP { uint32_t count; MDLGENOBJECT helpers[count]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "HELP")]
pub struct HelperChunk {
    /// The helpers.
    #[format(count = u32)]
    pub helpers: Vec<GenObject>,
}

tracks! {
    /// `KVIS visibilityKeys;`
    VisibilityTrack {
        /// `KVIS: MDLKEYTRACK<float> visibilityKeys` ("boolean floats of 0.0 and 1.0")
        "KVIS" => Visibility(f32),
    }
}

/// `MDLATTACHMENTSECTION { uint32_t size; MDLGENOBJECT object; GEOCOMPONENTLINKS attachmentId; uint8_t padding; char path[0x104]; KVIS visibilityKeys; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Attachment {
    /// The node; its name is loosely the `GEOCOMPONENTLINKS` enum.
    pub object: GenObject,
    /// `GEOCOMPONENTLINKS` (0x0 shield ... 0x23 hand arrow, `0xFFFFFFFF` none).
    pub attachment_id: u32,
    /// 0xFF in every attachment of the real file; kept as read.
    pub padding: u8,
    /// "0 filled in all alpha files".
    pub path: FixedStr<260>,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<VisibilityTrack>,
}

/// `ATCH { uint32_t numAttachments; uint32_t unused; MDLATTACHMENTSECTION attachments[numAttachments]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "ATCH")]
pub struct AttachmentChunk {
    /// `numAttachments`, computed from `attachments` on write.
    #[format(calc = attachments.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub num_attachments: Derived<u32>,
    /// "has values but is ignored by the client"; kept as read.
    pub unused: u32,
    /// The attachments.
    #[format(count = num_attachments)]
    pub attachments: Vec<Attachment>,
}

/// `MDLEVENTSECTION { uint32_t size; MDLGENOBJECT object; KEVT eventKeys; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Event {
    /// The node; its name says what is triggered.
    pub object: GenObject,
    /// `KEVT: MDLSIMPLEKEYTRACK<MDLEVENTKEY>`, `MDLEVENTKEY { int32_t time; }`
    /// (2 of the 17 events of the real file have none).
    #[format(tag = "KEVT", optional)]
    pub event_keys: Option<SimpleTrack<i32>>,
}

/// `EVTS { uint32_t numEventObjs; MDLEVENTSECTION events[numEventObjs]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "EVTS")]
pub struct EventChunk {
    /// The events.
    #[format(count = u32)]
    pub events: Vec<Event>,
}

/// `GEOM_SHAPE : uint8_t`. No fallback: the payload's size depends on it.
#[derive(Codec, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(repr = u8)]
pub enum GeomShape {
    /// 0: `MDLBOX { C3Vector minimum; C3Vector maximum; }`
    #[default]
    Box = 0,
    /// 1: `MDLCYLINDER { C3Vector base; float height; float radius; }`
    Cylinder = 1,
    /// 2: `MDLSPHERE { C3Vector center; float radius; }`
    Sphere = 2,
    /// 3: `MDLPLANE { float length; float width; }`
    Plane = 3,
}

/// `MDLBOX { C3Vector minimum; C3Vector maximum; }`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct MdlBox {
    /// Minimum corner.
    pub minimum: [f32; 3],
    /// Maximum corner.
    pub maximum: [f32; 3],
}

/// `MDLCYLINDER { C3Vector base; float height; float radius; }`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct MdlCylinder {
    /// Centre of the base.
    pub base: [f32; 3],
    /// Height.
    pub height: f32,
    /// Radius.
    pub radius: f32,
}

/// `MDLSPHERE { C3Vector center; float radius; }`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct MdlSphere {
    /// Centre.
    pub center: [f32; 3],
    /// Radius.
    pub radius: f32,
}

/// `MDLPLANE { float length; float width; }`
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct MdlPlane {
    /// Length.
    pub length: f32,
    /// Width.
    pub width: f32,
}

/// `MDLHITTESTSHAPE { uint32_t size; MDLGENOBJECT object; GEOM_SHAPE type; box | cylinder | sphere | plane }`
///
/// Exactly the payload of `type` is present (checked on write).
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct HitTestShape {
    /// The node.
    pub object: GenObject,
    /// Which payload follows.
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub shape_type: GeomShape,
    /// `#if type == SHAPE_BOX`
    #[format(if = *shape_type == GeomShape::Box)]
    pub box_: Option<MdlBox>,
    /// `#elseif type == SHAPE_CYLINDER`
    #[format(if = *shape_type == GeomShape::Cylinder)]
    pub cylinder: Option<MdlCylinder>,
    /// `#elseif type == SHAPE_SPHERE`
    #[format(if = *shape_type == GeomShape::Sphere)]
    pub sphere: Option<MdlSphere>,
    /// `#elseif type == SHAPE_PLANE`
    #[format(if = *shape_type == GeomShape::Plane)]
    pub plane: Option<MdlPlane>,
}

/// `HTST { uint32_t numHitTestShapes; MDLHITTESTSHAPE hittestshapes[numHitTestShapes]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "HTST")]
pub struct HitTestShapeChunk {
    /// The shapes.
    #[format(count = u32)]
    pub hit_test_shapes: Vec<HitTestShape>,
}

/// `MDLCOLLISION { VRTX vertices; TRI triIndices; NRMS facetNormals; }` (no count, no objects)
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "CLID")]
pub struct CollisionChunk {
    /// `VRTX { uint32_t count; C3Vector vertices[count]; }`
    #[format(tag = "VRTX", count = u32)]
    pub vertices: Vec<[f32; 3]>,
    /// `TRI { uint32_t count; uint16_t triIndices[count]; }` (tag `'TRI '`: "the space is intentional")
    #[format(tag = "TRI ", count = u32)]
    pub tri_indices: Vec<u16>,
    /// `NRMS { uint32_t count; C3Vector normals[count]; }`: one per triangle.
    #[format(tag = "NRMS", count = u32)]
    pub facet_normals: Vec<[f32; 3]>,
}
