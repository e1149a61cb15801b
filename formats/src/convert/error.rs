//! How far a change of skinning moves vertices: both models posed with
//! [`anim`](crate::anim) at every measured frame of every sequence, and the
//! largest distance between a vertex as one skins it and as the other does
//! (the source's vertices skinned by every influence
//! [`convert_weighted`](super::convert_weighted) was given, where it was).

use std::collections::{HashMap, HashSet};

use glam::Mat4;

use super::Weights;
use super::report::SkinError;
use super::split::Origin;
use crate::anim::{Moment, Pose, Sampler, SequenceInfo, Skeleton, Timeline, meshes};
use crate::mdx::Model;

/// Vertices whose influences differ in the same way: the difference of
/// weights per node (`before - after`; `usize::MAX` stands for no node, the
/// identity) and the vertices `(geoset, vertex, position)`.
struct Signature {
    deltas: Vec<(usize, f32)>,
    vertices: Vec<(usize, usize, [f32; 3])>,
}

/// A vertex's influences as `(node, share)`, from `(bone object id,
/// weight)`: bones the skeleton does not know left out, the rest scaled to
/// sum to 1 (as [`anim`](crate::anim) reads `SKIN`).
fn shares(influences: &[(u32, u32)], skeleton: &Skeleton) -> Vec<(usize, f32)> {
    let known: Vec<(usize, f64)> = influences
        .iter()
        .filter(|&&(_, w)| w > 0)
        .filter_map(|&(bone, w)| Some((skeleton.index_of(bone)?, f64::from(w))))
        .collect();
    let total: f64 = known.iter().map(|(_, w)| w).sum();
    known
        .into_iter()
        .map(|(node, w)| (node, (w / total) as f32))
        .collect()
}

/// The vertices whose influences differ between `before` and `after`, which
/// have the same nodes (`origins[i]`: where the vertices of geoset `i` of
/// `after` come from in `before`, whose vertices have `weights` where
/// given), grouped by how they differ; a vertex of `before` in several
/// geosets of `after` (along a cut) counts once.
fn changed(
    before: &Model,
    after: &Model,
    origins: &[Origin],
    weights: &Weights<'_>,
    skeleton: &Skeleton,
) -> Vec<Signature> {
    let old = meshes(before, skeleton);
    let new = meshes(after, skeleton);
    let mut out: Vec<Signature> = Vec::new();
    let mut index: HashMap<Vec<(usize, u32)>, usize> = HashMap::new();
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    for (mesh, origin) in new.iter().zip(origins) {
        let Some(source) = old.get(origin.geoset) else {
            continue;
        };
        for (v, position) in mesh.positions.iter().enumerate() {
            let from = match &origin.vertices {
                Some(vertices) => match vertices.get(v) {
                    Some(&s) => usize::from(s),
                    None => continue,
                },
                None => v,
            };
            if !seen.insert((origin.geoset, from)) {
                continue;
            }
            let a: Vec<(usize, f32)> = match weights.of(origin.geoset) {
                Some(lists) => shares(lists.get(from).map_or(&[], Vec::as_slice), skeleton),
                None => (source.skin.vertex(from).iter())
                    .map(|i| (i.node as usize, i.weight))
                    .collect(),
            };
            let b = mesh.skin.vertex(v);
            // No influence at all is the identity.
            let identity = match (a.is_empty(), b.is_empty()) {
                (true, false) => Some((usize::MAX, 1.0)),
                (false, true) => Some((usize::MAX, -1.0)),
                _ => None,
            };
            // Summed by node, in node order (a vertex may have hundreds).
            let mut terms: Vec<(usize, f32)> = (a.into_iter())
                .chain(b.iter().map(|i| (i.node as usize, -i.weight)))
                .chain(identity)
                .collect();
            terms.sort_by_key(|(n, _)| *n);
            let mut deltas: Vec<(usize, f32)> = Vec::with_capacity(terms.len());
            for (node, w) in terms {
                match deltas.last_mut() {
                    Some((n, sum)) if *n == node => *sum += w,
                    _ => deltas.push((node, w)),
                }
            }
            deltas.retain(|(_, w)| *w != 0.0);
            if deltas.is_empty() {
                continue;
            }
            let key: Vec<(usize, u32)> = deltas.iter().map(|(n, w)| (*n, w.to_bits())).collect();
            let at = *index.entry(key).or_insert_with(|| {
                out.push(Signature {
                    deltas,
                    vertices: Vec::new(),
                });
                out.len() - 1
            });
            if let Some(signature) = out.get_mut(at) {
                signature.vertices.push((origin.geoset, from, *position));
            }
        }
    }
    out
}

/// The largest distance at one pose, and the vertex `(geoset, vertex)`.
/// Plain arithmetic on column-major matrices: this runs for every changed
/// vertex at every frame.
fn worst(changed: &[Signature], pose: &Pose) -> (f32, (usize, usize)) {
    const IDENTITY: [f32; 16] = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let world: Vec<[f32; 16]> = pose.world.iter().map(Mat4::to_cols_array).collect();
    let mut best = (0.0f32, (0, 0));
    for signature in changed {
        // D = sum of w * M (the last row is not needed).
        let mut d = [0.0f32; 16];
        for &(node, w) in &signature.deltas {
            let m = world.get(node).unwrap_or(&IDENTITY);
            for (x, y) in d.iter_mut().zip(m) {
                *x += w * y;
            }
        }
        let [a0, a1, a2, _, b0, b1, b2, _, c0, c1, c2, _, t0, t1, t2, _] = d;
        for &(g, v, [x, y, z]) in &signature.vertices {
            let dx = a0 * x + b0 * y + c0 * z + t0;
            let dy = a1 * x + b1 * y + c1 * z + t1;
            let dz = a2 * x + b2 * y + c2 * z + t2;
            let squared = dx * dx + dy * dy + dz * dz;
            if squared > best.0 {
                best = (squared, (g, v));
            }
        }
    }
    (best.0.sqrt(), best.1)
}

