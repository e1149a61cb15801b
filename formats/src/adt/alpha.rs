//! MCAL alpha maps and MCSH shadow maps, decoded to 64x64 maps and encoded back.
//!
//! Which of the three alpha encodings a layer uses depends on its MCLY flags and
//! on the map's WDT `MPHD` flags, which the ADT does not contain: the decoder
//! takes them explicitly ([`AlphaFormat::for_layer`]).
//!
//! | MCLY 0x200 | MPHD 0x4 or 0x80 | encoding |
//! |---|---|---|
//! | | | 4-bit, 2048 bytes ([`AlphaFormat::Uncompressed4Bit`]) |
//! | | set | 8-bit, 4096 bytes ([`AlphaFormat::Uncompressed8Bit`]) |
//! | set | set | run-length compressed ([`AlphaFormat::Compressed`]) |
//!
//! Decoded values are 8-bit (0..=255). A 4-bit value `v` becomes `v * 17`
//! (`value & 0xF | 0x10 * value`, the client's `Blit_Argb4444_Abgr8888`), and is
//! encoded back as the nearest 4-bit value.
//!
//! **Edge fix.** Without the MCNK flag `do_not_fix_alpha_map` a 4-bit map is
//! really 63x63: [`EdgeFix::Fix63`] makes column 63 a copy of column 62 and row
//! 63 a copy of row 62, as the client does, so the stored last nibble of each
//! row and the last row are not in the decoded map. Encoding with `Fix63`
//! writes those positions as the copies. The fix only applies to 4-bit maps.
//!
//! The decoder returns the stored values: the client's extra darkening of 8-bit
//! alpha under shadow (`178 * alpha >> 8`) is a rendering step, available as
//! [`AlphaMap::apply_shadow`].

use format_core::{Error, Result};

use super::mcnk::{Mcsh, layer_flags};

/// The WDT `MPHD` flags that make uncompressed alpha maps 8-bit:
/// `adt_has_big_alpha` (0x4) and `adt_has_height_texturing` (0x80).
pub const BIG_ALPHA_FLAGS: u32 = 0x4 | 0x80;

/// Width and height of an alpha or shadow map.
pub const MAP_SIZE: usize = 64;

/// How one layer's alpha map is stored in MCAL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AlphaFormat {
    /// `uint4_t alpha_map[64][64]`: 2048 bytes, two values per byte, low nibble first.
    Uncompressed4Bit,
    /// `uint8_t alpha_map[64][64]`: 4096 bytes.
    Uncompressed8Bit,
    /// Run-length compressed 8-bit values, row by row.
    Compressed,
}

impl AlphaFormat {
    /// The encoding of a layer with MCLY `layer_flags` in a map whose WDT MPHD
    /// has `mphd_flags`. Compression is only possible with 8-bit maps: a layer
    /// flagged compressed in a 4-bit map is read as 4-bit, as the client does
    /// ("MPHD is only about bit depth").
    pub fn for_layer(layer_flags: u32, mphd_flags: u32) -> AlphaFormat {
        let big = mphd_flags & BIG_ALPHA_FLAGS != 0;
        match (big, layer_flags & layer_flags::ALPHA_MAP_COMPRESSED != 0) {
            (false, _) => AlphaFormat::Uncompressed4Bit,
            (true, false) => AlphaFormat::Uncompressed8Bit,
            (true, true) => AlphaFormat::Compressed,
        }
    }

    /// The MCLY flag bit for this format (`alpha_map_compressed` or nothing).
    pub fn layer_flag(self) -> u32 {
        match self {
            AlphaFormat::Compressed => layer_flags::ALPHA_MAP_COMPRESSED,
            _ => 0,
        }
    }
}

/// What to do with the last row and column of a 4-bit map (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EdgeFix {
    /// `do_not_fix_alpha_map` is set: all 64x64 values are as stored.
    None,
    /// `do_not_fix_alpha_map` is clear: a 63x63 map, row and column 63 copied
    /// from 62 (4-bit maps only).
    Fix63,
}

impl EdgeFix {
    /// From an MCNK's `flags`.
    pub fn for_chunk(mcnk_flags: u32) -> EdgeFix {
        if mcnk_flags & super::mcnk::flags::DO_NOT_FIX_ALPHA_MAP != 0 {
            EdgeFix::None
        } else {
            EdgeFix::Fix63
        }
    }
}

/// A decoded alpha map: 64 rows of 64 8-bit values, row by row.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AlphaMap {
    /// `values[64 * y + x]`
    pub values: Vec<u8>,
}

impl Default for AlphaMap {
    fn default() -> Self {
        AlphaMap::filled(0)
    }
}

fn too_short(offset: usize, needed: usize, available: usize) -> Error {
    Error::new(format_core::ErrorKind::UnexpectedEnd {
        offset,
        needed,
        available,
    })
}

impl AlphaMap {
    /// A map with every value `value`.
    pub fn filled(value: u8) -> AlphaMap {
        AlphaMap {
            values: vec![value; MAP_SIZE * MAP_SIZE],
        }
    }

