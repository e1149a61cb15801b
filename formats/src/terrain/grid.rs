//! One chunk's height grid: the 145 MCVT values as 9 x 9 outer and 8 x 8
//! inner vertices, their world positions, heights anywhere on the four
//! triangles per quad the client draws, and holes.
//!
//! MCVT interleaves the two grids row by row, 9 outer then 8 inner, ending
//! with 9 outer (`17 * row + col` and `17 * row + 9 + col`):
//!
//! ```text
//!  o   o   o  …   o      outer row 0 (9)
//!    i   i  …   i        inner row 0 (8), each the centre of a quad
//!  o   o   o  …   o      outer row 1
//! ```
//!
//! Each quad (between outer columns `c`, `c+1` and rows `r`, `r+1`) is four
//! triangles around its inner vertex, one on each edge.
//!
//! Two indices are (column, row) here as everywhere in [`terrain`](super).

use super::coords::UNIT_SIZE;

/// Vertices per chunk: 9 · 9 outer + 8 · 8 inner.
pub const VERTICES: usize = 145;
/// Quads per chunk side.
pub const QUADS: usize = 8;
/// MCVT values per outer row and the inner row after it.
const ROW: usize = 17;

/// The MCVT position of the outer vertex in column `col` (east) and row
/// `row` (south), both 0..=8.
pub fn outer_index(col: usize, row: usize) -> Option<usize> {
    (row <= QUADS && col <= QUADS).then_some(row * ROW + col)
}

/// The MCVT position of the inner vertex in column `col` (east) and row
/// `row` (south), both 0..8: the centre of quad (`col`, `row`).
pub fn inner_index(col: usize, row: usize) -> Option<usize> {
    (row < QUADS && col < QUADS).then_some(row * ROW + QUADS + 1 + col)
}

/// Where MCVT value `index` sits in the chunk, in quads from the chunk's
/// north-west corner: (column, row); inner vertices at half quads.
pub fn vertex_offset(index: usize) -> Option<[f64; 2]> {
    if index >= VERTICES {
        return None;
    }
    let (row, rest) = (index / ROW, index % ROW);
    Some(if rest <= QUADS {
        [rest as f64, row as f64]
    } else {
        [(rest - QUADS - 1) as f64 + 0.5, row as f64 + 0.5]
    })
}

/// A chunk's holes: quads with no terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Holes {
    /// `holes_low_res`: 4 x 4 bits row by row (bit `4 * row + col`), each
    /// covering 2 x 2 quads.
    LowRes(u16),
    /// `holes_high_res` (MCNK flag `high_res_holes`): 8 x 8 bits, one per
    /// quad; byte `row`, bit `col`.
    HighRes(u64),
}

impl Holes {
    /// True if the quad at column `col`, row `row` (0..8) is a hole.
    pub fn is_hole(self, col: usize, row: usize) -> bool {
        if col >= QUADS || row >= QUADS {
            return false;
        }
        match self {
            Holes::LowRes(bits) => bits >> ((row / 2) * 4 + col / 2) & 1 == 1,
            Holes::HighRes(bits) => bits >> (row * 8 + col) & 1 == 1,
        }
    }

    /// True if no quad is a hole.
    pub fn is_empty(self) -> bool {
        match self {
            Holes::LowRes(bits) => bits == 0,
            Holes::HighRes(bits) => bits == 0,
        }
    }
}

/// How far (yards) outside a chunk a point still counts as on its edge: an
/// `MCNK.position` is an `f32` of up to 17066.67, so neighbouring chunks'
/// corners and the tile's ideal grid differ by up to a few thousandths.
pub const EDGE_TOLERANCE: f64 = 0.01;

/// The snap, in quads, under which a position counts as on a vertex or an
/// edge (a micrometre): world positions computed from indices land there
/// exactly, so a vertex's own position gives back its own height.
const SNAP: f64 = 1e-6;

fn snap(v: f64) -> f64 {
    let half = (v * 2.0).round() / 2.0;
    if (v - half).abs() < SNAP { half } else { v }
}

/// One chunk's 145 heights placed in the world.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChunkGrid {
    /// World X, Y of the chunk's north-west corner and the base height
    /// (`MCNK.position`).
    pub origin: [f64; 3],
    /// MCVT, relative to `origin[2]`, in MCVT order (see the [module](self) docs).
    pub heights: Vec<f32>,
}

