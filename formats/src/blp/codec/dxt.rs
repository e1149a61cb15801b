//! DXT1/DXT3/DXT5 (BC1/BC2/BC3) levels: 4x4 blocks of 8 or 16 bytes, decoded
//! and encoded by `texpresso`; BC4 and BC5 blocks too (DDS textures), and
//! the walk over a level's blocks that any block decoder uses (DDS BC7).

use rayon::prelude::*;
use texpresso::{Algorithm, Format, Params};

use super::CodecError;

/// Which DXT block format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dxt {
    /// 8-byte blocks, colour with optional 1-bit alpha.
    Dxt1,
    /// 16-byte blocks, explicit 4-bit alpha.
    Dxt3,
    /// 16-byte blocks, interpolated alpha.
    Dxt5,
    /// BC4 (`ATI1`): 8-byte blocks of one channel, decoded as grey.
    Bc4,
    /// BC5 (`ATI2`): 16-byte blocks of two channels, decoded as red and
    /// green (blue 0, alpha 255).
    Bc5,
}

impl Dxt {
    fn format(self) -> Format {
        match self {
            Dxt::Dxt1 => Format::Bc1,
            Dxt::Dxt3 => Format::Bc2,
            Dxt::Dxt5 => Format::Bc3,
            Dxt::Bc4 => Format::Bc4,
            Dxt::Bc5 => Format::Bc5,
        }
    }
}

/// The byte size of a `width` x `height` level.
pub fn level_len(dxt: Dxt, width: u32, height: u32) -> usize {
    dxt.format()
        .compressed_size(width as usize, height as usize)
}

/// RGBA pixels of a DXT level; `opaque` sets every alpha to 255 (DXT1 with
/// alphaDepth 0: the 3-colour blocks' fourth colour is black, not transparent).
/// Bytes past the last block are ignored.
pub fn decode(
    level: &[u8],
    dxt: Dxt,
    width: u32,
    height: u32,
    opaque: bool,
) -> Result<Vec<u8>, CodecError> {
    let format = dxt.format();
    decode_blocks(level, format.block_size(), width, height, |bytes| {
        let mut pixels = format.decompress_block(bytes);
        if opaque {
            for px in &mut pixels {
                px[3] = 255;
            }
        }
        pixels
    })
}

/// RGBA pixels of a level of 4x4 blocks of `block` bytes, left to right and
/// top to bottom, each made into its 16 pixels (row by row) by
/// `decode_block`; the blocks at the right and bottom edges are cut to the
/// level. Bytes past the last block are ignored; fewer than every block is
/// an error.
pub fn decode_blocks(
    level: &[u8],
    block: usize,
    width: u32,
    height: u32,
    decode_block: impl Fn(&[u8]) -> [[u8; 4]; 16] + Sync,
) -> Result<Vec<u8>, CodecError> {
    let (w, h) = (width as usize, height as usize);
    let blocks_wide = w.div_ceil(4);
    let blocks = blocks_wide * h.div_ceil(4);
    let needed = blocks * block;
    if level.len() < needed {
        return Err(CodecError::BlocksShort {
            needed,
            blocks,
            block,
            len: level.len(),
        });
    }
    let row_bytes = w * 4;
    let mut out = vec![0u8; w * h * 4];
    // One row of blocks fills four rows of pixels (fewer at the bottom edge);
    // rows of blocks are independent, so large levels use every core.
    let decode_strip = |(blocks, rows): (&[u8], &mut [u8])| {
        decode_strip(blocks, block, rows, row_bytes, &decode_block);
    };
    if w * h >= PARALLEL_PIXELS {
        level
            .par_chunks_exact(blocks_wide * block)
            .zip(out.par_chunks_mut(4 * row_bytes))
            .for_each(decode_strip);
    } else {
        level
            .chunks_exact(blocks_wide * block)
            .zip(out.chunks_mut(4 * row_bytes))
            .for_each(decode_strip);
    }
    Ok(out)
}

/// Levels of at least this many pixels decode on every core (smaller ones
/// are done before the threads would start).
const PARALLEL_PIXELS: usize = 128 * 128;

/// One row of blocks into its (up to) four rows of pixels.
fn decode_strip(
    blocks: &[u8],
    block: usize,
    rows: &mut [u8],
    row_bytes: usize,
    decode_block: &impl Fn(&[u8]) -> [[u8; 4]; 16],
) {
    for (x, bytes) in blocks.chunks_exact(block).enumerate() {
        let pixels = decode_block(bytes);
        let pixels = pixels.as_flattened();
        let left = x * 16;
        let span = row_bytes.saturating_sub(left).min(16);
        for (y, row) in rows.chunks_exact_mut(row_bytes).enumerate() {
            if let (Some(dst), Some(src)) = (
                row.get_mut(left..left + span),
                pixels.get(y * 16..y * 16 + span),
            ) {
                dst.copy_from_slice(src);
            }
        }
    }
}

/// How a block's two colours are chosen (BC1 to BC3; BC4 and BC5 fit each
/// channel on its own either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Fit {
    /// Every ordering of the block's colours along their principal axis
    /// tried (squish's cluster fit): the better colours, about 25 us a
    /// block of 16 distinct colours (a release build; 7 s for a 2048 by
    /// 2048 image of noise on two cores), far less for smooth ones.
    #[default]
    Cluster,
    /// The ends of the colours' range along that axis (squish's range fit):
    /// coarser (about 5 dB less on noise), some 50 times faster.
    Range,
}

/// A DXT level of `rgba` (`width * height` pixels), [`Fit::Cluster`]. DXT1
/// makes pixels with alpha below 128 transparent (3-colour blocks).
pub fn encode(rgba: &[u8], dxt: Dxt, width: u32, height: u32) -> Vec<u8> {
    encode_with(rgba, dxt, width, height, Fit::Cluster)
}

/// [`encode`] with the colour fit `fit`.
pub fn encode_with(rgba: &[u8], dxt: Dxt, width: u32, height: u32, fit: Fit) -> Vec<u8> {
    let format = dxt.format();
    let (w, h) = (width as usize, height as usize);
    let mut out = vec![0; format.compressed_size(w, h)];
    let params = Params {
        algorithm: match fit {
            Fit::Cluster => Algorithm::ClusterFit,
            Fit::Range => Algorithm::RangeFit,
        },
        weigh_colour_by_alpha: dxt != Dxt::Dxt1,
        ..Params::default()
    };
    format.compress(rgba, w, h, params, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_partial_edges() {
        // 5x3 pixels: 2x1 blocks; encode then decode keeps a flat colour.
        let rgba: Vec<u8> = [200u8, 100, 50, 255].repeat(15);
        for dxt in [Dxt::Dxt1, Dxt::Dxt3, Dxt::Dxt5] {
            let level = encode(&rgba, dxt, 5, 3);
            assert_eq!(level.len(), level_len(dxt, 5, 3));
            let back = decode(&level, dxt, 5, 3, false).unwrap();
            assert_eq!(back.len(), rgba.len());
            for (a, b) in back.iter().zip(&rgba) {
                assert!(a.abs_diff(*b) <= 4, "{dxt:?}: {a} vs {b}");
            }
            assert!(decode(&level[1..], dxt, 5, 3, false).is_err());
        }
    }
}
