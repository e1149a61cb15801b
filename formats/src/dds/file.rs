//! [`Dds`]: a whole DDS file, defined with the derive and read and written
//! byte-exact.

use format_core::{Codec, Context, Error, decode, encode};

use super::header::{DdsHeader, DdsHeaderDxt10, PixelFormat};

/// A DDS texture: the headers and the surface bytes (every level of every
/// face or array element, as stored; level 0 of the first comes first).
///
/// ```text
/// DWORD dwMagic;  // "DDS "
/// DDS_HEADER header;
/// DDS_HEADER_DXT10 header10;  // if header.ddspf.dwFourCC == "DX10"
/// BYTE bdata[];   // the surfaces
/// ```
#[derive(Codec, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(magic = "DDS ")]
pub struct Dds {
    /// `DDS_HEADER`.
    pub header: DdsHeader,
    /// `DDS_HEADER_DXT10`, if `ddspf.dwFourCC` is `DX10`.
    #[format(if = header.ddspf.four_cc == *b"DX10")]
    pub dx10: Option<DdsHeaderDxt10>,
    /// The surfaces' bytes, as stored (hex text in JSON, as BLP levels).
    #[format(until_end)]
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))]
    pub data: Vec<u8>,
}

impl Dds {
    /// Reads a DDS file.
    pub fn from_bytes(data: &[u8]) -> Result<Dds, Error> {
        if !data.starts_with(b"DDS ") {
            return Err(crate::magic::not_a("a DDS texture", "`DDS `", data));
        }
        decode(data, Context::new())
    }

    /// Writes the file, byte for byte as read if nothing was changed.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        encode(self, Context::new())
    }

    /// What the headers say the pixels are.
    pub fn pixel_format(&self) -> Result<PixelFormat, Error> {
        PixelFormat::of(&self.header, self.dx10.as_ref())
    }

    /// The mip levels of each surface: `dwMipMapCount`, at least 1 (writers
    /// leave it 0 for a texture without mips).
    pub fn level_count(&self) -> u32 {
        self.header.mip_map_count.clamp(1, 32)
    }

    /// The width and height of mip level `level` (each side halved per
    /// level, at least 1).
    pub fn level_size(&self, level: u32) -> (u32, u32) {
        let half = |side: u32| side.checked_shr(level).unwrap_or(0).max(1);
        (half(self.header.width), half(self.header.height))
    }

    /// Where the surfaces start in the file: after the magic, `DDS_HEADER`
    /// and, if there, `DDS_HEADER_DXT10`.
    pub fn data_offset(&self) -> usize {
        4 + 124 + if self.dx10.is_some() { 20 } else { 0 }
    }
}
