//! A tile's height field ([`heightmap`]) and texture-layer alpha maps
//! ([`alpha_maps`]) as images.

use format_core::Error;

use super::{Color, Image};
use crate::adt::Adt;
use crate::adt::alpha::{BIG_ALPHA_FLAGS, MAP_SIZE};
use crate::adt::mcnk::layer_flags;

/// Map chunks per tile side.
const CHUNKS: usize = 16;
/// Outer MCVT vertices per chunk side (9), sharing the edges with neighbours.
const OUTER: usize = 9;
/// MCVT values per row pair: 9 outer, then 8 inner.
const ROW_STRIDE: usize = 17;
/// The side of the tile's outer vertex grid: 16 * 8 + 1.
pub const HEIGHTMAP_SIZE: usize = CHUNKS * (OUTER - 1) + 1;

/// The tile's height field: the MCVT outer grid of all 256 map chunks, 129 by
/// 129, north-west at the top left (chunk `index_x` to the right, `index_y`
/// down), as 16-bit gray from the lowest (0) to the highest point (65535).
/// Heights are absolute (`MCNK.position[2]` plus MCVT). Points no chunk
/// covers are black. An error if no chunk has heights.
pub fn heightmap(adt: &Adt) -> Result<Image, Error> {
    let mut points = Vec::new();
    for mcnk in adt.mcnks() {
        let Some(mcvt) = mcnk.heights() else { continue };
        let (cx, cy) = (mcnk.index_x as usize, mcnk.index_y as usize);
        if cx >= CHUNKS || cy >= CHUNKS {
            continue;
        }
        for row in 0..OUTER {
            for col in 0..OUTER {
                if let Some(h) = mcvt.height.get(row * ROW_STRIDE + col) {
                    let (x, y) = (cx * (OUTER - 1) + col, cy * (OUTER - 1) + row);
                    points.push((x, y, mcnk.position[2] + h));
                }
            }
        }
    }
    let finite = points.iter().map(|p| p.2).filter(|h| h.is_finite());
    let (low, high) = finite.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), h| {
        (lo.min(h), hi.max(h))
    });
    if low > high {
        return Err(Error::invalid(0, "the tile has no MCVT heights to draw"));
    }
    let range = (high - low).max(f32::MIN_POSITIVE);
    let mut image = Image::new(HEIGHTMAP_SIZE, HEIGHTMAP_SIZE, Color::Gray16);
    for (x, y, h) in points {
        if h.is_finite() {
            let level = ((h - low) / range * 65535.0).round() as u16;
            image.set_gray16(x, y, level);
        }
    }
    Ok(image)
}

/// The tile's alpha maps, 1024 by 1024 (16 chunks of 64 by 64 values), one
/// texture layer per colour channel: red is each chunk's layer 1, green layer
/// 2, blue layer 3 (layer 0 has no alpha map). `mphd_flags` are the map's WDT
/// flags (the bit depth of uncompressed maps; [`guess_mphd_flags`] when the
/// WDT is not at hand).
pub fn alpha_maps(adt: &Adt, mphd_flags: u32) -> Result<Image, Error> {
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
