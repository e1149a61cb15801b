//! Chunks of the user's own in a tile's map chunks ([`Mcnk`]):
//! `chunk::<T>()` and `set_chunk(&T)`, through the sub-chunk list and its
//! `Unknown` variant (the logic is in `crate::custom`; a tile's own chunk
//! list is derived, and has them from `format_core::chunk_list`).

use format_core::{Decode, Encode, HasTag, Result};

use super::mcnk::{Mcnk, McnkChunk};
use super::tile::terrain_context;
use crate::custom;

impl Mcnk {
    /// The first sub-chunk with `T`'s tag, decoded as a `T`: a sub-chunk of
    /// the user's own, kept as [`McnkChunk::Unknown`] in place.
    pub fn chunk<T: Decode<Args = ()> + HasTag>(&self) -> Option<Result<T>> {
        custom::chunk(&self.chunks, terrain_context())
    }

    /// Puts `value` in place of the first sub-chunk with its tag, or after
    /// the last one; the header's offsets follow on write.
    pub fn set_chunk<T: Encode<Args = ()> + HasTag>(&mut self, value: &T) -> Result<()> {
        custom::set_chunk(&mut self.chunks, value, terrain_context())
    }
}

custom::unknown_slot!(McnkChunk);
