//! glTF animations to sequences and node tracks, as the
//! [`import`](super::import()) docs' "Motion" says.

use std::cell::Cell;

use crate::anim::glam::{DMat3, DMat4, DQuat, DVec3, Vec3};
use crate::gltf::model::curve::fit_keys;
use crate::mdx::{Interpolation, Key, NodeTrack, Tangents, Track};

use super::error::ImportError;
use super::report::{GlobalSequenceMade, HermitePart, ImportReport};
use super::scene::{Channel, Clip, Interp, Scene, Target};
use super::skeleton::{MdxNode, Skeleton};

/// Milliseconds between one sequence's end and the next one's start.
pub(super) const SEQUENCE_GAP: u32 = 1000;

/// The grid's keys per second.
const GRID_RATE: f64 = 30.0;

/// The most grid keys one animation gets (5 minutes at 30 a second): a
/// longer one is sampled less often.
const MAX_GRID_KEYS: f64 = 9_000.0;

/// How many times its grid's keys fitting may give one track.
const FIT_FACTOR: usize = 8;

/// The most node samples an import may take: every MDX node at every key
/// time of every animation that moves it, before fitting. Blender bakes
/// every bone at every frame: 4,194,304 is 200 bones for 12 minutes of
/// animations at 24 frames a second, a second or two of sampling.
pub(super) const MAX_SAMPLES: u64 = 1 << 22;

/// The most keys fitting may add, all tracks together (each costs seven
/// samples); past them, tracks keep the keys they have.
pub(super) const MAX_FITTED: u64 = 1 << 16;

/// The most keys one key of a thinned track may stand for ([`thin`]).
const MAX_JOINED: usize = 64;

/// An animation's length in whole ms (at most an hour).
fn length_ms(clip: &Clip) -> u32 {
    (clip.duration * 1000.0).round().clamp(0.0, 3_600_000.0) as u32
}

/// Where each animation goes on the timeline: `[start, end]` in ms. The
/// intervals an export of this workspace recorded (`extras.mdx.interval`)
/// when every animation has one, of its length, and no two overlap (the
/// conversion to 800 lays out sequences out of order); else one after
/// another, [`SEQUENCE_GAP`] apart.
pub(super) fn intervals(clips: &[&Clip]) -> Vec<[u32; 2]> {
    let recorded: Option<Vec<[u32; 2]>> = clips
        .iter()
        .map(|clip| {
            clip.mdx_interval
                .filter(|&[a, b]| b >= a && b - a == length_ms(clip))
        })
        .collect();
    if let Some(recorded) = recorded {
        let mut sorted = recorded.clone();
        sorted.sort_unstable();
        if sorted
            .iter()
            .zip(sorted.iter().skip(1))
            .all(|(a, b)| a[1] < b[0])
        {
            return recorded;
        }
    }
    let mut next = 0u32;
    clips
        .iter()
        .map(|clip| {
            let interval = [next, next.saturating_add(length_ms(clip).max(1))];
            next = interval[1].saturating_add(SEQUENCE_GAP);
            interval
        })
        .collect()
}

/// Where an animation plays in the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// A sequence: its `[start, end]` on the timeline, in ms.
    Sequence([u32; 2]),
    /// Global sequence `id` (an index in `GLBS`), `length` ms long.
    Global { id: u32, length: u32 },
}

/// Whether any channel of `clip` on `path` moves its node from its rest.
fn moves(scene: &Scene, clip: &Clip, path: &[usize]) -> bool {
    (path.iter())
        .flat_map(|&n| clip.channels_on(n))
        .any(|channel| channel.moves(scene))
}

/// A node's name for the report.
fn node_name(scene: &Scene, skeleton: &Skeleton, i: usize) -> String {
    let gltf = skeleton.node(i).map_or(0, |n| n.gltf);
    match scene.name(gltf) {
        "" => format!("node {gltf}"),
        name => name.to_owned(),
    }
}

