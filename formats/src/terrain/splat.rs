//! Splat maps: every texture layer's alpha map over the whole tile, and a
//! manifest of which texture each chunk's layer uses.
//!
//! Layer `n` of a tile is the `n`-th MCLY layer of every chunk, placed at the
//! chunk's 64 x 64 cell of a 1024 x 1024 map (north up, west left; see the
//! [module](super) docs). There is no limit of 4: as many maps as the chunk
//! with the most layers has. Layer 0 is the base texture and has no alpha map
//! (it is drawn fully under the others); a layer without `use_alpha_map`, or
//! a chunk without that layer, is 0 in the map. Since the same layer index
//! holds different textures in different chunks, the [`SplatManifest`] lists
//! each chunk's textures and flags.
//!
//! Alpha maps are decoded by [`Mcnk::alpha_maps`](crate::adt::mcnk::Mcnk::alpha_maps):
//! the bit depth comes from the WDT's `MPHD` flags, which the tile does not
//! hold.

use super::TerrainError;

use super::coords::{CHUNKS, ChunkCoord};
use crate::adt::Adt;
use crate::adt::alpha::{AlphaFormat, MAP_SIZE};
use crate::adt::mcnk::layer_flags;

/// Samples per side of a tile's splat map: 16 chunks of 64.
pub const SPLAT_SIDE: usize = CHUNKS as usize * MAP_SIZE;

/// One layer of one chunk, as the manifest lists it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LayerInfo {
    /// The layer's index in its chunk (which splat map holds its alpha).
    pub layer: usize,
    /// `textureId`: index into MTEX.
    pub texture_id: u32,
    /// The texture's path from MTEX (`None` if the index is past its end).
    pub texture: Option<String>,
    /// MCLY `flags` ([`layer_flags`]).
    pub flags: u32,
    /// `effectId` (0xFFFFFFFF for none).
    pub effect_id: u32,
    /// How the alpha map is stored (`None`: no alpha map, as for layer 0).
    pub alpha: Option<AlphaFormat>,
}

/// One chunk's layers.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChunkLayers {
    /// `IndexX`, `IndexY`.
    pub chunk: ChunkCoord,
    /// Its MCLY layers, in order.
    pub layers: Vec<LayerInfo>,
}

/// What each splat map of a tile means, chunk by chunk.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplatManifest {
    /// Splat maps (one per layer index, layer 0's included though it is empty).
    pub layer_count: usize,
    /// Samples per side of each map.
    pub side: usize,
    /// The WDT `MPHD` flags the alpha maps were decoded with.
    pub mphd_flags: u32,
    /// Every MTEX texture, in order.
    pub textures: Vec<String>,
    /// Every chunk's layers, in file order.
    pub chunks: Vec<ChunkLayers>,
}

/// A tile's splat maps and their manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct TileSplat {
    /// One map per layer index, [`SPLAT_SIDE`] squared values row by row.
    pub maps: Vec<Vec<u8>>,
    /// What they mean.
    pub manifest: SplatManifest,
}

impl TileSplat {
    /// The splat maps of `adt`, decoded with the map's `mphd_flags`.
    pub fn from_adt(adt: &Adt, mphd_flags: u32) -> Result<TileSplat, TerrainError> {
        let names = adt.mtex();
        let textures = names.map(|m| m.names()).unwrap_or_default();
        let mut chunks = Vec::new();
        let mut maps: Vec<Vec<u8>> = Vec::new();
        for (index, mcnk) in adt.mcnks().enumerate() {
            let coord = ChunkCoord::new(mcnk.index_x, mcnk.index_y)
                .ok_or(TerrainError::ChunkIndex { index })?;
            let layers = mcnk.layers().map(|m| &m.layers[..]).unwrap_or_default();
            if maps.len() < layers.len() {
                maps.resize_with(layers.len(), || vec![0; SPLAT_SIDE * SPLAT_SIDE]);
            }
            let alpha = mcnk
                .alpha_maps(mphd_flags)
                .map_err(|e| e.in_field("MCAL").at_index(index))?;
            for (layer, map) in alpha {
                let Some(target) = maps.get_mut(layer) else {
                    continue;
                };
                for (y, row) in map.values.chunks_exact(MAP_SIZE).enumerate() {
                    let at = (coord.y as usize * MAP_SIZE + y) * SPLAT_SIDE
                        + coord.x as usize * MAP_SIZE;
                    if let Some(out) = target.get_mut(at..at + MAP_SIZE) {
                        out.copy_from_slice(row);
                    }
                }
            }
            let layers = layers
                .iter()
                .enumerate()
                .map(|(layer, l)| LayerInfo {
                    layer,
                    texture_id: l.texture_id,
                    texture: usize::try_from(l.texture_id)
                        .ok()
                        .and_then(|i| textures.get(i).cloned()),
                    flags: l.flags,
                    effect_id: l.effect_id,
                    alpha: (l.flags & layer_flags::USE_ALPHA_MAP != 0)
                        .then(|| AlphaFormat::for_layer(l.flags, mphd_flags)),
                })
                .collect();
            chunks.push(ChunkLayers {
                chunk: coord,
                layers,
            });
        }
        Ok(TileSplat {
            manifest: SplatManifest {
                layer_count: maps.len(),
                side: SPLAT_SIDE,
                mphd_flags,
                textures,
                chunks,
            },
            maps,
        })
    }
}
