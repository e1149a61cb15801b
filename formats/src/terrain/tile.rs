//! A tile's terrain in world space: per chunk its height grid, unit normals,
//! vertex colours and holes, and the tile it belongs to, found from the MCNK
//! positions.
//!
//! This is the one place that reads MCNK headers and their MCVT, MCNR and
//! MCCV sub-chunks for the terrain module; it takes their values through
//! slices, whatever container the ADT types keep them in.

use super::TerrainError;

use super::coords::{CHUNK_SIZE, CHUNKS, ChunkCoord, TileCoord, WorldRect};
use super::grid::{ChunkGrid, EDGE_TOLERANCE, Holes, QUADS, VERTICES};
use crate::adt::Adt;
use crate::adt::mcnk::{MccvEntry, Mcnk, McnkChunk, flags as mcnk_flags};

/// The terrain of one map chunk.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChunkTerrain {
    /// `IndexX`, `IndexY`.
    pub coord: ChunkCoord,
    /// MCNK `flags`.
    pub flags: u32,
    /// `areaid`.
    pub area_id: u32,
    /// The heights (`None` without a 145-value MCVT, or where a height or
    /// the position is NaN or infinite: see [`ChunkGrid::new`]).
    pub grid: Option<ChunkGrid>,
    /// MCNR as world-space unit normals (X north, Y west, Z up), one per MCVT
    /// vertex (`None` without a 145-entry MCNR).
    pub normals: Option<Vec<[f32; 3]>>,
    /// MCCV as `[red, green, blue, alpha]` bytes, 0x7F meaning 1.0 (`None`
    /// without a 145-entry MCCV).
    pub colors: Option<Vec<[u8; 4]>>,
    /// The hole map the header's `high_res_holes` flag selects.
    pub holes: Holes,
}

/// MCNR values are `int8` with 127 meaning 1.0. They are stored in world
/// order X, Y, Z (the spec's "X, Z, Y" does not match the data: the test
/// `adt_terrain` compares them with the slopes of the height grid); the
/// vector is normalized here, since 127 steps are not exactly unit length.
pub fn unit_normal(entry: [i8; 3]) -> [f32; 3] {
    let v = entry.map(|c| f32::from(c) / 127.0);
    let length = v.iter().map(|c| c * c).sum::<f32>().sqrt();
    if length > 0.0 {
        v.map(|c| c / length)
    } else {
        [0.0, 0.0, 1.0]
    }
}

impl ChunkTerrain {
    /// The terrain of `mcnk`.
    pub fn from_mcnk(mcnk: &Mcnk) -> ChunkTerrain {
        let mut normals = None;
        let mut colors = None;
        for chunk in &mcnk.chunks {
            match chunk {
                McnkChunk::Mcnr(m) if normals.is_none() => {
                    normals = normals_of(&m.entries[..]);
                }
                McnkChunk::Mccv(m) if colors.is_none() => colors = colors_of(&m.entries[..]),
                _ => {}
            }
        }
        let holes = match mcnk.holes_high_res {
            Some(bits) if mcnk.flags & mcnk_flags::HIGH_RES_HOLES != 0 => Holes::HighRes(bits),
            _ => Holes::LowRes(mcnk.holes_low_res),
        };
        ChunkTerrain {
            coord: ChunkCoord {
                x: mcnk.index_x,
                y: mcnk.index_y,
            },
            flags: mcnk.flags,
            area_id: mcnk.areaid,
            grid: mcnk
                .heights()
                .and_then(|m| ChunkGrid::new(mcnk.position, &m.height[..])),
            normals,
            colors,
            holes,
        }
    }

    /// True if quad (`col`, `row`) is a hole.
    pub fn is_hole(&self, col: usize, row: usize) -> bool {
        self.holes.is_hole(col, row)
    }
}

fn normals_of(entries: &[[i8; 3]]) -> Option<Vec<[f32; 3]>> {
    (entries.len() == VERTICES).then(|| entries.iter().copied().map(unit_normal).collect())
}

fn colors_of(entries: &[MccvEntry]) -> Option<Vec<[u8; 4]>> {
    (entries.len() == VERTICES).then(|| {
        entries
            .iter()
            .map(|e| [e.red, e.green, e.blue, e.alpha])
            .collect()
    })
}

