//! Full-resolution heightmaps: 257 x 257 samples per tile, every outer and
//! inner MCVT vertex at its place, and one height range for many tiles so
//! that neighbours match at their seams.
//!
//! Sample (`px`, `py`) is at `px / 2` quads east and `py / 2` quads south of
//! the tile's north-west corner (north up, west left): even-even samples are
//! outer vertices, odd-odd ones inner vertices, and the others the middles of
//! quad edges, where the client's triangles give the mean of the edge's two
//! outer vertices. The outermost rows and columns are the tile's edges, which
//! its neighbours share: stitched maps overlap tiles by one sample.
//!
//! # Seams
//!
//! Both tiles along an edge store its heights, each as its chunk's base
//! (`MCNK.position` Z) plus an MCVT value, so the two sums differ in the
//! last bit of the `f32` at some samples (5 to 7 of the 257 on each seam of
//! the corpus map `cataclysmctf`, up to 7.6e-6 yards); a 16-bit level drawn
//! from such a pair can round apart, and the float images do not tile.
//! Tiles processed together therefore share one value per sample by
//! construction: [`Seams`] keeps the edges of every tile of the set
//! ([`TileEdges`], about 4 KB a tile) and [`Seams::share`] gives each
//! tile's edge samples the value of the tile that **owns** them. The owner
//! is the south-eastmost tile of the set holding the sample that has a
//! height there: a tile's north and west edges (and its north-west corner)
//! are its own, its south and east edges its southern and eastern
//! neighbours', as [`TileCoord::at`] puts a point on an edge in the tile
//! whose north or west edge it is, and as a heightmap takes an edge between
//! two chunks from the southern or eastern one. Where the owner has no
//! height there (a chunk without MCVT) the next tile holding the sample
//! gives it. [`share_seams`] does this for heightmaps in memory;
//! [`Stitched`] applies the same rule, so an overview is the same whether
//! its tiles' seams were shared or not.
//!
//! A tile processed alone (`formats render TILE.adt --heightmap x.png`,
//! [`Heightmap::from_tile`], `formats export TILE.adt x.glb`) keeps its own
//! edge heights: they may differ from its neighbour's in the last bit.

use std::collections::HashMap;

use super::coords::{CHUNKS, TileCoord};
use super::grid::{ChunkGrid, QUADS};
use super::tile::TerrainTile;

/// Samples per tile side: 16 chunks · 8 quads · 2 + 1.
pub const HEIGHTMAP_SIDE: usize = CHUNKS as usize * QUADS * 2 + 1;
/// Samples per chunk side in a heightmap, not counting the shared edge.
const PER_CHUNK: usize = QUADS * 2;
/// Samples per tile side, not counting the shared edge.
const PER_TILE: usize = HEIGHTMAP_SIDE - 1;

/// Heights from one range mapped to 16 bits: `min` is 0, `max` is 65535.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HeightRange {
    /// The height drawn as 0.
    pub min: f32,
    /// The height drawn as 65535.
    pub max: f32,
}

/// Why `MIN:MAX` text is not a [`HeightRange`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeightRangeError {
    /// No `:` between the two heights.
    #[error("range {range:?}: expected MIN:MAX")]
    NoColon {
        /// The text.
        range: String,
    },
    /// A side is not a number.
    #[error("range {range:?}: {value:?} is not a number")]
    NotANumber {
        /// The text.
        range: String,
        /// The side.
        value: String,
    },
    /// A side is a number beyond what an `f32` height holds.
    #[error("range {range:?}: {value:?} is beyond what a height can be (±3.4028235e38)")]
    TooFar {
        /// The text.
        range: String,
        /// The side.
        value: String,
    },
    /// `MIN` is not below `MAX`.
    #[error("range {range:?}: MIN must be below MAX")]
    Empty {
        /// The text.
        range: String,
    },
}

