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
//! frame, is left alone.

use crate::anim::Timeline;
use crate::anim::interpolate::between;
use crate::mdx::{Interpolation, Key, Track};

use super::value::Animated;

/// The keys of one interval: `first..=last` indices, and whether they all
/// hold one value.
struct Span {
    first: usize,
    last: usize,
    constant: bool,
}

/// Whether key `i` may go: `None` no, `Some(false)` yes as it is (only in
/// intervals of one value), `Some(true)` if the curve stays close.
fn freedom(spans: &[Span], i: usize) -> Option<bool> {
    let mut inside = false;
    let mut check = false;
    for span in spans.iter().filter(|s| s.first <= i && i <= s.last) {
        inside = true;
        if i == span.first || (!span.constant && i == span.last) {
            return None;
        }
        check |= !span.constant;
    }
    inside.then_some(check)
}

/// The frames `a.frame..b.frame` of the joined segment `a`-`b` against the
/// original keys `original` (from the one at `a.frame` to the one at
/// `b.frame`), under `interpolation`: whether each is within `tolerance`.
/// The dropped keys' own frames are tried first (the usual misfit).
fn fits<T: Animated>(
    original: &[Key<T>],
    a: &Key<T>,
    b: &Key<T>,
    interpolation: Interpolation,
    tolerance: f32,
) -> bool {
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
    key: &Key<T>,
    interpolation: Interpolation,
    factor: f64,
    out: bool,
) -> Option<Key<T>> {
    let tangent = if out { &key.out_tan } else { &key.in_tan };
    let stretched = T::stretch(interpolation, &key.value, tangent.as_ref()?, factor as f32)?;
    let mut key = key.clone();
    *(if out {
        &mut key.out_tan
    } else {
        &mut key.in_tan
    }) = Some(stretched);
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
) -> usize {
    let original = track.keys.clone();
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
    let spans: Vec<Span> = intervals
        .iter()
        .filter_map(|&[start, end]| {
            let first = original.partition_point(|k| i64::from(k.frame) < start);
            let end = original.partition_point(|k| i64::from(k.frame) <= end);
            let keys = original.get(first..end).filter(|keys| !keys.is_empty())?;
            let constant = keys
                .iter()
                .all(|k| keys.first().is_some_and(|f| f.value == k.value));
            Some(Span {
                first,
                last: end - 1,
                constant,
            })
        })
        .collect();
    let opens = |i: usize| spans.iter().any(|s| s.first == i);
    let interpolation = track.interpolation_type;
    let mut work = original.clone();
    let mut kept = vec![true; original.len()];
    for i in 0..original.len() {
        let Some(check) = freedom(&spans, i) else {
            continue;
        };
        if !check {
            if let Some(k) = kept.get_mut(i) {
                *k = false;
            }
            continue;
        }
        // Its neighbours: the last key kept before it and the next one (kept
        // so far), both inside every interval it is in.
        let Some(p) = (0..i).rev().find(|&j| kept.get(j) == Some(&true)) else {
            continue;
        };
        let n = i + 1;
        let (Some(a), Some(b), Some(key)) = (work.get(p), work.get(n), original.get(i)) else {
            continue;
        };
        // An interval of several values must keep them.
        let flattens = spans
            .iter()
            .filter(|s| !s.constant && s.first <= i && i <= s.last)
            .any(|s| {
                let mut left = (s.first..=s.last).filter(|&j| j != i && kept.get(j) == Some(&true));
                let first = left.next().and_then(|j| work.get(j));
                left.all(|j| work.get(j).map(|k| &k.value) == first.map(|k| &k.value))
            });
        if flattens {
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
        let into = if opens(n) {
            None
        } else {
            stretch(
                b,
                interpolation,
                whole / (f64::from(b.frame) - f64::from(key.frame)),
                false,
            )
        };
        let joined = [
            (out.clone(), into.clone()),
            (out, None),
            (None, into),
            (None, None),
        ];
        let original = original.get(p..=n).unwrap_or_default();
        let fit = joined.into_iter().find_map(|(x, y)| {
            let (x, y) = (
                x.unwrap_or_else(|| a.clone()),
                y.unwrap_or_else(|| b.clone()),
            );
            let fits_as = |interpolation| fits(original, &x, &y, interpolation, tolerance);
            (fits_as(interpolation) && (!stepped || fits_as(Interpolation::None))).then_some((x, y))
        });
        if let Some((x, y)) = fit {
            if let Some(slot) = work.get_mut(p) {
                *slot = x;
            }
            if let Some(slot) = work.get_mut(n) {
                *slot = y;
            }
            if let Some(k) = kept.get_mut(i) {
                *k = false;
            }
        }
    }
    let before = track.keys.len();
    track.keys = work
        .into_iter()
        .zip(kept)
        .filter_map(|(k, kept)| kept.then_some(k))
        .collect();
    before - track.keys.len()
}
