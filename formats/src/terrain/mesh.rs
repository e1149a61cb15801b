//! Triangle meshes of a tile's terrain and liquids, ready for a model format:
//! vertices, normals, colours, UVs, counter-clockwise triangles with holes
//! cut out.
//!
//! Terrain: every chunk's 145 MCVT vertices in MCVT order, chunk after chunk
//! in file order, and 4 triangles per quad around its inner vertex (256 per
//! chunk), none in holes. A vertex's X and Y are its place on the map's
//! grid, from the tile's and chunk's indices ([`grid_line`]), so chunks and
//! tiles that share an edge share its vertices' X and Y to the bit. Its Z is
//! the chunk's base plus its MCVT value, which two chunks or tiles sharing a
//! vertex may sum to heights a bit apart (in the last bit of an `f32`, at
//! none to an eighth of the vertices chunks share in the corpus tiles: 477
//! of 4095 in `patch5_Aeven_10_3`). So that chunks meet to the bit, a vertex
//! on a chunk's edge takes its height from the tile's [`Heightmap`], which
//! holds one sample there: the chunk's whose north or west edge it is (the
//! southern or eastern one, as [`TerrainTile::chunk_at`] decides; its own
//! where that chunk has no MCVT). Tiles processed together take their
//! edges' heights from their heightmaps with the seams shared
//! ([`TileMesh::with_edges`], [`Seams`](super::Seams)), so their meshes meet
//! to the bit too. (`MCNK.position` X and Y, which
//! [`ChunkGrid::position`](super::ChunkGrid::position) uses, are `f32`s
//! some writers round: the converted `cataclysmctf` tiles put the edge they
//! share 1.3 mm apart. [`TerrainTile::misplaced_chunks`] lists chunks more
//! than a centimetre off the grid.)
//!
//! Triangles wind counter-clockwise seen from above (the front face is up),
//! in world space and in glTF space alike ([`world_to_gltf`] is a rotation). Two UV sets: `splat_uv` runs 0..1 over
//! the tile (east, south), as the splat maps do; `tile_uv` runs one unit per
//! chunk (0..16 over the tile), for textures that repeat.

use super::coords::{CHUNKS, ChunkCoord, MAP_HALF, TILE_SIZE, TILES, TileCoord};
use super::grid::{QUADS, VERTICES, inner_index, outer_index, vertex_offset};
use super::heightmap::{HEIGHTMAP_SIDE, Heightmap};
use super::liquid::LiquidGrid;
use super::tile::TerrainTile;

/// A world position in glTF space (Y up, right-handed): `(X, Z, -Y)`, the
/// -90° turn about X that a tile's root node makes in `formats export` (as a
/// model's root does).
pub fn world_to_gltf(w: [f64; 3]) -> [f64; 3] {
    let [x, y, z] = w;
    [x, z, -y]
}

/// Half-quad grid lines per tile side (two per quad, 8 quads per chunk).
const LINES_PER_TILE: u32 = 2 * QUADS as u32 * CHUNKS;

/// World X (of a row) or Y (of a column) of line `line` of the map's
/// half-quad grid, counted from the north-west corner (0) to the south-east
/// one (64 · 256). Computed from that one integer, it is the same `f64`
/// for every chunk and tile that has a vertex on the line.
pub fn grid_line(line: u32) -> f64 {
    let lines = f64::from(TILES * LINES_PER_TILE);
    MAP_HALF * (1.0 - 2.0 * f64::from(line) / lines)
}

/// The half-quad grid line of `quads` (a [`vertex_offset`] component) into
/// chunk `chunk` of tile `tile` (along one axis).
fn line_of(tile: u32, chunk: u32, quads: f64) -> u32 {
    tile * LINES_PER_TILE + chunk * 2 * QUADS as u32 + (2.0 * quads) as u32
}

/// The neutral MCCV colour (0x7F: 1.0) for chunks without MCCV.
pub const NEUTRAL_COLOR: [u8; 4] = [0x7f, 0x7f, 0x7f, 0xff];

/// A tile's terrain as one triangle mesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TileMesh {
    /// World positions.
    pub positions: Vec<[f64; 3]>,
    /// World-space unit normals (MCNR; straight up where a chunk has none).
    pub normals: Vec<[f32; 3]>,
    /// MCCV colours `[r, g, b, a]`, 0x7F meaning 1.0 ([`NEUTRAL_COLOR`] for
    /// chunks without MCCV); `None` if no chunk has MCCV.
    pub colors: Option<Vec<[u8; 4]>>,
    /// 0..1 over the tile, east and south.
    pub splat_uv: Vec<[f32; 2]>,
    /// One unit per chunk, east and south.
    pub tile_uv: Vec<[f32; 2]>,
    /// Three vertex indices per triangle, counter-clockwise from above.
    pub indices: Vec<u32>,
}

