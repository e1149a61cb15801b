//! [`RgbaImage`]: decoded pixels, and PNG in and out.

use format_core::Error;

use super::PixelError;

/// The largest width or height this crate decodes or encodes (the largest
/// texture in the corpus is 4096 x 4096); checked before any pixel buffer is
/// allocated.
pub const MAX_SIDE: u32 = 16384;

/// Where a PNG's width is: after the signature and the `IHDR` chunk's length
/// and type (the height follows).
#[cfg(feature = "blp-pixels")]
const PNG_WIDTH_OFFSET: usize = 8 + 8;

/// An image of 8-bit R, G, B, A pixels, row-major, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub data: Vec<u8>,
}

impl RgbaImage {
    /// An image from its pixels; `data` must hold `width * height * 4` bytes,
    /// and both sides must be 1 to [`MAX_SIDE`].
    pub fn new(width: u32, height: u32, data: Vec<u8>) -> Result<RgbaImage, PixelError> {
        let image = RgbaImage {
            width,
            height,
            data,
        };
        image.check()?;
        Ok(image)
    }

    /// What [`RgbaImage::new`] checks, for an image built from its public
    /// fields: both sides 1 to [`MAX_SIDE`] and `data` of `width * height *
    /// 4` bytes.
    pub(crate) fn check(&self) -> Result<(), PixelError> {
        let (width, height) = (self.width, self.height);
        check_size(width, height)?;
        let expected = width as usize * height as usize * 4;
        if self.data.len() != expected {
            return Err(PixelError::DataLength {
                width,
                height,
                expected,
                len: self.data.len(),
            });
        }
        Ok(())
    }

    /// True if some pixel is not fully opaque.
    pub fn has_alpha(&self) -> bool {
        self.data.chunks_exact(4).any(|p| p.get(3) != Some(&255))
    }

    /// Encodes the image as an RGBA PNG (feature `blp-pixels`).
    ///
    /// ```
    /// use formats::blp::RgbaImage;
    /// let image = RgbaImage::new(2, 1, vec![255, 0, 0, 255, 0, 0, 255, 128])?;
    /// let png = image.to_png()?;
    /// assert_eq!(RgbaImage::from_png(&png)?, image);
    /// # Ok::<(), formats::blp::PixelError>(())
    /// ```
    #[cfg(feature = "blp-pixels")]
    pub fn to_png(&self) -> Result<Vec<u8>, PixelError> {
        crate::png_file::encode(
            self.width,
            self.height,
            png::ColorType::Rgba,
            png::BitDepth::Eight,
            &self.data,
        )
        .map_err(PixelError::PngEncode)
    }

    /// Decodes a PNG (any colour type and bit depth) to RGBA8; its size is
    /// checked against [`MAX_SIDE`] before the pixels are allocated (feature
    /// `blp-pixels`).
    #[cfg(feature = "blp-pixels")]
    pub fn from_png(data: &[u8]) -> Result<RgbaImage, PixelError> {
        let decode_error = PixelError::PngDecode;
        let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(decode_error)?;
        let (width, height) = reader.info().size();
        check_side_fields(width, height, [PNG_WIDTH_OFFSET, PNG_WIDTH_OFFSET + 4])
            .map_err(|e| PixelError::PngHeader(e.in_tag(format_core::FourCC::new(*b"IHDR"))))?;
        let size = reader.output_buffer_size().ok_or(PixelError::PngTooLarge)?;
        let mut buf = vec![0; size];
        let frame = reader.next_frame(&mut buf).map_err(decode_error)?;
        let pixels = buf.get(..frame.buffer_size()).unwrap_or_default();
        let rgba: Vec<u8> = match frame.color_type {
            png::ColorType::Rgba => pixels.to_vec(),
            png::ColorType::Rgb => pixels
                .as_chunks::<3>()
                .0
                .iter()
                .flat_map(|&[r, g, b]| [r, g, b, 255])
                .collect(),
            png::ColorType::GrayscaleAlpha => pixels
                .as_chunks::<2>()
                .0
                .iter()
                .flat_map(|&[g, a]| [g, g, g, a])
                .collect(),
            png::ColorType::Grayscale => pixels.iter().flat_map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::Indexed => {
                return Err(PixelError::PngPalette);
            }
        };
        RgbaImage::new(width, height, rgba)
    }

    /// Decodes a JPEG file (baseline or progressive, grey, YCbCr or RGB) to
    /// RGBA8, opaque; its size is checked against [`MAX_SIDE`] before the
    /// pixels are allocated (feature `blp-pixels`). For glTF images, which
    /// are whole JPEG files; BLP1's JPEG levels are decoded by
    /// [`codec::jpeg`](super::codec::jpeg).
    #[cfg(feature = "blp-pixels")]
    pub fn from_jpeg(data: &[u8]) -> Result<RgbaImage, PixelError> {
        use zune_jpeg::JpegDecoder;
        use zune_jpeg::zune_core::bytestream::ZCursor;
        use zune_jpeg::zune_core::colorspace::ColorSpace;
        use zune_jpeg::zune_core::options::DecoderOptions;
        let options = DecoderOptions::default()
            .jpeg_set_out_colorspace(ColorSpace::RGBA)
            .set_max_width(MAX_SIDE as usize)
            .set_max_height(MAX_SIDE as usize);
        let mut decoder = JpegDecoder::new_with_options(ZCursor::new(data), options);
        let pixels = decoder.decode().map_err(PixelError::JpegDecode)?;
        let (width, height) = decoder.dimensions().unwrap_or_default();
        RgbaImage::new(width as u32, height as u32, pixels)
    }
}

/// Fails unless both sides are 1 to [`MAX_SIDE`] (an image in memory: the
/// error names no offset; a file's header is checked by `check_side_fields`).
pub fn check_size(width: u32, height: u32) -> Result<(), PixelError> {
    if !fits(width) || !fits(height) {
        return Err(PixelError::Size { width, height });
    }
    Ok(())
}

/// Fails unless both sides of a `width` x `height` image in a file are 1 to
/// [`MAX_SIDE`]: the error is at the first side out of range, its offset in
/// the file (`offsets`: the width's, the height's) and its field (`width` or
/// `height`) in the path.
pub(crate) fn check_side_fields(width: u32, height: u32, offsets: [usize; 2]) -> Result<(), Error> {
    let [width_at, height_at] = offsets;
    let (field, offset) = match (fits(width), fits(height)) {
        (true, true) => return Ok(()),
        (false, _) => ("width", width_at),
        (true, false) => ("height", height_at),
    };
    Err(Error::invalid(
        offset,
        format!("an image of {width}x{height}: each side must be 1 to {MAX_SIDE} pixels"),
    )
    .in_field(field))
}

/// True if a side of `side` pixels is 1 to [`MAX_SIDE`].
fn fits(side: u32) -> bool {
    (1..=MAX_SIDE).contains(&side)
}
