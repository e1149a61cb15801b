//! Navigation values (offsets, sizes, counts) that a real file wrote differently
//! from the layout, kept so that an unedited tile writes back byte for byte.
//!
//! Every offset, size and count the client navigates by (MHDR, MCIN, the MCNK
//! header) is *derived* on write from what is actually there: such fields are
//! `Derived<u32>` in the definitions and never stored. When a file is read, each
//! value found is compared with the value the layout gives; only the ones that
//! differ are recorded here, as a [`KeptValue`]:
//!
//! - the target (the sub-chunk the field names) is present: the difference is
//!   kept ([`KeptValue::Delta`]), so a writer's convention survives edits
//!   (Noggit's MCIN sizes are 8 bytes short of the real ones in every entry);
//! - the target is absent: the value itself is kept ([`KeptValue::Absent`]), and
//!   written while the target stays absent (an `ofsShadow` pointing at MCAL in a
//!   chunk without MCSH, a `sizeLiquid` of 8 instead of 0 without MCLQ).
//!
//! A kept value never applies once its target appears or disappears: the derived
//! value is written then. `recompute_offsets` on [`Adt`](super::Adt) forgets
//! them all, giving a file whose every navigation value is derived.

/// One navigation value that differed from the layout when it was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KeptValue {
    /// The target was present: the value read was the derived one plus this
    /// (wrapping) difference.
    Delta(u32),
    /// The target was absent (derived value 0): this is the value read.
    Absent(u32),
}

impl KeptValue {
    /// What to record for a value `raw` read where the layout gives `derived`
    /// (`None`: the target is absent); `None` if they agree.
    pub fn capture(raw: u32, derived: Option<u32>) -> Option<KeptValue> {
        match derived {
            Some(value) if value == raw => None,
            Some(value) => Some(KeptValue::Delta(raw.wrapping_sub(value))),
            None if raw == 0 => None,
            None => Some(KeptValue::Absent(raw)),
        }
    }

    /// The value to write where the layout gives `derived`, with `kept` recorded.
    pub fn resolve(kept: Option<KeptValue>, derived: Option<u32>) -> u32 {
        match (derived, kept) {
            (Some(value), Some(KeptValue::Delta(delta))) => value.wrapping_add(delta),
            (Some(value), _) => value,
            (None, Some(KeptValue::Absent(raw))) => raw,
            (None, _) => 0,
        }
    }
}

/// The kept values of one table of navigation fields, by field.
///
/// Empty for a file whose every offset, size and count agrees with its layout
/// (every Blizzard file in the corpus, apart from the quirks the manifest lists).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Kept<F> {
    entries: Vec<(F, KeptValue)>,
}

impl<F> Default for Kept<F> {
    fn default() -> Self {
        Kept {
            entries: Vec::new(),
        }
    }
}

impl<F: Copy + Ord> Kept<F> {
    /// Nothing kept: every value is derived.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records `raw` for `field` if it differs from `derived` (replacing what
    /// was kept for `field`). Entries stay sorted by field, so recording in
    /// field order (as a reader does) only ever appends.
    pub fn capture(&mut self, field: F, raw: u32, derived: Option<u32>) {
        let kept = KeptValue::capture(raw, derived);
        let at = match self.entries.last() {
            Some((last, _)) if *last < field => Err(self.entries.len()),
            None => Err(0),
            _ => self.entries.binary_search_by(|(f, _)| f.cmp(&field)),
        };
        match (at, kept) {
            (Ok(i), Some(kept)) => {
                if let Some(entry) = self.entries.get_mut(i) {
                    entry.1 = kept;
                }
            }
            (Ok(i), None) => {
                self.entries.remove(i);
            }
            (Err(i), Some(kept)) => self.entries.insert(i, (field, kept)),
            (Err(_), None) => {}
        }
    }

    /// The kept value of `field`, if any.
    pub fn get(&self, field: F) -> Option<KeptValue> {
        let i = self.entries.binary_search_by(|(f, _)| f.cmp(&field)).ok()?;
        self.entries.get(i).map(|(_, kept)| *kept)
    }

    /// The value to write for `field` where the layout gives `derived`.
    pub fn resolve(&self, field: F, derived: Option<u32>) -> u32 {
        KeptValue::resolve(self.get(field), derived)
    }

    /// True when every value is derived.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many values are kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The kept values, by field.
    pub fn iter(&self) -> impl Iterator<Item = (F, KeptValue)> + '_ {
        self.entries.iter().copied()
    }

    /// Forgets every kept value.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_and_resolve_agree() {
        for (raw, derived) in [
            (5, Some(5)),
            (5, Some(13)),
            (13, Some(5)),
            (0, None),
            (8, None),
        ] {
            let kept = KeptValue::capture(raw, derived);
            assert_eq!(KeptValue::resolve(kept, derived), raw, "{raw} {derived:?}");
        }
        // A delta follows the target; an absent value goes once the target appears.
        assert_eq!(
            KeptValue::resolve(Some(KeptValue::Delta(u32::MAX - 7)), Some(100)),
            92
        );
        assert_eq!(
            KeptValue::resolve(Some(KeptValue::Absent(8)), Some(812)),
            812
        );
        assert_eq!(KeptValue::resolve(Some(KeptValue::Delta(4)), None), 0);
    }

    #[test]
    fn table_keeps_only_differences() {
        let mut kept = Kept::new();
        kept.capture(1u8, 10, Some(10));
        kept.capture(2u8, 0, None);
        kept.capture(3u8, 8, None);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept.resolve(3, None), 8);
        assert_eq!(kept.resolve(1, Some(44)), 44);
        kept.clear();
        assert!(kept.is_empty());
    }
}
