//! MPQ archives (MoPaQ): Warcraft III maps (`.w3m`, `.w3x`) and campaigns
//! (`.w3n`), and the classic games' data (`war3.mpq`, World of Warcraft's
//! `.MPQ` files up to Wrath of the Lich King). Feature `archive`.
//!
//! [`Archive`] opens an archive over its bytes, reads its hash and block
//! tables, names its entries from its `(listfile)` (and the files every
//! map has, [`KNOWN_NAMES`]) and reads an entry's bytes on demand:
//! decrypted, then each sector decompressed.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let bytes = formats::sample::sample_mpq();
//! let archive = formats::mpq::Archive::new(&bytes)?;
//! let names: Vec<String> = archive.entries().iter().map(|e| e.name().into_owned()).collect();
//! assert!(names.contains(&"Units\\Footman.mdx".to_owned()));
//! let model = formats::mdx::Model::from_bytes(&archive.read("units/footman.mdx")?)?;
//! # let _ = model;
//! # Ok(())
//! # }
//! ```
//!
//! # What is read
//!
//! | part | read |
//! |---|---|
//! | header | version 1 (32 bytes) and the offsets' high bits of version 2, at 0 or any multiple of 512, or where a `MPQ\x1B` user-data header points |
//! | hash and block tables | decrypted; a table that claims more entries than the file holds is read as far as it goes ([`Archive::diagnostics`]) |
//! | entries | sectors or single units; encrypted (the key from the name, adjusted by offset and size for `FIX_KEY`); zlib, bzip2 and PKWARE DCL (implode), alone or combined |
//! | not decoded | Huffman and ADPCM (StarCraft's and Diablo's sounds), LZMA and sparse (StarCraft II): an [`EntryError::UnsupportedCompression`] naming the entry; version 3 and 4's HET and BET tables (their archives keep the classic tables too); the high 16 bits of block offsets (archives past 4 GiB) |
//!
//! Where real archives break the format, they are read as Warcraft III
//! reads them: a header with another version or size is read as version 1,
//! tables that claim more entries than the file holds are read as far as
//! they go (both with a [`Diagnostic`](format_core::Diagnostic)), and a
//! zlib sector whose Adler-32 checksum does not match its data is taken as
//! it inflates (the game's Storm library does not check it; a public map's
//! `(listfile)` has one).
//!
//! Names are case-insensitive and `/` reads as `\`, as the games look them
//! up; an entry the archive does not name is `File00000012.xxx` (its block
//! index, as StormLib names them), and readable by that name unless it is
//! encrypted (its name is its key).
//!
//! # Bad input
//!
//! A damaged archive is an [`Error`], never a panic: every table and sector
//! is checked against the bytes there are before anything is allocated, no
//! sector is decompressed past the size its entry gives it, and an entry's
//! error names the entry and the offset of its bytes (`Units\Footman.mdx
//! (its bytes at 0x2a0): sector 2: zlib`). The fuzz target `mpq` opens
//! archives and reads every entry.
//!
//! # Why this reader and not a crate
//!
//! Three MPQ crates were measured on the corpus archives and on damaged
//! copies of them; each panicked, hung or aborted on some, or read real
//! entries wrong. The container is small (a header, two tables, sectors);
//! the codecs are crates. The measurements are in `docs/archives.md`.

mod archive;
mod crypt;
mod error;
mod header;
mod sector;
mod table;

pub use archive::{Archive, Entry, KNOWN_NAMES};
pub use error::{EntryError, Error};
pub use header::{HEADER_MAGIC, Header, HeaderV2, USER_DATA_MAGIC, UserDataHeader};
pub use table::{BlockEntry, HashEntry, flags};

/// The sample archive is built with the format's own hashing and encryption.
pub(crate) use crypt::{HashKind, encrypt, hash};