/// The four triangles of quad (`col`, `row`): (centre, corner, corner),
/// counter-clockwise seen from above (north, east, south, west edge).
fn quad_triangles(col: usize, row: usize) -> Option<[[usize; 3]; 4]> {
    let c = inner_index(col, row)?;
    let nw = outer_index(col, row)?;
    let ne = outer_index(col + 1, row)?;
    let sw = outer_index(col, row + 1)?;
    let se = outer_index(col + 1, row + 1)?;
    Some([[c, ne, nw], [c, se, ne], [c, sw, se], [c, nw, sw]])
}

impl TileMesh {
    /// The mesh of `tile` (chunks without MCVT, or whose indices are off
    /// the tile's 16 x 16, are left out), its chunks joined by its
    /// [`Heightmap`] (see the [module](self) docs). Its edges' heights are its
    /// own, which may differ from a neighbour's in the last bit (see
    /// [`Seams`](super::Seams)); for tiles processed together, use
    /// [`with_edges`](Self::with_edges).
    pub fn from_tile(tile: &TerrainTile) -> TileMesh {
        Self::with_edges(tile, &Heightmap::from_tile(tile))
    }

    /// The mesh of `tile` whose vertices on a chunk's edge (the tile's own
    /// edges included) take their heights from `heights`, the tile's
    /// [`Heightmap`]: the chunks that share such a vertex then give it one
    /// height, and with the tile's seams shared
    /// ([`Seams::share`](super::Seams::share)) the meshes of tiles processed
    /// together meet at the same heights, to the bit, as their heightmaps
    /// do. Those vertices' heights are `f32`s (a heightmap's, and glTF's,
    /// precision); the others are their chunk's base plus MCVT. A `heights`
    /// that is not a full heightmap, or NaN at a vertex (a chunk without
    /// MCVT owns it), leaves the vertex as it is.
    pub fn with_edges(tile: &TerrainTile, heights: &Heightmap) -> TileMesh {
        let heights = Some(heights).filter(|m| m.side == HEIGHTMAP_SIDE);
        let per_chunk = 2 * QUADS;
        let mut mesh = TileMesh::default();
        let any_colors = tile.chunks.iter().any(|c| c.colors.is_some());
        let mut colors = Vec::new();
        for chunk in &tile.chunks {
            let Some(grid) = &chunk.grid else { continue };
            if ChunkCoord::new(chunk.coord.x, chunk.coord.y).is_none() {
                continue;
            }
            let base = mesh.positions.len();
            for i in 0..VERTICES {
                let (Some([col, row]), Some(mut z)) = (vertex_offset(i), grid.height(i)) else {
                    continue;
                };
                // The vertex's heightmap sample: two per quad.
                let px = chunk.coord.x as usize * per_chunk + (2.0 * col) as usize;
                let py = chunk.coord.y as usize * per_chunk + (2.0 * row) as usize;
                let on_edge = px.is_multiple_of(per_chunk) || py.is_multiple_of(per_chunk);
                if let Some(h) = heights
                    .filter(|_| on_edge)
                    .and_then(|m| m.get(px, py))
                    .filter(|h| h.is_finite())
                {
                    z = f64::from(h);
                }
                mesh.positions.push([
                    grid_line(line_of(tile.coord.y, chunk.coord.y, row)),
                    grid_line(line_of(tile.coord.x, chunk.coord.x, col)),
                    z,
                ]);
                let normal = chunk.normals.as_ref().and_then(|n| n.get(i).copied());
                mesh.normals.push(normal.unwrap_or([0.0, 0.0, 1.0]));
                if any_colors {
                    let color = chunk.colors.as_ref().and_then(|c| c.get(i).copied());
                    colors.push(color.unwrap_or(NEUTRAL_COLOR));
                }
                // UVs from the grid too: exact at chunk and tile edges.
                let east = f64::from(chunk.coord.x) + col / QUADS as f64;
                let south = f64::from(chunk.coord.y) + row / QUADS as f64;
                mesh.tile_uv.push([east as f32, south as f32]);
                let chunks = f64::from(CHUNKS);
                mesh.splat_uv
                    .push([(east / chunks) as f32, (south / chunks) as f32]);
            }
            for row in 0..QUADS {
                for col in 0..QUADS {
                    if chunk.is_hole(col, row) {
                        continue;
                    }
                    for triangle in quad_triangles(col, row).into_iter().flatten() {
                        mesh.indices
                            .extend(triangle.iter().map(|v| (base + v) as u32));
                    }
                }
            }
        }
        mesh.colors = any_colors.then_some(colors);
        mesh
    }

    /// Triangles in the mesh.
    pub fn triangle_count(&self) -> usize {
        self.indices.len() / 3
    }
}

/// A tile's liquids as one triangle mesh: each instance's vertices, two
/// triangles per quad that has liquid, counter-clockwise from above.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LiquidMesh {
    /// World positions.
    pub positions: Vec<[f64; 3]>,
    /// 0..1 over the tile, east and south.
    pub splat_uv: Vec<[f32; 2]>,
    /// Three vertex indices per triangle.
    pub indices: Vec<u32>,
}

