//! A track's value at a [`Moment`]: which keys count, and what happens before,
//! between and after them.
//!
//! The rules are those of the viewers that reproduce the game (mdx-m3-viewer,
//! Warsmash), applied per interval:
//!
//! 1. A track with a global sequence id reads the counter modulo that global
//!    sequence's duration, in the interval `[0, duration]`; any other track
//!    reads the frame in the playing sequence's interval. No counter, or no
//!    sequence: the default value. An id past `GLBS` counts as no global
//!    sequence.
//! 2. Only the keys inside the interval (`start <= frame <= end`) count.
//!    None: the default value. One, or all with one value: that value.
//! 3. Otherwise, without a key at `start` one is added there with the default
//!    value (and the default as tangents); without a key at `end` one is added
//!    there with the first key's value and tangents, so a loop closes.
//! 4. Before the first key: its value; at or after the last: its value;
//!    between two keys the [`Interpolate`] curve of the track's type.
//! 5. A global sequence whose first key is after its duration holds that
//!    key's value.
//!
//! Keys out of order (which [`validate`](crate::validate) reports) are
//! sampled as found: never a panic, the segment is the first key after the
//! frame and the key before it in file order.

use std::borrow::Cow;

use super::interpolate::{Interpolate, between};
use super::timeline::{Moment, Timeline};
use crate::mdx::{Interpolation, Key, KeyFrame, Tangents, Track};

/// Samples tracks at one [`Moment`] of a model's [`Timeline`].
///
/// ```
/// use formats::anim::{Sampler, Timeline};
/// use formats::mdx::{Interpolation, Key, Track};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let timeline = Timeline::from_model(&model);
/// let track = Track::new(Interpolation::Linear, vec![Key::new(0, 0.0f32), Key::new(1000, 10.0)]);
/// // 250 ms into "Stand" (0 to 1000 ms).
/// let sampler = Sampler::new(&timeline, timeline.at(0, 250.0).unwrap());
/// assert_eq!(sampler.sample(&track, &0.0), 2.5);
/// # Ok::<(), formats::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Sampler<'a> {
    timeline: &'a Timeline,
    moment: Moment,
}

/// Where one track reads its keys at a moment: the interval and the frame in it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// `[start, end]` in the track's frames.
    pub interval: [i64; 2],
    /// The frame to sample, in milliseconds.
    pub frame: f64,
    /// Whether this is a global sequence (rule 5 applies).
    pub global: bool,
}

impl<'a> Sampler<'a> {
    /// A sampler for `moment` of `timeline`.
    pub fn new(timeline: &'a Timeline, moment: Moment) -> Self {
        Sampler { timeline, moment }
    }

    /// The moment sampled.
    pub fn moment(&self) -> Moment {
        self.moment
    }

    /// The timeline sampled.
    pub fn timeline(&self) -> &'a Timeline {
        self.timeline
    }

    /// The interval and frame a track with this global sequence id reads
    /// (rule 1), `None` when its clock is not running.
    pub fn window(&self, global_sequence_id: i32) -> Option<Window> {
        if let Some(duration) = self.timeline.global_duration(global_sequence_id) {
            let counter = self.moment.counter?;
            let frame = if duration == 0 {
                0.0
            } else {
                counter.rem_euclid(f64::from(duration))
            };
            return Some(Window {
                interval: [0, i64::from(duration)],
                frame,
                global: true,
            });
        }
        let [start, end] = self.moment.interval?;
        Some(Window {
            interval: [i64::from(start), i64::from(end)],
            frame: self.moment.frame,
            global: false,
        })
    }

    /// The track's value now, `default` where it has none (rules 1 to 5).
    pub fn sample<T: Interpolate + PartialEq>(&self, track: &Track<T>, default: &T) -> T::Output {
        self.sample_as(track, track.interpolation_type, default)
    }

    /// As [`sample`](Self::sample), with another interpolation than the
    /// track's (the game steps visibility tracks whatever they say).
    pub fn sample_as<T: Interpolate + PartialEq>(
        &self,
        track: &Track<T>,
        interpolation: Interpolation,
        default: &T,
    ) -> T::Output {
        match self.window(track.global_sequence_id) {
            Some(window) => SequenceKeys::new(track, window.interval, window.global, default)
                .value_at(interpolation, window.frame),
            None => default.output(),
        }
    }

    /// [`sample`](Self::sample) of a track whose [`KeyIndex`] is known: the
    /// same value, found without looking at every key (a skeleton's tracks,
    /// posed at every frame of long sequences).
    pub(crate) fn sample_indexed<T: Interpolate + PartialEq>(
        &self,
        track: &Track<T>,
        index: &KeyIndex,
        default: &T,
    ) -> T::Output {
        match self.window(track.global_sequence_id) {
            Some(window) => {
                SequenceKeys::build(track, Some(index), window.interval, window.global, default)
                    .value_at(track.interpolation_type, window.frame)
            }
            None => default.output(),
        }
    }

    /// [`sample`](Self::sample) of an optional track: `default` without one.
    pub fn sample_or<T: Interpolate + PartialEq>(
        &self,
        track: Option<&Track<T>>,
        default: &T,
    ) -> T::Output {
        match track {
            Some(track) => self.sample(track, default),
            None => default.output(),
        }
    }
}

