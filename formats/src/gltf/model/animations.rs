//! One glTF animation per sequence: the node tracks' keys in the sequence's
//! interval, times in seconds from the sequence's start.
//!
//! The keys are exactly those [`SequenceKeys`] plays (keys of other
//! sequences left out, the opening and closing keys added), so the exact
//! mappings below give what [`Sampler`] gives at every time:
//!
//! | track | glTF |
//! |---|---|
//! | none | `STEP`, exact |
//! | linear translation or scaling | `LINEAR`, exact |
//! | linear rotation | `LINEAR` (slerp), exact up to normalising the keys and turning each to the side of the one before (q and -q are one rotation; the game's slerp takes the shorter way, and so do players that interpolate components, such as Blender's curves); where two keys turn more than 0.1 rad, slerped keys in between, so that those players stay within 4e-6 rad of slerp ([`MAX_KEY_TURN`]) |
//! | hermite translation or scaling | `CUBICSPLINE`, exact: tangents divided by the segment's length in seconds |
//! | bezier translation or scaling | `CUBICSPLINE`, exact: tangents `3 (control - value)` over the segment's length |
//! | hermite or bezier translation or scaling, with [`ExportOptions::resample_splines`](super::ExportOptions) | resampled `LINEAR`, fitted (below; for Blender, whose importer drops `CUBICSPLINE` tangents) |
//! | hermite or bezier rotation | resampled `LINEAR`, fitted (below; the quaternion spline is not glTF's) |
//! | a track of a global sequence | resampled `LINEAR`, fitted (below), over the sequence, its counter starting with the sequence |
//! | the whole interval at one value | two keys (start and end), `LINEAR` |
//! | keys not strictly increasing | resampled `LINEAR`, fitted (below) |
//! | a camera's eye, target or roll | its node's translation and rotation resampled `LINEAR` at 30 keys a second ([`cameras`](super::cameras)) |
//!
//! A fitted resampling has a key every 1/30 s (sequences over 5 minutes:
//! at most 9 000) and at each of the track's own keys, then keys where the
//! curve bends between two of them: wherever a `LINEAR` player (lerp,
//! slerp) would stray from the game's curve by more than
//! [`RESAMPLE_TOLERANCE`] (translations, scalings) or
//! [`RESAMPLE_TURN_TOLERANCE`] (rotations, 5e-4 rad) a quarter, half or
//! three quarters of the way, a key at the whole millisecond halfway, the
//! worst segment first, up to [`REFINED_KEYS_FACTOR`] times the 1/30 s
//! keys (and at most [`MAX_FITTED_KEYS`] added in one export). With 30
//! keys a second only, the pack horse, hermite throughout, was up to 1.75
//! (0.74 % of its size) from the game's pose halfway
//! between two keys; fitted, every corpus model is within a thousandth of
//! its size at the times `tests/gltf_export.rs` tries between keys (four
//! in each of the first four sequences of every corpus model), and the
//! exports are smaller
//! (19.8 MB for the 57 corpus models, from 24.7 MB): where a segment turned
//! more than [`MAX_KEY_TURN`], slerped keys used to be added, and keys on
//! the curve now make them fewer.
//!
//! Translations add the node's rest offset (its pivot minus its parent's),
//! see [`nodes`](super::nodes). Every animation also holds the root's
//! constant rotation over the sequence, so it lasts as long as its sequence
//! even when no node moves.
//!
//! With [`ExportOptions::geoset_visibility`](super::ExportOptions), each
//! geoset whose geoset animation hides it somewhere gets
//! `KHR_node_visibility` on its node (its visibility at rest) and, in every
//! animation, a `STEP` channel through `KHR_animation_pointer`
//! (`/nodes/N/extensions/KHR_node_visibility/visible`, 1 or 0): shown where
//! its alpha is above 0, exact at every whole millisecond
//! ([`GeosetVisibility`]). Off by default, because such a channel has no
//! node, which some readers refuse (see the option).
//!
//! With [`ExportOptions::material_colors`](super::ExportOptions), geoset
//! colour and alpha and layer alpha play on each geoset's own material
//! ([`colors`](super::colors)), through `KHR_animation_pointer` too.
//!
//! With [`ExportOptions::texture_animations`](super::ExportOptions),
//! texture animations move their materials' `KHR_texture_transform`
//! ([`texture_transforms`](super::texture_transforms)), through
//! `KHR_animation_pointer` too.
//!
//! With [`ExportOptions::light_animations`](super::ExportOptions), lights'
//! colour, intensity and visibility play on their `KHR_lights_punctual`
//! lights ([`light_animations`](super::light_animations)).
//!
//! A node that does not take on all of its parent's motion (the "don't
//! inherit" flags; glTF nodes always take on all of it) under a parent that
//! moves has its transform resampled at 30 keys a second so that it stands
//! where the game puts it (exact at each sample, with the cases where it
//! cannot be in the `inherit` module's docs).
//!
//! Not exported: the visibility of other nodes (emitters, attachments) and
//! billboarding.
//!
//! ## What an export may hold
//!
//! An export's animations hold at most [`MAX_ANIMATION_VALUES`] values: a
//! key's value (a `CUBICSPLINE` key's three), a sample's, or a pose of one
//! node, each channel counting [`CHANNEL_VALUES`] more for its JSON. They
//! are counted twice:
//!
//! - before anything is made, what each channel of each sequence will
//!   certainly take: a track kept as keys, the keys it plays in that
//!   sequence (the opening and closing keys included), two for a constant;
//!   a resampled track (the table above), the 1/30 s grid and its key
//!   moments, which fitting starts from; a baked node's three channels at
//!   the grid, and at each grid time a pose of every node; a moving
//!   camera's two channels at the grid; a pointed channel (geoset
//!   visibility, colours, texture transforms, lights), the times it is
//!   sampled at. Animations that would need more are refused at once, with
//!   the count, saying to export one sequence (`--sequence`) or none
//!   (`--no-animations`);
//! - as each channel is added, the values its curve really holds (with the
//!   keys fitting added, at most [`MAX_FITTED_KEYS`] in all, and the
//!   slerped keys that cut far-turning rotations, up to
//!   [`MAX_KEYS_PER_TURN`] a segment, which the first count cannot know):
//!   past the limit, the export stops with the same advice.
//!
//! The 1/30 s grid of a sequence of 49 days is [`MAX_RESAMPLED_KEYS`]
//! long, so a small file declaring hundreds of such sequences over spline
//! tracks is refused by the first count, in milliseconds, rather than
//! resampled for hours.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use format_core::Error;
use gltf_json as json;
use json::Index;
use json::animation::{Interpolation as GltfInterpolation, Property};
use json::validation::Checked;

