//! A file that is a list of chunks, as `#[format(chunk_list)]` on the enum
//! of its chunks derives it: the list reader and writer ([`ChunkList`],
//! reached through `#[format(until_end)]` on a `Vec` of the enum), the
//! chunks a lenient read keeps as bytes ([`CutChunk`], [`UndecodedChunk`],
//! [`UnknownChunk`]), and chunks of the user's own in the list
//! ([`chunk`], [`set_chunk`]).
//!
//! The list is the `chunks` field of its file (`Model::chunks`,
//! `Adt::chunks`): errors and diagnostics name its elements
//! `chunks[i]`.
//!
//! ```
//! use format_core::{Codec, Context, Mode, UnknownChunk, decode, encode};
//!
//! #[derive(Codec, Debug, PartialEq)]
//! #[format(chunk = "VERS")]
//! struct Version {
//!     version: u32,
//! }
//!
//! #[derive(Codec, Debug, PartialEq)]
//! #[format(chunk_list)]
//! enum Chunk {
//!     Version(Version),
//!     #[format(cut)]
//!     Cut(format_core::CutChunk),
//!     #[format(unknown)]
//!     Unknown(UnknownChunk),
//! }
//!
//! #[derive(Codec, Debug, PartialEq)]
//! #[format(magic = "FILE")]
//! struct File {
//!     #[format(until_end)]
//!     chunks: Vec<Chunk>,
//! }
//!
//! let data = b"FILEVERS\x04\x00\x00\x00\x01\x00\x00\x00ABCD\x08\x00\x00\x00\x01";
//! assert!(decode::<File>(data, Context::new()).is_err()); // the file ends inside ABCD
//! let lenient = Context::new().with_mode(Mode::Lenient);
//! let mut r = format_core::Reader::with_context(data, lenient);
//! let file = <File as format_core::Decode>::decode(&mut r, ())?;
//! assert!(matches!(file.chunks[1], Chunk::Cut(_)));
//! assert!(r.take_diagnostics()[0].message.starts_with("chunks[1].ABCD: "));
//! assert_eq!(encode(&file, lenient)?, data); // written back as cut
//! # Ok::<(), format_core::Error>(())
//! ```

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::{
    ChunkTag, Context, CutChunk, Decode, Encode, Error, FourCC, HasTag, Reader, Result, Tagged,
    UnknownChunk, Writer, decode, encode,
};

/// A list of chunks that keeps the ones no variant knows as
/// [`UnknownChunk`]s in place: what [`chunk`] and [`set_chunk`] need. Every
/// derived [`ChunkList`] is one; a list walked by hand (ADT's `MCNK`
/// sub-chunks) implements it itself.
pub trait UnknownSlot: ChunkTag + Tagged + Sized {
    /// The chunk kept as bytes because no variant knows its tag, if it is one.
    fn as_unknown(&self) -> Option<&UnknownChunk>;
    /// The same, to replace its bytes.
    fn as_unknown_mut(&mut self) -> Option<&mut UnknownChunk>;
    /// A chunk no variant knows.
    fn from_unknown(chunk: UnknownChunk) -> Self;
}

/// The enum of a file's chunks, derived with `#[format(chunk_list)]`: what
/// the list reader and writer need of it. Generated; the derive documents
/// the variants it takes (`unknown`, `cut`, `undecoded`, `after_chunk`).
pub trait ChunkList: Decode<Args = ()> + Encode<Args = ()> + UnknownSlot {
    /// The name of the variant that keeps a cut chunk, for diagnostics
    /// (`"Chunk::Cut"`).
    const CUT: &'static str;
    /// The name of the variant that keeps a chunk whose content does not
    /// decode (`"Chunk::Undecoded"`), or of the unknown one.
    const UNDECODED: &'static str;
    /// `chunk_list(parent)`: offsets in the chunks name other chunks of the
    /// list (`parent["MCNK"][index]`, ADT's `MHDR` and `MCIN`), so the list
    /// installs its chunks as the siblings those offsets resolve in, found
    /// by a walk over the chunk headers on read, recorded as written on
    /// write.
    const PARENT: bool = false;

