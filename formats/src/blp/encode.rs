//! RGBA8 to a new [`Blp`], with its mip levels generated.

use std::fmt;
use std::str::FromStr;

use super::PixelError;

use super::codec::{self, dxt::Dxt, palette::Quantizer};
use super::file::Blp;
use super::header::{Blp1Header, Blp2Header, Header};
use super::image::RgbaImage;
use super::mips;
use format_core::Kept;

/// The JPEG quality [`Blp::encode`] uses for [`Target::Blp1Jpeg`].
pub const JPEG_QUALITY: u8 = 90;

/// The longest shared JPEG header written (the longest seen in real files).
const MAX_JPEG_HEADER: usize = 624;

/// What to encode to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// BLP1 JPEG (4 channels B, G, R, A; quality [`JPEG_QUALITY`]). Lossy.
    Blp1Jpeg,
    /// BLP1 palette with an 8-bit alpha plane: lossless for images of at most
    /// 256 colours, NeuQuant-quantized otherwise (alpha is always exact).
    Blp1Palette,
    /// BLP2 DXT1: alpha below 128 becomes transparent (alphaDepth 1), the
    /// rest opaque. Lossy.
    Dxt1,
    /// BLP2 DXT5, alphaDepth 8. Lossy.
    Dxt5,
    /// BLP2 uncompressed BGRA. Lossless.
    Bgra,
}

impl Target {
    /// Every target, with the name `formats convert --encoding` takes.
    pub const ALL: [(Target, &'static str); 5] = [
        (Target::Blp1Jpeg, "blp1-jpeg"),
        (Target::Blp1Palette, "blp1-palette"),
        (Target::Dxt1, "dxt1"),
        (Target::Dxt5, "dxt5"),
        (Target::Bgra, "bgra"),
    ];

    /// The name `formats convert --encoding` takes.
    pub fn name(self) -> &'static str {
        Target::ALL
            .iter()
            .find(|(t, _)| *t == self)
            .map_or("", |(_, n)| n)
    }
}

impl FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(s: &str) -> Result<Target, UnknownTarget> {
        Target::ALL
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(s))
            .map(|(t, _)| *t)
            .ok_or_else(|| UnknownTarget { name: s.to_owned() })
    }
}

/// A name [`Target::from_str`] does not know; its message lists those it does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTarget {
    /// The name given.
    pub name: String,
}

