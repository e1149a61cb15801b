//! One track's keys thinned: a key goes when the curve without it stays
//! within the tolerance of the curve with it at every integer frame it
//! spans, as the [`Sampler`](crate::anim::Sampler) samples both.
//!
//! Which keys may go, interval by interval (each sequence's, or the track's
//! global sequence's `[0, duration]`), so that every interval is sampled as
//! before:
//!
//! - In an interval whose keys all hold one value (sampled as that value
//!   throughout), every key but the first.
//! - In any other, only keys strictly between its first and last: those
//!   two decide the added keys at the interval's ends (sampler rule 3), and
//!   the interval must not become one of equal values (rule 2).
//! - A key in several intervals (overlapping sequences) must be free to go
//!   in each; a key in none (outside every sequence) stays.
//!
//! Dropping a key joins the two segments around it. Hermite and bezier
//! tangents are per segment, so the joined segment's outer tangents are
//! stretched to the longer segment ([`Animated::stretch`]), which makes a
//! key on one cubic go exactly; unstretched tangents are tried too, and
//! rotations keep theirs. Tracks the game steps (visibility) must fit both
//! stepped and as declared. A track with keys out of order, or two at one
//! frame, is left alone, and so is a key whose neighbours are more than
//! [`MAX_SPAN`] ms apart (checking would take too long; no real track has
//! such a gap inside a sequence).

use crate::anim::Timeline;
use crate::anim::interpolate::between;
use crate::mdx::{Interpolation, KeyFrame, Track};

use super::value::Animated;

/// The longest joined segment tried, in milliseconds (17 minutes).
pub const MAX_SPAN: i64 = 1 << 20;

/// The keys of one interval: `first..=last` indices, whether they all
/// hold one value, and how many kept keys differ from the first's value (an
/// interval of several values must keep two).
struct Span {
    first: usize,
    last: usize,
    constant: bool,
    differing: usize,
}

impl Span {
    fn holds(&self, i: usize) -> bool {
        self.first <= i && i <= self.last
    }
}

/// Whether key `i` may go: `None` no, `Some(false)` yes as it is (only in
/// intervals of one value), `Some(true)` if the curve stays close.
fn freedom(spans: &[Span], i: usize) -> Option<bool> {
    let mut inside = false;
    let mut check = false;
    for span in spans.iter().filter(|s| s.holds(i)) {
        inside = true;
        if i == span.first || (!span.constant && i == span.last) {
            return None;
        }
        check |= !span.constant;
    }
    inside.then_some(check)
}

/// How many frame evaluations [`thin`] may still spend on one model: a
/// damaged file's keys can ask for billions; real models need a few million.
pub(crate) struct Budget(pub(crate) u64);

/// The frames `a.frame..b.frame` of the joined segment `a`-`b` against the
/// original keys `original` (from the one at `a.frame` to the one at
/// `b.frame`), under `interpolation`: whether each is within `tolerance`.
/// The dropped keys' own frames are tried first (the usual misfit). `false`
/// when the budget cannot pay for the frames.
fn fits<T: Animated>(
    original: &[KeyFrame<T>],
    a: &KeyFrame<T>,
    b: &KeyFrame<T>,
    interpolation: Interpolation,
    tolerance: f32,
    budget: &mut Budget,
) -> bool {
    let frames = (i64::from(b.frame) - i64::from(a.frame)).unsigned_abs() + original.len() as u64;
    if frames > budget.0 {
        return false;
    }
    budget.0 -= frames;
    let close = |k: usize, frame: i64| {
        let (Some(x), Some(y)) = (original.get(k), original.get(k + 1)) else {
            return false;
        };
        let frame = frame as f64;
        let before = between(interpolation, x, y, frame);
        let after = between(interpolation, a, b, frame);
        T::distance(&before, &after) <= tolerance
    };
    let inner = original.len().saturating_sub(1);
    if !(1..inner).all(|k| {
        original
            .get(k)
            .is_some_and(|key| close(k, i64::from(key.frame)))
    }) {
        return false;
    }
    let mut k = 0;
    for frame in i64::from(a.frame)..i64::from(b.frame) {
        while original
            .get(k + 1)
            .is_some_and(|key| i64::from(key.frame) <= frame)
        {
            k += 1;
        }
        if !close(k, frame) {
            return false;
        }
    }
    true
}

/// `key` with its out (or in) tangent stretched by `factor`, if it has one
/// that stretches.
fn stretch<T: Animated>(
    key: &KeyFrame<T>,
    interpolation: Interpolation,
    factor: f64,
    out: bool,
) -> Option<KeyFrame<T>> {
    let mut key = *key;
    let tangents = key.tangents.as_mut()?;
    let tangent = if out {
        &mut tangents.out_tan
    } else {
        &mut tangents.in_tan
    };
    *tangent = T::stretch(interpolation, &key.value, tangent, factor as f32)?;
    Some(key)
}

