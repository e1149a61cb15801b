//! `formats::gltf::export_tile` on every corpus tile, read back with the
//! `gltf` crate (an independent reader): counts against the file itself
//! (145 vertices and 256 triangles per chunk less 4 per hole quad from the
//! MCNK hole bits, MCCV bytes, two triangles per MH2O quad its exists-mask
//! marks, a node per MDDF and MODF entry named by MMDX/MWMO), and every
//! placement node's transform in the scene against the placement's world
//! matrix turned Y up.

#![cfg(all(feature = "gltf", feature = "terrain"))]

use crate::common;

use formats::adt::Adt;
use formats::adt::mcnk::flags as mcnk_flags;
use formats::anim::glam::{DMat4, DQuat, DVec3, Mat4};
use formats::gltf::export_tile;
use formats::terrain::{
    Placement, PlacementKind, TerrainTile, TileMesh, placements, world_to_gltf,
};
use gltf::mesh::Semantic;

fn tiles() -> Vec<(String, Adt)> {
    common::corpus_tiles()
}

/// The name at MMID/MWID index `id` in MMDX/MWMO, read from the tables here.
fn model_name(adt: &Adt, map_object: bool, id: u32) -> String {
    let (names, ids) = if map_object {
        (adt.mwmo().unwrap(), adt.mwid().unwrap())
    } else {
        (adt.mmdx().unwrap(), adt.mmid().unwrap())
    };
    let name = names.name_at(ids.offsets[id as usize]).unwrap();
    String::from_utf8_lossy(name).into_owned()
}

fn extras(node: &gltf::Node<'_>) -> serde_json::Value {
    serde_json::from_str(node.extras().as_ref().unwrap().get()).unwrap()
}

fn children_named<'a>(node: &gltf::Node<'a>, name: &str) -> Vec<gltf::Node<'a>> {
    node.children()
        .find(|c| c.name() == Some(name))
        .map(|group| group.children().collect())
        .unwrap_or_default()
}

#[test]
fn the_world_to_gltf_turn_is_the_root_rotation_of_models() {
    let turn = DQuat::from_array(common::Z_UP_TO_Y_UP.map(f64::from));
    let w = [1234.5, -678.25, 91.0];
    let turned = turn * DVec3::from_array(w);
    // (The f32 quaternion is unit to 1e-7.)
    assert!(turned.abs_diff_eq(DVec3::from_array(world_to_gltf(w)), 1e-3));
    // North is +x, up +y, east +z.
    assert_eq!(world_to_gltf([1.0, 0.0, 0.0]), [1.0, 0.0, 0.0]);
    assert_eq!(world_to_gltf([0.0, 0.0, 1.0]), [0.0, 1.0, 0.0]);
    assert_eq!(world_to_gltf([0.0, -1.0, 0.0]), [0.0, 0.0, 1.0]);
}

