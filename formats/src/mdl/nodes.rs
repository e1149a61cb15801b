//! The node base every object shares (`ObjectId`, `Parent`, flag words, the
//! `Translation`/`Rotation`/`Scaling` tracks), and the objects without
//! emitters: `Bone`, `Light`, `Helper`, `Attachment`, `EventObject`,
//! `CollisionShape`, and `Camera` (no node, but named the same way).

use format_core::mdl::Part;
use format_core::{FixedStr, Result};

use super::syntax::Stmt;
use super::tracks::{TrackSet, mdl_tracks, read_into, write_track_in, write_tracks};
use super::value::{Cx, Out, list, write_list};
use crate::mdx::node::node_flags as nf;
use crate::mdx::{
    AttachmentTrack, Camera, CameraTrack, CollisionShape, EventObject, EventTrack, LightTrack,
    Node, NodeTrack, ShapeType,
};

mdl_tracks!(NodeTrack, tail = "ExtNodeTail", {
    Translation => "Translation",
    Rotation => "Rotation",
    Scaling => "Scaling",
});

mdl_tracks!(LightTrack {
    AttenuationStart => "AttenuationStart",
    AttenuationEnd => "AttenuationEnd",
    Color => "Color" in rgb,
    Intensity => "Intensity",
    AmbientIntensity => "AmbIntensity" | "AmbientIntensity",
    AmbientColor => "AmbColor" | "AmbientColor" in rgb,
    Visibility => "Visibility",
});

/// Flag words every node may have.
const NODE_FLAGS: &[(u32, &str)] = &[
    (nf::BILLBOARDED, "Billboarded"),
    (nf::BILLBOARDED_LOCK_X, "BillboardedLockX"),
    (nf::BILLBOARDED_LOCK_Y, "BillboardedLockY"),
    (nf::BILLBOARDED_LOCK_Z, "BillboardedLockZ"),
    (nf::CAMERA_ANCHORED, "CameraAnchored"),
];

/// Other editors' spellings of [`NODE_FLAGS`], read only.
const NODE_FLAG_ALIASES: &[(u32, &str)] = &[
    (nf::BILLBOARDED_LOCK_X, "BillboardLockX"),
    (nf::BILLBOARDED_LOCK_Y, "BillboardLockY"),
    (nf::BILLBOARDED_LOCK_Z, "BillboardLockZ"),
];

const DONT_INHERIT: &[(u32, &str)] = &[
    (nf::DONT_INHERIT_TRANSLATION, "Translation"),
    (nf::DONT_INHERIT_ROTATION, "Rotation"),
    (nf::DONT_INHERIT_SCALING, "Scaling"),
];

/// What kind of node a block is: its type bit and its own flag words.
pub(crate) struct NodeKind {
    pub block: &'static str,
    pub bit: u32,
    pub flags: &'static [(u32, &'static str)],
}

/// Writes `Kind "name" {` and the node's fields (not its tracks).
pub(crate) fn open_node(out: &mut Out, node: &Node, kind: &NodeKind) {
    out.open_named(kind.block, &node.name);
    write_node_fields(out, node, kind.bit, kind.flags);
}

/// The node's fields (not its tracks): `ObjectId`, `Parent`, `DontInherit`,
/// the flag words (`bit` is the kind's type bit, `flags` its own words) and
/// `ExtNodeFlags` for the bits no word gives back.
fn write_node_fields(out: &mut Out, node: &Node, bit: u32, flags: &[(u32, &str)]) {
    out.field("ObjectId", &node.object_id);
    if node.parent_id != u32::MAX {
        out.field("Parent", &node.parent_id);
    }
    let mut rebuilt = bit;
    for &(bit, word) in DONT_INHERIT {
        if node.flags & bit != 0 {
            out.line(&format!("DontInherit {{ {word} }},"));
            rebuilt |= bit;
        }
    }
    for &(bit, word) in NODE_FLAGS.iter().chain(flags) {
        if node.flags & bit != 0 {
            out.flag(word);
            rebuilt |= bit;
        }
    }
    if rebuilt != node.flags {
        out.field("ExtNodeFlags", &node.flags);
    }
}

