//! Posing a model for its bounds: which frames of each sequence are posed,
//! the vertices grouped by what moves them, and the posed groups handed to
//! the passes of `measure` and `escapes`.

use glam::Mat4;

use super::aabb::Aabb;
use crate::anim::skin::{Blend, blend};
use crate::anim::{
    Influence, Mesh, Moment, Sampler, SequenceInfo, Skeleton, Timeline, geoset_state,
};
use crate::mdx::alpha::GeosetAnimTrack;
use crate::mdx::{GeosetAnimationTrack, Model};

/// The most poses of a sequence at regular steps.
pub const MAX_STEPS: u32 = 10_000;

/// The vertices of one mesh that move alike (the same influences).
pub(super) struct Group {
    influences: Vec<Influence>,
    /// The billboarded node that turns these vertices to the camera (the
    /// first influence's nearest billboarded node, itself or above it), by
    /// its place in [`Posing::skinning`] once renumbered.
    anchor: Option<u32>,
    /// Rest positions.
    positions: Vec<[f32; 3]>,
}

/// The nearest billboarded node of each skeleton node: itself, or the
/// nearest one above it (a billboarded node turns what hangs from it too).
fn billboard_anchors(skeleton: &Skeleton) -> Vec<Option<u32>> {
    let nodes = skeleton.nodes();
    let mut anchors: Vec<Option<u32>> = vec![None; nodes.len()];
    // Parents come before their children in `order`.
    for &n in skeleton.order() {
        let Some(node) = nodes.get(n) else { continue };
        let anchor = match node.billboarded {
            true => u32::try_from(n).ok(),
            false => node.parent.and_then(|p| anchors.get(p).copied().flatten()),
        };
        if let Some(slot) = anchors.get_mut(n) {
            *slot = anchor;
        }
    }
    anchors
}

/// The mesh's vertices grouped by their influences, so each blended matrix is
/// built once per pose.
fn groups(mesh: &Mesh, anchors: &[Option<u32>]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut index: std::collections::HashMap<Vec<(u32, u32)>, usize> = Default::default();
    for (v, &position) in mesh.positions.iter().enumerate() {
        let influences = mesh.skin.vertex(v);
        let key: Vec<(u32, u32)> = influences
            .iter()
            .map(|i| (i.node, i.weight.to_bits()))
            .collect();
        let at = *index.entry(key).or_insert_with(|| {
            let anchor = influences
                .iter()
                .find_map(|i| anchors.get(i.node as usize).copied().flatten());
            groups.push(Group {
                influences: influences.to_vec(),
                anchor,
                positions: Vec::new(),
            });
            groups.len() - 1
        });
        if let Some(group) = groups.get_mut(at) {
            group.positions.push(position);
        }
    }
    groups
}

/// One pose of a sequence: the frame of the model's timeline its tracks
/// read, and the milliseconds since it started (what global sequences read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct At {
    pub frame: i64,
    pub counter: i64,
}

/// The frames at which sequence `interval` is posed: every `step` ms, the
/// last frame, and the keys of the tracks that move or hide geometry.
pub(super) fn frames(interval: [u32; 2], step: u32, keys: &[i64]) -> Vec<i64> {
    let [start, end] = interval.map(i64::from);
    let step = i64::from(step.max(1)).max((end - start) / i64::from(MAX_STEPS));
    let mut frames: Vec<i64> = (0..)
        .map(|k| start + k * step)
        .take_while(|&f| f < end)
        .collect();
    frames.push(end.max(start));
    let from = keys.partition_point(|&k| k < start);
    let to = keys.partition_point(|&k| k <= end);
    frames.extend(keys.get(from..to).unwrap_or_default());
    frames.sort_unstable();
    frames.dedup();
    frames
}

/// How many times `step` apart the poses past a sequence's end are
/// ([`tail`]): they only add phases of the global sequences, which turn
/// slowly enough (a 6.7 s turn of Blizzard's tomes: 5 degrees a pose at the
/// default step).
const TAIL_STEPS: i64 = 10;