impl HeightRange {
    /// The range spanning both.
    pub fn union(self, other: HeightRange) -> HeightRange {
        HeightRange {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The range from `MIN:MAX` text (`-100:250.5`).
    ///
    /// ```
    /// use formats::terrain::heightmap::{HeightRange, HeightRangeError};
    ///
    /// assert_eq!(HeightRange::parse("-100:250.5")?.max, 250.5);
    /// assert!(matches!(HeightRange::parse("5:5"), Err(HeightRangeError::Empty { .. })));
    /// # Ok::<(), HeightRangeError>(())
    /// ```
    pub fn parse(text: &str) -> Result<HeightRange, HeightRangeError> {
        let range = || text.to_owned();
        let (min, max) = text
            .split_once(':')
            .ok_or_else(|| HeightRangeError::NoColon { range: range() })?;
        let number = |s: &str| match s.trim().parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            // `1e40` parses as infinity: a number, but not a height.
            Ok(_) if s.trim().parse::<f64>().is_ok_and(f64::is_finite) => {
                Err(HeightRangeError::TooFar {
                    range: range(),
                    value: s.to_owned(),
                })
            }
            _ => Err(HeightRangeError::NotANumber {
                range: range(),
                value: s.to_owned(),
            }),
        };
        let (min, max) = (number(min)?, number(max)?);
        if min < max {
            Ok(HeightRange { min, max })
        } else {
            Err(HeightRangeError::Empty { range: range() })
        }
    }

    /// `height` as a 16-bit level: rounded, clamped to the range; 0 for NaN.
    pub fn level(self, height: f32) -> u16 {
        let span = f64::from(self.max) - f64::from(self.min);
        if !height.is_finite() || span <= 0.0 {
            return 0;
        }
        let t = (f64::from(height) - f64::from(self.min)) / span;
        (t.clamp(0.0, 1.0) * 65535.0).round() as u16
    }
}

/// A tile's heights, [`HEIGHTMAP_SIDE`] samples square, row by row from the
/// north-west; NaN where a chunk has no MCVT.
#[derive(Debug, Clone, PartialEq)]
pub struct Heightmap {
    /// Samples per side.
    pub side: usize,
    /// Absolute heights, `side * side`, row by row.
    pub heights: Vec<f32>,
}

/// The height of a chunk's sample (`col`, `row`), both 0..=16 (see the
/// [module](self) docs).
fn sample(grid: &ChunkGrid, col: usize, row: usize) -> Option<f64> {
    let (c, r) = (col / 2, row / 2);
    match (col % 2, row % 2) {
        (0, 0) => grid.outer(c, r),
        (1, 1) => grid.inner(c, r),
        (1, 0) => Some((grid.outer(c, r)? + grid.outer(c + 1, r)?) / 2.0),
        _ => Some((grid.outer(c, r)? + grid.outer(c, r + 1)?) / 2.0),
    }
}

impl Heightmap {
    /// The heightmap of `tile`. A sample on the edge between two chunks is
    /// the southern or eastern chunk's (the one whose north or west edge it
    /// is, as for [`TerrainTile::chunk_at`]), the tile's own south and east
    /// edges the last chunk's. The tile's edges are its own: for tiles
    /// processed together, [`Seams::share`] makes them its neighbours'.
    pub fn from_tile(tile: &TerrainTile) -> Heightmap {
        let side = HEIGHTMAP_SIDE;
        let mut heights = vec![f32::NAN; side * side];
        for chunk in &tile.chunks {
            let Some(grid) = &chunk.grid else { continue };
            let (cx, cy) = (chunk.coord.x as usize, chunk.coord.y as usize);
            if cx >= CHUNKS as usize || cy >= CHUNKS as usize {
                continue;
            }
            // Rows and columns 0..16 of the chunk, and 16 on the tile's edge.
            let last = |c: usize| {
                if c + 1 == CHUNKS as usize {
                    PER_CHUNK
                } else {
                    PER_CHUNK - 1
                }
            };
            for row in 0..=last(cy) {
                for col in 0..=last(cx) {
                    let at = (cy * PER_CHUNK + row) * side + cx * PER_CHUNK + col;
                    if let (Some(slot), Some(h)) = (heights.get_mut(at), sample(grid, col, row)) {
                        *slot = h as f32;
                    }
                }
            }
        }
        Heightmap { side, heights }
    }

    /// The sample at (`px`, `py`).
    pub fn get(&self, px: usize, py: usize) -> Option<f32> {
        if px >= self.side {
            return None;
        }
        self.heights.get(py * self.side + px).copied()
    }

