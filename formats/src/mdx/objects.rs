//! The node-based objects without emitters or lights (seed 000): `BONE`,
//! `HELP`, `ATCH`, `PIVT`, `EVTS` (+`KEVT`), `CLID`.

use format_core::{Codec, Derived, FixedStr, Mdl};

use super::node::{Node, node_flags};
use super::track::tracks;

/// `Bone { Node node; uint32 geosetId; uint32 geosetAnimationId }` (no inclusive size of its own)
///
/// MDL: `Bone "name" { node, GeosetId n|Multiple, GeosetAnimId n|None }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[mdl(block = "Bone", name = node.name)]
pub struct Bone {
    /// The node.
    #[mdl(part(args = (node_flags::BONE, &[])))]
    pub node: Node,
    /// Index into `GEOS`, or `0xffffffff`.
    #[mdl(key = "GeosetId", none("Multiple", "None"), default = u32::MAX)]
    pub geoset_id: u32,
    /// Index into `GEOA`, or `0xffffffff`.
    #[mdl(key = "GeosetAnimId", none("None", "Multiple"), default = u32::MAX)]
    pub geoset_animation_id: u32,
}

/// `BONE { Bone[?] bones }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "BONE")]
pub struct BoneChunk {
    /// The bones.
    #[format(until_end)]
    pub bones: Vec<Bone>,
}

/// `Helper { Node node }`
///
/// MDL: `Helper "name" { node }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[mdl(block = "Helper", name = node.name)]
pub struct Helper {
    /// The node.
    #[mdl(part(args = (node_flags::HELPER, &[])))]
    pub node: Node,
}

/// `HELP { Helper[?] helpers }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "HELP")]
pub struct HelperChunk {
    /// The helpers.
    #[format(until_end)]
    pub helpers: Vec<Helper>,
}

tracks! {
    /// `(KATV)`
    AttachmentTrack {
        /// `KATV: float visibility`
        "KATV" => Visibility(f32),
    }
}

/// `Attachment { uint32 inclusiveSize; Node node; char[260] path; uint32 attachmentId; (KATV) }`
///
/// MDL: `Attachment "name" { node, AttachmentID n, Path "...", tracks }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(block = "Attachment", name = node.name, order(node, attachment_id, path, tracks))]
pub struct Attachment {
    /// The node.
    #[mdl(part(args = (node_flags::ATTACHMENT, &[])))]
    pub node: Node,
    /// Path of an attached model.
    #[mdl(nonzero)]
    pub path: FixedStr<260>,
    /// First attachment 0, second 1, ...
    #[mdl(key = "AttachmentID")]
    pub attachment_id: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks, tail)]
    pub tracks: Vec<AttachmentTrack>,
}

/// `ATCH { Attachment[?] attachments }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "ATCH")]
pub struct AttachmentChunk {
    /// The attachments.
    #[format(until_end)]
    pub attachments: Vec<Attachment>,
}

/// `PIVT { float[size / 12][3] points }`: one pivot per node, by object id.
///
/// MDL: `PivotPoints n { { x, y, z }, ... }`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "PIVT")]
#[mdl(block = "PivotPoints")]
pub struct PivotPointChunk {
    /// The pivot points.
    #[format(count = size / 12)]
    #[mdl(values = "pivot points")]
    pub points: Vec<[f32; 3]>,
}

/// `char[4] "KEVT"; uint32 tracksCount; uint32 globalSequenceId; uint32[tracksCount] tracks`
///
/// MDL: `EventTrack n { GlobalSeqId g, frame, frame, ... }`, the global
/// sequence written unless it is -1.
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[mdl(block = "EventTrack")]
pub struct EventTrack {
    /// `tracksCount`, computed from `tracks` on write.
    #[format(calc = tracks.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    #[mdl(skip)]
    pub tracks_count: Derived<u32>,
    /// Index into `GLBS`, or -1.
    #[mdl(key = "GlobalSeqId", unless = -1)]
    pub global_sequence_id: i32,
    /// The frames at which the event fires.
    #[format(count = tracks_count)]
    #[mdl(values = "events")]
    pub tracks: Vec<u32>,
}

