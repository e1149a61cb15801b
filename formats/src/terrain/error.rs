//! Why a tile's terrain, splat maps or split parts could not be read.

use std::path::PathBuf;

/// Why [`TerrainTile::from_adt`](super::TerrainTile::from_adt),
/// [`TileSplat::from_adt`](super::TileSplat::from_adt) or
/// [`with_split_parts`](super::with_split_parts) failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TerrainError {
    /// The tile has no `MCNK`, so nothing says where it is.
    #[error("the tile has no MCNK")]
    NoChunks,
    /// The first `MCNK`'s position, less its indices, is off the map.
    #[error("MCNK position ({x}, {y}) is off the map")]
    OffMap {
        /// The position's X, in yards.
        x: f64,
        /// Its Y.
        y: f64,
    },
    /// An `MCNK`'s indices are past the tile's 16 by 16 chunks.
    #[error("MCNK {index}: index past 16 x 16")]
    ChunkIndex {
        /// The chunk's place in the file.
        index: usize,
    },
    /// A chunk's data did not parse (its path names the chunk, as
    /// `[3].MCAL`).
    #[error("{0}")]
    Parse(#[from] format_core::Error),
    /// A split part beside the root could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The part's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A split part beside the root did not parse.
    #[error("{}: {source}", path.display())]
    Part {
        /// The part's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: format_core::Error,
    },
}
