//! The node hierarchy of a model and its pose: every bone, helper,
//! attachment, light, emitter, event object and collision shape, with its
//! pivot point and its translation, rotation and scaling tracks, and each
//! node's world transform at a moment.
//!
//! A node moves about its pivot `p`: its local transform is
//! `T(translation) · T(p) · R(rotation) · S(scaling) · T(-p)`, and its world
//! transform is its parent's world transform times that (the parent's
//! translation, rotation or scaling left out when the node's flags say it
//! does not inherit them). A vertex skinned to the node moves by its world
//! transform: in the bind pose, every world transform is the identity.

use std::collections::HashMap;

use glam::{Mat4, Quat, Vec3};

use super::sample::{KeyIndex, Sampler};
use crate::mdx::alpha::{CompressedQuaternion, GenObject, GenObjectTrack};
use crate::mdx::node::node_flags;
use crate::mdx::{Model, Node, NodeTrack, Track};

/// What object a node belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// `BONE`
    Bone,
    /// `HELP`
    Helper,
    /// `ATCH`
    Attachment,
    /// `LITE`
    Light,
    /// `PREM`
    ParticleEmitter,
    /// `PRE2`
    ParticleEmitter2,
    /// `RIBB`
    RibbonEmitter,
    /// `CORN`
    CornEmitter,
    /// `EVTS`
    EventObject,
    /// `CLID` (Warcraft III) and `HTST` (alpha)
    CollisionShape,
}

impl NodeKind {
    /// A particle, ribbon or popcorn emitter (`PREM`, `PRE2`, `RIBB`, `CORN`).
    pub fn is_emitter(self) -> bool {
        matches!(
            self,
            NodeKind::ParticleEmitter
                | NodeKind::ParticleEmitter2
                | NodeKind::RibbonEmitter
                | NodeKind::CornEmitter
        )
    }
}

/// Which of the parent's transform a node takes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inherit {
    /// The parent's translation.
    pub translation: bool,
    /// The parent's rotation.
    pub rotation: bool,
    /// The parent's scaling.
    pub scaling: bool,
}

impl Inherit {
    /// Everything (no "don't inherit" flag).
    pub const ALL: Inherit = Inherit {
        translation: true,
        rotation: true,
        scaling: true,
    };

    /// Whether nothing is left out.
    pub fn all(self) -> bool {
        self == Inherit::ALL
    }
}

/// One node of the hierarchy, with its tracks in Warcraft III form (alpha
/// rotations decompressed).
#[derive(Clone, Debug, PartialEq)]
pub struct SkeletonNode {
    /// The object's name.
    pub name: String,
    /// Which chunk it is from.
    pub kind: NodeKind,
    /// Its object id (its index in `PIVT`).
    pub object_id: u32,
    /// The parent's index in [`Skeleton::nodes`] (a missing parent, the node
    /// itself or a cycle: `None`).
    pub parent: Option<usize>,
    /// The pivot point (`[0, 0, 0]` when `PIVT` has none for the object id;
    /// a coordinate that is NaN or infinite, which only a damaged file
    /// holds, is 0: such a node would put every vertex it moves nowhere).
    pub pivot: [f32; 3],
    /// What it takes from its parent.
    pub inherit: Inherit,
    /// Billboarded (turns to the camera; not applied by [`Skeleton::pose`]).
    pub billboarded: bool,
    /// `KGTR`
    pub translation: Option<Track<[f32; 3]>>,
    /// `KGRT` (quaternions `[x, y, z, w]`)
    pub rotation: Option<Track<[f32; 4]>>,
    /// `KGSC`
    pub scaling: Option<Track<[f32; 3]>>,
}

/// A node's own translation, rotation and scaling at a moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalTransform {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation, a quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Scaling.
    pub scaling: [f32; 3],
}

impl LocalTransform {
    /// No translation, no rotation, unit scale: every track's default.
    pub const IDENTITY: LocalTransform = LocalTransform {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scaling: [1.0; 3],
    };

