//! Damaged files: a model whose file ends inside its last chunk (a download
//! or a copy cut short). A strict read refuses it; a lenient one keeps that
//! chunk as its bytes ([`Chunk::Cut`]) with a diagnostic naming it and where
//! it starts, so the chunks before it are usable and writing gives the file
//! back byte for byte.

use format_core::{CutChunk, Decode, Error, Reader, Result};

use super::chunk::Chunk;

/// One top-level chunk, the `index`th. In lenient mode a chunk that fails to
/// decode because the file ends inside it is kept as a [`CutChunk`].
pub(super) fn read_chunk(r: &mut Reader<'_>, index: usize) -> Result<Chunk> {
    let start = r.pos();
    match Chunk::decode(r, ()) {
        Ok(chunk) => Ok(chunk),
        // The chunk list spans the rest of the file, so the region's end is
        // the file's end.
        Err(e) => {
            let path = |error: Error| error.at_index(index).in_field("chunks");
            match CutChunk::recover(r, start, &e, path, "Chunk::Cut")? {
                Some(cut) => Ok(Chunk::Cut(cut)),
                None => Err(e.at_index(index)),
            }
        }
    }
}
