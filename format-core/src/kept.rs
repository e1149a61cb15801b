//! What a file said that a fresh layout of the same data would not give, kept
//! so that an unedited value writes back byte for byte.
//!
//! Offsets, sizes and counts are derived on write from where things really
//! are (`#[format(offset(...))]`, `#[format(size(...))]`, `#[format(calc = ...)]`).
//! Real files do not always agree with their own layout: an MCIN size 8 bytes
//! short, an `ofsShadow` pointing at another sub-chunk, mipmap levels with a gap
//! before them or overlapping the palette. A struct with a `#[format(kept)]`
//! field records, while it is read, only what differs:
//!
//! - **values** ([`KeptValue`]): when one of a struct's derived fields holds
//!   a value on disk that its data does not give, every derived value of the
//!   struct is recorded with what the data gave. They are written back as read
//!   *as long as the data still gives what it gave when read*, all of them
//!   together: once one of them changes (a target moved, grew, appeared or went
//!   away), every one is derived afresh. Values resolved at different times
//!   form separate groups: those of the struct's own fields and lists (at the
//!   struct's end), those into the enclosing list (once it is written). An
//!   entry of a table of placed parts without a part keeps what the file had
//!   while it stays without one.
//! - **placement** ([`Placement`]): for a `#[format(region)]` whose parts are
//!   placed by offset, where each part was and the bytes between them, when
//!   that differs from laying the parts out one after the other. It is replayed
//!   on write while it still fits the data (the same number of parts, each of
//!   the length it had, overlapping parts agreeing on their shared bytes);
//!   otherwise the region is laid out afresh and every offset follows.
//!
//! A value built in code, or read from a file whose layout is the fresh one,
//! keeps nothing: it compares equal to itself written and read back.

use alloc::boxed::Box;
use alloc::vec::Vec;

/// One derived value that a file wrote differently from what its data gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KeptValue {
    /// Which derived value of the struct (declaration order; an array of
    /// offsets takes one slot per element).
    pub slot: u16,
    /// The value on disk.
    pub raw: u32,
    /// What the data gave when it was read (`None`: the target was absent).
    pub derived: Option<u32>,
}

/// Where the parts of a region were placed, when that differs from a fresh
/// layout (see the [module](self) docs). Positions are relative to the start
/// of the region.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Placement {
    /// The region's length.
    pub len: u32,
    /// The length of its inline part (what is read in sequence from its start).
    pub inline_len: u32,
    /// `(start, length)` of each placed part, in the order the parts are read
    /// and written (each part before the parts it places itself).
    pub targets: Vec<(u32, u32)>,
    /// Bytes that neither the inline part nor any placed part covers, by start.
    #[cfg_attr(feature = "serde", serde(with = "gap_bytes"))]
    pub gaps: Vec<(u32, Vec<u8>)>,
}

/// THE decision, for the values of one group (one struct's values resolved
/// together, or one value alone): `(kept, now)` pairs, each what the file said
/// (if kept) and what the data gives now. True when at least one value is
/// kept and every kept value still derives to what it did when read: then
/// they are written as read. Every offset, size and count the writer derives
/// is decided here ([`Writer`](crate::Writer)'s reservations, computed
/// counts), so "why was this value written as read?" has one answer.
pub fn group_holds(values: impl IntoIterator<Item = (Option<KeptValue>, Option<u32>)>) -> bool {
    let mut verdict = Verdict::new();
    for (kept, now) in values {
        verdict.add(kept, now);
        if verdict.changed {
            return false;
        }
    }
    verdict.holds()
}

/// [`group_holds`] taken one value at a time, for a writer that decides a
/// group's values as they come: the same decision, the same answer.
///
/// ```
/// use format_core::{KeptValue, kept::{self, Verdict}};
/// let kept = Some(KeptValue { slot: 0, raw: 428, derived: Some(436) });
/// let mut verdict = Verdict::new();
/// verdict.add(kept, Some(436));
/// verdict.add(None, Some(7));
/// assert!(verdict.holds());
/// assert_eq!(verdict.holds(), kept::group_holds([(kept, Some(436)), (None, Some(7))]));
/// verdict.add(kept, Some(440));
/// assert!(!verdict.holds());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Verdict {
    kept: bool,
    changed: bool,
}

impl Verdict {
    /// No value yet (does not hold: nothing is kept).
    pub const fn new() -> Self {
        Verdict {
            kept: false,
            changed: false,
        }
    }

    /// Takes one more value of the group: what the file said (if kept) and
    /// what the data gives now.
    #[inline]
    pub fn add(&mut self, kept: Option<KeptValue>, now: Option<u32>) {
        if let Some(kept) = kept {
            self.kept = true;
            self.changed |= kept.derived != now;
        }
    }

    /// True when at least one value taken is kept and every kept value still
    /// derives to what it did when read (see [`group_holds`]).
    #[inline]
    pub fn holds(self) -> bool {
        self.kept && !self.changed
    }

