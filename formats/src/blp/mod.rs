//! BLP textures: Warcraft III's BLP1 (JPEG, palette) and World of Warcraft's
//! BLP2 (palette, DXT1/3/5, uncompressed BGRA), read and written byte-exact,
//! decoded to RGBA8 and encoded from it.
//!
//! - [`Blp`]: the file, defined with the derive; [`Blp::from_bytes`] and
//!   [`Blp::to_bytes`] round-trip every corpus file, gaps and overlapping
//!   offsets included ([`layout`]).
//! - [`header`]: the fixed fields and what they mean ([`Encoding`], [`AlphaKind`]).
//! - With the `blp-pixels` feature (opt-in): [`Blp::decode_level`]
//!   gives any mip level as an [`RgbaImage`] ([`RgbaImage::to_png`] for a
//!   PNG), and [`Blp::encode`] makes a texture of an image in any [`Target`]
//!   encoding, with its mip levels. The pixel codecs work on one level's bytes
//!   and the header's parameters ([`codec`]).
//!
//! Damaged files: a mip table entry whose level lies outside the file (real
//! files have a level past the end: a level 8 of 327 bytes at the end of
//! the file, a level 9 of 0xFFFEA5FC bytes) is refused by
//! [`Blp::from_bytes`]; [`Blp::from_bytes_lenient`] reads the levels before
//! it and keeps it and the entries after it in the table as read, so the
//! file writes back byte for byte, with the unreachable levels
//! [missing](Blp::missing_levels). A level that is there but does not decode
//! (a JPEG level whose frame header is cut short) is the error of
//! [`Blp::decode_level`] for that level alone: the others decode.
//!
//! ```
//! use formats::blp::Blp;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let data = formats::blp::tiny_blp2_bgra();
//! let blp = Blp::from_bytes(&data)?;
//! assert_eq!(blp.version(), 2);
//! assert_eq!(blp.to_bytes()?, data);
//! # #[cfg(feature = "blp-pixels")] {
//! let image = blp.decode_level(0)?;
//! assert_eq!((image.width, image.height), (2, 2));
//! assert_eq!(&image.data[..4], [24, 12, 0, 36]); // stored B, G, R, A: 0, 12, 24, 36
//! let png = image.to_png()?;
//! # let _ = png; }
//! # Ok(()) }
//! ```

#[cfg(feature = "blp-pixels")]
pub mod codec;
#[cfg(feature = "blp-pixels")]
mod decode;
#[cfg(feature = "blp-pixels")]
mod encode;
mod error;
mod file;
pub mod header;
mod image;
pub mod layout;
#[cfg(feature = "blp-pixels")]
pub(crate) mod mips;
mod view;

#[cfg(feature = "blp-pixels")]
pub use encode::{JPEG_QUALITY, Target, UnknownTarget};
pub use error::PixelError;
pub use file::Blp;
pub use header::{AlphaKind, Blp1Header, Blp2Header, Encoding, Header};
#[cfg(feature = "blp-pixels")]
pub(crate) use image::check_side_fields;
pub use image::{MAX_SIDE, RgbaImage};
pub use layout::{MIP_SLOTS, MipTable};
pub use view::BlpView;

/// A 2x2 BLP2 BGRA texture with two levels, written by hand (for examples).
#[doc(hidden)]
pub fn tiny_blp2_bgra() -> Vec<u8> {
    let mut data = b"BLP2".to_vec();
    data.extend_from_slice(&1u32.to_le_bytes());
    data.extend_from_slice(&[3, 8, 2, 1]);
    data.extend_from_slice(&2u32.to_le_bytes());
    data.extend_from_slice(&2u32.to_le_bytes());
    let start = 4 + 16 + 128 + 1024;
    let mut offsets = [0u32; 16];
    let mut sizes = [0u32; 16];
    offsets[0] = start;
    sizes[0] = 16;
    offsets[1] = start + 16;
    sizes[1] = 4;
    for v in offsets.iter().chain(&sizes) {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.resize(start as usize, 0);
    data.extend((0..20u8).map(|i| i * 12));
    data
}
