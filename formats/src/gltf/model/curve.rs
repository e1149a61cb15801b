//! The curve toolkit the animations are made with: a glTF sampler's keys
//! ([`Curve`]) cut from one sequence of the timeline ([`Span`]): times in
//! seconds from the sequence's start, the 1/30 s resampling grid and the
//! times next to keys, `LINEAR` curves of sampled values, fitted
//! resampling, and rotations every player plays alike
//! ([`linear_rotations`]). It knows nothing of what the curves move
//! (nodes, cameras, materials, lights); what is exported how is in the
//! [`gltf`](crate::gltf#animations) docs.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use gltf_json::animation::Interpolation as GltfInterpolation;

use crate::anim::glam::{DQuat, Quat};
use crate::anim::{Moment, Sampler, SequenceInfo, Timeline};
use crate::mdx::Track;

/// Resampled tracks: keys per second.
pub(super) const RESAMPLE_RATE: f64 = 30.0;

/// The most keys a resampled channel gets (5 minutes at 30 a second): a
/// longer sequence is resampled less often, so that a bad interval cannot
/// make an export allocate without bound.
pub(super) const MAX_RESAMPLED_KEYS: u32 = 9_000;

/// How many times the 1/30 s grid's keys a resampled track may get where
/// its curve bends between them ([`Span::resample_fitted`]).
pub(super) const REFINED_KEYS_FACTOR: u64 = 8;

/// The most keys fitting may add to one export's channels together (each
/// takes about 7 samples of its track), so that thousands of long
/// sequences of tracks that never settle, which a fuzzer makes, are not
/// resampled for minutes.
pub(super) const MAX_FITTED_KEYS: u64 = 1 << 22;

/// How far (in the model's units, or as a scale factor) a `LINEAR` player
/// may stray between the keys of a resampled translation or scaling.
pub(super) const RESAMPLE_TOLERANCE: f64 = 1e-3;

/// How far (radians) a `LINEAR` player's slerp may turn from the game's
/// rotation between the keys of a resampled rotation.
pub(super) const RESAMPLE_TURN_TOLERANCE: f64 = 5e-4;

/// How a `LINEAR` glTF player goes from one key to the next, and how far
/// two values are apart, for [`Span::resample_fitted`].
pub(super) struct Fit<T> {
    pub(super) lerp: fn(T, T, f64) -> T,
    pub(super) distance: fn(T, T) -> f64,
    tolerance: f64,
}

/// A segment between two resampled keys, by how far a `LINEAR` player
/// strays from the curve on it (the furthest first).
struct Stray<T> {
    strays: f64,
    left: (f64, T),
    right: (f64, T),
}

impl<T> PartialEq for Stray<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl<T> Eq for Stray<T> {}

impl<T> PartialOrd for Stray<T> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Stray<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.strays
            .total_cmp(&other.strays)
            .then(other.left.0.total_cmp(&self.left.0))
    }
}

/// Translations and scalings: componentwise lerp, Euclidean distance.
pub(super) const VECTOR_FIT: Fit<[f32; 3]> = Fit {
    lerp: |[ax, ay, az], [bx, by, bz], f| {
        let f = f as f32;
        [ax + (bx - ax) * f, ay + (by - ay) * f, az + (bz - az) * f]
    },
    distance: |[ax, ay, az], [bx, by, bz]| {
        let d = |a: f32, b: f32| f64::from(a) - f64::from(b);
        (d(ax, bx).powi(2) + d(ay, by).powi(2) + d(az, bz).powi(2)).sqrt()
    },
    tolerance: RESAMPLE_TOLERANCE,
};

/// Unit quaternions: slerp the shorter way (as glTF's `LINEAR` rotations
/// play), the angle between two rotations.
pub(super) const ROTATION_FIT: Fit<[f32; 4]> = Fit {
    lerp: |a, b, f| {
        let (a, mut b) = (
            DQuat::from_array(a.map(f64::from)),
            DQuat::from_array(b.map(f64::from)),
        );
        if a.dot(b) < 0.0 {
            b = -b;
        }
        a.slerp(b, f).normalize().to_array().map(|c| c as f32)
    },
    distance: |a, b| {
        let dot = DQuat::from_array(a.map(f64::from)).dot(DQuat::from_array(b.map(f64::from)));
        2.0 * dot.abs().min(1.0).acos()
    },
    tolerance: RESAMPLE_TURN_TOLERANCE,
};