    /// True once a kept value taken no longer derives to what it did: the
    /// group does not hold, whatever comes after.
    #[inline]
    pub fn changed(self) -> bool {
        self.changed
    }
}

/// The value written for one derived value: what the file said while its
/// group [holds](group_holds), else what the data gives (0 for an absent target).
#[inline]
pub fn decide(kept: Option<KeptValue>, now: Option<u32>, holds: bool) -> u32 {
    match kept {
        Some(kept) if holds => kept.raw,
        _ => now.unwrap_or(0),
    }
}

/// What a file said that a fresh layout would not give; see the [module](self) docs.
///
/// ```
/// use format_core::{Kept, kept};
///
/// let mut kept = Kept::new();
/// // Read: the file says 428 where its data gives 436; slot 1 agrees.
/// kept.capture(0, 428, Some(436));
/// kept.capture(1, 20, Some(20));
/// kept.settle();
/// assert_eq!(kept.values().len(), 2);
/// // Written back as read while the data still gives what it gave...
/// let now = [(kept.get(0), Some(436)), (kept.get(1), Some(20))];
/// assert!(kept::group_holds(now));
/// assert_eq!(kept::decide(kept.get(0), Some(436), true), 428);
/// // ...and derived, all of them, once one changes.
/// assert!(!kept::group_holds([(kept.get(0), Some(436)), (kept.get(1), Some(24))]));
/// assert_eq!(kept::decide(kept.get(0), Some(436), false), 436);
///
/// // A struct whose values all agree keeps nothing.
/// let mut agree = Kept::new();
/// agree.capture(0, 436, Some(436));
/// agree.settle();
/// assert!(agree.is_empty());
/// ```
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kept {
    values: Vec<KeptValue>,
    placement: Option<Box<Placement>>,
}

impl PartialEq for Kept {
    /// Always true: see the type's docs.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for Kept {}

impl Kept {
    /// Nothing kept: every derived value is written as the data gives it.
    pub const fn new() -> Self {
        Kept {
            values: Vec::new(),
            placement: None,
        }
    }

    /// True when nothing is kept (the file's layout is the fresh one).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty() && self.placement.is_none()
    }

    /// Records `raw`, read for `slot`, with `derived`, what the data gives
    /// (`None` for an absent target, whose fresh value is 0). A reader
    /// captures every derived value of a struct, then [`settle`](Self::settle)s.
    /// Capturing slots in increasing order only appends.
    #[inline]
    pub fn capture(&mut self, slot: u16, raw: u32, derived: Option<u32>) {
        let value = KeptValue { slot, raw, derived };
        match self.values.last() {
            Some(last) if last.slot >= slot => {
                match self.values.binary_search_by_key(&slot, |v| v.slot) {
                    Ok(i) => {
                        if let Some(v) = self.values.get_mut(i) {
                            *v = value;
                        }
                    }
                    Err(i) => self.values.insert(i, value),
                }
            }
            _ => self.values.push(value),
        }
    }

    /// Captures a struct's values at once (`None` for a derived field not on
    /// disk), keeping them all if one differs from its data and nothing
    /// otherwise: no allocation for a struct whose layout is the fresh one.
    pub fn capture_group(&mut self, values: &[Option<KeptValue>]) {
        if values
            .iter()
            .flatten()
            .any(|v| v.raw != v.derived.unwrap_or(0))
        {
            self.keep_group(values);
        }
    }

    /// [`capture_group`](Self::capture_group) for a group the caller knows
    /// has a value that differs from its data: every value is kept. Derived
    /// readers work that out as they capture, and call this only then: every
    /// struct with a `kept` field captures once per value read (256 MCNK
    /// headers and MCIN entries a tile). Slots in declaration order (a
    /// derived reader's) are appended.
    pub fn keep_group(&mut self, values: &[Option<KeptValue>]) {
        self.values.reserve(values.len());
        for v in values.iter().flatten() {
            self.capture(v.slot, v.raw, v.derived);
        }
    }

    /// After capturing: if every value agrees with its data, forgets them all
    /// (the struct's layout is the fresh one).
    pub fn settle(&mut self) {
        if self.values.iter().all(|v| v.raw == v.derived.unwrap_or(0)) {
            self.values.clear();
        }
    }

    /// The value read for `slot`, if kept.
    #[inline]
    pub fn raw(&self, slot: u16) -> Option<u32> {
        self.get(slot).map(|k| k.raw)
    }

    /// The kept entry of `slot`, if any.
    #[inline]
    pub fn get(&self, slot: u16) -> Option<KeptValue> {
        // A struct keeps all of its values or none (see `capture_group`), so
        // slot `n` is usually at index `n`.
        if let Some(v) = self.values.get(usize::from(slot))
            && v.slot == slot
        {
            return Some(*v);
        }
        let i = self.values.binary_search_by_key(&slot, |v| v.slot).ok()?;
        self.values.get(i).copied()
    }

