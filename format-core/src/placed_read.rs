//! Reading what offsets point at: anchors of the lists being read, the
//! enclosing list's anchors, and parts placed by offset inside a region.

use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::SizeKind;
use crate::anchor::{Anchor, Siblings};
use crate::kept::Placement;
use crate::reader::ReadRegion;
use crate::{Error, FourCC, Reader, Result};

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<'a> Reader<'a> {
    /// Records that an element of a list being read starts at `start` and is
    /// `len` bytes long, for the offsets that point into the list. The derive
    /// does this for the lists it reads; a hand-written list reader
    /// (`read_with`) whose list an offset names must do it for each element.
    #[inline]
    pub fn push_anchor(&mut self, tag: FourCC, start: usize, len: usize) {
        self.anchors.push(Anchor { tag, start, len });
    }

    /// How many anchors are recorded: where a field's own anchors start.
    #[inline]
    pub(crate) fn anchor_count(&self) -> usize {
        self.anchors.len()
    }

    /// The anchors recorded from `mark` to `end`.
    #[inline]
    pub(crate) fn anchors(&self, mark: usize, end: usize) -> &[Anchor] {
        self.anchors.get(mark..end).unwrap_or_default()
    }

    /// Runs `body` as a scope: the anchors it records (the elements of the
    /// lists it reads, which its offsets were resolved against) are
    /// forgotten once it ends.
    ///
    /// ```
    /// use format_core::{FourCC, Reader};
    /// let mut r = Reader::new(&[1, 2]);
    /// let first = r.scope(|r| {
    ///     r.push_anchor(FourCC::new(*b"MVER"), 0, 1);
    ///     r.u8()
    /// })?;
    /// assert_eq!(first, 1);
    /// # Ok::<(), format_core::Error>(())
    /// ```
    #[inline]
    pub fn scope<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let mark = self.anchors.len();
        let value = body(self);
        self.anchors.truncate(mark);
        value
    }

    /// Runs `body` with `siblings` as the elements of the enclosing list, the
    /// anchors `parent[...]` offsets resolve against (the list's owner walks
    /// the list's headers first, with [`anchor::scan_chunks`](crate::anchor::scan_chunks)).
    pub fn with_siblings<T>(
        &mut self,
        siblings: Vec<Anchor>,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let outer = self.siblings.replace(Arc::new(Siblings::new(siblings)));
        let result = body(self);
        self.siblings = outer;
        result
    }

    /// The elements of the enclosing list (none outside [`with_siblings`](Self::with_siblings)).
    #[inline]
    pub fn siblings(&self) -> Option<&Siblings> {
        self.siblings.as_deref()
    }

    /// Runs `body` as a region whose parts are placed by offset, spanning
    /// from here to the end of the current bounded region, which is consumed;
    /// unless the parts lie one after the other right after the inline part
    /// (a fresh layout), the layout read is returned to be kept, with the
    /// bytes no part covers.
    pub(crate) fn region<T>(
        &mut self,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<(T, Option<Placement>)> {
        self.regions.push(ReadRegion {
            start: self.pos(),
            end: self.end(),
            targets: Vec::new(),
            starts: None,
        });
        let depth = self.regions.len();
        let value = body(self);
        if self.regions.len() != depth {
            return Err(Error::inconsistent(
                self.pos(),
                "a region ended while an inner one was still open",
            ));
        }
        let Some(region) = self.regions.pop() else {
            return Err(Error::inconsistent(self.pos(), "no region to end"));
        };
        let value = value?;
        Ok((value, self.end_region(region)))
    }

    /// Reads a part placed at `base + offset` (absolute), of exactly `len`
    /// bytes if given (it must consume them), else bounded by the enclosing
    /// region (or the current one). The reader's position is restored after.
    /// Inside a region the part is recorded, so that the region can tell
    /// whether its layout is the fresh one. An offset that points outside is
    /// an error at `origin`, where the offset itself is stored; a part that
    /// reads past `len`, or not all of it, is an error naming `len_origin`,
    /// where the size is stored.
    pub(crate) fn placed<T>(
        &mut self,
        base: usize,
        offset: u32,
        len: Option<u32>,
        origin: usize,
        len_origin: usize,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.check_placed(base, offset, len, origin)?;
        let high = match self.regions.last() {
            Some(region) => region.end,
            None => self.end(),
        };
        let at = base.saturating_add(offset as usize);
        let id = self.regions.last_mut().map(|region| {
            region.targets.push((at, 0));
            region.targets.len() - 1
        });
        let (pos, end) = (self.pos(), self.end());
        self.set_bounds(at, high);
        let result = match len {
            Some(len) => {
                let len = u64::from(len);
                self.sized_region(len, SizeKind::Declared, len_origin, len, body)
            }
            None => body(self),
        };
        let consumed = self.pos() - at;
        self.set_bounds(pos, end);
        if let (Some(id), Some(region)) = (id, self.regions.last_mut())
            && let Some(target) = region.targets.get_mut(id)
        {
            target.1 = consumed;
        }
        result
    }

    /// The error reading a placed part gives for a part at `base +
    /// offset` of `len` bytes (if given) that does not lie in the enclosing
    /// region (or the current one), at `origin`, where the offset is stored;
    /// `Ok` if it does. For a lenient reader that stops before such a part
    /// rather than fail (a table entry pointing past the end of a file).
    ///
    /// ```
    /// use format_core::Reader;
    /// let r = Reader::new(&[0; 16]);
    /// assert!(r.check_placed(0, 8, Some(8), 4).is_ok());
    /// let e = r.check_placed(0, 12, Some(8), 4).unwrap_err();
    /// assert_eq!(e.offset(), 4);
    /// assert!(e.to_string().contains("8 bytes at 0xc (offset 12 from 0x0) do not lie in 0x0..0x10"));
    /// ```
    pub fn check_placed(
        &self,
        base: usize,
        offset: u32,
        len: Option<u32>,
        origin: usize,
    ) -> Result<()> {
        let (low, high) = match self.regions.last() {
            Some(region) => (region.start, region.end),
            None => (0, self.end()),
        };
        let at = base.saturating_add(offset as usize);
        let fits = at >= low && at <= high && len.is_none_or(|len| (len as usize) <= high - at);
        if fits {
            return Ok(());
        }
        let what = match len {
            Some(len) => format!("{len} bytes at {at:#x}"),
            None => format!("a part at {at:#x}"),
        };
        let verb = if len.is_some() { "do" } else { "does" };
        Err(Error::invalid(
            origin,
            format!(
                "{what} (offset {offset} from {base:#x}) {verb} not lie in {low:#x}..{high:#x}"
            ),
        ))
    }

    /// Where the parts of the innermost region start, as `compute(input,
    /// region end)` works them out from the region's own tables, computed once
    /// per region (outside a region, each time). For a hook that must know
    /// where the next part starts (data of a layout the file does not give).
    pub fn region_starts(
        &mut self,
        compute: impl FnOnce(&'a [u8], usize) -> Vec<usize>,
    ) -> Arc<[usize]> {
        let data = self.input();
        match self.regions.last_mut() {
            Some(region) => region
                .starts
                .get_or_insert_with(|| Arc::from(compute(data, region.end)))
                .clone(),
            None => Arc::from(compute(data, self.end())),
        }
    }

    /// Ends `region`: its layout, if not a fresh one.
    fn end_region(&mut self, region: ReadRegion) -> Option<Placement> {
        let inline_end = self.pos();
        let (start, end) = (region.start, region.end);
        self.set_bounds(end, self.end());
        let mut expected = inline_end;
        let fresh = region.targets.iter().all(|&(at, len)| {
            let ok = at == expected;
            expected = at + len;
            ok
        }) && expected == end;
        if fresh {
            return None;
        }
        let mut covered: Vec<(usize, usize)> = Vec::with_capacity(region.targets.len() + 1);
        covered.push((start, inline_end));
        covered.extend(region.targets.iter().map(|&(at, len)| (at, at + len)));
        covered.sort_unstable();
        let mut gaps = Vec::new();
        let mut cursor = start;
        for (from, to) in covered.into_iter().chain([(end, end)]) {
            if from > cursor {
                let bytes = self.input().get(cursor..from).unwrap_or_default();
                gaps.push((u32_of(cursor - start), bytes.to_vec()));
            }
            cursor = cursor.max(to);
        }
        Some(Placement {
            len: u32_of(end - start),
            inline_len: u32_of(inline_end - start),
            targets: region
                .targets
                .iter()
                .map(|&(at, len)| (u32_of(at - start), u32_of(len)))
                .collect(),
            gaps,
        })
    }
}
