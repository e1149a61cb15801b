//! Chunks of the user's own in a tile's map chunks ([`Mcnk`]):
//! `chunk::<T>()` and `set_chunk(&T)`, through the sub-chunk list and its
//! `Unknown` variant, by `format_core::chunk_list`'s `chunk` and
//! `set_chunk`, as the derived chunk lists of the files have them. Its
//! sub-chunks are walked by hand (`mcnk/walk.rs`), so the list says itself
//! where it keeps the chunks it does not know.

use format_core::chunk_list::{self, UnknownSlot};
use format_core::{Decode, Encode, HasTag, Result, UnknownChunk};

use super::mcnk::{Mcnk, McnkChunk};
use super::tile::terrain_context;

impl Mcnk {
    /// The first sub-chunk with `T`'s tag, decoded as a `T`: a sub-chunk of
    /// the user's own, kept as [`McnkChunk::Unknown`] in place.
    pub fn chunk<T: Decode<Args = ()> + HasTag>(&self) -> Option<Result<T>> {
        chunk_list::chunk(&self.chunks, terrain_context())
    }

    /// Puts `value` in place of the first sub-chunk with its tag, or after
    /// the last one; the header's offsets follow on write.
    pub fn set_chunk<T: Encode<Args = ()> + HasTag>(&mut self, value: &T) -> Result<()> {
        chunk_list::set_chunk(&mut self.chunks, value, terrain_context())
    }
}

impl UnknownSlot for McnkChunk {
    fn as_unknown(&self) -> Option<&UnknownChunk> {
        match self {
            Self::Unknown(chunk) => Some(chunk),
            _ => None,
        }
    }

    fn as_unknown_mut(&mut self) -> Option<&mut UnknownChunk> {
        match self {
            Self::Unknown(chunk) => Some(chunk),
            _ => None,
        }
    }

    fn from_unknown(chunk: UnknownChunk) -> Self {
        Self::Unknown(chunk)
    }
}
