//! Pictures of the data, for people who would rather look than read: a tile's
//! height field and alpha maps ([`adt`]), a model's wireframe ([`mdx`]), as
//! in-memory [`Image`]s that [`Image::to_png`] encodes.
//!
//! ```
//! use formats::render::{Color, Image};
//!
//! let mut image = Image::new(4, 2, Color::Gray8);
//! image.set_gray(3, 1, 255);
//! let png = image.to_png()?;
//! assert_eq!(&png[1..4], b"PNG");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod adt;
pub mod mdx;

pub use adt::{
    alpha_maps, float_tiff, gray16, guess_mphd_flags, heightmap, heightmap_image, splat_image,
    stitched_image,
};
pub use mdx::{posed_wireframe, wireframe};

use crate::terrain::TerrainError;

/// Why a picture could not be drawn or encoded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The tile's terrain could not be read ([`adt::heightmap`]).
    #[error("{0}")]
    Terrain(#[from] TerrainError),
    /// A chunk's data did not parse (its path names the chunk, as
    /// `[3].MCAL`; [`adt::alpha_maps`]).
    #[error("{0}")]
    Parse(#[from] format_core::Error),
    /// No chunk of the tile has heights ([`adt::heightmap`]).
    #[error("the tile has no MCVT heights to draw")]
    NoHeights,
    /// A side is past what the image format holds (`u32`).
    #[error("image too large for {format}")]
    TooLarge {
        /// `"PNG"` or `"TIFF"`.
        format: &'static str,
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// Fewer heights than `width * height` pixels ([`adt::float_tiff`]).
    #[error("fewer heights than pixels")]
    FewerHeights {
        /// The heights given.
        heights: usize,
        /// The pixels.
        pixels: usize,
    },
    /// The PNG encoder failed.
    #[error("PNG encoding: {0}")]
    Png(#[source] png::EncodingError),
    /// The TIFF encoder failed.
    #[error("TIFF encoding: {0}")]
    Tiff(#[source] tiff::TiffError),
}

/// How an [`Image`]'s pixels are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// One byte per pixel.
    Gray8,
    /// Two bytes per pixel, big-endian (as PNG stores them).
    Gray16,
    /// Three bytes per pixel: red, green, blue.
    Rgb8,
}

impl Color {
    /// Bytes per pixel.
    pub fn bytes(self) -> usize {
        match self {
            Color::Gray8 => 1,
            Color::Gray16 => 2,
            Color::Rgb8 => 3,
        }
    }
}

/// A picture: rows from the top, pixels from the left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// The pixel layout.
    pub color: Color,
    /// `width * height * color.bytes()` bytes, row by row.
    pub data: Vec<u8>,
}

impl Image {
    /// A black image.
    pub fn new(width: usize, height: usize, color: Color) -> Image {
        Image {
            width,
            height,
            color,
            data: vec![0; width * height * color.bytes()],
        }
    }

    /// The bytes of pixel (`x`, `y`), `None` outside the image.
    fn pixel_mut(&mut self, x: usize, y: usize) -> Option<&mut [u8]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let n = self.color.bytes();
        let at = (y * self.width + x) * n;
        self.data.get_mut(at..at + n)
    }

    /// Sets every channel of pixel (`x`, `y`) to `value` (16-bit: `value` in
    /// both bytes); outside the image, nothing happens.
    pub fn set_gray(&mut self, x: usize, y: usize, value: u8) {
        if let Some(p) = self.pixel_mut(x, y) {
            p.fill(value);
        }
    }

    /// Sets a 16-bit gray pixel (other layouts: its high byte in every channel).
    pub fn set_gray16(&mut self, x: usize, y: usize, value: u16) {
        let color = self.color;
        if let Some(p) = self.pixel_mut(x, y) {
            match color {
                Color::Gray16 => p.copy_from_slice(&value.to_be_bytes()),
                _ => p.fill(value.to_be_bytes()[0]),
            }
        }
    }

    /// Sets channel `channel` of pixel (`x`, `y`) (ignored outside the image
    /// or past the pixel's channels).
    pub fn set_channel(&mut self, x: usize, y: usize, channel: usize, value: u8) {
        if let Some(c) = self.pixel_mut(x, y).and_then(|p| p.get_mut(channel)) {
            *c = value;
        }
    }

    /// Encodes the image as PNG.
    pub fn to_png(&self) -> Result<Vec<u8>, RenderError> {
        let too_big = |_| RenderError::TooLarge {
            format: "PNG",
            width: self.width,
            height: self.height,
        };
        let width = u32::try_from(self.width).map_err(too_big)?;
        let height = u32::try_from(self.height).map_err(too_big)?;
        let (color, depth) = match self.color {
            Color::Gray8 => (png::ColorType::Grayscale, png::BitDepth::Eight),
            Color::Gray16 => (png::ColorType::Grayscale, png::BitDepth::Sixteen),
            Color::Rgb8 => (png::ColorType::Rgb, png::BitDepth::Eight),
        };
        crate::png_file::encode(width, height, color, depth, &self.data).map_err(RenderError::Png)
    }
}
