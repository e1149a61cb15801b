//! Liquids as height grids in world space, with their exists-masks: MH2O
//! instances (WotLK and later) and MCLQ layers (the older liquid, which the
//! client still reads: both may be in one tile, stacked).
//!
//! An MH2O instance covers a rectangle of its chunk's 8 x 8 quads (`x_offset`,
//! `y_offset`, `width`, `height`, in the chunk's column and row directions, see
//! the [module](super) docs), with `(width + 1) * (height + 1)` vertices row by
//! row. Heights are absolute: the instance's heightmap where its vertex format
//! has one, otherwise `min_height_level` everywhere (the spec: "used as height
//! if no heightmap given"). A quad has liquid where the exists-bitmap says so
//! (all, without one).
//!
//! An MCLQ layer covers its whole chunk: 9 x 9 vertices (`SLVert`, row by
//! row as MCVT's outer ones) and 8 x 8 tiles. The MCNK header's liquid flags
//! (`lq_river`, `lq_ocean`, `lq_magma`, `lq_slime`, in that order) say what
//! each layer is, one flag per layer. Water, magma and slime vertices carry a
//! height; ocean vertices (`SOVert`: depth, foam, wet) do not, so an ocean
//! layer lies at the low end of its `CRange height`. A tile has no liquid
//! where its value has bit `0x08` set (the seed: "0x0f or 0x8 mean don't
//! render"; real files write `0x0f`). The flags become the `LiquidType` ids
//! MH2O gives the same liquids ([`MCLQ_LIQUID_TYPES`]), so one tile's two
//! sources group by liquid alike.

use super::coords::{ChunkCoord, TileCoord, UNIT_SIZE};
use crate::adt::Adt;
use crate::adt::mcnk::{MclqLayer, McnkChunk, flags};
use crate::adt::mh2o::LiquidInstance;

/// The MCNK liquid flags in the order of their MCLQ layers, with the
/// `LiquidType` id (`LiquidType.dbc`: 1 water, 2 ocean, 3 magma, 4 slime)
/// each becomes.
pub const MCLQ_LIQUID_TYPES: [(u32, u16); 4] = [
    (flags::LQ_RIVER, 1),
    (flags::LQ_OCEAN, 2),
    (flags::LQ_MAGMA, 3),
    (flags::LQ_SLIME, 4),
];

/// Where a [`LiquidGrid`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LiquidSource {
    /// An MH2O instance (`SMLiquidInstance`).
    Mh2o {
        /// `liquid_object_or_lvf`.
        liquid_object_or_lvf: u16,
    },
    /// An MCLQ layer.
    Mclq {
        /// The MCNK header's liquid flag this layer stands for (one of
        /// `lq_river`, `lq_ocean`, `lq_magma`, `lq_slime`), 0 for a layer
        /// beyond the flags set.
        flag: u32,
    },
}