    /// The chunk the input ends inside, if this is it.
    fn as_cut(&self) -> Option<&CutChunk>;
    /// The chunk the input ends inside.
    fn from_cut(chunk: CutChunk) -> Self;
    /// A known chunk whose content does not decode, with the strict
    /// reader's error (a list without an `undecoded` variant keeps it as
    /// unknown, and drops the error: its diagnostic has it).
    fn from_undecoded(chunk: UndecodedChunk) -> Self;

    /// What a file stores right after this chunk, outside its size (the
    /// `after_chunk` variant's [`AfterChunk::read_after`]); nothing for others.
    fn read_after(&mut self, r: &mut Reader<'_>) -> Result<()> {
        let _ = r;
        Ok(())
    }

    /// Writes it back ([`AfterChunk::write_after`]).
    fn write_after(&self, w: &mut Writer) -> Result<()> {
        let _ = w;
        Ok(())
    }
}

/// A chunk type that owns bytes a file stores right after it, outside its
/// size (a writer's bug kept for exactness): `#[format(after_chunk)]` on its
/// variant of a chunk list reads them after the chunk and writes them back
/// there. Errors are placed at the chunk (`chunks[i]`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` reads nothing after its chunk",
    label = "`#[format(after_chunk)]` needs `impl format_core::AfterChunk for {Self}`"
)]
pub trait AfterChunk {
    /// Reads what follows the chunk (nothing, if what follows is not its).
    fn read_after(&mut self, r: &mut Reader<'_>) -> Result<()>;
    /// Writes it back after the chunk.
    fn write_after(&self, w: &mut Writer) -> Result<()>;
}

/// `error` placed at the `index`th chunk of the list: `chunks[2].GEOS`.
fn at(error: Error, index: usize) -> Error {
    error.at_index(index).in_field("chunks")
}

/// Reads chunks to the end of the enclosing region, each followed by what
/// its [`ChunkList::read_after`] reads. In lenient mode the chunk a cut file
/// ends inside is kept as a [`CutChunk`], and a known chunk whose header
/// fits but whose content does not decode as an [`UndecodedChunk`] (or an
/// [`UnknownChunk`]), each with a diagnostic; diagnostics from inside a
/// chunk are placed at it (`chunks[3].`). Errors name the chunk by index;
/// the caller adds the field (`chunks`).
pub fn read<C: ChunkList>(r: &mut Reader<'_>) -> Result<Vec<C>> {
    if !C::PARENT {
        return read_all(r, Vec::new());
    }
    let siblings = crate::anchor::scan_chunks(r);
    // One allocation for the list (a tile's chunks are up to ~200 bytes each).
    let chunks = Vec::with_capacity(siblings.len());
    r.with_siblings(siblings, |r| read_all(r, chunks))
}

fn read_all<C: ChunkList>(r: &mut Reader<'_>, mut chunks: Vec<C>) -> Result<Vec<C>> {
    while !r.is_empty() {
        let index = chunks.len();
        let mut chunk = read_one::<C>(r, index)?;
        let mark = r.diagnostics.len();
        let after = chunk.read_after(r);
        restore(r, mark, index, after.is_ok());
        after.map_err(|e| e.at_index(index))?;
        chunks.push(chunk);
    }
    Ok(chunks)
}

/// Places the diagnostics a step noted (those from `mark` on) at chunk
/// `index` if the step is kept, and forgets them if not; the ones noted
/// before it stay as they are.
fn restore(r: &mut Reader<'_>, mark: usize, index: usize, keep: bool) {
    if keep {
        for note in r.diagnostics.iter_mut().skip(mark) {
            note.message = format!("chunks[{index}].{}", note.message);
        }
    } else {
        r.diagnostics.truncate(mark);
    }
}

fn read_one<C: ChunkList>(r: &mut Reader<'_>, index: usize) -> Result<C> {
    let start = r.pos();
    // What a failed attempt did to the context (a `VERS` sets the version)
    // and noted (a lenient fix inside it) is undone with it.
    let ctx = *r.ctx();
    let mark = r.diagnostics.len();
    let decoded = C::decode(r, ());
    restore(r, mark, index, decoded.is_ok());
    let e = match decoded {
        Ok(chunk) => return Ok(chunk),
        Err(e) => e,
    };
    *r.ctx_mut() = ctx;
    let path = |error: Error| at(error, index);
    if let Some(cut) = CutChunk::recover(r, start, &e, path, C::CUT)? {
        return Ok(C::from_cut(cut));
    }
    // Not cut: the chunk's header is whole and its size fits, or its tag is
    // cut (no chunk to keep).
    let whole = r
        .input()
        .get(start..r.end())
        .is_some_and(|rest| rest.len() >= 8);
    if !(r.ctx().is_lenient() && whole) {
        return Err(e.at_index(index));
    }
    r.rewind(start)?;
    let UnknownChunk { tag, bytes } = UnknownChunk::decode(r, ())?;
    let strict = path(e);
    let kept = UndecodedChunk {
        tag,
        bytes,
        error: strict.to_string(),
    };
    let fix = format!(
        "kept the chunk's {} bytes from {start:#x} as they are ({}), to be written back \
         unchanged: its size fits the file but its content does not decode; the chunks \
         around it are read",
        r.pos() - start,
        C::UNDECODED
    );
    r.recover(strict, fix)?;
    Ok(C::from_undecoded(kept))
}

/// Writes the chunks in order, each followed by what its
/// [`ChunkList::write_after`] writes. A cut chunk can only be the last
/// (anything after it would read back as the rest of it). Errors name the
/// chunk by index; the caller adds the field (`chunks`).
pub fn write<C: ChunkList>(chunks: &[C], w: &mut Writer) -> Result<()> {
    if C::PARENT {
        // The offsets into the list are patched once it is written.
        w.with_siblings(|w| write_all(chunks, w))
    } else {
        write_all(chunks, w)
    }
}

fn write_all<C: ChunkList>(chunks: &[C], w: &mut Writer) -> Result<()> {
    for (index, chunk) in chunks.iter().enumerate() {
        let start = w.pos();
        let cut = chunk.as_cut();
        if let Some(cut) = cut {
            cut.check_last(index, chunks.len(), start)
                .map_err(|e| e.at_index(index))?;
        }
        chunk.encode(w, ()).map_err(|e| e.at_index(index))?;
        // A cut chunk is no target: offsets to its tag found none when the
        // file was read (the walk stops at it), and find none now.
        if C::PARENT && cut.is_none() {
            w.push_anchor(chunk.tag(), start, w.pos() - start);
        }
        chunk.write_after(w).map_err(|e| e.at_index(index))?;
    }
    Ok(())
}

/// A known chunk whose declared size fits the file but whose content does
/// not decode (a collision shape that says 2 vertices where 8 bytes are
/// left, a count larger than its chunk), kept by a lenient read as the bytes
/// it was read from, in its place (`#[format(undecoded)]`); written back
/// unchanged. What it holds is missing from the file's typed chunks.
///
/// ```
/// use format_core::{Context, UndecodedChunk, decode, encode};
/// let data = b"CLID\x02\x00\x00\x00\x01\x02";
/// let kept: UndecodedChunk = decode(data, Context::new())?;
/// assert_eq!((kept.tag.to_string(), kept.bytes.len()), ("CLID".to_string(), 2));
/// assert_eq!(encode(&kept, Context::new())?, data);
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UndecodedChunk {
    /// The chunk's tag, in spec order.
    pub tag: FourCC,
    /// The chunk's body as read (its size, written back, is its length).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_bytes"))]
    pub bytes: Vec<u8>,
    /// Why it does not decode: the strict reader's error, with its offset in
    /// the file it was read from and its path (`chunks[9].CLID.shapes[0].vertices:
    /// …`). Empty for one built in code. Not compared by `==` (two reads of
    /// the chunk are the same chunk wherever it was), not shown by `Debug`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub error: String,
}

impl UndecodedChunk {
    /// What is wrong with it, for a report: "its content does not decode
    /// (its 108 bytes are kept as read): `chunks[9].CLID.shapes[0]…`".
    pub fn damage(&self) -> String {
        let kept = format!(
            "its content does not decode (its {} bytes are kept as read)",
            self.bytes.len()
        );
        if self.error.is_empty() {
            kept
        } else {
            format!("{kept}: {}", self.error)
        }
    }
}

impl PartialEq for UndecodedChunk {
    /// The tag and the bytes: see [`error`](UndecodedChunk::error).
    fn eq(&self, other: &Self) -> bool {
        self.tag == other.tag && self.bytes == other.bytes
    }
}

impl fmt::Debug for UndecodedChunk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "UndecodedChunk({}, {} bytes)",
            self.tag,
            self.bytes.len()
        )
    }
}