#[test]
fn every_tile_reads_back_with_its_chunks_holes_colours_liquids_and_placements() {
    let (mut tiles_checked, mut with_colours, mut with_liquids, mut placed) = (0, 0, 0, 0);
    for (path, adt) in tiles() {
        let stem = std::path::Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let exported = export_tile(&adt, &stem).unwrap();
        let glb = exported.document.to_glb().unwrap();
        let gltf::Gltf { document, blob } = gltf::Gltf::from_slice(&glb).unwrap();
        let blob = blob.unwrap();
        let scene = document.default_scene().unwrap();
        let root = scene.nodes().next().unwrap();
        assert_eq!(root.name(), Some(stem.as_str()));
        let tile = TerrainTile::from_adt(&adt).unwrap();
        assert_eq!(exported.terrain, tile, "{path}: the terrain exported");
        assert_eq!(extras(&root)["tileX"], tile.coord.x, "{path}");
        assert_eq!(extras(&root)["tileY"], tile.coord.y, "{path}");
        let (_, rotation, _) = root.transform().decomposed();
        assert_eq!(rotation, common::Z_UP_TO_Y_UP);

        // The terrain: 145 vertices and 256 triangles per chunk, 4 fewer per
        // hole quad; the hole bits counted here from the MCNK headers (the
        // corpus has only low-resolution holes: each bit is 2x2 quads).
        let terrain = root
            .children()
            .find(|n| n.name() == Some("terrain"))
            .unwrap();
        let mesh = terrain.mesh().unwrap();
        assert_eq!(mesh.primitives().count(), 1);
        let primitive = mesh.primitives().next().unwrap();
        let reader = primitive.reader(|_| Some(&blob[..]));
        let chunks = adt.mcnks().filter(|m| m.heights().is_some()).count();
        let hole_quads: usize = adt
            .mcnks()
            .map(|m| {
                assert_eq!(m.flags & mcnk_flags::HIGH_RES_HOLES, 0, "{path}");
                4 * m.holes_low_res.count_ones() as usize
            })
            .sum();
        let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
        assert_eq!(positions.len(), 145 * chunks, "{path}");
        let indices: Vec<u32> = reader.read_indices().unwrap().into_u32().collect();
        assert_eq!(indices.len() / 3, 256 * chunks - 4 * hole_quads, "{path}");
        assert_eq!(
            (exported.vertices, exported.triangles, exported.hole_quads),
            (positions.len(), indices.len() / 3, hole_quads)
        );
        // Positions are the world-space vertices; normals unit MCNR.
        let ours = TileMesh::from_tile(&tile);
        assert!(
            positions
                .iter()
                .zip(&ours.positions)
                .all(|(p, w)| *p == w.map(|c| c as f32)),
            "{path}"
        );
        for n in reader.read_normals().unwrap() {
            let length = n.iter().map(|c| c * c).sum::<f32>().sqrt();
            assert!((length - 1.0).abs() < 1e-5, "{path}");
        }
        // TEXCOORD_0 runs 0..1 over the tile, TEXCOORD_1 0..16.
        let splat: Vec<[f32; 2]> = reader.read_tex_coords(0).unwrap().into_f32().collect();
        let tiling: Vec<[f32; 2]> = reader.read_tex_coords(1).unwrap().into_f32().collect();
        assert_eq!(splat.len(), positions.len());
        assert!(splat.iter().flatten().all(|v| (0.0..=1.0).contains(v)));
        assert_eq!((splat[0], splat[splat.len() - 1]), ([0.0, 0.0], [1.0, 1.0]));
        assert_eq!(tiling[tiling.len() - 1], [16.0, 16.0]);

        // MCCV: COLOR_0 where any chunk has it; `_MCCV` the bytes themselves.
        let mccv: Vec<[u8; 4]> = adt
            .mcnks()
            .flat_map(|m| {
                let entries = m.chunks.iter().find_map(|c| match c {
                    formats::adt::mcnk::McnkChunk::Mccv(m) => Some(m.entries),
                    _ => None,
                });
                (0..145).map(move |i| {
                    entries.map_or([0x7f, 0x7f, 0x7f, 0xff], |e| {
                        [e[i].red, e[i].green, e[i].blue, e[i].alpha]
                    })
                })
            })
            .collect();
        let has_mccv = adt.mcnks().any(|m| m.flags & mcnk_flags::HAS_MCCV != 0);
        assert_eq!(reader.read_colors(0).is_some(), has_mccv, "{path}");
        if let Some(colors) = reader.read_colors(0) {
            with_colours += 1;
            let raw = primitive
                .attributes()
                .find(|(s, _)| *s == Semantic::Extras("MCCV".into()))
                .map(|(_, a)| a)
                .unwrap();
            let raw: Vec<[u8; 4]> = gltf::accessor::Iter::new(raw, |_| Some(&blob[..]))
                .unwrap()
                .collect();
            assert_eq!(raw, mccv, "{path}");
            for (rgb, bytes) in colors.into_rgb_f32().zip(&mccv) {
                for (c, b) in rgb.iter().zip(bytes) {
                    assert!((c - (f32::from(*b) / 127.0).min(1.0)).abs() < 1e-6);
                }
            }
        }

        // Liquids: two triangles per MH2O quad its exists-mask marks and
        // per MCLQ tile without bit 0x08 (0x0F), one primitive per liquid type
        // (MCLQ's from the MCNK flags: river 1, ocean 2, magma 3, slime 4).
        let mclq: Vec<(u16, &formats::adt::mcnk::MclqLayer)> = adt
            .mcnks()
            .flat_map(|mcnk| {
                let ids = [(0x4, 1u16), (0x8, 2), (0x10, 3), (0x20, 4)]
                    .into_iter()
                    .filter(move |(flag, _)| mcnk.flags & flag != 0)
                    .map(|(_, id)| id);
                let layers = mcnk.chunks.iter().flat_map(|c| match c {
                    formats::adt::mcnk::McnkChunk::Mclq(m) => &m.layers[..],
                    _ => &[],
                });
                ids.zip(layers)
            })
            .collect();
        let mclq_wet: usize = mclq
            .iter()
            .map(|(_, l)| l.tiles.iter().flatten().filter(|t| **t & 0x08 == 0).count())
            .sum();
        let wet: usize = mclq_wet
            + adt.mh2o().map_or(0, |m| {
                m.chunks
                    .iter()
                    .flat_map(|c| &c.instances)
                    .map(|i| {
                        let (w, h) = i.dimensions();
                        (0..w * h).filter(|q| i.exists(q % w, q / w)).count()
                    })
                    .sum()
            });
        let instances = adt.mh2o().map_or(0, |m| {
            m.chunks.iter().map(|c| c.instances.len()).sum::<usize>()
        });
        assert_eq!(exported.liquid_instances, instances + mclq.len(), "{path}");
        let liquids = root.children().find(|n| n.name() == Some("liquids"));
        assert_eq!(liquids.is_some(), wet > 0, "{path}");
        if let Some(node) = liquids {
            with_liquids += 1;
            let mut triangles = 0;
            let mut types = Vec::new();
            for primitive in node.mesh().unwrap().primitives() {
                let reader = primitive.reader(|_| Some(&blob[..]));
                triangles += reader.read_indices().unwrap().into_u32().count() / 3;
                types.push(primitive.material().name().unwrap().to_string());
            }
            assert_eq!(triangles, 2 * wet, "{path}");
            assert_eq!(triangles, exported.liquid_triangles);
            let mut expected: Vec<String> = adt
                .mh2o()
                .iter()
                .flat_map(|m| &m.chunks)
                .flat_map(|c| &c.instances)
                .map(|i| i.liquid_type)
                .chain(mclq.iter().map(|(id, _)| *id))
                .map(|id| format!("liquid type {id}"))
                .collect();
            expected.sort();
            expected.dedup();
            assert_eq!(types, expected, "{path}");
        }

        // Placements: a node per MDDF and MODF entry, in order, named by the
        // model, at the placement's world transform turned Y up.
        let doodads = children_named(&root, "doodads");
        let objects = children_named(&root, "map objects");
        let mddf = adt.mddf().map_or(&[][..], |m| &m.doodad_defs[..]);
        let modf = adt.modf().map_or(&[][..], |m| &m.map_obj_defs[..]);
        assert_eq!(
            (doodads.len(), objects.len()),
            (mddf.len(), modf.len()),
            "{path}"
        );
        let turn = DMat4::from_quat(DQuat::from_array(common::Z_UP_TO_Y_UP.map(f64::from)));
        let all = placements(&adt);
        let (placed_doodads, placed_objects): (Vec<&Placement>, Vec<&Placement>) =
            all.iter().partition(|p| p.kind == PlacementKind::Doodad);
        for (map_object, nodes, list) in [
            (false, &doodads, &placed_doodads),
            (true, &objects, &placed_objects),
        ] {
            for (i, (node, placement)) in nodes.iter().zip(list.iter()).enumerate() {
                assert_eq!(placement.index, i);
                let (name_id, unique_id) = if map_object {
                    (modf[i].name_id, modf[i].unique_id)
                } else {
                    (mddf[i].name_id, mddf[i].unique_id)
                };
                let name = model_name(&adt, map_object, name_id);
                assert_eq!(node.name(), Some(name.as_str()), "{path}");
                let extras = extras(node);
                assert_eq!(extras["uniqueId"], unique_id, "{path}");
                assert_eq!(extras.get("bounds").is_some(), map_object, "{path}");
                check_transform(&path, node, placement, turn);
                placed += 1;
            }
        }
        tiles_checked += 1;
    }
    if tiles_checked > 0 {
        assert_eq!(tiles_checked, 12);
        // ADT_MANIFEST: MCCV in Northrend, Aeven and the cataclysmctf files
        // (30_27 twice: in adt/ and in the map folder); MH2O liquid in
        // Gilneas, Aeven, Kalimdor, Northrend and continent4229, MCLQ
        // ocean in pvpzone3430.
        assert_eq!((with_colours, with_liquids), (7, 6));
        assert!(placed > 3000, "{placed}");
    }
}