/// What sampling needs to know of all of a track's keys, worked out once
/// for a track sampled many times: whether its keys are in order (rule 2
/// then finds an interval's keys by binary search), and where each run of
/// equal values ends (whether an interval's keys are all one value, rule 2,
/// without comparing them). Without it each sample looks at every key,
/// which for the thousands of keys of a model converted from WoW, posed at
/// every frame, is most of the work.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct KeyIndex {
    /// The keys are in time order.
    sorted: bool,
    /// For each key, the index one past the last key of the run of keys
    /// from it on whose values all equal its own.
    run_end: Vec<u32>,
}

impl KeyIndex {
    /// The index of `track`'s keys as they are now.
    pub(crate) fn new<T: PartialEq>(track: &Track<T>) -> KeyIndex {
        let keys = &track.keys;
        // Backwards: a key's run is the next key's when the two are equal.
        // A value unequal to itself (NaN) is in no run, not even its own, as
        // `all(|k| k.value == first.value)` has it.
        let mut run_end = vec![0u32; keys.len()];
        let at = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        for (i, key) in keys.iter().enumerate().rev() {
            // `T` is only `PartialEq`: comparing a value with itself is how
            // a NaN (in any component) is told apart.
            #[allow(clippy::eq_op)]
            let unequal_to_itself = key.value != key.value;
            let end = if unequal_to_itself {
                at(i)
            } else {
                match keys.get(i + 1) {
                    Some(next) if next.value == key.value => {
                        run_end.get(i + 1).copied().unwrap_or(at(i + 1))
                    }
                    _ => at(i + 1),
                }
            };
            if let Some(slot) = run_end.get_mut(i) {
                *slot = end;
            }
        }
        KeyIndex {
            sorted: keys.is_sorted_by_key(|k| k.frame),
            run_end,
        }
    }

    /// Whether the keys `from..to` all have one value.
    fn all_equal(&self, from: usize, to: usize) -> bool {
        self.run_end
            .get(from)
            .is_some_and(|&end| end as usize >= to)
    }
}

/// The keys one interval of a track plays (rules 2, 3 and 5), borrowed from
/// the track when they are in order.
///
/// Exporters use it to write a sequence's keys exactly as they are sampled.
#[derive(Clone, Debug)]
pub struct SequenceKeys<'a, T: Clone> {
    /// The value of the whole interval, when it is constant (rules 2 and 5).
    constant: Option<T>,
    /// The added key at `start` (rule 3).
    opening: Option<KeyFrame<T>>,
    /// The track's keys inside the interval.
    inside: Cow<'a, [Key<T>]>,
    /// Their tangents (empty when the track has none).
    inside_tangents: Cow<'a, [Tangents<T>]>,
    /// The added key at `end` (rule 3).
    closing: Option<KeyFrame<T>>,
    /// The track's value without keys.
    default: T,
}

impl<'a, T: Copy + PartialEq> SequenceKeys<'a, T> {
    /// The keys of `track` for `interval` (`global`: the interval is a global
    /// sequence's), with `default` for the value the track has without keys.
    pub fn new(track: &'a Track<T>, interval: [i64; 2], global: bool, default: &T) -> Self {
        Self::build(track, None, interval, global, default)
    }

