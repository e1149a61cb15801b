//! Writing what offsets point at: anchors of the lists being written, offsets
//! into the enclosing list patched once it is written, and parts placed by
//! offset inside a region, laid out afresh or where a file had them.
//!
//! A region is written in two phases, as `object`'s writers do: the inline
//! part first, with every offset and size of a placed part reserved (a
//! *slot*); then the placed parts one after the other, each slot patched as
//! its part lands. If the value keeps a [`Placement`] from the file it was
//! read from, and that placement still fits (the same parts with the same
//! lengths, overlapping parts agreeing on their shared bytes), the freshly
//! written region is then rearranged into it, slots re-patched, and the gaps
//! put back: an unedited value comes out byte for byte.

use alloc::format;
use alloc::vec;
use alloc::vec::Vec;

use crate::anchor::{Anchor, Siblings};
use crate::kept::{KeptValue, Placement};
use crate::{Error, FourCC, Result, SizeSlot, Writer};

/// What a `parent[...]` offset or size names in the enclosing list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SiblingTarget {
    /// The element's tag.
    pub tag: FourCC,
    /// Which element with that tag (`None`: the first).
    pub nth: Option<usize>,
    /// An offset from `base` (`Some`), or a length (`None`).
    pub base: Option<usize>,
    /// For a length: bytes not counted (8 for a chunk's body without its header).
    pub minus: usize,
}

impl SiblingTarget {
    /// The value the enclosing list's elements give (`None`: no such element,
    /// or no list).
    pub fn derive(&self, siblings: Option<&Siblings>) -> Option<u32> {
        let found = siblings?.nth(self.tag, self.nth.unwrap_or(0))?;
        let value = match self.base {
            Some(base) => found.start.checked_sub(base)?,
            None => found.len.checked_sub(self.minus)?,
        };
        u32::try_from(value).ok()
    }
}

/// A `parent[...]` value waiting for the enclosing list.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pending {
    slot: SizeSlot,
    target: SiblingTarget,
    kept: Option<KeptValue>,
    /// The struct it belongs to: its values are kept or derived together.
    group: usize,
}

/// A region being written.
#[derive(Debug, Clone, Default)]
pub(crate) struct WriteRegion {
    start: usize,
    inline_end: Option<usize>,
    targets: Vec<(usize, usize)>,
    patches: Vec<Patch>,
}

/// A slot patched with where a placed part landed.
#[derive(Debug, Clone, Copy)]
struct Patch {
    slot: usize,
    target: usize,
    /// `Some(base)`: an offset from `base`; `None`: the part's length.
    base: Option<usize>,
}

/// The reserved slots of one value's placed parts, taken in the order the
/// value reserved them (generated code; see [`Writer::push_slot`]).
#[derive(Debug)]
pub struct Slots {
    next: usize,
}

impl Slots {
    /// The slots reserved from `mark` on.
    pub fn from_mark(mark: usize) -> Self {
        Slots { next: mark }
    }

    /// The next reserved position, as a plain number (a value's own start).
    pub fn take_pos(&mut self, w: &Writer) -> Result<usize> {
        self.take(w).map(SizeSlot::offset)
    }

    /// The next reserved slot.
    pub fn take(&mut self, w: &Writer) -> Result<SizeSlot> {
        let slot = w.slots.get(self.next).copied().ok_or_else(|| {
            Error::inconsistent(
                w.pos(),
                "a placed part has no reserved offset (written without its inline part)",
            )
        })?;
        self.next += 1;
        Ok(SizeSlot::at(slot))
    }
}

fn u32_of(n: usize, w: &Writer) -> Result<u32> {
    u32::try_from(n)
        .map_err(|_| Error::inconsistent(w.pos(), format!("offset {n} does not fit in a u32")))
}

impl Writer {
    /// Records that an element of a list being written starts at `start` and
    /// is `len` bytes long (see [`Reader::push_anchor`](crate::Reader::push_anchor)).
    #[inline]
    pub fn push_anchor(&mut self, tag: FourCC, start: usize, len: usize) {
        self.anchors.push(Anchor { tag, start, len });
    }

    /// How many anchors are recorded.
    #[inline]
    pub fn anchor_mark(&self) -> usize {
        self.anchors.len()
    }

    /// The anchors recorded from `mark` to `end`.
    #[inline]
    pub fn anchors(&self, mark: usize, end: usize) -> &[Anchor] {
        self.anchors.get(mark..end).unwrap_or_default()
    }

    /// Forgets the anchors recorded from `mark` on.
    #[inline]
    pub fn truncate_anchors(&mut self, mark: usize) {
        self.anchors.truncate(mark);
    }

