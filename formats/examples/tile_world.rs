//! Prints where a tile's glTF export should put things in world space, as
//! JSON: every terrain mesh vertex a triangle uses and every placement's model-to-world
//! matrix (Z up, yards: `formats::terrain`'s axes). `testkit/harness/blender/run.sh`
//! compares it with what Blender's glTF importer shows, Blender being Z up.
//!
//! ```sh
//! cargo run --release -p formats --example tile_world -- TILE.adt
//! ```
//!
//! Output: `{"vertices": [[x, y, z], ...], "placements": [{"name": ...,
//! "matrix": [16 numbers, column-major]}, ...]}`.

use formats::adt::Adt;
use formats::terrain::{TerrainTile, TileMesh, placements};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, path] = &args[..] else {
        return Err("usage: tile_world TILE.adt".into());
    };
    let adt = Adt::from_bytes(&std::fs::read(path)?)?;
    let mesh = TileMesh::from_tile(&TerrainTile::from_adt(&adt)?);
    let placed: Vec<serde_json::Value> = placements(&adt)
        .iter()
        .map(|p| {
            serde_json::json!({
                "name": p.model.clone().unwrap_or_default(),
                "matrix": p.matrix().iter().flatten().collect::<Vec<_>>(),
            })
        })
        .collect();
    // The vertices triangles use (those of holes alone are in no triangle,
    // and importers need not keep them).
    let mut used = vec![false; mesh.positions.len()];
    for &i in &mesh.indices {
        if let Some(u) = used.get_mut(i as usize) {
            *u = true;
        }
    }
    let vertices: Vec<[f64; 3]> = mesh
        .positions
        .iter()
        .zip(&used)
        .filter_map(|(p, &u)| u.then_some(*p))
        .collect();
    let out = serde_json::json!({ "vertices": vertices, "placements": placed });
    println!("{out}");
    Ok(())
}