    /// The lowest and highest height (`None` if there is none).
    pub fn range(&self) -> Option<HeightRange> {
        let mut finite = self.heights.iter().copied().filter(|h| h.is_finite());
        let first = finite.next()?;
        let (min, max) = finite.fold((first, first), |(lo, hi), h| (lo.min(h), hi.max(h)));
        Some(HeightRange { min, max })
    }

    /// Every sample as a 16-bit level of `range`, row by row.
    pub fn levels(&self, range: HeightRange) -> Vec<u16> {
        self.heights.iter().map(|h| range.level(*h)).collect()
    }

    /// Every `step`-th sample of every `step`-th row (`step` rounded up to a
    /// power of two, at most 256): a heightmap of side `256 / step + 1`,
    /// which [`Stitched::new`] takes as it takes a full one. An overview of
    /// many tiles needs only these ([`Stitched::thumbnail_step`]).
    pub fn thumbnail(&self, step: usize) -> Heightmap {
        let step = step.clamp(1, PER_TILE).next_power_of_two();
        let stride = (step / self.step()).max(1);
        let side = (self.side - 1) / stride + 1;
        let mut heights = Vec::with_capacity(side * side);
        for y in 0..side {
            for x in 0..side {
                heights.push(self.get(x * stride, y * stride).unwrap_or(f32::NAN));
            }
        }
        Heightmap { side, heights }
    }

    /// Tile heightmap samples per sample of this map: 1 for a full one, the
    /// step of a [`thumbnail`](Self::thumbnail).
    pub fn step(&self) -> usize {
        PER_TILE / self.side.saturating_sub(1).max(1)
    }
}

/// A tile's outermost samples (its edges, which its neighbours share): what
/// [`Seams`] keeps of each tile of a set, 4 · 257 floats instead of its
/// 257 x 257 heightmap.
#[derive(Debug, Clone, PartialEq)]
pub struct TileEdges {
    /// The tile.
    pub coord: TileCoord,
    /// Row 0, west to east.
    pub north: Vec<f32>,
    /// Row 256, west to east.
    pub south: Vec<f32>,
    /// Column 0, north to south.
    pub west: Vec<f32>,
    /// Column 256, north to south.
    pub east: Vec<f32>,
}

impl TileEdges {
    /// The edges of `map`, the heightmap of the tile at `coord` (`None`
    /// unless it has [`HEIGHTMAP_SIDE`] samples square: a thumbnail's edges
    /// are not every sample of the seam).
    pub fn new(coord: TileCoord, map: &Heightmap) -> Option<TileEdges> {
        if map.side != HEIGHTMAP_SIDE || map.heights.len() != HEIGHTMAP_SIDE * HEIGHTMAP_SIDE {
            return None;
        }
        let at = |px, py| map.get(px, py).unwrap_or(f32::NAN);
        let row = |py| (0..=PER_TILE).map(|px| at(px, py)).collect();
        let column = |px| (0..=PER_TILE).map(|py| at(px, py)).collect();
        Some(TileEdges {
            coord,
            north: row(0),
            south: row(PER_TILE),
            west: column(0),
            east: column(PER_TILE),
        })
    }

    /// Sample (`px`, `py`) of the tile's heightmap if it is on an edge.
    pub fn get(&self, px: usize, py: usize) -> Option<f32> {
        let value = if py == 0 {
            self.north.get(px)
        } else if py == PER_TILE {
            self.south.get(px)
        } else if px == 0 {
            self.west.get(py)
        } else if px == PER_TILE {
            self.east.get(py)
        } else {
            None
        };
        value.copied()
    }
}

/// The tiles holding a sample at `p` along one axis, as offsets from the
/// tile whose sample it is, south-eastmost first (see [`Seams`]).
fn holders(p: usize) -> &'static [i64] {
    match p {
        0 => &[0, -1],
        PER_TILE => &[1, 0],
        _ => &[0],
    }
}