    /// [`new`](Self::new), with the track's [`KeyIndex`] where it is known
    /// (an index of another key list is not used).
    pub(crate) fn build(
        track: &'a Track<T>,
        index: Option<&KeyIndex>,
        interval: [i64; 2],
        global: bool,
        default: &T,
    ) -> Self {
        let [start, end] = interval;
        let index = index.filter(|i| i.run_end.len() == track.keys.len());
        let keys = track.keys.as_slice();
        // Tangents that do not pair with the keys (a track built by hand and
        // not yet checked by a write) are read as flat.
        let tangents = match track.tangents.len() == keys.len() {
            true => track.tangents.as_slice(),
            false => &[],
        };
        let constant = |value: &T| SequenceKeys {
            constant: Some(*value),
            opening: None,
            inside: Cow::Borrowed(&[]),
            inside_tangents: Cow::Borrowed(&[]),
            closing: None,
            default: *default,
        };
        if global && let Some(first) = keys.first().filter(|k| i64::from(k.frame) > end) {
            return constant(&first.value);
        }
        let within = |k: &Key<T>| (start..=end).contains(&i64::from(k.frame));
        let sorted = index.map_or_else(|| keys.is_sorted_by_key(|k| k.frame), |i| i.sorted);
        let mut range = None;
        let (inside, inside_tangents): Inside<'a, T> = if sorted {
            let from = keys.partition_point(|k| i64::from(k.frame) < start);
            let to = keys.partition_point(|k| i64::from(k.frame) <= end);
            range = Some((from, to));
            (
                Cow::Borrowed(keys.get(from..to).unwrap_or(&[])),
                Cow::Borrowed(tangents.get(from..to).unwrap_or(&[])),
            )
        } else {
            let chosen = || (0..keys.len()).filter(|&i| keys.get(i).is_some_and(within));
            (
                Cow::Owned(chosen().filter_map(|i| keys.get(i).copied()).collect()),
                Cow::Owned(chosen().filter_map(|i| tangents.get(i).copied()).collect()),
            )
        };
        let Some(first) = inside.first() else {
            return constant(default);
        };
        let all_equal = match (index, range) {
            (Some(index), Some((from, to))) => index.all_equal(from, to),
            _ => inside.iter().all(|k| k.value == first.value),
        };
        if all_equal {
            return constant(&first.value);
        }
        let opening = (i64::from(first.frame) != start).then(|| KeyFrame {
            frame: clamp_frame(start),
            value: *default,
            tangents: (track.interpolation_type.has_tangents()).then(|| Tangents::flat(*default)),
        });
        let head = opening.unwrap_or(KeyFrame::of(first, inside_tangents.first()));
        let closing = inside
            .last()
            .filter(|last| i64::from(last.frame) != end)
            .map(|_| KeyFrame {
                frame: clamp_frame(end),
                ..head
            });
        SequenceKeys {
            constant: None,
            opening,
            inside,
            inside_tangents,
            closing,
            default: *default,
        }
    }

    /// The value of the whole interval, if it has one (no keys in it, one
    /// key, or all keys equal).
    pub fn constant(&self) -> Option<&T> {
        self.constant.as_ref()
    }

    /// The keys played, added ones included, in order (empty when constant).
    pub fn keys(&self) -> impl Iterator<Item = KeyFrame<T>> + '_ {
        (0..self.len()).filter_map(|i| self.play(i))
    }

    /// How many keys are played (the added ones included).
    fn len(&self) -> usize {
        usize::from(self.opening.is_some())
            + self.inside.len()
            + usize::from(self.closing.is_some())
    }

    /// Key `index` in play order (the opening key, the keys inside, the
    /// closing key).
    fn play(&self, index: usize) -> Option<KeyFrame<T>> {
        let index = match (&self.opening, index) {
            (Some(open), 0) => return Some(*open),
            (Some(_), i) => i - 1,
            (None, i) => i,
        };
        match self.inside.get(index) {
            Some(key) => Some(KeyFrame::of(key, self.inside_tangents.get(index))),
            None => self.closing.filter(|_| index == self.inside.len()),
        }
    }

    /// The index in play order of the first key after `frame`, if one is.
    /// Only frames are looked at.
    fn first_after(&self, frame: f64) -> Option<usize> {
        let after = |key_frame: i32| f64::from(key_frame) > frame;
        if self.opening.is_some_and(|k| after(k.frame)) {
            return Some(0);
        }
        let inside = match &self.inside {
            // Borrowed keys are in order (`new`), so a binary search finds
            // what a scan would.
            Cow::Borrowed(keys) => keys.partition_point(|k| !after(k.frame)),
            Cow::Owned(keys) => (keys.iter().position(|k| after(k.frame))).unwrap_or(keys.len()),
        };
        // Past the keys inside, the closing key is next (index `inside.len()`).
        let found = inside < self.inside.len() || self.closing.is_some_and(|k| after(k.frame));
        found.then(|| usize::from(self.opening.is_some()) + inside)
    }

    /// The value at `frame` (rule 4).
    pub fn value_at(&self, interpolation: Interpolation, frame: f64) -> T::Output
    where
        T: Interpolate,
    {
        if let Some(value) = &self.constant {
            return value.output();
        }
        // Only the two keys around `frame` are built.
        let value = match self.first_after(frame) {
            Some(0) => self.play(0).map(|first| first.value.output()),
            Some(i) => match (self.play(i - 1), self.play(i)) {
                (Some(a), Some(b)) => Some(between(interpolation, &a, &b, frame)),
                _ => None,
            },
            // A list that is not constant has at least two keys, so the last
            // one is there.
            None => (self.len().checked_sub(1))
                .and_then(|i| self.play(i))
                .map(|last| last.value.output()),
        };
        // The default is there for the type's sake.
        value.unwrap_or_else(|| self.default.output())
    }
}