/// A tile's terrain: where it is on the map and its chunks.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TerrainTile {
    /// The tile, from the first MCNK's position and indices.
    pub coord: TileCoord,
    /// The chunks, in file order.
    pub chunks: Vec<ChunkTerrain>,
}

impl TerrainTile {
    /// The terrain of `adt`. Which tile it is comes from the first MCNK: its
    /// position less its indices times the chunk size. An error if there is
    /// no MCNK, or its position is off the map.
    pub fn from_adt(adt: &Adt) -> Result<TerrainTile, TerrainError> {
        let first = adt.mcnks().next().ok_or(TerrainError::NoChunks)?;
        let half = CHUNK_SIZE / 2.0;
        let [x, y] = [first.position[0], first.position[1]].map(f64::from);
        // The centre of the tile's chunk (0, 0): inside it whatever the rounding.
        let centre_x = x + f64::from(first.index_y) * CHUNK_SIZE - half;
        let centre_y = y + f64::from(first.index_x) * CHUNK_SIZE - half;
        let coord = TileCoord::at(centre_x, centre_y).ok_or(TerrainError::OffMap { x, y })?;
        Ok(TerrainTile {
            coord,
            chunks: adt.mcnks().map(ChunkTerrain::from_mcnk).collect(),
        })
    }

    /// The tile's world rectangle.
    pub fn bounds(&self) -> WorldRect {
        self.coord.bounds()
    }

    /// The chunk at `coord`.
    pub fn chunk(&self, coord: ChunkCoord) -> Option<&ChunkTerrain> {
        self.chunks.iter().find(|c| c.coord == coord)
    }

    /// The chunks whose `MCNK.position` is not their indices' corner of this
    /// tile (by more than [`EDGE_TOLERANCE`]); empty for a consistent tile.
    pub fn misplaced_chunks(&self) -> Vec<ChunkCoord> {
        self.chunks
            .iter()
            .filter(|c| self.is_misplaced(c))
            .map(|c| c.coord)
            .collect()
    }

    /// True if `chunk` (one of [`chunks`](Self::chunks)) has heights and its
    /// `MCNK.position` is more than [`EDGE_TOLERANCE`] from its indices'
    /// corner of this tile.
    pub fn is_misplaced(&self, chunk: &ChunkTerrain) -> bool {
        let Some(grid) = &chunk.grid else {
            return false;
        };
        let [x, y] = chunk.coord.north_west(self.coord);
        (grid.origin[0] - x).abs() > EDGE_TOLERANCE || (grid.origin[1] - y).abs() > EDGE_TOLERANCE
    }

    /// The chunk of this tile holding world (`x`, `y`), its south and east
    /// edges included (`None` outside the tile). A point up to
    /// [`EDGE_TOLERANCE`] north or west of a chunk's edge counts as in that
    /// chunk, so a chunk's own vertices, placed from its `f32` position,
    /// find it.
    pub fn chunk_at(&self, x: f64, y: f64) -> Option<&ChunkTerrain> {
        let [north, west] = self.coord.north_west();
        let index = |d: f64| {
            let i = ((d + EDGE_TOLERANCE) / CHUNK_SIZE).floor();
            let n = f64::from(CHUNKS);
            (-EDGE_TOLERANCE..=CHUNK_SIZE * n + EDGE_TOLERANCE)
                .contains(&d)
                .then(|| i.clamp(0.0, n - 1.0) as u32)
        };
        self.chunk(ChunkCoord {
            x: index(west - y)?,
            y: index(north - x)?,
        })
    }

    /// The terrain height at world (`x`, `y`) on the triangles the client
    /// draws (`None` outside the tile or where the chunk has no heights).
    /// Holes are not looked at: see [`is_hole_at`](Self::is_hole_at).
    pub fn height_at(&self, x: f64, y: f64) -> Option<f64> {
        self.chunk_at(x, y)?.grid.as_ref()?.height_at(x, y)
    }

    /// True if world (`x`, `y`) is in a hole of the tile.
    pub fn is_hole_at(&self, x: f64, y: f64) -> bool {
        self.chunk_at(x, y).is_some_and(|c| {
            c.grid
                .as_ref()
                .and_then(|g| g.quad_at(x, y))
                .is_some_and(|(col, row)| c.is_hole(col, row))
        })
    }
}

/// Quads per tile side (16 chunks of 8).
pub const TILE_QUADS: usize = CHUNKS as usize * QUADS;
