//! [`Blp`]: a whole texture file, defined with the derive and read and written
//! byte-exact.

use std::ops::Range;

use format_core::{
    Codec, Context, Decode, Derived, Diagnostic, Error, Kept, Mode, Reader, decode, encode,
};

use super::header::{AlphaKind, Encoding, Header};
use super::layout::{self, MipTable};

/// A BLP texture (BLP1 or BLP2): the header, the shared JPEG header or the
/// palette, and every mip level's raw bytes.
///
/// ```text
/// char[4] magic; <Blp1Header | Blp2Header>;
/// uint32 mipOffsets[16]; uint32 mipSizes[16];
/// BLP1 JPEG: uint32 jpegHeaderSize; uint8 jpegHeader[jpegHeaderSize];
/// otherwise: uint32 palette[256];   (BGRA)
/// level i: mipSizes[i] bytes at mipOffsets[i]
/// ```
///
/// The mip table is declared: level `i` is read where `mipOffsets[i]` points,
/// `mipSizes[i]` bytes, until an entry is 0; on write the levels go one after
/// the other right after the header and the table follows. What a file laid
/// out differently (a gap before level 0, a level over the palette's last
/// bytes, levels sharing one offset, entries after the last level, trailing
/// bytes) is in [`kept`](Blp::kept) and replayed while the levels keep their
/// lengths, so an unedited file writes back byte for byte (see
/// `format_core::kept`).
#[derive(Codec, Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(region)]
pub struct Blp {
    /// The magic and the fixed fields.
    pub header: Header,
    /// `mipOffsets[16]`: where each level starts (absolute).
    #[format(offset(of = levels, from = 0))]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub mip_offsets: Derived<[u32; 16]>,
    /// `mipSizes[16]`: each level's byte size.
    #[format(size(of = levels))]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub mip_sizes: Derived<[u32; 16]>,
    /// BLP1 JPEG: the bytes every level's JPEG stream starts with.
    #[format(if = header.has_jpeg_header(), count = u32)]
    #[cfg_attr(feature = "serde", serde(with = "hex::option"))]
    pub jpeg_header: Option<Vec<u8>>,
    /// Otherwise: 256 BGRA colours (A unused; alpha comes from the alpha plane).
    #[format(if = !header.has_jpeg_header(), count = 256)]
    pub palette: Option<Vec<[u8; 4]>>,
    /// Each mip level's bytes, level 0 (full size) first.
    #[format(placed)]
    #[cfg_attr(feature = "serde", serde(with = "hex::levels"))]
    pub levels: Vec<Vec<u8>>,
    /// Where this file placed its levels and what it wrote between them, when
    /// that is not the fresh layout.
    #[format(kept)]
    pub kept: Kept,
}

impl Blp {
    /// Reads a BLP file. A file that is something else (an MDX model named
    /// `.blp`, as two public files are) is refused with a message that says so.
    ///
    /// ```
    /// use formats::blp::Blp;
    /// let err = Blp::from_bytes(b"MDLXVERS").unwrap_err();
    /// assert!(err.to_string().contains("an MDX model"), "{err}");
    /// ```
    pub fn from_bytes(data: &[u8]) -> Result<Blp, Error> {
        is_blp(data)?;
        decode(data, Context::new())
    }

    /// Reads a BLP file leniently: a mip table entry whose level lies
    /// outside the file (real files put a level past the end: a level 8 of
    /// 327 bytes at the end of the file, a level 9 of 0xFFFEA5FC bytes),
    /// which the strict reader refuses, ends the levels read, with a
    /// diagnostic. That entry and the ones after it stay in the table as
    /// read, so the file writes back byte for byte; their levels are
    /// [missing](Blp::missing_levels), and the levels before them decode.
    /// (Viewers and the game show level 0 of such a file; the levels past it
    /// are a 128 x 128 texture's ninth and tenth, past its 1 x 1 level.)
    /// Anything else the strict reader refuses is still an error.
    ///
    /// ```
    /// use formats::blp::Blp;
    /// let mut data = formats::blp::tiny_blp2_bgra();
    /// data[20 + 4..20 + 8].copy_from_slice(&0x10_0000u32.to_le_bytes()); // level 1's offset
    /// let strict = Blp::from_bytes(&data).unwrap_err();
    /// assert_eq!((strict.offset(), strict.path_string().as_str()), (24, "levels[1]"));
    /// let (blp, diagnostics) = Blp::from_bytes_lenient(&data)?;
    /// assert_eq!(blp.levels.len(), 1);
    /// assert_eq!(blp.missing_levels(), 1..2);
    /// assert!(diagnostics[0].message.starts_with(&strict.to_string()));
    /// assert_eq!(blp.to_bytes()?, data); // the table as it was
    /// # #[cfg(feature = "blp-pixels")]
    /// assert!(blp.decode_level(0).is_ok());
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(Blp, Vec<Diagnostic>), Error> {
        is_blp(data)?;
        let mut r = Reader::with_context(data, Context::new().with_mode(Mode::Lenient));
        let blp = Blp::decode(&mut r, ())?;
        r.finish()?;
        Ok((blp, r.take_diagnostics()))
    }