/// Where each animation plays (`names`: each one's sequence name and
/// whether it loops), as the [`import`](super::import()) docs' "Global
/// sequences" say: with `longest` (seconds), a looping animation whose
/// name the game does not play, at most that long and at least a
/// millisecond, is packed as a global sequence unless a node it moves is
/// moved by another animation too (kept a sequence, reported); every other
/// animation is a sequence, laid out by [`intervals`]. Call
/// [`sample_budget`] first: which animation moves which node is read from
/// the keys it counts.
pub(super) fn slots(
    scene: &Scene,
    skeleton: &Skeleton,
    clips: &[Clip],
    names: &[(String, bool)],
    longest: Option<f64>,
    report: &mut ImportReport,
) -> Vec<Slot> {
    let qualifies = |clip: &Clip, (name, loops): &(String, bool)| {
        longest.is_some_and(|s| clip.duration <= s)
            && length_ms(clip) > 0
            && *loops
            && !crate::validate::played(name)
    };
    let candidates: Vec<usize> = (clips.iter().zip(names).enumerate())
        .filter(|(_, (clip, named))| qualifies(clip, named))
        .map(|(k, _)| k)
        .collect();
    let mut packed: Vec<Option<u32>> = vec![None; clips.len()];
    if !candidates.is_empty() {
        // The animations that move each MDX node, and the nodes each
        // animation moves (as many pairs as the samples counted, at most).
        let mut movers: Vec<Vec<usize>> = vec![Vec::new(); skeleton.nodes.len()];
        let mut moved: Vec<Vec<usize>> = vec![Vec::new(); clips.len()];
        for ((i, node), by) in skeleton.nodes.iter().enumerate().zip(&mut movers) {
            let path = path(scene, skeleton, node);
            for ((k, clip), nodes) in clips.iter().enumerate().zip(&mut moved) {
                if moves(scene, clip, &path) {
                    by.push(k);
                    nodes.push(i);
                }
            }
        }
        let mut next = 0u32;
        for g in candidates {
            let name = |k: usize| names.get(k).map_or("", |n| n.0.as_str());
            let shared = (moved.get(g).into_iter().flatten()).find_map(|&i| {
                let other = movers.get(i)?.iter().find(|&&o| o != g)?;
                Some((i, *other))
            });
            if let Some((i, other)) = shared {
                report.keep_sequence(
                    format!("animations[{g}]"),
                    format!(
                        "\"{}\" moves node \"{}\", which \"{}\" moves too: kept a sequence (a track follows either the sequences or one global sequence)",
                        name(g),
                        node_name(scene, skeleton, i),
                        name(other)
                    ),
                );
                continue;
            }
            if let (Some(slot), Some(clip)) = (packed.get_mut(g), clips.get(g)) {
                *slot = Some(next);
                report.global_sequences.push(GlobalSequenceMade {
                    animation: clip.name.clone(),
                    name: name(g).to_owned(),
                    id: next,
                    length: length_ms(clip),
                });
                next += 1;
            }
        }
    }
    let sequences: Vec<&Clip> = (clips.iter().zip(&packed))
        .filter(|(_, id)| id.is_none())
        .map(|(clip, _)| clip)
        .collect();
    let mut intervals = intervals(&sequences).into_iter();
    (clips.iter().zip(packed))
        .map(|(clip, id)| match id {
            Some(id) => Slot::Global {
                id,
                length: length_ms(clip),
            },
            None => Slot::Sequence(intervals.next().unwrap_or_default()),
        })
        .collect()
}

/// How far the sampled tracks may stray from glTF's curves.
#[derive(Clone, Copy, Debug)]
pub(super) struct Tolerance {
    /// Model units.
    pub translation: f64,
    /// Radians.
    pub rotation: f64,
    /// A factor.
    pub scaling: f64,
}

/// A node's local transform about its pivot.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Local {
    translation: DVec3,
    rotation: DQuat,
    scaling: DVec3,
}

impl Local {
    const REST: Local = Local {
        translation: DVec3::ZERO,
        rotation: DQuat::IDENTITY,
        scaling: DVec3::ONE,
    };

    /// `l = T(p + t) · R · S · T(-p)` taken apart, and how far `l`'s linear
    /// part is from any rotation times scaling (shear, relative).
    fn of(l: DMat4, pivot: DVec3) -> (Local, f64) {
        let (scaling, rotation, t) = l.to_scale_rotation_translation();
        let a = DMat3::from_mat4(l);
        let rotation = if rotation.is_finite() {
            rotation.normalize()
        } else {
            DQuat::IDENTITY
        };
        let recomposed = DMat3::from_quat(rotation) * DMat3::from_diagonal(scaling);
        let largest = scaling.abs().max_element().max(1e-12);
        let shear = (0..3)
            .flat_map(|c| (0..3).map(move |r| (c, r)))
            .map(|(c, r)| (a.col(c)[r] - recomposed.col(c)[r]).abs())
            .fold(0.0, f64::max)
            / largest;
        let translation = t - pivot + a * pivot;
        (
            Local {
                translation,
                rotation,
                scaling,
            },
            shear,
        )
    }

    fn lerp(a: Local, b: Local, f: f64) -> Local {
        let mut qb = b.rotation;
        if a.rotation.dot(qb) < 0.0 {
            qb = -qb;
        }
        Local {
            translation: a.translation.lerp(b.translation, f),
            rotation: a.rotation.slerp(qb, f),
            scaling: a.scaling.lerp(b.scaling, f),
        }
    }
}

/// The tracks of every MDX node, and what sampling found.
pub(super) struct NodeAnimation {
    /// Per MDX node (object id order), its tracks.
    pub tracks: Vec<Vec<NodeTrack>>,
    /// Per MDX node, the largest shear its transform needed (relative to its
    /// largest scaling), where above 1e-3.
    pub sheared: Vec<(usize, f64)>,
    /// Keys sampled (translation, rotation and scaling keys: three a
    /// sample; a hermite key kept exact counts as one), and kept after
    /// thinning.
    pub keys: usize,
    pub kept: usize,
    /// Whether fitting stopped at [`MAX_FITTED`].
    pub fitting_cut: bool,
    /// The hermite tracks: the MDX node, which track, and the animations
    /// whose `CUBICSPLINE` curves it holds exactly.
    pub hermite: Vec<(usize, HermitePart, Vec<usize>)>,
}