/// One liquid instance in world space.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LiquidGrid {
    /// The chunk the instance belongs to.
    pub chunk: ChunkCoord,
    /// The grid's position in its chunk's list (of MH2O instances or of MCLQ
    /// layers, after [`source`](LiquidGrid::source)).
    pub layer: usize,
    /// `liquid_type` (`LiquidType` database id; for MCLQ, from the flag as
    /// [`MCLQ_LIQUID_TYPES`] gives it, 0 without one).
    pub liquid_type: u16,
    /// MH2O or MCLQ.
    pub source: LiquidSource,
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
            source: LiquidSource::Mh2o {
                liquid_object_or_lvf: instance.liquid_object_or_lvf,
            },
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

    /// The grid of MCLQ `layer`, the `index`-th of `chunk` in `tile`, which
    /// the MCNK header's liquid `flag` stands for (0 if none does).
    pub fn from_mclq(
        tile: TileCoord,
        chunk: ChunkCoord,
        index: usize,
        layer: &MclqLayer,
        flag: u32,
    ) -> LiquidGrid {
        let liquid_type = MCLQ_LIQUID_TYPES
            .iter()
            .find(|(f, _)| *f == flag)
            .map_or(0, |(_, id)| *id);
        let heights = if flag == flags::LQ_OCEAN {
            vec![f64::from(layer.height[0]); 81]
        } else {
            layer.verts.iter().map(|v| f64::from(v.height)).collect()
        };
        let exists = (0..8)
            .flat_map(|row| (0..8).map(move |col| (col, row)))
            .map(|(col, row)| {
                let tile = layer.tiles.get(row).and_then(|r| r.get(col));
                tile.is_some_and(|t| t & 0x08 == 0)
            })
            .collect();
        LiquidGrid {
            chunk,
            layer: index,
            liquid_type,
            source: LiquidSource::Mclq { flag },
            width: 8,
            height: 8,
            origin: chunk.north_west(tile),
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

    /// True if every height is a number (not NaN or infinite): a grid
    /// that is not has no place in a mesh ([`LiquidMesh`](super::LiquidMesh)
    /// leaves it out).
    pub fn is_finite(&self) -> bool {
        self.heights.iter().all(|h| h.is_finite()) && self.origin.iter().all(|c| c.is_finite())
    }

    /// True if quad (`col`, `row`) has liquid.
    pub fn exists(&self, col: usize, row: usize) -> bool {
        col < self.width
            && row < self.height
            && self.exists.get(row * self.width + col) == Some(&true)
    }
}

/// Every liquid of `adt` (which is tile `tile`): its MH2O instances chunk
/// by chunk, then its MCLQ layers chunk by chunk.
pub fn liquids(adt: &Adt, tile: TileCoord) -> Vec<LiquidGrid> {
    let mut grids = mh2o_liquids(adt, tile);
    grids.extend(mclq_liquids(adt, tile));
    grids
}

/// The MCLQ layers of `adt`'s MCNKs, each with the liquid flag it stands
/// for (the `n`-th layer, the `n`-th flag set), in the chunk the MCNK's
/// indices give (as its terrain's, [`ChunkTerrain`](super::ChunkTerrain)).
fn mclq_liquids(adt: &Adt, tile: TileCoord) -> Vec<LiquidGrid> {
    let mut grids = Vec::new();
    for mcnk in adt.mcnks() {
        let Some(coord) = ChunkCoord::new(mcnk.index_x, mcnk.index_y) else {
            continue;
        };
        let mut set = MCLQ_LIQUID_TYPES
            .iter()
            .map(|(flag, _)| *flag)
            .filter(|flag| mcnk.flags & flag != 0);
        let layers = mcnk.chunks.iter().flat_map(|chunk| match chunk {
            McnkChunk::Mclq(mclq) => &mclq.layers[..],
            _ => &[],
        });
        for (index, layer) in layers.enumerate() {
            let flag = set.next().unwrap_or(0);
            grids.push(LiquidGrid::from_mclq(tile, coord, index, layer, flag));
        }
    }
    grids
}

/// The MH2O instances of `adt`, chunk by chunk.
fn mh2o_liquids(adt: &Adt, tile: TileCoord) -> Vec<LiquidGrid> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adt::mcnk::SLVert;

    fn layer(tiles: [u8; 4]) -> MclqLayer {
        let mut rows = vec![[0x0f; 8]; 8];
        rows[0][..4].copy_from_slice(&tiles);
        MclqLayer {
            height: [-5.0, 7.0],
            verts: (0..81)
                .map(|i| SLVert {
                    data: [0; 4],
                    height: i as f32 / 10.0,
                })
                .collect(),
            tiles: rows,
            ..Default::default()
        }
    }

    #[test]
    fn mclq_tiles_with_bit_8_are_dry_and_oceans_lie_at_the_low_end() {
        let (tile, chunk) = (TileCoord::new(30, 27).unwrap(), ChunkCoord { x: 2, y: 3 });
        // Water, ocean (0x01 with flags 0x40 | 0x80, as real oceans), and
        // the seed's "0x0f or 0x8 mean don't render".
        let tiles = [0x04, 0xc1, 0x08, 0x0f];
        let river = LiquidGrid::from_mclq(tile, chunk, 0, &layer(tiles), flags::LQ_RIVER);
        assert_eq!((river.liquid_type, river.width, river.height), (1, 8, 8));
        assert_eq!(&river.exists[..4], [true, true, false, false]);
        assert!(river.exists[4..].iter().all(|e| !e));
        assert_eq!(river.position(0, 0).unwrap()[..2], chunk.north_west(tile));
        assert_eq!(river.position(2, 1).unwrap()[2], f64::from(11.0f32 / 10.0));
        let ocean = LiquidGrid::from_mclq(tile, chunk, 1, &layer(tiles), flags::LQ_OCEAN);
        assert_eq!((ocean.liquid_type, ocean.layer), (2, 1));
        assert!(ocean.heights.iter().all(|h| *h == -5.0));
        let unflagged = LiquidGrid::from_mclq(tile, chunk, 4, &layer(tiles), 0);
        assert_eq!(unflagged.liquid_type, 0);
        assert_eq!(unflagged.source, LiquidSource::Mclq { flag: 0 });
    }
}
