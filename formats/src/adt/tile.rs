//! A whole ADT file: the list of its chunks, read and written in order.
//!
//! The list is the scope `MHDR`'s and `MCIN`'s offsets resolve in
//! (`parent["MCNK"][index]`): while reading, every chunk's place is known from
//! a walk over the chunk headers first; while writing, each chunk's place is
//! recorded and those offsets are patched once the list is written.

use format_core::{
    ChunkTag, Context, CutChunk, Decode, Diagnostic, Encode, Error, FourCC, Reader, Result,
    TagOrder, UnknownChunk, Writer, anchor,
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
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Adt {
    /// Every chunk, in file order.
    pub chunks: Vec<AdtChunk>,
}

impl Adt {
    /// Reads a tile. Errors name the byte offset and the path of chunks and
    /// fields (`chunks[84].MCNK.chunks[3].MCAL: …`); nothing is allocated beyond what
    /// the input can hold. A file that does not start with its `MVER` chunk
    /// is refused, in both modes, saying what it looks like instead (an MDX
    /// model renamed `.adt`, an empty file).
    pub fn from_bytes(data: &[u8]) -> Result<Adt> {
        read(data, terrain_context()).map(|(chunks, _)| Adt { chunks })
    }

    /// Reads a tile leniently: a known chunk or MCNK sub-chunk whose body does
    /// not decode (a damaged or unexpected layout) is kept as an
    /// [`UnknownChunk`] in its place, and reported; the chunk a file cut short
    /// ends inside (a download or copy cut off) is kept as its bytes,
    /// [`AdtChunk::Cut`], and reported, with the chunks before it read. The real-file quirks the
    /// strict reader already accepts (see [`mcnk`](super::mcnk)) are not
    /// reported. The tile still writes back byte for byte.
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(Adt, Vec<Diagnostic>)> {
        let ctx = terrain_context().with_mode(format_core::Mode::Lenient);
        read(data, ctx).map(|(chunks, notes)| (Adt { chunks }, notes))
    }

    /// Writes the tile (see the [module](super) docs for the derived values).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        write(&self.chunks, terrain_context())
    }
}

/// A chunk of a file that is a list of chunks (a tile, a split tile file, a
/// WDT), as [`read`] and [`write`] handle it: with the two variants a
/// lenient read falls back to.
pub(crate) trait ListChunk: Decode<Args = ()> + Encode<Args = ()> + ChunkTag {
    /// The cut variant's name, for the diagnostic (`AdtChunk::Cut`).
    const CUT: &'static str;
    /// What a file of these chunks is, for the error when it does not start
    /// with `MVER` (`an ADT file`).
    const FILE: &'static str;
    /// A chunk kept as bytes: its body does not decode.
    fn unknown(chunk: UnknownChunk) -> Self;
    /// The chunk the input ends inside.
    fn cut(chunk: CutChunk) -> Self;
    /// This chunk as a cut one, if it is.
    fn as_cut(&self) -> Option<&CutChunk>;

    /// `error` placed at the `index`th chunk of the list: `chunks[2].MAIN`,
    /// as a model's `chunks[2].GEOS` (the field of [`Adt`], `Wdt`, `SplitFile`).
    fn at(error: Error, index: usize) -> Error {
        error.at_index(index).in_field("chunks")
    }
}

/// [`ListChunk`] for a chunk enum with `Unknown(UnknownChunk)` and
/// `Cut(CutChunk)` variants: `list_chunk!({impl<…>} Enum<…>, "Enum::Cut", "a … file")`.
macro_rules! list_chunk {
    ({$($head:tt)*} $ty:ty, $cut:literal, $file:literal) => {
        $($head)* $crate::adt::ListChunk for $ty {
            const CUT: &'static str = $cut;
            const FILE: &'static str = $file;

            fn unknown(chunk: format_core::UnknownChunk) -> Self {
                Self::Unknown(chunk)
            }

            fn cut(chunk: format_core::CutChunk) -> Self {
                Self::Cut(chunk)
            }

            fn as_cut(&self) -> Option<&format_core::CutChunk> {
                match self {
                    Self::Cut(cut) => Some(cut),
                    _ => None,
                }
            }
        }
    };
}
pub(crate) use list_chunk;

list_chunk!({impl<M: Decode<Args = ()> + Encode<Args = ()>>} AdtChunk<M>, "AdtChunk::Cut", "an ADT file");

