//! Sequences laid out in order on the timeline, with their keys (Reforged to
//! classic; what and why: the [module](super) docs). Every track is reached
//! through [`visit_tracks`], the one walk over a model's tracks.

use super::report::Report;
use crate::mdx::{EventTrack, KeyFrame, Model, Track};
use crate::optimize::{Animated, TrackVisitor, visit_tracks};

/// Milliseconds between the end of a sequence and the start of the next
/// one moved after it.
const GAP: u64 = 1;

/// What the sequences' intervals ask.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    /// In order already: nothing moves.
    InOrder,
    /// The new interval of each sequence.
    Move(Vec<[u32; 2]>),
    /// Laid out, the last sequence would end past `i32::MAX` ms (track
    /// frames are signed): that far.
    TooLong(u64),
}

/// Whether `intervals` need laying out and where each goes, by the rules of
/// the [module](super) docs.
fn plan(intervals: &[[u32; 2]]) -> Plan {
    let in_order = intervals.iter().enumerate().all(|(i, &[start, end])| {
        let after = match i.checked_sub(1).and_then(|p| intervals.get(p)) {
            Some(&[previous_start, previous_end]) => {
                start >= previous_end && start != previous_start
            }
            None => true,
        };
        start <= end && after
    });
    if in_order {
        return Plan::InOrder;
    }
    let mut laid = Vec::with_capacity(intervals.len());
    let mut earliest = 0u64;
    for &[start, end] in intervals {
        let new_start = u64::from(start).max(earliest);
        let new_end = new_start + u64::from(end.saturating_sub(start));
        // Track frames are signed: the new end must fit in an i32 (and
        // then both fit in a u32).
        let (Ok(_), Ok(a), Ok(b)) = (
            i32::try_from(new_end),
            u32::try_from(new_start),
            u32::try_from(new_end),
        ) else {
            return Plan::TooLong(new_end);
        };
        laid.push([a, b]);
        earliest = new_end + GAP;
    }
    Plan::Move(laid)
}

/// Moves every key with its sequence: `moves` holds each sequence's
/// interval before and after.
struct Mover<'a> {
    moves: &'a [([u32; 2], [u32; 2])],
    /// The model's global sequence count: a track with an id below it runs
    /// on its global sequence and stays.
    globals: usize,
    /// Keys in no sequence, dropped.
    dropped: usize,
    /// Copies made of keys in several sequences (a key in 3 makes 2).
    copies: usize,
    /// Tracks kept as bytes, which cannot be moved.
    unknown: Vec<String>,
}

impl Mover<'_> {
    fn follows_sequences(&self, global_sequence_id: i32) -> bool {
        usize::try_from(global_sequence_id).map_or(true, |g| g >= self.globals)
    }

    /// `keys` (`frame` gives a key's frame, `at` the key at another one)
    /// moved with their sequences, in the sequences' order; the keys in no
    /// sequence and the copies made are counted.
    fn retime<K: Copy>(
        &mut self,
        keys: &[K],
        frame: impl Fn(&K) -> i64,
        at: impl Fn(K, i64) -> K,
    ) -> Vec<K> {
        let mut out = Vec::with_capacity(keys.len());
        let mut uses = vec![0usize; keys.len()];
        for &([start, end], [new_start, _]) in self.moves {
            let (start, end) = (i64::from(start), i64::from(end));
            let shift = i64::from(new_start) - start;
            for (key, used) in keys.iter().zip(&mut uses) {
                let f = frame(key);
                if start <= f && f <= end {
                    out.push(at(*key, f + shift));
                    *used += 1;
                }
            }
        }
        self.dropped += uses.iter().filter(|&&n| n == 0).count();
        self.copies += uses.iter().map(|&n| n.saturating_sub(1)).sum::<usize>();
        out
    }
}

