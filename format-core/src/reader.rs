//! A reader over a byte slice with absolute offsets and nested bounded regions.

use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::mem::size_of;

use crate::anchor::{Anchor, Siblings};
use crate::{Context, Diagnostic, Error, ErrorKind, Expected, FourCC, Plain, Result, SizeKind};

/// Reads little-endian data from a `&[u8]`.
///
/// Offsets are absolute (from the start of the input), so every error names the
/// byte it is about. A region can be bounded ([`with_limit`](Reader::with_limit),
/// [`chunk`](Reader::chunk), [`inclusive`](Reader::inclusive)): reads inside it
/// cannot pass its end, and it must be consumed exactly. Regions nest to any depth
/// without copying or allocating.
///
/// ```
/// use format_core::{FourCC, Reader};
/// let data = b"MDLXVERS\x04\x00\x00\x00\x20\x03\x00\x00";
/// let mut r = Reader::new(data);
/// r.expect_tag(FourCC::new(*b"MDLX"))?;
/// r.expect_tag(FourCC::new(*b"VERS"))?;
/// let version = r.chunk(|r| r.u32())?;
/// assert_eq!(version, 800);
/// r.finish()?;
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// End of the current bounded region; `pos <= end <= data.len()` always holds.
    end: usize,
    ctx: Context,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// Elements of the lists being read that offsets point into (see [`crate::anchor`]).
    pub(crate) anchors: Vec<Anchor>,
    /// The elements of the enclosing list (`parent[...]` offsets).
    pub(crate) siblings: Option<Arc<Siblings>>,
    /// Regions whose parts are placed by offset, innermost last.
    pub(crate) regions: Vec<ReadRegion>,
    /// Where the list whose chunks are the siblings lies, when a view
    /// installed them (`view::Lazy` installs them again to decode).
    pub(crate) sibling_span: Option<(usize, usize)>,
    /// How many values of types that hold themselves are being read, one
    /// inside the other ([`Reader::nested`]).
    depth: u32,
}

/// How deep values of a type that holds itself (a tree) may nest: past
/// this, [`Reader::nested`] refuses rather than let input overflow the stack.
pub const MAX_NESTING: u32 = 256;

/// A region being read whose parts are placed by offset.
#[derive(Debug, Clone)]
pub(crate) struct ReadRegion {
    pub(crate) start: usize,
    pub(crate) end: usize,
    /// `(start, length)` of each placed part, in the order they were read.
    pub(crate) targets: Vec<(usize, usize)>,
    /// What a hook worked out about the region once ([`Reader::region_starts`]).
    pub(crate) starts: Option<Arc<[usize]>>,
}

macro_rules! read_scalar {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Reads a little-endian `", stringify!($t), "`.")]
        #[inline]
        pub fn $name(&mut self) -> Result<$t> {
            self.array().map(<$t>::from_le_bytes)
        }
    )*};
}

impl<'a> Reader<'a> {
    /// A reader over all of `data` with the default [`Context`].
    pub fn new(data: &'a [u8]) -> Self {
        Self::with_context(data, Context::new())
    }

    /// A reader over all of `data` with `ctx`.
    pub fn with_context(data: &'a [u8], ctx: Context) -> Self {
        Reader {
            data,
            pos: 0,
            end: data.len(),
            ctx,
            diagnostics: Vec::new(),
            anchors: Vec::new(),
            siblings: None,
            regions: Vec::new(),
            sibling_span: None,
            depth: 0,
        }
    }