/// The node of a derived object block (`#[mdl(part(args = (bit, words)))]`
/// on its `node`): its type bit and its own flag words are the arguments.
/// Hand-written because what it reads depends on them and on each other
/// (the type bit in the flags read, the flags rebuilt from the words on
/// write, `ExtNodeFlags` for what they do not give back), which no field
/// attribute says.
impl Part for Node {
    type Args = (u32, &'static [(u32, &'static str)]);
    type Partial = NodeReader;
    // `DontInherit { }` blocks add their bits; a `ParticleEmitter`'s
    // `Particle { }` blocks their fields (each one checked on its own).
    const REPEATABLE: &'static [&'static str] = &["DontInherit", "Particle"];

    fn begin(stmt: &Stmt, cx: &mut Cx, (bit, flags): Self::Args) -> Result<NodeReader> {
        NodeReader::new(stmt, cx, bit, flags)
    }

    fn read_stmt(reader: &mut NodeReader, s: &Stmt, cx: &mut Cx) -> Result<bool> {
        if reader.field(s, cx)? {
            return Ok(true);
        }
        static_visibility(s, cx)
    }

    fn finish(reader: NodeReader, _: &mut Cx) -> Result<Node> {
        Ok(reader.finish())
    }

    fn write_head(&self, out: &mut Out, (bit, flags): Self::Args) {
        write_node_fields(out, self, bit, flags);
    }

    fn write_tail(&self, out: &mut Out) {
        write_tracks(out, &self.tracks);
    }
}

/// `static Visibility`, which real files give nodes that have only a
/// `Visibility` track: an error, or dropped in lenient mode. False for
/// any other statement.
fn static_visibility(s: &Stmt, cx: &Cx) -> Result<bool> {
    if s.key() != (true, "Visibility") {
        return Ok(false);
    }
    let done = "dropped it (only a Visibility track has a binary form)";
    cx.quirk(s.pos, "`static Visibility` has no binary field", done)?;
    Ok(true)
}

/// A node being read.
pub struct NodeReader {
    pub node: Node,
    ext_flags: Option<u32>,
    /// The kind's own flag words.
    flags: &'static [(u32, &'static str)],
}

impl NodeReader {
    pub fn new(
        stmt: &Stmt,
        cx: &Cx,
        bit: u32,
        flags: &'static [(u32, &'static str)],
    ) -> Result<Self> {
        Ok(NodeReader {
            node: Node {
                name: stmt.name(cx)?,
                object_id: 0,
                parent_id: u32::MAX,
                flags: bit,
                tracks: Vec::new(),
            },
            ext_flags: None,
            flags,
        })
    }

    /// Reads `s` if it is a node field or track.
    pub fn field(&mut self, s: &Stmt, cx: &mut Cx) -> Result<bool> {
        if read_into(s, cx, &mut self.node.tracks)? {
            return Ok(true);
        }
        let key = s.key().1;
        match key {
            "ObjectId" => self.node.object_id = s.value(cx)?,
            "Parent" => self.node.parent_id = s.value(cx)?,
            "ExtNodeFlags" => self.ext_flags = Some(s.value(cx)?),
            "DontInherit" => {
                let (_, body) = s.block(cx)?;
                for w in body {
                    match DONT_INHERIT.iter().find(|(_, word)| *word == w.key().1) {
                        Some((bit, _)) => self.node.flags |= bit,
                        None => cx.unknown(w)?,
                    }
                }
            }
            _ => match NODE_FLAGS
                .iter()
                .chain(NODE_FLAG_ALIASES)
                .chain(self.flags)
                .find(|(_, w)| *w == key)
            {
                Some((bit, _)) => {
                    s.bare(cx)?;
                    self.node.flags |= bit;
                }
                None => return Ok(false),
            },
        }
        Ok(true)
    }

    pub fn finish(mut self) -> Node {
        if let Some(flags) = self.ext_flags {
            self.node.flags = flags;
        }
        self.node
    }
}

/// Reads the statements of a node block: `field` takes the object's own
/// statements first, then the node's.
pub(crate) fn read_node_block(
    stmt: &Stmt,
    cx: &mut Cx,
    kind: &'static NodeKind,
    mut field: impl FnMut(&Stmt, &mut Cx) -> Result<bool>,
) -> Result<Node> {
    let mut reader = NodeReader::new(stmt, cx, kind.bit, kind.flags)?;
    let (_, body) = stmt.block(cx)?;
    let name = format!("{} \"{}\"", kind.block, reader.node.name.to_string_lossy());
    cx.within(name, |cx| {
        // `DontInherit { }` blocks add their bits; a `ParticleEmitter`'s
        // `Particle { }` blocks their fields (each one checked on its own).
        cx.once_each(body, <Node as Part>::REPEATABLE)?;
        for s in body {
            if !field(s, cx)? && !<Node as Part>::read_stmt(&mut reader, s, cx)? {
                cx.unknown(s)?;
            }
        }
        Ok(())
    })?;
    Ok(reader.finish())
}