    /// Writes a list with `body`, which records each element's anchor
    /// ([`push_anchor`](Self::push_anchor)); then patches the `parent[...]`
    /// offsets and sizes its elements deferred ([`defer_to_sibling`](Self::defer_to_sibling)).
    pub fn with_siblings(&mut self, body: impl FnOnce(&mut Self) -> Result<()>) -> Result<()> {
        let (pending_mark, anchor_mark) = (self.pending.len(), self.anchors.len());
        self.sibling_depth += 1;
        let written = body(self);
        self.sibling_depth -= 1;
        written?;
        let pending = self.pending.split_off(pending_mark.min(self.pending.len()));
        let siblings = Siblings::new(self.anchors.get(anchor_mark..).unwrap_or_default().to_vec());
        let derived: Vec<Option<u32>> = pending
            .iter()
            .map(|p| p.target.derive(Some(&siblings)))
            .collect();
        // A struct's values are written as read only if every one of them
        // still derives to what it did (see `Kept`): one verdict per group.
        let mut verdicts: Vec<(usize, bool)> = pending
            .iter()
            .zip(&derived)
            .map(|(p, now)| (p.group, p.kept.is_some_and(|k| k.derived == *now)))
            .collect();
        verdicts.sort_unstable_by_key(|(group, _)| *group);
        verdicts.dedup_by(|next, kept| {
            let same = next.0 == kept.0;
            if same {
                kept.1 &= next.1;
            }
            same
        });
        let unchanged = |group: usize| {
            verdicts
                .binary_search_by_key(&group, |(g, _)| *g)
                .ok()
                .and_then(|i| verdicts.get(i))
                .is_some_and(|(_, ok)| *ok)
        };
        for (p, now) in pending.iter().zip(&derived) {
            let value = match p.kept {
                Some(kept) if unchanged(p.group) => kept.raw,
                _ => now.unwrap_or(0),
            };
            self.patch_u32(p.slot, value)?;
        }
        self.anchors.truncate(anchor_mark);
        Ok(())
    }

    /// A new group id for [`defer_to_sibling`](Self::defer_to_sibling): the
    /// values of one struct, kept or derived together.
    pub fn new_group(&mut self) -> usize {
        self.groups += 1;
        self.groups
    }

    /// Leaves `slot` to be patched with what `target` gives once the enclosing
    /// list is written ([`with_siblings`](Self::with_siblings)); `kept` is what
    /// the file said, written instead while every value of `group` still
    /// derives to what it did. Outside such a list the slot gets what an
    /// absent target gets.
    pub fn defer_to_sibling(
        &mut self,
        slot: SizeSlot,
        target: SiblingTarget,
        kept: Option<KeptValue>,
        group: usize,
    ) -> Result<()> {
        // A list owner is writing: wait for it. Otherwise there is no list.
        if self.in_sibling_list() {
            self.pending.push(Pending {
                slot,
                target,
                kept,
                group,
            });
            Ok(())
        } else {
            let value = kept.filter(|k| k.derived.is_none()).map_or(0, |k| k.raw);
            self.patch_u32(slot, value)
        }
    }

    fn in_sibling_list(&self) -> bool {
        self.sibling_depth > 0
    }

    /// Reserves a slot for a placed part's offset or size, to be taken by the
    /// same value's placing phase ([`Slots::take`]).
    #[inline]
    pub fn push_slot(&mut self, slot: SizeSlot) {
        self.slots.push(slot.offset());
    }

    /// Pushes a position for the same value's placing phase to take
    /// ([`Slots::take_pos`]): where a value with placed parts starts.
    #[inline]
    pub fn push_pos(&mut self, pos: usize) {
        self.slots.push(pos);
    }

    /// How many slots are reserved: where one value's slots start.
    #[inline]
    pub fn slot_mark(&self) -> usize {
        self.slots.len()
    }

    /// Forgets the slots reserved from `mark` on.
    #[inline]
    pub fn truncate_slots(&mut self, mark: usize) {
        self.slots.truncate(mark);
    }

    /// Starts a region whose parts are placed by offset; returns its id.
    pub fn begin_region(&mut self) -> usize {
        self.regions.push(WriteRegion {
            start: self.pos(),
            ..WriteRegion::default()
        });
        self.regions.len() - 1
    }

    /// Marks the end of the innermost region's inline part.
    pub fn region_inline_end(&mut self) {
        let pos = self.pos();
        if let Some(region) = self.regions.last_mut() {
            region.inline_end = Some(pos);
        }
    }

    /// A placed part starts here; returns its id in the innermost region.
    pub fn target_begin(&mut self) -> Option<usize> {
        let pos = self.pos();
        self.regions.last_mut().map(|region| {
            region.targets.push((pos, 0));
            region.targets.len() - 1
        })
    }

    /// Placed part `id` (its inline bytes) ends here.
    pub fn target_end(&mut self, id: Option<usize>) {
        let pos = self.pos();
        if let Some(target) = id
            .zip(self.regions.last_mut())
            .and_then(|(id, region)| region.targets.get_mut(id))
        {
            target.1 = pos - target.0;
        }
    }

