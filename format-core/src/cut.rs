//! A chunk cut short by the end of the input, kept whole.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::{ChunkTag, Decode, Encode, Error, FourCC, Reader, Result, Writer};

/// The last chunk of a damaged file: its tag, then whatever the file still
/// has of it (a size that may itself be cut, then fewer body bytes than the
/// size declares).
///
/// A strict reader refuses such a file. A lenient one can keep the chunk as
/// it is, report it, and give back the chunks before it; written back, the
/// chunk is exactly the bytes it was read from, so the damaged file is
/// reproduced byte for byte. [`CutChunk::is_cut`] says whether the bytes at
/// a position are such a chunk.
///
/// ```
/// use format_core::{decode, encode, Context, CutChunk, FourCC};
/// // "CLID", a size of 700, and 3 of its 700 bytes.
/// let data = b"CLID\xbc\x02\x00\x00\x01\x02\x03";
/// assert!(CutChunk::is_cut(data));
/// let cut: CutChunk = decode(data, Context::new())?;
/// assert_eq!(cut.tag, FourCC::new(*b"CLID"));
/// assert_eq!(cut.declared_size(), Some(700));
/// assert_eq!(cut.body(), [1, 2, 3]);
/// assert_eq!(cut.missing(), Some(697));
/// assert_eq!(encode(&cut, Context::new())?, data);
/// // A whole chunk is not cut; neither are fewer than 4 bytes (no tag).
/// assert!(!CutChunk::is_cut(b"CLID\x03\x00\x00\x00\x01\x02\x03"));
/// assert!(!CutChunk::is_cut(b"CLI"));
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CutChunk {
    /// The chunk's tag, in spec order.
    pub tag: FourCC,
    /// Every byte after the tag to the end of the input: the `u32` size (or
    /// the part of it the input has), then the body bytes that are there.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub bytes: Vec<u8>,
}

impl CutChunk {
    /// True when `rest`, the bytes from a chunk's first byte to the end of
    /// the input, hold a whole tag but not the whole chunk: its size is cut,
    /// or larger than the bytes after it.
    pub fn is_cut(rest: &[u8]) -> bool {
        match (rest.get(4..8), rest.get(8..)) {
            (Some(size), Some(body)) => size
                .first_chunk::<4>()
                .is_some_and(|s| u64::from(u32::from_le_bytes(*s)) > body.len() as u64),
            _ => rest.len() >= 4,
        }
    }

    /// The size the chunk declares, if its 4 bytes are there.
    pub fn declared_size(&self) -> Option<u32> {
        self.bytes
            .first_chunk::<4>()
            .map(|s| u32::from_le_bytes(*s))
    }

    /// The body bytes the input has (empty when the size itself is cut).
    pub fn body(&self) -> &[u8] {
        self.bytes.get(4..).unwrap_or_default()
    }

    /// Where the input ends in the chunk, for messages: `"3 of its 700
    /// bytes"` (the body bytes there are, of the size declared), or `"in its
    /// size"` when the size itself is cut.
    ///
    /// ```
    /// use format_core::{decode, Context, CutChunk};
    /// let cut: CutChunk = decode(b"CLID\xbc\x02\x00\x00\x01\x02\x03", Context::new())?;
    /// assert_eq!(cut.where_cut(), "3 of its 700 bytes");
    /// let cut: CutChunk = decode(b"CLID\xbc\x02", Context::new())?;
    /// assert_eq!(cut.where_cut(), "in its size");
    /// # Ok::<(), format_core::Error>(())
    /// ```
    pub fn where_cut(&self) -> String {
        match self.declared_size() {
            Some(size) => format!("{} of its {size} bytes", self.body().len()),
            None => "in its size".into(),
        }
    }