impl Decode for UndecodedChunk {
    type Args = ();
    const MIN_SIZE: usize = 8;

    /// Reads a whole chunk as bytes, whatever its body (no error to keep).
    fn decode(r: &mut Reader<'_>, _: ()) -> Result<Self> {
        let UnknownChunk { tag, bytes } = UnknownChunk::decode(r, ())?;
        Ok(UndecodedChunk {
            tag,
            bytes,
            error: String::new(),
        })
    }
}

impl Encode for UndecodedChunk {
    type Args = ();

    fn encode(&self, w: &mut Writer, _: ()) -> Result<()> {
        w.chunk(self.tag, |w| {
            w.bytes(&self.bytes);
            Ok(())
        })
    }
}

impl ChunkTag for UndecodedChunk {
    fn tag(&self) -> FourCC {
        self.tag
    }
}

/// The error for a tag the format reads itself: `make` is [`Error::invalid`]
/// when reading, [`Error::inconsistent`] when writing.
fn known_tag(make: fn(usize, String) -> Error, tag: FourCC) -> Error {
    make(
        0,
        format!(
            "`{tag}` is a chunk the format reads itself (a typed variant), not one of the \
             user's own"
        ),
    )
    .in_tag(tag)
}

/// The first chunk of `chunks` with `T`'s tag, decoded as a `T` in `ctx`
/// (the file's version, tag order): a chunk of the user's own, which the
/// list keeps as an [`UnknownChunk`] in place (`T` derives `Codec` with
/// `#[format(chunk = "....")]`). `None` if there is none; an error if it
/// does not decode (its path names the chunk, `chunks[12].MYCK.…`; its
/// offset counts from the chunk's tag) or if the list reads that tag itself.
pub fn chunk<T, C>(chunks: &[C], ctx: Context) -> Option<Result<T>>
where
    T: Decode<Args = ()> + HasTag,
    C: UnknownSlot,
{
    let (index, found) = chunks.iter().enumerate().find(|(_, c)| c.tag() == T::TAG)?;
    let decoded = match found.as_unknown() {
        Some(kept) => encode(kept, ctx).and_then(|bytes| decode::<T>(&bytes, ctx)),
        None => Err(known_tag(Error::invalid, T::TAG)),
    };
    Some(decoded.map_err(|e| at(e, index)))
}

/// Puts `value` in place of the first chunk with its tag, or after the last
/// chunk if there is none (see [`chunk`]). An error if `value` does not
/// encode as one chunk (`chunk = "..."`), or if its tag is one the list
/// reads itself.
pub fn set_chunk<T, C>(chunks: &mut Vec<C>, value: &T, ctx: Context) -> Result<()>
where
    T: Encode<Args = ()> + HasTag,
    C: UnknownSlot,
{
    let tag = T::TAG;
    let bytes = encode(value, ctx)?;
    let kept: UnknownChunk = decode(&bytes, ctx).map_err(|e| {
        Error::inconsistent(
            e.offset(),
            format!(
                "`{tag}` does not encode as one chunk (tag, size, body: derive it with \
                 `#[format(chunk = \"{tag}\")]`): {e}"
            ),
        )
    })?;
    match chunks.iter_mut().find(|c| c.tag() == tag) {
        Some(slot) => match slot.as_unknown_mut() {
            Some(unknown) => *unknown = kept,
            None => return Err(known_tag(Error::inconsistent, tag)),
        },
        None if C::TAGS.contains(&tag) => return Err(known_tag(Error::inconsistent, tag)),
        None => chunks.push(C::from_unknown(kept)),
    }
    Ok(())
}