    /// The value at column `x`, row `y` (0 outside the map).
    pub fn get(&self, x: usize, y: usize) -> u8 {
        if x < MAP_SIZE {
            self.values.get(y * MAP_SIZE + x).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// Sets the value at column `x`, row `y` (ignored outside the map).
    pub fn set(&mut self, x: usize, y: usize, value: u8) {
        if x < MAP_SIZE
            && let Some(v) = self.values.get_mut(y * MAP_SIZE + x)
        {
            *v = value;
        }
    }

    /// Decodes one map from the start of `data` (a layer's bytes from its
    /// `offsetInMCAL` on); returns it and the number of bytes it used.
    pub fn decode(data: &[u8], format: AlphaFormat, fix: EdgeFix) -> Result<(AlphaMap, usize)> {
        let (mut map, used) = match format {
            AlphaFormat::Uncompressed4Bit => {
                let bytes = data
                    .get(..2048)
                    .ok_or_else(|| too_short(0, 2048, data.len()))?;
                let values = bytes
                    .iter()
                    .flat_map(|&b| [(b & 0xf) * 17, (b >> 4) * 17])
                    .collect();
                (AlphaMap { values }, 2048)
            }
            AlphaFormat::Uncompressed8Bit => {
                let bytes = data
                    .get(..4096)
                    .ok_or_else(|| too_short(0, 4096, data.len()))?;
                (
                    AlphaMap {
                        values: bytes.to_vec(),
                    },
                    4096,
                )
            }
            AlphaFormat::Compressed => decompress(data)?,
        };
        if format == AlphaFormat::Uncompressed4Bit && fix == EdgeFix::Fix63 {
            map.fix_edges();
        }
        Ok((map, used))
    }

    /// Makes column 63 a copy of column 62 and row 63 a copy of row 62.
    pub fn fix_edges(&mut self) {
        for row in self.values.chunks_exact_mut(MAP_SIZE) {
            if let [.., a, b] = row {
                *b = *a;
            }
        }
        let (head, last) = self.values.split_at_mut((MAP_SIZE - 1) * MAP_SIZE);
        if let Some(prev) = head.get((MAP_SIZE - 2) * MAP_SIZE..) {
            last.copy_from_slice(prev);
        }
    }

    /// Encodes the map; with [`EdgeFix::Fix63`] a 4-bit map's row and column 63
    /// are written as copies of 62.
    pub fn encode(&self, format: AlphaFormat, fix: EdgeFix) -> Vec<u8> {
        match format {
            AlphaFormat::Uncompressed4Bit => {
                let mut map = self.clone();
                if fix == EdgeFix::Fix63 {
                    map.fix_edges();
                }
                let nibble = |v: u8| ((u16::from(v) + 8) / 17).min(15) as u8;
                map.values
                    .chunks_exact(2)
                    .map(|pair| match pair {
                        [a, b] => nibble(*a) | (nibble(*b) << 4),
                        _ => 0,
                    })
                    .collect()
            }
            AlphaFormat::Uncompressed8Bit => self.values.clone(),
            AlphaFormat::Compressed => compress(&self.values),
        }
    }

    /// Darkens the map where `shadow` has a shadow: `178 * alpha >> 8`, as the
    /// client does for 8-bit maps.
    pub fn apply_shadow(&mut self, shadow: &Mcsh) {
        for y in 0..MAP_SIZE {
            for x in 0..MAP_SIZE {
                if shadow.get(x, y) {
                    let v = self.get(x, y);
                    self.set(x, y, ((178 * u16::from(v)) >> 8) as u8);
                }
            }
        }
    }
}

/// Decompresses one run-length compressed map from the start of `data`:
/// control bytes `mode : 1 (high bit, 1 = fill) | count : 7`, a fill repeats
/// the next byte `count` times, a copy takes the next `count` bytes; runs
/// until 4096 values. Returns the map and the bytes used.
pub fn decompress(data: &[u8]) -> Result<(AlphaMap, usize), Error> {
    let mut values = Vec::with_capacity(MAP_SIZE * MAP_SIZE);
    let mut pos = 0usize;
    while values.len() < MAP_SIZE * MAP_SIZE {
        let control = *data.get(pos).ok_or_else(|| too_short(pos, 1, 0))?;
        pos += 1;
        let count = usize::from(control & 0x7f);
        if values.len() + count > MAP_SIZE * MAP_SIZE {
            return Err(Error::invalid(
                pos - 1,
                format!(
                    "alpha run of {count} at value {} passes the 4096 of a map",
                    values.len()
                ),
            ));
        }
        if control & 0x80 != 0 {
            let value = *data.get(pos).ok_or_else(|| too_short(pos, 1, 0))?;
            pos += 1;
            values.resize(values.len() + count, value);
        } else {
            let run = data
                .get(pos..pos + count)
                .ok_or_else(|| too_short(pos, count, data.len().saturating_sub(pos)))?;
            values.extend_from_slice(run);
            pos += count;
        }
    }
    Ok((AlphaMap { values }, pos))
}

/// Compresses 64x64 values row by row (runs never span rows): runs of three or
/// more equal values become fills, everything else copies.
pub fn compress(values: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for row in values.chunks(MAP_SIZE) {
        let run_at = |i: usize| {
            let first = row.get(i);
            row.get(i..).map_or(0, |rest| {
                rest.iter().take_while(|v| Some(*v) == first).count()
            })
        };
        let mut i = 0;
        while i < row.len() {
            let run = run_at(i);
            if run >= 3 {
                out.push(0x80 | run as u8);
                out.push(row.get(i).copied().unwrap_or_default());
                i += run;
            } else {
                let start = i;
                while i < row.len() && run_at(i) < 3 {
                    i += 1;
                }
                out.push((i - start) as u8);
                out.extend_from_slice(row.get(start..i).unwrap_or_default());
            }
        }
    }
    out
}

impl Mcsh {
    /// A 64x64 shadow map with no shadow.
    pub fn empty() -> Mcsh {
        Mcsh {
            shadow_map: [0; MAP_SIZE],
        }
    }

    /// The shadow bit at column `x`, row `y` (LSB first; false outside the map).
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < MAP_SIZE && self.shadow_map.get(y).is_some_and(|row| row >> x & 1 == 1)
    }

    /// Sets the shadow bit at column `x`, row `y` (ignored outside the map).
    pub fn set(&mut self, x: usize, y: usize, shadow: bool) {
        if x < MAP_SIZE
            && let Some(row) = self.shadow_map.get_mut(y)
        {
            *row = (*row & !(1 << x)) | (u64::from(shadow) << x);
        }
    }

    /// The map as 64 rows of 64 bits.
    pub fn bits(&self) -> Vec<[bool; MAP_SIZE]> {
        self.shadow_map
            .iter()
            .map(|row| std::array::from_fn(|x| row >> x & 1 == 1))
            .collect()
    }

    /// A map from rows of bits (rows past the 64th are ignored, missing ones
    /// have no shadow).
    pub fn from_bits(rows: &[[bool; MAP_SIZE]]) -> Mcsh {
        let mut map = Mcsh::empty();
        for (slot, row) in map.shadow_map.iter_mut().zip(rows) {
            *slot = row
                .iter()
                .enumerate()
                .fold(0u64, |acc, (x, &b)| acc | (u64::from(b) << x));
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_follow_the_table() {
        assert_eq!(
            AlphaFormat::for_layer(0x100, 0),
            AlphaFormat::Uncompressed4Bit
        );
        assert_eq!(
            AlphaFormat::for_layer(0x300, 0),
            AlphaFormat::Uncompressed4Bit
        );
        assert_eq!(
            AlphaFormat::for_layer(0x100, 0x4),
            AlphaFormat::Uncompressed8Bit
        );
        assert_eq!(AlphaFormat::for_layer(0x300, 0x80), AlphaFormat::Compressed);
    }

    #[test]
    fn fill_and_copy_runs() -> Result<()> {
        let mut data = Vec::new();
        for _ in 0..64 {
            data.extend_from_slice(&[0x82, 7, 0x02, 1, 2, 0xbc, 9]);
        }
        let (map, used) = decompress(&data)?;
        assert_eq!(used, data.len());
        assert_eq!(&map.values[..6], &[7, 7, 1, 2, 9, 9]);
        assert!(decompress(&data[..data.len() - 1]).is_err());
        // Input that ends early, and a run past the 4096th value.
        assert!(decompress(&[0xff, 0]).is_err());
        let overflow: Vec<u8> = [0xff, 0].repeat(33);
        assert!(decompress(&overflow).is_err());
        let (again, _) = decompress(&compress(&map.values))?;
        assert_eq!(again, map);
        Ok(())
    }

    #[test]
    fn edge_fix_copies_row_and_column_62() -> Result<()> {
        let mut bytes = vec![0u8; 2048];
        bytes[31] = 0xf0; // row 0, column 63
        bytes[2047] = 0x0f; // row 63, column 62
        let (fixed, _) = AlphaMap::decode(&bytes, AlphaFormat::Uncompressed4Bit, EdgeFix::Fix63)?;
        assert_eq!(fixed.get(63, 0), 0);
        assert_eq!(fixed.get(62, 63), 0);
        let (raw, _) = AlphaMap::decode(&bytes, AlphaFormat::Uncompressed4Bit, EdgeFix::None)?;
        assert_eq!((raw.get(63, 0), raw.get(62, 63)), (255, 255));
        Ok(())
    }

    #[test]
    fn shadow_bits_are_lsb_first() {
        let mut sh = Mcsh::empty();
        sh.set(3, 2, true);
        assert_eq!(sh.shadow_map[2], 8);
        assert!(sh.get(3, 2) && !sh.get(2, 3));
        assert_eq!(Mcsh::from_bits(&sh.bits()), sh);
    }
}
