//! Damaged files, read leniently (the rules are in the quirks table of the
//! [module](super) docs): a chunk the file ends inside (a download or a copy
//! cut short) is kept as its bytes, [`Chunk::Cut`]; a chunk whose size fits
//! the file but whose content does not decode is kept as its bytes,
//! [`Chunk::Undecoded`] ([`UndecodedChunk`]). Each comes with a diagnostic,
//! the chunks around it are read, and writing gives the file back byte for
//! byte. A strict read refuses both, with the error it always gave.

use core::fmt;

use format_core::{
    ChunkTag, CutChunk, Decode, Encode, Error, FourCC, Reader, Result, UnknownChunk, Writer,
};

use super::chunk::Chunk;

/// A known chunk whose declared size fits the file but whose content does
/// not decode (a collision shape that says 2 vertices where 8 bytes are
/// left, a count larger than its chunk), kept by a lenient read as the bytes
/// it was read from, in its place; written back unchanged.
///
/// The model lacks what the chunk holds (its `CLID` shapes, say): the
/// accessors see no such chunk. [`Model::from_bytes_lenient`] makes one, and
/// the MDL reader in lenient mode from an `ExtChunk` that does not decode.
///
/// ```
/// use formats::mdx::{Chunk, Model};
///
/// let mut data = formats::sample::sample_mdx();
/// // The sample's last chunk is PIVT, one point (12 bytes): declare 11.
/// let size_at = data.len() - 16;
/// data[size_at] = 11;
/// data.pop();
/// let strict = Model::from_bytes(&data).unwrap_err();
/// let (model, diagnostics) = Model::from_bytes_lenient(&data)?;
/// let Some(Chunk::Undecoded(kept)) = model.chunks.last() else { panic!() };
/// assert_eq!((kept.tag.to_string(), kept.bytes.len()), ("PIVT".to_string(), 11));
/// assert_eq!(kept.error, strict.to_string()); // why, as the strict reader said
/// assert_eq!(diagnostics[0].offset, strict.offset());
/// assert_eq!(model.to_bytes()?, data); // written back as read
/// # Ok::<(), formats::Error>(())
/// ```
///
/// [`Model::from_bytes_lenient`]: super::Model::from_bytes_lenient
#[derive(Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UndecodedChunk {
    /// The chunk's tag, in spec order.
    pub tag: FourCC,
    /// The chunk's body as read (its size, written back, is its length).
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))]
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

/// One top-level chunk, the `index`th. In lenient mode a chunk that fails to
/// decode is kept as its bytes: as a [`CutChunk`] when the file ends inside
/// it, as an [`UndecodedChunk`] when its declared size fits the file.
pub(super) fn read_chunk(r: &mut Reader<'_>, index: usize) -> Result<Chunk> {
    let start = r.pos();
    // What a failed attempt did to the context (a `VERS` sets the version)
    // and noted (a lenient fix inside it) is undone with it.
    let ctx = *r.ctx();
    let earlier = r.take_diagnostics();
    let decoded = Chunk::decode(r, ());
    let inside = r.take_diagnostics();
    for note in earlier {
        r.note(note.offset, note.message);
    }
    let e = match decoded {
        Ok(chunk) => {
            for note in inside {
                r.note(note.offset, note.message);
            }
            return Ok(chunk);
        }
        Err(e) => e,
    };
    *r.ctx_mut() = ctx;
    // The chunk list spans the rest of the file, so the region's end is
    // the file's end.
    let path = |error: Error| error.at_index(index).in_field("chunks");
    if let Some(cut) = CutChunk::recover(r, start, &e, path, "Chunk::Cut")? {
        return Ok(Chunk::Cut(cut));
    }
    // Not cut: the chunk's header is whole and its size fits, or its tag
    // is cut (no chunk to keep). A size that does not fit is a cut chunk.
    let whole = r
        .input()
        .get(start..r.end())
        .is_some_and(|rest| rest.len() >= 8);
    if !(r.ctx().is_lenient() && whole) {
        return Err(e.at_index(index));
    }
    r.rewind(start)?;
    let mut kept = UndecodedChunk::decode(r, ())?;
    let strict = path(e);
    kept.error = strict.to_string();
    let fix = format!(
        "kept the chunk's {} bytes from {start:#x} as they are (Chunk::Undecoded), to be written \
         back unchanged: its size fits the file but its content does not decode; the chunks \
         around it are read",
        r.pos() - start
    );
    r.recover(strict, fix)?;
    Ok(Chunk::Undecoded(kept))
}
