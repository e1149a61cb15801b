//! Extents measured from the geometry: every geoset's vertices posed and
//! skinned ([`crate::anim`]) over each sequence, hidden geosets left out.

use glam::Mat4;

use super::aabb::Aabb;
use crate::anim::{Influence, Mesh, Moment, Sampler, Skeleton, Timeline, geoset_state, meshes};
use crate::mdx::alpha::GeosetAnimTrack;
use crate::mdx::{Extent, GeosetAnimationTrack, Model};

/// How sequences are sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtentOptions {
    /// Milliseconds between two poses of a sequence; the sequence's first
    /// and last frames and every key of the skeleton's and the geoset
    /// animations' tracks inside it are posed too (where linear tracks turn).
    /// A sequence is posed at most [`MAX_STEPS`] times between its keys (the
    /// step grows for longer ones: 100 s at 10 ms), so a damaged interval
    /// of billions of milliseconds costs no more.
    pub step: u32,
}

impl ExtentOptions {
    /// Every integer frame of every sequence (slow on long sequences; the
    /// tests measure with it).
    pub const EVERY_FRAME: ExtentOptions = ExtentOptions { step: 1 };
}

impl Default for ExtentOptions {
    /// A pose every 10 ms (100 a second, more than the game draws) and at
    /// every key.
    fn default() -> Self {
        ExtentOptions { step: 10 }
    }
}

/// The most poses of a sequence at regular steps.
pub const MAX_STEPS: u32 = 10_000;

/// The most work one measurement does, 2^27 (about a second), counted as
/// poses times what each pose visits: every vertex, and every key of the
/// tracks it samples (a track's keys are searched at each pose). The
/// largest corpus model needs 4.3e7 (HarvestGolem: 1 489 poses of 26 040
/// vertices and 2 879 keys, 0.8 s). A model that needs more is posed at a
/// longer step (every key still posed), and if that is not enough (a file
/// declaring thousands of sequences of 49 days), at every n-th of those
/// frames (each sequence's first and last kept): [`Extents::stretch`] and
/// [`Extents::every`] say how.
pub const MAX_POSE_WORK: u64 = 1 << 27;

/// One geoset's measured extents.
#[derive(Clone, Debug, PartialEq)]
pub struct GeosetExtents {
    /// Over every sequence (the bind pose when the geoset shows in none, or
    /// the model has no sequences).
    pub extent: Extent,
    /// One per sequence; the empty extent ([`EMPTY_CORNER`](super::EMPTY_CORNER) to its negative, radius 0) for a
    /// sequence in which the geoset never shows, as Blizzard's files have it.
    pub sequences: Vec<Extent>,
}

/// What the geometry gives: the extents a model should store.
///
/// Boxes are the smallest that hold every posed vertex; a bounds radius is
/// the distance from its box's centre to the farthest vertex (what
/// Blizzard's models store).
#[derive(Clone, Debug, PartialEq)]
pub struct Extents {
    /// `MODL`: every geoset's extent together.
    pub model: Extent,
    /// `SEQS`: the geosets showing during each sequence (the model's extent
    /// for a sequence in which none shows).
    pub sequences: Vec<Extent>,
    /// `GEOS`, in the order of [`meshes`]: Warcraft III geosets, then alpha ones.
    pub geosets: Vec<GeosetExtents>,
    /// 1 when sequences were posed at the options' step; n when at a step
    /// n times as long, to stay within [`MAX_POSE_WORK`].
    pub stretch: u32,
    /// 1 when every frame was posed (regular ones and keys); n when only
    /// every n-th was, to stay within [`MAX_POSE_WORK`] (the boxes may
    /// then be smaller than the geometry reaches).
    pub every: usize,
}

impl Extents {
    /// How the measurement was cut short to stay within
    /// [`MAX_POSE_WORK`], as a phrase for a report; `None` when it was not.
    pub fn coarse(&self) -> Option<String> {
        match (self.stretch, self.every) {
            (1, 1) => None,
            (n, 1) => Some(format!(
                "posed at a step {n} times the one asked for: the sequences are too long"
            )),
            (n, k) => Some(format!(
                "posed at a step {n} times the one asked for and at every {k}th of those \
                 frames and keys: the sequences are too long"
            )),
        }
    }
}