/// A node to fill in once its block is read.
pub(crate) fn placeholder() -> Node {
    Node {
        name: FixedStr::default(),
        object_id: 0,
        parent_id: u32::MAX,
        flags: 0,
        tracks: Vec::new(),
    }
}

mdl_tracks!(AttachmentTrack {
    Visibility => "Visibility",
});

pub(crate) static EVENT_OBJECT: NodeKind = NodeKind {
    block: "EventObject",
    bit: nf::EVENT_OBJECT,
    flags: &[],
};

/// `EventObject "name" { node, EventTrack n { GlobalSeqId, frames } }`.
/// Other tools leave out an empty `EventTrack` (and MDX readers other than
/// this one need `KEVT`), so an event object without one reads as an empty
/// `KEVT`; one with no `KEVT` at all is `ExtNoEventTrack`.
///
/// Hand-written: an absent `EventTrack` and an empty one are different
/// files (a default no declaration gives, and the `ExtNoEventTrack` word for
/// the other), and the track's frames share their block with `GlobalSeqId`.
pub(crate) fn write_event_object(out: &mut Out, e: &EventObject) {
    open_node(out, &e.node, &EVENT_OBJECT);
    if e.track.is_none() {
        out.flag("ExtNoEventTrack");
    }
    if let Some(track) = &e.track {
        out.open(&format!("EventTrack {}", track.tracks.len()));
        if track.global_sequence_id != -1 {
            out.field("GlobalSeqId", &track.global_sequence_id);
        }
        for frame in &track.tracks {
            out.item(frame);
        }
        out.close();
    }
    write_tracks(out, &e.node.tracks);
    out.close();
}

pub(crate) fn read_event_object(stmt: &Stmt, cx: &mut Cx) -> Result<EventObject> {
    let mut track = None;
    let mut no_track = false;
    let node = read_node_block(stmt, cx, &EVENT_OBJECT, |s, cx| {
        if s.key().1 == "ExtNoEventTrack" && s.args().is_empty() {
            no_track = true;
            return Ok(true);
        }
        if s.key().1 != "EventTrack" {
            return Ok(false);
        }
        let (count, body) = s.block(cx)?;
        let mut t = EventTrack {
            global_sequence_id: -1,
            ..EventTrack::default()
        };
        for f in body {
            match (f.key().1, f.items.as_slice()) {
                ("GlobalSeqId", _) => t.global_sequence_id = f.value(cx)?,
                (_, [item]) => t.tracks.push(super::value::Value::read(item, cx)?),
                _ => cx.unknown(f)?,
            }
        }
        if let Some((pos, declared)) = count {
            cx.count(pos, "events", declared, t.tracks.len())?;
        }
        track = Some(t);
        Ok(true)
    })?;
    let empty = || EventTrack {
        global_sequence_id: -1,
        ..EventTrack::default()
    };
    let track = match no_track {
        true => None,
        false => Some(track.unwrap_or_else(empty)),
    };
    Ok(EventObject { node, track })
}

pub(crate) static COLLISION_SHAPE: NodeKind = NodeKind {
    block: "CollisionShape",
    bit: nf::COLLISION_SHAPE,
    flags: &[],
};

const SHAPES: &[(ShapeType, &str)] = &[
    (ShapeType::Cube, "Box"),
    (ShapeType::Plane, "Plane"),
    (ShapeType::Sphere, "Sphere"),
    (ShapeType::Cylinder, "Cylinder"),
];

/// `CollisionShape "name" { node, Box|Plane|Sphere|Cylinder, Vertices, BoundsRadius }`
///
/// Hand-written: the shape word is required and decides how many vertices
/// the block must have and whether it has a `BoundsRadius`, a rule across
/// fields that the reader checks.
pub(crate) fn write_collision_shape(out: &mut Out, c: &CollisionShape) {
    open_node(out, &c.node, &COLLISION_SHAPE);
    if let Some((_, word)) = SHAPES.iter().find(|(t, _)| *t == c.shape_type) {
        out.flag(word);
    }
    write_list(out, "Vertices", &c.vertices);
    if let Some(radius) = &c.radius {
        out.field("BoundsRadius", radius);
    }
    write_tracks(out, &c.node.tracks);
    out.close();
}