/// The glTF nodes whose motion moves MDX node `i` relative to its MDX
/// parent: `i`'s glTF node and its ancestors below the parent's.
fn path(scene: &Scene, skeleton: &Skeleton, node: &MdxNode) -> Vec<usize> {
    let stop = node.parent.and_then(|p| skeleton.node(p)).map(|p| p.gltf);
    let below = scene.ancestors(node.gltf).take_while(|&n| Some(n) != stop);
    core::iter::once(node.gltf).chain(below).collect()
}

/// Refuses a document whose node samples (every MDX node at every key of
/// the channels that move it, in every animation, and two more) pass
/// [`MAX_SAMPLES`], before any is taken.
pub(super) fn sample_budget(
    scene: &Scene,
    skeleton: &Skeleton,
    clips: &[Clip],
) -> Result<(), ImportError> {
    let sampled = (skeleton.nodes.iter())
        .map(|node| path(scene, skeleton, node))
        .flat_map(|path| {
            (clips.iter()).map(move |clip| {
                let keys = (path.iter())
                    .flat_map(|&n| clip.channels_on(n))
                    // A STEP channel also holds each value 1 ms before its key.
                    .map(|ch| {
                        ch.times.len() as u64 * (1 + u64::from(ch.interpolation == Interp::Step))
                    })
                    .sum::<u64>();
                if keys == 0 { 0 } else { keys + 2 }
            })
        })
        .fold(0u64, u64::saturating_add);
    if sampled > MAX_SAMPLES {
        return Err(ImportError::TooLarge {
            what: "node samples (nodes times the animation keys that move them)",
            needed: sampled,
            limit: MAX_SAMPLES,
        });
    }
    Ok(())
}

/// Each channel's value, as a transform is evaluated at (a time's, or
/// others).
type Values<'a> = dyn Fn(&Channel) -> [f64; 4] + 'a;

/// A node's local transform with its channels at the values given.
type LocalWith<'a> = dyn Fn(&Values<'_>) -> Local + 'a;

/// One key of a hermite track: ms from its animation's start, the value
/// and the tangents, per segment as MDX has them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Hermite {
    ms: f64,
    value: DVec3,
    in_tan: DVec3,
    out_tan: DVec3,
}

/// What one animation gives a node: its local transform sampled (and
/// fitted), and the translation and scaling as exact hermite keys where
/// they are ([`exact_hermite`]).
struct Motion {
    /// Where its keys start on the track's clock (a sequence's start, 0
    /// for a global sequence).
    start: u32,
    sampled: Vec<(f64, Local)>,
    /// Translation, scaling.
    exact: [Option<Vec<Hermite>>; 2],
}

impl Motion {
    /// The exact hermite keys of part `p` (0: translation, 1: scaling).
    fn exact_keys(&self, p: usize) -> Option<&[Hermite]> {
        self.exact.get(p)?.as_deref()
    }
}

/// A part of a node's local transform: the translation or the scaling.
fn part_of(part: HermitePart, local: &Local) -> DVec3 {
    match part {
        HermitePart::Translation => local.translation,
        HermitePart::Scaling => local.scaling,
    }
}

/// The first three components.
fn xyz([x, y, z, _]: [f64; 4]) -> DVec3 {
    DVec3::new(x, y, z)
}