/// Drops the keys of `track` that its intervals in `timeline` do not need
/// (see the [module](self) docs); `stepped` for tracks the game steps.
/// Returns how many went.
pub(crate) fn thin<T: Animated>(
    track: &mut Track<T>,
    stepped: bool,
    timeline: &Timeline,
    tolerance: f32,
    budget: &mut Budget,
) -> usize {
    let original: Vec<KeyFrame<T>> = track.key_frames().collect();
    let frames = original.iter().map(|k| k.frame);
    if !frames.clone().zip(frames.skip(1)).all(|(a, b)| a < b) {
        return 0;
    }
    let intervals: Vec<[i64; 2]> = match timeline.global_duration(track.global_sequence_id) {
        Some(duration) => vec![[0, i64::from(duration)]],
        None => timeline
            .sequences
            .iter()
            .map(|s| s.interval.map(i64::from))
            .collect(),
    };
    let mut spans: Vec<Span> = intervals
        .iter()
        .filter_map(|&[start, end]| {
            let first = original.partition_point(|k| i64::from(k.frame) < start);
            let end = original.partition_point(|k| i64::from(k.frame) <= end);
            let keys = original.get(first..end).filter(|keys| !keys.is_empty())?;
            let head = keys.first().map(|k| &k.value);
            let differing = keys.iter().filter(|k| Some(&k.value) != head).count();
            Some(Span {
                first,
                last: end - 1,
                constant: differing == 0,
                differing,
            })
        })
        .collect();
    // The keys that open an interval.
    let mut opens = vec![false; original.len()];
    for span in &spans {
        if let Some(o) = opens.get_mut(span.first) {
            *o = true;
        }
    }
    let interpolation = track.interpolation_type;
    let mut work = original.clone();
    let mut kept = vec![true; original.len()];
    // The last key kept so far: the one before the key looked at.
    let mut previous: Option<usize> = None;
    for i in 0..original.len() {
        let remove = |kept: &mut Vec<bool>, spans: &mut Vec<Span>| {
            if let Some(k) = kept.get_mut(i) {
                *k = false;
            }
            let value = original.get(i).map(|k| &k.value);
            for span in spans.iter_mut().filter(|s| s.holds(i)) {
                if value != original.get(span.first).map(|k| &k.value) {
                    span.differing = span.differing.saturating_sub(1);
                }
            }
        };
        let Some(check) = freedom(&spans, i) else {
            previous = Some(i);
            continue;
        };
        if !check {
            remove(&mut kept, &mut spans);
            continue;
        }
        // Its neighbours: the last key kept before it and the next one (kept
        // so far), both inside every interval it is in.
        let (Some(p), n) = (previous, i + 1) else {
            previous = Some(i);
            continue;
        };
        let (Some(a), Some(b), Some(key)) = (work.get(p), work.get(n), original.get(i)) else {
            previous = Some(i);
            continue;
        };
        // An interval of several values must keep them: it would be left
        // with none differing from its first.
        let value = &key.value;
        let flattens = spans.iter().filter(|s| !s.constant && s.holds(i)).any(|s| {
            let differs = original.get(s.first).is_some_and(|f| &f.value != value);
            s.differing == usize::from(differs)
        });
        if flattens || i64::from(b.frame) - i64::from(a.frame) > MAX_SPAN {
            previous = Some(i);
            continue;
        }
        let whole = f64::from(b.frame) - f64::from(a.frame);
        let out = stretch(
            a,
            interpolation,
            whole / (f64::from(key.frame) - f64::from(a.frame)),
            true,
        );
        // The first key of an interval lends its tangents to the key added
        // at that interval's end (rule 3): its in tangent stays.
        let into = if opens.get(n) == Some(&true) {
            None
        } else {
            stretch(
                b,
                interpolation,
                whole / (f64::from(b.frame) - f64::from(key.frame)),
                false,
            )
        };
        // Both stretched, either, neither (each pair once).
        let mut joined = vec![(out, into)];
        if out.is_some() && into.is_some() {
            joined.push((out, None));
            joined.push((None, into));
        }
        if joined.last() != Some(&(None, None)) {
            joined.push((None, None));
        }
        let original = original.get(p..=n).unwrap_or_default();
        let fit = joined.into_iter().find_map(|(x, y)| {
            let (x, y) = (x.unwrap_or(*a), y.unwrap_or(*b));
            let mut fits_as =
                |interpolation| fits(original, &x, &y, interpolation, tolerance, budget);
            (fits_as(interpolation) && (!stepped || fits_as(Interpolation::None))).then_some((x, y))
        });
        match fit {
            Some((x, y)) => {
                if let Some(slot) = work.get_mut(p) {
                    *slot = x;
                }
                if let Some(slot) = work.get_mut(n) {
                    *slot = y;
                }
                remove(&mut kept, &mut spans);
            }
            None => previous = Some(i),
        }
    }
    let before = track.keys.len();
    track.set_key_frames(
        work.into_iter()
            .zip(kept)
            .filter_map(|(k, kept)| kept.then_some(k)),
    );
    before - track.keys.len()
}