/// The edges of a set of tiles processed together, by tile: what gives each
/// sample they share one value (see the [module](self) docs for which tile
/// owns it). Holds [`TileEdges`] only, so a whole map's fits in about 4 KB
/// a tile (16 MB for all 4096 tiles of a map); a tile given twice counts
/// as the last one given, as in [`Stitched`].
///
/// ```
/// use formats::terrain::{HEIGHTMAP_SIDE, Heightmap, Seams, TileCoord, TileEdges};
///
/// let n = HEIGHTMAP_SIDE;
/// let flat = |h: f32| Heightmap { side: n, heights: vec![h; n * n] };
/// let (west, east) = (TileCoord::new(3, 7).unwrap(), TileCoord::new(4, 7).unwrap());
/// // The two tiles' shared column differs in the last bit.
/// let mut a = flat(100.0);
/// let b = flat(f32::from_bits(100f32.to_bits() + 1));
/// let seams = Seams::new([TileEdges::new(west, &a).unwrap(), TileEdges::new(east, &b).unwrap()]);
/// // The east tile owns the column: the west one takes its values.
/// assert_eq!(seams.share(west, &mut a), n);
/// assert_eq!(a.get(n - 1, 5), b.get(0, 5));
/// assert_eq!(a.get(n - 2, 5), Some(100.0));
/// ```
#[derive(Debug, Clone, Default)]
pub struct Seams {
    tiles: HashMap<TileCoord, TileEdges>,
}

impl Seams {
    /// The set of tiles whose edges are `edges`.
    pub fn new(edges: impl IntoIterator<Item = TileEdges>) -> Seams {
        let mut seams = Seams::default();
        for tile in edges {
            seams.insert(tile);
        }
        seams
    }

    /// Adds a tile to the set (replacing one at the same place).
    pub fn insert(&mut self, edges: TileEdges) {
        self.tiles.insert(edges.coord, edges);
    }

    /// Tiles in the set.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// True if the set has no tile.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// The value sample (`px`, `py`) of the tile at `coord` takes, its own
    /// being `own`: the south-eastmost tile's of those holding it (the
    /// tile itself, and its neighbours in the set where the sample is on an
    /// edge) that has a height there; `own` if none has.
    pub fn sample(&self, coord: TileCoord, px: usize, py: usize, own: f32) -> f32 {
        if px > PER_TILE || py > PER_TILE {
            return own;
        }
        let last = PER_TILE as i64;
        for &dy in holders(py) {
            for &dx in holders(px) {
                let height = if (dx, dy) == (0, 0) {
                    Some(own)
                } else {
                    // The same place in the neighbour: its opposite edge.
                    let (nx, ny) = (px as i64 - dx * last, py as i64 - dy * last);
                    coord
                        .offset(dx, dy)
                        .and_then(|n| self.tiles.get(&n))
                        .and_then(|e| e.get(nx as usize, ny as usize))
                };
                if let Some(h) = height.filter(|h| h.is_finite()) {
                    return h;
                }
            }
        }
        own
    }

    /// Gives every edge sample of `map` (the full heightmap of the tile at
    /// `coord`) the value it shares with the set's tiles
    /// ([`sample`](Self::sample)); returns how many samples changed. Only
    /// edges change; a map that is not full resolution is left as it is.
    pub fn share(&self, coord: TileCoord, map: &mut Heightmap) -> usize {
        let side = HEIGHTMAP_SIDE;
        if map.side != side || map.heights.len() != side * side {
            return 0;
        }
        let mut changed = 0;
        let edge = (0..side).flat_map(|i| [(i, 0), (i, PER_TILE), (0, i), (PER_TILE, i)]);
        for (px, py) in edge {
            let Some(slot) = map.heights.get_mut(py * side + px) else {
                continue;
            };
            let shared = self.sample(coord, px, py, *slot);
            // Corners come up twice; count each change once.
            if shared.to_bits() != slot.to_bits() {
                *slot = shared;
                changed += 1;
            }
        }
        changed
    }
}

/// Gives the heightmaps of `tiles`, processed together, one value at every
/// sample they share ([`Seams`]); returns how many samples changed. Maps
/// that are not full resolution are left as they are.
pub fn share_seams(tiles: &mut [(TileCoord, Heightmap)]) -> usize {
    let seams = Seams::new(
        tiles
            .iter()
            .filter_map(|(coord, map)| TileEdges::new(*coord, map)),
    );
    tiles
        .iter_mut()
        .map(|(coord, map)| seams.share(*coord, map))
        .sum()
}

