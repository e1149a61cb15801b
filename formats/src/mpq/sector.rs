//! An entry's bytes: found through its block, decrypted with its key, its
//! sectors decompressed. Every size is checked against the bytes there are
//! before anything is allocated, and no sector grows past the size its
//! entry gives it.

use std::borrow::Cow;
use std::io::Read;

use super::crypt::decrypt;
use super::error::EntryError;
use super::table::{BlockEntry, flags};

/// The compression byte's bits, in the order the stages are undone.
const BZIP2: u8 = 0x10;
const IMPLODE: u8 = 0x08;
const ZLIB: u8 = 0x02;
/// Bits this reader does not decode, by name.
const UNSUPPORTED: [(u8, &str); 4] = [
    (0x01, "Huffman"),
    (0x40, "ADPCM mono"),
    (0x80, "ADPCM stereo"),
    (0x20, "sparse"),
];
/// The one byte value that is LZMA, not a combination of bits.
const LZMA: u8 = 0x12;

/// Where an entry's bytes are, and what undoes how they are stored.
pub(crate) struct Stored<'a> {
    /// The file's bytes from the entry's start to the end of the file.
    pub(crate) data: &'a [u8],
    /// Where `data` starts in the file.
    pub(crate) offset: u64,
    /// The size of the whole file (for messages).
    pub(crate) file_len: usize,
    /// The entry's block.
    pub(crate) block: BlockEntry,
    /// Its key, if it is encrypted.
    pub(crate) key: Option<u32>,
    /// The archive's sector size.
    pub(crate) sector_size: u32,
}