    /// Every kept value, by slot.
    pub fn values(&self) -> &[KeptValue] {
        &self.values
    }

    /// The kept placement of a region's parts, if the file's differs from a fresh one.
    pub fn placement(&self) -> Option<&Placement> {
        self.placement.as_deref()
    }

    /// Sets (or, with `None`, forgets) the kept placement.
    pub fn set_placement(&mut self, placement: Option<Placement>) {
        self.placement = placement.map(Box::new);
    }

    /// Forgets everything: the next write lays the value out afresh, with
    /// every offset, size and count derived from the data.
    pub fn clear(&mut self) {
        self.values.clear();
        self.placement = None;
    }
}

#[cfg(feature = "serde")]
mod gap_bytes {
    //! Gap bytes as hex strings in human-readable formats.
    use alloc::vec::Vec;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    struct Gap(u32, #[serde(with = "crate::serde_bytes")] Vec<u8>);

    pub fn serialize<S: Serializer>(gaps: &[(u32, Vec<u8>)], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(gaps.iter().map(|(at, bytes)| Gap(*at, bytes.clone())))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(u32, Vec<u8>)>, D::Error> {
        let gaps = Vec::<Gap>::deserialize(d)?;
        Ok(gaps.into_iter().map(|Gap(at, bytes)| (at, bytes)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_then_resolve_gives_back_what_was_read() {
        for (raw, derived) in [(5, Some(5)), (5, Some(13)), (0, None), (8, None)] {
            let mut kept = Kept::new();
            kept.capture(3, raw, derived);
            let holds = group_holds([(kept.get(3), derived)]);
            assert_eq!(
                decide(kept.get(3), derived, holds),
                raw,
                "{raw} {derived:?}"
            );
        }
    }

    #[test]
    fn a_changed_value_derives_the_whole_group() {
        let mut kept = Kept::new();
        kept.capture(0, 8, None); // `sizeLiquid` 8 without liquid
        kept.capture(1, 100, Some(100));
        kept.capture(2, 7, Some(7));
        kept.settle();
        assert!(group_holds([(kept.get(0), None), (kept.get(1), Some(100))]));
        assert!(!group_holds([
            (kept.get(0), None),
            (kept.get(1), Some(104))
        ]));
        let alone = group_holds([(kept.get(0), Some(812))]);
        assert_eq!(decide(kept.get(0), Some(812), alone), 812);
        // Captured out of order, kept in slot order.
        let mut shuffled = Kept::new();
        shuffled.capture(2, 1, None);
        shuffled.capture(0, 1, None);
        assert_eq!(shuffled.values().first().map(|v| v.slot), Some(0));
        kept.clear();
        assert!(kept.is_empty());
    }

    #[test]
    fn a_group_is_kept_as_its_values_captured_one_by_one() {
        let v = |slot, raw, derived| Some(KeptValue { slot, raw, derived });
        let groups: [&[Option<KeptValue>]; 5] = [
            &[v(0, 1, Some(1)), None, v(2, 8, None)],
            &[v(0, 1, Some(1)), v(1, 2, Some(2))],
            &[v(3, 5, Some(6)), v(1, 0, None), v(3, 7, None)],
            &[None, None],
            &[],
        ];
        for (i, group) in groups.into_iter().enumerate() {
            for already in [
                None,
                Some(KeptValue {
                    slot: 2,
                    raw: 9,
                    derived: None,
                }),
            ] {
                let (mut whole, mut one_by_one) = (Kept::new(), Kept::new());
                if let Some(k) = already {
                    whole.capture(k.slot, k.raw, k.derived);
                    one_by_one.capture(k.slot, k.raw, k.derived);
                }
                whole.capture_group(group);
                let differs = group
                    .iter()
                    .flatten()
                    .any(|v| v.raw != v.derived.unwrap_or(0));
                if differs {
                    for v in group.iter().flatten() {
                        one_by_one.capture(v.slot, v.raw, v.derived);
                    }
                }
                assert_eq!(whole.values(), one_by_one.values(), "group {i}");
            }
        }
    }

    #[test]
    fn a_group_holds_only_with_a_kept_value_and_all_of_them_true() {
        let k = |raw, derived| {
            Some(KeptValue {
                slot: 0,
                raw,
                derived,
            })
        };
        // Values without a kept entry are not compared.
        assert!(group_holds([(k(9, Some(10)), Some(10)), (None, Some(7))]));
        assert!(!group_holds([(None, Some(7)), (None, None)]));
        assert!(!group_holds([
            (k(9, Some(10)), Some(10)),
            (k(1, None), Some(4))
        ]));
        assert!(!group_holds(core::iter::empty()));
        assert_eq!(decide(k(9, Some(10)), Some(10), true), 9);
        assert_eq!(decide(k(9, Some(10)), None, false), 0);
        assert_eq!(decide(None, Some(3), true), 3);
    }
}