/// `EventObject { Node node; (KEVT) }` (no inclusive size of its own)
///
/// MDL: `EventObject "name" { node, EventTrack n { ... } }`. Other tools
/// leave out an empty `EventTrack` (and MDX readers other than this one
/// need `KEVT`), so an event object without one reads as an empty `KEVT`;
/// one with no `KEVT` at all is `ExtNoEventTrack,`.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[mdl(block = "EventObject", name = node.name)]
pub struct EventObject {
    /// The node; its name says what is triggered (`SNDxABCD`, `FTPxABCD`, ...).
    #[mdl(part(args = (node_flags::EVENT_OBJECT, &[])))]
    pub node: Node,
    /// When it fires.
    #[format(tag = "KEVT", optional)]
    #[mdl(
        nested,
        absent = "ExtNoEventTrack",
        default = EventTrack { global_sequence_id: -1, ..EventTrack::default() }
    )]
    pub track: Option<EventTrack>,
}

/// `EVTS { EventObject[?] objects }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "EVTS")]
pub struct EventObjectChunk {
    /// The event objects.
    #[format(until_end)]
    pub objects: Vec<EventObject>,
}

/// `uint32 type // 0: cube 1: plane 2: sphere 3: cylinder`
///
/// No fallback for other values: the number of vertices depends on the type,
/// so an unknown type cannot be read.
///
/// MDL: the words `Box`, `Plane`, `Sphere`, `Cylinder`.
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(repr = u32)]
pub enum ShapeType {
    /// 0: a box (2 vertices: minimum and maximum).
    #[mdl(word = "Box")]
    Cube = 0,
    /// 1: a plane (2 vertices).
    #[mdl(word = "Plane")]
    Plane = 1,
    /// 2: a sphere (1 vertex and a radius).
    #[mdl(word = "Sphere")]
    Sphere = 2,
    /// 3: a cylinder (2 vertices and a radius).
    #[mdl(word = "Cylinder")]
    Cylinder = 3,
}

impl ShapeType {
    /// `float[?][3] vertices // type 0: 2, type 1: 2, type 2: 1, type 3: 2`
    pub fn vertex_count(self) -> u32 {
        if self == ShapeType::Sphere { 1 } else { 2 }
    }

    /// `if (type == 2 || type == 3) { float radius }`
    pub fn has_radius(self) -> bool {
        matches!(self, ShapeType::Sphere | ShapeType::Cylinder)
    }
}

/// `CollisionShape { Node node; uint32 type; float[?][3] vertices; if (type == 2 || type == 3) float radius }`
///
/// MDL: `CollisionShape "name" { node, Box|Plane|Sphere|Cylinder, Vertices,
/// BoundsRadius }`; the shape word is required, and decides how many
/// vertices the block must have and whether it has a radius
/// (`CollisionShape::check_mdl`).
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[mdl(block = "CollisionShape", name = node.name, check = CollisionShape::check_mdl)]
pub struct CollisionShape {
    /// The node.
    #[mdl(part(args = (node_flags::COLLISION_SHAPE, &[])))]
    pub node: Node,
    /// The shape.
    #[mdl(word = "ShapeType", required)]
    pub shape_type: ShapeType,
    /// Its vertices (see [`ShapeType::vertex_count`]).
    #[format(count = shape_type.vertex_count())]
    #[mdl(list)]
    pub vertices: Vec<[f32; 3]>,
    /// Its radius (spheres and cylinders).
    #[format(if = shape_type.has_radius())]
    #[mdl(optional, key = "BoundsRadius")]
    pub radius: Option<f32>,
}

impl CollisionShape {
    /// What the shape decides of an MDL block once read: its number of
    /// vertices (an error if the block has another), and its radius (0 for
    /// a sphere or cylinder without `BoundsRadius`, none for another shape,
    /// as the binary form has none).
    fn check_mdl(
        &mut self,
        cx: &format_core::mdl::Cx,
        pos: format_core::mdl::Pos,
    ) -> format_core::Result<()> {
        let shape = self.shape_type;
        if self.vertices.len() != shape.vertex_count() as usize {
            return Err(cx.error(
                pos,
                format!(
                    "a {shape:?} has {} vertices, not {}",
                    shape.vertex_count(),
                    self.vertices.len()
                ),
            ));
        }
        self.radius = shape.has_radius().then(|| self.radius.unwrap_or(0.0));
        Ok(())
    }
}

/// `CLID { CollisionShape[?] shapes }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "CLID")]
pub struct CollisionShapeChunk {
    /// The collision shapes.
    #[format(until_end)]
    pub shapes: Vec<CollisionShape>,
}