/// The vertices of one mesh that move alike (the same influences).
struct Group {
    influences: Vec<Influence>,
    positions: Vec<[f32; 3]>,
}

/// The mesh's vertices grouped by their influences, so each blended matrix is
/// built once per pose.
fn groups(mesh: &Mesh) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut index: std::collections::HashMap<Vec<(u32, u32)>, usize> = Default::default();
    for (v, &position) in mesh.positions.iter().enumerate() {
        let influences = mesh.skin.vertex(v);
        let key: Vec<(u32, u32)> = influences
            .iter()
            .map(|i| (i.node, i.weight.to_bits()))
            .collect();
        let at = *index.entry(key).or_insert_with(|| {
            groups.push(Group {
                influences: influences.to_vec(),
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

/// The blended world transform of a group (identity without influences),
/// as [`Skin::matrix`](crate::anim::Skin::matrix) blends it: the weighted
/// sum of its nodes' transforms (a node not in the pose counts as the
/// identity).
fn blend(influences: &[Influence], world: &[Affine]) -> Affine {
    match influences {
        [] => Affine::IDENTITY,
        [one] if one.weight == 1.0 => world
            .get(one.node as usize)
            .map_or(Affine::IDENTITY, |a| Affine(a.0)),
        _ => {
            // Once per group and pose (the vertex loops are the hot ones).
            let mut sum = [0.0f32; 12];
            for i in influences {
                let node = world.get(i.node as usize).unwrap_or(&Affine::IDENTITY);
                for (s, n) in sum.iter_mut().zip(node.0) {
                    *s += n * i.weight;
                }
            }
            Affine(sum)
        }
    }
}

/// The frames at which sequence `interval` is posed: every `step` ms, the
/// last frame, and the keys of the tracks that move or hide geometry.
fn frames(interval: [u32; 2], step: u32, keys: &[i64]) -> Vec<i64> {
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

/// What one pose visits: every vertex, every key of the node tracks and
/// the geoset alpha tracks, every geoset animation for each mesh.
fn pose_work(model: &Model, skeleton: &Skeleton, meshes: &[Mesh]) -> u64 {
    let vertices: usize = meshes.iter().map(|m| m.positions.len()).sum();
    let node_keys: usize = skeleton
        .nodes()
        .iter()
        .map(|n| {
            n.translation.as_ref().map_or(0, |t| t.keys.len())
                + n.rotation.as_ref().map_or(0, |t| t.keys.len())
                + n.scaling.as_ref().map_or(0, |t| t.keys.len())
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
    [vertices, node_keys, wc3_alpha, alpha_alpha, found]
        .into_iter()
        .fold(0u64, |a, n| a.saturating_add(n as u64))
        .max(1)
}

/// How many frames [`frames`] gives, at most (without making them).
fn frame_count(interval: [u32; 2], step: u32, keys: &[i64]) -> u64 {
    let [start, end] = interval.map(i64::from);
    let step = i64::from(step.max(1)).max((end - start) / i64::from(MAX_STEPS));
    let regular = u64::try_from((end - start).max(0) / step).unwrap_or(0) + 2;
    let from = keys.partition_point(|&k| k < start);
    let to = keys.partition_point(|&k| k <= end);
    regular + to.saturating_sub(from) as u64
}

/// Every `every`-th of `frames`, and the last.
fn thin(mut frames: Vec<i64>, every: usize) -> Vec<i64> {
    if every > 1 {
        let last = frames.last().copied();
        let mut k = 0;
        frames.retain(|_| {
            k += 1;
            (k - 1) % every == 0
        });
        if frames.last().copied() != last {
            frames.extend(last);
        }
        // Each sequence's list is kept until posed: not at its full length.
        frames.shrink_to_fit();
    }
    frames
}

/// Every key frame of the tracks that follow the sequences and move a node
/// or change a geoset's alpha, sorted.
fn key_frames(model: &Model, skeleton: &Skeleton, timeline: &Timeline) -> Vec<i64> {
    let mut keys = Vec::new();
    let mut add = |global: i32, frames: &mut dyn Iterator<Item = i32>| {
        if timeline.global_duration(global).is_none() {
            keys.extend(frames.map(i64::from));
        }
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
    keys
}

/// What is posed: the model's parts that do not change between poses.
struct Posing<'m> {
    model: &'m Model,
    skeleton: Skeleton,
    timeline: Timeline,
    meshes: Vec<Mesh>,
    /// The groups, their influences naming nodes by their place in `skinning`.
    groups: Vec<Vec<Group>>,
    /// The nodes that move vertices (indices in the skeleton).
    skinning: Vec<usize>,
    /// Per sequence, the frames posed.
    frames: Vec<Vec<i64>>,
}

/// The nodes the groups' influences name, in order of first use; each
/// influence renumbered to its node's place in that list (so a pose keeps
/// only the transforms that move vertices).
fn skinning_nodes(groups: &mut [Vec<Group>]) -> Vec<usize> {
    let mut nodes: Vec<usize> = Vec::new();
    let mut place: std::collections::HashMap<u32, u32> = Default::default();
    for influence in groups
        .iter_mut()
        .flatten()
        .flat_map(|g| g.influences.iter_mut())
    {
        let next = u32::try_from(nodes.len()).unwrap_or(u32::MAX);
        let at = *place.entry(influence.node).or_insert_with(|| {
            nodes.push(influence.node as usize);
            next
        });
        influence.node = at;
    }
    nodes
}

/// One posed frame: the world transform of every node that moves vertices
/// (as [`Posing::skinning`] lists them), and which meshes show.
struct Pose {
    sequence: usize,
    world: Vec<Affine>,
    shown: Vec<bool>,
}

/// The most node transforms kept between the two passes (48 MB), a pose
/// counting 4 more for its own keeping (its two lists: about 200 bytes); a
/// model that needs more is posed twice.
const CACHED_TRANSFORMS: usize = 1 << 20;

impl Posing<'_> {
    /// Every posed frame of every sequence, in order, handed to `f`.
    fn each_pose(&self, mut f: impl FnMut(Pose)) {
        for (s, (sequence, frames)) in self.timeline.sequences.iter().zip(&self.frames).enumerate()
        {
            let start = i64::from(sequence.interval[0]);
            for &frame in frames {
                let moment = Moment {
                    interval: Some(sequence.interval),
                    frame: frame as f64,
                    counter: Some((frame - start) as f64),
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
                        .map(|mesh| geoset_state(self.model, mesh.geoset, &sampler).alpha > 0.0)
                        .collect(),
                });
            }
        }
    }

    /// Calls `visit(mesh, sequence, moved, positions)` for every group of
    /// vertices of every mesh showing in `pose`: the group's rest positions
    /// and what moves them there.
    fn each_group(&self, pose: &Pose, visit: &mut impl FnMut(usize, usize, &Affine, &[[f32; 3]])) {
        let meshes = self.groups.iter().zip(&pose.shown).enumerate();
        for (m, (groups, _)) in meshes.filter(|(_, (_, shown))| **shown) {
            for group in groups {
                let moved = blend(&group.influences, &pose.world);
                visit(m, pose.sequence, &moved, &group.positions);
            }
        }
    }

    /// The poses, when they fit in [`CACHED_TRANSFORMS`].
    fn cache(&self) -> Option<Vec<Pose>> {
        let poses: usize = self.frames.iter().map(Vec::len).sum();
        if poses.saturating_mul(self.skinning.len() + 4) > CACHED_TRANSFORMS {
            return None;
        }
        let mut cache = Vec::with_capacity(poses);
        self.each_pose(|pose| cache.push(pose));
        Some(cache)
    }

    /// [`each_group`](Self::each_group) over every pose: from `cache`, or
    /// posed anew.
    fn each_posed_group(
        &self,
        cache: Option<&[Pose]>,
        mut visit: impl FnMut(usize, usize, &Affine, &[[f32; 3]]),
    ) {
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
struct Affine([f32; 12]);

impl Affine {
    const IDENTITY: Affine = Affine([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);

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
    fn each(&self, points: &[[f32; 3]], mut f: impl FnMut(f32, f32, f32)) {
        let [a0, a1, a2, b0, b1, b2, c0, c1, c2, d0, d1, d2] = self.0;
        for &[x, y, z] in points {
            let px = a0 * x + b0 * y + c0 * z + d0;
            let py = a1 * x + b1 * y + c1 * z + d1;
            let pz = a2 * x + b2 * y + c2 * z + d2;
            // All finite exactly when each times 0 is 0 (an infinity or a
            // NaN gives NaN).
            if px * 0.0 + py * 0.0 + pz * 0.0 == 0.0 {
                f(px, py, pz);
            }
        }
    }
}

/// `aabb` grown by `points` moved by `moved`.
fn grow(aabb: &mut Aabb, moved: &Affine, points: &[[f32; 3]]) {
    let [mut lx, mut ly, mut lz] = aabb.minimum;
    let [mut hx, mut hy, mut hz] = aabb.maximum;
    moved.each(points, |x, y, z| {
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

/// The farthest a set of points reaches from a centre (squared).
#[derive(Clone, Copy)]
struct Reach {
    centre: [f32; 3],
    squared: f32,
}

impl Reach {
    /// From the centre of `aabb`.
    fn about(aabb: &Aabb) -> Reach {
        Reach {
            centre: aabb.centre(),
            squared: 0.0,
        }
    }

    fn radius(&self) -> f32 {
        self.squared.sqrt()
    }
}

/// Each of `reaches` grown by `points` moved by `moved`.
fn reach(reaches: &mut [&mut Reach], moved: &Affine, points: &[[f32; 3]]) {
    moved.each(points, |x, y, z| {
        for r in reaches.iter_mut() {
            let [cx, cy, cz] = r.centre;
            let d = (x - cx) * (x - cx) + (y - cy) * (y - cy) + (z - cz) * (z - cz);
            if d > r.squared {
                r.squared = d;
            }
        }
    });
}

/// The extents `model`'s geometry gives, every sequence sampled as `options`
/// says; `None` for a model without vertices (nothing to measure).
///
/// Global sequences run from each sequence's start (their counter is the
/// time into the sequence), as [`Timeline::at`] has it.
///
/// ```
/// use formats::bounds::{ExtentOptions, measure};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let extents = measure(&model, &ExtentOptions::default()).unwrap();
/// // The sample's cube (-0.5 to 0.5) rises by 0.5 during "Stand", not in "Birth".
/// assert_eq!(extents.sequences[0].maximum, [0.5, 0.5, 1.0]);
/// assert_eq!(extents.geosets[0].sequences[1].maximum, [0.5, 0.5, 0.5]);
/// # Ok::<(), formats::Error>(())
/// ```
pub fn measure(model: &Model, options: &ExtentOptions) -> Option<Extents> {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let meshes = meshes(model, &skeleton);
    if meshes.iter().all(|m| m.positions.is_empty()) {
        return None;
    }
    let keys = key_frames(model, &skeleton, &timeline);
    // Counted before any list is made: a file's sequences can ask for
    // billions of frames.
    let per_pose = pose_work(model, &skeleton, &meshes);
    let work = |step: u32| {
        let each = timeline.sequences.iter();
        let poses = each.map(|s| frame_count(s.interval, step, &keys));
        poses
            .fold(0u64, u64::saturating_add)
            .saturating_mul(per_pose)
    };
    let step = options.step.max(1);
    let stretch = work(step).div_ceil(MAX_POSE_WORK).max(1);
    let stretch = u32::try_from(stretch).unwrap_or(u32::MAX);
    let step = step.saturating_mul(stretch);
    let every = work(step).div_ceil(MAX_POSE_WORK).max(1);
    let every = usize::try_from(every).unwrap_or(usize::MAX);
    let frames = timeline
        .sequences
        .iter()
        .map(|s| thin(frames(s.interval, step, &keys), every))
        .collect();
    let mut groups: Vec<Vec<Group>> = meshes.iter().map(groups).collect();
    let skinning = skinning_nodes(&mut groups);
    let posing = Posing {
        groups,
        skinning,
        model,
        skeleton,
        timeline,
        meshes,
        frames,
    };
    let (sequences, geosets) = (posing.timeline.sequences.len(), posing.meshes.len());

    // Pass 1: the boxes.
    let mut boxes = vec![vec![Aabb::EMPTY; sequences]; geosets];
    let cache = posing.cache();
    posing.each_posed_group(cache.as_deref(), |m, s, moved, points| {
        if let Some(b) = boxes.get_mut(m).and_then(|b| b.get_mut(s)) {
            grow(b, moved, points);
        }
    });
    let bind: Vec<Aabb> = posing
        .meshes
        .iter()
        .map(|mesh| {
            let mut b = Aabb::EMPTY;
            grow(&mut b, &Affine::IDENTITY, &mesh.positions);
            b
        })
        .collect();
    // A geoset that never shows (or a model without sequences): its bind pose.
    let shown: Vec<bool> = boxes
        .iter()
        .map(|b| b.iter().any(|b| !b.is_empty()))
        .collect();
    let geoset_boxes: Vec<Aabb> = boxes
        .iter()
        .zip(&bind)
        .zip(&shown)
        .map(|((per_sequence, bind), &shown)| {
            let mut all = Aabb::EMPTY;
            per_sequence.iter().for_each(|b| all.union(b));
            if shown { all } else { *bind }
        })
        .collect();
    let mut model_box = Aabb::EMPTY;
    geoset_boxes.iter().for_each(|b| model_box.union(b));
    // A sequence in which no geoset shows: the model's extent.
    let sequence_boxes: Vec<Option<Aabb>> = (0..sequences)
        .map(|s| {
            let mut all = Aabb::EMPTY;
            boxes
                .iter()
                .filter_map(|b| b.get(s))
                .for_each(|b| all.union(b));
            (!all.is_empty()).then_some(all)
        })
        .collect();

    // Pass 2: the radii about the boxes' centres.
    let mut reaches: Vec<Vec<Reach>> = boxes
        .iter()
        .map(|b| b.iter().map(Reach::about).collect())
        .collect();
    let mut geoset_reaches: Vec<Reach> = geoset_boxes.iter().map(Reach::about).collect();
    let mut sequence_reaches: Vec<Reach> = sequence_boxes
        .iter()
        .map(|b| Reach::about(b.as_ref().unwrap_or(&model_box)))
        .collect();
    let mut model_reach = Reach::about(&model_box);
    // A geoset that shows counts its posed vertices; one that does not, its
    // bind pose (below).
    let mut spare = Reach::about(&Aabb::EMPTY);
    posing.each_posed_group(cache.as_deref(), |m, s, moved, points| {
        let shows = shown.get(m) == Some(&true);
        let mut targets: Vec<&mut Reach> = Vec::with_capacity(4);
        targets.push(&mut model_reach);
        if let Some(r) = reaches.get_mut(m).and_then(|r| r.get_mut(s)) {
            targets.push(r);
        }
        if let Some(r) = sequence_reaches.get_mut(s) {
            targets.push(r);
        }
        match geoset_reaches.get_mut(m) {
            Some(r) if shows => targets.push(r),
            _ => targets.push(&mut spare),
        }
        reach(&mut targets, moved, points);
    });
    for ((mesh, shown), r) in posing.meshes.iter().zip(&shown).zip(&mut geoset_reaches) {
        if !shown {
            reach(
                &mut [r, &mut model_reach],
                &Affine::IDENTITY,
                &mesh.positions,
            );
        }
    }
    let model_extent = model_box.extent(model_reach.radius());
    Some(Extents {
        model: model_extent,
        sequences: sequence_boxes
            .iter()
            .zip(&sequence_reaches)
            .map(|(b, r)| b.map_or(model_extent, |b| b.extent(r.radius())))
            .collect(),
        geosets: boxes
            .iter()
            .zip(&reaches)
            .zip(geoset_boxes.iter().zip(&geoset_reaches))
            .map(|((boxes, reaches), (all, r))| GeosetExtents {
                extent: all.extent(r.radius()),
                sequences: boxes
                    .iter()
                    .zip(reaches)
                    .map(|(b, r)| b.extent(r.radius()))
                    .collect(),
            })
            .collect(),
        stretch,
        every,
    })
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
            }
        }
    }

    #[test]
    fn thinning_keeps_every_nth_frame_and_the_last() {
        assert_eq!(thin(vec![0, 10, 20, 30, 40, 50, 60], 3), [0, 30, 60]);
        assert_eq!(thin(vec![0, 10, 20, 30, 40, 50], 3), [0, 30, 50]);
        assert_eq!(thin(vec![0, 10, 20], 1), [0, 10, 20]);
        assert_eq!(thin(vec![5], 100), [5]);
    }
}
