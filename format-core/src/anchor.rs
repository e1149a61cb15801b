//! Where the elements of a list are: what offsets and sizes that name an
//! element of a list (`chunks["MCVT"]`, `parent["MCNK"][index]`) are derived from.
//!
//! A list that an offset points into records one [`Anchor`] per element as it
//! is read or written: the derive does it for the lists it reads and writes,
//! hand-written list code calls [`Reader::push_anchor`](crate::Reader::push_anchor)
//! and [`Writer::push_anchor`](crate::Writer::push_anchor). An offset into the
//! *enclosing* list (`parent[...]`, MHDR and MCIN in an ADT tile) is resolved
//! against the anchors the list's owner installs while reading
//! ([`Reader::with_siblings`](crate::Reader::with_siblings)) and patched when
//! that list has been written ([`Writer::with_siblings`](crate::Writer::with_siblings)).

use alloc::vec::Vec;
use core::sync::atomic::{AtomicUsize, Ordering};

use crate::{FourCC, Reader};

/// One element of a list: its tag (`FourCC::default()` for untagged
/// elements), absolute start and length in bytes (header included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Anchor {
    /// The element's tag, in spec order.
    pub tag: FourCC,
    /// Absolute position of its first byte.
    pub start: usize,
    /// Its length in bytes, header included.
    pub len: usize,
}

/// The first anchor with `tag`.
#[inline]
pub fn first(anchors: &[Anchor], tag: FourCC) -> Option<Anchor> {
    anchors.iter().find(|a| a.tag == tag).copied()
}

/// The `n`-th anchor with `tag` (from 0). Runs of the same tag (the 256
/// MCNKs of a tile) are found without a scan when they are contiguous.
#[inline]
pub fn nth(anchors: &[Anchor], tag: FourCC, n: usize) -> Option<Anchor> {
    let first = anchors.iter().position(|a| a.tag == tag)?;
    if let Some(a) = first.checked_add(n).and_then(|i| anchors.get(i))
        && a.tag == tag
        && anchors
            .get(first..first + n)
            .is_some_and(|run| run.iter().all(|a| a.tag == tag))
    {
        return Some(*a);
    }
    anchors.iter().filter(|a| a.tag == tag).nth(n).copied()
}

/// The elements of an enclosing list, indexed by tag once, so that the
/// `parent[...]` offsets of every table in it (20,000 MHDRs in a damaged
/// tile) are found without a scan each.
#[derive(Debug, Default)]
pub struct Siblings {
    anchors: Vec<Anchor>,
    /// Each tag (as [`key`]) with the indices of its elements, by tag.
    by_tag: Vec<(u32, Vec<usize>)>,
    /// Where in `by_tag` the last tag looked up was: tables look up one tag
    /// after another (MCIN's 256 entries, each its MCNK's offset and size),
    /// so it is tried before a search. A hint only (relaxed, any value is
    /// safe), atomic because readers share the index through an `Arc`,
    /// which is `Send` only for a `Sync` type (a `Cell` is not).
    last: AtomicUsize,
}

impl Clone for Siblings {
    fn clone(&self) -> Self {
        Siblings {
            anchors: self.anchors.clone(),
            by_tag: self.by_tag.clone(),
            last: AtomicUsize::new(self.last.load(Ordering::Relaxed)),
        }
    }
}

/// A tag as one number that orders as its bytes do: one comparison, where
/// `[u8; 4]` compares byte by byte.
#[inline]
fn key(tag: FourCC) -> u32 {
    u32::from_be_bytes(tag.bytes())
}

impl Siblings {
    /// Indexes `anchors` (in list order).
    pub fn new(anchors: Vec<Anchor>) -> Siblings {
        // A list is runs of one tag (a tile: MVER, MHDR, MCIN, ... then 256
        // MCNKs): each element joins its predecessor's tag unless the tag
        // changes, and only then is its tag looked up, so no sort.
        let mut by_tag: Vec<(u32, Vec<usize>)> = Vec::new();
        let mut current: Option<usize> = None;
        for (i, a) in anchors.iter().enumerate() {
            let k = key(a.tag);
            let at = match current {
                Some(at) if by_tag.get(at).is_some_and(|(t, _)| *t == k) => at,
                _ => match by_tag.binary_search_by_key(&k, |(t, _)| *t) {
                    Ok(at) => at,
                    Err(at) => {
                        by_tag.insert(at, (k, Vec::new()));
                        at
                    }
                },
            };
            if let Some((_, list)) = by_tag.get_mut(at) {
                list.push(i);
            }
            current = Some(at);
        }
        Siblings {
            anchors,
            by_tag,
            last: AtomicUsize::new(0),
        }
    }

