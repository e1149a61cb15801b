//! The chunk-level view of a file: every chunk as `tag`, `size`, `bytes`, in
//! file order, written back byte for byte.
//!
//! All formats here are chunked: MDX (`"MDLX"`, then chunks with tags as the
//! spec writes them) and ADT/WDT (chunks from the first byte, tags stored
//! reversed: `MVER` is the bytes `REVM`). This is what `formats info` lists, and
//! the floor every typed reader is measured against.

use format_core::{Codec, Context, Error, FourCC, TagOrder, UnknownChunk, decode, encode};

/// Which chunked family a file belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Family {
    /// Warcraft III / WoW alpha models: `"MDLX"`, then chunks, tags as specified.
    Mdx,
    /// WoW terrain (ADT) and map (WDT) files: chunks from offset 0, tags reversed.
    Terrain,
}

impl Family {
    /// Recognises a file by its first bytes: `MDLX`, or `REVM` (a reversed `MVER`).
    pub fn detect(data: &[u8]) -> Option<Family> {
        match data.first_chunk::<4>() {
            Some(b"MDLX") => Some(Family::Mdx),
            Some(b"REVM") => Some(Family::Terrain),
            _ => None,
        }
    }

    /// The read/write context of the family (its tag byte order).
    pub fn context(self) -> Context {
        match self {
            Family::Mdx => Context::new(),
            Family::Terrain => Context::new().with_tag_order(TagOrder::Reversed),
        }
    }
}

/// `MDX { char[4] "MDLX"; chunks until the end }`
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(magic = "MDLX")]
pub struct MdxFile {
    /// Every chunk, in file order.
    #[format(until_end)]
    pub chunks: Vec<UnknownChunk>,
}

/// ADT/WDT: chunks from the first byte to the end (tags reversed on disk).
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TerrainFile {
    /// Every chunk, in file order.
    #[format(until_end)]
    pub chunks: Vec<UnknownChunk>,
}

/// A whole file as a list of chunks.
///
/// ```
/// use formats::chunks::{ChunkFile, Family};
/// let data = b"MDLXVERS\x04\x00\x00\x00\x20\x03\x00\x00";
/// let file = ChunkFile::from_bytes(data)?;
/// assert_eq!(file.family(), Family::Mdx);
/// assert_eq!(file.chunks()[0].tag.to_string(), "VERS");
/// assert_eq!(file.to_bytes()?, data);
/// # Ok::<(), formats::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ChunkFile {
    /// An MDX model.
    Mdx(MdxFile),
    /// An ADT or WDT file.
    Terrain(TerrainFile),
}

/// Where a chunk sits in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkEntry {
    /// The chunk's tag (spec order).
    pub tag: FourCC,
    /// Offset of the chunk header.
    pub offset: usize,
    /// The body size (excluding the 8-byte header).
    pub size: usize,
}

impl ChunkFile {
    /// Reads any supported chunked file, recognised by its first bytes.
    pub fn from_bytes(data: &[u8]) -> Result<ChunkFile, Error> {
        match Family::detect(data) {
            Some(Family::Mdx) => decode(data, Family::Mdx.context()).map(ChunkFile::Mdx),
            Some(Family::Terrain) => {
                decode(data, Family::Terrain.context()).map(ChunkFile::Terrain)
            }
            None => {
                let mut start = [0u8; 4];
                start.iter_mut().zip(data).for_each(|(d, s)| *d = *s);
                Err(Error::invalid(
                    0,
                    format!(
                        "not an MDX (MDLX) or ADT/WDT (REVM) file: starts with `{}`",
                        FourCC::new(start)
                    ),
                ))
            }
        }
    }

    /// Writes the file back.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        match self {
            ChunkFile::Mdx(file) => encode(file, Family::Mdx.context()),
            ChunkFile::Terrain(file) => encode(file, Family::Terrain.context()),
        }
    }

    /// MDX or terrain.
    pub fn family(&self) -> Family {
        match self {
            ChunkFile::Mdx(_) => Family::Mdx,
            ChunkFile::Terrain(_) => Family::Terrain,
        }
    }

    /// Every chunk, in file order.
    pub fn chunks(&self) -> &[UnknownChunk] {
        match self {
            ChunkFile::Mdx(file) => &file.chunks,
            ChunkFile::Terrain(file) => &file.chunks,
        }
    }

    /// Each chunk's tag, header offset and body size, in file order.
    pub fn entries(&self) -> Vec<ChunkEntry> {
        let mut offset = match self.family() {
            Family::Mdx => 4,
            Family::Terrain => 0,
        };
        self.chunks()
            .iter()
            .map(|c| {
                let entry = ChunkEntry {
                    tag: c.tag,
                    offset,
                    size: c.bytes.len(),
                };
                offset += 8 + c.bytes.len();
                entry
            })
            .collect()
    }
}
