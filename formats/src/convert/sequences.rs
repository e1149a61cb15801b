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

/// The most keys a layout may make in all (copies of keys several
/// sequences share included): more is a file made to explode (10,000
/// sequences over one another), left as it was.
const MAX_KEYS: usize = 16_000_000;

/// Moves every key with its sequence (`moves`: each sequence's interval
/// before and after), or, `counting`, only counts what it would make.
struct Mover<'a> {
    moves: &'a [([u32; 2], [u32; 2])],
    /// The model's global sequence count: a track with an id below it runs
    /// on its global sequence and stays.
    globals: usize,
    counting: bool,
    /// Keys made.
    made: usize,
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
    /// moved with their sequences, in the sequences' order (in each, in file
    /// order); the keys made, those in no sequence and the copies are
    /// counted. Counting, only the keys made are.
    fn retime<K: Copy>(
        &mut self,
        keys: &[K],
        frame: impl Fn(&K) -> i64,
        at: impl Fn(K, i64) -> K,
    ) -> Vec<K> {
        let mut order: Vec<(i64, usize)> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (frame(k), i))
            .collect();
        order.sort_unstable();
        let mut out = Vec::new();
        let mut uses = vec![0usize; keys.len()];
        for &([start, end], [new_start, _]) in self.moves {
            let (start, end) = (i64::from(start), i64::from(end));
            let from = order.partition_point(|&(f, _)| f < start);
            let to = order.partition_point(|&(f, _)| f <= end);
            self.made += to.saturating_sub(from);
            if self.counting {
                continue;
            }
            // File order, as the sampler plays keys that are out of order.
            let mut inside = order.get(from..to).unwrap_or_default().to_vec();
            inside.sort_unstable_by_key(|&(_, i)| i);
            for &(f, i) in &inside {
                if let Some(used) = uses.get_mut(i) {
                    *used += 1;
                }
                if let Some(&key) = keys.get(i) {
                    out.push(at(key, f - start + i64::from(new_start)));
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
        if !self.counting {
            track.set_key_frames(moved);
        }
        true
    }

    fn other_track(&mut self, _: &str, _: &mut i32) {}

    fn event_track(&mut self, _: &str, track: &mut EventTrack) {
        if !self.follows_sequences(track.global_sequence_id) {
            return;
        }
        let moved = self.retime(
            &track.tracks,
            |&f| i64::from(f),
            |_, f| u32::try_from(f).unwrap_or(u32::MAX),
        );
        if !self.counting {
            track.tracks = moved;
        }
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
        counting: true,
        made: 0,
        dropped: 0,
        copies: 0,
        unknown: Vec::new(),
    };
    visit_tracks(model, &mut mover);
    if mover.made > MAX_KEYS {
        report.approximate(
            "sequences",
            format!(
                "they overlap or are out of order, but laid out one after another with a copy \
                 of each key for each sequence that plays it they would need {} keys (at most \
                 {MAX_KEYS}): left as they were (the classic game plays keys of one in another)",
                mover.made
            ),
        );
        return;
    }
    let mut mover = Mover {
        counting: false,
        made: 0,
        dropped: 0,
        copies: 0,
        unknown: Vec::new(),
        ..mover
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
    use crate::mdx::{Key, NodeTrack};

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

    #[test]
    fn a_layout_that_would_explode_is_not_made() {
        // 4,000 sequences over one another and a track of 5,000 keys in
        // each: 20 million keys laid out.
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        let first = model.sequences()[0];
        *model.sequences_mut() = vec![first; 4000];
        let keys = (0..5000)
            .map(|i| Key::new(i / 5, [0.0, 0.0, 1.0]))
            .collect();
        model.bones_mut()[0].node.tracks = vec![NodeTrack::Translation(Track::new(
            crate::mdx::Interpolation::Linear,
            keys,
        ))];
        let before = model.clone();
        let mut report = Report::default();
        lay_out(&mut model, &mut report);
        assert_eq!(model, before);
        assert!(
            report.approximated[0].what.contains("20000000 keys"),
            "{report}"
        );
        // 3 of them: laid out, each with its copy of the keys.
        model.sequences_mut().truncate(3);
        lay_out(&mut model, &mut report);
        let NodeTrack::Translation(track) = &model.bones()[0].node.tracks[0] else {
            unreachable!()
        };
        assert_eq!(track.keys.len(), 15000);
        assert_eq!(report.moved.len(), 3, "{report}");
    }
}
