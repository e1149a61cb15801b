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

impl HeightRange {
    /// The range spanning both.
    pub fn union(self, other: HeightRange) -> HeightRange {
        HeightRange {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The range from `MIN:MAX` text (`-100:250.5`).
    pub fn parse(text: &str) -> Result<HeightRange, String> {
        let (min, max) = text
            .split_once(':')
            .ok_or_else(|| format!("range {text:?}: expected MIN:MAX"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("range {text:?}: {s:?} is not a number"))
        };
        let (min, max) = (number(min)?, number(max)?);
        if min < max {
            Ok(HeightRange { min, max })
        } else {
            Err(format!("range {text:?}: MIN must be below MAX"))
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
        (0, 0) => grid.outer(r, c),
        (1, 1) => grid.inner(r, c),
        (1, 0) => Some((grid.outer(r, c)? + grid.outer(r, c + 1)?) / 2.0),
        _ => Some((grid.outer(r, c)? + grid.outer(r + 1, c)?) / 2.0),
    }
}

impl Heightmap {
    /// The heightmap of `tile`. A sample on the edge between two chunks is
    /// the southern or eastern chunk's (the one whose north or west edge it
    /// is, as for [`TerrainTile::chunk_at`]), the tile's own south and east
    /// edges the last chunk's.
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

/// The range spanning every heightmap given (`None` if none has a height).
pub fn common_range<'a>(maps: impl IntoIterator<Item = &'a Heightmap>) -> Option<HeightRange> {
    maps.into_iter()
        .filter_map(Heightmap::range)
        .reduce(HeightRange::union)
}

/// Several tiles' heightmaps in one grid, every `step`-th sample: the tiles
/// from the north-westmost to the south-eastmost given, NaN where a tile is
/// missing.
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
    /// given) so that neighbouring tiles share their edge sample.
    pub fn new(tiles: &[(TileCoord, &Heightmap)], step: usize) -> Option<Stitched> {
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
        for (tile, map) in tiles {
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