    /// Every element, in list order.
    pub fn anchors(&self) -> &[Anchor] {
        &self.anchors
    }

    /// The `n`-th element with `tag` (from 0).
    #[inline]
    pub fn nth(&self, tag: FourCC, n: usize) -> Option<Anchor> {
        let k = key(tag);
        let last = self.last.load(Ordering::Relaxed);
        let list = match self.by_tag.get(last) {
            Some((t, list)) if *t == k => list,
            _ => {
                let i = self.by_tag.binary_search_by_key(&k, |(t, _)| *t).ok()?;
                self.last.store(i, Ordering::Relaxed);
                &self.by_tag.get(i)?.1
            }
        };
        let index = *list.get(n)?;
        self.anchors.get(index).copied()
    }

    /// The first element with `tag`.
    pub fn first(&self, tag: FourCC) -> Option<Anchor> {
        self.nth(tag, 0)
    }
}

/// The element at `index` of an untagged list.
#[inline]
pub fn at(anchors: &[Anchor], index: usize) -> Option<Anchor> {
    anchors.get(index).copied()
}

/// Walks the chunk headers (`tag`, `u32` size) from the reader's position to
/// the end of its region without reading any body, stopping at the first
/// header that does not fit. What an enclosing list's offsets are resolved
/// against while the list is read (chunks come after the table that points
/// at them).
///
/// ```
/// use format_core::{FourCC, Reader, anchor};
/// let data = b"MVER\x04\x00\x00\x00\x12\x00\x00\x00MHDR\x00\x00\x00\x00";
/// let found = anchor::scan_chunks(&Reader::new(data));
/// assert_eq!(found.len(), 2);
/// let mhdr = anchor::first(&found, FourCC::new(*b"MHDR")).unwrap();
/// assert_eq!((mhdr.start, mhdr.len), (12, 8));
/// ```
pub fn scan_chunks(r: &Reader<'_>) -> Vec<Anchor> {
    let mut found = Vec::new();
    let rest = r.rest();
    let order = r.ctx().tag_order;
    let mut pos = 0usize;
    while let Some(header) = rest.get(pos..).and_then(|b| b.first_chunk::<8>()) {
        let (tag, size) = header.split_at(4);
        let (Ok(tag), Ok(size)) = (<[u8; 4]>::try_from(tag), <[u8; 4]>::try_from(size)) else {
            break;
        };
        let len = (u32::from_le_bytes(size) as usize).saturating_add(8);
        if len > rest.len() - pos {
            break;
        }
        found.push(Anchor {
            tag: FourCC::from_disk(tag, order),
            start: r.pos() + pos,
            len,
        });
        pos += len;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anchor(tag: &[u8; 4], start: usize) -> Anchor {
        Anchor {
            tag: FourCC::new(*tag),
            start,
            len: 8,
        }
    }

    #[test]
    fn nth_agrees_with_a_scan() {
        let list = [
            anchor(b"MVER", 0),
            anchor(b"MCNK", 8),
            anchor(b"MCNK", 16),
            anchor(b"MFBO", 24),
            anchor(b"MCNK", 32),
        ];
        let mcnk = FourCC::new(*b"MCNK");
        for n in 0..4 {
            assert_eq!(
                nth(&list, mcnk, n),
                list.iter().filter(|a| a.tag == mcnk).nth(n).copied(),
                "{n}"
            );
        }
        assert_eq!(
            first(&list, FourCC::new(*b"MFBO")).map(|a| a.start),
            Some(24)
        );
        assert_eq!(first(&list, FourCC::new(*b"MH2O")), None);
    }

    #[test]
    fn an_index_by_tag_agrees_with_a_scan() {
        let list = alloc::vec![
            anchor(b"MVER", 0),
            anchor(b"MCNK", 8),
            anchor(b"MHDR", 16),
            anchor(b"MCNK", 24),
        ];
        let siblings = Siblings::new(list.clone());
        for tag in [b"MVER", b"MCNK", b"MHDR", b"MCIN"] {
            for n in 0..3 {
                let tag = FourCC::new(*tag);
                assert_eq!(siblings.nth(tag, n), nth(&list, tag, n));
            }
        }
    }

    #[test]
    fn a_scan_stops_at_a_header_that_does_not_fit() {
        let data = b"MVER\x04\x00\x00\x00\x12\x00\x00\x00MHDR\xff\x00\x00\x00";
        assert_eq!(scan_chunks(&Reader::new(data)).len(), 1);
    }
}
