//! Chunks of the user's own in a tile ([`Adt`]) and in its map chunks
//! ([`Mcnk`]): `chunk::<T>()` and `set_chunk(&T)`, through the public chunk
//! lists and their `Unknown` variants (the logic is in `crate::custom`).

use format_core::{Decode, Encode, HasTag, Result};

use super::chunk::AdtChunk;
use super::mcnk::{Mcnk, McnkChunk};
use super::tile::{Adt, terrain_context};
use crate::custom;

impl Adt {
    /// The first top-level chunk with `T`'s tag, decoded as a `T` (tags
    /// reversed, as in the file): a chunk of the user's own, kept as
    /// [`AdtChunk::Unknown`] in place. See
    /// [`mdx::Model::chunk`](crate::mdx::Model::chunk).
    pub fn chunk<T: Decode<Args = ()> + HasTag>(&self) -> Option<Result<T>> {
        custom::chunk(&self.chunks, terrain_context())
    }

    /// Puts `value` in place of the first top-level chunk with its tag, or
    /// after the last chunk. See
    /// [`mdx::Model::set_chunk`](crate::mdx::Model::set_chunk).
    pub fn set_chunk<T: Encode<Args = ()> + HasTag>(&mut self, value: &T) -> Result<()> {
        custom::set_chunk(&mut self.chunks, value, terrain_context())
    }
}

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

custom::unknown_slot!(AdtChunk, McnkChunk);