/// The milliseconds `sequence` is posed past its end, every
/// [`TAIL_STEPS`] `step`s (at most [`MAX_STEPS`] times), until `span` (the
/// longest global sequence) has run: the game runs global sequences
/// whatever the sequence, so a sequence shorter than one of them shows it
/// in every phase. A looping sequence plays again meanwhile, one that does
/// not loop stays at its end.
fn tail(sequence: &SequenceInfo, span: i64, step: u32) -> Vec<At> {
    let [start, end] = sequence.interval.map(i64::from);
    let length = (end - start).max(0);
    if span <= length {
        return Vec::new();
    }
    let step = tail_step(length, span, step);
    let mut counters: Vec<i64> = (1..)
        .map(|k| length + k * step)
        .take_while(|&c| c < span)
        .collect();
    counters.push(span);
    counters
        .into_iter()
        .map(|counter| At {
            frame: match sequence.looping && length > 0 {
                true => start + counter % length,
                false => start + length,
            },
            counter,
        })
        .collect()
}

/// How many poses [`tail`] gives, at most.
fn tail_count(sequence: &SequenceInfo, span: i64, step: u32) -> u64 {
    let [start, end] = sequence.interval.map(i64::from);
    let length = (end - start).max(0);
    if span <= length {
        return 0;
    }
    let step = tail_step(length, span, step);
    u64::try_from((span - length) / step).unwrap_or(0) + 1
}

/// The step of [`tail`] past a sequence of `length` ms, `span` the longest
/// global sequence.
fn tail_step(length: i64, span: i64, step: u32) -> i64 {
    (i64::from(step.max(1)) * TAIL_STEPS).max((span - length) / i64::from(MAX_STEPS))
}

/// The poses of `sequence`: its [`frames`], then its [`tail`].
pub(super) fn poses(sequence: &SequenceInfo, step: u32, keys: &[i64], span: i64) -> Vec<At> {
    let start = i64::from(sequence.interval[0]);
    let mut poses: Vec<At> = frames(sequence.interval, step, keys)
        .into_iter()
        .map(|frame| At {
            frame,
            counter: frame - start,
        })
        .collect();
    poses.extend(tail(sequence, span, step));
    poses
}

/// How many poses [`poses`] gives, at most (without making them).
pub(super) fn pose_count(sequence: &SequenceInfo, step: u32, keys: &[i64], span: i64) -> u64 {
    frame_count(sequence.interval, step, keys) + tail_count(sequence, span, step)
}

/// What one pose visits: every vertex, every node track (the skeleton
/// finds a track's keys by binary search), every key of the geoset alpha
/// tracks, every geoset animation for each mesh.
pub(super) fn pose_work(model: &Model, skeleton: &Skeleton, meshes: &[Mesh]) -> u64 {
    let vertices: usize = meshes.iter().map(|m| m.positions.len()).sum();
    let node_tracks: usize = skeleton
        .nodes()
        .iter()
        .map(|n| {
            usize::from(n.translation.is_some())
                + usize::from(n.rotation.is_some())
                + usize::from(n.scaling.is_some())
        })
        .sum();
    let wc3_alpha = model.geoset_animations().iter().flat_map(|a| &a.tracks);
    let wc3_alpha: usize = wc3_alpha
        .map(|t| match t {
            GeosetAnimationTrack::Alpha(t) => t.keys.len(),
            _ => 0,
        })
        .sum();
    let alpha_alpha = model
        .alpha_geoset_animations()
        .iter()
        .flat_map(|a| &a.tracks);
    let alpha_alpha: usize = alpha_alpha
        .map(|t| match t {
            GeosetAnimTrack::Alpha(t) => t.keys.len(),
            _ => 0,
        })
        .sum();
    let animations = model.geoset_animations().len() + model.alpha_geoset_animations().len();
    let found = meshes.len().saturating_mul(animations);
    [vertices, node_tracks, wc3_alpha, alpha_alpha, found]
        .into_iter()
        .fold(0u64, |a, n| a.saturating_add(n as u64))
        .max(1)
}

/// How many frames [`frames`] gives, at most (without making them).
pub(super) fn frame_count(interval: [u32; 2], step: u32, keys: &[i64]) -> u64 {
    let [start, end] = interval.map(i64::from);
    let step = i64::from(step.max(1)).max((end - start) / i64::from(MAX_STEPS));
    let regular = u64::try_from((end - start).max(0) / step).unwrap_or(0) + 2;
    let from = keys.partition_point(|&k| k < start);
    let to = keys.partition_point(|&k| k <= end);
    regular + to.saturating_sub(from) as u64
}

