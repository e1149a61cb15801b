//! Sizes, tile and chunk indices, world rectangles, and the conversion
//! between placement (MDDF/MODF) and world coordinates; the conventions are
//! in the [module](super) docs.

/// Tiles per map side.
pub const TILES: u32 = 64;
/// Chunks per tile side.
pub const CHUNKS: u32 = 16;
/// Side of a tile in yards: 1600 / 3.
pub const TILE_SIZE: f64 = 1600.0 / 3.0;
/// Side of a chunk in yards: [`TILE_SIZE`] / 16.
pub const CHUNK_SIZE: f64 = TILE_SIZE / 16.0;
/// Side of one quad of a chunk's grid in yards: [`CHUNK_SIZE`] / 8.
pub const UNIT_SIZE: f64 = CHUNK_SIZE / 8.0;
/// World X and Y of the map's north-west corner: 32 · [`TILE_SIZE`] (17066.666…).
pub const MAP_HALF: f64 = 32.0 * TILE_SIZE;

/// An axis-aligned rectangle of world X and Y (yards).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WorldRect {
    /// Southern edge.
    pub min_x: f64,
    /// Northern edge.
    pub max_x: f64,
    /// Eastern edge.
    pub min_y: f64,
    /// Western edge.
    pub max_y: f64,
}

impl WorldRect {
    /// The square whose north-west corner is (`x`, `y`) and whose side is `side`.
    fn from_north_west(x: f64, y: f64, side: f64) -> WorldRect {
        WorldRect {
            min_x: x - side,
            max_x: x,
            min_y: y - side,
            max_y: y,
        }
    }

    /// True if (`x`, `y`) is inside or on the edge.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        (self.min_x..=self.max_x).contains(&x) && (self.min_y..=self.max_y).contains(&y)
    }
}

/// Which cell of an `n` x `n` grid of side `size` starting (north-west) at
/// `origin` holds `value`, counting away from `origin` (half-open cells: a
/// point on an edge belongs to the cell whose north or west edge it is).
fn cell(origin: f64, value: f64, size: f64, n: u32) -> Option<u32> {
    let index = ((origin - value) / size).floor();
    (index >= 0.0 && index < f64::from(n)).then_some(index as u32)
}

/// A tile of the 64 x 64 map: `x` is the column (east), `y` the row (south),
/// as in the file name `Map_x_y.adt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TileCoord {
    /// Column, 0..64, west to east.
    pub x: u32,
    /// Row, 0..64, north to south.
    pub y: u32,
}

impl TileCoord {
    /// The tile (`x`, `y`), or `None` outside the 64 x 64 map.
    pub fn new(x: u32, y: u32) -> Option<TileCoord> {
        (x < TILES && y < TILES).then_some(TileCoord { x, y })
    }

    /// The tile holding world (`x`, `y`) (`None` off the map).
    pub fn at(x: f64, y: f64) -> Option<TileCoord> {
        Some(TileCoord {
            x: cell(MAP_HALF, y, TILE_SIZE, TILES)?,
            y: cell(MAP_HALF, x, TILE_SIZE, TILES)?,
        })
    }

    /// World X and Y of the tile's north-west corner.
    pub fn north_west(self) -> [f64; 2] {
        [
            MAP_HALF - f64::from(self.y) * TILE_SIZE,
            MAP_HALF - f64::from(self.x) * TILE_SIZE,
        ]
    }

    /// The tile's world rectangle.
    pub fn bounds(self) -> WorldRect {
        let [x, y] = self.north_west();
        WorldRect::from_north_west(x, y, TILE_SIZE)
    }

    /// `{map}_{x}_{y}.adt`, the tile's file name in the map's folder.
    pub fn file_name(self, map: &str) -> String {
        format!("{map}_{}_{}.adt", self.x, self.y)
    }

    /// The tile a file name `…_x_y.adt` names (any folder, any case; split-file
    /// suffixes such as `_obj0` are not tiles and give `None`).
    pub fn from_file_name(name: &str) -> Option<TileCoord> {
        let file = name.rsplit(['/', '\\']).next()?;
        let split = file.len().checked_sub(4)?;
        let (stem, extension) = (file.get(..split)?, file.get(split..)?);
        if !extension.eq_ignore_ascii_case(".adt") {
            return None;
        }
        let mut parts = stem.rsplit('_');
        let y = parts.next()?.parse().ok()?;
        let x = parts.next()?.parse().ok()?;
        parts.next()?;
        TileCoord::new(x, y)
    }

    /// The tile at (`dx`, `dy`) tiles from this one, if on the map.
    pub fn offset(self, dx: i64, dy: i64) -> Option<TileCoord> {
        let x = u32::try_from(i64::from(self.x) + dx).ok()?;
        let y = u32::try_from(i64::from(self.y) + dy).ok()?;
        TileCoord::new(x, y)
    }
}

/// A chunk of a tile: `x` is `MCNK.IndexX` (column, east), `y` is `IndexY`
/// (row, south).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChunkCoord {
    /// Column, 0..16.
    pub x: u32,
    /// Row, 0..16.
    pub y: u32,
}

