//! `formats export TILE.adt OUT.glb|.gltf`: [`formats::gltf::export_tile`]
//! (or [`export_tile_in`] for a tile exported with its neighbours), the root
//! node named as the file; and the tile's heightmap, for the overview of a
//! map exported whole. A tile whose file name names another tile than its
//! chunks' positions is exported where its chunks are, with a warning. A
//! Cataclysm+ root file is exported with the `_tex0` and `_obj0` files beside
//! it ([`with_split_parts`]): without them it has no doodads or map objects.

use std::path::Path;

use formats::gltf::{export_tile, export_tile_in};
use formats::terrain::{Seams, with_split_parts};

use super::Written;
use crate::plural;
use crate::terrain::TileHeights;

/// Exports the tile in `data` (read from `input`) to `output`, its edges
/// shared with the tiles of `seams` (`None`: alone); its heights are kept
/// every `thumbnail_step` samples for a map's overview.
pub fn export(
    input: &Path,
    data: &[u8],
    output: &Path,
    thumbnail_step: usize,
    seams: Option<&Seams>,
) -> Result<Written, String> {
    let name = input.display().to_string();
    let (adt, lenient) = crate::terrain::read_adt(&name, data)?;
    let (adt, parts) = with_split_parts(adt, input).map_err(|e| format!("{name}: {e}"))?;
    let stem = crate::file_stem(input, "tile");
    let exported = match seams {
        Some(seams) => export_tile_in(&adt, &stem, seams),
        None => export_tile(&adt, &stem),
    }
    .map_err(|e| crate::terrain::with_note(format!("{name}: {e}"), lenient.as_deref()))?;
    let out = super::write_document(&exported.document, output)?;
    let checks = [
        crate::terrain::checks::chunks_without_heights(&name, &adt, &exported.terrain, "left out"),
        crate::terrain::checks::misplaced_chunks(&name, &exported.terrain),
        crate::terrain::checks::liquids_not_finite(&name, &adt, exported.terrain.coord),
        crate::terrain::checks::misnamed(input, exported.terrain.coord),
    ];
    let warnings: Vec<String> = lenient
        .into_iter()
        .chain(checks.into_iter().flatten())
        .collect();
    let colours = if exported.vertex_colors {
        ", vertex colours"
    } else {
        ""
    };
    let tile = exported.terrain.coord;
    let parts = crate::terrain::merged_parts(&parts);
    // For a map's overview: the heights the export's mesh has.
    let heights = TileHeights::new(tile, &exported.heights, thumbnail_step);
    Ok(Written {
        heights: Some(heights),
        line: format!(
            "{name}{parts} -> {out}: tile {}_{}, {} vertices, {} triangles ({} hole quads){colours}, \
             {} liquid triangles, {}, {}",
            tile.x,
            tile.y,
            exported.vertices,
            exported.triangles,
            exported.hole_quads,
            exported.liquid_triangles,
            plural(exported.doodads, "doodad"),
            plural(exported.map_objects, "map object")
        ),
        warnings,
    })
}