impl ChunkGrid {
    /// A grid from `MCNK.position` and the MCVT values: `None` unless there
    /// are 145 and they and the position are all finite (a NaN or infinite
    /// height has no place in a mesh or an image: a damaged chunk is left
    /// out as a chunk without MCVT is).
    pub fn new(position: [f32; 3], mcvt: &[f32]) -> Option<ChunkGrid> {
        let finite = position.iter().chain(mcvt).all(|v| v.is_finite());
        (mcvt.len() == VERTICES && finite).then(|| ChunkGrid {
            origin: position.map(f64::from),
            heights: mcvt.to_vec(),
        })
    }

    /// The absolute height of MCVT value `index`.
    pub fn height(&self, index: usize) -> Option<f64> {
        self.heights
            .get(index)
            .map(|h| self.origin[2] + f64::from(*h))
    }

    /// The absolute height of the outer vertex in column `col` and row
    /// `row`, both 0..=8.
    pub fn outer(&self, col: usize, row: usize) -> Option<f64> {
        self.height(outer_index(col, row)?)
    }

    /// The absolute height of the inner vertex in column `col` and row
    /// `row`, both 0..8 (the centre of that quad).
    pub fn inner(&self, col: usize, row: usize) -> Option<f64> {
        self.height(inner_index(col, row)?)
    }

    /// The world position of MCVT value `index`.
    pub fn position(&self, index: usize) -> Option<[f64; 3]> {
        let [col, row] = vertex_offset(index)?;
        Some([
            self.origin[0] - row * UNIT_SIZE,
            self.origin[1] - col * UNIT_SIZE,
            self.height(index)?,
        ])
    }

    /// World (`x`, `y`) in quads from the north-west corner, (column, row),
    /// `None` farther than [`EDGE_TOLERANCE`] outside the chunk; points
    /// within it are moved onto the edge.
    fn local(&self, x: f64, y: f64) -> Option<[f64; 2]> {
        let n = QUADS as f64;
        let slack = EDGE_TOLERANCE / UNIT_SIZE;
        let inside = |v: f64| {
            (-slack..=n + slack)
                .contains(&v)
                .then(|| snap(v.clamp(0.0, n)))
        };
        Some([
            inside((self.origin[1] - y) / UNIT_SIZE)?,
            inside((self.origin[0] - x) / UNIT_SIZE)?,
        ])
    }