/// `part` of a node's local transform in one animation as hermite keys
/// that play it exactly, when there are such keys: the import docs'
/// "Motion". `channels`: those that move the node (its path's); `length`:
/// the animation's, in ms; `within`: how far from the affine function of
/// the curve the part may be (model units, or a factor); `at`: the local
/// transform with each channel at the value given.
fn exact_hermite(
    channels: &[&Channel],
    part: HermitePart,
    length: f64,
    within: f64,
    at: &LocalWith<'_>,
) -> Option<Vec<Hermite>> {
    let target = match part {
        HermitePart::Translation => Target::Translation,
        HermitePart::Scaling => Target::Scale,
    };
    // The one channel of the part's kind that changes.
    let mut changing = (channels.iter())
        .filter(|ch| ch.target == target && !ch.holds(ch.value(0)))
        .copied();
    let (Some(curve), None) = (changing.next(), changing.next()) else {
        return None;
    };
    if curve.interpolation != Interp::Cubic {
        return None;
    }
    // Its keys at whole ms (as f32 says), in order, within the animation.
    let ms: Vec<f64> = (curve.times.iter())
        .map(|&t| (f64::from(t) * 1000.0).round())
        .collect();
    let whole = (curve.times.iter().zip(&ms)).all(|(&t, &m)| (m / 1000.0) as f32 == t);
    let increasing = ms.iter().zip(ms.iter().skip(1)).all(|(a, b)| a < b);
    if !whole || !increasing || ms.len() < 2 || ms.last().is_none_or(|&m| m > length) {
        return None;
    }
    // part = A · x + b, x the curve's value: A and b measured from the
    // first key's value and a step along each axis (away from 0, which a
    // scaling must not cross), the other channels at the first key.
    let t0 = f64::from(*curve.times.first()?);
    let x0 = xyz(curve.value(0));
    let with = |x: DVec3| {
        let value = |ch: &Channel| match core::ptr::eq(ch, curve) {
            true => x.extend(0.0).to_array(),
            false => ch.sample(t0),
        };
        part_of(part, &at(&value))
    };
    let extent = (0..ms.len())
        .map(|k| (xyz(curve.value(k)) - x0).abs().max_element())
        .fold(0.0, f64::max);
    let h = extent.max(1e-3 * (1.0 + x0.abs().max_element()));
    let base = with(x0);
    let [ax, ay, az] = [DVec3::X, DVec3::Y, DVec3::Z].map(|axis| {
        let step = if x0.dot(axis) < 0.0 { -h } else { h };
        (with(x0 + axis * step) - base) / step
    });
    let a = DMat3::from_cols(ax, ay, az);
    let b = base - a * x0;
    // Checked at every key of every channel and a quarter, half and three
    // quarters of the way between (channels sharing keys check them once).
    let mut checks: Vec<f64> = (channels.iter())
        .flat_map(|ch| {
            let times = || ch.times.iter().map(|&t| f64::from(t));
            let between = times()
                .zip(times().skip(1))
                .flat_map(|(t0, t1)| [0.25, 0.5, 0.75].map(|f| t0 + (t1 - t0) * f));
            times().chain(between)
        })
        .chain([0.0, length / 1000.0])
        .collect();
    checks.sort_by(f64::total_cmp);
    checks.dedup();
    let exact = checks.into_iter().all(|t| {
        let got = part_of(part, &at(&|ch: &Channel| ch.sample(t)));
        let want = a * xyz(curve.sample(t)) + b;
        got.distance(want) <= within.max(1e-12 * got.length())
    });
    if !exact {
        return None;
    }
    // glTF's tangents are per second, MDX's per segment.
    let value = |k: usize| a * xyz(curve.value(k)) + b;
    let flat = |ms: f64, value: DVec3| Hermite {
        ms,
        value,
        in_tan: DVec3::ZERO,
        out_tan: DVec3::ZERO,
    };
    let (first, last) = (*ms.first()?, *ms.last()?);
    let mut keys = Vec::with_capacity(ms.len() + 2);
    if first > 0.0 {
        keys.push(flat(0.0, value(0)));
    }
    for (k, &m) in ms.iter().enumerate() {
        let (in_tan, out_tan) = curve.tangents(k);
        let before = k.checked_sub(1).and_then(|j| ms.get(j));
        let after = ms.get(k + 1);
        keys.push(Hermite {
            ms: m,
            value: value(k),
            in_tan: before.map_or(DVec3::ZERO, |b| a * xyz(in_tan) * ((m - b) / 1000.0)),
            out_tan: after.map_or(DVec3::ZERO, |n| a * xyz(out_tan) * ((n - m) / 1000.0)),
        });
    }
    if last < length {
        keys.push(flat(length, value(ms.len() - 1)));
    }
    // A sequence whose keys all hold one value plays it throughout,
    // whatever the tangents say (`anim::sample`'s rule 2).
    let one = keys.first().map(|k| k.value.as_vec3());
    let held = keys.iter().all(|k| Some(k.value.as_vec3()) == one);
    let bends = (keys.iter())
        .any(|k| k.in_tan.as_vec3() != Vec3::ZERO || k.out_tan.as_vec3() != Vec3::ZERO);
    (!(held && bends)).then_some(keys)
}

/// Linear keys as hermite keys that play them exactly: each tangent the
/// chord of its segment.
fn chords(list: &[(f64, DVec3)]) -> Vec<Hermite> {
    (list.iter().enumerate())
        .map(|(k, &(ms, value))| {
            let before = k.checked_sub(1).and_then(|j| list.get(j));
            Hermite {
                ms,
                value,
                in_tan: before.map_or(DVec3::ZERO, |b| value - b.1),
                out_tan: list.get(k + 1).map_or(DVec3::ZERO, |n| n.1 - value),
            }
        })
        .collect()
}