/// The skinning error of `after` against `before` (same nodes; the vertices
/// of geoset `i` of `after` come from `origins[i]`; those of `before` have
/// `weights` where given) in the bind pose and every `step` milliseconds of
/// every sequence (and at its last frame), or `None` when no vertex is
/// skinned differently.
pub(super) fn measure(
    before: &Model,
    after: &Model,
    origins: &[Origin],
    weights: &Weights<'_>,
    step: u32,
) -> Option<SkinError> {
    let skeleton = Skeleton::from_model(before);
    let changed = changed(before, after, origins, weights, &skeleton);
    if changed.is_empty() {
        return None;
    }
    let timeline = Timeline::from_model(before);
    let per_pose = skeleton.nodes().len()
        + changed
            .iter()
            .map(|s| s.deltas.len() + s.vertices.len())
            .sum::<usize>();
    let step = bounded_step(&timeline, step, per_pose as u64);
    let mut error = SkinError {
        distance: 0.0,
        geoset: 0,
        vertex: 0,
        sequence: None,
        at: 0,
        vertices: changed.iter().map(|s| s.vertices.len()).sum(),
        poses: 0,
        step,
    };
    let mut consider = |pose: &Pose, sequence: Option<&str>, at: u32| {
        error.poses += 1;
        let (distance, (geoset, vertex)) = worst(&changed, pose);
        if distance > error.distance {
            error.distance = distance;
            error.geoset = geoset;
            error.vertex = vertex;
            error.sequence = sequence.map(str::to_string);
            error.at = at;
        }
    };
    consider(
        &skeleton.pose(&Sampler::new(&timeline, Moment::BIND)),
        None,
        0,
    );
    for sequence in &timeline.sequences {
        for (at, moment) in frames(sequence, step) {
            let pose = skeleton.pose(&Sampler::new(&timeline, moment));
            consider(&pose, Some(&sequence.name), at);
        }
    }
    Some(error)
}

/// The most work one measurement does, in vertices and nodes posed (each
/// pose poses every node and moves every vertex whose skinning changed):
/// about 10 s in a release build. A model whose sequences would take more
/// at the step asked for (a unit of 20,000 converted vertices over 100
/// seconds of sequences, or a file whose sequences last for days) is
/// measured at a coarser step, the one [`SkinError::step`] reports.
pub(super) const MAX_WORK: u64 = 1 << 28;

/// `step` (at least 1), raised so that the sequences of `timeline`, each
/// pose costing `per_pose` (nodes and vertices), take at most
/// [`MAX_WORK`].
fn bounded_step(timeline: &Timeline, step: u32, per_pose: u64) -> u32 {
    let frames: u64 = timeline
        .sequences
        .iter()
        .map(|s| u64::from(s.duration()) + 1)
        .sum();
    let poses = (MAX_WORK / per_pose.max(1)).max(1);
    let least = u32::try_from(frames.div_ceil(poses)).unwrap_or(u32::MAX);
    step.max(least).max(1)
}

/// The moments measured in `sequence`: every `step` milliseconds from its
/// start, and its last frame (`interval[1]` itself, which
/// [`Timeline::at`] would wrap to the first in a looping sequence). Global
/// sequences run from the sequence's start.
fn frames(sequence: &SequenceInfo, step: u32) -> impl Iterator<Item = (u32, Moment)> + '_ {
    let duration = sequence.duration();
    let [start, _] = sequence.interval;
    (0..duration)
        .step_by(step.max(1) as usize)
        .chain([duration])
        .map(move |at| {
            let moment = Moment {
                interval: Some(sequence.interval),
                frame: f64::from(start) + f64::from(at),
                counter: Some(f64::from(at)),
            };
            (at, moment)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::SequenceInfo;

    fn timeline(intervals: &[[u32; 2]]) -> Timeline {
        Timeline {
            sequences: intervals
                .iter()
                .map(|&interval| SequenceInfo {
                    name: "Stand".into(),
                    interval,
                    looping: true,
                })
                .collect(),
            global_sequences: Vec::new(),
        }
    }

    #[test]
    fn the_step_grows_so_that_no_file_is_measured_forever() {
        // Every frame of ordinary sequences, for a unit of 2,000 vertices
        // and 100 nodes.
        let unit = 2_100;
        assert_eq!(
            bounded_step(&timeline(&[[0, 1000], [2000, 5333]]), 1, unit),
            1
        );
        assert_eq!(bounded_step(&timeline(&[[0, 1000]]), 0, unit), 1);
        assert_eq!(bounded_step(&timeline(&[[0, 1000]]), 20, unit), 20);
        // 100 seconds of sequences over 20,000 vertices: every few frames.
        let big = bounded_step(&timeline(&[[0, 100_000]]), 1, 20_000);
        assert!((2..=16).contains(&big), "{big}");
        // A sequence of 4 billion milliseconds: about MAX_WORK in all.
        let step = bounded_step(&timeline(&[[0, 4_000_000_000]]), 1, unit);
        let poses = frames(&timeline(&[[0, 4_000_000_000]]).sequences[0], step).count() as u64;
        assert!(
            poses * unit <= MAX_WORK + unit,
            "{poses} poses at {step} ms"
        );
        assert!(poses * unit > MAX_WORK / 2, "{poses} poses at {step} ms");
    }
}
