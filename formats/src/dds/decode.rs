//! A mip level of a DDS texture's first surface as RGBA8.

use format_core::Error;

use super::file::Dds;
use super::header::PixelFormat;
use crate::blp::codec::dxt::{self, Dxt};
use crate::blp::{RgbaImage, check_side_fields};

impl Dds {
    /// Level `level` of the first surface as RGBA8 (row-major, top row
    /// first; of a volume texture, the level's first depth slice). The size is checked against [`MAX_SIDE`](crate::blp::MAX_SIDE)
    /// and the bytes there are before any pixel buffer is allocated.
    ///
    /// ```
    /// use formats::dds::Dds;
    /// let mut data = formats::dds::tiny_dds_rgba();
    /// data.pop(); // one byte short of the second pixel
    /// let err = Dds::from_bytes(&data).unwrap().decode_level(0).unwrap_err();
    /// assert!(err.to_string().contains("8 bytes needed, 7 there"), "{err}");
    /// ```
    pub fn decode_level(&self, level: u32) -> Result<RgbaImage, Error> {
        self.check_size()?;
        if level >= self.level_count() {
            let levels = match self.level_count() {
                1 => "1 mip level".to_string(),
                n => format!("{n} mip levels"),
            };
            return Err(Error::other(format!(
                "no level {level}: the texture has {levels}"
            )));
        }
        let format = self.pixel_format()?;
        let (width, height) = self.level_size(level);
        // A volume texture keeps each level's depth slices together: the
        // levels before this one are all of their slices long.
        let start = (0..level).fold(0u64, |start, l| {
            let (w, h) = self.level_size(l);
            let slices = u64::from(self.slices(l));
            start.saturating_add(format.surface_len(w, h).saturating_mul(slices))
        });
        let needed = format.surface_len(width, height);
        // Past the data (or the address space): an empty slice, refused below.
        let start = usize::try_from(start).unwrap_or(usize::MAX);
        let there = self.data.get(start..).unwrap_or_default();
        let at = self.data_offset().saturating_add(start);
        let bytes = usize::try_from(needed)
            .ok()
            .and_then(|n| there.get(..n))
            .ok_or_else(|| {
                Error::invalid(
                    at,
                    format!(
                        "level {level} of a {} texture ({width}x{height}): {needed} bytes needed, {} there",
                        format.name(),
                        there.len()
                    ),
                )
            })?;
        let pixels = match format {
            PixelFormat::Bc1 => dxt::decode(bytes, Dxt::Dxt1, width, height, false),
            PixelFormat::Bc2 => dxt::decode(bytes, Dxt::Dxt3, width, height, false),
            PixelFormat::Bc3 => dxt::decode(bytes, Dxt::Dxt5, width, height, false),
            PixelFormat::Bc4 => dxt::decode(bytes, Dxt::Bc4, width, height, false),
            PixelFormat::Bc5 => dxt::decode(bytes, Dxt::Bc5, width, height, false),
            PixelFormat::Bc7 => dxt::decode_blocks(bytes, 16, width, height, |block| {
                let mut pixels = [[0u8; 4]; 16];
                bcdec_rs::bc7(block, pixels.as_flattened_mut(), 16);
                pixels
            }),
            // B, G, R, A bytes (DXGI B8G8R8A8, D3DFMT_A8R8G8B8, and without
            // alpha X8R8G8B8): the swap BLP2's BGRA levels get.
            PixelFormat::Masked {
                bits: 32,
                r: 0xff_0000,
                g: 0xff00,
                b: 0xff,
                a,
                luminance: false,
            } if matches!(a, 0 | 0xff00_0000) => {
                crate::blp::codec::decode_bgra(bytes, width, height, a == 0)
            }
            PixelFormat::Masked {
                bits,
                r,
                g,
                b,
                a,
                luminance,
            } => Ok(masked(bytes, bits / 8, [r, g, b, a], luminance)),
        }
        .map_err(|e| Error::invalid(at, e.to_string()))?;
        // The sides were checked and the codecs give every pixel.
        RgbaImage::new(width, height, pixels).map_err(|e| Error::invalid(at, e.to_string()))
    }
}

impl Dds {
    /// The depth slices of level `level`: the depth halved per level (at
    /// least 1) for a volume texture (`DDSCAPS2_VOLUME`, or a DX10
    /// `TEXTURE3D`), 1 otherwise.
    fn slices(&self, level: u32) -> u32 {
        use crate::dds::header::{caps2, resource_dimension};
        let volume = self.header.caps2 & caps2::VOLUME != 0
            || self
                .dx10
                .is_some_and(|d| d.resource_dimension == resource_dimension::TEXTURE3D);
        if !volume {
            return 1;
        }
        self.header.depth.checked_shr(level).unwrap_or(0).max(1)
    }

    /// Fails unless both sides are 1 to [`MAX_SIDE`](crate::blp::MAX_SIDE):
    /// the error names the field (`header.width`) and its offset in the file.
    fn check_size(&self) -> Result<(), Error> {
        // After the magic, `dwSize` and `dwFlags`: `dwHeight` at 12, `dwWidth` at 16.
        let header = &self.header;
        check_side_fields(header.width, header.height, [16, 12]).map_err(|e| e.in_field("header"))
    }
}