impl TrackVisitor for Mover<'_> {
    fn key_track<T: Animated>(
        &mut self,
        _: &str,
        track: &mut Track<T>,
        _: Option<&T>,
        _: bool,
    ) -> bool {
        if !self.follows_sequences(track.global_sequence_id) {
            return true;
        }
        let keys: Vec<KeyFrame<T>> = track.key_frames().collect();
        let moved = self.retime(
            &keys,
            |k| i64::from(k.frame),
            |k, f| KeyFrame {
                // The plan keeps every new frame within i32.
                frame: i32::try_from(f).unwrap_or(i32::MAX),
                ..k
            },
        );
        track.set_key_frames(moved);
        true
    }

    fn other_track(&mut self, _: &str, _: &mut i32) {}

    fn event_track(&mut self, _: &str, track: &mut EventTrack) {
        if !self.follows_sequences(track.global_sequence_id) {
            return;
        }
        track.tracks = self.retime(
            &track.tracks,
            |&f| i64::from(f),
            |_, f| u32::try_from(f).unwrap_or(u32::MAX),
        );
    }

    fn unknown_track(&mut self, at: &str) {
        self.unknown.push(at.to_string());
    }
}

/// Lays out the sequences of `model` in order, moving every key with its
/// sequence, and reports each sequence moved.
pub(super) fn lay_out(model: &mut Model, report: &mut Report) {
    let before: Vec<[u32; 2]> = model.sequences().iter().map(|s| s.interval).collect();
    let after = match plan(&before) {
        Plan::InOrder => return,
        Plan::Move(after) => after,
        Plan::TooLong(end) => {
            report.approximate(
                "sequences",
                format!(
                    "they overlap or are out of order, but laid out one after another they \
                     would end at {end} ms, past the {} a track's frame holds: left as they \
                     were (the classic game plays keys of one in another)",
                    i32::MAX
                ),
            );
            return;
        }
    };
    let moves: Vec<([u32; 2], [u32; 2])> =
        before.iter().copied().zip(after.iter().copied()).collect();
    let mut mover = Mover {
        moves: &moves,
        globals: model.global_sequences().len(),
        dropped: 0,
        copies: 0,
        unknown: Vec::new(),
    };
    visit_tracks(model, &mut mover);
    let (dropped, copies, unknown) = (mover.dropped, mover.copies, mover.unknown);
    for (s, (sequence, &[start, end])) in model.sequences_mut().iter_mut().zip(&after).enumerate() {
        let [was_start, was_end] = sequence.interval;
        if [was_start, was_end] == [start, end] {
            continue;
        }
        report.retime(
            format!("sequences[{s}]"),
            format!(
                "`{}` {was_start}..{was_end} moved to {start}..{end}, with its keys",
                sequence.name.to_string_lossy()
            ),
        );
        sequence.interval = [start, end];
    }
    if copies > 0 {
        report.retime(
            "sequences",
            format!("{copies} keys that several overlapping sequences played copied into each"),
        );
    }
    if dropped > 0 {
        report.drop(
            "sequences",
            format!(
                "{dropped} keys outside every sequence (they never play, and a sequence moved \
                 there would play them)"
            ),
        );
    }
    for at in unknown {
        report.approximate(
            at,
            "a track of a tag no definition knows, kept as bytes: its keys are not moved with \
             their sequences",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_move_only_as_far_as_order_needs() {
        // In order (touching counts as in order): nothing moves.
        assert_eq!(plan(&[[0, 100], [100, 200], [300, 400]]), Plan::InOrder);
        // A doodad's Birth, Stand and Death over one another.
        assert_eq!(
            plan(&[[0, 1633], [0, 1633], [0, 1633]]),
            Plan::Move(vec![[0, 1633], [1634, 3267], [3268, 4901]])
        );
        // Out of time order: the later ones keep their place when they can.
        assert_eq!(
            plan(&[[5000, 6000], [0, 1000], [9000, 9500], [8000, 8100]]),
            Plan::Move(vec![[5000, 6000], [6001, 7001], [9000, 9500], [9501, 9601]])
        );
        // A 0 ms sequence and one starting where it does; one ending
        // before it starts (0 ms after).
        assert_eq!(
            plan(&[[10, 10], [10, 20]]),
            Plan::Move(vec![[10, 10], [11, 21]])
        );
        assert_eq!(
            plan(&[[0, 100], [300, 200]]),
            Plan::Move(vec![[0, 100], [300, 300]])
        );
        // Past what a track's signed frame holds.
        let long = [[0, u32::MAX - 1], [0, 10]];
        assert!(matches!(plan(&long), Plan::TooLong(_)));
    }
}