/// Keys of `at(ms)` that a player blending neighbours with `lerp` plays
/// within `tolerance` (by `distance`) of it between keys too: `times` (in
/// order), then, the segment that strays furthest first, a key at the
/// whole millisecond halfway through each segment between two keys whose
/// blend strays further than the tolerance from `at` a quarter, half or
/// three quarters of the way; until no segment does, keys are a
/// millisecond apart, there are `cap` keys, or `one_more` refuses. Keys in
/// time order. The export's resampled channels
/// ([`Span::resample_fitted`]) and the import's node tracks are fitted so.
pub(in crate::gltf) fn fit_keys<T: Copy>(
    times: &[f64],
    at: impl Fn(f64) -> T,
    lerp: impl Fn(T, T, f64) -> T,
    distance: impl Fn(T, T) -> f64,
    tolerance: f64,
    cap: usize,
    mut one_more: impl FnMut() -> bool,
) -> Vec<(f64, T)> {
    let mut keys: Vec<(f64, T)> = times.iter().map(|&t| (t, at(t))).collect();
    // How far the segment between two keys strays, where it may be cut.
    let segment = |(t0, v0): (f64, T), (t1, v1): (f64, T)| {
        let middle = ((t0 + t1) / 2.0).round();
        let strays = [0.25, 0.5, 0.75]
            .into_iter()
            .map(|f| distance(at(t0 + (t1 - t0) * f), lerp(v0, v1, f)))
            .fold(0.0, f64::max);
        (middle > t0 && middle < t1 && strays > tolerance).then_some(Stray {
            strays,
            left: (t0, v0),
            right: (t1, v1),
        })
    };
    let mut worst: std::collections::BinaryHeap<Stray<T>> = keys
        .windows(2)
        .filter_map(|w| match w {
            [a, b] => segment(*a, *b),
            _ => None,
        })
        .collect();
    while keys.len() < cap
        && !worst.is_empty()
        && one_more()
        && let Some(Stray { left, right, .. }) = worst.pop()
    {
        let middle = ((left.0 + right.0) / 2.0).round();
        let key = (middle, at(middle));
        keys.push(key);
        worst.extend(segment(left, key));
        worst.extend(segment(key, right));
    }
    keys.sort_by(|a, b| a.0.total_cmp(&b.0));
    keys
}

/// Keys of one glTF sampler.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Curve<T> {
    pub(super) interpolation: GltfInterpolation,
    /// Seconds from the sequence's start.
    pub(super) times: Vec<f32>,
    /// One value per time, or (cubic) in-tangent, value, out-tangent per time.
    pub(super) values: Vec<T>,
}

impl<T> Curve<T> {
    /// A `LINEAR` curve of `keys` (ms from the sequence's start, in order),
    /// leaving out a key whose time in seconds is, as an `f32`, the one
    /// before's: glTF wants times that increase, and milliseconds apart
    /// hours into a sequence, or a 1/30 s time and a key's whole
    /// millisecond a float apart (29 799.999… and 29 800), are one `f32`.
    pub(super) fn linear(keys: impl IntoIterator<Item = (f64, T)>) -> Curve<T> {
        let mut curve = Curve {
            interpolation: GltfInterpolation::Linear,
            times: Vec::new(),
            values: Vec::new(),
        };
        for (ms, value) in keys {
            let seconds = (ms / 1000.0) as f32;
            if curve.times.last().is_none_or(|&last| seconds > last) {
                curve.times.push(seconds);
                curve.values.push(value);
            }
        }
        curve
    }
}

/// One sequence, the part of the timeline a curve is cut from.
pub(super) struct Span<'a> {
    pub(super) timeline: &'a Timeline,
    pub(super) sequence: &'a SequenceInfo,
    /// Spline translations and scalings resampled
    /// ([`ExportOptions::resample_splines`](crate::gltf::ExportOptions::resample_splines)).
    pub(super) resample_splines: bool,
    /// Keys fitting has added so far, shared by the spans of one export
    /// ([`MAX_FITTED_KEYS`]).
    pub(super) fitted: Arc<AtomicU64>,
}