/// Rebuilds the Z (blue) channel of a normal map stored as X and Y only
/// (red and green, as BC5 holds them): `z = sqrt(1 - x² - y²)` with each
/// channel mapping 0..=255 to -1..=1, the way a shader reads a two-channel
/// normal map; a glTF normal texture holds all three.
///
/// ```
/// use formats::blp::RgbaImage;
/// let mut flat = RgbaImage::new(1, 1, vec![128, 128, 0, 255])?;
/// formats::dds::rebuild_normal_z(&mut flat);
/// assert_eq!(flat.data, [128, 128, 255, 255]); // (0, 0, 1)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rebuild_normal_z(image: &mut RgbaImage) {
    let unit = |c: u8| f32::from(c) / 255.0 * 2.0 - 1.0;
    for pixel in image.data.as_chunks_mut::<4>().0 {
        let (x, y) = (unit(pixel[0]), unit(pixel[1]));
        let z = (1.0 - x * x - y * y).max(0.0).sqrt();
        pixel[2] = ((z + 1.0) / 2.0 * 255.0).round() as u8;
    }
}

/// Uncompressed pixels of `bytes` bytes each (little-endian), each channel
/// where its mask says, scaled to 8 bits; a zero mask gives 0 (255 for
/// alpha); `luminance`: grey from the red mask.
///
/// A mask wider than the pixel is taken as aligned to the top of a 32-bit
/// word: Pillow (13) writes 8-bit luminance with `dwRBitMask` 0xff000000 and
/// 16-bit luminance-alpha with `dwABitMask` 0xff000000, and reads both back
/// as the pixel's low and high byte.
fn masked(level: &[u8], bytes: u32, masks: [u32; 4], luminance: bool) -> Vec<u8> {
    let bits = bytes * 8;
    let fits = |mask: u32| mask.checked_shr(bits).unwrap_or(0) == 0;
    let channels = masks.map(|mask| {
        Channel::of(if fits(mask) {
            mask
        } else {
            mask >> (32 - bits)
        })
    });
    let mut out = Vec::with_capacity(level.len() / bytes as usize * 4);
    for pixel in level.chunks_exact(bytes as usize) {
        let value = pixel
            .iter()
            .rev()
            .fold(0u32, |v, &byte| (v << 8) | u32::from(byte));
        let [r, g, b, a] = channels.map(|c| c.get(value));
        let rgb = if luminance { [r, r, r] } else { [r, g, b] };
        out.extend_from_slice(&rgb);
        out.push(if channels[3].mask == 0 { 255 } else { a });
    }
    out
}

/// One channel of a masked pixel: where it is and how many bits it has.
#[derive(Clone, Copy)]
struct Channel {
    mask: u32,
    shift: u32,
    max: u32,
}

impl Channel {
    fn of(mask: u32) -> Channel {
        let shift = if mask == 0 { 0 } else { mask.trailing_zeros() };
        Channel {
            mask,
            shift,
            max: mask.checked_shr(shift).unwrap_or(0),
        }
    }