    /// `T(translation) · T(pivot) · R · S · T(-pivot)`. The rotation is
    /// normalised first (a zero quaternion is no rotation).
    pub fn matrix(&self, pivot: [f32; 3]) -> Mat4 {
        let pivot = Vec3::from_array(pivot);
        Mat4::from_translation(Vec3::from_array(self.translation) + pivot)
            * Mat4::from_scale_rotation_translation(
                Vec3::from_array(self.scaling),
                normalized(self.rotation),
                Vec3::ZERO,
            )
            * Mat4::from_translation(-pivot)
    }
}

/// A quaternion scaled to unit length; a zero or non-finite one is no rotation.
pub fn normalized(q: [f32; 4]) -> Quat {
    let q = Quat::from_array(q);
    let length = q.length();
    if length.is_finite() && length > 1e-12 {
        q / length
    } else {
        Quat::IDENTITY
    }
}

/// Every node's world transform at one moment, by index in [`Skeleton::nodes`].
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    /// World transforms.
    pub world: Vec<Mat4>,
}

/// A model's node hierarchy.
///
/// ```
/// use formats::anim::{Sampler, Skeleton, Timeline};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let skeleton = Skeleton::from_model(&model);
/// let timeline = Timeline::from_model(&model);
/// let pose = skeleton.pose(&Sampler::new(&timeline, timeline.at(0, 500.0).unwrap()));
/// assert_eq!(pose.world.len(), skeleton.nodes().len());
/// # Ok::<(), formats::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skeleton {
    nodes: Vec<SkeletonNode>,
    /// Each node's translation, rotation and scaling [`KeyIndex`], so that
    /// posing at every frame of a long sequence does not look at every key
    /// each time (the nodes' tracks are the skeleton's own: they cannot
    /// change under it).
    indexes: Vec<[KeyIndex; 3]>,
    /// Node indices, every parent before its children.
    order: Vec<usize>,
    by_object_id: HashMap<u32, usize>,
}

impl Skeleton {
    /// The nodes of a model of any version, sorted by object id.
    pub fn from_model(model: &Model) -> Skeleton {
        let mut found: Vec<(SkeletonNode, u32)> = Vec::new();
        let mut wc3 = |node: &Node, kind| found.push(from_node(node, kind));
        for b in model.bones() {
            wc3(&b.node, NodeKind::Bone);
        }
        for n in model.lights() {
            wc3(&n.node, NodeKind::Light);
        }
        for n in model.helpers() {
            wc3(&n.node, NodeKind::Helper);
        }
        for n in model.attachments() {
            wc3(&n.node, NodeKind::Attachment);
        }
        for n in model.particle_emitters() {
            wc3(&n.node, NodeKind::ParticleEmitter);
        }
        for n in model.particle_emitters2() {
            wc3(&n.node, NodeKind::ParticleEmitter2);
        }
        for n in model.ribbon_emitters() {
            wc3(&n.node, NodeKind::RibbonEmitter);
        }
        for n in model.corn_emitters() {
            wc3(&n.node, NodeKind::CornEmitter);
        }
        for n in model.event_objects() {
            wc3(&n.node, NodeKind::EventObject);
        }
        for n in model.collision_shapes() {
            wc3(&n.node, NodeKind::CollisionShape);
        }
        let mut alpha = |object: &GenObject, kind| found.push(from_gen_object(object, kind));
        for n in model.alpha_bones() {
            alpha(&n.object, NodeKind::Bone);
        }
        for n in model.alpha_lights() {
            alpha(&n.object, NodeKind::Light);
        }
        for n in model.alpha_helpers() {
            alpha(n, NodeKind::Helper);
        }
        for n in model.alpha_attachments() {
            alpha(&n.object, NodeKind::Attachment);
        }
        for n in model.alpha_particle_emitters() {
            alpha(&n.object, NodeKind::ParticleEmitter);
        }
        for n in model.alpha_particle_emitters2() {
            alpha(&n.object, NodeKind::ParticleEmitter2);
        }
        for n in model.alpha_ribbon_emitters() {
            alpha(&n.object, NodeKind::RibbonEmitter);
        }
        for n in model.alpha_events() {
            alpha(&n.object, NodeKind::EventObject);
        }
        for n in model.alpha_hit_test_shapes() {
            alpha(&n.object, NodeKind::CollisionShape);
        }
        found.sort_by_key(|(node, _)| node.object_id);
        let pivots = model.pivot_points();
        let mut by_object_id = HashMap::new();
        for (i, (node, _)) in found.iter_mut().enumerate() {
            node.pivot = usize::try_from(node.object_id)
                .ok()
                .and_then(|id| pivots.get(id))
                .map(|p| p.map(|c| if c.is_finite() { c } else { 0.0 }))
                .unwrap_or_default();
            by_object_id.entry(node.object_id).or_insert(i);
        }
        let parents: Vec<Option<usize>> = found
            .iter()
            .enumerate()
            .map(|(i, (_, parent_id))| {
                by_object_id
                    .get(parent_id)
                    .copied()
                    .filter(|&p| p != i && *parent_id != u32::MAX)
            })
            .collect();
        let (parents, order) = break_cycles(parents);
        let nodes: Vec<SkeletonNode> = found
            .into_iter()
            .zip(parents)
            .map(|((node, _), parent)| SkeletonNode { parent, ..node })
            .collect();
        let index = |track: Option<&Track<[f32; 3]>>| track.map(KeyIndex::new).unwrap_or_default();
        let indexes = nodes
            .iter()
            .map(|n| {
                [
                    index(n.translation.as_ref()),
                    n.rotation.as_ref().map(KeyIndex::new).unwrap_or_default(),
                    index(n.scaling.as_ref()),
                ]
            })
            .collect();
        Skeleton {
            nodes,
            indexes,
            order,
            by_object_id,
        }
    }

