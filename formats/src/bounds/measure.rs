//! Extents measured from the geometry: every geoset's vertices posed and
//! skinned ([`crate::anim`]) over each sequence, hidden geosets left out.

use glam::Mat4;

use super::aabb::{Aabb, Sphere};
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

/// The blended world transform of a group (identity without influences), as
/// [`Skin::matrix`](crate::anim::Skin::matrix) blends it.
fn matrix(influences: &[Influence], world: &[Mat4]) -> Mat4 {
    if influences.is_empty() {
        return Mat4::IDENTITY;
    }
    influences.iter().fold(Mat4::ZERO, |sum, i| {
        sum + world
            .get(i.node as usize)
            .copied()
            .unwrap_or(Mat4::IDENTITY)
            * i.weight
    })
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
    groups: Vec<Vec<Group>>,
    /// Per sequence, the frames posed.
    frames: Vec<Vec<i64>>,
}

impl Posing<'_> {
    /// Calls `visit(mesh, sequence, points)` with the posed vertices of
    /// every mesh showing, group by group, at every posed frame of every
    /// sequence.
    fn each_point(&self, mut visit: impl FnMut(usize, usize, &[[f32; 3]])) {
        let mut posed = Vec::new();
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
                let pose = self.skeleton.pose(&sampler);
                for (m, (mesh, groups)) in self.meshes.iter().zip(&self.groups).enumerate() {
                    if geoset_state(self.model, mesh.geoset, &sampler).alpha <= 0.0 {
                        continue;
                    }
                    for group in groups {
                        transform(
                            matrix(&group.influences, &pose.world),
                            &group.positions,
                            &mut posed,
                        );
                        visit(m, s, &posed);
                    }
                }
            }
        }
    }
}

/// `points` moved by `matrix` into `out` (written out as plain arithmetic:
/// this loop is most of the measuring, and stays fast unoptimised).
fn transform(matrix: Mat4, points: &[[f32; 3]], out: &mut Vec<[f32; 3]>) {
    let [
        [a0, a1, a2, _],
        [b0, b1, b2, _],
        [c0, c1, c2, _],
        [d0, d1, d2, _],
    ] = matrix.to_cols_array_2d();
    out.clear();
    out.extend(points.iter().map(|&[x, y, z]| {
        [
            a0 * x + b0 * y + c0 * z + d0,
            a1 * x + b1 * y + c1 * z + d1,
            a2 * x + b2 * y + c2 * z + d2,
        ]
    }));
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
/// # Ok::<(), format_core::Error>(())
/// ```
pub fn measure(model: &Model, options: &ExtentOptions) -> Option<Extents> {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let meshes = meshes(model, &skeleton);
    if meshes.iter().all(|m| m.positions.is_empty()) {
        return None;
    }
    let keys = key_frames(model, &skeleton, &timeline);
    let frames = timeline
        .sequences
        .iter()
        .map(|s| frames(s.interval, options.step, &keys))
        .collect();
    let posing = Posing {
        groups: meshes.iter().map(groups).collect(),
        model,
        skeleton,
        timeline,
        meshes,
        frames,
    };
    let (sequences, geosets) = (posing.timeline.sequences.len(), posing.meshes.len());

    // Pass 1: the boxes.
    let mut boxes = vec![vec![Aabb::EMPTY; sequences]; geosets];
    posing.each_point(|m, s, points| {
        if let Some(b) = boxes.get_mut(m).and_then(|b| b.get_mut(s)) {
            points.iter().for_each(|&p| b.add(p));
        }
    });
    let bind: Vec<Aabb> = posing
        .meshes
        .iter()
        .map(|mesh| {
            let mut b = Aabb::EMPTY;
            mesh.positions.iter().for_each(|&p| b.add(p));
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
    let mut spheres: Vec<Vec<Sphere>> = boxes
        .iter()
        .map(|b| b.iter().map(Sphere::about).collect())
        .collect();
    let mut geoset_spheres: Vec<Sphere> = geoset_boxes.iter().map(Sphere::about).collect();
    let mut sequence_spheres: Vec<Sphere> = sequence_boxes
        .iter()
        .map(|b| Sphere::about(b.as_ref().unwrap_or(&model_box)))
        .collect();
    let mut model_sphere = Sphere::about(&model_box);
    posing.each_point(|m, s, points| {
        let mut own = spheres.get_mut(m).and_then(|b| b.get_mut(s));
        let mut geoset = geoset_spheres
            .get_mut(m)
            .filter(|_| shown.get(m) == Some(&true));
        let mut sequence = sequence_spheres.get_mut(s);
        for &p in points {
            for sphere in [&mut own, &mut geoset, &mut sequence].into_iter().flatten() {
                sphere.add(p);
            }
            model_sphere.add(p);
        }
    });
    for ((mesh, shown), sphere) in posing.meshes.iter().zip(&shown).zip(&mut geoset_spheres) {
        if !shown {
            for &p in &mesh.positions {
                sphere.add(p);
                model_sphere.add(p);
            }
        }
    }
    let model_extent = model_box.extent(model_sphere.radius);
    Some(Extents {
        model: model_extent,
        sequences: sequence_boxes
            .iter()
            .zip(&sequence_spheres)
            .map(|(b, sphere)| b.map_or(model_extent, |b| b.extent(sphere.radius)))
            .collect(),
        geosets: boxes
            .iter()
            .zip(&spheres)
            .zip(geoset_boxes.iter().zip(&geoset_spheres))
            .map(|((boxes, spheres), (all, sphere))| GeosetExtents {
                extent: all.extent(sphere.radius),
                sequences: boxes
                    .iter()
                    .zip(spheres)
                    .map(|(b, s)| b.extent(s.radius))
                    .collect(),
            })
            .collect(),
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
}
