//! DDS textures, as Warcraft III Reforged ships its HD textures: a model
//! names `X_Diffuse.tif` or `X.blp`, and the game loads `X_Diffuse.dds`.
//! Read and written byte-exact; mip levels decoded to RGBA8 (level 0 for
//! the glTF export's texture folders).
//!
//! - [`Dds`]: the file, defined with the derive (the `DDS ` magic,
//!   `DDS_HEADER`, the optional `DDS_HEADER_DXT10`, the surface bytes).
//! - [`header`]: the headers field by field as Microsoft documents them, and
//!   [`PixelFormat`]: what the headers say the bytes are.
//! - With the `blp-pixels` feature (on by default): [`Dds::decode_level`]
//!   gives a mip level of the first surface (face, array element or depth
//!   slice) as an [`RgbaImage`](crate::blp::RgbaImage):
//!   BC1 to BC5 (DXT1, DXT3, DXT5, ATI1, ATI2) by the same block decoder as
//!   BLP's DXT levels, BC7 by `bcdec_rs`, and uncompressed RGB, RGBA and
//!   luminance by their bit masks. BC6H (HDR), signed and other DXGI
//!   formats are refused by name.
//! - With `blp-pixels` too: [`Dds::encode`] makes a texture of an
//!   [`RgbaImage`](crate::blp::RgbaImage) in a [`Target`] format, BC1, BC3
//!   or BC5 (what the glTF import writes for Reforged's HD materials: BC1
//!   or BC3 by alpha for colour, BC5 for normal maps), with every mip
//!   level, by the mip and block code BLP's encoder uses.
//!
//! ```
//! use formats::dds::{Dds, PixelFormat};
//! # fn main() -> Result<(), formats::Error> {
//! # let data = formats::dds::tiny_dds_rgba();
//! let dds = Dds::from_bytes(&data)?;
//! assert_eq!((dds.header.width, dds.header.height), (2, 1));
//! assert!(matches!(dds.pixel_format()?, PixelFormat::Masked { .. }));
//! assert_eq!(dds.to_bytes()?, data);
//! # #[cfg(feature = "blp-pixels")] {
//! let image = dds.decode_level(0)?;
//! assert_eq!(image.data, [255, 0, 0, 255, 0, 0, 255, 128]);
//! # }
//! # Ok(()) }
//! ```

#[cfg(feature = "blp-pixels")]
mod decode;
#[cfg(feature = "blp-pixels")]
pub use decode::rebuild_normal_z;
#[cfg(feature = "blp-pixels")]
mod encode;
#[cfg(feature = "blp-pixels")]
pub use encode::Target;
mod file;
pub mod header;

pub use file::Dds;
pub use header::{DdsHeader, DdsHeaderDxt10, DdsPixelFormat, PixelFormat};

/// A 2x1 uncompressed 32-bit DDS (B, G, R, A in memory: a red opaque pixel
/// and a half-transparent blue one), for examples.
#[doc(hidden)]
pub fn tiny_dds_rgba() -> Vec<u8> {
    let ddspf = DdsPixelFormat {
        size: 32,
        flags: header::pixel_flags::RGB | header::pixel_flags::ALPHA_PIXELS,
        rgb_bit_count: 32,
        r_bit_mask: 0x00ff_0000,
        g_bit_mask: 0x0000_ff00,
        b_bit_mask: 0x0000_00ff,
        a_bit_mask: 0xff00_0000,
        ..Default::default()
    };
    let pixels = vec![0, 0, 255, 255, 255, 0, 0, 128];
    tiny_dds(2, 1, 1, ddspf, pixels)
}

/// A DDS of `width` x `height` with `mips` levels in `ddspf`, with `data`
/// for its surfaces: flags for caps, size and pixel format (and mip count),
/// caps texture (and mipmap), pitch 0 (for tests and examples).
#[doc(hidden)]
pub fn tiny_dds(
    width: u32,
    height: u32,
    mips: u32,
    ddspf: DdsPixelFormat,
    data: Vec<u8>,
) -> Vec<u8> {
    let with_mips = mips > 1;
    let dds = Dds {
        header: DdsHeader {
            size: 124,
            flags: 0x1007 | if with_mips { 0x2_0000 } else { 0 },
            height,
            width,
            mip_map_count: mips,
            ddspf,
            caps: 0x1000 | if with_mips { 0x40_0008 } else { 0 },
            ..Default::default()
        },
        dx10: None,
        data,
    };
    dds.to_bytes().unwrap_or_default()
}