    /// The channel's value in `pixel`, scaled to 0..=255 (rounded).
    fn get(self, pixel: u32) -> u8 {
        if self.max == 0 {
            return 0;
        }
        let v = u64::from((pixel & self.mask) >> self.shift);
        let max = u64::from(self.max);
        u8::try_from((v * 255 + max / 2) / max).unwrap_or(u8::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dds::DdsPixelFormat;

    /// An 8x8 BC1 texture with 4 levels (8x8, 4x4, 2x2, 1x1: 4, 1, 1 and 1
    /// blocks), each level one colour: every level decodes at its size from
    /// its own bytes; a level past the count, or cut short, is an error.
    #[test]
    fn mip_levels_follow_each_other() {
        // A BC1 block of one colour (RGB565 in both endpoints, indices 0).
        let block = |rgb565: u16| {
            let mut b = rgb565.to_le_bytes().repeat(2);
            b.extend([0; 4]);
            b
        };
        let mut blocks = Vec::new();
        for (level, colour) in [(4, 0xf800u16), (1, 0x07e0), (1, 0x001f), (1, 0xffff)] {
            for _ in 0..level {
                blocks.extend(block(colour));
            }
        }
        let dxt1 = DdsPixelFormat {
            size: 32,
            flags: crate::dds::header::pixel_flags::FOURCC,
            four_cc: *b"DXT1",
            ..Default::default()
        };
        let mut data = crate::dds::tiny_dds(8, 8, 4, dxt1, blocks);
        let dds = Dds::from_bytes(&data).unwrap();
        assert_eq!(dds.level_count(), 4);
        let expected = [
            (8, [255, 0, 0, 255]),
            (4, [0, 255, 0, 255]),
            (2, [0, 0, 255, 255]),
            (1, [255, 255, 255, 255]),
        ];
        for (level, (side, pixel)) in (0..4).zip(expected) {
            let image = dds.decode_level(level).unwrap();
            assert_eq!((image.width, image.height), (side, side), "level {level}");
            assert_eq!(image.data, pixel.repeat(side as usize * side as usize));
        }
        let err = dds.decode_level(4).unwrap_err();
        assert!(err.to_string().contains("4 mip levels"), "{err}");
        data.truncate(data.len() - 1);
        let err = Dds::from_bytes(&data).unwrap().decode_level(3).unwrap_err();
        assert!(err.to_string().contains("8 bytes needed, 7 there"), "{err}");
    }

    /// A volume texture stores each level's depth slices together (level 0's
    /// slices, then level 1's): level 1 starts after all of level 0's, and
    /// a level decodes as its first slice.
    #[test]
    fn volume_levels_start_after_every_slice_of_the_level_before() {
        let bgra = DdsPixelFormat {
            size: 32,
            flags: crate::dds::header::pixel_flags::RGB,
            rgb_bit_count: 32,
            r_bit_mask: 0x00ff_0000,
            g_bit_mask: 0x0000_ff00,
            b_bit_mask: 0x0000_00ff,
            ..Default::default()
        };
        // 4x4x2: slice 0 red, slice 1 green; 2x2x1: blue; 1x1x1: white.
        let mut data = Vec::new();
        for (pixels, bgr) in [
            (16, [0, 0, 255]),
            (16, [0, 255, 0]),
            (4, [255, 0, 0]),
            (1, [255, 255, 255]),
        ] {
            for _ in 0..pixels {
                data.extend(bgr);
                data.push(0);
            }
        }
        let file = crate::dds::tiny_dds(4, 4, 3, bgra, data);
        let mut volume = Dds::from_bytes(&file).unwrap();
        volume.header.depth = 2;
        volume.header.flags |= 0x80_0000; // DDSD_DEPTH
        volume.header.caps2 = crate::dds::header::caps2::VOLUME;
        let mut dx10 = volume.clone();
        dx10.header.caps2 = 0;
        dx10.header.ddspf.flags = crate::dds::header::pixel_flags::FOURCC;
        dx10.header.ddspf.four_cc = *b"DX10";
        dx10.dx10 = Some(crate::dds::DdsHeaderDxt10 {
            dxgi_format: 88, // B8G8R8X8_UNORM
            resource_dimension: crate::dds::header::resource_dimension::TEXTURE3D,
            array_size: 1,
            ..Default::default()
        });
        for dds in [volume, dx10] {
            let dds = Dds::from_bytes(&dds.to_bytes().unwrap()).unwrap();
            let expected = [
                (4, [255, 0, 0, 255]),
                (2, [0, 0, 255, 255]),
                (1, [255, 255, 255, 255]),
            ];
            for (level, (side, pixel)) in (0..3).zip(expected) {
                let image = dds.decode_level(level).unwrap();
                assert_eq!((image.width, image.height), (side, side), "level {level}");
                assert_eq!(
                    image.data,
                    pixel.repeat(side as usize * side as usize),
                    "level {level}"
                );
            }
        }
    }

    #[test]
    fn a_size_out_of_range_names_its_field_and_offset() {
        let ddspf = DdsPixelFormat::default();
        for (width, height, field, offset) in [(0, 4, "width", 16), (4, 20000, "height", 12)] {
            let data = crate::dds::tiny_dds(width, height, 1, ddspf, vec![0; 64]);
            let err = Dds::from_bytes(&data).unwrap().decode_level(0).unwrap_err();
            assert_eq!(err.offset(), offset, "{err}");
            assert_eq!(err.path_string(), format!("header.{field}"), "{err}");
            assert!(
                err.to_string().contains("each side must be 1 to 16384"),
                "{err}"
            );
        }
    }

    #[test]
    fn masks_of_any_width_scale_to_eight_bits() {
        // R5G6B5: full red, half green (31 of 63), no blue.
        let pixel = (31u16 << 11 | 31 << 5).to_le_bytes();
        let masks = [0xf800, 0x07e0, 0x001f, 0];
        assert_eq!(masked(&pixel, 2, masks, false), [255, 125, 0, 255]);
        // A8L8: grey 0x40, alpha 0x80.
        assert_eq!(
            masked(&[0x40, 0x80], 2, [0xff, 0, 0, 0xff00], true),
            [0x40, 0x40, 0x40, 0x80]
        );
        // Pillow's L8 and A8L8 masks, at the top of a 32-bit word.
        assert_eq!(
            masked(&[0x40], 1, [0xff00_0000, 0, 0, 0], true),
            [0x40, 0x40, 0x40, 255]
        );
        assert_eq!(
            masked(&[0x40, 0x80], 2, [0xff, 0, 0, 0xff00_0000], true),
            [0x40, 0x40, 0x40, 0x80]
        );
        // 24-bit BGR.
        assert_eq!(
            masked(&[1, 2, 3], 3, [0xff_0000, 0xff00, 0xff, 0], false),
            [3, 2, 1, 255]
        );
    }
}