    /// Runs `body` one level deeper in a value of a type that holds itself
    /// (what `#[derive(Codec)]` generates for one): an error, not a stack
    /// overflow, past [`MAX_NESTING`] levels.
    ///
    /// ```
    /// use format_core::{MAX_NESTING, Reader, Result};
    /// fn dive(r: &mut Reader<'_>, levels: u32) -> Result<u32> {
    ///     match levels {
    ///         0 => Ok(0),
    ///         n => r.nested(|r| dive(r, n - 1).map(|d| d + 1)),
    ///     }
    /// }
    /// let mut r = Reader::new(&[]);
    /// assert_eq!(dive(&mut r, MAX_NESTING)?, MAX_NESTING);
    /// assert!(dive(&mut r, MAX_NESTING + 1).is_err());
    /// # Ok::<(), format_core::Error>(())
    /// ```
    pub fn nested<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_NESTING {
            return Err(Error::invalid(
                self.pos,
                alloc::format!(
                    "values nested more than {MAX_NESTING} deep (a type that holds itself): \
                     refusing to go deeper"
                ),
            ));
        }
        self.depth += 1;
        let out = body(self);
        self.depth -= 1;
        out
    }

    /// Moves the reader to `pos` with the region ending at `end`
    /// (`pos <= end <= data.len()` is the caller's to keep).
    #[inline]
    pub(crate) fn set_bounds(&mut self, pos: usize, end: usize) {
        debug_assert!(pos <= end && end <= self.data.len());
        self.pos = pos;
        self.end = end;
    }

    /// The context (version, mode, tag order, flags).
    #[inline]
    pub fn ctx(&self) -> &Context {
        &self.ctx
    }

    /// The context, to change it (e.g. after reading the version chunk).
    #[inline]
    pub fn ctx_mut(&mut self) -> &mut Context {
        &mut self.ctx
    }

    /// The absolute offset of the next byte.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The absolute offset where the current region ends.
    #[inline]
    pub fn end(&self) -> usize {
        self.end
    }

    /// Bytes left in the current region.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// True when the current region is used up.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.pos == self.end
    }

    /// The whole input, for hand-written code that needs to look around.
    pub fn input(&self) -> &'a [u8] {
        self.data
    }

    /// The unread bytes of the current region, without consuming them.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..self.end).unwrap_or_default()
    }

    #[cold]
    fn end_error(&self, needed: usize) -> Error {
        Error::new(ErrorKind::UnexpectedEnd {
            offset: self.pos,
            needed,
            available: self.remaining(),
        })
    }

    /// Takes the next `n` bytes (zero-copy).
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.rest().get(..n) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.end_error(n)),
        }
    }

    /// Takes the next `N` bytes as an array.
    #[inline]
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.rest().first_chunk::<N>() {
            Some(bytes) => {
                self.pos += N;
                Ok(*bytes)
            }
            None => Err(self.end_error(N)),
        }
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(|_| ())
    }

    /// The next `n` bytes without consuming them, if there are that many.
    #[inline]
    pub fn peek_bytes(&self, n: usize) -> Option<&'a [u8]> {
        self.rest().get(..n)
    }

    read_scalar! {
        u8: u8, i8: i8, u16: u16, i16: i16, u32: u32, i32: i32,
        u64: u64, i64: i64, f32: f32, f64: f64,
    }

    /// Reads a tag in the context's [`TagOrder`](crate::TagOrder).
    #[inline]
    pub fn tag(&mut self) -> Result<FourCC> {
        let order = self.ctx.tag_order;
        self.array().map(|b| FourCC::from_disk(b, order))
    }

    /// The next tag without consuming it, if four bytes remain.
    #[inline]
    pub fn peek_tag(&self) -> Option<FourCC> {
        self.rest()
            .first_chunk::<4>()
            .map(|b| FourCC::from_disk(*b, self.ctx.tag_order))
    }

    /// Reads a tag and fails with [`ErrorKind::WrongTag`] unless it is `expected`.
    #[inline]
    pub fn expect_tag(&mut self, expected: FourCC) -> Result<()> {
        let offset = self.pos;
        let found = self.tag()?;
        if found == expected {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::WrongTag {
                offset,
                expected: Expected::Tag(expected),
                found,
            }))
        }
    }

    /// Reads one plain value (a struct, an array, a scalar) with one bounds check.
    #[inline]
    pub fn plain<T: Plain>(&mut self) -> Result<T> {
        let at = self.pos;
        let bytes = self.bytes(size_of::<T>())?;
        T::read_le(bytes).ok_or_else(|| Error::invalid(at, "a plain value its bytes do not decode"))
    }

    /// Reads one plain value into `dst`, which already has its place (an
    /// element just pushed into a list): one bounds check and one copy, where
    /// [`plain`](Reader::plain) builds the value on the stack and the caller
    /// moves it, a second copy (and more, through `Result`s and enums) for
    /// the large inline arrays of terrain chunks.
    ///
    /// ```
    /// use format_core::Reader;
    /// let mut r = Reader::new(&[1, 0, 2, 0, 9]);
    /// let mut pair = [0u16; 2];
    /// r.plain_into(&mut pair)?;
    /// assert_eq!((pair, r.remaining()), ([1, 2], 1));
    /// assert!(r.plain_into(&mut pair).is_err()); // 1 byte left, `pair` untouched
    /// assert_eq!(pair, [1, 2]);
    /// # Ok::<(), format_core::Error>(())
    /// ```
    #[inline]
    pub fn plain_into<T: Plain>(&mut self, dst: &mut T) -> Result<()> {
        let bytes = self.bytes(size_of::<T>())?;
        T::read_slice_le(core::slice::from_mut(dst), bytes);
        Ok(())
    }

    /// Checks that `count` elements of at least `min_size` bytes each fit in the
    /// bytes left, before anything is allocated for them. Zero-sized elements count
    /// as one byte, so a huge count of them cannot spin or allocate either.
    #[inline]
    pub fn check_count(&self, count: u64, min_size: usize) -> Result<usize> {
        let element_size = min_size.max(1);
        let available = self.remaining();
        // u64 * usize cannot overflow u128.
        let needed = u128::from(count) * element_size as u128;
        if needed <= available as u128 {
            // needed <= available <= usize::MAX, so count fits too.
            Ok(count as usize)
        } else {
            Err(Error::new(ErrorKind::CountTooLarge {
                offset: self.pos,
                count,
                element_size,
                needed: u64::try_from(needed).unwrap_or(u64::MAX),
                available,
            }))
        }
    }

    /// An empty list for `count` elements of at least `min_size` bytes
    /// each: the count checked against the bytes left ([`check_count`](Self::check_count)),
    /// then room reserved for all of them, unless that is more memory than
    /// the bytes left (at least 4 KiB), since an element can take more
    /// memory than the bytes it reads (`size_of::<T>()` against its
    /// `MIN_SIZE`, 0 for one whose fields are all absent); the list grows
    /// past that only as elements are read.
    pub fn list_for<T>(&self, count: u64, min_size: usize) -> Result<Vec<T>> {
        let count = self.check_count(count, min_size)?;
        let budget = self.remaining().max(4096);
        Ok(Vec::with_capacity(
            count.min(budget / size_of::<T>().max(1)),
        ))
    }

    /// Takes `count` fixed-size records of `size` bytes each as one slice, after
    /// checking the count against the bytes left: the bulk path for records that
    /// are decoded field by field from memory (keyframes) rather than copied.
    ///
    /// ```
    /// use format_core::Reader;
    /// let data = [1, 0, 2, 0, 3, 0];
    /// let mut r = Reader::new(&data);
    /// let records = r.records(2, 2)?;
    /// assert_eq!(records, &[1, 0, 2, 0]);
    /// assert!(r.records(2, 2).is_err()); // 2 bytes left
    /// # Ok::<(), format_core::Error>(())
    /// ```
    #[inline]
    pub fn records(&mut self, count: usize, size: usize) -> Result<&'a [u8]> {
        let count = self.check_count(count as u64, size)?;
        // check_count guarantees count * size <= remaining.
        self.bytes(count * size)
    }

    /// Reads `count` plain values in bulk: the count is checked against the bytes
    /// left, then one allocation and one copy.
    pub fn plain_vec<T: Plain>(&mut self, count: usize) -> Result<Vec<T>> {
        let count = self.check_count(count as u64, size_of::<T>())?;
        // check_count guarantees count * size_of::<T>() <= remaining.
        let bytes = self.bytes(count * size_of::<T>())?;
        // Allocated once and written once (see `Plain::read_vec_le`).
        Ok(T::read_vec_le(bytes))
    }

    /// Takes the next `len` bytes as a reader of their own (same input, same
    /// absolute offsets, a copy of the context), for hand-written code that
    /// navigates inside a chunk by offsets. This reader moves past them.
    ///
    /// ```
    /// use format_core::Reader;
    /// let data = [1, 0, 2, 0, 3, 0];
    /// let mut r = Reader::new(&data);
    /// let mut body = r.sub(4)?;
    /// assert_eq!((body.pos(), body.end()), (0, 4));
    /// assert_eq!(body.u16()?, 1);
    /// assert!(body.u32().is_err()); // bounded to 4 bytes
    /// assert_eq!(r.u16()?, 3);
    /// # Ok::<(), format_core::Error>(())
    /// ```
    pub fn sub(&mut self, len: usize) -> Result<Reader<'a>> {
        let start = self.pos;
        self.skip(len)?;
        Ok(Reader {
            data: self.data,
            pos: start,
            end: start + len,
            ctx: self.ctx,
            diagnostics: Vec::new(),
            anchors: Vec::new(),
            siblings: self.siblings.clone(),
            regions: Vec::new(),
            sibling_span: self.sibling_span,
            depth: self.depth,
        })
    }

    /// Runs `body` on a region of the next `len` bytes, which it must consume
    /// exactly (a hand-bounded region, e.g. a length given by a header field).
    pub fn with_limit<T>(
        &mut self,
        len: u64,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        self.sized_region(len, SizeKind::Declared, self.pos, len, body)
    }

    /// Like [`with_limit`](Reader::with_limit), with the size's origin for the
    /// error messages: a read past the region's end becomes
    /// [`ErrorKind::SizeOverrun`], bytes left over [`ErrorKind::SizeUnderrun`],
    /// both naming the `kind` of size, its `declared` value and where it is
    /// (`size_offset`).
    pub fn sized_region<T>(
        &mut self,
        len: u64,
        kind: SizeKind,
        size_offset: usize,
        declared: u64,
        body: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let start = self.pos;
        let len = match usize::try_from(len) {
            Ok(len) if len <= self.remaining() => len,
            _ => {
                return Err(Error::new(ErrorKind::SizeExceedsData {
                    kind,
                    size_offset,
                    declared,
                    available: self.remaining(),
                }));
            }
        };
        let outer_end = self.end;
        self.end = start + len;
        let result = body(self);
        let limit_end = self.end;
        self.end = outer_end;
        match result {
            Ok(value) if self.pos == limit_end => Ok(value),
            Ok(_) => Err(Error::new(ErrorKind::SizeUnderrun {
                offset: self.pos,
                kind,
                size_offset,
                declared,
                consumed: self.pos - start,
                unread: limit_end - self.pos,
            })),
            Err(e) => Err(match *e.kind() {
                ErrorKind::UnexpectedEnd {
                    offset,
                    needed,
                    available,
                } if offset.saturating_add(needed) > limit_end => {
                    let kind = ErrorKind::SizeOverrun {
                        offset,
                        needed,
                        available,
                        kind,
                        size_offset,
                        declared,
                    };
                    e.with_kind(kind)
                }
                _ => e,
            }),
        }
    }

    /// Reads a `u32` chunk size (excluding the 8-byte header) and runs `body`
    /// bounded to exactly that many bytes. The tag must already be consumed.
    pub fn chunk<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let size_offset = self.pos;
        let size = self.u32()?;
        self.sized_region(
            u64::from(size),
            SizeKind::Chunk,
            size_offset,
            u64::from(size),
            body,
        )
    }

    /// Reads a `u32` inclusive size (counting itself) and runs `body` bounded to
    /// the rest of the object.
    pub fn inclusive<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let size_offset = self.pos;
        let size = self.u32()?;
        let Some(len) = size.checked_sub(4) else {
            return Err(Error::invalid(
                size_offset,
                alloc::format!("inclusive size {size} is smaller than its own 4 bytes"),
            ));
        };
        self.sized_region(
            u64::from(len),
            SizeKind::Inclusive,
            size_offset,
            u64::from(size),
            body,
        )
    }

    /// Goes back to `pos` (at or before the current position, inside the
    /// current region): a lenient reader retrying what failed to decode as
    /// something plainer, without copying the reader first.
    pub fn rewind(&mut self, pos: usize) -> Result<()> {
        if pos <= self.pos {
            self.pos = pos;
            Ok(())
        } else {
            Err(Error::inconsistent(
                self.pos,
                alloc::format!("cannot rewind forward to {pos:#x}"),
            ))
        }
    }

    /// Fails with [`ErrorKind::TrailingBytes`] unless the current region is used up.
    pub fn finish(&self) -> Result<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::TrailingBytes {
                offset: self.pos,
                count: self.remaining(),
            }))
        }
    }

    /// Handles out-of-spec data found at `offset`: in strict mode returns `error`;
    /// in lenient mode records `fix` (what was done about it) as a diagnostic and
    /// lets the caller recover.
    pub fn recover(&mut self, error: Error, fix: impl Into<String>) -> Result<()> {
        if self.ctx.is_lenient() {
            let message = alloc::format!("{error}; {}", fix.into());
            self.diagnostics.push(Diagnostic {
                offset: error.offset(),
                message,
            });
            Ok(())
        } else {
            Err(error)
        }
    }

    /// Records a diagnostic without an error (lenient reads).
    pub fn note(&mut self, offset: usize, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic {
            offset,
            message: message.into(),
        });
    }

    /// The diagnostics recorded so far, leaving none behind.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        core::mem::take(&mut self.diagnostics)
    }
}
