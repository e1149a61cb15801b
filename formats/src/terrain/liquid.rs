//! MH2O liquid instances as height grids in world space, with their
//! exists-masks.
//!
//! An instance covers a rectangle of its chunk's 8 x 8 quads (`x_offset`,
//! `y_offset`, `width`, `height`, in the chunk's column and row directions, see
//! the [module](super) docs), with `(width + 1) * (height + 1)` vertices row by
//! row. Heights are absolute: the instance's heightmap where its vertex format
//! has one, otherwise `min_height_level` everywhere (the spec: "used as height
//! if no heightmap given"). A quad has liquid where the exists-bitmap says so
//! (all, without one).

use super::coords::{ChunkCoord, TileCoord, UNIT_SIZE};
use crate::adt::Adt;
use crate::adt::mh2o::LiquidInstance;

/// One liquid instance in world space.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LiquidGrid {
    /// The chunk the instance belongs to.
    pub chunk: ChunkCoord,
    /// The instance's position in its chunk's list.
    pub layer: usize,
    /// `liquid_type` (`LiquidType` database id).
    pub liquid_type: u16,
    /// `liquid_object_or_lvf`.
    pub liquid_object_or_lvf: u16,
    /// Quads across (east): the instance's width.
    pub width: usize,
    /// Quads down (south): the instance's height.
    pub height: usize,
    /// World X, Y of vertex (0, 0), the rectangle's north-west corner.
    pub origin: [f64; 2],
    /// Absolute heights, `(width + 1) * (height + 1)`, row by row.
    pub heights: Vec<f64>,
    /// Whether each quad has liquid, `width * height`, row by row.
    pub exists: Vec<bool>,
}

impl LiquidGrid {
    /// The grid of `instance`, the `layer`-th of `chunk` in `tile`.
    pub fn new(
        tile: TileCoord,
        chunk: ChunkCoord,
        layer: usize,
        instance: &LiquidInstance,
    ) -> LiquidGrid {
        let (width, height) = instance.dimensions();
        // Offsets only count for a vertex format (≤ 41); a LiquidObject id
        // covers the whole chunk.
        let (x_offset, y_offset) = if instance.liquid_object_or_lvf <= 41 {
            (instance.x_offset, instance.y_offset)
        } else {
            (0, 0)
        };
        let [north, west] = chunk.north_west(tile);
        let count = (width + 1) * (height + 1);
        let level = f64::from(instance.min_height_level);
        let heights = match instance.vertex_data.as_ref().and_then(|d| d.heightmap()) {
            Some(heightmap) if heightmap.len() == count => {
                heightmap.iter().map(|h| f64::from(*h)).collect()
            }
            _ => vec![level; count],
        };
        let exists = (0..height)
            .flat_map(|row| (0..width).map(move |col| (col, row)))
            .map(|(col, row)| instance.exists(col, row))
            .collect();
        LiquidGrid {
            chunk,
            layer,
            liquid_type: instance.liquid_type,
            liquid_object_or_lvf: instance.liquid_object_or_lvf,
            width,
            height,
            origin: [
                north - f64::from(y_offset) * UNIT_SIZE,
                west - f64::from(x_offset) * UNIT_SIZE,
            ],
            heights,
            exists,
        }
    }

    /// The world position of vertex (`col`, `row`), both up to the size.
    pub fn position(&self, col: usize, row: usize) -> Option<[f64; 3]> {
        if col > self.width || row > self.height {
            return None;
        }
        let h = *self.heights.get(row * (self.width + 1) + col)?;
        Some([
            self.origin[0] - row as f64 * UNIT_SIZE,
            self.origin[1] - col as f64 * UNIT_SIZE,
            h,
        ])
    }

    /// True if quad (`col`, `row`) has liquid.
    pub fn exists(&self, col: usize, row: usize) -> bool {
        col < self.width
            && row < self.height
            && self.exists.get(row * self.width + col) == Some(&true)
    }
}

/// Every MH2O instance of `adt` (which is tile `tile`), chunk by chunk.
pub fn liquids(adt: &Adt, tile: TileCoord) -> Vec<LiquidGrid> {
    let Some(mh2o) = adt.mh2o() else {
        return Vec::new();
    };
    mh2o.chunks
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((ChunkCoord::from_index(i)?, c)))
        .flat_map(|(coord, c)| {
            c.instances
                .iter()
                .enumerate()
                .map(move |(layer, instance)| LiquidGrid::new(tile, coord, layer, instance))
        })
        .collect()
}
