//! glTF animations to sequences and node tracks, as the
//! [`import`](super::import()) docs' "Motion" says.

use std::cell::Cell;

use crate::anim::glam::{DMat3, DMat4, DQuat, DVec3};
use crate::gltf::model::curve::fit_keys;
use crate::mdx::{Interpolation, Key, NodeTrack, Track};

use super::error::ImportError;
use super::scene::{Clip, Interp, Scene};
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

/// Where each animation goes on the timeline: `[start, end]` in ms. The
/// intervals an export of this workspace recorded (`extras.mdx.interval`)
/// when every animation has one, of its length, and no two overlap (the
/// conversion to 800 lays out sequences out of order); else one after
/// another, [`SEQUENCE_GAP`] apart.
pub(super) fn intervals(clips: &[Clip]) -> Vec<[u32; 2]> {
    let length = |clip: &Clip| (clip.duration * 1000.0).round().clamp(0.0, 3_600_000.0) as u32;
    let recorded: Option<Vec<[u32; 2]>> = clips
        .iter()
        .map(|clip| {
            clip.mdx_interval
                .filter(|&[a, b]| b >= a && b - a == length(clip))
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
            let interval = [next, next.saturating_add(length(clip).max(1))];
            next = interval[1].saturating_add(SEQUENCE_GAP);
            interval
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
    /// sample), and kept after thinning.
    pub keys: usize,
    pub kept: usize,
    /// Whether fitting stopped at [`MAX_FITTED`].
    pub fitting_cut: bool,
}

/// The glTF nodes whose motion moves MDX node `i` relative to its MDX
/// parent: `i`'s glTF node and its ancestors below the parent's.
fn path(scene: &Scene, skeleton: &Skeleton, node: &MdxNode) -> Vec<usize> {
    let stop = node.parent.and_then(|p| skeleton.node(p)).map(|p| p.gltf);
    let below = scene.ancestors(node.gltf).take_while(|&n| Some(n) != stop);
    core::iter::once(node.gltf).chain(below).collect()
}

/// Samples every MDX node's local transform in every animation.
pub(super) fn node_tracks(
    scene: &Scene,
    skeleton: &Skeleton,
    clips: &[Clip],
    intervals: &[[u32; 2]],
    c: DMat4,
    tolerance: Tolerance,
) -> Result<NodeAnimation, ImportError> {
    // Each animation's 1/30 s grid, counted: fitting may add FIT_FACTOR
    // keys for each key and each grid time of a track.
    let grids: Vec<usize> = intervals
        .iter()
        .map(|&[start, end]| {
            let length = f64::from(end - start);
            let step = (1000.0 / GRID_RATE).max(length / MAX_GRID_KEYS);
            (length / step).floor() as usize + 2
        })
        .collect();
    // Every node's samples at the keys that move it, counted (before
    // duplicates go) before any is taken.
    let paths: Vec<Vec<usize>> = (skeleton.nodes.iter())
        .map(|node| path(scene, skeleton, node))
        .collect();
    let sampled = (paths.iter())
        .flat_map(|path| clips.iter().map(move |clip| (path, clip)))
        .map(|(path, clip)| {
            let keys = (path.iter())
                .flat_map(|&n| clip.channels_on(n))
                .map(|ch| {
                    ch.times.len() as u64
                        * if ch.interpolation == Interp::Step {
                            2
                        } else {
                            1
                        }
                })
                .sum::<u64>();
            if keys == 0 { 0 } else { keys + 2 }
        })
        .fold(0u64, u64::saturating_add);
    if sampled > MAX_SAMPLES {
        return Err(ImportError::TooLarge {
            what: "node samples (nodes times the animation keys that move them)",
            needed: sampled,
            limit: MAX_SAMPLES,
        });
    }
    let c_inverse = c.inverse();
    let pivots = skeleton.pivots(c);
    let mut out = NodeAnimation {
        tracks: Vec::with_capacity(skeleton.nodes.len()),
        sheared: Vec::new(),
        keys: 0,
        kept: 0,
        fitting_cut: false,
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
    for (((i, node), &pivot), path) in skeleton.nodes.iter().enumerate().zip(&pivots).zip(&paths) {
        let above = (node.parent)
            .and_then(|p| skeleton.node(p))
            .map_or(DMat4::IDENTITY, |p| p.bind);
        // The largest shear of any sample.
        let shear = Cell::new(0.0f64);
        let local_at = |clip: &Clip, seconds: f64| -> Local {
            // G_p⁻¹ · G_i: the locals on the path, the top first.
            let relative = (path.iter().rev())
                .fold(DMat4::IDENTITY, |m, &n| m * clip.local(scene, n, seconds));
            let l = c * above * relative * node.bind_inverse * c_inverse;
            let (local, sheared) = Local::of(l, pivot);
            shear.set(shear.get().max(sheared));
            local
        };
        let mut keys: Vec<Vec<(f64, Local)>> = Vec::with_capacity(clips.len());
        // Without interpolation only when every channel moving the node,
        // in every animation, is STEP (an MDX track has one interpolation
        // for all its sequences).
        let stepped = (clips.iter())
            .flat_map(|clip| path.iter().flat_map(|&n| clip.channels_on(n)))
            .all(|ch| ch.interpolation == Interp::Step);
        let mut moves = false;
        for ((clip, &[start, end]), grid) in clips.iter().zip(intervals).zip(&grids) {
            let length = f64::from(end - start);
            let channels: Vec<_> = path.iter().flat_map(|&n| clip.channels_on(n)).collect();
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
                moves |= rest != Local::REST;
                keys.push(vec![(0.0, rest), (length, rest)]);
                continue;
            }
            moves = true;
            // The keys of the channels that move the node; fitting adds keys
            // where interpolating between them strays from the curve, up to
            // FIT_FACTOR times the keys and the 1/30 s grid together.
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
            let cap = (times.len() + grid).saturating_mul(FIT_FACTOR);
            let value = at;
            let mut fitted = if stepped {
                times.iter().map(|&t| (t, value(t))).collect()
            } else {
                fit_keys(
                    &times,
                    value,
                    Local::lerp,
                    |a: Local, b: Local| {
                        let t = a.translation.distance(b.translation) / tolerance.translation;
                        let r = 2.0 * a.rotation.dot(b.rotation).abs().min(1.0).acos()
                            / tolerance.rotation;
                        let s = a.scaling.distance(b.scaling) / tolerance.scaling;
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
            keys.push(fitted);
        }
        let shear = shear.get();
        if shear > 1e-3 {
            out.sheared.push((i, shear));
        }
        if !moves {
            out.tracks.push(Vec::new());
            continue;
        }
        out.keys += 3 * keys.iter().map(Vec::len).sum::<usize>();
        let interpolation = if stepped {
            Interpolation::None
        } else {
            Interpolation::Linear
        };
        // Each track thinned on its own (keys a stepped track holds stay).
        let part = |value: fn(&Local) -> DVec3, off: &dyn Fn(DVec3, DVec3) -> f64| {
            let lerp = |a: DVec3, b: DVec3, f: f64| a.lerp(b, f);
            (keys.iter())
                .map(|list| {
                    let list: Vec<(f64, DVec3)> =
                        list.iter().map(|(t, l)| (*t, value(l))).collect();
                    if stepped {
                        list
                    } else {
                        thin(&list, lerp, off)
                    }
                })
                .collect::<Vec<_>>()
        };
        let translations = part(|l| l.translation, &vector_off);
        let scalings = part(|l| l.scaling, &vector_off);
        let rotations: Vec<Vec<(f64, DQuat)>> = (keys.iter())
            .map(|list| {
                let list: Vec<(f64, DQuat)> = list.iter().map(|(t, l)| (*t, l.rotation)).collect();
                if stepped {
                    list
                } else {
                    thin(&list, slerp, rotation_off)
                }
            })
            .collect();
        let v3 = |v: &DVec3| v.as_vec3().to_array();
        let translation = mdx_keys(&translations, intervals, v3);
        let rotation = mdx_keys(&rotations, intervals, |q| q.as_quat().to_array());
        let scaling = mdx_keys(&scalings, intervals, v3);
        out.kept += translation.len() + rotation.len() + scaling.len();
        out.tracks.push(vec![
            NodeTrack::Translation(Track::new(interpolation, translation)),
            NodeTrack::Rotation(Track::new(interpolation, rotation)),
            NodeTrack::Scaling(Track::new(interpolation, scaling)),
        ]);
    }
    Ok(out)
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

/// A track's keys: each animation's keys at its sequence's start, as
/// `value` takes them.
fn mdx_keys<V, T>(
    keys: &[Vec<(f64, V)>],
    intervals: &[[u32; 2]],
    value: impl Fn(&V) -> T,
) -> Vec<Key<T>> {
    (keys.iter().zip(intervals))
        .flat_map(|(list, &[start, _])| {
            (list.iter()).map(move |(ms, l)| ((f64::from(start) + ms) as i32, l))
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
            intervals(&[clip(1.0), clip(0.0), clip(2.5)]),
            [[0, 1000], [2000, 2001], [3001, 5501]]
        );
    }
}