    /// The lenient reader's way out for a chunk list that runs to the end of
    /// the input: when the chunk at `start` failed to decode (`strict`, its
    /// error) because the input ends inside it, the reader goes back to
    /// `start`, reads it as a `CutChunk` and records a diagnostic, which
    /// `path` places (the chunk's index and tag, say) and which names the
    /// variant it is `kept_as`. `Ok(None)`, with nothing read, in strict
    /// mode or when the chunk is not cut: the caller gives `strict` then.
    ///
    /// ```
    /// use format_core::{Context, CutChunk, Error, Mode, Reader};
    /// let data = b"CLID\xbc\x02\x00\x00\x01\x02\x03";
    /// let strict = Error::invalid(4, "chunk size 700 exceeds the 3 bytes left");
    /// let mut r = Reader::with_context(data, Context::new().with_mode(Mode::Lenient));
    /// let cut = CutChunk::recover(&mut r, 0, &strict, |e| e.at_index(7), "Chunk::Cut")?;
    /// assert_eq!(cut.map(|c| c.missing()), Some(Some(697)));
    /// assert!(r.is_empty());
    /// let notes = r.take_diagnostics();
    /// assert!(notes[0].message.starts_with(
    ///     "[7].CLID: invalid value at 0x0: the file ends inside this chunk: 697 of its 700 \
    ///      bytes are missing; kept its 11 bytes from 0x0 as they are (Chunk::Cut)"
    /// ));
    /// let mut r = Reader::with_context(data, Context::new());
    /// assert_eq!(CutChunk::recover(&mut r, 0, &strict, |e| e, "Chunk::Cut")?, None);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn recover(
        r: &mut Reader<'_>,
        start: usize,
        strict: &Error,
        path: impl FnOnce(Error) -> Error,
        kept_as: &str,
    ) -> Result<Option<CutChunk>> {
        let rest = r.input().get(start..r.end()).unwrap_or_default();
        if !(r.ctx().is_lenient() && CutChunk::is_cut(rest)) {
            return Ok(None);
        }
        let len = rest.len();
        r.rewind(start)?;
        let cut = CutChunk::decode(r, ())?;
        r.recover(
            path(Error::invalid(start, cut.damage()).in_tag(cut.tag)),
            format!(
                "kept its {len} bytes from {start:#x} as they are ({kept_as}), to be written back \
                 unchanged; the chunks before it are read (the strict reader's error: {strict})"
            ),
        )?;
        Ok(Some(cut))
    }

    /// What the damage is, for a report: `"the file ends inside this chunk:
    /// 697 of its 700 bytes are missing"`.
    pub fn damage(&self) -> String {
        match (self.declared_size(), self.missing()) {
            (Some(size), Some(missing)) => {
                format!(
                    "the file ends inside this chunk: {missing} of its {size} bytes are missing"
                )
            }
            _ => "the file ends inside this chunk's size".into(),
        }
    }

    /// On write: a cut chunk declares more bytes than it holds, so whatever
    /// followed it would read back as its missing bytes. An error (at output
    /// offset `at`, in the chunk's tag) unless it is the `index`th of `count`
    /// chunks and so the last; the caller places it in its list.
    pub fn check_last(&self, index: usize, count: usize, at: usize) -> Result<()> {
        if index + 1 == count {
            return Ok(());
        }
        Err(Error::inconsistent(
            at,
            "a cut chunk (the file ended inside it) can only be the last chunk: the chunks \
             after it would read back as its missing bytes",
        )
        .in_tag(self.tag))
    }

    /// How many body bytes the input lacks, if the size is there.
    pub fn missing(&self) -> Option<u64> {
        self.declared_size()
            .map(|size| u64::from(size).saturating_sub(self.body().len() as u64))
    }
}

impl Decode for CutChunk {
    type Args = ();
    const MIN_SIZE: usize = 4;

    /// Reads the tag and every byte after it to the end of the current
    /// region, whatever they are (check [`CutChunk::is_cut`] first).
    fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
        let tag = r.tag()?;
        let bytes = r.bytes(r.remaining())?.to_vec();
        Ok(CutChunk { tag, bytes })
    }
}

impl Encode for CutChunk {
    type Args = ();

    fn encode(&self, w: &mut Writer, _: ()) -> Result<()> {
        w.tag(self.tag);
        w.bytes(&self.bytes);
        Ok(())
    }
}

impl ChunkTag for CutChunk {
    #[inline]
    fn tag(&self) -> FourCC {
        self.tag
    }
}

impl fmt::Debug for CutChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.declared_size(), self.missing()) {
            (Some(size), Some(missing)) => write!(
                f,
                "CutChunk({}, {size} bytes declared, {missing} missing)",
                self.tag
            ),
            _ => write!(
                f,
                "CutChunk({}, size cut after {} bytes)",
                self.tag,
                self.bytes.len()
            ),
        }
    }
}
