//! The archive header and the user-data header before it, and where they are
//! found: at offset 0 or at any multiple of 512 bytes (a Warcraft III map
//! has its own 512-byte `HM3W` header first).

use format_core::Codec;

/// `MPQ\x1A`: the archive header.
pub const HEADER_MAGIC: [u8; 4] = *b"MPQ\x1A";
/// `MPQ\x1B`: a user-data header, which points to the archive header.
pub const USER_DATA_MAGIC: [u8; 4] = *b"MPQ\x1B";

/// The fields of the archive header after its `MPQ\x1A` magic, as every
/// version has them (version 1, 32 bytes with the magic).
///
/// ```text
/// uint32 headerSize; uint32 archiveSize; uint16 formatVersion;
/// uint16 sectorSizeShift; uint32 hashTableOffset; uint32 blockTableOffset;
/// uint32 hashTableEntries; uint32 blockTableEntries;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Header {
    /// The header's size: 32 for version 1, 44 for version 2 (protected
    /// maps write anything here; Warcraft III reads them as version 1).
    pub header_size: u32,
    /// The archive's size (not used by the games).
    pub archive_size: u32,
    /// 0: version 1 (Warcraft III, StarCraft); 1: version 2 (World of
    /// Warcraft from The Burning Crusade); 2 and 3 add tables read here as
    /// version 2 reads them.
    pub format_version: u16,
    /// A sector holds `512 << sector_size_shift` bytes of a file.
    pub sector_size_shift: u16,
    /// Where the hash table is, from the archive's start.
    pub hash_table_offset: u32,
    /// Where the block table is, from the archive's start.
    pub block_table_offset: u32,
    /// How many entries the hash table has (a power of two).
    pub hash_table_entries: u32,
    /// How many entries the block table has.
    pub block_table_entries: u32,
}

/// What version 2 adds to the header: the high bits of offsets past 4 GiB.
///
/// ```text
/// uint64 hiBlockTableOffset; uint16 hashTableOffsetHigh; uint16 blockTableOffsetHigh;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct HeaderV2 {
    /// Where the table of each block's high 16 offset bits is (0: none),
    /// low and high words.
    pub hi_block_table_offset: [u32; 2],
    /// Bits 32 to 47 of the hash table's offset.
    pub hash_table_offset_high: u16,
    /// Bits 32 to 47 of the block table's offset.
    pub block_table_offset_high: u16,
}

/// The fields of a user-data header after its `MPQ\x1B` magic (StarCraft II
/// replays and maps; some tools put one before a map's archive).
///
/// ```text
/// uint32 userDataSize; uint32 headerOffset; uint32 userDataHeaderSize;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct UserDataHeader {
    /// How many bytes of user data there are.
    pub user_data_size: u32,
    /// Where the archive header is, from this header's start.
    pub header_offset: u32,
    /// How many bytes of the user data are its header.
    pub user_data_header_size: u32,
}

impl Header {
    /// The size of a sector, or `None` for a shift no archive uses (a
    /// sector of more than 512 MiB).
    pub fn sector_size(&self) -> Option<u32> {
        (self.sector_size_shift <= 20).then(|| 512u32 << self.sector_size_shift)
    }

    /// Whether the header is version 2 or later and big enough to hold
    /// [`HeaderV2`]: a version-1 header with another version number (what
    /// protected Warcraft III maps write) is read as version 1, as the game
    /// reads it.
    pub fn has_v2_fields(&self) -> bool {
        self.format_version >= 1 && self.header_size >= 44
    }
}
