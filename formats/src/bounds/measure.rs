//! Extents measured from the geometry: every geoset's vertices posed and
//! skinned ([`crate::anim`]) over each sequence, hidden geosets left out.

use super::aabb::Aabb;
use super::pose::{
    Posed, Posing, Reach, grow_at_rest, key_frames, pose_count, pose_work, poses, thin,
};
use crate::anim::{Skeleton, Timeline, meshes};
use crate::mdx::{Extent, Model};

/// How sequences are sampled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtentOptions {
    /// Milliseconds between two poses of a sequence; the sequence's first
    /// and last frames and every key of the skeleton's and the geoset
    /// animations' tracks inside it are posed too (where linear tracks turn).
    /// A sequence is posed at most [`MAX_STEPS`](super::MAX_STEPS) times between its keys (the
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

/// The most work one measurement does, 2^27 (about a second), counted as
/// poses times what each pose visits: every vertex, every node track, and
/// every key of the geoset alpha tracks. The largest corpus model needs
/// 3.9e7 (HarvestGolem: 1 489 poses of 26 040 vertices). A model that
/// needs more is posed at a longer step (every key still posed), and if
/// that is not enough (a file declaring thousands of sequences of 49
/// days), at every n-th of those frames (each sequence's first and last
/// kept): [`Extents::stretch`] and
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

/// The extents `model`'s geometry gives, every sequence sampled as `options`
/// says; `None` for a model without vertices (nothing to measure).
///
/// Global sequences run from each sequence's start (their counter is the
/// time into the sequence), as [`Timeline::at`] has it; a sequence shorter
/// than the longest global sequence moving a node or a geoset's alpha is
/// posed on until that one has run (looping, or at its end if it does not
/// loop): the game runs global sequences whatever the sequence, so every
/// phase of them shows. Vertices a billboarded node turns (a node turns
/// what hangs from it too) are counted as far as they can turn from its
/// pivot, whichever way it faces the camera.
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
    let (keys, span) = key_frames(model, &skeleton, &timeline);
    // Counted before any list is made: a file's sequences can ask for
    // billions of frames.
    let per_pose = pose_work(model, &skeleton, &meshes);
    let work = |step: u32| {
        let each = timeline.sequences.iter();
        let poses = each.map(|s| pose_count(s, step, &keys, span));
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
    let poses = timeline
        .sequences
        .iter()
        .map(|s| thin(poses(s, step, &keys, span), every))
        .collect();
    let posing = Posing::new(model, skeleton, timeline, meshes, poses);
    let (sequences, geosets) = (posing.timeline.sequences.len(), posing.meshes.len());

    // Pass 1: the boxes.
    let mut boxes = vec![vec![Aabb::EMPTY; sequences]; geosets];
    let cache = posing.cache();
    posing.each_posed_group(cache.as_deref(), |group: Posed<'_>| {
        let (m, s) = (group.mesh, group.sequence);
        if let Some(b) = boxes.get_mut(m).and_then(|b| b.get_mut(s)) {
            group.grow(b);
        }
    });
    let bind: Vec<Aabb> = posing
        .meshes
        .iter()
        .map(|mesh| {
            let mut b = Aabb::EMPTY;
            grow_at_rest(&mut b, &mesh.positions);
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
    posing.each_posed_group(cache.as_deref(), |group: Posed<'_>| {
        let (m, s) = (group.mesh, group.sequence);
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
        group.reach(&mut targets);
    });
    for ((mesh, shown), r) in posing.meshes.iter().zip(&shown).zip(&mut geoset_reaches) {
        if !shown {
            r.add(&mesh.positions);
            model_reach.add(&mesh.positions);
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