use super::cameras::ModelCamera;
use super::colors::MaterialColors;
use super::inherit;
use super::light_animations::LightAnimations;
use super::nodes::{ModelNodes, Z_UP_TO_Y_UP, rest_translation};
use super::texture_transforms::TextureTransforms;
use crate::anim::glam::{DQuat, Quat};
use crate::anim::skeleton::normalized;
use crate::anim::{
    Moment, Sampler, SequenceInfo, SequenceKeys, Skeleton, Timeline, geoset_alpha_track,
    geoset_state,
};
use crate::gltf::Builder;
use crate::gltf::builder::Element;
use crate::mdx::{Interpolation, KeyFrame, Model, Track};

/// Resampled tracks: keys per second.
pub const RESAMPLE_RATE: f64 = 30.0;

/// The most keys a resampled channel gets (5 minutes at 30 a second): a
/// longer sequence is resampled less often, so a bad interval (up to 49
/// days) cannot make an export allocate without bound.
pub const MAX_RESAMPLED_KEYS: u32 = 9_000;

/// How many times the 1/30 s grid's keys a resampled node track may get
/// where its curve bends between them (see the [module](self) docs).
pub const REFINED_KEYS_FACTOR: u64 = 8;

/// The most keys fitting may add to one export's channels together (4
/// million; each takes about 7 samples of its track): a model whose tracks
/// would take more (thousands of long sequences of tracks that never
/// settle, which a fuzzer makes) keeps its other channels at their
/// 1/30 s and key-time keys, rather than resampling for minutes.
pub const MAX_FITTED_KEYS: u64 = 1 << 22;

/// How far (in the model's units, or as a scale factor) a `LINEAR` player
/// may stray between the keys of a resampled translation or scaling.
pub const RESAMPLE_TOLERANCE: f64 = 1e-3;

/// How far (radians) a `LINEAR` player's slerp may turn from the game's
/// rotation between the keys of a resampled rotation: 0.029°, 0.05 units
/// at the end of a bone 100 units long.
pub const RESAMPLE_TURN_TOLERANCE: f64 = 5e-4;

