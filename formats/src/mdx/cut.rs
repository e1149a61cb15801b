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
        Err(e) => {
            // The chunk list spans the rest of the file, so the region's end
            // is the file's end.
            let rest = r.input().get(start..r.end()).unwrap_or_default();
            if !(r.ctx().is_lenient() && CutChunk::is_cut(rest)) {
                return Err(e.at_index(index));
            }
            r.rewind(start)?;
            let cut = CutChunk::decode(r, ())?;
            let what = match (cut.declared_size(), cut.missing()) {
                (Some(size), Some(missing)) => format!(
                    "the file ends inside this chunk: it declares {size} bytes, the last {missing} \
                     are missing"
                ),
                _ => "the file ends inside this chunk's size".to_string(),
            };
            let error = Error::invalid(start, what)
                .in_tag(cut.tag)
                .at_index(index)
                .in_field("chunks");
            r.recover(
                error,
                format!(
                    "kept its {} bytes from {start:#x} as they are (Chunk::Cut), to be written back \
                     unchanged; the chunks before it are read (the strict reader's error: {e})",
                    rest.len()
                ),
            )?;
            Ok(Chunk::Cut(cut))
        }
    }
}