impl ChunkCoord {
    /// The chunk (`x`, `y`), or `None` outside 16 x 16.
    pub fn new(x: u32, y: u32) -> Option<ChunkCoord> {
        (x < CHUNKS && y < CHUNKS).then_some(ChunkCoord { x, y })
    }

    /// The chunk at position `index` of a tile's 256, row by row (the MCIN
    /// and MH2O order).
    pub fn from_index(index: usize) -> Option<ChunkCoord> {
        let index = u32::try_from(index).ok()?;
        ChunkCoord::new(index % CHUNKS, index / CHUNKS)
    }

    /// The position among a tile's 256 chunks, row by row.
    pub fn index(self) -> usize {
        (self.y * CHUNKS + self.x) as usize
    }

    /// The tile and chunk holding world (`x`, `y`) (`None` off the map).
    pub fn at(x: f64, y: f64) -> Option<(TileCoord, ChunkCoord)> {
        let tile = TileCoord::at(x, y)?;
        let [north, west] = tile.north_west();
        let chunk = ChunkCoord {
            x: cell(west, y, CHUNK_SIZE, CHUNKS).unwrap_or(CHUNKS - 1),
            y: cell(north, x, CHUNK_SIZE, CHUNKS).unwrap_or(CHUNKS - 1),
        };
        Some((tile, chunk))
    }

    /// World X and Y of the chunk's north-west corner in `tile` (what its
    /// `MCNK.position` holds).
    pub fn north_west(self, tile: TileCoord) -> [f64; 2] {
        let [x, y] = tile.north_west();
        [
            x - f64::from(self.y) * CHUNK_SIZE,
            y - f64::from(self.x) * CHUNK_SIZE,
        ]
    }

    /// The chunk's world rectangle in `tile`.
    pub fn bounds(self, tile: TileCoord) -> WorldRect {
        let [x, y] = self.north_west(tile);
        WorldRect::from_north_west(x, y, CHUNK_SIZE)
    }
}

/// A placement-space position (MDDF/MODF `position`, a corner of a MODF
/// box) in world space: `[MAP_HALF - p[2], MAP_HALF - p[0], p[1]]`.
pub fn file_to_world(p: [f32; 3]) -> [f64; 3] {
    let [east, up, south] = p.map(f64::from);
    [MAP_HALF - south, MAP_HALF - east, up]
}

/// A world position in placement space, as MDDF/MODF store it (the inverse of
/// [`file_to_world`]).
pub fn world_to_file(w: [f64; 3]) -> [f32; 3] {
    let [x, y, z] = w;
    [(MAP_HALF - y) as f32, z as f32, (MAP_HALF - x) as f32]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_and_cells() {
        let first = TileCoord::new(0, 0).unwrap();
        assert_eq!(first.north_west(), [MAP_HALF, MAP_HALF]);
        assert_eq!(TileCoord::at(MAP_HALF, MAP_HALF), Some(first));
        // Just past the map's south-east corner is off the map.
        assert_eq!(TileCoord::at(-MAP_HALF, 0.0), None);
        assert_eq!(
            TileCoord::at(-MAP_HALF + 1e-6, -MAP_HALF + 1e-6).map(|t| (t.x, t.y)),
            Some((63, 63))
        );
        let tile = TileCoord::new(30, 27).unwrap();
        let chunk = ChunkCoord::new(3, 5).unwrap();
        let [x, y] = chunk.north_west(tile);
        assert_eq!(ChunkCoord::at(x - 1.0, y - 1.0), Some((tile, chunk)));
        assert_eq!(ChunkCoord::from_index(chunk.index()), Some(chunk));
        assert!(chunk.bounds(tile).contains(x - CHUNK_SIZE, y));
    }

    #[test]
    fn names_parse_back() {
        let tile = TileCoord::new(31, 27).unwrap();
        assert_eq!(
            TileCoord::from_file_name(&tile.file_name("cataclysmctf")),
            Some(tile)
        );
        assert_eq!(
            TileCoord::from_file_name("World\\Maps\\X\\X_1_2.adt"),
            TileCoord::new(1, 2)
        );
        assert_eq!(TileCoord::from_file_name("x_1_2_obj0.adt"), None);
        assert_eq!(TileCoord::from_file_name("X_1_2.Adt"), TileCoord::new(1, 2));
        assert_eq!(TileCoord::from_file_name("X_1_2.wdt"), None);
        assert_eq!(TileCoord::from_file_name("dt"), None);
        assert_eq!(TileCoord::from_file_name("x_64_2.adt"), None);
        assert_eq!(TileCoord::from_file_name("1_2.adt"), None);
    }

    #[test]
    fn placement_space_turns_back() {
        let p = [17000.5f32, 12.25, 100.125];
        let w = file_to_world(p);
        assert_eq!(world_to_file(w), p);
        assert!((w[0] - (MAP_HALF - 100.125)).abs() < 1e-9);
    }
}
