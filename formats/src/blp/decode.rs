//! Any level of a [`Blp`] to RGBA8.

use format_core::Error;

use super::codec::{self, dxt::Dxt};
use super::file::Blp;
use super::header::{AlphaKind, Encoding};
use super::image::RgbaImage;
use super::layout::MipTable;

impl Blp {
    /// The error for a level the file does not hold: one past the levels
    /// the table lists, or one whose bytes lie outside the file (a
    /// [missing](Blp::missing_levels) level, whose entry a lenient read kept),
    /// at that entry.
    fn no_level(&self, level: usize) -> Error {
        let levels = match self.levels.len() {
            1 => "1 mip level".to_string(),
            n => format!("{n} mip levels"),
        };
        let missing = self.missing_levels();
        let entry = self.to_bytes().ok().and_then(|bytes| {
            let table = MipTable::read(&bytes, self.header.table_offset()).ok()?;
            Some((
                bytes.len(),
                *table.offsets.get(level)?,
                *table.sizes.get(level)?,
            ))
        });
        match entry {
            Some((len, offset, size)) if missing.contains(&level) => Error::invalid(
                self.header.table_offset() + 4 * level,
                format!(
                    "level {level}: the mip table puts its {size} bytes at {offset:#x}, outside \
                     the file ({len} bytes): the level is missing (a lenient read kept the \
                     entry as read); the texture has {levels}"
                ),
            )
            .at_index(level)
            .in_field("levels"),
            _ => Error::other(format!("no level {level}: the texture has {levels}")),
        }
    }

    /// Decodes mip level `level` (0 is the full size) to RGBA8.
    ///
    /// The header's size is checked against [`MAX_SIDE`](super::MAX_SIDE) and
    /// the level's bytes before any pixel buffer is allocated. A level whose
    /// bytes do not decode is an error naming the level, its offset in the
    /// file and the reason. Levels with more bytes than their size needs (real
    /// files point small levels at level 0's data) decode from the bytes they
    /// start with. Every level is returned at its size by the header
    /// ([`level_size`](Blp::level_size)): a JPEG frame larger than its level
    /// (real files point small levels at a larger level's stream) is cropped
    /// to its top-left corner, one smaller is an error (see
    /// [`codec::jpeg::decode`]).
    ///
    /// A level the file does not hold is an error: past the levels the
    /// table lists, or [missing](Blp::missing_levels) (the table puts it
    /// outside the file; the error says where, at its entry).
    ///
    /// Alpha: none (255) where the alpha field is 0, whatever the encoding
    /// (DXT1, DXT3 and DXT5 blocks included: [`AlphaKind::None`]); for a BLP1
    /// JPEG whose `alphaBits` is neither 0 nor 8 (a mip count some tool wrote
    /// there), the decoded fourth channel decides: it is the alpha unless it
    /// is 0 everywhere.
    pub fn decode_level(&self, level: usize) -> Result<RgbaImage, Error> {
        let fail = |message: String| {
            let offset = self
                .mip_table()
                .ok()
                .and_then(|t| t.offsets.get(level).copied())
                .unwrap_or(0);
            Error::invalid(offset as usize, format!("level {level}: {message}"))
                .at_index(level)
                .in_field("levels")
        };
        let bytes = match self.levels.get(level) {
            Some(bytes) => bytes,
            None => return Err(self.no_level(level)),
        };
        let encoding = self.encoding()?;
        let alpha = self.alpha_kind()?;
        self.check_size()?;
        let (width, height) = self.size();
        let (w, h) = self.level_size(level);
        let opaque = alpha == AlphaKind::None;
        let palette = || self.palette.as_deref().unwrap_or_default();
        let pixels = match encoding {
            Encoding::Palette => {
                codec::palette::decode(bytes, palette(), self.header.alpha_bits(), w, h)
            }
            Encoding::Dxt1 => codec::dxt::decode(bytes, Dxt::Dxt1, w, h, opaque),
            // alphaDepth 0 is opaque whatever the blocks hold (see `AlphaKind::None`).
            Encoding::Dxt3 => codec::dxt::decode(bytes, Dxt::Dxt3, w, h, opaque),
            Encoding::Dxt5 => codec::dxt::decode(bytes, Dxt::Dxt5, w, h, opaque),
            Encoding::Bgra => codec::decode_bgra(bytes, w, h, opaque),
            Encoding::Jpeg => {
                let header = self.jpeg_header.as_deref().unwrap_or_default();
                codec::jpeg::decode(header, bytes, (w, h), (width, height)).map(|mut pixels| {
                    let no_alpha = match alpha {
                        AlphaKind::FromData(_) => pixels.iter().skip(3).step_by(4).all(|&a| a == 0),
                        _ => opaque,
                    };
                    if no_alpha {
                        for px in pixels.as_chunks_mut::<4>().0 {
                            px[3] = 255;
                        }
                    }
                    pixels
                })
            }
        }
        .map_err(|m| fail(format!("{w}x{h} {}: {m}", encoding.name())))?;
        Ok(RgbaImage {
            width: w,
            height: h,
            data: pixels,
        })
    }
}