/// Samples every MDX node's local transform in every animation, keeping
/// translations and scalings that are exact hermite curves as such
/// (after [`sample_budget`]).
pub(super) fn node_tracks(
    scene: &Scene,
    skeleton: &Skeleton,
    clips: &[Clip],
    slots: &[Slot],
    c: DMat4,
    tolerance: Tolerance,
) -> NodeAnimation {
    // An animation's 1/30 s grid, counted: fitting may add FIT_FACTOR keys
    // for each key and each grid time of a track.
    let grid = |length: u32| {
        let length = f64::from(length);
        let step = (1000.0 / GRID_RATE).max(length / MAX_GRID_KEYS);
        (length / step).floor() as usize + 2
    };
    let c_inverse = c.inverse();
    let pivots = skeleton.pivots(c);
    let mut out = NodeAnimation {
        tracks: Vec::with_capacity(skeleton.nodes.len()),
        sheared: Vec::new(),
        keys: 0,
        kept: 0,
        fitting_cut: false,
        hermite: Vec::new(),
    };
    let mut fitting_left = MAX_FITTED;
    // Thinning keeps every track within the smallest of the tolerances
    // (model units, radians or a factor), as the keyframe optimizer did:
    // the fitted tracks' error, not doubled.
    let thinning = tolerance
        .translation
        .min(tolerance.rotation)
        .min(tolerance.scaling);
    let vector_off = |a: DVec3, b: DVec3| a.distance(b) / thinning;
    let rotation_off = |a: DQuat, b: DQuat| angle(a, b) / thinning;
    // Exact: within 1e-9 of the size (a factor, for scalings).
    let exactly = [1e-5 * tolerance.translation, 1e-5 * tolerance.scaling];
    for ((i, node), &pivot) in skeleton.nodes.iter().enumerate().zip(&pivots) {
        let path = path(scene, skeleton, node);
        let above = (node.parent)
            .and_then(|p| skeleton.node(p))
            .map_or(DMat4::IDENTITY, |p| p.bind);
        // The node's local transform (and how far it is sheared) with each
        // channel at the value given.
        let transform = |clip: &Clip, value: &Values<'_>| -> (Local, f64) {
            // G_p⁻¹ · G_i: the locals on the path, the top first.
            let relative = (path.iter().rev()).fold(DMat4::IDENTITY, |m, &n| {
                m * clip.local_where(scene, n, value)
            });
            Local::of(c * above * relative * node.bind_inverse * c_inverse, pivot)
        };
        // The largest shear of any sample.
        let shear = Cell::new(0.0f64);
        let local_at = |clip: &Clip, seconds: f64| -> Local {
            let (local, sheared) = transform(clip, &|ch: &Channel| ch.sample(seconds));
            shear.set(shear.get().max(sheared));
            local
        };
        // The animations that play the node, and where: the global
        // sequence that moves it, else every sequence.
        let global =
            (clips.iter().zip(slots).enumerate()).find_map(|(k, (clip, slot))| match slot {
                Slot::Global { id, length } if moves(scene, clip, &path) => Some((k, *id, *length)),
                _ => None,
            });
        let mut plan: Vec<(usize, u32, u32)> = match global {
            Some((k, _, length)) => vec![(k, 0, length)],
            None => (slots.iter().enumerate())
                .filter_map(|(k, slot)| match slot {
                    Slot::Sequence([start, end]) => Some((k, *start, end - start)),
                    Slot::Global { .. } => None,
                })
                .collect(),
        };
        // Keys in time order: the sequences by where they start (an
        // export's recorded intervals need not follow the document's
        // order of animations).
        plan.sort_by_key(|&(_, start, _)| start);
        let mut motions: Vec<Motion> = Vec::with_capacity(plan.len());
        // Without interpolation only when every channel moving the node,
        // in every animation that plays it, is STEP (an MDX track has one
        // interpolation for all its sequences).
        let stepped = (plan.iter())
            .filter_map(|&(k, ..)| clips.get(k))
            .flat_map(|clip| path.iter().flat_map(|&n| clip.channels_on(n)))
            .all(|ch| ch.interpolation == Interp::Step);
        let mut moved = false;
        for &(k, start, length) in &plan {
            let Some(clip) = clips.get(k) else {
                continue;
            };
            let cap_grid = grid(length);
            let length = f64::from(length);
            let channels: Vec<&Channel> = path.iter().flat_map(|&n| clip.channels_on(n)).collect();
            let key_ms = || {
                channels
                    .iter()
                    .flat_map(|ch| ch.times.iter())
                    .map(|&t| (f64::from(t) * 1000.0).round())
                    .filter(move |&t| t >= 0.0 && t <= length)
            };
            let at = |ms: f64| local_at(clip, ms / 1000.0);
            if channels.is_empty() {
                let rest = at(0.0);
                moved |= rest != Local::REST;
                motions.push(Motion {
                    start,
                    sampled: vec![(0.0, rest), (length, rest)],
                    exact: [None, None],
                });
                continue;
            }
            moved = true;
            let [t_within, s_within] = exactly;
            let exact = [
                (HermitePart::Translation, t_within),
                (HermitePart::Scaling, s_within),
            ]
            .map(|(part, within)| {
                let at = |value: &Values<'_>| transform(clip, value).0;
                exact_hermite(&channels, part, length, within, &at)
            });
            let [t_exact, s_exact] = exact.each_ref().map(Option::is_some);
            // The keys of the channels that move the node; fitting adds keys
            // where interpolating between them strays from the curve, up to
            // FIT_FACTOR times the keys and the 1/30 s grid together (a
            // part kept exact does not count).
            let mut times: Vec<f64> = key_ms().chain([0.0, length]).collect();
            // A STEP channel on a node whose track interpolates holds each
            // value until its next key: a key 1 ms before each of its keys
            // keeps the linear track flat up to the jump (as the export
            // writes a track without interpolation into a LINEAR channel).
            if !stepped {
                let held = (channels.iter())
                    .filter(|ch| ch.interpolation == Interp::Step)
                    .flat_map(|ch| ch.times.iter())
                    .map(|&t| (f64::from(t) * 1000.0).round() - 1.0)
                    .filter(|&t| t > 0.0 && t <= length);
                times.extend(held);
            }
            times.sort_by(f64::total_cmp);
            times.dedup();
            let cap = (times.len() + cap_grid).saturating_mul(FIT_FACTOR);
            let mut fitted = if stepped {
                times.iter().map(|&t| (t, at(t))).collect()
            } else {
                fit_keys(
                    &times,
                    at,
                    Local::lerp,
                    |a: Local, b: Local| {
                        let t = a.translation.distance(b.translation) / tolerance.translation;
                        let r = angle(a.rotation, b.rotation) / tolerance.rotation;
                        let s = a.scaling.distance(b.scaling) / tolerance.scaling;
                        let t = if t_exact { 0.0 } else { t };
                        let s = if s_exact { 0.0 } else { s };
                        t.max(r).max(s)
                    },
                    1.0,
                    cap,
                    || {
                        out.fitting_cut |= fitting_left == 0;
                        fitting_left = fitting_left.saturating_sub(1);
                        !out.fitting_cut
                    },
                )
            };
            keep_rotations_on_one_side(&mut fitted);
            motions.push(Motion {
                start,
                sampled: fitted,
                exact,
            });
        }
        let shear = shear.get();
        if shear > 1e-3 {
            out.sheared.push((i, shear));
        }
        if !moved {
            out.tracks.push(Vec::new());
            continue;
        }
        let interpolation = if stepped {
            Interpolation::None
        } else {
            Interpolation::Linear
        };
        let global_sequence_id = global.map_or(-1, |(_, id, _)| id as i32);
        // Translation and scaling: hermite where any animation's curve is
        // kept exact (the others' keys linear segments, as hermite), else
        // each animation's samples thinned (keys a stepped track holds stay).
        let mut vector_track = |part: HermitePart, p: usize| {
            let exact: Vec<usize> = (motions.iter().zip(&plan))
                .filter(|(m, _)| m.exact_keys(p).is_some())
                .map(|(_, &(k, ..))| k)
                .collect();
            out.keys += (motions.iter())
                .map(|m| m.exact_keys(p).map_or(m.sampled.len(), <[_]>::len))
                .sum::<usize>();
            let lerp = |a: DVec3, b: DVec3, f: f64| a.lerp(b, f);
            // An animation's samples of the part, thinned.
            let thinned = |m: &Motion| {
                let list: Vec<(f64, DVec3)> = (m.sampled.iter())
                    .map(|(t, l)| (*t, part_of(part, l)))
                    .collect();
                match stepped {
                    true => list,
                    false => thin(&list, lerp, vector_off),
                }
            };
            let v3 = |v: DVec3| v.as_vec3().to_array();
            let track = if exact.is_empty() {
                let lists: Vec<(u32, Vec<(f64, DVec3)>)> =
                    motions.iter().map(|m| (m.start, thinned(m))).collect();
                Track::new(interpolation, mdx_keys(&lists, |v| v3(*v)))
            } else {
                out.hermite.push((i, part, exact));
                let keyed: Vec<(u32, Vec<(f64, Hermite)>)> = (motions.iter())
                    .map(|m| {
                        let keys = (m.exact_keys(p).map(<[_]>::to_vec))
                            .unwrap_or_else(|| chords(&thinned(m)));
                        (m.start, keys.into_iter().map(|k| (k.ms, k)).collect())
                    })
                    .collect();
                let mut track =
                    Track::new(Interpolation::Hermite, mdx_keys(&keyed, |k| v3(k.value)));
                track.tangents = (keyed.iter().flat_map(|(_, l)| l))
                    .map(|(_, k)| Tangents {
                        in_tan: v3(k.in_tan),
                        out_tan: v3(k.out_tan),
                    })
                    .collect();
                track
            };
            Track {
                global_sequence_id,
                ..track
            }
        };
        let translation = vector_track(HermitePart::Translation, 0);
        let scaling = vector_track(HermitePart::Scaling, 1);
        let rotations: Vec<(u32, Vec<(f64, DQuat)>)> = (motions.iter())
            .map(|m| {
                let list: Vec<(f64, DQuat)> =
                    m.sampled.iter().map(|(t, l)| (*t, l.rotation)).collect();
                out.keys += list.len();
                let list = if stepped {
                    list
                } else {
                    thin(&list, slerp, rotation_off)
                };
                (m.start, list)
            })
            .collect();
        let rotation = Track {
            global_sequence_id,
            ..Track::new(
                interpolation,
                mdx_keys(&rotations, |q| q.as_quat().to_array()),
            )
        };
        out.kept += translation.keys.len() + rotation.keys.len() + scaling.keys.len();
        out.tracks.push(vec![
            NodeTrack::Translation(translation),
            NodeTrack::Rotation(rotation),
            NodeTrack::Scaling(scaling),
        ]);
    }
    out
}

