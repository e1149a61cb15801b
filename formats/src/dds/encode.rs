//! RGBA8 to a new [`Dds`], with its mip levels generated: the block formats
//! Reforged's HD textures are in, made by the code BLP's encoder uses (the
//! same mip levels, the same `texpresso` block encoder).

use std::fmt;

use super::file::Dds;
use super::header::{DdsHeader, DdsPixelFormat, pixel_flags};
use crate::blp::codec::dxt::{self, Dxt, Fit};
use crate::blp::{PixelError, RgbaImage};

/// What [`Dds::encode`] encodes to: a block format under a legacy DDS
/// header (a `dwFourCC`, no `DDS_HEADER_DXT10`), which every DDS reader
/// takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// BC1 (`DXT1`): colour in 8-byte blocks; pixels with alpha below 128
    /// become transparent (for an opaque image: 4 colours a block).
    Bc1,
    /// BC3 (`DXT5`): colour and interpolated 8-bit alpha in 16-byte blocks.
    Bc3,
    /// BC5 (`ATI2`): red and green in 16-byte blocks, two BC4 channels of
    /// their own: a normal map's X and Y, which is all Reforged's HD shader
    /// reads of one (it rebuilds Z; [`rebuild_normal_z`](super::rebuild_normal_z)
    /// does the same). Blue and alpha are not stored (decoded as 0 and 255).
    Bc5,
}

