//! What can go wrong reading an archive: the archive itself ([`Error`]) or
//! one of its entries ([`EntryError`], always with the entry's name and the
//! offset of its bytes).

/// An archive that cannot be opened, or an entry that cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No archive header at offset 0 or at any multiple of 512 bytes.
    #[error("no MPQ header (`MPQ\\x1A` at a multiple of 512 bytes) in {len} bytes")]
    NoHeader {
        /// The size of what was searched.
        len: usize,
    },
    /// The header does not decode (it runs past the end of the file).
    #[error("the MPQ header at {offset:#x}")]
    Header {
        /// Where the header starts.
        offset: u64,
        /// Why it does not decode.
        #[source]
        source: format_core::Error,
    },
    /// A table starts past the end of the file.
    #[error("the {table} at {offset:#x} starts past the end of the file ({len} bytes)")]
    TableOutOfBounds {
        /// `hash table` or `block table`.
        table: &'static str,
        /// Where the header says it starts.
        offset: u64,
        /// The file's size.
        len: usize,
    },
    /// The hash table has no entries: no name can be found.
    #[error("the hash table has no entries")]
    EmptyHashTable,
    /// No entry has this name.
    #[error("no entry named {name:?}")]
    NotFound {
        /// The name looked for.
        name: String,
    },
    /// An entry's bytes cannot be read.
    #[error("{entry} (its bytes at {offset:#x}): {source}")]
    Entry {
        /// The entry's name (`File00000012.xxx` for one the archive does not name).
        entry: String,
        /// Where its bytes start in the file.
        offset: u64,
        /// What is wrong with them.
        #[source]
        source: EntryError,
    },
}

/// What is wrong with an entry's bytes.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EntryError {
    /// Its bytes, or a sector of them, run past the end of the file.
    #[error("{what} ({needed} bytes at {offset:#x}) runs past the end of the file ({len} bytes)")]
    OutOfBounds {
        /// `its data`, `its sector table`, `sector 3`.
        what: String,
        /// Where it starts in the file.
        offset: u64,
        /// How many bytes it needs.
        needed: u64,
        /// The file's size.
        len: usize,
    },
    /// The sector table is not a list of rising offsets within the entry.
    #[error(
        "sector {sector}'s bounds {start}..{end} in its sector table do not fit its {size} stored bytes"
    )]
    SectorTable {
        /// The sector.
        sector: usize,
        /// Its start, from the entry's start.
        start: u32,
        /// Its end.
        end: u32,
        /// The entry's stored size.
        size: u32,
    },
    /// The entry is encrypted and its name (the key) is not known.
    #[error("encrypted, and the archive does not name it (its name is the key)")]
    EncryptedWithoutName,
    /// The block's sector size is one no archive uses.
    #[error("a sector size shift of {shift} (sectors of more than 512 MiB)")]
    SectorSize {
        /// The header's `sectorSizeShift`.
        shift: u16,
    },
    /// A compression this reader does not decode.
    #[error("sector {sector}: compression {mask:#04x} ({name}) is not supported")]
    UnsupportedCompression {
        /// The sector.
        sector: usize,
        /// The sector's compression byte.
        mask: u8,
        /// What it names (`Huffman`, `ADPCM`, `LZMA`, `sparse`, `unknown`).
        name: &'static str,
    },
    /// zlib data that does not inflate (or inflates past the sector's size).
    #[error("sector {sector}: zlib")]
    Zlib {
        /// The sector.
        sector: usize,
        /// The inflater's error.
        #[source]
        source: miniz_oxide::inflate::DecompressError,
    },
    /// bzip2 data that does not decompress.
    #[error("sector {sector}: bzip2")]
    Bzip2 {
        /// The sector.
        sector: usize,
        /// The decompressor's error (a `bzip2::Error` inside, or the stream
        /// ending early).
        #[source]
        source: std::io::Error,
    },
    /// PKWARE DCL (implode) data that does not explode.
    #[error("sector {sector}: PKWARE DCL")]
    Implode {
        /// The sector.
        sector: usize,
        /// The exploder's error.
        #[source]
        source: explode::Error,
    },
    /// A sector that decompresses to another size than the entry's size gives it.
    #[error("sector {sector} decompresses to {got} bytes, not {expected}")]
    SectorSizeMismatch {
        /// The sector.
        sector: usize,
        /// The size the entry's size gives the sector.
        expected: usize,
        /// The size it decompresses to (at most `expected + 1`: decompression stops there).
        got: usize,
    },
}
