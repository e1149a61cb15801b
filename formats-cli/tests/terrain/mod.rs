//! Terrain: tile meshes and liquids, maps of tiles.

pub(crate) mod maps;
pub(crate) mod splat_layers;