/// The keys of an interval and their tangents.
type Inside<'a, T> = (Cow<'a, [Key<T>]>, Cow<'a, [Tangents<T>]>);

/// A frame of the interval as a key frame (intervals are `u32`, key frames `i32`).
fn clamp_frame(frame: i64) -> i32 {
    i32::try_from(frame).unwrap_or(if frame < 0 { i32::MIN } else { i32::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::timeline::SequenceInfo;

    /// An indexed track samples as the plain one, at every frame of many
    /// intervals: keys in order and not, runs of equal values (inside and
    /// across an interval's edges), a NaN (never equal to itself), one key.
    #[test]
    fn an_indexed_track_samples_as_its_keys_do() {
        let tracks: Vec<Vec<(i32, f32)>> = vec![
            vec![
                (0, 1.0),
                (100, 1.0),
                (200, 1.0),
                (300, 2.0),
                (400, 2.0),
                (500, 1.0),
            ],
            vec![(0, 5.0), (250, 5.0), (500, 5.0)],
            vec![(0, 1.0), (300, f32::NAN), (400, f32::NAN), (500, 1.0)],
            vec![(200, 3.0), (100, 3.0), (300, 4.0), (50, 3.0)],
            vec![(250, 7.0)],
            vec![],
        ];
        for interpolation in [
            Interpolation::Linear,
            Interpolation::Hermite,
            Interpolation::None,
        ] {
            for keys in &tracks {
                let mut track = Track::new(
                    interpolation,
                    keys.iter().map(|&(f, v)| Key::new(f, v)).collect(),
                );
                if interpolation.has_tangents() {
                    track.tangents = keys
                        .iter()
                        .map(|&(_, v)| Tangents {
                            in_tan: v + 1.0,
                            out_tan: v - 1.0,
                        })
                        .collect();
                }
                let index = KeyIndex::new(&track);
                for start in (0..=500).step_by(50) {
                    for end in (start..=550).step_by(50) {
                        let interval = [i64::from(start), i64::from(end)];
                        let plain = SequenceKeys::new(&track, interval, false, &0.0);
                        let indexed =
                            SequenceKeys::build(&track, Some(&index), interval, false, &0.0);
                        for frame in start..=end {
                            let (a, b) = (
                                plain.value_at(interpolation, f64::from(frame)),
                                indexed.value_at(interpolation, f64::from(frame)),
                            );
                            assert_eq!(
                                a.to_bits(),
                                b.to_bits(),
                                "{keys:?} {interval:?} at {frame}"
                            );
                        }
                    }
                }
            }
        }
    }

    fn timeline() -> Timeline {
        Timeline {
            sequences: vec![
                SequenceInfo {
                    name: "Stand".into(),
                    interval: [1000, 2000],
                    looping: true,
                },
                SequenceInfo {
                    name: "Walk".into(),
                    interval: [3000, 3500],
                    looping: true,
                },
            ],
            global_sequences: vec![400, 0],
        }
    }

    fn at(t: &Timeline, sequence: usize, ms: f64) -> Sampler<'_> {
        Sampler::new(t, t.at(sequence, ms).unwrap())
    }

    fn linear(keys: &[(i32, f32)]) -> Track<f32> {
        Track::new(
            Interpolation::Linear,
            keys.iter().map(|&(f, v)| Key::new(f, v)).collect(),
        )
    }

    #[test]
    fn keys_of_other_sequences_do_not_count() {
        let t = timeline();
        let track = linear(&[(1000, 0.0), (2000, 10.0), (3000, 50.0), (3500, 70.0)]);
        assert_eq!(at(&t, 0, 500.0).sample(&track, &-1.0), 5.0);
        assert_eq!(at(&t, 1, 250.0).sample(&track, &-1.0), 60.0);
        // No sequence: the default.
        assert_eq!(Sampler::new(&t, Moment::BIND).sample(&track, &-1.0), -1.0);
    }

    #[test]
    fn an_interval_without_keys_gives_the_default_and_one_key_its_value() {
        let t = timeline();
        let track = linear(&[(3200, 5.0)]);
        assert_eq!(at(&t, 0, 100.0).sample(&track, &1.0), 1.0);
        assert_eq!(at(&t, 1, 0.0).sample(&track, &1.0), 5.0);
        assert_eq!(at(&t, 1, 499.0).sample(&track, &1.0), 5.0);
    }

    #[test]
    fn missing_ends_get_the_default_at_start_and_the_first_value_at_end() {
        let t = timeline();
        // Keys at 1200 and 1600 in [1000, 2000]: (1000, default 0) and (2000,
        // the first value, which is now the added default) are added.
        let track = linear(&[(1200, 4.0), (1600, 8.0)]);
        let s = |ms| at(&t, 0, ms).sample(&track, &0.0);
        assert_eq!(s(100.0), 2.0); // halfway from (1000, 0) to (1200, 4)
        assert_eq!(s(400.0), 6.0);
        assert_eq!(s(800.0), 4.0); // halfway from (1600, 8) to (2000, 0)
        let keys = SequenceKeys::new(&track, [1000, 2000], false, &0.0);
        let frames: Vec<_> = keys.keys().map(|k| (k.frame, k.value)).collect();
        assert_eq!(frames, [(1000, 0.0), (1200, 4.0), (1600, 8.0), (2000, 0.0)]);
        // With a key at start, the closing key repeats it.
        let track = linear(&[(1000, 3.0), (1500, 5.0)]);
        let keys = SequenceKeys::new(&track, [1000, 2000], false, &0.0);
        let frames: Vec<_> = keys.keys().map(|k| (k.frame, k.value)).collect();
        assert_eq!(frames, [(1000, 3.0), (1500, 5.0), (2000, 3.0)]);
    }

    #[test]
    fn a_global_sequence_wraps_on_its_own_duration() {
        let t = timeline();
        let mut track = linear(&[(0, 0.0), (400, 40.0)]);
        track.global_sequence_id = 0;
        // 1100 ms into Walk: the counter is 1100, 1100 mod 400 = 300.
        assert_eq!(at(&t, 1, 1100.0).sample(&track, &0.0), 30.0);
        // Whatever sequence plays, and with none.
        assert_eq!(at(&t, 0, 1100.0).sample(&track, &0.0), 30.0);
        let idle = Moment {
            counter: Some(450.0),
            ..Moment::BIND
        };
        assert_eq!(Sampler::new(&t, idle).sample(&track, &0.0), 5.0);
        // In the bind pose global sequences rest too.
        assert_eq!(Sampler::new(&t, Moment::BIND).sample(&track, &-2.0), -2.0);
        // A global sequence of duration 0 stays at its start.
        track.global_sequence_id = 1;
        assert_eq!(at(&t, 0, 123.0).sample(&track, &7.0), 0.0);
        // First key after the duration: that key's value throughout.
        let mut late = linear(&[(900, 9.0), (1000, 10.0)]);
        late.global_sequence_id = 0;
        assert_eq!(at(&t, 0, 10.0).sample(&late, &0.0), 9.0);
        // An id past GLBS follows the sequences.
        let mut stray = linear(&[(1000, 0.0), (2000, 10.0)]);
        stray.global_sequence_id = 7;
        assert_eq!(at(&t, 0, 500.0).sample(&stray, &0.0), 5.0);
    }

    #[test]
    fn visibility_steps_when_asked() {
        let t = timeline();
        let track = linear(&[(1000, 0.0), (2000, 1.0)]);
        let s = at(&t, 0, 900.0);
        assert_eq!(s.sample_as(&track, Interpolation::None, &1.0), 0.0);
        assert!((s.sample(&track, &1.0) - 0.9).abs() < 1e-6);
    }

    #[test]
    fn keys_out_of_order_never_panic() {
        let t = timeline();
        let track = linear(&[(1800, 8.0), (1200, 2.0), (1500, 5.0), (1500, 6.0)]);
        for ms in [0.0, 100.0, 200.0, 500.0, 700.0, 999.0, 1000.0] {
            let v = at(&t, 0, ms).sample(&track, &0.0);
            assert!(v.is_finite());
        }
    }
}