    /// The nodes, sorted by object id.
    pub fn nodes(&self) -> &[SkeletonNode] {
        &self.nodes
    }

    /// Node indices with every parent before its children.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The index of the node with this object id (the first, if several share it).
    pub fn index_of(&self, object_id: u32) -> Option<usize> {
        self.by_object_id.get(&object_id).copied()
    }

    /// The index of the first node named `name` (as the model spells it:
    /// names are not unique, nor trimmed, in real files).
    ///
    /// ```
    /// use formats::anim::{Sampler, Skeleton, Timeline};
    /// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
    /// let skeleton = Skeleton::from_model(&model);
    /// let bone = skeleton.node_named("Root").expect("the sample's bone");
    /// let timeline = Timeline::from_model(&model);
    /// let stand = timeline.sequence_named("Stand")?;
    /// let pose = skeleton.pose(&Sampler::new(&timeline, timeline.at(stand, 500.0).unwrap()));
    /// let world = pose.world[bone]; // the bone's world matrix 500 ms into Stand
    /// assert!(world.is_finite());
    /// assert_eq!(skeleton.node_named("Tail"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn node_named(&self, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.name == name)
    }

    /// Node `index`'s own transform at the sampler's moment.
    pub fn local(&self, index: usize, sampler: &Sampler<'_>) -> LocalTransform {
        let Some(node) = self.nodes.get(index) else {
            return LocalTransform::IDENTITY;
        };
        let id = LocalTransform::IDENTITY;
        let Some([translation, rotation, scaling]) = self.indexes.get(index) else {
            return LocalTransform::IDENTITY;
        };
        LocalTransform {
            translation: node.translation.as_ref().map_or(id.translation, |t| {
                sampler.sample_indexed(t, translation, &id.translation)
            }),
            rotation: node.rotation.as_ref().map_or(id.rotation, |t| {
                sampler.sample_indexed(t, rotation, &id.rotation)
            }),
            scaling: node.scaling.as_ref().map_or(id.scaling, |t| {
                sampler.sample_indexed(t, scaling, &id.scaling)
            }),
        }
    }

    /// Every node's world transform at the sampler's moment.
    pub fn pose(&self, sampler: &Sampler<'_>) -> Pose {
        self.pose_with(|index| self.local(index, sampler))
    }

    /// Every node's world transform from given local transforms (by node index).
    pub fn pose_with(&self, local: impl Fn(usize) -> LocalTransform) -> Pose {
        let mut world = vec![Mat4::IDENTITY; self.nodes.len()];
        for &index in &self.order {
            let Some(node) = self.nodes.get(index) else {
                continue;
            };
            let parent = node
                .parent
                .and_then(|p| world.get(p))
                .map_or(Mat4::IDENTITY, |m| inherited(*m, node.inherit));
            if let Some(slot) = world.get_mut(index) {
                *slot = parent * local(index).matrix(node.pivot);
            }
        }
        Pose { world }
    }
}