/// The range spanning every heightmap given (`None` if none has a height).
pub fn common_range<'a>(maps: impl IntoIterator<Item = &'a Heightmap>) -> Option<HeightRange> {
    maps.into_iter()
        .filter_map(Heightmap::range)
        .reduce(HeightRange::union)
}

/// Several tiles' heightmaps in one grid, every `step`-th sample: the tiles
/// from the north-westmost to the south-eastmost given, NaN where a tile is
/// missing. A sample two tiles hold (on a seam) is the south-eastmost one's
/// where it has a height, as [`Seams`] shares it.
#[derive(Debug, Clone, PartialEq)]
pub struct Stitched {
    /// The north-west tile of the grid.
    pub first: TileCoord,
    /// Samples across.
    pub width: usize,
    /// Samples down.
    pub height: usize,
    /// Heightmap samples per grid sample (a power of two up to 256).
    pub step: usize,
    /// `width * height` heights, row by row.
    pub heights: Vec<f32>,
}

impl Stitched {
    /// The tiles stitched, sampled every `step` (rounded up to a power of two,
    /// at most 256, and to the coarsest [thumbnail](Heightmap::thumbnail)
    /// given) so that neighbouring tiles share their edge sample. Tiles may
    /// come in any order; of a tile given twice the later is drawn.
    pub fn new(tiles: &[(TileCoord, &Heightmap)], step: usize) -> Option<Stitched> {
        // Row by row (stable: a tile given twice keeps its order), each tile
        // drawn over those before it where it has a height: so a seam's
        // sample is the south-eastmost tile's, the owner [`Seams`] gives it.
        let mut tiles = tiles.to_vec();
        tiles.sort_by_key(|(coord, _)| (coord.y, coord.x));
        let coarsest = tiles.iter().map(|(_, map)| map.step()).max().unwrap_or(1);
        let step = step.clamp(1, PER_TILE).next_power_of_two().max(coarsest);
        let min_x = tiles.iter().map(|(t, _)| t.x).min()?;
        let min_y = tiles.iter().map(|(t, _)| t.y).min()?;
        let max_x = tiles.iter().map(|(t, _)| t.x).max()?;
        let max_y = tiles.iter().map(|(t, _)| t.y).max()?;
        let per_tile = PER_TILE / step;
        let width = (max_x - min_x + 1) as usize * per_tile + 1;
        let height = (max_y - min_y + 1) as usize * per_tile + 1;
        let mut heights = vec![f32::NAN; width * height];
        for (tile, map) in &tiles {
            let (ox, oy) = (
                (tile.x - min_x) as usize * per_tile,
                (tile.y - min_y) as usize * per_tile,
            );
            let stride = step / map.step().max(1);
            for y in 0..=per_tile {
                for x in 0..=per_tile {
                    let (Some(h), Some(slot)) = (
                        map.get(x * stride, y * stride),
                        heights.get_mut((oy + y) * width + ox + x),
                    ) else {
                        continue;
                    };
                    if h.is_finite() {
                        *slot = h;
                    }
                }
            }
        }
        Some(Stitched {
            first: TileCoord { x: min_x, y: min_y },
            width,
            height,
            step,
            heights,
        })
    }

    /// The step that keeps the longer side of `tiles` within `max_side`
    /// samples (at least 1, at most 256).
    pub fn step_for(tiles: &[TileCoord], max_side: usize) -> usize {
        let span = |f: fn(&TileCoord) -> u32| {
            let lo = tiles.iter().map(f).min().unwrap_or(0);
            let hi = tiles.iter().map(f).max().unwrap_or(0);
            (hi - lo + 1) as usize
        };
        Self::step_across(span(|t| t.x).max(span(|t| t.y)), max_side)
    }

    /// The step for `tiles_across` tiles on the longer side.
    fn step_across(tiles_across: usize, max_side: usize) -> usize {
        let mut step = 1;
        while step < PER_TILE && tiles_across * PER_TILE / step + 1 > max_side {
            step *= 2;
        }
        step
    }

