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
//!   gives a mip level of the first surface (face or array element) as an
//!   [`RgbaImage`](crate::blp::RgbaImage):
//!   BC1 to BC5 (DXT1, DXT3, DXT5, ATI1, ATI2) by the same block decoder as
//!   BLP's DXT levels, BC7 by `bcdec_rs`, and uncompressed RGB, RGBA and
//!   luminance by their bit masks. BC6H (HDR), signed and other DXGI
//!   formats are refused by name.
//!
//! ```
//! use formats::dds::{Dds, PixelFormat};
//! # fn main() -> Result<(), format_core::Error> {
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
mod file;
pub mod header;

pub use file::Dds;
pub use header::{DdsHeader, DdsHeaderDxt10, DdsPixelFormat, PixelFormat};

/// A 2x1 uncompressed 32-bit DDS (B, G, R, A in memory: a red opaque pixel
/// and a half-transparent blue one), written by hand (for examples).
#[doc(hidden)]
pub fn tiny_dds_rgba() -> Vec<u8> {
    let mut data = b"DDS ".to_vec();
    let mut put = |v: u32| data.extend_from_slice(&v.to_le_bytes());
    // dwSize, dwFlags (caps, height, width, pixel format), height, width,
    // pitch, depth, mips, reserved1[11]
    for v in [124, 0x1007, 1, 2, 8, 0, 1] {
        put(v);
    }
    for _ in 0..11 {
        put(0);
    }
    // DDS_PIXELFORMAT: size, flags (RGB | alpha pixels), fourCC, bits, masks
    for v in [
        32,
        0x41,
        0,
        32,
        0x00ff_0000,
        0x0000_ff00,
        0x0000_00ff,
        0xff00_0000,
    ] {
        put(v);
    }
    // caps (texture), caps2-4, reserved2
    for v in [0x1000, 0, 0, 0, 0] {
        put(v);
    }
    data.extend_from_slice(&[0, 0, 255, 255, 255, 0, 0, 128]);
    data
}
