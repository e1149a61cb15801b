//! Triangle meshes of a tile's terrain and liquids, ready for a model format:
//! vertices, normals, colours, UVs, counter-clockwise triangles with holes
//! cut out.
//!
//! Terrain: every chunk's 145 MCVT vertices in MCVT order, chunk after chunk
//! in file order, and 4 triangles per quad around its inner vertex (256 per
//! chunk), none in holes. Triangles wind counter-clockwise seen from above
//! (the front face is up), in world space and in glTF space alike
//! ([`world_to_gltf`] is a rotation). Two UV sets: `splat_uv` runs 0..1 over
//! the tile (east, south), as the splat maps do; `tile_uv` runs one unit per
//! chunk (0..16 over the tile), for textures that repeat.

use super::coords::{CHUNKS, TILE_SIZE, TileCoord};
use super::grid::{QUADS, VERTICES, inner_index, outer_index, vertex_offset};
use super::liquid::LiquidGrid;
use super::tile::TerrainTile;

/// A world position in glTF space (Y up, right-handed): `(-Y, Z, -X)`.
pub fn world_to_gltf(w: [f64; 3]) -> [f64; 3] {
    let [x, y, z] = w;
    [-y, z, -x]
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
    let c = inner_index(row, col)?;
    let nw = outer_index(row, col)?;
    let ne = outer_index(row, col + 1)?;
    let sw = outer_index(row + 1, col)?;
    let se = outer_index(row + 1, col + 1)?;
    Some([[c, ne, nw], [c, se, ne], [c, sw, se], [c, nw, sw]])
}

impl TileMesh {
    /// The mesh of `tile` (chunks without MCVT are left out).
    pub fn from_tile(tile: &TerrainTile) -> TileMesh {
        let mut mesh = TileMesh::default();
        let any_colors = tile.chunks.iter().any(|c| c.colors.is_some());
        let mut colors = Vec::new();
        for chunk in &tile.chunks {
            let Some(grid) = &chunk.grid else { continue };
            let base = mesh.positions.len();
            for i in 0..VERTICES {
                let Some(p) = grid.position(i) else { continue };
                mesh.positions.push(p);
                let normal = chunk.normals.as_ref().and_then(|n| n.get(i).copied());
                mesh.normals.push(normal.unwrap_or([0.0, 0.0, 1.0]));
                if any_colors {
                    let color = chunk.colors.as_ref().and_then(|c| c.get(i).copied());
                    colors.push(color.unwrap_or(NEUTRAL_COLOR));
                }
                // UVs from the ideal grid: exact at chunk and tile edges.
                let [col, row] = vertex_offset(i).unwrap_or_default();
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
    /// The mesh of `grids` (one tile's, in `tile`).
    pub fn from_grids(tile: TileCoord, grids: &[LiquidGrid]) -> LiquidMesh {
        let mut mesh = LiquidMesh::default();
        let [north, west] = tile.north_west();
        for grid in grids {
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
