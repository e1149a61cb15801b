//! Global sequences no track uses, removed, and every track's id renumbered.

use std::collections::BTreeSet;

use super::tracks::{TrackVisitor, visit_tracks};
use super::value::Animated;
use crate::mdx::{Chunk, Model, Track};

/// Calls `f` on the global sequence id of every track, and notes whether a
/// track kept as bytes (whose id cannot be seen) was met.
struct EachId<F> {
    f: F,
    unknown: bool,
}

impl<F: FnMut(&mut i32)> TrackVisitor for EachId<F> {
    fn key_track<T: Animated>(
        &mut self,
        _: &str,
        t: &mut Track<T>,
        _: Option<&T>,
        _: bool,
    ) -> bool {
        (self.f)(&mut t.global_sequence_id);
        true
    }

    fn other_track(&mut self, _: &str, id: &mut i32) {
        (self.f)(id);
    }

    fn unknown_track(&mut self, _: &str) {
        self.unknown = true;
    }
}

/// `f` on every track's global sequence id; whether a hidden one was met.
fn each_id(model: &mut Model, f: impl FnMut(&mut i32)) -> bool {
    let mut each = EachId { f, unknown: false };
    visit_tracks(model, &mut each);
    each.unknown
}

/// Removes the global sequences no track names and renumbers the tracks'
/// ids; a `GLBS` left empty goes. Returns the removed ids (as they were).
/// Nothing is removed when a track kept as bytes (an unknown tag) could
/// name one.
pub(crate) fn remove_unused(model: &mut Model) -> Vec<usize> {
    let count = model.global_sequences().len();
    if count == 0 {
        return Vec::new();
    }
    let mut ids = BTreeSet::new();
    if each_id(model, |id| {
        ids.insert(*id);
    }) {
        return Vec::new();
    }
    let used = |i: usize| i32::try_from(i).is_ok_and(|i| ids.contains(&i));
    let unused: Vec<usize> = (0..count).filter(|&i| !used(i)).collect();
    if unused.is_empty() {
        return unused;
    }
    // The new id of each global sequence that stays; ids that name none
    // (-1, or past GLBS) stay as they are, past the end of the shorter GLBS.
    let mut next = 0;
    let renumbered: Vec<Option<i32>> = (0..count)
        .map(|i| {
            used(i).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect();
    each_id(model, |id| {
        let new = usize::try_from(*id).ok().and_then(|i| renumbered.get(i));
        if let Some(Some(new)) = new {
            *id = *new;
        }
    });
    let kept: Vec<u32> = model
        .global_sequences()
        .iter()
        .enumerate()
        .filter(|(i, _)| used(*i))
        .map(|(_, d)| *d)
        .collect();
    let first = model
        .chunks
        .iter()
        .position(|c| matches!(c, Chunk::GlobalSequences(_)));
    if let (true, Some(first)) = (kept.is_empty(), first) {
        model.chunks.remove(first);
    } else {
        *model.global_sequences_mut() = kept;
    }
    unused
}
