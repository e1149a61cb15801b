//! A terrain tile as a glTF document (features `gltf` and `terrain`): the
//! tile's mesh, its liquids, and a node per doodad and map object placement,
//! built on [`Builder`] from the geometry of [`crate::terrain`].
//!
//! # Axes
//!
//! Meshes and placements are in world space ([`crate::terrain`]: yards, X
//! north, Y west, Z up, the map's centre at the origin), under a root node
//! that turns Z up into glTF's Y up with the same -90° about X as a model's
//! root node ([`Z_UP_TO_Y_UP`]). So glTF (x, y, z) is world (X, Z, -Y)
//! ([`world_to_gltf`](crate::terrain::world_to_gltf)): north is +x, up +y,
//! east +z. Tiles exported one by one line up with each other.
//!
//! A placement node holds a glTF asset as glTF holds any: Y up. Its
//! transform is the placement's world transform between two turns,
//! `R0 · P · R0⁻¹` in the scene (`R0` the root's turn, `P` the placement's
//! [`matrix`](Placement::matrix)): a model converted to glTF the usual way
//! (Z up turned Y up, as this crate's model export and other converters of
//! M2 and WMO do), put under the node as it is, stands where the game puts
//! it. Importers that turn glTF's Y up back into Z up (Blender's) show the
//! tile at its world coordinates and each placement's empty at exactly
//! `P`, so a model imported there the same way and parented to it (or
//! given its transform) stands in place (`testkit/harness/blender/run.sh`
//! measures both on three corpus tiles).
//!
//! # What a tile becomes
//!
//! - The root node, named as the tile, and under it:
//! - `terrain`, mesh `terrain`: every chunk's 145 MCVT vertices, chunk
//!   after chunk in file order, and 256 triangles per chunk (4 per quad,
//!   counter-clockwise from above: the front face is up), none in holes
//!   ([`TileMesh`]; X and Y on the map's grid, so neighbouring tiles meet
//!   without cracks; tiles exported together, [`export_tile_in`], share their
//!   edges' heights to the bit, while a tile exported alone keeps its own,
//!   which may be a bit off its neighbour's). `NORMAL` is MCNR, `TEXCOORD_0` runs 0..1 over the tile
//!   (east, south: the splat maps of `formats render --splat`),
//!   `TEXCOORD_1` one unit per chunk (for textures that repeat). Where any
//!   chunk has MCCV, `COLOR_0` is its colour as the multiplier the client
//!   makes of it, value / 127 (0x7F is 1.0), **clamped to 1.0**: glTF holds
//!   colours in 0..1, while the client brightens up to about 2x (0xFF), so
//!   every value above 0x7F is 1.0 there. The application-specific
//!   attribute `_MCCV` keeps the values unscaled and unclamped (unsigned
//!   bytes, 0x7F meaning 1.0, 0xFF about 2.0) but **reordered** to `[r, g,
//!   b, a]`, the order of `COLOR_0`: the file stores each entry as blue,
//!   green, red, alpha. Chunks without MCCV are 0x7F (alpha 0xFF).
//! - `liquids`, mesh `liquids` (where MH2O or MCLQ has a liquid quad): one
//!   primitive per liquid type with a material named `liquid type N` (the
//!   `LiquidType` id; MCLQ's river, ocean, magma and slime flags are ids 1 to
//!   4), two triangles per quad the instance's exists-mask (MCLQ: its tiles)
//!   marks ([`LiquidMesh`], [`liquids`]).
//! - `doodads` and `map objects`: one node per MDDF and per MODF entry, in
//!   file order, named by the model's file name (`FileDataID N` for a doodad
//!   that names its model by id; `doodad 3 (nameId 7)` where the name cannot
//!   be resolved), its translation, rotation and scale the placement's world
//!   transform ([`Placement`]), its `extras` the record's `uniqueId`,
//!   `nameId`, `flags` and, for map objects, `bounds` (world space, `[min,
//!   max]`). A map object that spans tiles is in each of their MODFs, with one
//!   `uniqueId`. The models themselves are not in the file.
//!
//! The root's `extras` hold the tile's `tileX` and `tileY`.
//!
//! ```no_run
//! use formats::adt::Adt;
//! use formats::gltf::terrain::export_tile;
//!
//! let adt = Adt::from_bytes(&std::fs::read("Azeroth_32_48.adt")?)?;
//! let exported = export_tile(&adt, "Azeroth_32_48")?;
//! std::fs::write("Azeroth_32_48.glb", exported.document.to_glb()?)?;
//! println!("{} triangles, {} doodads", exported.triangles, exported.doodads);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use format_core::Error;
use gltf_json as json;
use json::Index;
use json::mesh::Semantic;

