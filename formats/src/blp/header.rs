//! The fixed headers of both BLP versions (everything before the mip table),
//! and what their fields mean: [`Encoding`] and the size of each level.

use std::borrow::Cow;

use format_core::{Codec, Error};

use super::image::check_side_fields;

/// The fields of a BLP1 header after the `BLP1` magic (Warcraft III).
///
/// ```text
/// uint32 compression; uint32 alphaBits; uint32 width; uint32 height;
/// uint32 extra; uint32 hasMipmaps;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Blp1Header {
    /// 0: JPEG, 1: palette.
    pub compression: u32,
    /// 0, 1, 4 or 8 for palette textures; 0 or 8 for JPEG ones, but tools
    /// wrote 3 to 10 there (log2 of the larger side): see [`AlphaKind`].
    pub alpha_bits: u32,
    /// Width of level 0 in pixels.
    pub width: u32,
    /// Height of level 0 in pixels.
    pub height: u32,
    /// "Picture type": 4 = with team colour/alpha, 5 = without; not needed to decode.
    pub extra: u32,
    /// 0 or 1; the mip table says which levels really are there.
    pub has_mipmaps: u32,
}

/// The fields of a BLP2 header after the `BLP2` magic (World of Warcraft).
///
/// ```text
/// uint32 type; uint8 compression; uint8 alphaDepth; uint8 alphaType;
/// uint8 hasMips; uint32 width; uint32 height;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Blp2Header {
    /// 0: JPEG (not supported, never seen), 1: direct.
    pub kind: u32,
    /// 1: palette, 2: DXT, 3: uncompressed BGRA.
    pub compression: u8,
    /// 0, 1, 4 or 8 (72 seen on DXT5 files).
    pub alpha_depth: u8,
    /// DXT: 0 = DXT1, 1 = DXT3, 7 = DXT5; other kinds: a format hint (8, 2).
    pub alpha_type: u8,
    /// 0, 1 or 2; the mip table says which levels really are there.
    pub has_mips: u8,
    /// Width of level 0 in pixels.
    pub width: u32,
    /// Height of level 0 in pixels.
    pub height: u32,
}

/// The header: the magic picks the version.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Header {
    /// `BLP1`: Warcraft III (JPEG or palette).
    #[format(tag = "BLP1")]
    Blp1(Blp1Header),
    /// `BLP2`: World of Warcraft (palette, DXT or BGRA).
    #[format(tag = "BLP2")]
    Blp2(Blp2Header),
}

/// How the levels' bytes encode pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// BLP1 JPEG: each level is a JPEG stream after the shared JPEG header,
    /// 4 channels B, G, R, A.
    Jpeg,
    /// 8-bit palette indices, then the alpha plane.
    Palette,
    /// BLP2 DXT1 (BC1), 8 bytes per 4x4 block.
    Dxt1,
    /// BLP2 DXT3 (BC2), 16 bytes per block.
    Dxt3,
    /// BLP2 DXT5 (BC3), 16 bytes per block.
    Dxt5,
    /// BLP2 uncompressed B, G, R, A.
    Bgra,
}

impl Encoding {
    /// A short name (`JPEG`, `palette`, `DXT1`, …).
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Jpeg => "JPEG",
            Encoding::Palette => "palette",
            Encoding::Dxt1 => "DXT1",
            Encoding::Dxt3 => "DXT3",
            Encoding::Dxt5 => "DXT5",
            Encoding::Bgra => "BGRA",
        }
    }
}

/// What the alpha field says (and, where it says nothing usable, where alpha comes from).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AlphaKind {
    /// Opaque: the alpha field is 0. For every encoding, DXT3 and DXT5
    /// included, whose blocks carry alpha anyway: BLP.md gives alphaDepth 0 as
    /// opaque for DXT1, the manifest's 7,475 files have alphaDepth 0 only with
    /// DXT1, and Pillow's plugin reads any BLP2 with alphaDepth 0 as RGB.
    /// Decoding gives alpha 255.
    None,
    /// An alpha plane (palette) or 1-bit DXT1 alpha of this many bits.
    Bits(u32),
    /// DXT3/DXT5 alpha blocks.
    Blocks,
    /// The fourth JPEG channel.
    JpegChannel,
    /// A BLP1 JPEG whose `alphaBits` is not 0 or 8 (a mip count written
    /// there by some tool): the decoded fourth channel decides.
    FromData(u32),
}

/// Where the mip table starts: after the magic and the fixed header fields.
pub const BLP1_TABLE_OFFSET: usize = 4 + 24;
/// Where the BLP2 mip table starts.
pub const BLP2_TABLE_OFFSET: usize = 4 + 16;