/// The angle between two rotations, in radians.
fn angle(a: DQuat, b: DQuat) -> f64 {
    2.0 * a.dot(b).abs().min(1.0).acos()
}

/// Slerp the shorter way.
fn slerp(a: DQuat, b: DQuat, f: f64) -> DQuat {
    let b = if a.dot(b) < 0.0 { -b } else { b };
    a.slerp(b, f)
}

/// `keys` (in time order) without those that interpolation (`lerp`)
/// between the keys kept either side plays within the tolerance (`off` at
/// most 1) at the time of each key left out and halfway between each two
/// keys; the first and the last stay. Greedy from the first key: each key
/// kept is the furthest one, at most [`MAX_JOINED`] keys on, found by
/// doubling the distance then halving it, so that a track costs a few
/// dozen interpolations a key at most (where the keyframe optimizer,
/// which checks every frame, would cost the square of a smooth track's
/// length).
fn thin<T: Copy>(
    keys: &[(f64, T)],
    lerp: impl Fn(T, T, f64) -> T,
    off: impl Fn(T, T) -> f64,
) -> Vec<(f64, T)> {
    let last = keys.len().saturating_sub(1);
    // Whether the segment from key `a` to key `b` plays the keys between.
    let fits = |a: usize, b: usize| -> bool {
        let (Some(&(ta, va)), Some(&(tb, vb))) = (keys.get(a), keys.get(b)) else {
            return false;
        };
        let span = tb - ta;
        if span.is_nan() || span <= 0.0 {
            return false;
        }
        let joined = |t: f64| lerp(va, vb, (t - ta) / span);
        (keys.get(a..=b).unwrap_or_default().windows(2)).all(|pair| match pair {
            [(t0, v0), (t1, v1)] => {
                off(joined(*t1), *v1) <= 1.0
                    && off(joined((t0 + t1) / 2.0), lerp(*v0, *v1, 0.5)) <= 1.0
            }
            _ => true,
        })
    };
    let mut out: Vec<(f64, T)> = keys.first().copied().into_iter().collect();
    let mut a = 0;
    while a < last {
        let reach = last.min(a + MAX_JOINED);
        let (mut good, mut bad) = (a + 1, reach + 1);
        let mut probe = a + 2;
        while probe <= reach {
            if !fits(a, probe) {
                bad = probe;
                break;
            }
            good = probe;
            probe = if probe == reach {
                reach + 1
            } else {
                reach.min(a + 2 * (probe - a))
            };
        }
        while bad - good > 1 {
            let middle = good + (bad - good) / 2;
            if fits(a, middle) {
                good = middle;
            } else {
                bad = middle;
            }
        }
        out.extend(keys.get(good).copied());
        a = good;
    }
    out
}