use glam::DQuat;

use super::model::nodes::Z_UP_TO_Y_UP;
use super::{Builder, Document, builder::triangles};
use crate::adt::Adt;
use crate::terrain::{
    ChunkCoord, ChunkTerrain, Heightmap, LiquidGrid, LiquidMesh, Placement, PlacementKind, QUADS,
    Seams, TerrainTile, TileCoord, TileMesh, liquids, placements,
};

/// An exported tile and what is in it.
#[derive(Debug)]
pub struct TileExport {
    /// The glTF document, to write as `.glb` or `.gltf`.
    pub document: Document,
    /// The terrain the document was made from: which tile it is (from its
    /// MCNK positions) and its chunks, for what else a caller draws of the
    /// tile without reading it again.
    pub terrain: TerrainTile,
    /// The tile's heightmap, its edges shared with the tiles exported with
    /// it (see [`export_tile_in`]): the heights of the mesh's edges.
    pub heights: Heightmap,
    /// Chunks with heights (145 vertices each).
    pub chunks: usize,
    /// Terrain vertices.
    pub vertices: usize,
    /// Terrain triangles.
    pub triangles: usize,
    /// Quads left out as holes.
    pub hole_quads: usize,
    /// Whether the terrain has vertex colours (MCCV).
    pub vertex_colors: bool,
    /// Liquid grids: MH2O instances and MCLQ layers.
    pub liquid_instances: usize,
    /// Liquid triangles.
    pub liquid_triangles: usize,
    /// Doodad (MDDF) nodes.
    pub doodads: usize,
    /// Map object (MODF) nodes.
    pub map_objects: usize,
}

/// f64 world values as the f32 glTF stores.
fn narrow<const N: usize>(values: &[[f64; N]]) -> Vec<[f32; N]> {
    values.iter().map(|v| v.map(|c| c as f32)).collect()
}

/// A node holding `children` (none if there are none).
fn group(
    b: &mut Builder,
    name: &str,
    children: Vec<Index<json::Node>>,
) -> Option<Index<json::Node>> {
    (!children.is_empty()).then(|| {
        b.push(json::Node {
            name: Some(name.to_string()),
            children: Some(children),
            ..Default::default()
        })
    })
}

/// The terrain mesh's node (`None` without a triangle).
fn terrain_node(b: &mut Builder, mesh: &TileMesh) -> Option<Index<json::Node>> {
    if mesh.indices.is_empty() {
        return None;
    }
    let mut attributes = vec![
        (
            Semantic::Positions,
            b.vertex_attribute(&narrow(&mesh.positions)),
        ),
        (Semantic::Normals, b.vertex_attribute(&mesh.normals)),
        (Semantic::TexCoords(0), b.vertex_attribute(&mesh.splat_uv)),
        (Semantic::TexCoords(1), b.vertex_attribute(&mesh.tile_uv)),
    ];
    if let Some(colors) = &mesh.colors {
        let multipliers: Vec<[f32; 3]> = colors
            .iter()
            .map(|[r, g, b, _]| [*r, *g, *b].map(|c| (f32::from(c) / 127.0).min(1.0)))
            .collect();
        attributes.push((Semantic::Colors(0), b.vertex_attribute(&multipliers)));
        attributes.push((Semantic::Extras("MCCV".into()), b.vertex_attribute(colors)));
    }
    let indices = b.indices(&mesh.indices);
    let mesh = b.triangle_mesh("terrain", attributes, Some(indices), None);
    Some(b.push(json::Node {
        name: Some("terrain".into()),
        mesh: Some(mesh),
        ..Default::default()
    }))
}