impl Stored<'_> {
    fn out_of_bounds(&self, what: String, start: u64, needed: u64) -> EntryError {
        EntryError::OutOfBounds {
            what,
            offset: self.offset + start,
            needed,
            len: self.file_len,
        }
    }

    /// `len` bytes from `start` of the entry, in bounds.
    fn bytes(
        &self,
        what: impl FnOnce() -> String,
        start: u32,
        len: u32,
    ) -> Result<&[u8], EntryError> {
        let (start, len) = (start as usize, len as usize);
        self.data
            .get(start..)
            .and_then(|rest| rest.get(..len))
            .ok_or_else(|| self.out_of_bounds(what(), start as u64, len as u64))
    }

    /// Reads the whole entry.
    pub(crate) fn read(&self) -> Result<Vec<u8>, EntryError> {
        let block = &self.block;
        let size = block.file_size as usize;
        if block.has(flags::SINGLE_UNIT)
            || (!self.compressed() && size <= self.sector_size as usize)
        {
            let stored = self.bytes(|| "its data".into(), 0, block.compressed_size)?;
            let mut out = Vec::new();
            self.sector(0, stored, size, &mut out)?;
            return Ok(out);
        }
        let count = size.div_ceil(self.sector_size as usize);
        let bounds = self.sector_bounds(count)?;
        // Reserved for what the stored bytes can hold (a damaged entry may
        // claim 4 GiB); past that the output grows only as sectors read.
        let mut out = Vec::with_capacity(
            size.min(self.block.compressed_size as usize)
                .min(self.data.len()),
        );
        for (i, (&start, &end)) in bounds.iter().zip(bounds.iter().skip(1)).enumerate() {
            let expected = (size - i * self.sector_size as usize).min(self.sector_size as usize);
            let stored = self.bytes(|| format!("sector {i}"), start, end - start)?;
            self.sector(i, stored, expected, &mut out)?;
        }
        Ok(out)
    }

    fn compressed(&self) -> bool {
        self.block.flags & (flags::COMPRESS | flags::IMPLODE) != 0
    }

    /// The start of each sector and the end of the last, from the entry's start.
    fn sector_bounds(&self, count: usize) -> Result<Vec<u32>, EntryError> {
        let stored = self.block.compressed_size;
        if !self.compressed() {
            // Sectors one after another, each full but the last.
            let needed = self.block.file_size;
            self.bytes(|| "its data".into(), 0, needed)?;
            return Ok((0..=count)
                .map(|i| (i as u64 * self.sector_size as u64).min(needed as u64) as u32)
                .collect());
        }
        let words = count + 1;
        let len = u32::try_from(words * 4)
            .map_err(|_| self.out_of_bounds("its sector table".into(), 0, words as u64 * 4))?;
        let mut table = self.bytes(|| "its sector table".into(), 0, len)?.to_vec();
        if let Some(key) = self.key {
            decrypt(&mut table, key.wrapping_sub(1));
        }
        let bounds: Vec<u32> = table
            .as_chunks::<4>()
            .0
            .iter()
            .map(|w| u32::from_le_bytes(*w))
            .collect();
        for (sector, (&start, &end)) in bounds.iter().zip(bounds.iter().skip(1)).enumerate() {
            if start > end || end > stored {
                return Err(EntryError::SectorTable {
                    sector,
                    start,
                    end,
                    size: stored,
                });
            }
        }
        Ok(bounds)
    }

    /// One sector (or a single unit), appended to `out`: decrypted (a copy
    /// only when it is encrypted), then decompressed if it is smaller than
    /// `expected`.
    fn sector(
        &self,
        index: usize,
        stored: &[u8],
        expected: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), EntryError> {
        let bytes: Cow<'_, [u8]> = match self.key {
            Some(key) => {
                let mut plain = stored.to_vec();
                decrypt(&mut plain, key.wrapping_add(index as u32));
                Cow::Owned(plain)
            }
            None => Cow::Borrowed(stored),
        };
        let mismatch = |got| EntryError::SectorSizeMismatch {
            sector: index,
            expected,
            got,
        };
        if bytes.len() >= expected || !self.compressed() {
            // Stored as it is (a sector that would not shrink); bytes past
            // the entry's size are not the entry's.
            let kept = bytes.get(..expected).ok_or_else(|| mismatch(bytes.len()))?;
            out.extend_from_slice(kept);
            return Ok(());
        }
        let unpacked = if self.block.has(flags::IMPLODE) {
            explode(index, &bytes, expected)?
        } else {
            decompress(index, &bytes, expected)?
        };
        if unpacked.len() != expected {
            return Err(mismatch(unpacked.len()));
        }
        if out.is_empty() {
            *out = unpacked;
        } else {
            out.extend_from_slice(&unpacked);
        }
        Ok(())
    }
}

/// A decompression stage: a sector's number, its input, the sector's size.
type Stage = fn(usize, &[u8], usize) -> Result<Vec<u8>, EntryError>;

/// A sector led by its compression byte, each stage undone in turn, none
/// allowed past `expected` bytes.
fn decompress(sector: usize, bytes: &[u8], expected: usize) -> Result<Vec<u8>, EntryError> {
    let Some((&mask, data)) = bytes.split_first() else {
        return Ok(Vec::new());
    };
    let unsupported = |name| EntryError::UnsupportedCompression { sector, mask, name };
    if mask == LZMA {
        return Err(unsupported("LZMA"));
    }
    if let Some((_, name)) = UNSUPPORTED.iter().find(|(bit, _)| mask & bit != 0) {
        return Err(unsupported(name));
    }
    if mask & !(BZIP2 | IMPLODE | ZLIB) != 0 {
        return Err(unsupported("unknown"));
    }
    // Each stage's output is the next one's input; the last one's is the
    // sector (no copy of it).
    let mut unpacked: Option<Vec<u8>> = None;
    let stages: [(u8, Stage); 3] = [(BZIP2, bunzip), (IMPLODE, explode), (ZLIB, inflate)];
    for (bit, stage) in stages {
        if mask & bit != 0 {
            let input = unpacked.as_deref().unwrap_or(data);
            unpacked = Some(stage(sector, input, expected)?);
        }
    }
    Ok(unpacked.unwrap_or_else(|| data.to_vec()))
}