/// The part of a parent's world transform a node takes on.
fn inherited(parent: Mat4, inherit: Inherit) -> Mat4 {
    if inherit.all() {
        return parent;
    }
    let (scale, rotation, translation) = parent.to_scale_rotation_translation();
    Mat4::from_scale_rotation_translation(
        if inherit.scaling { scale } else { Vec3::ONE },
        if inherit.rotation {
            rotation
        } else {
            Quat::IDENTITY
        },
        if inherit.translation {
            translation
        } else {
            Vec3::ZERO
        },
    )
}

/// Parents that form a cycle lose their parent (the node where the walk
/// closed it); returns the parents and an order with parents first.
fn break_cycles(mut parents: Vec<Option<usize>>) -> (Vec<Option<usize>>, Vec<usize>) {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Visiting,
        Done,
    }
    let n = parents.len();
    let mut state = vec![State::New; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        // Walk up to a done node or a root, then emit the path top-down.
        let mut path = Vec::new();
        let mut at = Some(start);
        while let Some(i) = at {
            match state.get(i) {
                Some(State::New) => {
                    if let Some(s) = state.get_mut(i) {
                        *s = State::Visiting;
                    }
                    path.push(i);
                    at = parents.get(i).copied().flatten();
                }
                Some(State::Visiting) => {
                    // `i` is on the current path: the last node pushed closes
                    // the cycle and loses its parent.
                    if let Some(p) = path.last().and_then(|&last| parents.get_mut(last)) {
                        *p = None;
                    }
                    at = None;
                }
                _ => at = None,
            }
        }
        for &i in path.iter().rev() {
            if let Some(s) = state.get_mut(i) {
                *s = State::Done;
            }
            order.push(i);
        }
    }
    (parents, order)
}

/// The flag bits that mean the same in Warcraft III and alpha nodes, whose
/// numbers differ.
struct FlagBits {
    translation: u32,
    rotation: u32,
    scaling: u32,
    billboards: u32,
}

const WC3_FLAGS: FlagBits = FlagBits {
    translation: node_flags::DONT_INHERIT_TRANSLATION,
    rotation: node_flags::DONT_INHERIT_ROTATION,
    scaling: node_flags::DONT_INHERIT_SCALING,
    billboards: node_flags::BILLBOARDED
        | node_flags::BILLBOARDED_LOCK_X
        | node_flags::BILLBOARDED_LOCK_Y
        | node_flags::BILLBOARDED_LOCK_Z,
};

const ALPHA_FLAGS: FlagBits = {
    use crate::mdx::alpha::node::gen_object_flags as f;
    FlagBits {
        translation: f::DONT_INHERIT_TRANSLATION,
        rotation: f::DONT_INHERIT_ROTATION,
        scaling: f::DONT_INHERIT_SCALING,
        billboards: f::BILLBOARD | f::BILLBOARD_LOCK_X | f::BILLBOARD_LOCK_Y | f::BILLBOARD_LOCK_Z,
    }
};