/// How a `LINEAR` glTF player goes from one key to the next, and how far
/// two values are apart, for [`Span::resample_fitted`].
pub(super) struct Fit<T> {
    lerp: fn(T, T, f64) -> T,
    distance: fn(T, T) -> f64,
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
const VECTOR_FIT: Fit<[f32; 3]> = Fit {
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
const ROTATION_FIT: Fit<[f32; 4]> = Fit {
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

/// The most values the animations of one export may hold (see the
/// [module](self) docs): 2^25 (33.5 million, 512 MiB of rotations), about
/// 8 times the most any of 2,580 public models needs (4.3 million, a WoW
/// model of 17 sequences; their export times are in `BENCHMARKS.md`).
pub const MAX_ANIMATION_VALUES: u64 = 1 << 25;

/// What a channel counts beyond its values against
/// [`MAX_ANIMATION_VALUES`]: its sampler, channel, two accessors and two
/// buffer views take about 1.5 KB as the document is built and written, as
/// much as 96 rotations of 16 bytes. A model of many sequences of constant
/// tracks holds few values, but a channel for each track in each.
pub const CHANNEL_VALUES: u64 = 96;

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
    fn linear(keys: impl IntoIterator<Item = (f64, T)>) -> Curve<T> {
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
    /// Spline translations and scalings resampled ([`Playback`]).
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

    fn start(&self) -> i64 {
        i64::from(self.sequence.interval[0])
    }

    pub(super) fn duration_ms(&self) -> f64 {
        f64::from(self.sequence.duration())
    }

    /// Seconds from the start of the sequence to `frame`.
    fn seconds(&self, frame: i32) -> f32 {
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
    /// closing key of [`SequenceKeys`]); in order, once each.
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
    /// within `fit`'s tolerance of it between keys too: the 1/30 s grid and
    /// the track's key `moments` (ms into the sequence; where its curve
    /// bends), then, the segment that strays furthest first, a key at the
    /// whole millisecond halfway through each segment between two keys
    /// whose interpolation strays further than the tolerance from the
    /// curve a quarter, half or three quarters of the way; until no segment
    /// does, keys are a millisecond apart (the game's frames), or the
    /// channel has [`REFINED_KEYS_FACTOR`] times the grid's keys (where it
    /// strays most is refined first, so a curve too busy for that many
    /// keys is as close as they can make it).
    fn resample_fitted<T: Copy>(
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
        let mut keys: Vec<(f64, T)> = times.iter().map(|&t| (t, at(t))).collect();
        // How far the segment between two keys strays, where it may be cut.
        let segment = |(t0, v0): (f64, T), (t1, v1): (f64, T)| {
            let middle = ((t0 + t1) / 2.0).round();
            let strays = [0.25, 0.5, 0.75]
                .into_iter()
                .map(|f| (fit.distance)(at(t0 + (t1 - t0) * f), (fit.lerp)(v0, v1, f)))
                .fold(0.0, f64::max);
            (middle > t0 && middle < t1 && strays > fit.tolerance).then_some(Stray {
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
        // One key more, within the export's budget.
        let one_more = || self.fitted.fetch_add(1, Ordering::Relaxed) < MAX_FITTED_KEYS;
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
        Curve::linear(keys)
    }

    /// Resampled `LINEAR` keys of `value(ms)`.
    fn resample<T>(&self, value: impl Fn(&Sampler<'_>) -> T) -> Curve<T> {
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

    /// Whether `track` follows a global sequence.
    fn is_global<T>(&self, track: &Track<T>) -> bool {
        self.timeline
            .global_duration(track.global_sequence_id)
            .is_some()
    }

    /// What node track `track` becomes in this sequence (`rotation`: a
    /// rotation track; see the table in the [module](self) docs).
    fn form<'t, T: Copy + PartialEq>(
        &self,
        track: &'t Track<T>,
        default: &T,
        rotation: bool,
    ) -> Form<'t, T> {
        let spline = matches!(
            track.interpolation_type,
            Interpolation::Hermite | Interpolation::Bezier
        );
        if self.is_global(track) || (spline && self.resample_splines && !rotation) {
            return Form::Resampled;
        }
        let keys = SequenceKeys::new(track, self.sequence.interval.map(i64::from), false, default);
        if let Some(value) = keys.constant() {
            return Form::Constant(*value);
        }
        let increasing = keys
            .keys()
            .zip(keys.keys().skip(1))
            .all(|(a, b)| a.frame < b.frame);
        // glTF needs times that strictly increase; the quaternion spline
        // is not glTF's.
        if !increasing || (spline && rotation) {
            return Form::Resampled;
        }
        Form::Keys(keys)
    }

    /// How many values a node track becomes in this sequence before
    /// fitting and slerped cuts add theirs: its keys (three values each as
    /// a `CUBICSPLINE`), two for a constant, or the samples a fitted
    /// resampling starts from ([`fitting_len`](Self::fitting_len)).
    fn node_track_len<T: Copy + PartialEq>(
        &self,
        track: &Track<T>,
        default: &T,
        rotation: bool,
    ) -> u64 {
        match self.form(track, default, rotation) {
            Form::Resampled => self.fitting_len(self.moments_len(track)),
            Form::Constant(_) => self.constant_len(),
            Form::Keys(keys) => {
                let n = keys.keys().count() as u64;
                let spline = matches!(
                    track.interpolation_type,
                    Interpolation::Hermite | Interpolation::Bezier
                );
                if spline { 3 * n } else { n }
            }
        }
    }

    /// How many keys [`constant`](Self::constant) makes.
    fn constant_len(&self) -> u64 {
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
    fn loops(&self, loop_ms: u32, keys: usize) -> Option<(u32, f64)> {
        let length = f64::from(loop_ms.max(1));
        let loops = (self.duration_ms() / length).floor() + 1.0;
        let too_many = loops * (keys as f64 + 1.0) > f64::from(MAX_RESAMPLED_KEYS);
        (loop_ms != 0 && !too_many).then_some((loops as u32, length))
    }
}

/// What a node track becomes in one sequence, for glTF.
enum Form<'t, T: Clone> {
    /// Resampled `LINEAR` keys, fitted: a global sequence, a spline
    /// rotation (or translation or scaling, asked to), keys glTF cannot
    /// take as they are (repeated or unordered times).
    Resampled,
    /// One value over the whole sequence.
    Constant(T),
    /// The keys the sequence plays, their times strictly increasing.
    Keys(SequenceKeys<'t, T>),
}

/// A translation or scaling track as a curve, plus `offset`.
fn vector_curve(
    span: &Span<'_>,
    track: &Track<[f32; 3]>,
    default: [f32; 3],
    offset: [f32; 3],
) -> Curve<[f32; 3]> {
    let add = |v: [f32; 3]| [v[0] + offset[0], v[1] + offset[1], v[2] + offset[2]];
    let keys: Vec<KeyFrame<[f32; 3]>> = match span.form(track, &default, false) {
        Form::Keys(keys) => keys.keys().collect(),
        Form::Constant(value) => return span.constant(add(value)),
        Form::Resampled => {
            let moments = key_moments(span, track);
            return span.resample_fitted(|s| add(s.sample(track, &default)), &VECTOR_FIT, &moments);
        }
    };
    let times: Vec<f32> = keys.iter().map(|k| span.seconds(k.frame)).collect();
    let plain = |interpolation| Curve {
        interpolation,
        times: times.clone(),
        values: keys.iter().map(|k| add(k.value)).collect(),
    };
    match track.interpolation_type {
        Interpolation::Linear => plain(GltfInterpolation::Linear),
        Interpolation::Hermite | Interpolation::Bezier => Curve {
            interpolation: GltfInterpolation::CubicSpline,
            values: cubic(
                &keys,
                &times,
                track.interpolation_type == Interpolation::Bezier,
                add,
            ),
            times,
        },
        Interpolation::None | Interpolation::Other(_) => plain(GltfInterpolation::Step),
    }
}

/// glTF cubic spline triples (in-tangent, value, out-tangent) for hermite
/// or bezier keys: glTF scales tangents by the segment's length in seconds,
/// Warcraft III's hermite tangents are per segment, and a bezier control
/// point `c` after value `v` is the tangent `3 (c - v)`.
fn cubic(
    keys: &[KeyFrame<[f32; 3]>],
    times: &[f32],
    bezier: bool,
    add: impl Fn([f32; 3]) -> [f32; 3],
) -> Vec<[f32; 3]> {
    let span = |a: usize, b: usize| match (times.get(a), times.get(b)) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => 1.0,
    };
    let scale = |v: [f32; 3], s: f32| v.map(|c| c / s);
    let mut out = Vec::with_capacity(keys.len() * 3);
    let last = keys.len().saturating_sub(1);
    for (k, key) in keys.iter().enumerate() {
        let in_tan = key.tangents.map_or(key.value, |t| t.in_tan);
        let out_tan = key.tangents.map_or(key.value, |t| t.out_tan);
        let (incoming, outgoing) = if bezier {
            let from = |c: [f32; 3]| {
                [
                    3.0 * (key.value[0] - c[0]),
                    3.0 * (key.value[1] - c[1]),
                    3.0 * (key.value[2] - c[2]),
                ]
            };
            let to = |c: [f32; 3]| {
                [
                    3.0 * (c[0] - key.value[0]),
                    3.0 * (c[1] - key.value[1]),
                    3.0 * (c[2] - key.value[2]),
                ]
            };
            (from(in_tan), to(out_tan))
        } else {
            (in_tan, out_tan)
        };
        out.push(if k == 0 {
            [0.0; 3]
        } else {
            scale(incoming, span(k - 1, k))
        });
        out.push(add(key.value));
        out.push(if k == last {
            [0.0; 3]
        } else {
            scale(outgoing, span(k, k + 1))
        });
    }
    out
}

/// A rotation track as a curve of unit quaternions, interpolated ones
/// (`LINEAR`) made ready for every player ([`linear_rotations`]). `STEP`
/// keys are the file's as they are.
fn rotation_curve(span: &Span<'_>, track: &Track<[f32; 4]>) -> Curve<[f32; 4]> {
    linear_rotations(rotation_keys(span, track))
}

/// The largest angle, in radians, between the rotations of two neighbouring
/// keys of an exported `LINEAR` rotation channel (0.1: 5.7°; their
/// quaternions are half that apart). Where two keys turn more, keys are
/// added between them at even times, each the slerp of the two there:
/// glTF's slerp plays the same rotations as before at every time, and
/// players that interpolate the components and normalise, as Blender's
/// curves do, then come within 4e-6 rad of it (about `turn³ / 250` for a
/// segment that turns `turn`), where a segment turning 90° would put them
/// 0.9° off.
pub const MAX_KEY_TURN: f64 = 0.1;

/// The most keys one segment of a rotation channel is cut into
/// ([`MAX_KEY_TURN`]): a segment turns at most 180° (its quaternions on
/// one side), `ceil(π / MAX_KEY_TURN)`.
pub const MAX_KEYS_PER_TURN: u64 = 32;

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

/// [`rotation_curve`] before its keys are turned to one side.
fn rotation_keys(span: &Span<'_>, track: &Track<[f32; 4]>) -> Curve<[f32; 4]> {
    let identity = [0.0, 0.0, 0.0, 1.0];
    let unit = |q: [f32; 4]| normalized(q).to_array();
    let keys: Vec<KeyFrame<[f32; 4]>> = match span.form(track, &identity, true) {
        Form::Keys(keys) => keys.keys().collect(),
        Form::Constant(value) => return span.constant(unit(value)),
        Form::Resampled => {
            let moments = key_moments(span, track);
            let value = |s: &Sampler<'_>| unit(s.sample(track, &identity));
            return span.resample_fitted(value, &ROTATION_FIT, &moments);
        }
    };
    let interpolation = match track.interpolation_type {
        Interpolation::Linear => GltfInterpolation::Linear,
        _ => GltfInterpolation::Step,
    };
    Curve {
        interpolation,
        times: keys.iter().map(|k| span.seconds(k.frame)).collect(),
        values: keys.iter().map(|k| unit(k.value)).collect(),
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

/// Builds channels of one animation.
struct Channels<'b> {
    builder: &'b mut Builder,
    samplers: Vec<json::animation::Sampler>,
    channels: Vec<json::animation::Channel>,
    /// Channels by JSON pointer (`KHR_animation_pointer`).
    pointers: Vec<(Index<json::animation::Sampler>, String)>,
    /// The values the export's channels hold so far, each channel's
    /// [`CHANNEL_VALUES`] included: the running charge against
    /// [`MAX_ANIMATION_VALUES`].
    spent: &'b mut u64,
    /// How many sequences the export has, for the error.
    sequences: usize,
}

impl Channels<'_> {
    /// A sampler of `curve`, charged; an error past [`MAX_ANIMATION_VALUES`].
    fn sampler<T: Element>(
        &mut self,
        curve: Curve<T>,
    ) -> Result<Index<json::animation::Sampler>, Error> {
        let values = (curve.values.len() as u64).saturating_add(CHANNEL_VALUES);
        *self.spent = self.spent.saturating_add(values);
        if *self.spent > MAX_ANIMATION_VALUES {
            return Err(too_many("need at least", *self.spent, self.sequences));
        }
        let input = self.builder.scalars(&curve.times);
        let output = self.builder.accessor(&curve.values, None, false);
        let sampler = Index::new(u32::try_from(self.samplers.len()).unwrap_or(u32::MAX));
        self.samplers.push(json::animation::Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Checked::Valid(curve.interpolation),
            output,
        });
        Ok(sampler)
    }

    /// `curve` played on the property `pointer` names.
    fn add_pointer<T: Element>(&mut self, pointer: String, curve: Curve<T>) -> Result<(), Error> {
        let sampler = self.sampler(curve)?;
        self.pointers.push((sampler, pointer));
        Ok(())
    }

    fn add<T: Element>(
        &mut self,
        node: Index<json::Node>,
        property: Property,
        curve: Curve<T>,
    ) -> Result<(), Error> {
        let sampler = self.sampler(curve)?;
        self.channels.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                extensions: None,
                extras: Default::default(),
                node,
                path: Checked::Valid(property),
            },
            extensions: None,
            extras: Default::default(),
        });
        Ok(())
    }
}

/// What the animations play through `KHR_animation_pointer` (each empty
/// unless asked for).
pub struct Pointed<'a> {
    /// Geosets shown and hidden.
    pub visibility: GeosetVisibility<'a>,
    /// Geosets' material colours.
    pub colors: MaterialColors<'a>,
    /// Materials' texture transforms.
    pub textures: TextureTransforms<'a>,
    /// Lights' colour and intensity.
    pub lights: LightAnimations<'a>,
}

/// Which sequences become animations, and how their spline tracks do.
pub struct Playback<'a> {
    /// Indices into the timeline's sequences.
    pub sequences: &'a [usize],
    /// Hermite and bezier translations and scalings as resampled `LINEAR`
    /// keys rather than `CUBICSPLINE` ([`ExportOptions::resample_splines`](super::ExportOptions)).
    pub resample_splines: bool,
}

/// One animation for each sequence `playback` names, moving the skeleton's nodes and the nodes of the
/// cameras that move (`cameras`: each with its node), and what is
/// `pointed` at (geoset visibility, material colours, texture transforms,
/// lights); returns how many were added, or an
/// error when they would hold more than [`MAX_ANIMATION_VALUES`].
pub fn add_animations(
    b: &mut Builder,
    timeline: &Timeline,
    skeleton: &Skeleton,
    nodes: &ModelNodes,
    cameras: &[(ModelCamera<'_>, Index<json::Node>)],
    pointed: &Pointed<'_>,
    playback: &Playback<'_>,
) -> Result<usize, Error> {
    let Pointed {
        visibility,
        colors,
        textures,
        lights,
    } = pointed;
    let fitted = Arc::new(AtomicU64::new(0));
    let spans: Vec<Span<'_>> = playback
        .sequences
        .iter()
        .filter_map(|&s| timeline.sequences.get(s))
        .map(|sequence| Span {
            resample_splines: playback.resample_splines,
            fitted: Arc::clone(&fitted),
            ..Span::new(timeline, sequence)
        })
        .collect();
    let baked = inherit::baked_nodes(skeleton);
    let needed = spans
        .iter()
        .map(|span| span_values(span, skeleton, cameras, pointed, &baked))
        .fold(0u64, u64::saturating_add);
    if needed > MAX_ANIMATION_VALUES {
        return Err(too_many("would need", needed, spans.len()));
    }
    let mut spent = 0u64;
    let shown = visibility.curves(&spans);
    let tinted = colors.curves(&spans);
    let moving = textures.curves(&spans);
    let lit = lights.curves(&spans);
    let mut added = 0;
    for (k, span) in spans.iter().enumerate() {
        let sequence = span.sequence;
        let mut channels = Channels {
            builder: b,
            samplers: Vec::new(),
            channels: Vec::new(),
            pointers: Vec::new(),
            spent: &mut spent,
            sequences: spans.len(),
        };
        channels.add(nodes.root, Property::Rotation, span.constant(Z_UP_TO_Y_UP))?;
        for (node, curves) in &shown {
            if let Some(curve) = curves.get(k) {
                channels.add_pointer(visible_pointer(*node), curve.clone())?;
            }
        }
        for (pointer, curves) in &tinted {
            if let Some(curve) = curves.get(k) {
                channels.add_pointer(pointer.clone(), curve.clone())?;
            }
        }
        for (pointers, curves) in &moving {
            let Some(curve) = curves.get(k) else { continue };
            for pointer in pointers {
                channels.add_pointer(format!("{pointer}/offset"), curve.offset.clone())?;
                channels.add_pointer(format!("{pointer}/rotation"), curve.rotation.clone())?;
                channels.add_pointer(format!("{pointer}/scale"), curve.scale.clone())?;
            }
        }
        for (pointer, curves) in &lit {
            let Some(curve) = curves.get(k) else { continue };
            channels.add_pointer(format!("{pointer}/color"), curve.color.clone())?;
            channels.add_pointer(format!("{pointer}/intensity"), curve.intensity.clone())?;
        }
        for (i, curves) in inherit::curves(span, skeleton, &baked) {
            let Some(&target) = nodes.nodes.get(i) else {
                continue;
            };
            channels.add(target, Property::Translation, curves.translation)?;
            channels.add(target, Property::Rotation, curves.rotation)?;
            channels.add(target, Property::Scale, curves.scale)?;
        }
        for (i, (node, &target)) in skeleton.nodes().iter().zip(&nodes.nodes).enumerate() {
            if baked.get(i) == Some(&true) {
                continue;
            }
            if let Some(track) = &node.translation {
                let curve = vector_curve(span, track, [0.0; 3], rest_translation(skeleton, i));
                channels.add(target, Property::Translation, curve)?;
            }
            if let Some(track) = &node.rotation {
                channels.add(target, Property::Rotation, rotation_curve(span, track))?;
            }
            if let Some(track) = &node.scaling {
                channels.add(
                    target,
                    Property::Scale,
                    vector_curve(span, track, [1.0; 3], [0.0; 3]),
                )?;
            }
        }
        for (camera, node) in cameras.iter().filter(|(c, _)| c.moves()) {
            let Curve {
                interpolation,
                times,
                values,
            } = span.resample(|s| camera.transform(Some(s)));
            let (translations, rotations): (Vec<[f32; 3]>, Vec<[f32; 4]>) =
                values.into_iter().unzip();
            let translation = Curve {
                interpolation,
                times: times.clone(),
                values: translations,
            };
            channels.add(*node, Property::Translation, translation)?;
            let rotation = linear_rotations(Curve {
                interpolation,
                times,
                values: rotations,
            });
            channels.add(*node, Property::Rotation, rotation)?;
        }
        let Channels {
            samplers,
            channels,
            pointers,
            ..
        } = channels;
        let animation = json::Animation {
            extensions: None,
            extras: Default::default(),
            channels,
            name: Some(sequence.name.clone()),
            samplers,
        };
        b.push_animation(animation, pointers);
        added += 1;
    }
    Ok(added)
}

/// The values the animation of `span` will certainly take, counted as
/// the [module](self) docs say, before any is made.
fn span_values(
    span: &Span<'_>,
    skeleton: &Skeleton,
    cameras: &[(ModelCamera<'_>, Index<json::Node>)],
    pointed: &Pointed<'_>,
    baked: &[bool],
) -> u64 {
    let mut values = 0u64;
    let mut channel = |n: u64| values = values.saturating_add(n).saturating_add(CHANNEL_VALUES);
    // The root's constant rotation.
    channel(span.constant_len());
    for (i, node) in skeleton.nodes().iter().enumerate() {
        if baked.get(i) == Some(&true) {
            continue;
        }
        if let Some(track) = &node.translation {
            channel(span.node_track_len(track, &[0.0; 3], false));
        }
        if let Some(track) = &node.rotation {
            channel(span.node_track_len(track, &[0.0, 0.0, 0.0, 1.0], true));
        }
        if let Some(track) = &node.scaling {
            channel(span.node_track_len(track, &[1.0; 3], false));
        }
    }
    let grid = span.resample_len();
    let baked_nodes = baked.iter().filter(|&&b| b).count();
    for _ in 0..3 * baked_nodes {
        channel(grid);
    }
    for _ in cameras.iter().filter(|(c, _)| c.moves()) {
        channel(grid);
        channel(grid);
    }
    let visibility = &pointed.visibility;
    for &(geoset, ..) in &visibility.geosets {
        let moments =
            geoset_alpha_track(visibility.model, geoset).map_or(0, |t| span.moments_len(t));
        channel(grid.saturating_add(moments.saturating_mul(2)));
    }
    let poses = match baked_nodes {
        0 => 0,
        _ => grid.saturating_mul(skeleton.nodes().len() as u64),
    };
    let pointers = [
        pointed.colors.values_needed(span),
        pointed.textures.values_needed(span),
        pointed.lights.values_needed(span),
    ];
    pointers
        .into_iter()
        .fold(values.saturating_add(poses), |all, (values, channels)| {
            all.saturating_add(values)
                .saturating_add(channels.saturating_mul(CHANNEL_VALUES))
        })
}

/// The refusal of animations over [`MAX_ANIMATION_VALUES`]: they `what`
/// (would need, need at least) `needed` values; the ways out.
fn too_many(what: &str, needed: u64, sequences: usize) -> Error {
    Error::other(format!(
        "the animations {what} {needed} values ({sequences} sequences; at most \
         {MAX_ANIMATION_VALUES}): export one sequence (--sequence) or none (--no-animations)"
    ))
}

/// The extension a geoset node's visibility is in.
pub const NODE_VISIBILITY: &str = "KHR_node_visibility";

/// The JSON pointer to `node`'s visibility.
fn visible_pointer(node: Index<json::Node>) -> String {
    format!(
        "/nodes/{}/extensions/{NODE_VISIBILITY}/visible",
        node.value()
    )
}

/// The geosets whose nodes are shown and hidden as the model's geoset
/// animations do (`KHR_node_visibility`, animated by `KHR_animation_pointer`):
/// a geoset is shown where its alpha is above 0, as
/// `formats::render` draws posed models.
pub struct GeosetVisibility<'a> {
    model: &'a Model,
    /// Each geoset with its node and whether it shows at rest.
    geosets: Vec<(usize, Index<json::Node>, bool)>,
}

impl<'a> GeosetVisibility<'a> {
    /// The geosets of `model` on these nodes, each with whether it shows at
    /// rest ([`at_rest`](Self::at_rest)).
    pub fn new(model: &'a Model, geosets: Vec<(usize, Index<json::Node>, bool)>) -> Self {
        GeosetVisibility { model, geosets }
    }

    /// Whether geoset `geoset` shows when no sequence plays (`None` when its
    /// visibility never changes: no geoset animation alpha, and shown).
    pub fn at_rest(model: &Model, timeline: &Timeline, geoset: usize) -> Option<bool> {
        let shown = geoset_state(model, geoset, &Sampler::new(timeline, Moment::BIND)).alpha > 0.0;
        (!shown || geoset_alpha_track(model, geoset).is_some()).then_some(shown)
    }

    /// For each geoset whose visibility changes in a sequence or differs
    /// from its rest, its node and its curve in each span (a geoset shown
    /// throughout every span and at rest gets none).
    fn curves(&self, spans: &[Span<'_>]) -> Vec<(Index<json::Node>, Vec<Shown>)> {
        self.geosets
            .iter()
            .filter_map(|&(geoset, node, at_rest)| {
                let at_rest = u8::from(at_rest);
                let curves: Vec<_> = spans
                    .iter()
                    .map(|span| visibility_curve(span, self.model, geoset))
                    .collect();
                let changes = curves
                    .iter()
                    .any(|c| c.values.iter().any(|v| v[0] != at_rest));
                changes.then_some((node, curves))
            })
            .collect()
    }
}

/// A geoset's visibility keys over one sequence: 1 shown, 0 hidden.
type Shown = Curve<[u8; 1]>;

/// Geoset `geoset`'s visibility over `span` as `STEP` keys (1 shown, 0
/// hidden): a key where the sequence starts and one at each change. Its
/// alpha is sampled at each moment a key of its alpha track plays in the
/// sequence (each loop of a global sequence too) and 1 ms after (frames are
/// whole milliseconds: a linear fade up from 0 shows the geoset from the
/// next frame on), and every 1/30 s between, at whole milliseconds (where a
/// spline may cross 0).
fn visibility_curve(span: &Span<'_>, model: &Model, geoset: usize) -> Shown {
    let duration = span.duration_ms();
    // At whole milliseconds, the game's frames: a 1/30 s sample a float
    // past a key's millisecond would otherwise be a second sample at one
    // `f32` time, or overrule the key's own state there.
    let mut times: Vec<f64> = span.resample_times().iter().map(|t| t.round()).collect();
    if let Some(track) = geoset_alpha_track(model, geoset) {
        let keys = key_moments(span, track);
        times.extend(
            keys.into_iter()
                .flat_map(|at| [at, at + 1.0])
                .filter(|t| (0.0..=duration).contains(t)),
        );
        times.sort_by(f64::total_cmp);
        times.dedup();
    }
    let mut curve = Curve {
        interpolation: GltfInterpolation::Step,
        times: Vec::new(),
        values: Vec::new(),
    };
    for ms in times {
        let shown = [u8::from(
            geoset_state(model, geoset, &span.sampler(ms)).alpha > 0.0,
        )];
        let seconds = (ms / 1000.0) as f32;
        // Hours into a sequence, milliseconds apart can be one `f32`, and
        // glTF wants times that increase: the later state holds there.
        if curve.times.last() == Some(&seconds) {
            curve.times.pop();
            curve.values.pop();
        }
        if curve.values.last() != Some(&shown) {
            curve.times.push(seconds);
            curve.values.push(shown);
        }
    }
    curve
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
pub(super) mod tests {
    use super::*;
    use crate::mdx::Key;

    fn span_of(timeline: &Timeline) -> Span<'_> {
        Span::new(timeline, &timeline.sequences[0])
    }

    /// One sequence, "Walk", 1000 to 1600, and a global sequence of 250 ms.
    pub(in crate::gltf::model) fn timeline() -> Timeline {
        Timeline {
            sequences: vec![SequenceInfo {
                name: "Walk".into(),
                interval: [1000, 1600],
                looping: true,
            }],
            global_sequences: vec![250],
        }
    }

    /// glTF's cubic spline at `t` seconds (spec, Appendix C).
    fn gltf_cubic(curve: &Curve<[f32; 3]>, t: f32) -> [f32; 3] {
        let k = curve
            .times
            .iter()
            .rposition(|&x| x <= t)
            .unwrap()
            .min(curve.times.len() - 2);
        let (t0, t1) = (curve.times[k], curve.times[k + 1]);
        let d = t1 - t0;
        let s = (t - t0) / d;
        let (p0, b0) = (curve.values[3 * k + 1], curve.values[3 * k + 2]);
        let (a1, p1) = (curve.values[3 * (k + 1)], curve.values[3 * (k + 1) + 1]);
        let (s2, s3) = (s * s, s * s * s);
        core::array::from_fn(|i| {
            (2.0 * s3 - 3.0 * s2 + 1.0) * p0[i]
                + d * (s3 - 2.0 * s2 + s) * b0[i]
                + (-2.0 * s3 + 3.0 * s2) * p1[i]
                + d * (s3 - s2) * a1[i]
        })
    }

    /// A camera going round its target in one sequence: its resampled
    /// rotations (each made from a look-at matrix) cross to -q somewhere,
    /// and `keep_on_one_side` turns them back, every key on the side of the
    /// one before, each still the same rotation.
    #[test]
    fn a_camera_going_round_keeps_its_rotation_keys_on_one_side() {
        let timeline = timeline();
        let span = span_of(&timeline);
        let around = [
            [100.0, 0.0, 0.0],
            [0.0, 100.0, 0.0],
            [-100.0, 0.0, 0.0],
            [0.0, -100.0, 0.0],
        ];
        let keys = (0..5)
            .map(|k| Key::new(1000 + 150 * k as i32, around[k % 4]))
            .collect();
        let eye = Track::new(Interpolation::Linear, keys);
        let camera = ModelCamera {
            name: "going round".into(),
            position: [0.0, 0.0, 50.0],
            target: [0.0, 0.0, 50.0],
            field_of_view: 0.8,
            near: 8.0,
            far: 1000.0,
            translation: Some(&eye),
            target_translation: None,
            roll: None,
        };
        let dot = |a: &[f32; 4], b: &[f32; 4]| Quat::from_array(*a).dot(Quat::from_array(*b));
        let curve = span.resample(|s| camera.transform(Some(s)).1);
        let mut rotations = curve.values.clone();
        assert!(rotations.windows(2).any(|w| dot(&w[0], &w[1]) < 0.0));
        keep_on_one_side(&mut rotations);
        assert!(rotations.windows(2).all(|w| dot(&w[0], &w[1]) >= 0.0));
        for (was, now) in curve.values.iter().zip(&rotations) {
            assert!((dot(was, now).abs() - 1.0).abs() < 1e-5);
        }
    }

    #[test]
    fn hermite_and_bezier_translations_map_exactly_to_cubic_splines() {
        let timeline = timeline();
        let span = span_of(&timeline);
        for interpolation in [Interpolation::Hermite, Interpolation::Bezier] {
            let key = |frame, v: f32, i: f32, o: f32| {
                KeyFrame::with_tangents(frame, [v, -v, 2.0 * v], [i, 0.5 * i, -i], [o, 0.25 * o, o])
            };
            // Unequal segments (100 ms then 400 ms), and an added closing key.
            let track = Track::from_key_frames(
                interpolation,
                vec![
                    key(1000, 0.0, 1.0, 2.0),
                    key(1100, 3.0, -1.0, 4.0),
                    key(1500, 1.0, 2.0, -3.0),
                ],
            );
            let offset = [10.0, 20.0, 30.0];
            let curve = vector_curve(&span, &track, [0.0; 3], offset);
            assert_eq!(curve.times, [0.0, 0.1, 0.5, 0.6]);
            for ms in [0.0, 30.0, 99.0, 150.0, 333.0, 499.0, 550.0, 600.0] {
                let want = span.sampler(ms).sample(&track, &[0.0; 3]);
                let got = gltf_cubic(&curve, (ms / 1000.0) as f32);
                for i in 0..3 {
                    assert!(
                        (got[i] - (want[i] + offset[i])).abs() < 1e-4,
                        "{interpolation:?} at {ms}: {got:?} vs {want:?}"
                    );
                }
            }
        }
    }

    /// Every 1/30 s time of `span` is a time of `curve`.
    fn has_the_grid<T>(span: &Span<'_>, curve: &Curve<T>) {
        for ms in span.resample_times() {
            let t = (ms / 1000.0) as f32;
            assert!(curve.times.contains(&t), "{t} not in {:?}", curve.times);
        }
    }

    /// `curve`'s `LINEAR` value at `t` seconds, as glTF plays it.
    fn play<T: Copy>(curve: &Curve<T>, fit: &Fit<T>, t: f32) -> T {
        let k = curve.times.iter().rposition(|&x| x <= t).unwrap_or(0);
        match (curve.times.get(k + 1), curve.values.get(k + 1)) {
            (Some(&t1), Some(&b)) => {
                let t0 = curve.times[k];
                (fit.lerp)(curve.values[k], b, f64::from((t - t0) / (t1 - t0)))
            }
            _ => curve.values[k],
        }
    }

    #[test]
    fn spline_rotations_and_global_sequences_are_resampled_and_fitted() {
        let timeline = timeline();
        let span = span_of(&timeline);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let q = |frame, v: [f32; 4]| KeyFrame::with_tangents(frame, v, v, v);
        // A quarter turn eased in and out: 30 keys a second leave a linear
        // player up to 1.5e-3 rad off between them, so keys are added.
        let track = Track::from_key_frames(
            Interpolation::Hermite,
            vec![q(1000, [0.0, 0.0, 0.0, 1.0]), q(1600, [0.0, 0.0, h, h])],
        );
        let curve = rotation_keys(&span, &track);
        assert_eq!(curve.interpolation, GltfInterpolation::Linear);
        has_the_grid(&span, &curve);
        assert!(curve.times.len() > 19, "{}", curve.times.len());
        assert!(curve.times.len() as u64 <= 19 * REFINED_KEYS_FACTOR);
        assert_eq!(*curve.times.last().unwrap(), 0.6);
        // With the export's budget spent, the 1/30 s keys alone.
        let spent = Span {
            fitted: Arc::new(AtomicU64::new(MAX_FITTED_KEYS)),
            ..span_of(&timeline)
        };
        assert_eq!(rotation_keys(&spent, &track).times.len(), 19);
        let identity = [0.0, 0.0, 0.0, 1.0];
        for ms in 0..=600 {
            let want = normalized(span.sampler(f64::from(ms)).sample(&track, &identity));
            let got = play(&curve, &ROTATION_FIT, ms as f32 / 1000.0);
            let off = (ROTATION_FIT.distance)(got, want.to_array());
            assert!(off <= 2.0 * RESAMPLE_TURN_TOLERANCE, "{ms} ms: {off} rad");
        }
        let mut global = Track::new(
            Interpolation::Linear,
            vec![Key::new(0, [0.0; 3]), Key::new(250, [1.0, 0.0, 0.0])],
        );
        global.global_sequence_id = 0;
        let curve = vector_curve(&span, &global, [0.0; 3], [0.0; 3]);
        has_the_grid(&span, &curve);
        // 300 ms into the sequence the global sequence is 50 ms into its
        // loop; where it restarts (250 ms), the jump back to its first key
        // is cut down to the millisecond.
        let at = |t: f32| curve.values[curve.times.iter().position(|&x| x == t).unwrap()];
        assert!((at(0.3)[0] - 0.2).abs() < 1e-5, "{:?}", at(0.3));
        assert!((at(0.249)[0] - 0.996).abs() < 1e-5, "{:?}", at(0.249));
        assert_eq!(at(0.25), [0.0; 3]);
    }

    #[test]
    fn a_sequence_of_49_days_gets_a_bounded_number_of_keys() {
        let mut timeline = timeline();
        timeline.sequences[0].interval = [0, u32::MAX];
        let span = span_of(&timeline);
        let times = span.resample_times();
        assert_eq!(times.len(), MAX_RESAMPLED_KEYS as usize);
        assert_eq!(times.last(), Some(&f64::from(u32::MAX)));
    }

    #[test]
    fn keys_with_repeated_times_are_resampled() {
        let timeline = timeline();
        let span = span_of(&timeline);
        let track = Track::new(
            Interpolation::Linear,
            vec![
                Key::new(1000, [0.0; 3]),
                Key::new(1300, [1.0; 3]),
                Key::new(1300, [2.0; 3]),
                Key::new(1600, [0.0; 3]),
            ],
        );
        let curve = vector_curve(&span, &track, [0.0; 3], [0.0; 3]);
        has_the_grid(&span, &curve);
        assert!(curve.times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            curve.values[3],
            span.sampler(100.0).sample(&track, &[0.0; 3])
        );
        // The jump at 300 ms is cut down to the millisecond: keys at 299
        // and 300 ms, each the sampler's.
        for ms in [299.0, 300.0] {
            let k = curve.times.iter().position(|&t| t == ms as f32 / 1000.0);
            let want = span.sampler(ms).sample(&track, &[0.0; 3]);
            assert_eq!(k.map(|k| curve.values[k]), Some(want), "{ms}");
        }
    }

    /// The sample model with geoset 0 animated by `alpha`.
    fn model_with_alpha(alpha: Track<f32>) -> Model {
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        model
            .geoset_animations_mut()
            .push(crate::mdx::GeosetAnimation {
                alpha: 1.0,
                geoset_id: 0,
                tracks: vec![crate::mdx::GeosetAnimationTrack::Alpha(alpha)],
                ..Default::default()
            });
        model
    }

    #[test]
    fn a_geoset_is_hidden_from_the_frame_its_alpha_reaches_0_to_the_last_it_is_0() {
        let timeline = timeline();
        let span = span_of(&timeline);
        // Walk is 1000 to 1600: fades out by 1300, stays out, fades in from 1400.
        let model = model_with_alpha(Track::new(
            Interpolation::Linear,
            vec![
                Key::new(1000, 1.0),
                Key::new(1300, 0.0),
                Key::new(1400, 0.0),
                Key::new(1500, 1.0),
            ],
        ));
        let curve = visibility_curve(&span, &model, 0);
        assert_eq!(curve.interpolation, GltfInterpolation::Step);
        assert_eq!(curve.times, [0.0, 0.3, 0.401]);
        assert_eq!(curve.values, [[1], [0], [1]]);
        // Another geoset, not animated: shown throughout.
        let other = visibility_curve(&span, &model, 1);
        assert_eq!((other.times, other.values), (vec![0.0], vec![[1]]));
    }

    #[test]
    fn a_global_sequence_hides_a_geoset_in_each_of_its_loops() {
        let timeline = timeline();
        let span = span_of(&timeline);
        // A 250 ms loop, shown for its first 100 ms, over a 600 ms sequence.
        let mut alpha = Track::new(
            Interpolation::None,
            vec![Key::new(0, 1.0), Key::new(100, 0.0)],
        );
        alpha.global_sequence_id = 0;
        assert_eq!(
            key_moments(&span, &alpha),
            [0.0, 0.0, 100.0, 250.0, 250.0, 350.0, 500.0, 500.0, 600.0]
        );
        let curve = visibility_curve(&span, &model_with_alpha(alpha), 0);
        // The sequence's last frame, 600, is 100 ms into the third loop.
        assert_eq!(curve.times, [0.0, 0.1, 0.25, 0.35, 0.5, 0.6]);
        assert_eq!(curve.values, [[1], [0], [1], [0], [1], [0]]);
    }

    #[test]
    fn a_constant_track_spans_the_sequence() {
        let timeline = timeline();
        let span = span_of(&timeline);
        let track = Track::new(Interpolation::Linear, vec![Key::new(1200, [1.0, 2.0, 3.0])]);
        let curve = vector_curve(&span, &track, [0.0; 3], [1.0, 1.0, 1.0]);
        assert_eq!(curve.times, [0.0, 0.6]);
        assert_eq!(curve.values, [[2.0, 3.0, 4.0]; 2]);
    }
    /// The first count takes each track as it will be made in this
    /// sequence: the keys it plays there (not the track's keys in other
    /// sequences; the opening and closing keys added), three values a
    /// `CUBICSPLINE` key, two for a constant; a resampled track the grid
    /// and its key moments, which fitting starts from and adds to.
    #[test]
    fn the_first_count_is_what_each_track_becomes_in_its_sequence() {
        let timeline = timeline();
        // Walk is 1000 to 1600; 200 keys before it, in other sequences.
        let elsewhere = (0..200).map(|k| Key::new(4 * k, [k as f32; 3]));
        let walk = [1100, 1250, 1400].map(|f| Key::new(f, [f as f32, 0.0, 1.0]));
        let keys: Vec<_> = elsewhere.chain(walk).collect();
        let linear = Track::new(Interpolation::Linear, keys.clone());
        let hermite = Track::new(Interpolation::Hermite, keys.clone());
        let constant = Track::new(Interpolation::Linear, vec![Key::new(1200, [1.0; 3])]);
        let mut repeated = Track::new(Interpolation::Linear, keys.clone());
        repeated.keys.push(Key::new(1400, [0.0; 3]));
        let mut global = linear.clone();
        global.global_sequence_id = 0;
        let span = span_of(&timeline);
        for (track, made) in [(&linear, 5), (&hermite, 15), (&constant, 2)] {
            let curve = vector_curve(&span, track, [0.0; 3], [0.0; 3]);
            assert_eq!(curve.values.len(), made);
            assert_eq!(span.node_track_len(track, &[0.0; 3], false), made as u64);
        }
        // Resampled (keys at one time, a global sequence, a spline asked
        // to be): the grid and the moments; fitting adds to that, so with
        // the export's fitting spent the curve holds no more.
        let spent = Span {
            fitted: Arc::new(AtomicU64::new(MAX_FITTED_KEYS)),
            resample_splines: true,
            ..span_of(&timeline)
        };
        for track in [&repeated, &global, &hermite] {
            let counted = spent.node_track_len(track, &[0.0; 3], false);
            let made = vector_curve(&spent, track, [0.0; 3], [0.0; 3]).values.len() as u64;
            assert!(made <= counted, "{made} {counted}");
            assert!(counted <= spent.resample_len() + 2 * track.keys.len() as u64);
            assert!(made >= spent.resample_len() - 1, "{made}");
        }
        // A hermite rotation is resampled, spline translations asked or not.
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let turn = Track::new(
            Interpolation::Hermite,
            vec![
                Key::new(1000, [0.0, 0.0, 0.0, 1.0]),
                Key::new(1600, [0.0, 0.0, h, h]),
            ],
        );
        let identity = [0.0, 0.0, 0.0, 1.0];
        let counted = spent.node_track_len(&turn, &identity, true);
        assert_eq!(counted, span.node_track_len(&turn, &identity, true));
        // Its keys at the sequence's ends are on the grid already.
        let made = rotation_keys(&spent, &turn).values.len() as u64;
        assert_eq!(made, spent.resample_len());
        assert!(made <= counted && counted <= made + 2, "{made} {counted}");
    }

    /// As each channel is added its values are charged: past
    /// [`MAX_ANIMATION_VALUES`], the export stops with the advice.
    #[test]
    fn channels_past_the_limit_stop_the_export() {
        let timeline = timeline();
        let span = span_of(&timeline);
        let mut builder = Builder::new("test");
        let mut spent = MAX_ANIMATION_VALUES - CHANNEL_VALUES - 2;
        let mut channels = Channels {
            builder: &mut builder,
            samplers: Vec::new(),
            channels: Vec::new(),
            pointers: Vec::new(),
            spent: &mut spent,
            sequences: 1,
        };
        let node = Index::new(0);
        channels
            .add(node, Property::Scale, span.constant([1.0f32; 3]))
            .unwrap();
        let Err(e) = channels.add(node, Property::Scale, span.constant([1.0f32; 3])) else {
            panic!("charged past the limit");
        };
        assert_eq!(channels.samplers.len(), 1);
        let e = e.to_string();
        assert!(
            e.contains("--sequence") && e.contains("--no-animations"),
            "{e}"
        );
        assert_eq!(spent, MAX_ANIMATION_VALUES + CHANNEL_VALUES + 2);
    }
}