    /// The step of the [thumbnails](Heightmap::thumbnail) an overview of
    /// `tiles` tiles, at most `max_side` samples on its longer side, can be
    /// made from wherever the tiles lie: `tiles` tiles span at least
    /// `ceil(sqrt(tiles))` on one side, so [`step_for`](Self::step_for) gives
    /// this step or a multiple of it (both are powers of two). The
    /// thumbnails hold about `max_side²` samples in all, however many tiles.
    ///
    /// ```
    /// use formats::terrain::{Stitched, TileCoord};
    ///
    /// // 100 tiles in a row, or in a 10 x 10 square: the overview's step is
    /// // a multiple of the thumbnails' either way.
    /// let step = Stitched::thumbnail_step(100, 2048);
    /// let row: Vec<TileCoord> = (0..100).map(|x| TileCoord { x, y: 0 }).collect();
    /// let square: Vec<TileCoord> = (0..100).map(|i| TileCoord { x: i % 10, y: i / 10 }).collect();
    /// for tiles in [row, square] {
    ///     assert_eq!(Stitched::step_for(&tiles, 2048) % step, 0);
    /// }
    /// ```
    pub fn thumbnail_step(tiles: usize, max_side: usize) -> usize {
        let tiles = tiles.max(1);
        let root = tiles.isqrt();
        let across = if root * root == tiles { root } else { root + 1 };
        Self::step_across(across, max_side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terrain::coords::ChunkCoord;
    use crate::terrain::grid::{Holes, VERTICES, vertex_offset};
    use crate::terrain::mesh::{TileMesh, grid_line};
    use crate::terrain::tile::ChunkTerrain;

    #[test]
    fn ranges_parse_and_levels_clamp() {
        let r = HeightRange::parse("-100:155").unwrap();
        assert_eq!((r.min, r.max), (-100.0, 155.0));
        assert_eq!(r.level(-100.0), 0);
        assert_eq!(r.level(155.0), 65535);
        assert_eq!(r.level(1e9), 65535);
        assert_eq!(r.level(f32::NAN), 0);
        assert!(HeightRange::parse("5:5").is_err());
        assert!(HeightRange::parse("5").is_err());
        assert!(HeightRange::parse("a:5").is_err());
        assert!(HeightRange::parse("1:inf").is_err());
        let huge = HeightRange::parse("1e40:1e41").unwrap_err();
        assert!(
            huge.to_string()
                .contains("\"1e40\" is beyond what a height can be"),
            "{huge}"
        );
        let junk = HeightRange::parse("a:5").unwrap_err();
        assert!(junk.to_string().contains("\"a\" is not a number"), "{junk}");
    }

    /// A heightmap whose sample (x, y) is `x + 1000 y`.
    fn ramp() -> Heightmap {
        let side = HEIGHTMAP_SIDE;
        let heights = (0..side * side)
            .map(|i| ((i % side) + 1000 * (i / side)) as f32)
            .collect();
        Heightmap { side, heights }
    }

    /// Stitching thumbnails gives what stitching the full maps gives, at
    /// any step the thumbnails allow.
    #[test]
    fn thumbnails_stitch_as_full_maps() {
        let full = ramp();
        let thumb = full.thumbnail(8);
        assert_eq!((thumb.side, thumb.step()), (33, 8));
        assert_eq!(thumb.get(3, 2), Some((3 * 8 + 1000 * 2 * 8) as f32));
        assert_eq!(thumb.thumbnail(32), full.thumbnail(32));
        let coords = [TileCoord { x: 3, y: 7 }, TileCoord { x: 4, y: 7 }];
        for step in [8, 16, 64, 256] {
            let whole = Stitched::new(&[(coords[0], &full), (coords[1], &full)], step);
            let thumbs = Stitched::new(&[(coords[0], &thumb), (coords[1], &thumb)], step);
            assert_eq!(whole, thumbs, "step {step}");
        }
        // Finer than the thumbnails: the thumbnails' step.
        let fine = Stitched::new(&[(coords[0], &thumb)], 2).unwrap();
        assert_eq!((fine.step, fine.width), (8, 33));
    }

    /// A tile at `coord` built chunk by chunk as a file has it: each chunk's
    /// base height `base` plus its MCVT value `mcvt(chunk, vertex)`; the
    /// chunks `without` have no MCVT.
    fn built(
        coord: TileCoord,
        base: f32,
        mcvt: impl Fn(ChunkCoord, usize) -> f32,
        without: &[ChunkCoord],
    ) -> TerrainTile {
        let chunks = (0..256)
            .map(|i| {
                let chunk = ChunkCoord::from_index(i).unwrap();
                let [x, y] = chunk.north_west(coord);
                let heights: Vec<f32> = (0..VERTICES).map(|v| mcvt(chunk, v)).collect();
                ChunkTerrain {
                    coord: chunk,
                    flags: 0,
                    area_id: 0,
                    grid: (!without.contains(&chunk))
                        .then(|| ChunkGrid::new([x as f32, y as f32, base], &heights))
                        .flatten(),
                    normals: None,
                    colors: None,
                    holes: Holes::LowRes(0),
                }
            })
            .collect();
        TerrainTile { coord, chunks }
    }

    /// Two tiles whose shared column differs by an ulp at most samples and
    /// by half a yard in one chunk, with a chunk of the east tile without
    /// MCVT: processed together, both hold the east tile's heights on the
    /// seam (the west tile's where the east has none), and nothing else
    /// changes.
    #[test]
    fn neighbours_share_their_edge_exactly() {
        let (w, e) = (TileCoord::new(3, 7).unwrap(), TileCoord::new(4, 7).unwrap());
        let ulp_up = |h: f32| f32::from_bits(h.to_bits() + 1);
        // A slope down to the south, the same in both tiles, so that the
        // samples along the seam differ from each other.
        let slope = |c: ChunkCoord, v: usize| {
            let [_, row] = vertex_offset(v).unwrap();
            100.0 + (f64::from(c.y) * 8.0 + row) as f32 / 8.0
        };
        let west_tile = built(w, 0.0, slope, &[]);
        let west = Heightmap::from_tile(&west_tile);
        let (far, empty) = (
            ChunkCoord::new(0, 3).unwrap(),
            ChunkCoord::new(0, 5).unwrap(),
        );
        let east_mcvt = |c: ChunkCoord, v| {
            let h = ulp_up(slope(c, v));
            if c == far { h + 0.5 } else { h }
        };
        let east_tile = built(e, 0.0, east_mcvt, &[empty]);
        let east = Heightmap::from_tile(&east_tile);
        let n = HEIGHTMAP_SIDE;
        // The raw seam: an ulp apart, half a yard in chunk row 3, and no
        // height on the east side in chunk row 5 (samples 80..96).
        let mut ulps = 0;
        for py in 0..n {
            let (a, b) = (west.get(n - 1, py).unwrap(), east.get(0, py).unwrap());
            if (80..96).contains(&py) {
                assert!(b.is_nan(), "{py}");
            } else if (48..64).contains(&py) {
                assert!((b - a - 0.5).abs() < 1e-3, "{py}: {a} {b}");
            } else {
                assert!(a != b && (b - a).abs() <= a * f32::EPSILON, "{py}: {a} {b}");
                ulps += 1;
            }
        }
        assert_eq!(ulps, n - 32);
        let mut tiles = vec![(w, west.clone()), (e, east.clone())];
        // The west tile takes every sample the east one has (241), the
        // east tile the 16 it has not.
        assert_eq!(share_seams(&mut tiles), n - 16 + 16);
        let (shared_west, shared_east) = (&tiles[0].1, &tiles[1].1);
        for py in 0..n {
            let (a, b) = (
                shared_west.get(n - 1, py).unwrap(),
                shared_east.get(0, py).unwrap(),
            );
            assert_eq!(a.to_bits(), b.to_bits(), "row {py}");
            let owner = if (80..96).contains(&py) { &west } else { &east };
            let column = if (80..96).contains(&py) { n - 1 } else { 0 };
            assert_eq!(Some(a), owner.get(column, py), "row {py}");
        }
        // Off the seam nothing moved (NaN stays NaN in the empty chunk).
        for (map, raw, seam) in [(shared_west, &west, n - 1), (shared_east, &east, 0)] {
            for (i, (a, b)) in map.heights.iter().zip(&raw.heights).enumerate() {
                if i % n != seam {
                    assert_eq!(a.to_bits(), b.to_bits(), "sample {i}");
                }
            }
        }
        // The meshes: the vertices on the seam (by X, with their height) are
        // the same in both tiles (the east one has none in its empty chunk),
        // where alone they are not.
        let seam_y = grid_line(4 * 256);
        let on_seam = |mesh: TileMesh| {
            let mut vertices: Vec<(u64, u64)> = mesh
                .positions
                .iter()
                .filter(|p| p[1] == seam_y)
                .map(|p| (p[0].to_bits(), p[2].to_bits()))
                .collect();
            vertices.sort();
            vertices.dedup();
            vertices
        };
        let west_seam = on_seam(TileMesh::with_edges(&west_tile, shared_west));
        let east_seam = on_seam(TileMesh::with_edges(&east_tile, shared_east));
        assert_eq!((west_seam.len(), east_seam.len()), (129, 129 - 7));
        assert!(east_seam.iter().all(|v| west_seam.contains(v)));
        let alone = on_seam(TileMesh::from_tile(&west_tile));
        assert!(alone.len() == 129 && alone != west_seam);
        assert!(
            on_seam(TileMesh::from_tile(&east_tile))
                .iter()
                .all(|v| !alone.contains(v))
        );
        // Either tile alone keeps its edges.
        let mut alone = vec![(w, west.clone())];
        assert_eq!(share_seams(&mut alone), 0);
        assert_eq!(alone[0].1, west);
        // The overview of the raw maps is the overview of the shared ones.
        let raw = Stitched::new(&[(w, &west), (e, &east)], 1).unwrap();
        let shared = Stitched::new(&[(e, shared_east), (w, shared_west)], 1).unwrap();
        assert!(
            raw.heights
                .iter()
                .zip(&shared.heights)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
    }

    /// Four tiles around one corner, each a different height: all four take
    /// the south-east tile's; each shared edge is its southern or eastern
    /// tile's; the result is the same whichever order the tiles come in.
    #[test]
    fn a_corner_is_the_south_east_tiles() {
        let n = HEIGHTMAP_SIDE;
        let at = |x, y| TileCoord::new(x, y).unwrap();
        let flat = |h: f32| Heightmap {
            side: n,
            heights: vec![h; n * n],
        };
        let (nw, ne, sw, se) = (at(10, 10), at(11, 10), at(10, 11), at(11, 11));
        let mut tiles = vec![
            (se, flat(4.0)),
            (nw, flat(1.0)),
            (sw, flat(3.0)),
            (ne, flat(2.0)),
        ];
        share_seams(&mut tiles);
        let map = |c: TileCoord| &tiles.iter().find(|(t, _)| *t == c).unwrap().1;
        let corners = [
            map(nw).get(n - 1, n - 1),
            map(ne).get(0, n - 1),
            map(sw).get(n - 1, 0),
            map(se).get(0, 0),
        ];
        assert_eq!(corners, [Some(4.0); 4]);
        // North-west's east edge is north-east's; its south edge south-west's.
        assert_eq!(map(nw).get(n - 1, 5), Some(2.0));
        assert_eq!(map(nw).get(5, n - 1), Some(3.0));
        assert_eq!(map(nw).get(0, 0), Some(1.0));
        // North-east's south edge and south-west's east edge: south-east's.
        assert_eq!(map(ne).get(5, n - 1), Some(4.0));
        assert_eq!(map(sw).get(n - 1, 5), Some(4.0));
        // The north-west tile's own north and west edges stay its own.
        assert_eq!(map(nw).get(0, 5), Some(1.0));
        let mut reordered = tiles.clone();
        reordered.reverse();
        share_seams(&mut reordered);
        reordered.reverse();
        assert_eq!(reordered, tiles);
    }

    /// For any number of tiles, however they lie, the overview's step is a
    /// multiple of the thumbnails'.
    #[test]
    fn thumbnail_step_divides_every_layout() {
        for n in 1..=300u32 {
            let step = Stitched::thumbnail_step(n as usize, 1024);
            let side = (n as f64).sqrt().ceil() as u32;
            let layouts = [
                (0..n).map(|x| TileCoord { x, y: 0 }).collect::<Vec<_>>(),
                (0..n)
                    .map(|i| TileCoord {
                        x: i % side,
                        y: i / side,
                    })
                    .collect(),
                (0..n).map(|i| TileCoord { x: i % 3, y: i / 3 }).collect(),
            ];
            for tiles in &layouts {
                assert_eq!(Stitched::step_for(tiles, 1024) % step, 0, "{n} tiles");
            }
        }
    }
}
