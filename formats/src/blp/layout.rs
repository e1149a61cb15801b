//! The mip table (`mipOffsets[16]`, `mipSizes[16]`) as numbers, and the size
//! of what precedes the levels. The table itself is declared on
//! [`Blp`](super::Blp) (`offset(of = levels, ...)`, `size(of = levels)`): read
//! there, derived on write.

use format_core::{Error, Reader, Result};

use super::header::Header;

/// Entries in each of the two tables.
pub const MIP_SLOTS: usize = 16;

/// One `mipOffsets`/`mipSizes` pair of tables, as written in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MipTable {
    /// `mipOffsets[16]`: absolute file offsets.
    pub offsets: [u32; MIP_SLOTS],
    /// `mipSizes[16]`: byte sizes; the first 0 ends the list of levels.
    pub sizes: [u32; MIP_SLOTS],
}

impl MipTable {
    /// The table of the file `bytes`, which starts at `at`.
    pub fn read(bytes: &[u8], at: usize) -> Result<MipTable> {
        let mut r = Reader::new(bytes);
        r.skip(at)?;
        Ok(MipTable {
            offsets: r.plain().map_err(|e: Error| e.in_field("mip_offsets"))?,
            sizes: r.plain().map_err(|e: Error| e.in_field("mip_sizes"))?,
        })
    }
}

/// The byte size of the header with its table and palette or JPEG header.
pub fn header_len(
    header: &Header,
    jpeg_header: &Option<Vec<u8>>,
    palette: &Option<Vec<[u8; 4]>>,
) -> usize {
    let shared = jpeg_header.as_ref().map_or(0, |j| 4 + j.len())
        + palette.as_ref().map_or(0, |p| 4 * p.len());
    header.table_offset() + 8 * MIP_SLOTS + shared
}