/// The liquids' node: one primitive per liquid type (`None` without a
/// liquid triangle); and the number of triangles. `grids` are sorted by
/// liquid type here.
fn liquid_node(
    b: &mut Builder,
    tile: TileCoord,
    grids: &mut [LiquidGrid],
) -> (Option<Index<json::Node>>, usize) {
    // Stable: each type's grids stay in file order.
    grids.sort_by_key(|g| g.liquid_type);
    let mut primitives = Vec::new();
    let mut triangle_count = 0;
    for grids in grids.chunk_by(|a, b| a.liquid_type == b.liquid_type) {
        let liquid_type = grids.first().map_or(0, |g| g.liquid_type);
        let mesh = LiquidMesh::from_grids(tile, grids);
        if mesh.indices.is_empty() {
            continue;
        }
        triangle_count += mesh.indices.len() / 3;
        let positions = b.vertex_attribute(&narrow(&mesh.positions));
        let uv = b.vertex_attribute(&mesh.splat_uv);
        let indices = b.indices(&mesh.indices);
        let material = b.push(json::Material {
            name: Some(format!("liquid type {liquid_type}")),
            double_sided: true,
            ..Default::default()
        });
        primitives.push(triangles(
            [
                (Semantic::Positions, positions),
                (Semantic::TexCoords(0), uv),
            ],
            Some(indices),
            Some(material),
        ));
    }
    if primitives.is_empty() {
        return (None, 0);
    }
    let mesh = b.push(json::Mesh {
        extensions: None,
        extras: Default::default(),
        name: Some("liquids".into()),
        primitives,
        weights: None,
    });
    let node = b.push(json::Node {
        name: Some("liquids".into()),
        mesh: Some(mesh),
        ..Default::default()
    });
    (Some(node), triangle_count)
}

/// The name a placement's node takes: its model's file name, or what
/// identifies it when there is none.
pub fn placement_name(p: &Placement) -> String {
    match &p.model {
        Some(model) => model.clone(),
        None if p.names_file_data_id() => format!("FileDataID {}", p.name_id),
        None => {
            let kind = match p.kind {
                PlacementKind::Doodad => "doodad",
                PlacementKind::MapObject => "map object",
            };
            format!("{kind} {} (nameId {})", p.index, p.name_id)
        }
    }
}

/// A placement's node at its world transform (none, and `"transform":
/// "not finite"` in its extras, where the file's numbers are NaN or infinite).
fn placement_node(b: &mut Builder, p: &Placement) -> Result<Index<json::Node>, Error> {
    let translation = p.position.map(|c| c as f32);
    // Under the root's turn R0: R0 · P · R0⁻¹ in the scene (see the module
    // docs); P's scale is uniform, so only the rotation changes.
    let turn = DQuat::from_array(Z_UP_TO_Y_UP.map(f64::from));
    let rotation = (DQuat::from_array(p.quaternion()) * turn.conjugate()).normalize();
    let [x, y, z, w] = rotation.to_array().map(|c| c as f32);
    let scale = p.scale as f32;
    let finite = [x, y, z, w, scale]
        .iter()
        .chain(&translation)
        .all(|c| c.is_finite());
    let mut extras = serde_json::json!({
        "uniqueId": p.unique_id,
        "nameId": p.name_id,
        "flags": p.flags,
    });
    if let Some(map) = extras.as_object_mut() {
        if let Some(bounds) = p
            .bounds
            .filter(|b| b.iter().flatten().all(|c| c.is_finite()))
        {
            map.insert("bounds".into(), serde_json::json!(bounds));
        }
        if !finite {
            map.insert("transform".into(), "not finite".into());
        }
    }
    Ok(b.push(json::Node {
        name: Some(placement_name(p)),
        translation: finite.then_some(translation),
        rotation: finite.then_some(json::scene::UnitQuaternion([x, y, z, w])),
        scale: (finite && scale != 1.0).then_some([scale; 3]),
        extras: Some(raw(&extras)?),
        ..Default::default()
    }))
}

/// A JSON value as glTF `extras`.
fn raw(value: &serde_json::Value) -> Result<Box<json::extras::RawValue>, Error> {
    serde_json::value::to_raw_value(value).map_err(|e| Error::other(format!("glTF extras: {e}")))
}

/// `adt` as a glTF document whose root node is named `name` (see the
/// [module](self) docs); an error if the tile has no MCNK or lies off the map.
/// The tile alone: its edges' heights are its own ([`TileMesh::from_tile`]).
pub fn export_tile(adt: &Adt, name: &str) -> Result<TileExport, Error> {
    let terrain = TerrainTile::from_adt(adt)?;
    let heights = Heightmap::from_tile(&terrain);
    // `TileMesh::from_tile`, from the heightmap already made.
    let mesh = TileMesh::with_edges(&terrain, &heights);
    tile_document(adt, name, terrain, heights, &mesh)
}

/// `adt` as [`export_tile`] makes it, as one of a set of tiles exported
/// together (a map) whose edges `seams` holds: the vertices on its edges
/// take the heights its heightmap shares with its neighbours
/// ([`Seams::share`], [`TileMesh::with_edges`]), so that the meshes of
/// neighbouring tiles meet at the same `f32` heights.
pub fn export_tile_in(adt: &Adt, name: &str, seams: &Seams) -> Result<TileExport, Error> {
    let terrain = TerrainTile::from_adt(adt)?;
    let mut heights = Heightmap::from_tile(&terrain);
    seams.share(terrain.coord, &mut heights);
    let mesh = TileMesh::with_edges(&terrain, &heights);
    tile_document(adt, name, terrain, heights, &mesh)
}