    /// The levels the mip table lists past the ones the file holds
    /// (`levels.len()` on): those whose bytes lie outside the file, which a
    /// [lenient read](Blp::from_bytes_lenient) keeps as table entries without
    /// a level. Empty for a file read strictly or built in code.
    pub fn missing_levels(&self) -> Range<usize> {
        let start = self.levels.len();
        let Ok(table) = self.mip_table() else {
            return start..start;
        };
        let listed = table
            .offsets
            .iter()
            .zip(&table.sizes)
            .take_while(|&(&offset, &size)| offset != 0 && size != 0)
            .count();
        start..listed.max(start)
    }

    /// Writes the file: byte for byte as read if nothing changed, with every
    /// offset and size recomputed otherwise.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        encode(self, Context::new())
    }

    /// 1 or 2.
    pub fn version(&self) -> u32 {
        self.header.version()
    }

    /// Width and height of level 0.
    pub fn size(&self) -> (u32, u32) {
        self.header.size()
    }

    /// How the levels are encoded; an error names the header field that
    /// says something unknown, with its offset (`header.BLP2.compression`).
    ///
    /// ```
    /// use formats::blp::Blp;
    /// let mut data = formats::blp::tiny_blp2_bgra();
    /// data[8] = 9; // compression
    /// let err = Blp::from_bytes(&data)?.encoding().unwrap_err();
    /// assert_eq!((err.offset(), err.path_string().as_str()), (8, "header.BLP2.compression"));
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn encoding(&self) -> Result<Encoding, Error> {
        self.header.encoding().map_err(|e| e.in_field("header"))
    }

    /// What the alpha field means (an error as [`encoding`](Blp::encoding)'s).
    pub fn alpha_kind(&self) -> Result<AlphaKind, Error> {
        self.header.alpha_kind().map_err(|e| e.in_field("header"))
    }

    /// Fails unless both sides are 1 to [`MAX_SIDE`](super::MAX_SIDE)
    /// pixels; the error names the field and its offset
    /// (`header.BLP2.width`, 0xc).
    pub fn check_size(&self) -> Result<(), Error> {
        self.header.check_size().map_err(|e| e.in_field("header"))
    }

    /// The dimensions of level `level` by the header (each side halved, at
    /// least 1), whether or not the file holds that level: a level past the
    /// last one the file has (`levels.len()`) is 1 x 1 by the rule,
    /// and `decode_level` refuses it.
    pub fn level_size(&self, level: usize) -> (u32, u32) {
        self.header.level_size(level)
    }

    /// The mip table as it will be written (the file is laid out to find it).
    pub fn mip_table(&self) -> Result<MipTable, Error> {
        MipTable::read(&self.to_bytes()?, self.header.table_offset())
    }

    /// The byte size of the header, its mip table and its palette or JPEG header.
    pub fn header_len(&self) -> usize {
        layout::header_len(&self.header, &self.jpeg_header, &self.palette)
    }

    /// Forgets the kept layout: the next write puts the levels one after the
    /// other right after the header, with no gaps.
    pub fn relayout(&mut self) {
        self.kept.clear();
    }
}

/// Fails unless `data` starts with `BLP1` or `BLP2`, saying what it looks
/// like instead (an MDX model named `.blp`, as two public files are).
pub(super) fn is_blp(data: &[u8]) -> Result<(), Error> {
    match data.first_chunk::<4>() {
        Some(b"BLP1" | b"BLP2") => Ok(()),
        _ => Err(crate::magic::not_a(
            "a BLP texture",
            "`BLP1` or `BLP2`",
            data,
        )),
    }
}

/// Byte blobs as hex text in JSON (raw bytes in binary serde formats), as
/// `format_core::serde_bytes` writes one.
#[cfg(feature = "serde")]
mod hex {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    struct Hex<'a>(&'a [u8]);

    impl Serialize for Hex<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            format_core::serde_bytes::serialize(self.0, s)
        }
    }

    struct HexBuf(Vec<u8>);

    impl<'de> Deserialize<'de> for HexBuf {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            format_core::serde_bytes::deserialize(d).map(HexBuf)
        }
    }

    /// `Vec<Vec<u8>>`: a list of hex strings.
    pub mod levels {
        use super::*;

        pub fn serialize<S: Serializer>(levels: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(levels.iter().map(|l| Hex(l)))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
            Vec::<HexBuf>::deserialize(d).map(|v| v.into_iter().map(|h| h.0).collect())
        }
    }

    /// `Option<Vec<u8>>`: a hex string or `null`.
    pub mod option {
        use super::*;

        pub fn serialize<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
            bytes.as_deref().map(Hex).serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u8>>, D::Error> {
            Option::<HexBuf>::deserialize(d).map(|o| o.map(|h| h.0))
        }
    }
}