/// A node without parent or pivot yet.
fn skeleton_node(
    name: &format_core::FixedStr<80>,
    kind: NodeKind,
    object_id: u32,
    flags: u32,
    bits: &FlagBits,
) -> SkeletonNode {
    SkeletonNode {
        name: name.to_string_lossy().into_owned(),
        kind,
        object_id,
        parent: None,
        pivot: [0.0; 3],
        inherit: Inherit {
            translation: flags & bits.translation == 0,
            rotation: flags & bits.rotation == 0,
            scaling: flags & bits.scaling == 0,
        },
        billboarded: flags & bits.billboards != 0,
        translation: None,
        rotation: None,
        scaling: None,
    }
}

fn from_node(node: &Node, kind: NodeKind) -> (SkeletonNode, u32) {
    let mut out = skeleton_node(&node.name, kind, node.object_id, node.flags, &WC3_FLAGS);
    for track in node.tracks.iter().rev() {
        match track {
            NodeTrack::Translation(t) => out.translation = Some(t.clone()),
            NodeTrack::Rotation(t) => out.rotation = Some(t.clone()),
            NodeTrack::Scaling(t) => out.scaling = Some(t.clone()),
            NodeTrack::Unknown(_) => {}
        }
    }
    (out, node.parent_id)
}

fn from_gen_object(object: &GenObject, kind: NodeKind) -> (SkeletonNode, u32) {
    let mut out = skeleton_node(
        &object.name,
        kind,
        object.object_id,
        object.flags,
        &ALPHA_FLAGS,
    );
    for track in object.tracks.iter().rev() {
        match track {
            GenObjectTrack::Translation(t) => out.translation = Some(t.clone()),
            GenObjectTrack::Rotation(t) => out.rotation = Some(decompress(t)),
            GenObjectTrack::Scaling(t) => out.scaling = Some(t.clone()),
            GenObjectTrack::Unknown(_) => {}
        }
    }
    (out, object.parent_id)
}