/// Reads a whole file as a chunk list. In lenient mode a known chunk whose
/// body does not decode is kept as bytes, and the chunk the file ends inside
/// as a cut chunk, each with a diagnostic.
pub(crate) fn read<T: ListChunk>(data: &[u8], ctx: Context) -> Result<(Vec<T>, Vec<Diagnostic>)> {
    starts_with_version(data, ctx, T::FILE)?;
    let mut r = Reader::with_context(data, ctx);
    let siblings = anchor::scan_chunks(&r);
    // One allocation for the list (a tile's chunks are up to ~200 bytes each).
    let expected = siblings.len();
    let chunks = r.with_siblings(siblings, |r| {
        let mut chunks = Vec::with_capacity(expected);
        while !r.is_empty() {
            let index = chunks.len();
            chunks.push(read_chunk(r, index)?);
        }
        Ok(chunks)
    })?;
    Ok((chunks, r.take_diagnostics()))
}

/// Every ADT, split ADT and WDT file starts with its `MVER` chunk (every
/// real file does): a file that does not, in either mode, is refused as not
/// what it was taken for, saying what it looks like instead (an MDX model
/// named `.adt`, an empty file from a failed copy), rather than read as one
/// chunk of garbage that a lenient read would keep and write back.
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

/// The `index`th chunk; in lenient mode, one the file ends inside is kept as
/// its bytes ([`AdtChunk::Cut`]), and one that does not decode but whose
/// header fits as an unknown chunk.
fn read_chunk<T: ListChunk>(r: &mut Reader<'_>, index: usize) -> Result<T> {
    let start = r.pos();
    // What a lenient read notes inside the chunk (an MCNK sub-chunk kept as
    // bytes) names its place from the chunk's tag on (`MCNK.chunks[0].MCVT`):
    // it gets the chunk's place in the list in front, as errors do. If the
    // chunk as a whole is then kept as bytes, those notes are dropped: what
    // they say was done inside it was undone.
    let earlier = r.take_diagnostics();
    let decoded = T::decode(r, ());
    let inside = r.take_diagnostics();
    for note in earlier {
        r.note(note.offset, note.message);
    }
    match decoded {
        Ok(chunk) => {
            for note in inside {
                r.note(note.offset, format!("chunks[{index}].{}", note.message));
            }
            Ok(chunk)
        }
        Err(e) => {
            // The chunk list spans the rest of the file.
            let path = |error| T::at(error, index);
            if let Some(cut) = CutChunk::recover(r, start, &e, path, T::CUT)? {
                return Ok(T::cut(cut));
            }
            let e = T::at(e, index);
            let header_fits = r.input().get(start..r.end()).is_some_and(|rest| {
                let size = rest.get(4..8).and_then(|b| b.first_chunk::<4>());
                size.is_some_and(|b| u32::from_le_bytes(*b) as usize <= rest.len() - 8)
            });
            if !(r.ctx().is_lenient() && header_fits) {
                return Err(e);
            }
            r.rewind(start)?;
            r.recover(e, "kept the chunk as bytes")?;
            UnknownChunk::decode(r, ()).map(T::unknown)
        }
    }
}

/// Writes a chunk list; MHDR's and MCIN's offsets are patched once it is
/// written. A cut chunk can only be the last.
pub(crate) fn write<T: ListChunk>(chunks: &[T], ctx: Context) -> Result<Vec<u8>> {
    // Room for the whole tile up front, so the buffer is not copied as it
    // grows: tiles run 4 to 11 KB a chunk (MCNKs with their alpha maps), so
    // 16 KiB a chunk holds every corpus tile. The bytes come back with that
    // capacity: pages never written are address space only, and shrinking
    // measured slower (the allocator hands the pages back to the system, so
    // the next write faults them in again: Northrend 0.16 ms became 1.6 ms).
    let mut w = Writer::with_capacity(ctx, chunks.len().saturating_mul(16 << 10));
    w.with_siblings(|w| {
        for (i, chunk) in chunks.iter().enumerate() {
            let start = w.pos();
            let cut = chunk.as_cut();
            if let Some(cut) = cut {
                cut.check_last(i, chunks.len(), start)
                    .map_err(|e| T::at(e, i))?;
            }
            chunk.encode(w, ()).map_err(|e| T::at(e, i))?;
            // A cut chunk is no target: offsets to its tag found none when
            // the file was read (the scan stops at it), and find none now.
            if cut.is_none() {
                w.push_anchor(chunk.tag(), start, w.pos() - start);
            }
        }
        Ok(())
    })?;
    Ok(w.into_bytes())
}