/// A zlib stream, inflated to at most `expected` bytes. A stream whose
/// Adler-32 checksum does not match what it inflates to is taken as it
/// inflates, as the game's Storm library takes it (it does not look at the
/// checksum; a public map's `(listfile)` has one that does not match).
fn inflate(sector: usize, data: &[u8], expected: usize) -> Result<Vec<u8>, EntryError> {
    use miniz_oxide::inflate::{TINFLStatus, decompress_to_vec_zlib_with_limit};
    match decompress_to_vec_zlib_with_limit(data, expected) {
        Ok(out) => Ok(out),
        Err(e) if e.status == TINFLStatus::Adler32Mismatch => Ok(e.output),
        Err(mut source) => {
            // What it inflated before failing is not kept in the error.
            source.output = Vec::new();
            Err(EntryError::Zlib { sector, source })
        }
    }
}

/// A bzip2 stream, decompressed to at most `expected + 1` bytes (one past
/// tells a sector that grows too far); the output grows as it comes, never
/// reserved from the size an entry claims.
fn bunzip(sector: usize, data: &[u8], expected: usize) -> Result<Vec<u8>, EntryError> {
    let mut out = Vec::with_capacity(expected.min(data.len().saturating_mul(8)));
    bzip2::read::BzDecoder::new(data)
        .take(expected as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|source| EntryError::Bzip2 { sector, source })?;
    Ok(out)
}

fn explode(sector: usize, data: &[u8], expected: usize) -> Result<Vec<u8>, EntryError> {
    let mut out = Vec::with_capacity(expected.min(data.len().saturating_mul(8)));
    explode::ExplodeReader::new(data)
        .take(expected as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| EntryError::Implode {
            sector,
            source: explode::Error::IO(e),
        })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bzip2_of(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn each_codec_undoes() {
        let text = b"war3map.j war3map.j war3map.j war3map.j war3map.j war3map.j".repeat(8);
        let mut sector = vec![BZIP2];
        sector.extend(bzip2_of(&text));
        assert_eq!(decompress(0, &sector, text.len()).unwrap(), text);
        let mut sector = vec![ZLIB];
        sector.extend(miniz_oxide::deflate::compress_to_vec_zlib(&text, 6));
        assert_eq!(decompress(0, &sector, text.len()).unwrap(), text);
        // bzip2 and zlib together would be 0x12, which is LZMA.
        assert_eq!(BZIP2 | ZLIB, LZMA);
        // PKWARE DCL: the example stream of zlib's blast.c.
        let imploded = [0x00, 0x04, 0x82, 0x24, 0x25, 0x8f, 0x80, 0x7f];
        let mut sector = vec![IMPLODE];
        sector.extend(imploded);
        assert_eq!(decompress(0, &sector, 13).unwrap(), b"AIAIAIAIAIAIA");
    }

    #[test]
    fn no_stage_grows_past_the_sector() {
        let zeros = vec![0u8; 1 << 16];
        let mut sector = vec![BZIP2];
        sector.extend(bzip2_of(&zeros));
        // One byte past the size tells the sector grew too far.
        assert_eq!(decompress(0, &sector, 512).unwrap().len(), 513);
        let mut sector = vec![ZLIB];
        sector.extend(miniz_oxide::deflate::compress_to_vec_zlib(&zeros, 6));
        assert!(matches!(
            decompress(0, &sector, 512),
            Err(EntryError::Zlib { .. })
        ));
    }

    #[test]
    fn unsupported_compressions_are_named() {
        for (mask, name) in [
            (0x12, "LZMA"),
            (0x41, "Huffman"),
            (0x40, "ADPCM mono"),
            (0x04, "unknown"),
        ] {
            match decompress(3, &[mask, 1, 2, 3], 100) {
                Err(EntryError::UnsupportedCompression {
                    sector: 3,
                    mask: m,
                    name: n,
                }) => {
                    assert_eq!((m, n), (mask, name));
                }
                other => panic!("{mask:#x}: {other:?}"),
            }
        }
    }
}