impl Target {
    /// The name it goes by (`bc1`, `bc3`, `bc5`).
    pub fn name(self) -> &'static str {
        match self {
            Target::Bc1 => "bc1",
            Target::Bc3 => "bc3",
            Target::Bc5 => "bc5",
        }
    }

    /// For a colour image (a diffuse or emissive texture): BC1 when it is
    /// opaque, BC3 when some pixel is not (BC1's 1-bit alpha would cut it).
    ///
    /// ```
    /// use formats::blp::RgbaImage;
    /// use formats::dds::Target;
    /// let opaque = RgbaImage::new(1, 1, vec![9, 9, 9, 255])?;
    /// let glass = RgbaImage::new(1, 1, vec![9, 9, 9, 128])?;
    /// assert_eq!((Target::colour(&opaque), Target::colour(&glass)), (Target::Bc1, Target::Bc3));
    /// # Ok::<(), formats::blp::PixelError>(())
    /// ```
    pub fn colour(image: &RgbaImage) -> Target {
        if image.has_alpha() {
            Target::Bc3
        } else {
            Target::Bc1
        }
    }

    fn dxt(self) -> Dxt {
        match self {
            Target::Bc1 => Dxt::Dxt1,
            Target::Bc3 => Dxt::Dxt5,
            Target::Bc5 => Dxt::Bc5,
        }
    }

    fn four_cc(self) -> [u8; 4] {
        match self {
            Target::Bc1 => *b"DXT1",
            Target::Bc3 => *b"DXT5",
            Target::Bc5 => *b"ATI2",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `DDSD_CAPS | DDSD_HEIGHT | DDSD_WIDTH | DDSD_PIXELFORMAT`.
const REQUIRED: u32 = 0x1007;
/// `DDSD_MIPMAPCOUNT`.
const MIPMAP_COUNT: u32 = 0x2_0000;
/// `DDSD_LINEARSIZE`: `dwPitchOrLinearSize` is level 0's byte size.
const LINEAR_SIZE: u32 = 0x8_0000;
/// `DDSCAPS_TEXTURE`.
const CAPS_TEXTURE: u32 = 0x1000;
/// `DDSCAPS_COMPLEX | DDSCAPS_MIPMAP`: more than one level.
const CAPS_MIPMAPS: u32 = 0x40_0008;

impl Dds {
    /// A new texture of `image` in `target`, with every mip level down to
    /// 1x1, made as [`Blp::encode`](crate::blp::Blp::encode) makes BLP's: a
    /// 2x2 box filter each, weighted by alpha, each level's blocks by
    /// `texpresso` ([`Fit::Cluster`](crate::blp::codec::dxt::Fit::Cluster)). For [`Target::Bc5`] alpha is taken as
    /// opaque (it is not stored, and would weigh X and Y).
    ///
    /// An error, not a panic, for an image built from its public fields whose
    /// sides are not 1 to [`MAX_SIDE`](crate::blp::MAX_SIDE) or whose `data`
    /// is not `width * height * 4` bytes.
    ///
    /// ```
    /// use formats::blp::RgbaImage;
    /// use formats::dds::{Dds, PixelFormat, Target};
    /// let image = RgbaImage::new(8, 4, [200, 100, 50, 255].repeat(32))?;
    /// let dds = Dds::encode(&image, Target::colour(&image))?;
    /// assert_eq!(dds.level_count(), 4); // 8x4, 4x2, 2x1, 1x1
    /// assert_eq!(dds.pixel_format()?, PixelFormat::Bc1);
    /// let back = Dds::from_bytes(&dds.to_bytes()?)?;
    /// let pixels = back.decode_level(0)?;
    /// assert!(pixels.data.iter().zip(&image.data).all(|(a, b)| a.abs_diff(*b) <= 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn encode(image: &RgbaImage, target: Target) -> Result<Dds, PixelError> {
        Dds::encode_with(image, target, Fit::Cluster)
    }

    /// [`Dds::encode`] with the colour fit `fit` (BC1 and BC3:
    /// [`Fit::Range`] is some 50 times faster and coarser; BC5 is the same
    /// either way).
    pub fn encode_with(image: &RgbaImage, target: Target, fit: Fit) -> Result<Dds, PixelError> {
        image.check()?;
        let mut base = image.clone();
        if target == Target::Bc5 {
            for pixel in base.data.as_chunks_mut::<4>().0 {
                pixel[3] = 255;
            }
        }
        let levels = crate::blp::mips::chain(base);
        let dxt = target.dxt();
        let mut data = Vec::new();
        for level in &levels {
            data.extend(dxt::encode_with(
                &level.data,
                dxt,
                level.width,
                level.height,
                fit,
            ));
        }
        let mips = levels.len() > 1;
        let count = u32::try_from(levels.len()).unwrap_or(1);
        let linear_size = dxt::level_len(dxt, image.width, image.height);
        Ok(Dds {
            header: DdsHeader {
                size: 124,
                flags: REQUIRED | LINEAR_SIZE | if mips { MIPMAP_COUNT } else { 0 },
                height: image.height,
                width: image.width,
                pitch_or_linear_size: u32::try_from(linear_size).unwrap_or(u32::MAX),
                mip_map_count: if mips { count } else { 0 },
                ddspf: DdsPixelFormat {
                    size: 32,
                    flags: pixel_flags::FOURCC,
                    four_cc: target.four_cc(),
                    ..Default::default()
                },
                caps: CAPS_TEXTURE | if mips { CAPS_MIPMAPS } else { 0 },
                ..Default::default()
            },
            dx10: None,
            data,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dds::PixelFormat;

    /// A 13x7 pattern (sides not multiples of 4) of smooth colour (a few
    /// levels a pixel, as photographs and painted skins are), and an
    /// alpha ramp when `alpha`.
    fn pattern(alpha: bool) -> RgbaImage {
        let (w, h) = (13u32, 7u32);
        let data = (0..w * h)
            .flat_map(|i| {
                let (x, y) = (i % w, i / w);
                let a = if alpha {
                    (x * 255 / (w - 1)) as u8
                } else {
                    255
                };
                [(60 + x * 5) as u8, (90 + y * 6) as u8, 128, a]
            })
            .collect();
        RgbaImage::new(w, h, data).unwrap()
    }

    /// Every target writes a full chain (13x7, 6x3, 3x1, 1x1) that reads
    /// back byte for byte, in the format it says, each level decoding at
    /// its size; level 0 within 12 levels of the image in colour, 8 in
    /// alpha.
    #[test]
    fn every_target_round_trips_through_our_decoder() {
        for (target, alpha, format) in [
            (Target::Bc1, false, PixelFormat::Bc1),
            (Target::Bc3, true, PixelFormat::Bc3),
            (Target::Bc5, true, PixelFormat::Bc5),
        ] {
            let image = pattern(alpha);
            let dds = Dds::encode(&image, target).unwrap();
            let bytes = dds.to_bytes().unwrap();
            let back = Dds::from_bytes(&bytes).unwrap();
            assert_eq!(back, dds, "{target}");
            assert_eq!(back.to_bytes().unwrap(), bytes, "{target}");
            assert_eq!(back.pixel_format().unwrap(), format, "{target}");
            assert_eq!(back.level_count(), 4, "{target}");
            let expected_len: u64 = (0..4)
                .map(|l| {
                    let (w, h) = back.level_size(l);
                    format.surface_len(w, h)
                })
                .sum();
            assert_eq!(back.data.len() as u64, expected_len, "{target}");
            for level in 0..4 {
                let decoded = back.decode_level(level).unwrap();
                assert_eq!((decoded.width, decoded.height), back.level_size(level));
            }
            let decoded = back.decode_level(0).unwrap();
            for (i, (ours, theirs)) in decoded.data.iter().zip(&image.data).enumerate() {
                let channel = i % 4;
                // BC3's colour is fitted weighted by alpha (as BLP's DXT5):
                // a nearly transparent pixel's colour hardly counts.
                let alpha = image.data[i - channel + 3];
                let limit = match (target, channel) {
                    (Target::Bc3, 0..3) if alpha < 64 => continue,
                    // BC5 stores red and green only.
                    (Target::Bc5, 2) => continue,
                    (Target::Bc5, 3) => {
                        assert_eq!(*ours, 255);
                        continue;
                    }
                    (_, 3) => 8,
                    _ => 12,
                };
                assert!(
                    ours.abs_diff(*theirs) <= limit,
                    "{target}: byte {i}: {ours} vs {theirs}"
                );
            }
        }
    }

    /// The range fit gives the same layout, within a coarser bound on the
    /// smooth pattern (24 levels, where the cluster fit is within 12); BC5
    /// is the same bytes either way.
    #[test]
    fn the_range_fit_is_coarser_and_the_same_layout() {
        for target in [Target::Bc1, Target::Bc3, Target::Bc5] {
            let image = pattern(false);
            let cluster = Dds::encode(&image, target).unwrap();
            let range = Dds::encode_with(&image, target, Fit::Range).unwrap();
            assert_eq!(range.header, cluster.header, "{target}");
            assert_eq!(range.data.len(), cluster.data.len(), "{target}");
            if target == Target::Bc5 {
                assert_eq!(range.data, cluster.data);
            }
            let decoded = range.decode_level(0).unwrap();
            for (ours, theirs) in decoded.data.iter().zip(&image.data).step_by(4) {
                assert!(ours.abs_diff(*theirs) <= 24, "{target}: {ours} vs {theirs}");
            }
        }
    }

    #[test]
    fn a_one_pixel_image_has_one_level_and_no_mip_flags() {
        let image = RgbaImage::new(1, 1, vec![1, 2, 3, 255]).unwrap();
        let dds = Dds::encode(&image, Target::Bc1).unwrap();
        assert_eq!(dds.header.mip_map_count, 0);
        assert_eq!(dds.header.caps, CAPS_TEXTURE);
        assert_eq!(dds.level_count(), 1);
        assert_eq!(dds.data.len(), 8);
    }

    #[test]
    fn an_image_whose_data_does_not_match_its_size_is_an_error() {
        let short = RgbaImage {
            width: 4,
            height: 4,
            data: vec![0; 63],
        };
        for target in [Target::Bc1, Target::Bc3, Target::Bc5] {
            let err = Dds::encode(&short, target).unwrap_err();
            assert_eq!(err.to_string(), "4x4 RGBA needs 64 bytes, not 63");
        }
    }
}
