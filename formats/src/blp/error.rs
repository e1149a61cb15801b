//! Why pixels could not be made into an image, a PNG or a texture.

use super::MAX_SIDE;

/// Why an [`RgbaImage`](super::RgbaImage) could not be made, read from PNG
/// or written as PNG, or a [`Blp`](super::Blp) or a
/// [`Dds`](crate::dds::Dds) encoded from it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PixelError {
    /// A side is not 1 to [`MAX_SIDE`].
    #[error("an image of {width}x{height}: each side must be 1 to {MAX_SIDE} pixels")]
    Size {
        /// The width.
        width: u32,
        /// The height.
        height: u32,
    },
    /// The pixels are not `width * height * 4` bytes.
    #[error("{width}x{height} RGBA needs {expected} bytes, not {len}")]
    DataLength {
        /// The width.
        width: u32,
        /// The height.
        height: u32,
        /// `width * height * 4`.
        expected: usize,
        /// The bytes there are.
        len: usize,
    },
    /// A PNG's `IHDR` gives a side that is not 1 to [`MAX_SIDE`] (the error
    /// names its offset and field).
    #[error("{0}")]
    PngHeader(#[source] format_core::Error),
    /// The PNG decoder failed.
    #[cfg(feature = "blp-pixels")]
    #[error("PNG: {0}")]
    PngDecode(#[source] png::DecodingError),
    /// The PNG's pixels would not fit in memory.
    #[error("PNG: image too large")]
    PngTooLarge,
    /// The PNG decoder left a palette image unexpanded.
    #[error("PNG: palette not expanded")]
    PngPalette,
    /// The PNG encoder failed.
    #[cfg(feature = "blp-pixels")]
    #[error("PNG encoding: {0}")]
    PngEncode(#[source] png::EncodingError),
    /// The JPEG decoder refused a JPEG file
    /// ([`RgbaImage::from_jpeg`](super::RgbaImage::from_jpeg)).
    #[cfg(feature = "blp-pixels")]
    #[error("JPEG: {0}")]
    JpegDecode(#[source] zune_jpeg::errors::DecodeErrors),
    /// A level could not be encoded.
    #[cfg(feature = "blp-pixels")]
    #[error("{0}")]
    Codec(#[from] super::codec::CodecError),
}
