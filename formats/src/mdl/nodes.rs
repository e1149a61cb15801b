//! The node base every object shares (`ObjectId`, `Parent`, flag words, the
//! `Translation`/`Rotation`/`Scaling` tracks), the part of every derived
//! object block, and the tracks of the objects without emitters (`Light`,
//! `Attachment`, `Camera`), whose blocks are derived.

use format_core::Result;
use format_core::mdl::Part;

use super::syntax::Stmt;
use super::tracks::{mdl_tracks, read_into, write_tracks};
use super::value::{Cx, Out};
use crate::mdx::node::node_flags as nf;
use crate::mdx::{AttachmentTrack, CameraTrack, LightTrack, Node, NodeTrack};

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
    // `DontInherit { }` blocks add their bits.
    const REPEATABLE: &'static [&'static str] = &["DontInherit"];

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

mdl_tracks!(AttachmentTrack {
    Visibility => "Visibility",
});

// The target's track is `Translation` in a `Target { }` block of its own
// (where the game's and mdx-m3-viewer's readers look for it);
// `TargetTranslation` at the camera's top level reads too.
mdl_tracks!(CameraTrack {
    Translation => "Translation",
    TargetTranslation => "Translation" | "TargetTranslation" within "Target",
    Rotation => "Rotation",
});
