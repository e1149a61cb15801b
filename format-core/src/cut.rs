//! A chunk cut short by the end of the input, kept whole.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::{ChunkTag, Decode, Encode, FourCC, Reader, Result, Writer};

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
