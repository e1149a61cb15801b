//! A whole ADT file: the list of its chunks, read and written in order.
//!
//! The list (derived: `#[format(chunk_list(parent))]` on [`AdtChunk`]) is the
//! scope `MHDR`'s and `MCIN`'s offsets resolve in (`parent["MCNK"][index]`):
//! while reading, every chunk's place is known from a walk over the chunk
//! headers first; while writing, each chunk's place is recorded and those
//! offsets are patched once the list is written.

use format_core::{
    Codec, Context, Decode, Diagnostic, Encode, FourCC, Mode, Reader, Result, TagOrder, Writer,
    chunk_list,
};

use super::chunk::AdtChunk;

/// The context ADT and WDT files are read and written in: tags reversed.
pub fn terrain_context() -> Context {
    Context::new().with_tag_order(TagOrder::Reversed)
}

/// A monolithic ADT tile, or a Cataclysm+ root file: every chunk in file order.
///
/// Read with [`from_bytes`](Adt::from_bytes), written with
/// [`to_bytes`](Adt::to_bytes); see the [module](super) docs for how offsets are
/// derived and quirks kept.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Adt {
    /// Every chunk, in file order (the derived chunk list of [`AdtChunk`]).
    #[format(until_end)]
    pub chunks: Vec<AdtChunk>,
}

impl Adt {
    /// Reads a tile. Errors name the byte offset and the path of chunks and
    /// fields (`chunks[84].MCNK.chunks[3].MCAL: …`); nothing is allocated beyond what
    /// the input can hold. A file that does not start with its `MVER` chunk
    /// is refused, in both modes, saying what it looks like instead (an MDX
    /// model renamed `.adt`, an empty file).
    pub fn from_bytes(data: &[u8]) -> Result<Adt> {
        read_file(data, Mode::Strict, "an ADT file").map(|(adt, _)| adt)
    }

    /// Reads a tile leniently: a known chunk or MCNK sub-chunk whose body does
    /// not decode (a damaged or unexpected layout) is kept as an
    /// [`UnknownChunk`](format_core::UnknownChunk) in its place, and reported;
    /// the chunk a file cut short ends inside (a download or copy cut off) is
    /// kept as its bytes, [`AdtChunk::Cut`], and reported, with the chunks
    /// before it read. The real-file quirks the strict reader already accepts
    /// (see [`mcnk`](super::mcnk)) are not reported. The tile still writes
    /// back byte for byte.
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(Adt, Vec<Diagnostic>)> {
        read_file(data, Mode::Lenient, "an ADT file")
    }

    /// Writes the tile (see the [module](super) docs for the derived values).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write_file(self, self.chunks.len())
    }

    /// The first top-level chunk with `T`'s tag, decoded as a `T` (tags
    /// reversed, as in the file): a chunk of the user's own, kept as
    /// [`AdtChunk::Unknown`] in place. See
    /// [`mdx::Model::chunk`](crate::mdx::Model::chunk).
    pub fn chunk<T: Decode<Args = ()> + format_core::HasTag>(&self) -> Option<Result<T>> {
        chunk_list::chunk(&self.chunks, terrain_context())
    }

    /// Puts `value` in place of the first top-level chunk with its tag, or
    /// after the last chunk. See
    /// [`mdx::Model::set_chunk`](crate::mdx::Model::set_chunk).
    pub fn set_chunk<T: Encode<Args = ()> + format_core::HasTag>(
        &mut self,
        value: &T,
    ) -> Result<()> {
        chunk_list::set_chunk(&mut self.chunks, value, terrain_context())
    }
}

/// Reads a whole file of chunks (a tile, a split tile file, a WDT) in the
/// terrain context, with the diagnostics of a lenient read. `file` says what
/// it was taken for, for the error when it does not start with `MVER`.
pub(crate) fn read_file<T: Decode<Args = ()>>(
    data: &[u8],
    mode: Mode,
    file: &str,
) -> Result<(T, Vec<Diagnostic>)> {
    let ctx = terrain_context().with_mode(mode);
    starts_with_version(data, ctx, file)?;
    let mut r = Reader::with_context(data, ctx);
    let value = T::decode(&mut r, ())?;
    r.finish()?;
    Ok((value, r.take_diagnostics()))
}

/// Every ADT, split ADT and WDT file starts with its `MVER` chunk (every
/// real file does): a file that does not, in either mode, is refused as not
/// what it was taken for, saying what it looks like instead (an MDX model
/// named `.adt`, an empty file from a failed copy), rather than read as one
/// chunk of garbage that a lenient read would keep and write back.
/// Views `data` as a `T` strictly in the terrain context, after checking
/// that it starts as one (`MVER`).
pub(crate) fn read_view<'a, T: format_core::View<Args = ()>>(
    data: &'a [u8],
    file: &str,
) -> Result<T::View<'a>> {
    let ctx = terrain_context();
    starts_with_version(data, ctx, file)?;
    format_core::view::open::<T>(data, ctx)
}

fn starts_with_version(data: &[u8], ctx: Context, file: &str) -> Result<()> {
    match data.first_chunk::<4>() {
        Some(first) if FourCC::from_disk(*first, ctx.tag_order) == *b"MVER" => Ok(()),
        _ => Err(crate::magic::not_a(
            file,
            "its MVER chunk (`REVM` on disk)",
            data,
        )),
    }
}

/// Writes a whole file of `chunks` chunks in the terrain context.
pub(crate) fn write_file<T: Encode<Args = ()>>(value: &T, chunks: usize) -> Result<Vec<u8>> {
    // Room for the whole tile up front, so the buffer is not copied as it
    // grows: tiles run 4 to 11 KB a chunk (MCNKs with their alpha maps), so
    // 16 KiB a chunk holds every corpus tile. The bytes come back with that
    // capacity: pages never written are address space only, and shrinking
    // measured slower (the allocator hands the pages back to the system, so
    // the next write faults them in again: Northrend 0.16 ms became 1.6 ms).
    let mut w = Writer::with_capacity(terrain_context(), chunks.saturating_mul(16 << 10));
    value.encode(&mut w, ())?;
    Ok(w.into_bytes())
}