    /// The quad (column, row) holding world (`x`, `y`): `None` outside the
    /// chunk (see [`EDGE_TOLERANCE`]), the last quad for a point on the
    /// chunk's south or east edge.
    pub fn quad_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let [u, v] = self.local(x, y)?;
        Some(((u as usize).min(QUADS - 1), (v as usize).min(QUADS - 1)))
    }

    /// The MCVT position (0..145) of the vertex nearest world (`x`, `y`):
    /// the one an edit of the ground there should move. `None` outside the
    /// chunk (see [`EDGE_TOLERANCE`]).
    ///
    /// Editing the height at a world point and writing the tile back: find
    /// the chunk ([`ChunkCoord::at`](super::ChunkCoord::at)), its vertex here,
    /// and change that value of the tile's MCNK with the same indices
    /// ([`Mcnk::heights_mut`](crate::adt::mcnk::Mcnk::heights_mut)).
    ///
    /// ```
    /// use formats::adt::{Adt, AdtChunk, header::Mver, mcnk::{Mcnk, McnkChunk, Mcvt}};
    /// use formats::terrain::{ChunkCoord, TerrainTile, TileCoord};
    ///
    /// // A tile with one flat chunk, the north-west one of `Map_31_27.adt`
    /// // (in practice: `Adt::from_bytes(&std::fs::read(path)?)?`).
    /// let [north, west] = TileCoord::new(31, 27).unwrap().north_west();
    /// let mut mcnk = Mcnk::new(0, 0);
    /// mcnk.position = [north as f32, west as f32, 100.0];
    /// mcnk.chunks.push(McnkChunk::Mcvt(Mcvt { height: [0.0; 145] }));
    /// let mut tile = Adt {
    ///     chunks: vec![
    ///         AdtChunk::Mver(Mver { version: 18 }),
    ///         AdtChunk::Mhdr(Default::default()),
    ///         AdtChunk::Mcnk(mcnk),
    ///     ],
    /// };
    ///
    /// // Raise the ground 10 yards south and 5 east of the tile's corner.
    /// let (x, y) = (north - 10.0, west - 5.0);
    /// let terrain = TerrainTile::from_adt(&tile)?;
    /// assert_eq!(terrain.height_at(x, y), Some(100.0));
    /// let (_, at) = ChunkCoord::at(x, y).unwrap();
    /// let grid = terrain.chunk(at).and_then(|c| c.grid.as_ref()).unwrap();
    /// let vertex = grid.vertex_at(x, y).unwrap();
    /// let mcnk = tile.mcnks_mut().find(|m| (m.index_x, m.index_y) == (at.x, at.y)).unwrap();
    /// mcnk.heights_mut().unwrap().height[vertex] += 8.0;
    ///
    /// let written = tile.to_bytes()?;
    /// let terrain = TerrainTile::from_adt(&Adt::from_bytes(&written)?)?;
    /// let [vx, vy, vz] = terrain.chunks[0].grid.as_ref().unwrap().position(vertex).unwrap();
    /// assert_eq!(vz, 108.0);
    /// assert_eq!(terrain.height_at(vx, vy), Some(108.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn vertex_at(&self, x: f64, y: f64) -> Option<usize> {
        let [u, v] = self.local(x, y)?;
        let n = QUADS as f64;
        // The nearest outer vertex, and the centre of the quad holding the point.
        let (oc, or) = (u.round().min(n), v.round().min(n));
        let (ic, ir) = (u.floor().min(n - 1.0), v.floor().min(n - 1.0));
        let outer_distance = (u - oc).powi(2) + (v - or).powi(2);
        let inner_distance = (u - ic - 0.5).powi(2) + (v - ir - 0.5).powi(2);
        if inner_distance < outer_distance {
            inner_index(ic as usize, ir as usize)
        } else {
            outer_index(oc as usize, or as usize)
        }
    }

    /// The height at world (`x`, `y`) on the triangles the client draws
    /// (`None` outside the chunk, edges included). Holes are not looked at:
    /// see [`Holes::is_hole`].
    pub fn height_at(&self, x: f64, y: f64) -> Option<f64> {
        let [u, v] = self.local(x, y)?;
        let (col, row) = ((u as usize).min(QUADS - 1), (v as usize).min(QUADS - 1));
        let (fu, fv) = (u - col as f64, v - row as f64);
        let nw = self.outer(col, row)?;
        let ne = self.outer(col + 1, row)?;
        let sw = self.outer(col, row + 1)?;
        let se = self.outer(col + 1, row + 1)?;
        let centre = self.inner(col, row)?;
        // The triangle on the nearest edge; (a, b): along that edge from its
        // first corner, and towards the centre (twice the distance from it).
        let edges = [
            (fv, fu, nw, ne),             // north: nw -> ne
            (1.0 - fu, fv, ne, se),       // east: ne -> se
            (1.0 - fv, 1.0 - fu, se, sw), // south: se -> sw
            (fu, 1.0 - fv, sw, nw),       // west: sw -> nw
        ];
        let (b, a, first, second) = edges
            .into_iter()
            .min_by(|p, q| p.0.total_cmp(&q.0))
            .unwrap_or((fv, fu, nw, ne));
        // Exact at the corners and the centre: a weight of 1 and two of 0.
        let (w_centre, w_second) = (2.0 * b, a - b);
        let w_first = 1.0 - w_centre - w_second;
        Some(w_first * first + w_second * second + w_centre * centre)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> ChunkGrid {
        let heights: Vec<f32> = (0..VERTICES).map(|i| (i * 7 % 23) as f32).collect();
        ChunkGrid::new([1000.0, -500.0, 10.0], &heights).unwrap()
    }

    #[test]
    fn indices_interleave() {
        // (column, row): the east end of the first row, the start of the second.
        assert_eq!(outer_index(8, 0), Some(8));
        assert_eq!(outer_index(0, 1), Some(17));
        assert_eq!(inner_index(0, 0), Some(9));
        assert_eq!(inner_index(7, 0), Some(16));
        assert_eq!(inner_index(0, 1), Some(26));
        assert_eq!(outer_index(8, 8), Some(144));
        assert_eq!(inner_index(7, 7), Some(135));
        assert_eq!(inner_index(8, 0), None);
        assert_eq!(outer_index(9, 0), None);
        // Each index's place is its (column, row).
        for (col, row) in (0..=8).flat_map(|r| (0..=8).map(move |c| (c, r))) {
            let i = outer_index(col, row).unwrap();
            assert_eq!(vertex_offset(i), Some([col as f64, row as f64]));
            if let Some(i) = inner_index(col, row) {
                assert_eq!(vertex_offset(i), Some([col as f64 + 0.5, row as f64 + 0.5]));
            }
        }
        assert_eq!(vertex_offset(9), Some([0.5, 0.5]));
        assert_eq!(vertex_offset(17), Some([0.0, 1.0]));
    }

    #[test]
    fn the_vertex_at_a_point_is_the_nearest() {
        let g = grid();
        for i in 0..VERTICES {
            let [x, y, _] = g.position(i).unwrap();
            assert_eq!(g.vertex_at(x, y), Some(i), "vertex {i}");
            // A little off towards the chunk's centre stays nearest to it.
            let centre = [g.origin[0], g.origin[1]].map(|c| c - 4.0 * UNIT_SIZE);
            let [dx, dy] = [centre[0] - x, centre[1] - y].map(|d| 0.3 * d.signum());
            assert_eq!(g.vertex_at(x + dx, y + dy), Some(i), "vertex {i}");
        }
        // The middle of a quad's north edge: closer to a corner than to the
        // centre only past a quarter quad; a third of the way it is the corner.
        let [x, y, _] = g.position(0).unwrap();
        assert_eq!(g.vertex_at(x, y - UNIT_SIZE / 3.0), Some(0));
        assert_eq!(
            g.vertex_at(x - UNIT_SIZE * 0.4, y - UNIT_SIZE * 0.4),
            Some(9)
        );
        assert_eq!(g.vertex_at(x + 1.0, y), None);
        assert_eq!(g.vertex_at(f64::NAN, y), None);
    }

    #[test]
    fn vertices_give_back_their_heights_and_edges_are_linear() {
        let g = grid();
        for i in 0..VERTICES {
            let [x, y, z] = g.position(i).unwrap();
            assert_eq!(g.height_at(x, y), Some(z), "vertex {i}");
        }
        // Halfway along the north edge of quad (0, 0): the mean of its corners.
        let [x, y, _] = g.position(0).unwrap();
        let mid = g.height_at(x, y - UNIT_SIZE / 2.0).unwrap();
        let expected = (g.outer(0, 0).unwrap() + g.outer(1, 0).unwrap()) / 2.0;
        assert!((mid - expected).abs() < 1e-9);
        assert_eq!(g.height_at(x + 0.1, y), None);
        assert_eq!(g.height_at(x + 0.005, y), g.outer(0, 0));
    }

    #[test]
    fn a_height_that_is_not_a_number_leaves_the_grid_out() {
        let heights = vec![1.0; VERTICES];
        assert!(ChunkGrid::new([0.0, 0.0, 5.0], &heights).is_some());
        assert!(ChunkGrid::new([0.0, 0.0, 5.0], &heights[1..]).is_none());
        assert!(ChunkGrid::new([0.0, 0.0, f32::INFINITY], &heights).is_none());
        assert!(ChunkGrid::new([f32::NAN, 0.0, 5.0], &heights).is_none());
        let mut one_nan = heights.clone();
        one_nan[77] = f32::NAN;
        assert!(ChunkGrid::new([0.0, 0.0, 5.0], &one_nan).is_none());
    }

    #[test]
    fn low_res_bits_cover_two_by_two_quads() {
        let holes = Holes::LowRes(0x8001);
        assert!(holes.is_hole(0, 0) && holes.is_hole(1, 1));
        assert!(!holes.is_hole(2, 0));
        assert!(holes.is_hole(7, 7) && holes.is_hole(6, 6) && !holes.is_hole(5, 7));
        let high = Holes::HighRes(1 << (8 * 2 + 5));
        assert!(high.is_hole(5, 2) && !high.is_hole(2, 5));
    }
}