/// A track's keys: each animation's keys at its start (ms on the track's
/// clock), as `value` takes them.
fn mdx_keys<V, T>(keys: &[(u32, Vec<(f64, V)>)], value: impl Fn(&V) -> T) -> Vec<Key<T>> {
    (keys.iter())
        .flat_map(|(start, list)| {
            (list.iter()).map(move |(ms, l)| ((f64::from(*start) + ms) as i32, l))
        })
        .map(|(frame, l)| Key::new(frame, value(l)))
        .collect()
}

/// Each rotation on the same side as the one before (`q` and `-q` are one
/// rotation; interpolation between keys takes the shorter way either way,
/// but a reader comparing values, the keyframe optimizer's say, should
/// find equal rotations equal).
fn keep_rotations_on_one_side(keys: &mut [(f64, Local)]) {
    let mut before: Option<DQuat> = None;
    for (_, local) in keys.iter_mut() {
        if before.is_some_and(|b| b.dot(local.rotation) < 0.0) {
            local.rotation = -local.rotation;
        }
        before = Some(local.rotation);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_transform_about_a_pivot_comes_apart_into_its_parts() {
        let pivot = DVec3::new(1.0, 2.0, 3.0);
        let (t, r, s) = (
            DVec3::new(0.5, -1.0, 2.0),
            DQuat::from_rotation_z(0.7) * DQuat::from_rotation_x(-0.3),
            DVec3::new(1.5, 0.5, 2.0),
        );
        let l = DMat4::from_translation(pivot + t)
            * DMat4::from_quat(r)
            * DMat4::from_scale(s)
            * DMat4::from_translation(-pivot);
        let (local, shear) = Local::of(l, pivot);
        assert!(local.translation.abs_diff_eq(t, 1e-9), "{local:?}");
        assert!(local.rotation.abs_diff_eq(r, 1e-9) || local.rotation.abs_diff_eq(-r, 1e-9));
        assert!(local.scaling.abs_diff_eq(s, 1e-9));
        assert!(shear < 1e-9);
        let sheared = DMat4::from_cols_array(&[
            1.0, 0.0, 0.0, 0.0, 0.5, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        ]);
        assert!(Local::of(sheared, DVec3::ZERO).1 > 0.1);
    }

    #[test]
    fn thinning_keeps_the_ends_and_the_corners_at_most_64_keys_apart() {
        let lerp = |a: f64, b: f64, f: f64| a + (b - a) * f;
        let off = |a: f64, b: f64| (a - b).abs() / 1e-9;
        // Up for 100 keys, then down for 100.
        let keys: Vec<(f64, f64)> = (0..=200)
            .map(|k| (f64::from(k), f64::from(if k <= 100 { k } else { 200 - k })))
            .collect();
        let kept: Vec<f64> = thin(&keys, lerp, off).iter().map(|k| k.0).collect();
        assert_eq!(kept, [0.0, 64.0, 100.0, 164.0, 200.0]);
        // A key that strays stays, with its neighbours.
        let mut bump = keys.clone();
        bump[30].1 += 1.0;
        let kept: Vec<f64> = thin(&bump, lerp, off).iter().map(|k| k.0).collect();
        assert_eq!(kept, [0.0, 29.0, 30.0, 31.0, 95.0, 100.0, 164.0, 200.0]);
        assert!(thin(&keys[..1], lerp, off).len() == 1 && thin(&[], lerp, off).is_empty());
    }

    /// A `CUBICSPLINE` translation channel of node 0: (time, in-tangent,
    /// value, out-tangent) a key.
    fn cubic(times: &[f32], keys: &[[f64; 3]]) -> Channel {
        Channel {
            node: 0,
            target: Target::Translation,
            interpolation: Interp::Cubic,
            times: times.to_vec(),
            values: keys.iter().map(|&[x, y, z]| [x, y, z, 0.0]).collect(),
        }
    }

    #[test]
    fn cubic_curves_are_kept_exact_only_where_they_are() {
        let keys = [
            [0.0, 0.0, 0.0],
            [1.0, 2.0, 3.0],
            [4.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0],
        ];
        let curve = cubic(&[0.1, 0.3], &keys);
        // The node's translation: A · x + b.
        let a = DMat3::from_cols_array(&[2.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, -1.0, 0.0]);
        let b = DVec3::new(5.0, 6.0, 7.0);
        let affine = |value: &Values<'_>| Local {
            translation: a * xyz(value(&curve)) + b,
            ..Local::REST
        };
        let run = |channels: &[&Channel], at: &LocalWith<'_>| {
            exact_hermite(channels, HermitePart::Translation, 500.0, 1e-9, at)
        };
        let keys = run(&[&curve], &affine).expect("exact");
        let frames: Vec<f64> = keys.iter().map(|k| k.ms).collect();
        // The curve's keys, and the sequence's ends held at its ends.
        assert_eq!(frames, [0.0, 100.0, 300.0, 500.0]);
        let close = |p: DVec3, q: DVec3| p.distance(q) < 1e-12;
        let value = a * DVec3::new(1.0, 2.0, 3.0) + b;
        assert!(close(keys[0].value, value) && keys[0].out_tan == DVec3::ZERO);
        assert!(close(keys[1].value, value) && keys[1].in_tan == DVec3::ZERO);
        // Per second to per segment: 0.2 s.
        assert!(close(keys[1].out_tan, a * DVec3::new(0.8, 0.0, 0.0)));
        assert!(close(keys[2].in_tan, a * DVec3::new(0.0, 0.2, 0.0)));
        assert!(close(keys[3].value, b) && keys[3].in_tan == DVec3::ZERO);
        // Scaling: no scale channel moves.
        assert!(exact_hermite(&[&curve], HermitePart::Scaling, 500.0, 1e-9, &affine).is_none());

        // Keys between whole milliseconds; a part not affine in the curve;
        // two channels moving it; a key past the animation: sampled.
        let thirtieth = cubic(
            &[0.1, 1.0 / 30.0 + 0.1],
            &[[0.0; 3], [1.0; 3], [1.0; 3], [0.0; 3], [2.0; 3], [0.0; 3]],
        );
        // The node's translation: the channel's value.
        fn on(c: &Channel) -> impl Fn(&Values<'_>) -> Local + '_ {
            move |value| Local {
                translation: xyz(value(c)),
                ..Local::REST
            }
        }
        assert!(run(&[&thirtieth], &on(&thirtieth)).is_none());
        let squared = |value: &Values<'_>| Local {
            translation: xyz(value(&curve)) * xyz(value(&curve)),
            ..Local::REST
        };
        assert!(run(&[&curve], &squared).is_none());
        let other = cubic(
            &[0.0, 0.2],
            &[[0.0; 3], [0.0; 3], [1.0; 3], [0.0; 3], [3.0; 3], [0.0; 3]],
        );
        assert!(run(&[&curve, &other], &affine).is_none());
        assert!(exact_hermite(&[&curve], HermitePart::Translation, 200.0, 1e-9, &affine).is_none());
        // One value at every key, tangents that bend between them: the
        // game would hold the value.
        let bump = cubic(
            &[0.0, 0.5],
            &[[0.0; 3], [1.0; 3], [1.0; 3], [1.0; 3], [1.0; 3], [0.0; 3]],
        );
        assert!(run(&[&bump], &on(&bump)).is_none());
    }

    #[test]
    fn sequences_follow_each_other_with_a_gap() {
        let clip = |duration| Clip {
            name: String::new(),
            channels: Vec::new(),
            duration,
            morph_channels: 0,
            by_node: Default::default(),
            mdx_interval: None,
            mdx_looping: None,
        };
        assert_eq!(
            intervals(&[&clip(1.0), &clip(0.0), &clip(2.5)]),
            [[0, 1000], [2000, 2001], [3001, 5501]]
        );
    }
}
