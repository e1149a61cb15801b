//! A terrain tile as a glTF document, built on the document builder from
//! the geometry of [`crate::terrain`]; what it holds is in the
//! [`gltf`](crate::gltf#what-a-tile-becomes) docs.

use gltf_json as json;
use json::Index;
use json::mesh::Semantic;

use glam::DQuat;

use super::builder::{Builder, Document, triangles};
use super::error::ExportError;
use super::model::nodes::Z_UP_TO_Y_UP;
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
fn placement_name(p: &Placement) -> String {
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
fn placement_node(b: &mut Builder, p: &Placement) -> Result<Index<json::Node>, ExportError> {
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
fn raw(value: &serde_json::Value) -> Result<Box<json::extras::RawValue>, ExportError> {
    serde_json::value::to_raw_value(value).map_err(ExportError::Json)
}

/// `adt` as a glTF document whose root node is named `name` (see the
/// [`gltf`](crate::gltf#what-a-tile-becomes) docs); an error
/// ([`ExportError::Tile`]) if the tile has no MCNK or lies off the map.
/// The tile alone: its edges' heights are its own ([`TileMesh::from_tile`]).
pub fn export_tile(adt: &Adt, name: &str) -> Result<TileExport, ExportError> {
    let terrain = TerrainTile::from_adt(adt).map_err(ExportError::Tile)?;
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
pub fn export_tile_in(adt: &Adt, name: &str, seams: &Seams) -> Result<TileExport, ExportError> {
    let terrain = TerrainTile::from_adt(adt).map_err(ExportError::Tile)?;
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
) -> Result<TileExport, ExportError> {
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
        Ok::<usize, ExportError>(count)
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