impl LiquidMesh {
    /// The mesh of `grids` (one tile's, in `tile`); a grid with a height
    /// that is NaN or infinite ([`LiquidGrid::is_finite`]) is left out.
    pub fn from_grids(tile: TileCoord, grids: &[LiquidGrid]) -> LiquidMesh {
        let mut mesh = LiquidMesh::default();
        let [north, west] = tile.north_west();
        for grid in grids.iter().filter(|g| g.is_finite()) {
            let base = mesh.positions.len();
            let stride = grid.width + 1;
            for row in 0..=grid.height {
                for col in 0..=grid.width {
                    let Some(p) = grid.position(col, row) else {
                        continue;
                    };
                    mesh.positions.push(p);
                    mesh.splat_uv.push([
                        ((west - p[1]) / TILE_SIZE) as f32,
                        ((north - p[0]) / TILE_SIZE) as f32,
                    ]);
                }
            }
            if mesh.positions.len() - base != stride * (grid.height + 1) {
                // A grid without all its heights: keep the vertices, no faces.
                continue;
            }
            for row in 0..grid.height {
                for col in 0..grid.width {
                    if !grid.exists(col, row) {
                        continue;
                    }
                    let nw = (base + row * stride + col) as u32;
                    let (ne, sw) = (nw + 1, nw + stride as u32);
                    let se = sw + 1;
                    mesh.indices.extend([nw, se, ne, nw, sw, se]);
                }
            }
        }
        mesh
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adt::mcnk::{Mcnk, McnkChunk, Mcvt};
    use crate::terrain::liquid::LiquidSource;

    fn liquid(chunk: ChunkCoord, tile: TileCoord, height: f64) -> LiquidGrid {
        LiquidGrid {
            chunk,
            layer: 0,
            liquid_type: 1,
            source: LiquidSource::Mclq { flag: 0 },
            width: 2,
            height: 1,
            origin: chunk.north_west(tile),
            heights: vec![height; 6],
            exists: vec![true; 2],
        }
    }

    /// A liquid whose heights are not numbers would put NaN into a glTF
    /// accessor (which glTF validators reject): it is left out, the others
    /// stay.
    #[test]
    fn a_liquid_with_a_nan_height_is_left_out() {
        let tile = TileCoord::new(30, 27).unwrap();
        let (a, b) = (ChunkCoord { x: 1, y: 2 }, ChunkCoord { x: 3, y: 2 });
        let mut broken = liquid(b, tile, 5.0);
        broken.heights[4] = f64::NAN;
        assert!(!broken.is_finite() && liquid(a, tile, 5.0).is_finite());
        let mesh = LiquidMesh::from_grids(tile, &[liquid(a, tile, 5.0), broken]);
        assert_eq!((mesh.positions.len(), mesh.indices.len()), (6, 12));
        assert!(mesh.positions.iter().flatten().all(|c| c.is_finite()));
        let infinite = liquid(a, tile, f64::INFINITY);
        assert_eq!(
            LiquidMesh::from_grids(tile, &[infinite]),
            LiquidMesh::default()
        );
    }

    /// A chunk whose base height or an MCVT value is NaN or infinite is left
    /// out of the terrain mesh, as a chunk without MCVT is; its neighbours
    /// stay, every coordinate finite.
    #[test]
    fn a_chunk_with_a_height_that_is_not_a_number_is_left_out() {
        let tile = TileCoord::new(30, 27).unwrap();
        let chunk = |x: u32, base: f32, bad: Option<usize>| {
            let [north, west] = ChunkCoord { x, y: 0 }.north_west(tile);
            let mut mcnk = Mcnk::new(x, 0);
            mcnk.position = [north as f32, west as f32, base];
            let mut height = [1.0; VERTICES];
            if let Some(i) = bad {
                height[i] = f32::NAN;
            }
            mcnk.chunks.push(McnkChunk::Mcvt(Mcvt { height }));
            mcnk
        };
        let adt = crate::adt::Adt {
            chunks: vec![
                crate::adt::AdtChunk::Mcnk(chunk(0, 10.0, None)),
                crate::adt::AdtChunk::Mcnk(chunk(1, 10.0, Some(40))),
                crate::adt::AdtChunk::Mcnk(chunk(2, f32::INFINITY, None)),
            ],
        };
        let terrain = TerrainTile::from_adt(&adt).unwrap();
        assert_eq!(terrain.coord, tile);
        let with_grid: Vec<bool> = terrain.chunks.iter().map(|c| c.grid.is_some()).collect();
        assert_eq!(with_grid, [true, false, false]);
        let mesh = TileMesh::from_tile(&terrain);
        assert_eq!(
            (mesh.positions.len(), mesh.triangle_count()),
            (VERTICES, 256)
        );
        assert!(mesh.positions.iter().flatten().all(|c| c.is_finite()));
        // In the heightmap: NaN ("no height") there, not infinity.
        let map = Heightmap::from_tile(&terrain);
        assert_eq!(map.get(3, 3), Some(11.0));
        assert!(map.get(20, 3).unwrap().is_nan() && map.get(40, 3).unwrap().is_nan());
    }
}