/// The node's transform in the scene (under the root; the group nodes have
/// none) is the placement's world matrix between the root's turns,
/// `R0 · P · R0⁻¹`: a Y-up glTF asset put under it is turned Z up, placed,
/// and turned Y up with the rest of the scene.
fn check_transform(path: &str, node: &gltf::Node<'_>, placement: &Placement, turn: DMat4) {
    let local = Mat4::from_cols_array_2d(&node.transform().matrix());
    let scene = turn * local.as_dmat4();
    let expected = turn * DMat4::from_cols_array_2d(&placement.matrix()) * turn.inverse();
    // f32 in glTF: translations up to 17066 yards are good to 0.002.
    let [a, b] = [scene, expected].map(|m| m.w_axis.truncate());
    assert!(a.abs_diff_eq(b, 4e-3), "{path}: {a} vs {b}");
    for axis in 0..3 {
        let [a, b] = [scene, expected].map(|m| m.col(axis).truncate());
        assert!(
            a.abs_diff_eq(b, 1e-5 * (1.0 + b.length())),
            "{path}: {a} vs {b}"
        );
    }
    // The model's origin lands at the placement's position in glTF space.
    let origin = scene.transform_point3(DVec3::ZERO);
    let want = DVec3::from_array(world_to_gltf(placement.position));
    assert!(origin.abs_diff_eq(want, 4e-3), "{path}");
}