    /// Patches `slot` with the offset from `base` of a placed part that starts
    /// at `start` (`Some(base)`), or with its length `len` (`None`), and
    /// remembers the slot so that a kept placement can re-patch it.
    pub fn patch_placed(
        &mut self,
        slot: SizeSlot,
        target: Option<usize>,
        start: usize,
        len: usize,
        base: Option<usize>,
    ) -> Result<()> {
        let value = match base {
            Some(base) => start.checked_sub(base).ok_or_else(|| {
                Error::inconsistent(
                    start,
                    format!("a placed part at {start:#x} lies before its base {base:#x}"),
                )
            })?,
            None => len,
        };
        let value = u32_of(value, self)?;
        self.patch_u32(slot, value)?;
        if let (Some(target), Some(region)) = (target, self.regions.last_mut()) {
            region.patches.push(Patch {
                slot: slot.offset(),
                target,
                base,
            });
        }
        Ok(())
    }

    /// Ends region `id` (the innermost): if `kept` is the placement a file had
    /// and it still fits what was written, the region is rearranged into it.
    pub fn end_region(&mut self, id: usize, kept: Option<&Placement>) -> Result<()> {
        if self.regions.len() != id + 1 {
            return Err(Error::inconsistent(
                self.pos(),
                "a region ended while an inner one was still open",
            ));
        }
        let Some(region) = self.regions.pop() else {
            return Err(Error::inconsistent(self.pos(), "no region to end"));
        };
        if let Some(kept) = kept
            && let Some(bytes) = replay(&self.buf, &region, kept)
        {
            self.buf.truncate(region.start);
            self.buf.extend_from_slice(&bytes);
        }
        Ok(())
    }
}

/// The region laid out as `kept` says, if it fits what was written; `None`
/// otherwise (the fresh layout stands).
fn replay(buf: &[u8], region: &WriteRegion, kept: &Placement) -> Option<Vec<u8>> {
    let start = region.start;
    let fresh = buf.get(start..)?;
    let inline_len = region.inline_end.unwrap_or(buf.len()).checked_sub(start)?;
    let same_shape = kept.inline_len as usize == inline_len
        && kept.targets.len() == region.targets.len()
        && kept
            .targets
            .iter()
            .zip(&region.targets)
            .all(|(k, t)| k.1 as usize == t.1);
    if !same_shape {
        return None;
    }
    // Where a byte of the fresh layout goes in the kept one (relative positions).
    let moved = |pos: usize| -> Option<usize> {
        let rel = pos.checked_sub(start)?;
        if rel < inline_len {
            return Some(rel);
        }
        let i = region
            .targets
            .partition_point(|t| t.0 <= pos)
            .checked_sub(1)?;
        let (at, len) = *region.targets.get(i)?;
        let (kept_at, _) = *kept.targets.get(i)?;
        (pos < at + len).then(|| kept_at as usize + (pos - at))
    };
    // Re-patch the slots in a copy of the fresh bytes, with kept positions.
    let mut fresh = fresh.to_vec();
    for patch in &region.patches {
        let value = match patch.base {
            Some(base) => {
                let (kept_at, _) = *kept.targets.get(patch.target)?;
                // A base inside the region moves with it; one outside (the
                // file's start, for absolute offsets) stays put.
                let base = match moved(base) {
                    Some(rel) => start + rel,
                    None => base,
                };
                (start + kept_at as usize).checked_sub(base)?
            }
            None => region.targets.get(patch.target)?.1,
        };
        let value = u32::try_from(value).ok()?;
        let slot = patch.slot.checked_sub(start)?;
        fresh
            .get_mut(slot..slot + 4)?
            .copy_from_slice(&value.to_le_bytes());
    }
    // Lay the parts out where they were, overlaps agreeing.
    let len = kept.len as usize;
    let mut out = vec![0u8; len];
    let mut covered = vec![false; len];
    let mut place = |at: usize, bytes: &[u8]| -> Option<()> {
        let dest = out.get_mut(at..at + bytes.len())?;
        let mask = covered.get_mut(at..at + bytes.len())?;
        for ((d, c), b) in dest.iter_mut().zip(mask.iter_mut()).zip(bytes) {
            if *c && *d != *b {
                return None;
            }
            *d = *b;
            *c = true;
        }
        Some(())
    };
    place(0, fresh.get(..inline_len)?)?;
    for ((at, len), (kept_at, _)) in region.targets.iter().zip(&kept.targets) {
        let rel = at.checked_sub(start)?;
        place(*kept_at as usize, fresh.get(rel..rel + len)?)?;
    }
    for (at, bytes) in &kept.gaps {
        place(*at as usize, bytes)?;
    }
    covered.iter().all(|c| *c).then_some(out)
}
