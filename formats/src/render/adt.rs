//! A tile's height field ([`heightmap`], full resolution, see
//! [`terrain::heightmap`](crate::terrain::heightmap)) and texture-layer alpha
//! maps ([`alpha_maps`], [`splat_image`]) as images, and heights as 32-bit
//! float TIFF ([`float_tiff`]) for engines that import them.

use super::{Color, Image, RenderError};
use crate::adt::Adt;
use crate::adt::alpha::{BIG_ALPHA_FLAGS, MAP_SIZE};
use crate::adt::mcnk::layer_flags;
use crate::terrain::{HeightRange, Heightmap, SPLAT_SIDE, Stitched, TerrainTile};

/// Map chunks per tile side.
const CHUNKS: usize = 16;

/// The tile's height field, 257 by 257 (every outer and inner MCVT vertex,
/// see [`Heightmap`]), north-west at the top left, as 16-bit gray from the
/// tile's lowest (0) to its highest point (65535), its edges its own. For
/// tiles that must match their neighbours, process them together: share
/// their seams ([`share_seams`](crate::terrain::share_seams)) and draw each
/// at one range ([`heightmap_image`]). An error if no chunk has heights.
pub fn heightmap(adt: &Adt) -> Result<Image, RenderError> {
    let map = Heightmap::from_tile(&TerrainTile::from_adt(adt)?);
    let range = map.range().ok_or(RenderError::NoHeights)?;
    Ok(heightmap_image(&map, range))
}

/// `heights` (`width` x `height`, row by row) as 16-bit gray levels of
/// `range`; NaN (no data) is black.
pub fn gray16(width: usize, height: usize, heights: &[f32], range: HeightRange) -> Image {
    let mut image = Image::new(width, height, Color::Gray16);
    for (pixel, h) in image.data.chunks_exact_mut(2).zip(heights) {
        pixel.copy_from_slice(&range.level(*h).to_be_bytes());
    }
    image
}

/// A tile's heightmap as 16-bit gray levels of `range`.
pub fn heightmap_image(map: &Heightmap, range: HeightRange) -> Image {
    gray16(map.side, map.side, &map.heights, range)
}

/// Stitched tiles as 16-bit gray levels of `range` (missing tiles black).
pub fn stitched_image(map: &Stitched, range: HeightRange) -> Image {
    gray16(map.width, map.height, &map.heights, range)
}

/// `heights` (`width` x `height`, row by row) as a one-channel 32-bit float
/// TIFF (absolute heights in yards, NaN where there is no data), the form
/// Blender, Unity, Unreal and GIS tools read float heightmaps in.
pub fn float_tiff(width: usize, height: usize, heights: &[f32]) -> Result<Vec<u8>, RenderError> {
    let too_big = |_| RenderError::TooLarge {
        format: "TIFF",
        width,
        height,
    };
    let (w, h) = (
        u32::try_from(width).map_err(too_big)?,
        u32::try_from(height).map_err(too_big)?,
    );
    let fewer = || RenderError::FewerHeights {
        heights: heights.len(),
        pixels: width.saturating_mul(height),
    };
    let pixels = width
        .checked_mul(height)
        .and_then(|n| heights.get(..n))
        .ok_or_else(fewer)?;
    let mut out = std::io::Cursor::new(Vec::new());
    tiff::encoder::TiffEncoder::new(&mut out)
        .and_then(|mut encoder| {
            encoder.write_image::<tiff::encoder::colortype::Gray32Float>(w, h, pixels)
        })
        .map_err(RenderError::Tiff)?;
    Ok(out.into_inner())
}

/// One splat map ([`TileSplat`](crate::terrain::TileSplat)) as 8-bit gray,
/// 1024 by 1024.
pub fn splat_image(values: &[u8]) -> Image {
    let mut image = Image::new(SPLAT_SIDE, SPLAT_SIDE, Color::Gray8);
    for (pixel, v) in image.data.iter_mut().zip(values) {
        *pixel = *v;
    }
    image
}

/// The tile's alpha maps, 1024 by 1024 (16 chunks of 64 by 64 values), one
/// texture layer per colour channel: red is each chunk's layer 1, green layer
/// 2, blue layer 3 (layer 0 has no alpha map). `mphd_flags` are the map's WDT
/// flags (the bit depth of uncompressed maps; [`guess_mphd_flags`] when the
/// WDT is not at hand).
pub fn alpha_maps(adt: &Adt, mphd_flags: u32) -> Result<Image, RenderError> {
    let side = CHUNKS * MAP_SIZE;
    let mut image = Image::new(side, side, Color::Rgb8);
    for (index, mcnk) in adt.mcnks().enumerate() {
        let (cx, cy) = (mcnk.index_x as usize, mcnk.index_y as usize);
        if cx >= CHUNKS || cy >= CHUNKS {
            continue;
        }
        let maps = mcnk
            .alpha_maps(mphd_flags)
            .map_err(|e| e.in_field("MCAL").at_index(index))?;
        for (layer, map) in maps {
            let Some(channel) = layer.checked_sub(1).filter(|c| *c < 3) else {
                continue;
            };
            for y in 0..MAP_SIZE {
                for x in 0..MAP_SIZE {
                    let value = map.get(x, y);
                    image.set_channel(cx * MAP_SIZE + x, cy * MAP_SIZE + y, channel, value);
                }
            }
        }
    }
    Ok(image)
}

/// The WDT `MPHD` flags a tile's alpha maps were written for, guessed from
/// the tile alone: a compressed layer, or an MCAL with 4096 bytes per layer,
/// means 8-bit maps ([`BIG_ALPHA_FLAGS`]); 2048 bytes per layer means 4-bit (0).
/// The first chunk with alpha layers decides.
pub fn guess_mphd_flags(adt: &Adt) -> u32 {
    for mcnk in adt.mcnks() {
        let layers = mcnk
            .layers()
            .map(|l| l.layers.as_slice())
            .unwrap_or_default();
        let alpha: Vec<_> = layers
            .iter()
            .filter(|l| l.flags & layer_flags::USE_ALPHA_MAP != 0)
            .collect();
        if alpha.is_empty() {
            continue;
        }
        if alpha
            .iter()
            .any(|l| l.flags & layer_flags::ALPHA_MAP_COMPRESSED != 0)
        {
            return BIG_ALPHA_FLAGS;
        }
        let size = mcnk.alpha().map_or(0, |m| m.data.len());
        return if size >= alpha.len() * MAP_SIZE * MAP_SIZE {
            BIG_ALPHA_FLAGS
        } else {
            0
        };
    }
    0
}
