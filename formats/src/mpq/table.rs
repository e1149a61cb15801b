//! The hash table (names to blocks) and the block table (where each file's
//! bytes are, and how they are stored). Both are encrypted on disk.

use format_core::Codec;

/// One slot of the hash table: a name's two check hashes, its locale and
/// platform, and the block holding its file.
///
/// ```text
/// uint32 name1; uint32 name2; uint16 locale; uint16 platform; uint32 blockIndex;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct HashEntry {
    /// The name's first check hash.
    pub name1: u32,
    /// The name's second check hash.
    pub name2: u32,
    /// The file's language (0: neutral; 0x409 English, ...).
    pub locale: u16,
    /// The platform (always 0).
    pub platform: u16,
    /// The block of the file; [`HashEntry::EMPTY`] ends a search,
    /// [`HashEntry::DELETED`] does not.
    pub block_index: u32,
}

impl HashEntry {
    /// A slot never used: a name searched for is not in the archive.
    pub const EMPTY: u32 = 0xFFFF_FFFF;
    /// A slot whose file was deleted: the search goes on.
    pub const DELETED: u32 = 0xFFFF_FFFE;

    /// Whether the slot holds a file (neither empty nor deleted).
    pub fn is_used(&self) -> bool {
        self.block_index < Self::DELETED
    }
}

/// One entry of the block table: where a file is and how it is stored.
///
/// ```text
/// uint32 offset; uint32 compressedSize; uint32 fileSize; uint32 flags;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct BlockEntry {
    /// Where the file's bytes start, from the archive's start.
    pub offset: u32,
    /// How many bytes it takes in the archive.
    pub compressed_size: u32,
    /// How many bytes it has once read.
    pub file_size: u32,
    /// How it is stored ([`flags`]).
    pub flags: u32,
}

/// The bits of [`BlockEntry::flags`].
pub mod flags {
    /// Sectors compressed with PKWARE's DCL implode (StarCraft-era archives).
    pub const IMPLODE: u32 = 0x0000_0100;
    /// Sectors compressed, each led by a byte saying how.
    pub const COMPRESS: u32 = 0x0000_0200;
    /// Sectors (and the sector table) encrypted with the file's key.
    pub const ENCRYPTED: u32 = 0x0001_0000;
    /// The key is adjusted by the file's offset and size.
    pub const FIX_KEY: u32 = 0x0002_0000;
    /// A patch file (World of Warcraft patch archives).
    pub const PATCH_FILE: u32 = 0x0010_0000;
    /// The file is one unit, not cut into sectors.
    pub const SINGLE_UNIT: u32 = 0x0100_0000;
    /// A deletion marker (patch archives).
    pub const DELETE_MARKER: u32 = 0x0200_0000;
    /// The sector table ends with a table of sector checksums.
    pub const SECTOR_CRC: u32 = 0x0400_0000;
    /// The block holds a file.
    pub const EXISTS: u32 = 0x8000_0000;
}

impl BlockEntry {
    /// Whether these bits are set.
    pub fn has(&self, bits: u32) -> bool {
        self.flags & bits == bits
    }
}