/// Every `every`-th of `poses`, and the last.
pub(super) fn thin<T: Copy + PartialEq>(mut poses: Vec<T>, every: usize) -> Vec<T> {
    if every > 1 {
        let last = poses.last().copied();
        let mut k = 0;
        poses.retain(|_| {
            k += 1;
            (k - 1) % every == 0
        });
        if poses.last().copied() != last {
            poses.extend(last);
        }
        // Each sequence's list is kept until posed: not at its full length.
        poses.shrink_to_fit();
    }
    poses
}

/// Every key frame of the tracks that follow the sequences and move a node
/// or change a geoset's alpha, sorted; and the longest global sequence such
/// a track runs on (0 when none does).
pub(super) fn key_frames(
    model: &Model,
    skeleton: &Skeleton,
    timeline: &Timeline,
) -> (Vec<i64>, i64) {
    let mut keys = Vec::new();
    let mut span = 0u32;
    let mut add = |global: i32, frames: &mut dyn Iterator<Item = i32>| match timeline
        .global_duration(global)
    {
        Some(duration) => span = span.max(duration),
        None => keys.extend(frames.map(i64::from)),
    };
    for node in skeleton.nodes() {
        if let Some(t) = &node.translation {
            add(t.global_sequence_id, &mut t.keys.iter().map(|k| k.frame));
        }
        if let Some(t) = &node.rotation {
            add(t.global_sequence_id, &mut t.keys.iter().map(|k| k.frame));
        }
        if let Some(t) = &node.scaling {
            add(t.global_sequence_id, &mut t.keys.iter().map(|k| k.frame));
        }
    }
    for anim in model.geoset_animations() {
        for track in &anim.tracks {
            if let GeosetAnimationTrack::Alpha(t) = track {
                add(t.global_sequence_id, &mut t.keys.iter().map(|k| k.frame));
            }
        }
    }
    for anim in model.alpha_geoset_animations() {
        for track in &anim.tracks {
            if let GeosetAnimTrack::Alpha(t) = track {
                add(t.global_sequence_id, &mut t.keys.iter().map(|k| k.frame));
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    (keys, i64::from(span))
}

/// What is posed: the model's parts that do not change between poses.
pub(super) struct Posing<'m> {
    pub model: &'m Model,
    pub skeleton: Skeleton,
    pub timeline: Timeline,
    pub meshes: Vec<Mesh>,
    /// The groups, their influences and anchors naming nodes by their place
    /// in `skinning`.
    groups: Vec<Vec<Group>>,
    /// The nodes that move vertices or turn them (indices in the skeleton).
    skinning: Vec<usize>,
    /// Per sequence, the poses taken.
    poses: Vec<Vec<At>>,
}

/// The nodes the groups' influences and anchors name, in order of first
/// use; each renumbered to its node's place in that list (so a pose keeps
/// only the transforms that move vertices).
fn skinning_nodes(groups: &mut [Vec<Group>]) -> Vec<usize> {
    let mut nodes: Vec<usize> = Vec::new();
    let mut place: std::collections::HashMap<u32, u32> = Default::default();
    let mut renumber = |node: &mut u32| {
        let next = u32::try_from(nodes.len()).unwrap_or(u32::MAX);
        *node = *place.entry(*node).or_insert_with(|| {
            nodes.push(*node as usize);
            next
        });
    };
    for group in groups.iter_mut().flatten() {
        for influence in &mut group.influences {
            renumber(&mut influence.node);
        }
        if let Some(anchor) = &mut group.anchor {
            renumber(anchor);
        }
    }
    nodes
}

/// One posed frame: the world transform of every node that moves vertices
/// (as [`Posing::skinning`] lists them), and which meshes show.
pub(super) struct Pose {
    sequence: usize,
    world: Vec<Affine>,
    shown: Vec<bool>,
}

/// The least geoset alpha that shows anything: colours are 8-bit, so a
/// geoset fainter than 1/255 draws nothing. Blizzard's exporter left such
/// frames out: the mortar's scattershot target (runi95's
/// abilities/weapons/mortar) fades its shell to 0.002 as it falls 600 units
/// into the ground, and its box stops where the alpha falls below 1/255.
pub(super) const VISIBLE_ALPHA: f32 = 1.0 / 255.0;

/// The most node transforms kept between two passes (48 MB), a pose
/// counting 4 more for its own keeping (its two lists: about 200 bytes); a
/// model that needs more is posed again for each pass.
const CACHED_TRANSFORMS: usize = 1 << 20;

/// One group of vertices in one pose, as the passes see it.
pub(super) struct Posed<'g> {
    /// The mesh (its place in [`Posing::meshes`]).
    pub mesh: usize,
    /// The sequence.
    pub sequence: usize,
    /// What moves the group's vertices where the tracks put them.
    pub moved: Affine,
    /// Where the billboarded node turning them is (the group turns about
    /// it, any way), if one does.
    pub anchor: Option<[f32; 3]>,
    /// The rest positions.
    pub positions: &'g [[f32; 3]],
}

impl<'m> Posing<'m> {
    /// Poses `meshes` of `model` at `poses` (per sequence of `timeline`).
    pub fn new(
        model: &'m Model,
        skeleton: Skeleton,
        timeline: Timeline,
        meshes: Vec<Mesh>,
        poses: Vec<Vec<At>>,
    ) -> Posing<'m> {
        let anchors = billboard_anchors(&skeleton);
        let mut groups: Vec<Vec<Group>> = meshes.iter().map(|m| groups(m, &anchors)).collect();
        let skinning = skinning_nodes(&mut groups);
        Posing {
            model,
            skeleton,
            timeline,
            meshes,
            groups,
            skinning,
            poses,
        }
    }

    /// Every pose of every sequence, in order, handed to `f`.
    fn each_pose(&self, mut f: impl FnMut(Pose)) {
        for (s, (sequence, poses)) in self.timeline.sequences.iter().zip(&self.poses).enumerate() {
            for at in poses {
                let moment = Moment {
                    interval: Some(sequence.interval),
                    frame: at.frame as f64,
                    counter: Some(at.counter as f64),
                };
                let sampler = Sampler::new(&self.timeline, moment);
                let world = self.skeleton.pose(&sampler).world;
                f(Pose {
                    sequence: s,
                    world: self
                        .skinning
                        .iter()
                        .map(|&n| world.get(n).map_or(Affine::IDENTITY, |m| Affine::of(*m)))
                        .collect(),
                    shown: self
                        .meshes
                        .iter()
                        .map(|mesh| {
                            geoset_state(self.model, mesh.geoset, &sampler).alpha >= VISIBLE_ALPHA
                        })
                        .collect(),
                });
            }
        }
    }

    /// Calls `visit` for every group of vertices of every mesh showing in
    /// `pose`.
    fn each_group(&self, pose: &Pose, visit: &mut impl FnMut(Posed<'_>)) {
        let meshes = self.groups.iter().zip(&pose.shown).enumerate();
        for (m, (groups, _)) in meshes.filter(|(_, (_, shown))| **shown) {
            for group in groups {
                let anchor = group.anchor.map(|a| {
                    let node = self.skinning.get(a as usize).copied();
                    let pivot = node
                        .and_then(|n| self.skeleton.nodes().get(n))
                        .map_or([0.0; 3], |n| n.pivot);
                    let world = pose.world.get(a as usize).unwrap_or(&Affine::IDENTITY);
                    let mut at = [0.0; 3];
                    world.each(&[pivot], |x, y, z| at = [x, y, z]);
                    at
                });
                visit(Posed {
                    mesh: m,
                    sequence: pose.sequence,
                    // Once per group and pose (the vertex loops are the hot ones).
                    moved: blend(&group.influences, &pose.world),
                    anchor,
                    positions: &group.positions,
                });
            }
        }
    }

    /// The poses, when they fit in [`CACHED_TRANSFORMS`].
    pub fn cache(&self) -> Option<Vec<Pose>> {
        let poses: usize = self.poses.iter().map(Vec::len).sum();
        if poses.saturating_mul(self.skinning.len() + 4) > CACHED_TRANSFORMS {
            return None;
        }
        let mut cache = Vec::with_capacity(poses);
        self.each_pose(|pose| cache.push(pose));
        Some(cache)
    }

    /// Every group of every pose handed to `visit`: from `cache`, or posed
    /// anew.
    pub fn each_posed_group(&self, cache: Option<&[Pose]>, mut visit: impl FnMut(Posed<'_>)) {
        match cache {
            Some(poses) => poses
                .iter()
                .for_each(|pose| self.each_group(pose, &mut visit)),
            None => self.each_pose(|pose| self.each_group(&pose, &mut visit)),
        }
    }
}

/// A transform as its first three rows (skinning blends affine matrices):
/// `[x axis, y axis, z axis, translation]`, three floats each. The loops
/// over vertices below are most of the measuring, and are written in plain
/// float arithmetic so that they stay fast unoptimised too.
pub(super) struct Affine([f32; 12]);

/// Skinning blends the rows as [`Skin::matrix`](crate::anim::Skin::matrix)
/// blends whole matrices, with the one kernel ([`blend`]).
impl Blend for Affine {
    const IDENTITY: Affine = Affine::IDENTITY;
    const ZERO: Affine = Affine([0.0; 12]);

    #[inline(always)]
    fn add_weighted(&mut self, other: &Self, weight: f32) {
        for (s, n) in self.0.iter_mut().zip(other.0) {
            *s += n * weight;
        }
    }
}

impl Affine {
    pub const IDENTITY: Affine =
        Affine([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);

    /// The first three rows of `matrix` (its last row is `0 0 0 1`).
    fn of(matrix: Mat4) -> Affine {
        let [
            [a0, a1, a2, _],
            [b0, b1, b2, _],
            [c0, c1, c2, _],
            [d0, d1, d2, _],
        ] = matrix.to_cols_array_2d();
        Affine([a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2])
    }

    /// Calls `f(x, y, z)` with every point moved, the non-finite left out.
    #[inline(always)]
    pub fn each(&self, points: &[[f32; 3]], mut f: impl FnMut(f32, f32, f32)) {
        self.each_with_rest(points, |[x, y, z], _| f(x, y, z));
    }

    /// Calls `f(moved, rest)` with every point moved and where it was, the
    /// moved ones that are not finite left out.
    #[inline(always)]
    pub fn each_with_rest(&self, points: &[[f32; 3]], mut f: impl FnMut([f32; 3], [f32; 3])) {
        let [a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2] = self.0;
        for &[x, y, z] in points {
            let px = a0 * x + b0 * y + c0 * z + d0;
            let py = a1 * x + b1 * y + c1 * z + d1;
            let pz = a2 * x + b2 * y + c2 * z + d2;
            // All finite exactly when each times 0 is 0 (an infinity or a
            // NaN gives NaN).
            if px * 0.0 + py * 0.0 + pz * 0.0 == 0.0 {
                f([px, py, pz], [x, y, z]);
            }
        }
    }
}

impl<'g> Posed<'g> {
    /// `points` where they are (not moved): no mesh, no sequence.
    pub fn at_rest(points: &'g [[f32; 3]]) -> Self {
        Posed {
            mesh: 0,
            sequence: 0,
            moved: Affine::IDENTITY,
            anchor: None,
            positions: points,
        }
    }

    /// How far the group's vertices lie from the billboarded node turning
    /// them, at most (0 without one): they reach that far from it whichever
    /// way it turns.
    fn turn_radius(&self) -> Option<([f32; 3], f32)> {
        let [ax, ay, az] = self.anchor?;
        let mut squared = 0.0f32;
        self.moved.each(self.positions, |x, y, z| {
            let d = (x - ax) * (x - ax) + (y - ay) * (y - ay) + (z - az) * (z - az);
            if d > squared {
                squared = d;
            }
        });
        Some(([ax, ay, az], squared.sqrt()))
    }

    /// `aabb` grown by the group's vertices where the pose puts them, or,
    /// turned by a billboarded node, by every place they can turn to: the
    /// cube about the node's pivot as far as the farthest reaches.
    pub fn grow(&self, aabb: &mut Aabb) {
        if let Some(([x, y, z], r)) = self.turn_radius() {
            aabb.add([x - r, y - r, z - r]);
            aabb.add([x + r, y + r, z + r]);
            return;
        }
        let [mut lx, mut ly, mut lz] = aabb.minimum;
        let [mut hx, mut hy, mut hz] = aabb.maximum;
        self.moved.each(self.positions, |x, y, z| {
            if x < lx {
                lx = x;
            }
            if x > hx {
                hx = x;
            }
            if y < ly {
                ly = y;
            }
            if y > hy {
                hy = y;
            }
            if z < lz {
                lz = z;
            }
            if z > hz {
                hz = z;
            }
        });
        aabb.minimum = [lx, ly, lz];
        aabb.maximum = [hx, hy, hz];
    }

    /// Each of `reaches` grown by the group's vertices (turned by a
    /// billboarded node: as far as they can turn from its centre).
    pub fn reach(&self, reaches: &mut [&mut Reach]) {
        if let Some(([x, y, z], r)) = self.turn_radius() {
            for reach in reaches.iter_mut() {
                let [cx, cy, cz] = reach.centre;
                let d = ((x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz)).sqrt();
                let far = (d + r) * (d + r);
                if far > reach.squared {
                    reach.squared = far;
                }
            }
            return;
        }
        self.moved.each(self.positions, |x, y, z| {
            for r in reaches.iter_mut() {
                let [cx, cy, cz] = r.centre;
                let d = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
                if d > r.squared {
                    r.squared = d;
                }
            }
        });
    }
}

/// The farthest a set of points reaches from a centre (squared).
#[derive(Clone, Copy)]
pub(super) struct Reach {
    centre: [f32; 3],
    squared: f32,
}

impl Reach {
    /// From the centre of `aabb`.
    pub fn about(aabb: &Aabb) -> Reach {
        Reach {
            centre: aabb.centre(),
            squared: 0.0,
        }
    }

    /// Grown by `points` (at rest: not moved).
    pub fn add(&mut self, points: &[[f32; 3]]) {
        Posed::at_rest(points).reach(&mut [self]);
    }

    pub fn radius(&self) -> f32 {
        self.squared.sqrt()
    }
}

/// `aabb` grown by `points` at rest.
pub(super) fn grow_at_rest(aabb: &mut Aabb, points: &[[f32; 3]]) {
    Posed::at_rest(points).grow(aabb);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_the_steps_the_end_and_the_keys_inside() {
        assert_eq!(
            frames([100, 130], 10, &[0, 105, 130, 200]),
            [100, 105, 110, 120, 130]
        );
        assert_eq!(frames([5, 5], 10, &[]), [5]);
        assert_eq!(frames([9, 3], 10, &[]), [9]);
        // A sequence of 4 billion ms: about 10 000 steps (with its end and
        // its key), not 400 million.
        assert_eq!(frames([0, u32::MAX], 10, &[5]).len(), 10_001 + 2);
    }

    #[test]
    fn frames_are_counted_at_most_as_many_as_made() {
        let keys = [0, 105, 130, 200, 5000];
        for interval in [
            [100, 130],
            [5, 5],
            [9, 3],
            [0, u32::MAX],
            [0, 10_000],
            [7, 7777],
        ] {
            for step in [1, 10, 33, 1000] {
                let made = frames(interval, step, &keys).len() as u64;
                let counted = frame_count(interval, step, &keys);
                // Keys on a step and the end are counted twice.
                let slack = keys.len() as u64 + 2;
                assert!(
                    made <= counted && counted <= made + slack,
                    "{interval:?} {step}: {made} {counted}"
                );
                for looping in [false, true] {
                    for span in [0, 50, 20_000, i64::from(u32::MAX)] {
                        let sequence = SequenceInfo {
                            name: String::new(),
                            interval,
                            looping,
                        };
                        let made = poses(&sequence, step, &keys, span).len() as u64;
                        let counted = pose_count(&sequence, step, &keys, span);
                        assert!(
                            made <= counted && counted <= made + slack,
                            "{made} {counted}"
                        );
                    }
                }
            }
        }
    }

    /// Past its end a sequence is posed until the longest global sequence
    /// has run: looping, it plays again; not looping, it stays at its end.
    #[test]
    fn short_sequences_are_posed_until_the_global_sequences_have_run() {
        let sequence = |looping| SequenceInfo {
            name: String::new(),
            interval: [1000, 1030],
            looping,
        };
        let at = |frame, counter| At { frame, counter };
        // Past the end, every 10 steps.
        assert_eq!(
            poses(&sequence(true), 1, &[], 55)[31..],
            [at(1010, 40), at(1020, 50), at(1025, 55)]
        );
        assert_eq!(
            poses(&sequence(false), 1, &[], 45)[31..],
            [at(1030, 40), at(1030, 45)]
        );
        assert_eq!(
            poses(&sequence(true), 10, &[], 55)[..4],
            [at(1000, 0), at(1010, 10), at(1020, 20), at(1030, 30)]
        );
        // Not shorter than the global sequences: nothing past the end.
        assert_eq!(poses(&sequence(true), 10, &[], 30).len(), 4);
    }

    #[test]
    fn thinning_keeps_every_nth_frame_and_the_last() {
        assert_eq!(thin(vec![0, 10, 20, 30, 40, 50, 60], 3), [0, 30, 60]);
        assert_eq!(thin(vec![0, 10, 20, 30, 40, 50], 3), [0, 30, 50]);
        assert_eq!(thin(vec![0, 10, 20], 1), [0, 10, 20]);
        assert_eq!(thin(vec![5], 100), [5]);
    }
}
