//! Chunks a reader does not know, kept whole.

use alloc::vec::Vec;
use core::fmt;

use crate::{Context, Decode, Encode, FourCC, Reader, Result, Tagged, Writer};

/// A chunk whose tag the reader does not know: `tag`, `u32` size, `bytes`.
///
/// Kept verbatim (and written back at the position it was read from, when it
/// sits in a chunk list), so unknown data is never lost.
///
/// ```
/// use format_core::{decode, encode, Context, FourCC, UnknownChunk};
/// let data = b"MDVI\x02\x00\x00\x00\xab\xcd";
/// let chunk: UnknownChunk = decode(data, Context::new())?;
/// assert_eq!(chunk.tag, FourCC::new(*b"MDVI"));
/// assert_eq!(chunk.bytes, [0xab, 0xcd]);
/// assert_eq!(encode(&chunk, Context::new())?, data);
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnknownChunk {
    /// The chunk's tag, in spec order.
    pub tag: FourCC,
    /// The chunk's body (the size is its length).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub bytes: Vec<u8>,
}

impl Decode for UnknownChunk {
    type Args = ();
    const MIN_SIZE: usize = 8;

    fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
        let tag = r.tag()?;
        let bytes = r
            .chunk(|r| r.bytes(r.remaining()).map(<[u8]>::to_vec))
            .map_err(|e| e.in_tag(tag))?;
        Ok(UnknownChunk { tag, bytes })
    }
}

impl Encode for UnknownChunk {
    type Args = ();

    fn encode(&self, w: &mut Writer, _: ()) -> Result<()> {
        w.chunk(self.tag, |w| {
            w.bytes(&self.bytes);
            Ok(())
        })
    }
}

impl fmt::Debug for UnknownChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UnknownChunk({}, {} bytes)", self.tag, self.bytes.len())
    }
}

/// A sub-chunk with a tag the reader does not know, inside an object whose
/// size is known (an MDX object with an inclusive size): `tag`, then every byte
/// up to the end of the object.
///
/// Sub-chunks inside objects have no size of their own (an MDX `K***` track is
/// `tag, count, interpolation, ...`), so the layout after an unknown tag cannot
/// be known. Rather than guess, the tag and the rest of the enclosing object
/// are kept verbatim and written back at the same place. As the fallback
/// variant of a tag-dispatched enum (`#[format(unknown)] Unknown(UnknownTail)`)
/// it ends a `tagged` list.
///
/// ```
/// use format_core::{decode, encode, Context, FourCC, UnknownTail};
/// let data = b"KXYZ\x01\x02\x03";
/// let tail: UnknownTail = decode(data, Context::new())?;
/// assert_eq!(tail.tag, FourCC::new(*b"KXYZ"));
/// assert_eq!(tail.bytes, [1, 2, 3]);
/// assert_eq!(encode(&tail, Context::new())?, data);
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnknownTail {
    /// The unknown tag, in spec order.
    pub tag: FourCC,
    /// Every byte after the tag up to the end of the enclosing object.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub bytes: Vec<u8>,
}

impl Decode for UnknownTail {
    type Args = ();
    const MIN_SIZE: usize = 4;

    fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
        let tag = r.tag()?;
        let bytes = r.bytes(r.remaining())?.to_vec();
        Ok(UnknownTail { tag, bytes })
    }
}

impl Encode for UnknownTail {
    type Args = ();

    fn encode(&self, w: &mut Writer, _: ()) -> Result<()> {
        w.tag(self.tag);
        w.bytes(&self.bytes);
        Ok(())
    }
}

impl Tagged for UnknownTail {
    const TAGS: &'static [FourCC] = &[];

    /// Any tag: it is the fallback for tags nothing else knows.
    fn accepts(_: FourCC, _: &Context) -> bool {
        true
    }
}

impl fmt::Debug for UnknownTail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UnknownTail({}, {} bytes)", self.tag, self.bytes.len())
    }
}