/// An alpha rotation track with its quaternions (and tangents) unpacked.
pub fn decompress(track: &Track<CompressedQuaternion>) -> Track<[f32; 4]> {
    track.map(|q| q.to_quaternion())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::anim::timeline::{SequenceInfo, Timeline};
    use crate::mdx::{Bone, Interpolation, Key};
    use format_core::FixedStr;

    /// A bone for tests (also of the glTF nodes).
    pub(crate) fn bone(name: &str, object_id: u32, parent_id: u32, tracks: Vec<NodeTrack>) -> Bone {
        Bone {
            node: Node {
                name: FixedStr::try_from(name).unwrap(),
                object_id,
                parent_id,
                flags: node_flags::BONE,
                tracks,
            },
            geoset_id: u32::MAX,
            geoset_animation_id: u32::MAX,
        }
    }

    /// Two bones: the root at pivot (0, 0, 0) turning 90° about Z over
    /// "Turn"; its child at pivot (1, 0, 0) moving up by 2 over the same time.
    fn two_bone_chain() -> Model {
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let mut model = Model::new(800);
        model.sequences_mut().push(crate::mdx::Sequence {
            name: FixedStr::try_from("Turn").unwrap(),
            interval: [0, 1000],
            move_speed: 0.0,
            flags: 1, // non looping: at 1000 ms it holds its end
            rarity: 0.0,
            sync_point: 0,
            extent: Default::default(),
        });
        let turn = Track::new(
            Interpolation::Linear,
            vec![
                Key::new(0, [0.0, 0.0, 0.0, 1.0]),
                Key::new(1000, [0.0, 0.0, h, h]),
            ],
        );
        let lift = Track::new(
            Interpolation::Linear,
            vec![Key::new(0, [0.0; 3]), Key::new(1000, [0.0, 0.0, 2.0])],
        );
        model.bones_mut().extend([
            bone("child", 1, 0, vec![NodeTrack::Translation(lift)]),
            bone("root", 0, u32::MAX, vec![NodeTrack::Rotation(turn)]),
        ]);
        model
            .pivot_points_mut()
            .extend([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]);
        model
    }

    fn close(a: Vec3, b: [f32; 3]) {
        assert!(a.distance(Vec3::from_array(b)) < 1e-5, "{a} vs {b:?}");
    }

    #[test]
    fn a_two_bone_chain_turns_about_its_pivots() {
        let model = two_bone_chain();
        let skeleton = Skeleton::from_model(&model);
        assert_eq!(skeleton.nodes()[0].name, "root");
        assert_eq!(skeleton.nodes()[1].parent, Some(0));
        assert_eq!(skeleton.nodes()[1].pivot, [1.0, 0.0, 0.0]);
        let timeline = Timeline::from_model(&model);
        let pose_at = |ms| skeleton.pose(&Sampler::new(&timeline, timeline.at(0, ms).unwrap()));
        // At the end: the root turned 90° about Z at the origin, so the child's
        // pivot (1, 0, 0) is at (0, 1, 0), lifted by 2 along the (unturned) Z.
        let end = pose_at(1000.0);
        close(end.world[1].transform_point3(Vec3::X), [0.0, 1.0, 2.0]);
        // A point 1 past the child's pivot along X follows the root's turn.
        close(
            end.world[1].transform_point3(Vec3::new(2.0, 0.0, 0.0)),
            [0.0, 2.0, 2.0],
        );
        // Halfway: 45° and a lift of 1.
        let mid = pose_at(500.0);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        close(mid.world[1].transform_point3(Vec3::X), [h, h, 1.0]);
        // The bind pose leaves everything in place.
        let bind = skeleton.pose(&Sampler::new(&timeline, crate::anim::Moment::BIND));
        assert!(bind.world.iter().all(|m| *m == Mat4::IDENTITY));
    }

    #[test]
    fn a_node_that_does_not_inherit_rotation_keeps_only_the_parent_translation() {
        let mut model = two_bone_chain();
        model.bones_mut()[0].node.flags |= node_flags::DONT_INHERIT_ROTATION;
        let skeleton = Skeleton::from_model(&model);
        let timeline = Timeline::from_model(&model);
        let end = skeleton.pose(&Sampler::new(&timeline, timeline.at(0, 1000.0).unwrap()));
        close(end.world[1].transform_point3(Vec3::X), [1.0, 0.0, 2.0]);
    }

    /// A damaged `PIVT` can hold NaN or an infinity: such a coordinate is 0,
    /// so that poses (and the glTF nodes standing at their pivots) stay
    /// finite; the other coordinates are kept.
    #[test]
    fn non_finite_pivot_coordinates_are_0() {
        let mut model = two_bone_chain();
        model.pivot_points_mut()[1] = [f32::NAN, 2.0, f32::NEG_INFINITY];
        let skeleton = Skeleton::from_model(&model);
        assert_eq!(skeleton.nodes()[1].pivot, [0.0, 2.0, 0.0]);
        let timeline = Timeline::from_model(&model);
        let pose = skeleton.pose(&Sampler::new(&timeline, timeline.at(0, 500.0).unwrap()));
        assert!(pose.world.iter().all(|m| m.is_finite()), "{pose:?}");
    }

    #[test]
    fn parent_cycles_are_broken_not_followed() {
        let mut model = Model::new(800);
        model.bones_mut().extend([
            bone("a", 0, 1, vec![]),
            bone("b", 1, 0, vec![]),
            bone("c", 2, 2, vec![]),
        ]);
        let skeleton = Skeleton::from_model(&model);
        let roots = skeleton
            .nodes()
            .iter()
            .filter(|n| n.parent.is_none())
            .count();
        assert_eq!(roots, 2); // one of a, b; and c (its own parent)
        assert_eq!(skeleton.order().len(), 3);
        let timeline = Timeline {
            sequences: vec![SequenceInfo {
                name: "x".into(),
                interval: [0, 1],
                looping: true,
            }],
            global_sequences: vec![],
        };
        let pose = skeleton.pose(&Sampler::new(&timeline, timeline.at(0, 0.0).unwrap()));
        assert_eq!(pose.world.len(), 3);
    }
}