pub(crate) fn read_collision_shape(stmt: &Stmt, cx: &mut Cx) -> Result<CollisionShape> {
    let (mut shape_type, mut vertices, mut radius) = (None, Vec::new(), None);
    let node = read_node_block(stmt, cx, &COLLISION_SHAPE, |s, cx| {
        let key = s.key().1;
        if let Some((t, _)) = SHAPES.iter().find(|(_, w)| *w == key) {
            shape_type = Some(*t);
            return Ok(true);
        }
        match key {
            "Vertices" => vertices = list(s, cx, "vertices")?,
            "BoundsRadius" => radius = Some(s.value(cx)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    let shape_type = shape_type.ok_or_else(|| {
        cx.error(
            stmt.pos,
            "a CollisionShape needs Box, Plane, Sphere or Cylinder",
        )
    })?;
    if vertices.len() != shape_type.vertex_count() as usize {
        return Err(cx.error(
            stmt.pos,
            format!(
                "a {shape_type:?} has {} vertices, not {}",
                shape_type.vertex_count(),
                vertices.len()
            ),
        ));
    }
    let radius = shape_type.has_radius().then(|| radius.unwrap_or(0.0));
    Ok(CollisionShape {
        node,
        shape_type,
        vertices,
        radius,
    })
}

mdl_tracks!(CameraTrack {
    Translation => "Translation",
    TargetTranslation => "TargetTranslation",
    Rotation => "Rotation",
});

/// `Camera "name" { Position, FieldOfView, FarClip, NearClip, Target { Position }, tracks }`:
/// the target's `Translation` track is written in its own `Target { }` block
/// where it comes in the track list, so the order survives.
///
/// Hand-written: one track of the definition's list is written inside
/// another block (`Target { }`), at its place among the others.
pub(crate) fn write_camera(out: &mut Out, c: &Camera) {
    out.open_named("Camera", &c.name);
    out.field("Position", &c.position);
    out.field("FieldOfView", &c.field_of_view);
    out.field("FarClip", &c.far_clipping_plane);
    out.field("NearClip", &c.near_clipping_plane);
    out.open("Target");
    out.field("Position", &c.target_position);
    out.close();
    for track in &c.tracks {
        match track {
            CameraTrack::TargetTranslation(t) => write_track_in(out, "Target", "Translation", t),
            other => other.write(out),
        }
    }
    out.close();
}

pub(crate) fn read_camera(stmt: &Stmt, cx: &mut Cx) -> Result<Camera> {
    let mut c = Camera {
        name: stmt.name(cx)?,
        position: [0.0; 3],
        field_of_view: 0.0,
        far_clipping_plane: 0.0,
        near_clipping_plane: 0.0,
        target_position: [0.0; 3],
        tracks: Vec::new(),
    };
    let (_, body) = stmt.block(cx)?;
    cx.within(format!("Camera \"{}\"", c.name.to_string_lossy()), |cx| {
        // A `Target` block holds the position, and another one each target
        // track (see `write_camera`).
        cx.once_each(body, &["Target"])?;
        for s in body {
            if read_into(s, cx, &mut c.tracks)? {
                continue;
            }
            match s.key().1 {
                "Position" => c.position = s.value(cx)?,
                "FieldOfView" => c.field_of_view = s.value(cx)?,
                "FarClip" => c.far_clipping_plane = s.value(cx)?,
                "NearClip" => c.near_clipping_plane = s.value(cx)?,
                "Target" => {
                    let (_, target) = s.block(cx)?;
                    cx.once_each(target, &[])?;
                    for t in target {
                        match t.key().1 {
                            "Translation" if t.is_track() => c.tracks.push(
                                CameraTrack::TargetTranslation(super::tracks::read_track(t, cx)?),
                            ),
                            "Position" => c.target_position = t.value(cx)?,
                            _ => cx.unknown(t)?,
                        }
                    }
                }
                _ => cx.unknown(s)?,
            }
        }
        Ok(())
    })?;
    Ok(c)
}