/// Where the width is in the file, in both versions (the height follows).
const WIDTH_OFFSET: usize = 12;
/// Where the height is in the file, in both versions.
const HEIGHT_OFFSET: usize = 16;

impl Header {
    /// 1 or 2.
    pub fn version(&self) -> u32 {
        match self {
            Header::Blp1(_) => 1,
            Header::Blp2(_) => 2,
        }
    }

    /// Width and height of level 0.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Header::Blp1(h) => (h.width, h.height),
            Header::Blp2(h) => (h.width, h.height),
        }
    }

    /// The dimensions of level `level`: each side halved per level, at least 1.
    pub fn level_size(&self, level: usize) -> (u32, u32) {
        let (w, h) = self.size();
        let shift = u32::try_from(level).unwrap_or(u32::MAX);
        let half = |side: u32| side.checked_shr(shift).unwrap_or(0).max(1);
        (half(w), half(h))
    }

    /// True for a BLP1 JPEG texture: a shared JPEG header follows the mip
    /// table instead of a palette.
    pub fn has_jpeg_header(&self) -> bool {
        matches!(self, Header::Blp1(h) if h.compression == 0)
    }

    /// Where the `mipOffsets` table starts in the file.
    pub fn table_offset(&self) -> usize {
        match self {
            Header::Blp1(_) => BLP1_TABLE_OFFSET,
            Header::Blp2(_) => BLP2_TABLE_OFFSET,
        }
    }

    /// The alpha field: BLP1 `alphaBits`, BLP2 `alphaDepth`.
    pub fn alpha_bits(&self) -> u32 {
        match self {
            Header::Blp1(h) => h.alpha_bits,
            Header::Blp2(h) => u32::from(h.alpha_depth),
        }
    }

    /// An error about the field `field` at file offset `offset`, with its
    /// path in the header (the variant's tag, as the derive names it, then
    /// the field: `BLP2.compression`; [`Blp`](super::Blp)'s methods put
    /// `header.` before it).
    fn invalid(
        &self,
        offset: usize,
        field: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Error {
        Error::invalid(offset, message)
            .in_field(field)
            .in_tag(self.tag())
    }

    /// Fails unless both sides are 1 to [`MAX_SIDE`](super::MAX_SIDE)
    /// pixels: the error names the field (`BLP2.width`) and its file offset.
    /// Checked before any pixel buffer is allocated.
    pub fn check_size(&self) -> Result<(), Error> {
        let (width, height) = self.size();
        check_side_fields(width, height, [WIDTH_OFFSET, HEIGHT_OFFSET])
            .map_err(|e| e.in_tag(self.tag()))
    }

    /// How the levels are encoded, or an error naming the field that says
    /// something this reader does not know (its offset in the file, and its
    /// path in the header: `BLP2.compression`).
    pub fn encoding(&self) -> Result<Encoding, Error> {
        match self {
            Header::Blp1(h) => match h.compression {
                0 => Ok(Encoding::Jpeg),
                1 => Ok(Encoding::Palette),
                other => Err(self.invalid(
                    4,
                    "compression",
                    format!("BLP1 compression {other} is neither 0 (JPEG) nor 1 (palette)"),
                )),
            },
            Header::Blp2(h) => match (h.kind, h.compression, h.alpha_type) {
                (0, ..) => Err(self.invalid(
                    4,
                    "kind",
                    "BLP2 type 0 (JPEG) is not supported (no such file is known)",
                )),
                (_, 1, _) => Ok(Encoding::Palette),
                (_, 2, 0) => Ok(Encoding::Dxt1),
                (_, 2, 1) => Ok(Encoding::Dxt3),
                (_, 2, 7) => Ok(Encoding::Dxt5),
                (_, 2, other) => Err(self.invalid(
                    10,
                    "alpha_type",
                    format!("BLP2 DXT alphaType {other} is not 0 (DXT1), 1 (DXT3) or 7 (DXT5)"),
                )),
                (_, 3, _) => Ok(Encoding::Bgra),
                (_, other, _) => Err(self.invalid(
                    8,
                    "compression",
                    format!(
                        "BLP2 compression {other} is not 1 (palette), 2 (DXT) or 3 (uncompressed)"
                    ),
                )),
            },
        }
    }

    /// What the alpha field means for this encoding.
    pub fn alpha_kind(&self) -> Result<AlphaKind, Error> {
        let bits = self.alpha_bits();
        Ok(match (self.encoding()?, bits) {
            (_, 0) => AlphaKind::None,
            (Encoding::Jpeg, 8) => AlphaKind::JpegChannel,
            (Encoding::Jpeg, other) => AlphaKind::FromData(other),
            (Encoding::Dxt3 | Encoding::Dxt5, _) => AlphaKind::Blocks,
            (Encoding::Dxt1, _) => AlphaKind::Bits(1),
            (Encoding::Palette | Encoding::Bgra, bits) => AlphaKind::Bits(bits),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_sizes_halve_to_one() {
        let h = Header::Blp1(Blp1Header {
            width: 128,
            height: 129,
            ..Default::default()
        });
        assert_eq!(h.level_size(0), (128, 129));
        assert_eq!(h.level_size(1), (64, 64));
        assert_eq!(h.level_size(7), (1, 1));
        assert_eq!(h.level_size(40), (1, 1));
        assert_eq!(h.level_size(usize::MAX), (1, 1));
    }

    #[test]
    fn a_size_out_of_range_names_its_field_and_offset() {
        let blp2 = |width, height| {
            Header::Blp2(Blp2Header {
                width,
                height,
                ..Default::default()
            })
        };
        let err = blp2(0, 0).check_size().unwrap_err();
        assert_eq!(
            (err.offset(), err.path_string().as_str()),
            (12, "BLP2.width")
        );
        assert_eq!(
            err.to_string(),
            "BLP2.width: invalid value at 0xc: an image of 0x0: each side must be 1 to 16384 pixels"
        );
        let err = blp2(16384, 16385).check_size().unwrap_err();
        assert_eq!(
            (err.offset(), err.path_string().as_str()),
            (16, "BLP2.height")
        );
        let blp1 = Header::Blp1(Blp1Header {
            width: 8,
            ..Default::default()
        });
        let err = blp1.check_size().unwrap_err();
        assert_eq!(
            (err.offset(), err.path_string().as_str()),
            (16, "BLP1.height")
        );
        assert!(blp2(1, 16384).check_size().is_ok());
    }

    #[test]
    fn unknown_fields_are_named_with_their_offsets() {
        let blp2 = |kind, compression, alpha_type| Blp2Header {
            kind,
            compression,
            alpha_type,
            ..Default::default()
        };
        for (header, offset, path) in [
            (blp2(0, 3, 0), 4, "BLP2.kind"),
            (blp2(1, 9, 0), 8, "BLP2.compression"),
            (blp2(1, 2, 3), 10, "BLP2.alpha_type"),
        ] {
            let err = Header::Blp2(header).encoding().unwrap_err();
            assert_eq!((err.offset(), err.path_string().as_str()), (offset, path));
        }
        let blp1 = Header::Blp1(Blp1Header {
            compression: 2,
            ..Default::default()
        });
        let err = blp1.alpha_kind().unwrap_err();
        assert_eq!(
            (err.offset(), err.path_string().as_str()),
            (4, "BLP1.compression")
        );
    }

    /// Through the file: a 0x0 texture's level is refused naming the field
    /// from the file's root, and its offset.
    #[cfg(feature = "blp-pixels")]
    #[test]
    fn a_texture_of_0x0_says_where() {
        let mut data = crate::blp::tiny_blp2_bgra();
        data[12..20].fill(0);
        let blp = crate::blp::Blp::from_bytes(&data).unwrap();
        let err = blp.decode_level(0).unwrap_err();
        assert_eq!(
            err.to_string(),
            "header.BLP2.width: invalid value at 0xc: an image of 0x0: each side must be 1 to 16384 pixels"
        );
        data[8] = 9;
        let err = crate::blp::Blp::from_bytes(&data)
            .unwrap()
            .encoding()
            .unwrap_err();
        assert_eq!(err.path_string(), "header.BLP2.compression");
    }

    #[test]
    fn encodings_and_alpha_kinds() {
        let blp2 = |compression, alpha_depth, alpha_type| {
            Header::Blp2(Blp2Header {
                kind: 1,
                compression,
                alpha_depth,
                alpha_type,
                ..Default::default()
            })
        };
        assert_eq!(blp2(2, 72, 7).encoding().unwrap(), Encoding::Dxt5);
        assert_eq!(blp2(2, 72, 7).alpha_kind().unwrap(), AlphaKind::Blocks);
        assert_eq!(blp2(2, 1, 0).alpha_kind().unwrap(), AlphaKind::Bits(1));
        assert_eq!(blp2(2, 0, 0).alpha_kind().unwrap(), AlphaKind::None);
        assert_eq!(blp2(3, 0, 2).encoding().unwrap(), Encoding::Bgra);
        assert!(blp2(2, 8, 3).encoding().is_err());
        assert!(blp2(9, 8, 3).encoding().is_err());
        let jpeg = Header::Blp1(Blp1Header {
            alpha_bits: 9,
            ..Default::default()
        });
        assert_eq!(jpeg.alpha_kind().unwrap(), AlphaKind::FromData(9));
        assert!(jpeg.has_jpeg_header());
    }
}