impl fmt::Display for UnknownTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Target::ALL.iter().map(|(_, n)| *n).collect();
        write!(
            f,
            "unknown encoding {:?}: one of {}",
            self.name,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownTarget {}

impl Blp {
    /// A new texture of `image` in `target`, with every mip level down to 1x1
    /// (a 2x2 box filter each, weighted by alpha: the colour of transparent
    /// pixels does not bleed into the smaller levels).
    ///
    /// An error, not a panic, for an image built from its public fields whose
    /// sides are not 1 to [`MAX_SIDE`](super::MAX_SIDE) or whose `data` is
    /// not `width * height * 4` bytes.
    ///
    /// ```
    /// use formats::blp::{Blp, RgbaImage, Target};
    /// let image = RgbaImage::new(4, 2, [9, 8, 7, 255].repeat(8))?;
    /// let blp = Blp::encode(&image, Target::Bgra)?;
    /// assert_eq!(blp.levels.len(), 3); // 4x2, 2x1, 1x1
    /// let back = Blp::from_bytes(&blp.to_bytes()?)?;
    /// assert_eq!(back.decode_level(0)?, image);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode(image: &RgbaImage, target: Target) -> Result<Blp, PixelError> {
        image.check()?;
        let alpha = image.has_alpha();
        let levels = mips::chain(image.clone());
        let blp2 = |compression, alpha_depth, alpha_type| {
            Header::Blp2(Blp2Header {
                kind: 1,
                compression,
                alpha_depth,
                alpha_type,
                has_mips: u8::from(levels.len() > 1),
                width: image.width,
                height: image.height,
            })
        };
        let blp1 = |compression| {
            Header::Blp1(Blp1Header {
                compression,
                alpha_bits: if alpha { 8 } else { 0 },
                width: image.width,
                height: image.height,
                extra: if alpha { 4 } else { 5 },
                has_mipmaps: u32::from(levels.len() > 1),
            })
        };
        let dxt = |d: Dxt| -> Vec<Vec<u8>> {
            levels
                .iter()
                .map(|l| codec::dxt::encode(&l.data, d, l.width, l.height))
                .collect()
        };
        let (header, jpeg_header, palette, data) = match target {
            Target::Bgra => (
                blp2(3, if alpha { 8 } else { 0 }, 2),
                None,
                Some(vec![[0; 4]; 256]),
                levels.iter().map(|l| codec::encode_bgra(&l.data)).collect(),
            ),
            Target::Dxt5 => (blp2(2, 8, 7), None, Some(vec![[0; 4]; 256]), dxt(Dxt::Dxt5)),
            Target::Dxt1 => {
                let cut = image.data.iter().skip(3).step_by(4).any(|&a| a < 128);
                (
                    blp2(2, u8::from(cut), 0),
                    None,
                    Some(vec![[0; 4]; 256]),
                    dxt(Dxt::Dxt1),
                )
            }
            Target::Blp1Palette => {
                let mut quantizer = Quantizer::new(&image.data);
                let data = levels
                    .iter()
                    .map(|l| quantizer.encode(&l.data, alpha))
                    .collect();
                (blp1(1), None, Some(quantizer.palette()), data)
            }
            Target::Blp1Jpeg => {
                let mut streams = levels
                    .iter()
                    .map(|l| codec::jpeg::encode(&l.data, l.width, l.height, !alpha, JPEG_QUALITY))
                    .collect::<Result<Vec<_>, _>>()?;
                let shared = codec::jpeg::split_common_header(&mut streams, MAX_JPEG_HEADER);
                (blp1(0), Some(shared), None, streams)
            }
        };
        Ok(Blp {
            header,
            mip_offsets: Default::default(),
            mip_sizes: Default::default(),
            jpeg_header,
            palette,
            levels: data,
            kept: Kept::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::blp::mips::tests::red_blue_checker;

    #[test]
    fn an_image_whose_data_does_not_match_its_size_is_an_error() {
        // Built from the public fields, past `RgbaImage::new`'s check: the
        // DXT encoder used to index past the pixels and panic.
        let short = RgbaImage {
            width: 10,
            height: 10,
            data: vec![0; 4 * 10 * 10 - 1],
        };
        for (target, name) in Target::ALL {
            let err = Blp::encode(&short, target).unwrap_err();
            assert_eq!(
                err.to_string(),
                "10x10 RGBA needs 400 bytes, not 399",
                "{name}"
            );
        }
    }

    #[test]
    fn smaller_levels_keep_the_colour_of_the_visible_pixels() {
        let image = red_blue_checker();
        for (target, name) in Target::ALL {
            let blp =
                Blp::from_bytes(&Blp::encode(&image, target).unwrap().to_bytes().unwrap()).unwrap();
            assert_eq!(blp.levels.len(), 4, "{name}");
            for level in 1..4 {
                let decoded = blp.decode_level(level).unwrap();
                for &[r, g, b, a] in decoded.data.as_chunks::<4>().0 {
                    let what = format!("{name} level {level}: {r} {g} {b} {a}");
                    // Lossy encodings: near red, never the purple of blue bled in.
                    assert!(r >= 240 && g <= 16 && b <= 16, "{what}");
                    match target {
                        Target::Bgra | Target::Blp1Palette => {
                            assert_eq!([r, g, b, a], [255, 0, 0, 128], "{what}")
                        }
                        // Alpha 128 is at the 1-bit cut: opaque.
                        Target::Dxt1 => assert_eq!(a, 255, "{what}"),
                        Target::Dxt5 | Target::Blp1Jpeg => assert!(a.abs_diff(128) <= 8, "{what}"),
                    }
                }
            }
        }
    }
}