impl<'a> Span<'a> {
    /// `sequence` of `timeline`, its spline tracks as exact splines.
    pub(super) fn new(timeline: &'a Timeline, sequence: &'a SequenceInfo) -> Span<'a> {
        Span {
            timeline,
            sequence,
            resample_splines: false,
            fitted: Arc::default(),
        }
    }

    pub(super) fn start(&self) -> i64 {
        i64::from(self.sequence.interval[0])
    }

    pub(super) fn duration_ms(&self) -> f64 {
        f64::from(self.sequence.duration())
    }

    /// Seconds from the start of the sequence to `frame`.
    pub(super) fn seconds(&self, frame: i32) -> f32 {
        ((i64::from(frame) - self.start()) as f64 / 1000.0) as f32
    }

    /// The sampler `ms` into the sequence (no wrapping: the end is the end).
    pub(super) fn sampler(&self, ms: f64) -> Sampler<'_> {
        Sampler::new(
            self.timeline,
            Moment {
                interval: Some(self.sequence.interval),
                frame: self.start() as f64 + ms,
                counter: Some(ms),
            },
        )
    }

    /// Resampling times in milliseconds: every 1/30 s, and the end.
    pub(super) fn resample_times(&self) -> Vec<f64> {
        let duration = self.duration_ms();
        let step = (1000.0 / RESAMPLE_RATE).max(duration / f64::from(MAX_RESAMPLED_KEYS - 1));
        let mut times: Vec<f64> = (0..MAX_RESAMPLED_KEYS)
            .map(|k| f64::from(k) * step)
            .take_while(|t| *t < duration - 1e-6)
            .collect();
        times.push(duration);
        times
    }

    /// How many times [`resample_times`](Self::resample_times) gives, at
    /// most (without making them).
    pub(super) fn resample_len(&self) -> u64 {
        let duration = self.duration_ms();
        let step = (1000.0 / RESAMPLE_RATE).max(duration / f64::from(MAX_RESAMPLED_KEYS - 1));
        ((duration / step).ceil() as u64).min(u64::from(MAX_RESAMPLED_KEYS)) + 1
    }

    /// Times (ms) to sample something that follows tracks at: every 1/30 s
    /// (at whole milliseconds, the game's frames, so that a key's moment and
    /// a sample next to it are one time, not two a float apart), each of the
    /// tracks' key `moments` ([`key_moments`]) and the millisecond before
    /// it (a stepped track jumps between the two), and the millisecond
    /// before the end (where a track closes on the value it opened with: the
    /// closing key of [`SequenceKeys`](crate::anim::SequenceKeys)); in
    /// order, once each.
    pub(super) fn key_times(&self, moments: impl IntoIterator<Item = f64>) -> Vec<f64> {
        let duration = self.duration_ms();
        let mut times: Vec<f64> = self.resample_times().iter().map(|t| t.round()).collect();
        times.push((duration - 1.0).max(0.0));
        times.extend(
            moments
                .into_iter()
                .flat_map(|at| [at - 1.0, at])
                .filter(|t| (0.0..=duration).contains(t)),
        );
        times.sort_by(f64::total_cmp);
        times.dedup();
        times
    }

    /// A `LINEAR` curve of `values` at `times` (ms): two keys when they are
    /// all one value, else without the keys inside a run of equal values.
    pub(super) fn linear_curve<T: Copy + PartialEq>(
        &self,
        times: &[f64],
        values: Vec<T>,
    ) -> Curve<T> {
        if let Some(first) = values.first()
            && values.iter().all(|v| v == first)
        {
            return self.constant(*first);
        }
        let keep = |i: usize| {
            let v = values.get(i);
            i == 0 || i + 1 == values.len() || values.get(i - 1) != v || values.get(i + 1) != v
        };
        let kept = times
            .iter()
            .zip(&values)
            .enumerate()
            .filter(|&(i, _)| keep(i))
            .map(|(_, (&ms, &value))| (ms, value));
        Curve::linear(kept)
    }

    /// Resampled `LINEAR` keys of `value(ms)` that a `LINEAR` player plays
    /// within `fit`'s tolerance of it between keys too ([`fit_keys`]): from
    /// the 1/30 s grid and the track's key `moments` (ms into the sequence;
    /// where its curve bends), up to [`REFINED_KEYS_FACTOR`] times the
    /// grid's keys (where it strays most is refined first, so a curve too
    /// busy for that many keys is as close as they can make it).
    pub(super) fn resample_fitted<T: Copy>(
        &self,
        value: impl Fn(&Sampler<'_>) -> T,
        fit: &Fit<T>,
        moments: &[f64],
    ) -> Curve<T> {
        let duration = self.duration_ms();
        let mut times = self.resample_times();
        let cap = times.len().saturating_mul(REFINED_KEYS_FACTOR as usize);
        let inside = || {
            moments
                .iter()
                .copied()
                .filter(|t| *t > 0.0 && *t < duration)
        };
        // Within the channel's cap, as [`Span::fitting_len`] counts them
        // (a global sequence's keys over many of its loops may not be).
        if times.len().saturating_add(inside().count()) <= cap {
            times.extend(inside());
            times.sort_by(f64::total_cmp);
            times.dedup_by(|b, a| *b - *a < 1e-3);
        }
        let at = |ms: f64| value(&self.sampler(ms));
        // One key more, within the export's budget.
        let one_more = || self.fitted.fetch_add(1, Ordering::Relaxed) < MAX_FITTED_KEYS;
        let keys = fit_keys(
            &times,
            at,
            fit.lerp,
            fit.distance,
            fit.tolerance,
            cap,
            one_more,
        );
        Curve::linear(keys)
    }

    /// Resampled `LINEAR` keys of `value(ms)`.
    pub(super) fn resample<T>(&self, value: impl Fn(&Sampler<'_>) -> T) -> Curve<T> {
        let ms = self.resample_times();
        Curve {
            interpolation: GltfInterpolation::Linear,
            times: ms.iter().map(|t| (*t / 1000.0) as f32).collect(),
            values: ms.iter().map(|t| value(&self.sampler(*t))).collect(),
        }
    }

    /// `value` held over the whole sequence.
    pub(super) fn constant<T: Clone>(&self, value: T) -> Curve<T> {
        let end = (self.duration_ms() / 1000.0) as f32;
        let (times, values) = if end > 0.0 {
            (vec![0.0, end], vec![value.clone(), value])
        } else {
            (vec![0.0], vec![value])
        };
        Curve {
            interpolation: GltfInterpolation::Linear,
            times,
            values,
        }
    }

    /// How many keys [`constant`](Self::constant) makes.
    pub(super) fn constant_len(&self) -> u64 {
        match self.duration_ms() > 0.0 {
            true => 2,
            false => 1,
        }
    }

    /// How many samples [`resample_fitted`](Self::resample_fitted) starts
    /// from, at most, given `moments` key moments in the sequence: the
    /// 1/30 s grid, and the moments where the grid's
    /// [`REFINED_KEYS_FACTOR`] times leaves room for them.
    pub(super) fn fitting_len(&self, moments: u64) -> u64 {
        let grid = self.resample_len();
        let with_moments = grid.saturating_add(moments);
        match with_moments <= grid.saturating_mul(REFINED_KEYS_FACTOR) {
            true => with_moments,
            false => grid,
        }
    }

    /// How many times [`key_times`](Self::key_times) gives, at most, for
    /// `moments` key moments (as [`moments_len`](Self::moments_len)
    /// counts them).
    pub(super) fn key_times_len(&self, moments: u64) -> u64 {
        self.resample_len()
            .saturating_add(1)
            .saturating_add(moments.saturating_mul(2))
    }

    /// How many times [`key_moments`] gives for `track` in this sequence
    /// that fall in it (at most), without making them.
    pub(super) fn moments_len<T>(&self, track: &Track<T>) -> u64 {
        match self.timeline.global_duration(track.global_sequence_id) {
            Some(loop_ms) => self
                .loops(loop_ms, track.keys.len())
                .map_or(0, |(loops, _)| {
                    u64::from(loops).saturating_mul(track.keys.len() as u64 + 1)
                }),
            None => {
                // Those a millisecond outside too: the times next to a
                // moment ([`key_times`](Self::key_times), the visibility's)
                // may fall inside.
                let [start, end] = self.sequence.interval.map(i64::from);
                let inside = |frame: i32| (start - 1..=end + 1).contains(&i64::from(frame));
                track.keys.iter().filter(|k| inside(k.frame)).count() as u64
            }
        }
    }

    /// How many loops of a global sequence of `loop_ms` whose track has
    /// `keys` keys this sequence plays, and the loop's length, or `None`
    /// when its keys' moments would be more than [`MAX_RESAMPLED_KEYS`]
    /// (or the loop lasts 0 ms).
    pub(super) fn loops(&self, loop_ms: u32, keys: usize) -> Option<(u32, f64)> {
        let length = f64::from(loop_ms.max(1));
        let loops = (self.duration_ms() / length).floor() + 1.0;
        let too_many = loops * (keys as f64 + 1.0) > f64::from(MAX_RESAMPLED_KEYS);
        (loop_ms != 0 && !too_many).then_some((loops as u32, length))
    }
}

#[cfg(test)]
impl<'a> Span<'a> {
    /// The timeline's first sequence.
    pub(super) fn first(timeline: &'a Timeline) -> Span<'a> {
        Span::new(timeline, &timeline.sequences[0])
    }
}

/// The largest angle, in radians, between the rotations of two neighbouring
/// keys of an exported `LINEAR` rotation channel (their quaternions are
/// half that apart). Where two keys turn more, keys are added between them
/// at even times, each the slerp of the two there: glTF's slerp plays the
/// same rotations as before at every time, and players that interpolate
/// the components and normalise, as Blender's curves do, come close to it
/// (the [`gltf`](crate::gltf#animations) docs say how close).
pub(super) const MAX_KEY_TURN: f64 = 0.1;

/// The most keys one segment of a rotation channel is cut into
/// ([`MAX_KEY_TURN`]): a segment turns at most 180° (its quaternions on
/// one side), `ceil(π / MAX_KEY_TURN)`.
pub(super) const MAX_KEYS_PER_TURN: u64 = 32;

/// A `LINEAR` rotation curve as every player plays it alike: each key on
/// the side of the one before ([`keep_on_one_side`]: the sampler's slerp
/// takes the shorter way, as glTF's does), and segments that turn more
/// than [`MAX_KEY_TURN`] cut by slerped keys. Other curves are left as
/// they are.
pub(super) fn linear_rotations(mut curve: Curve<[f32; 4]>) -> Curve<[f32; 4]> {
    if curve.interpolation != GltfInterpolation::Linear {
        return curve;
    }
    keep_on_one_side(&mut curve.values);
    let quat = |q: [f32; 4]| DQuat::from_array(q.map(f64::from));
    let turn = |a: [f32; 4], b: [f32; 4]| 2.0 * quat(a).dot(quat(b)).clamp(-1.0, 1.0).acos();
    let too_far = |w: &[[f32; 4]]| matches!(w, [a, b] if turn(*a, *b) > MAX_KEY_TURN);
    if !curve.values.windows(2).any(too_far) {
        return curve;
    }
    let mut times = Vec::with_capacity(curve.times.len() * 2);
    let mut values = Vec::with_capacity(curve.values.len() * 2);
    let mut before: Option<(f32, [f32; 4])> = None;
    for (&t1, &b) in curve.times.iter().zip(&curve.values) {
        if let Some((t0, a)) = before {
            let parts = (turn(a, b) / MAX_KEY_TURN)
                .ceil()
                .clamp(1.0, MAX_KEYS_PER_TURN as f64);
            for k in 1..parts as u32 {
                let f = f64::from(k) / parts;
                let t = (f64::from(t0) + (f64::from(t1) - f64::from(t0)) * f) as f32;
                if times.last().is_none_or(|&last| t > last) && t < t1 {
                    times.push(t);
                    values.push(
                        quat(a)
                            .slerp(quat(b), f)
                            .normalize()
                            .to_array()
                            .map(|c| c as f32),
                    );
                }
            }
        }
        times.push(t1);
        values.push(b);
        before = Some((t1, b));
    }
    Curve {
        interpolation: curve.interpolation,
        times,
        values,
    }
}

/// Turns each quaternion to the side of the one before (q and -q are one
/// rotation), so that no player interpolates the long way round between
/// two keys.
pub(super) fn keep_on_one_side(rotations: &mut [[f32; 4]]) {
    let mut before = Quat::from_array([0.0; 4]);
    for q in rotations {
        if before.dot(Quat::from_array(*q)) < 0.0 {
            *q = q.map(|c| -c);
        }
        before = Quat::from_array(*q);
    }
}

/// The milliseconds into `span` at which a key of `track` plays: its own
/// frames, or for a global sequence every loop's (none when there would be
/// more than [`MAX_RESAMPLED_KEYS`]: the 1/30 s samples stand in for them).
pub(super) fn key_moments<T>(span: &Span<'_>, track: &Track<T>) -> Vec<f64> {
    let frames = track.keys.iter().map(|k| f64::from(k.frame));
    let Some(loop_ms) = span.timeline.global_duration(track.global_sequence_id) else {
        let start = span.start() as f64;
        return frames.map(|f| f - start).collect();
    };
    let Some((loops, length)) = span.loops(loop_ms, track.keys.len()) else {
        return Vec::new();
    };
    (0..loops)
        .map(|n| f64::from(n) * length)
        .flat_map(|at| std::iter::once(at).chain(frames.clone().map(move |f| at + f)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gltf::model::fixtures::timeline;

    #[test]
    fn a_sequence_of_49_days_gets_a_bounded_number_of_keys() {
        let mut timeline = timeline();
        timeline.sequences[0].interval = [0, u32::MAX];
        let span = Span::first(&timeline);
        let times = span.resample_times();
        assert_eq!(times.len(), MAX_RESAMPLED_KEYS as usize);
        assert_eq!(times.last(), Some(&f64::from(u32::MAX)));
    }
}
