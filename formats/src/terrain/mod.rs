//! Terrain made usable: ADT tiles as height grids, normals, holes, liquids and
//! placements in world coordinates, and the pieces exporters need (full
//! resolution heightmaps, splat maps, whole maps from a WDT).
//!
//! [`adt`](crate::adt) reads and writes tiles byte-exact and shows them as the
//! file has them (145 raw floats per MCVT, MDDF records in their own axes);
//! this module turns them into geometry.
//!
//! # Axes and units (used everywhere in this module)
//!
//! **World space** is the client's: right-handed, in yards, **X north, Y west,
//! Z up**, the map's centre at the origin. The map is 64 x 64 **tiles**
//! ([`TILE_SIZE`] = 1600/3 yards, about 533.33), a tile 16 x 16 **chunks**
//! ([`CHUNK_SIZE`] = `TILE_SIZE / 16`, about 33.33), a chunk 8 x 8 **quads**
//! ([`UNIT_SIZE`] = `CHUNK_SIZE / 8`, about 4.17). The map's north-west corner
//! is at X = Y = [`MAP_HALF`] = 32 · `TILE_SIZE` = 17066.666…
//!
//! **Tile and chunk indices** count from that north-west corner: a tile file
//! `Map_x_y.adt` has column `x` (growing east, world Y falling) and row `y`
//! (growing south, world X falling). The same holds for an MCNK's `IndexX`
//! (column) and `IndexY` (row) inside its tile, for the 9 x 9 outer and
//! 8 x 8 inner MCVT vertices inside a chunk, and for the pixels of every image
//! made here: north is up and west is left. So a tile's north-west corner is
//!
//! ```text
//! X = MAP_HALF - y · TILE_SIZE        Y = MAP_HALF - x · TILE_SIZE
//! ```
//!
//! and `MCNK.position` is the world X, Y of its chunk's north-west corner
//! (its Z is the base the MCVT heights are added to).
//!
//! **Two indices are always (column, row)**, `x` before `y`, as in
//! [`TileCoord`] and [`ChunkCoord`]: the outer and inner MCVT vertices
//! ([`ChunkGrid::outer`]`(col, row)`, [`ChunkGrid::inner`], [`outer_index`],
//! [`inner_index`]), quads and holes ([`Holes::is_hole`]`(col, row)`,
//! [`ChunkTerrain::is_hole`], [`ChunkGrid::quad_at`]), liquid vertices and
//! quads ([`LiquidGrid::position`]`(col, row)`, [`LiquidGrid::exists`]) and
//! image samples ([`Heightmap::get`]`(px, py)`). Column 0 is the west edge,
//! row 0 the north one.
//!
//! **Placement space** is what MDDF and MODF store positions in (and
//! their bounding boxes): `[MAP_HALF - Y, Z, MAP_HALF - X]`, i.e. east, up,
//! south from the map's north-west corner (Y up). [`file_to_world`] and
//! [`world_to_file`] convert. **glTF space** (Y up, right-handed, as
//! `formats export` writes tiles) is world space turned -90° about X, the
//! turn a model's root node makes too: `(X, Z, -Y)` ([`world_to_gltf`]).
//!
//! World coordinates are `f64` here: a file's `f32` position converted to
//! world space and back is then exactly the `f32` it was (the test
//! `adt_terrain` checks this for every doodad of the corpus).
//!
//! ```
//! use formats::terrain::{TileCoord, MAP_HALF, TILE_SIZE};
//!
//! let tile = TileCoord::new(32, 31).unwrap();
//! let bounds = tile.bounds();
//! // Tile 32_31 is the one just north-east of the map's centre... its south
//! // edge is the equator (X = 0) and its west edge the meridian (Y = 0).
//! assert!((bounds.min_x - 0.0).abs() < 1e-9 && (bounds.max_y - 0.0).abs() < 1e-9);
//! assert_eq!(TileCoord::at(100.0, -100.0), Some(tile));
//! assert_eq!(tile.file_name("Azeroth"), "Azeroth_32_31.adt");
//! assert!((MAP_HALF - 32.0 * TILE_SIZE).abs() < 1e-9);
//! ```

pub mod coords;
mod error;
pub mod grid;
pub mod heightmap;
pub mod liquid;
pub mod map;
pub mod mesh;
pub mod placement;
pub mod splat;
pub mod tile;

pub use coords::{
    CHUNK_SIZE, CHUNKS, ChunkCoord, MAP_HALF, TILE_SIZE, TILES, TileCoord, UNIT_SIZE, WorldRect,
    file_to_world, world_to_file,
};
pub use error::TerrainError;
pub use grid::{ChunkGrid, Holes, QUADS, VERTICES, inner_index, outer_index};
pub use heightmap::{
    HEIGHTMAP_SIDE, HeightRange, Heightmap, Seams, Stitched, TileEdges, common_range, share_seams,
};
pub use liquid::{LiquidGrid, LiquidSource, MCLQ_LIQUID_TYPES, liquids};
pub use map::{
    MapTile, SPLIT_PARTS, locate_tiles, map_name, map_tiles, split_parts, with_split_parts,
};
pub use mesh::{LiquidMesh, TileMesh, world_to_gltf};
pub use placement::{Placement, PlacementKind, placements};
pub use splat::{SPLAT_SIDE, SplatManifest, TileSplat};
pub use tile::{ChunkTerrain, TerrainTile, unit_normal};