/// The document of `terrain` (read from `adt`) with `mesh` as its terrain.
fn tile_document(
    adt: &Adt,
    name: &str,
    terrain: TerrainTile,
    heights: Heightmap,
    mesh: &TileMesh,
) -> Result<TileExport, Error> {
    let mut grids = liquids(adt, terrain.coord);
    let all = placements(adt);
    let mut b = Builder::new(concat!("formats ", env!("CARGO_PKG_VERSION")));
    let mut children: Vec<Index<json::Node>> = Vec::new();
    children.extend(terrain_node(&mut b, mesh));
    let (liquid, liquid_triangles) = liquid_node(&mut b, terrain.coord, &mut grids);
    children.extend(liquid);
    let mut placed = |b: &mut Builder, kind, group_name| {
        let nodes = all
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| placement_node(b, p))
            .collect::<Result<Vec<_>, _>>()?;
        let count = nodes.len();
        children.extend(group(b, group_name, nodes));
        Ok::<usize, Error>(count)
    };
    let doodads = placed(&mut b, PlacementKind::Doodad, "doodads")?;
    let map_objects = placed(&mut b, PlacementKind::MapObject, "map objects")?;
    let root = b.push(json::Node {
        name: Some(name.to_string()),
        rotation: Some(json::scene::UnitQuaternion(Z_UP_TO_Y_UP)),
        children: (!children.is_empty()).then_some(children),
        extras: Some(raw(&serde_json::json!({
            "tileX": terrain.coord.x,
            "tileY": terrain.coord.y,
        }))?),
        ..Default::default()
    });
    let in_mesh =
        |c: &&ChunkTerrain| c.grid.is_some() && ChunkCoord::new(c.coord.x, c.coord.y).is_some();
    let chunks = terrain.chunks.iter().filter(in_mesh).count();
    let hole_quads = terrain
        .chunks
        .iter()
        .filter(in_mesh)
        .map(|c| {
            (0..QUADS * QUADS)
                .filter(|q| c.is_hole(q % QUADS, q / QUADS))
                .count()
        })
        .sum();
    Ok(TileExport {
        document: b.finish(vec![root]),
        chunks,
        vertices: mesh.positions.len(),
        triangles: mesh.triangle_count(),
        hole_quads,
        vertex_colors: mesh.colors.is_some(),
        liquid_instances: grids.len(),
        liquid_triangles,
        doodads,
        map_objects,
        terrain,
        heights,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adt::placement::{SMDoodadDef, mddf_flags};

    fn doodad(def: SMDoodadDef) -> Placement {
        Placement::from_doodad(3, &def)
    }

    #[test]
    fn placements_without_a_model_name_say_what_they_are() {
        let mut p = doodad(SMDoodadDef {
            name_id: 7,
            ..Default::default()
        });
        assert_eq!(placement_name(&p), "doodad 3 (nameId 7)");
        p.flags = mddf_flags::ENTRY_IS_FILEDATA_ID;
        assert_eq!(placement_name(&p), "FileDataID 7");
        p.model = Some("World\\tree.m2".into());
        assert_eq!(placement_name(&p), "World\\tree.m2");
    }

    #[test]
    fn a_placement_with_nan_in_the_file_gets_no_transform() {
        let mut b = Builder::new("test");
        let good = doodad(SMDoodadDef {
            position: [100.0, 5.0, 200.0],
            scale: 2048,
            ..Default::default()
        });
        let bad = doodad(SMDoodadDef {
            position: [f32::NAN, 5.0, 200.0],
            ..Default::default()
        });
        let [good, bad] = [good, bad].map(|p| placement_node(&mut b, &p).unwrap());
        let nodes = &b.root().nodes;
        let (good, bad) = (&nodes[good.value()], &nodes[bad.value()]);
        assert_eq!(good.scale, Some([2.0; 3]));
        assert!(good.translation.is_some() && good.rotation.is_some());
        assert!(bad.translation.is_none() && bad.rotation.is_none() && bad.scale.is_none());
        let extras = bad.extras.as_ref().unwrap().get();
        assert!(extras.contains("\"transform\":\"not finite\""), "{extras}");
        // The document stays valid JSON without nulls in transforms.
        let json = String::from_utf8(b.finish(vec![]).to_gltf("t").unwrap().json).unwrap();
        assert!(!json.contains("null"), "{json}");
    }
}