#[test]
fn high_res_holes_cut_single_quads_through_the_file_and_the_export() {
    let Some(bytes) = common::corpus_file("maps/cataclysmctf/cataclysmctf_30_27.adt") else {
        return;
    };
    let mut adt = Adt::from_bytes(&bytes).unwrap();
    // Chunk 0: the flag and an 8x8 map with a diagonal and one corner quad;
    // the low-res bits, now not looked at, say something else.
    let bits: u64 = (0..8).map(|i| 1u64 << (9 * i)).sum::<u64>() | 1 << 7;
    let mcnk = adt.mcnks_mut().next().unwrap();
    mcnk.flags |= mcnk_flags::HIGH_RES_HOLES;
    mcnk.holes_high_res = Some(bits);
    mcnk.holes_low_res = 0xffff;
    let adt = Adt::from_bytes(&adt.to_bytes().unwrap()).unwrap();
    let tile = TerrainTile::from_adt(&adt).unwrap();
    let chunk = &tile.chunks[0];
    for row in 0..8 {
        for col in 0..8 {
            let hole = row == col || (row, col) == (0, 7);
            assert_eq!(chunk.is_hole(col, row), hole, "({col}, {row})");
        }
    }
    let exported = export_tile(&adt, "holes").unwrap();
    assert_eq!(exported.hole_quads, 9);
    assert_eq!(exported.triangles, 256 * 256 - 4 * 9);
    let (_, indices) = common::glb_terrain(&exported.document.to_glb().unwrap());
    assert_eq!(indices.len(), 3 * (256 * 256 - 4 * 9));
    // No triangle of chunk 0 is around the centre of a hole quad.
    for t in indices.chunks_exact(3) {
        let centre = t[0] as usize;
        if centre < 145 && centre % 17 >= 9 {
            let (row, col) = (centre / 17, centre % 17 - 9);
            assert!(!chunk.is_hole(col, row), "({col}, {row})");
        }
    }
}
