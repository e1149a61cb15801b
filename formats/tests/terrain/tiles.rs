//! `formats::terrain` on real tiles: positions against file names, heights at
//! vertices, holes against their bits, normals against slopes, placements
//! against the spec's matrix and the ground they stand on.

use crate::common;

use formats::adt::Adt;
use formats::adt::placement::SMDoodadDef;
use formats::terrain::grid::vertex_offset;
use formats::terrain::{
    ChunkCoord, Holes, LiquidMesh, LiquidSource, MCLQ_LIQUID_TYPES, PlacementKind, TerrainTile,
    TileCoord, TileMesh, UNIT_SIZE, VERTICES, file_to_world, inner_index, liquids, placements,
    world_to_file,
};
use glam::{DMat4, DVec3};

/// Every corpus tile with its name (`adt/…` and `maps/cataclysmctf/…`).
fn tiles() -> Vec<(String, Adt)> {
    common::corpus_tiles()
}

/// The tile a corpus file is: from its `_x_y` name, or for the two wowser
/// fixtures from ADT_MANIFEST.md ("tile 42_29", "tile 34_30").
fn named_tile(path: &str) -> TileCoord {
    TileCoord::from_file_name(path).unwrap_or_else(|| match path {
        "adt/wowserfmt_continent4229.adt" => TileCoord::new(42, 29).unwrap(),
        "adt/wowserfmt_pvpzone3430.adt" => TileCoord::new(34, 30).unwrap(),
        other => panic!("{other}: no tile in the name"),
    })
}

#[test]
fn tile_names_agree_with_mcnk_positions() {
    let all = tiles();
    for (path, adt) in &all {
        let tile = TerrainTile::from_adt(adt).unwrap();
        assert_eq!(tile.coord, named_tile(path), "{path}");
        assert_eq!(tile.chunks.len(), 256, "{path}");
        assert!(tile.misplaced_chunks().is_empty(), "{path}");
        for chunk in &tile.chunks {
            let grid = chunk.grid.as_ref().unwrap();
            // The chunk's centre is in this tile, in this chunk.
            let (x, y) = (grid.origin[0] - 1.0, grid.origin[1] - 1.0);
            assert_eq!(
                ChunkCoord::at(x, y),
                Some((tile.coord, chunk.coord)),
                "{path}"
            );
        }
    }
    assert!(all.len() >= 12 || all.is_empty(), "the corpus has 12 tiles");
}

#[test]
fn a_height_at_each_vertex_position_is_that_vertex() {
    for (path, adt) in tiles() {
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let mut checked = 0;
        for chunk in &tile.chunks {
            let grid = chunk.grid.as_ref().unwrap();
            for i in 0..VERTICES {
                let [x, y, z] = grid.position(i).unwrap();
                assert_eq!(
                    grid.height_at(x, y),
                    Some(z),
                    "{path} {:?} vertex {i}",
                    chunk.coord
                );
                // Through the tile: the same where the tile picks this chunk
                // (the north-west corner rows; the others are the neighbour's).
                let [col, row] = vertex_offset(i).unwrap();
                if col < 8.0 && row < 8.0 {
                    assert_eq!(tile.height_at(x, y), Some(z), "{path} vertex {i}");
                    checked += 1;
                }
                // Between vertices, on the triangles: within the quad's range.
                if col < 8.0 && row < 8.0 && col.fract() == 0.0 && row.fract() == 0.0 {
                    let (px, py) = (x - 0.3 * UNIT_SIZE, y - 0.6 * UNIT_SIZE);
                    let h = tile.height_at(px, py).unwrap();
                    let (c, r) = (col as usize, row as usize);
                    let corners = [
                        grid.outer(c, r),
                        grid.outer(c + 1, r),
                        grid.outer(c, r + 1),
                        grid.outer(c + 1, r + 1),
                        grid.inner(c, r),
                    ]
                    .map(Option::unwrap);
                    let lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    assert!(
                        lo - 1e-9 <= h && h <= hi + 1e-9,
                        "{path}: {h} not in {lo}..{hi}"
                    );
                }
            }
        }
        assert_eq!(checked, 256 * (64 + 64), "{path}");
    }
}

/// A chunk's `(IndexX, IndexY)` and its low-resolution hole bits.
type ChunkHoles = ((u32, u32), u16);

/// The chunks with holes, and their hole bits, of the corpus tiles that
/// have any (ADT_MANIFEST, and the MCNK headers' bytes).
const HOLES: [(&str, &[ChunkHoles]); 2] = [
    ("adt/wowserfmt_continent4229.adt", &[((11, 7), 0xa000)]),
    (
        "maps/cataclysmctf/cataclysmctf_31_27.adt",
        &[((8, 15), 0x8000), ((9, 15), 0xffff), ((10, 15), 0x1100)],
    ),
];

/// Every chunk's holes against its MCNK header as the file has it, read here
/// from the bytes (not through the ADT reader): `flags` at 0 (bit 0x10000:
/// high-resolution holes, which no corpus chunk has), `IndexX`, `IndexY` at
/// 4 and 8, the 4 x 4 hole bits at 0x3C of the 128-byte header.
#[test]
fn holes_agree_with_the_bits() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let mut hole_quads = Vec::new();
    for (path, adt) in tiles() {
        let bytes = std::fs::read(root.join(&path)).unwrap();
        let headers: Vec<&[u8]> = common::raw_chunks(&bytes)
            .into_iter()
            .filter(|(tag, _)| tag == b"MCNK")
            .map(|(_, chunk)| &chunk[8..8 + 128])
            .collect();
        assert_eq!(headers.len(), 256, "{path}");
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let (mut with_holes, mut quads) = (Vec::new(), 0);
        for (chunk, header) in tile.chunks.iter().zip(&headers) {
            let index = (common::le_u32(header, 4), common::le_u32(header, 8));
            assert_eq!((chunk.coord.x, chunk.coord.y), index, "{path}");
            assert_eq!(common::le_u32(header, 0) & 0x10000, 0, "{path}: high-res");
            let bits = common::le_u16(header, 0x3c);
            assert_eq!(chunk.holes, Holes::LowRes(bits), "{path} {index:?}");
            if bits != 0 {
                with_holes.push((index, bits));
            }
            // Each set bit of the 4x4 map, and only those, makes 2x2 quads holes.
            let mut expected = [[false; 8]; 8];
            for bit in 0..16 {
                if bits >> bit & 1 == 1 {
                    let (col, row) = (2 * (bit % 4), 2 * (bit / 4));
                    for (dc, dr) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        expected[row + dr][col + dc] = true;
                    }
                }
            }
            let grid = chunk.grid.as_ref().unwrap();
            for (row, expected_row) in expected.iter().enumerate() {
                for (col, &hole) in expected_row.iter().enumerate() {
                    assert_eq!(chunk.is_hole(col, row), hole, "{path} {index:?}");
                    // The quad's centre, through world coordinates.
                    let [x, y, _] = grid.position(inner_index(col, row).unwrap()).unwrap();
                    assert_eq!(tile.is_hole_at(x, y), hole, "{path} {index:?}");
                    quads += usize::from(hole);
                }
            }
        }
        let listed = HOLES
            .iter()
            .find(|(tile, _)| *tile == path)
            .map_or(&[][..], |(_, chunks)| chunks);
        assert_eq!(with_holes, listed, "{path}");
        hole_quads.push((path, quads));
    }
    // continent4229: one chunk, 2 bits (8 quads, as its export reports);
    // 31_27: 1 + 16 + 2 bits; every other tile none.
    let with_quads: Vec<_> = hole_quads.iter().filter(|(_, q)| *q > 0).collect();
    assert_eq!(
        with_quads,
        [
            &("adt/wowserfmt_continent4229.adt".to_string(), 8),
            &("maps/cataclysmctf/cataclysmctf_31_27.adt".to_string(), 76),
        ]
    );
    assert_eq!(hole_quads.len(), 12, "the corpus has 12 tiles");
}

/// The share of sloped inner vertices whose normal, read with `map`, points
/// within ~18° of the height grid's own normal there.
fn normal_agreement(tile: &TerrainTile, map: impl Fn([f32; 3]) -> [f32; 3]) -> Option<f64> {
    let (mut good, mut sloped) = (0, 0);
    for chunk in &tile.chunks {
        let (grid, normals) = (chunk.grid.as_ref()?, chunk.normals.as_ref()?);
        for row in 0..8 {
            for col in 0..8 {
                let h = |c, r| grid.outer(c, r).unwrap();
                // X is north (rows go south), Y is west (columns go east).
                let dx = (h(col, row) + h(col + 1, row) - h(col, row + 1) - h(col + 1, row + 1))
                    / (2.0 * UNIT_SIZE);
                let dy = (h(col, row) + h(col, row + 1) - h(col + 1, row) - h(col + 1, row + 1))
                    / (2.0 * UNIT_SIZE);
                let length = (dx * dx + dy * dy + 1.0).sqrt();
                if length < 1.05 {
                    continue; // too flat to tell axes apart
                }
                let n = map(normals[inner_index(col, row).unwrap()]).map(f64::from);
                let dot = (-dx * n[0] - dy * n[1] + n[2]) / length;
                sloped += 1;
                good += usize::from(dot > 0.95);
            }
        }
    }
    (sloped > 100).then(|| good as f64 / sloped as f64)
}

#[test]
fn mcnr_normals_are_unit_and_follow_the_slopes_in_world_axes() {
    let mut agreements = Vec::new();
    for (path, adt) in tiles() {
        let tile = TerrainTile::from_adt(&adt).unwrap();
        for n in tile.chunks.iter().flat_map(|c| c.normals.iter().flatten()) {
            let length = n.iter().map(|c| c * c).sum::<f32>().sqrt();
            assert!((length - 1.0).abs() < 1e-5, "{path}");
        }
        let Some(as_read) = normal_agreement(&tile, |n| n) else {
            continue; // a flat tile
        };
        // Read as the spec's "X, Z, Y", or with X or Y negated, they agree less.
        for other in [
            normal_agreement(&tile, |[a, b, c]| [a, c, b]).unwrap(),
            normal_agreement(&tile, |[a, b, c]| [-a, b, c]).unwrap(),
            normal_agreement(&tile, |[a, b, c]| [a, -b, c]).unwrap(),
            normal_agreement(&tile, |[a, b, c]| [b, a, c]).unwrap(),
        ] {
            assert!(as_read > other + 0.2, "{path}: {as_read} vs {other}");
        }
        agreements.push((path, as_read));
    }
    // Blizzard's own tiles agree almost everywhere (converted ones less).
    for (path, share) in &agreements {
        if path.contains("continent") || path.contains("Northrend") || path.contains("Azeroth") {
            assert!(*share > 0.99, "{path}: {share}");
        }
    }
}

/// The spec's gl-matrix recipe for the placement matrix, step by step.
fn spec_matrix(position: [f32; 3], rotation: [f32; 3], scale: f64) -> DMat4 {
    let tile = 533.333333333_f64;
    let p = position.map(f64::from);
    let r = rotation.map(f64::from);
    let pos = DVec3::new(32.0 * tile - p[0], p[1], 32.0 * tile - p[2]);
    DMat4::from_rotation_x(90f64.to_radians())
        * DMat4::from_rotation_y(90f64.to_radians())
        * DMat4::from_translation(pos)
        * DMat4::from_rotation_y((r[1] - 270.0).to_radians())
        * DMat4::from_rotation_z((-r[0]).to_radians())
        * DMat4::from_rotation_x((r[2] - 90.0).to_radians())
        * DMat4::from_scale(DVec3::splat(scale))
}

#[test]
fn placements_match_the_spec_matrix_and_round_trip() {
    let mut doodads = 0;
    for (path, adt) in tiles() {
        let defs: &[SMDoodadDef] = adt.mddf().map(|m| &m.doodad_defs[..]).unwrap_or_default();
        let all = placements(&adt);
        for p in &all {
            let (file_position, rotation) = match p.kind {
                PlacementKind::Doodad => {
                    let def = &defs[p.index];
                    assert_eq!(p.scale, f64::from(def.scale) / 1024.0);
                    assert_eq!(p.file_scale(), def.scale);
                    doodads += 1;
                    (def.position, def.rotation)
                }
                PlacementKind::MapObject => {
                    let def = &adt.modf().unwrap().map_obj_defs[p.index];
                    // The box holds the WMO's origin across; in height, the
                    // origin may be a little below the geometry (a tower in
                    // cataclysmctf_31_27: 0.27 yards).
                    let [min, max] = p.bounds.unwrap();
                    for axis in 0..2 {
                        assert!(min[axis] <= p.position[axis] && p.position[axis] <= max[axis]);
                    }
                    assert!(min[2] - 1.0 <= p.position[2] && p.position[2] <= max[2]);
                    (def.position, def.rotation)
                }
            };
            // world -> file -> world, exactly.
            assert_eq!(p.file_position(), file_position, "{path}");
            assert_eq!(
                file_to_world(world_to_file(p.position)),
                p.position,
                "{path}"
            );
            let ours = DMat4::from_cols_array_2d(&p.matrix());
            let spec = spec_matrix(file_position, rotation, p.scale);
            // The spec's TILESIZE has 12 digits: its map centre is 5e-6 yards off.
            assert!(
                ours.abs_diff_eq(spec, 1e-4),
                "{path} {}: {ours} vs {spec}",
                p.index
            );
            let q = p.quaternion();
            assert!((q.iter().map(|c| c * c).sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(p.model.as_deref().is_some_and(|m| !m.is_empty()), "{path}");
        }
        // Doodads stand on the ground: most within 2 yards of the terrain.
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let (mut inside, mut grounded) = (0, 0);
        for p in all.iter().filter(|p| p.kind == PlacementKind::Doodad) {
            if let Some(h) = tile.height_at(p.position[0], p.position[1]) {
                inside += 1;
                grounded += usize::from((h - p.position[2]).abs() < 2.0);
            }
        }
        if inside >= 50 {
            assert!(
                grounded * 100 >= inside * 85,
                "{path}: {grounded} of {inside}"
            );
        }
    }
    assert!(doodads == 0 || doodads > 3000, "{doodads}");
}

#[test]
fn mh2o_instances_are_world_grids_over_their_chunks() {
    let mut instances = 0;
    for (path, adt) in tiles() {
        let Some(mh2o) = adt.mh2o() else { continue };
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let grids: Vec<_> = liquids(&adt, tile.coord)
            .into_iter()
            .filter(|g| matches!(g.source, LiquidSource::Mh2o { .. }))
            .collect();
        let expected: usize = mh2o.chunks.iter().map(|c| c.instances.len()).sum();
        assert_eq!(grids.len(), expected, "{path}");
        let mut covering = 0;
        for grid in &grids {
            let instance = &mh2o.chunks[grid.chunk.index()].instances[grid.layer];
            let bounds = grid.chunk.bounds(tile.coord);
            let mut above_ground = false;
            for row in 0..=grid.height {
                for col in 0..=grid.width {
                    let [x, y, z] = grid.position(col, row).unwrap();
                    assert!(bounds.contains(x, y), "{path} {:?}", grid.chunk);
                    // The instance's range holds the vertices of its liquid
                    // quads (others may lie outside it, by 0.014 in Northrend).
                    let wet = [(0, 0), (1, 0), (0, 1), (1, 1)]
                        .iter()
                        .any(|(dc, dr)| grid.exists(col.wrapping_sub(*dc), row.wrapping_sub(*dr)));
                    if wet {
                        let (lo, hi) = (instance.min_height_level, instance.max_height_level);
                        assert!(
                            f64::from(lo) - 1e-3 <= z && z <= f64::from(hi) + 1e-3,
                            "{path}"
                        );
                        above_ground |= z >= tile.height_at(x, y).unwrap();
                    }
                }
            }
            for row in 0..grid.height {
                for col in 0..grid.width {
                    assert_eq!(grid.exists(col, row), instance.exists(col, row), "{path}");
                }
            }
            covering += usize::from(above_ground);
        }
        // Liquid lies over the ground it is drawn on: water is above the
        // terrain somewhere in (nearly) every instance.
        assert!(
            covering * 10 >= grids.len() * 9,
            "{path}: {covering} of {}",
            grids.len()
        );
        instances += grids.len();
    }
    assert!(instances == 0 || instances > 700, "{instances}");
}

#[test]
fn mclq_layers_are_world_grids_over_their_chunks() {
    use formats::adt::mcnk::McnkChunk;
    // The count at the end is the corpus's: without it, nothing to count.
    let Some(_) = common::corpus_root() else {
        return;
    };
    let mut layers = 0;
    for (path, adt) in tiles() {
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let grids: Vec<_> = liquids(&adt, tile.coord)
            .into_iter()
            .filter(|g| matches!(g.source, LiquidSource::Mclq { .. }))
            .collect();
        let mut next = grids.iter();
        for (i, mcnk) in adt.mcnks().enumerate() {
            let set: Vec<(u32, u16)> = MCLQ_LIQUID_TYPES
                .into_iter()
                .filter(|(flag, _)| mcnk.flags & flag != 0)
                .collect();
            let mclq = mcnk.chunks.iter().find_map(|c| match c {
                McnkChunk::Mclq(m) => Some(m),
                _ => None,
            });
            let Some(mclq) = mclq else { continue };
            // Real files have one layer per liquid flag.
            assert_eq!(mclq.layers.len(), set.len(), "{path} chunk {i}");
            for (n, (layer, (flag, id))) in mclq.layers.iter().zip(&set).enumerate() {
                let grid = next.next().expect("a grid per layer");
                // The MCNK's chunk (its indices say, as its terrain's).
                let chunk = ChunkCoord::new(mcnk.index_x, mcnk.index_y).unwrap();
                assert_eq!((grid.chunk, grid.layer), (chunk, n), "{path}");
                assert_eq!(grid.source, LiquidSource::Mclq { flag: *flag });
                assert_eq!(grid.liquid_type, *id);
                assert_eq!((grid.width, grid.height), (8, 8));
                // The grid's corners are its chunk's.
                let bounds = chunk.bounds(tile.coord);
                let [nw_x, nw_y, _] = grid.position(0, 0).unwrap();
                let [se_x, se_y, _] = grid.position(8, 8).unwrap();
                assert!((nw_x - bounds.max_x).abs() < 1e-9 && (nw_y - bounds.max_y).abs() < 1e-9);
                assert!((se_x - bounds.min_x).abs() < 1e-9 && (se_y - bounds.min_y).abs() < 1e-9);
                // Heights lie in the layer's range; quads are wet where the
                // tile lacks bit 0x08 (the seed: "0x0f or 0x8 mean don't
                // render"; the corpus has 0x0F and ocean 0xC1).
                for row in 0..=8 {
                    for col in 0..=8 {
                        let z = grid.position(col, row).unwrap()[2];
                        let [lo, hi] = layer.height.map(f64::from);
                        assert!(lo <= z && z <= hi, "{path}: {z} outside {lo}..{hi}");
                    }
                }
                for row in 0..8 {
                    for col in 0..8 {
                        let wet = layer.tiles[row][col] & 0x08 == 0;
                        assert_eq!(grid.exists(col, row), wet, "{path}");
                    }
                }
                layers += 1;
            }
        }
        assert!(next.next().is_none(), "{path}: a grid without a layer");
    }
    // wowserfmt_pvpzone3430.adt: 16 ocean layers along its east edge.
    assert_eq!(layers, 16);
}

#[test]
fn tile_meshes_have_145_vertices_and_256_upward_triangles_per_chunk_less_holes() {
    let Some(_) = common::corpus_root() else {
        return;
    };
    let mut shared_edge_heights_moved = 0;
    for (path, adt) in tiles() {
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let mesh = TileMesh::from_tile(&tile);
        assert_eq!(mesh.positions.len(), 256 * 145, "{path}");
        let hole_quads: usize = tile
            .chunks
            .iter()
            .map(|c| (0..64).filter(|q| c.is_hole(q % 8, q / 8)).count())
            .sum();
        assert_eq!(mesh.triangle_count(), 256 * 256 - 4 * hole_quads, "{path}");
        let mut along = 0;
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] =
                [t[0], t[1], t[2]].map(|i| DVec3::from_array(mesh.positions[i as usize]));
            let face = (b - a).cross(c - a);
            // Counter-clockwise seen from above: the face points up, and
            // (nearly everywhere: converted tiles' normals stray) along its
            // centre vertex's normal.
            assert!(face.z > 0.0, "{path}");
            let n = DVec3::from_array(mesh.normals[t[0] as usize].map(f64::from));
            along += usize::from(face.normalize().dot(n) > 0.5);
        }
        assert!(along * 100 >= mesh.triangle_count() * 95, "{path}: {along}");
        // The splat UVs run 0..1 over the tile, corner to corner.
        let (first, last) = (mesh.splat_uv[0], mesh.splat_uv[256 * 145 - 1]);
        assert_eq!((first, last), ([0.0, 0.0], [1.0, 1.0]), "{path}");
        assert_eq!(mesh.tile_uv[256 * 145 - 1], [16.0, 16.0]);
        let colors = adt.mcnks().any(|m| m.flags & 0x40 != 0);
        assert_eq!(
            mesh.colors.is_some(),
            colors,
            "{path}: MCCV where the flag says"
        );
        // The mesh's vertices are the grid's: on the map's grid within a
        // centimetre of where the MCNK positions put them, at the grid's
        // heights, but for a vertex on a chunk's edge, which takes the `f32`
        // height of the chunk whose west or north edge it is (its own on
        // the tile's east and south edges).
        // Every corpus tile's chunks are in row order, (x, y) = (c % 16, c / 16).
        let grid_of = |cx: usize, cy: usize| tile.chunks[cy * 16 + cx].grid.as_ref().unwrap();
        let mut moved = 0;
        for (c, chunk) in tile.chunks.iter().enumerate() {
            assert_eq!(
                (chunk.coord.x, chunk.coord.y),
                (c as u32 % 16, c as u32 / 16)
            );
            let grid = chunk.grid.as_ref().unwrap();
            for i in 0..VERTICES {
                let [x, y, z] = mesh.positions[c * 145 + i];
                let [gx, gy, gz] = grid.position(i).unwrap();
                assert!((x - gx).abs() < 0.01 && (y - gy).abs() < 0.01, "{path}");
                // Row and column of an outer vertex (17 per pair of rows).
                let (row, col) = (i / 17, i % 17);
                let (cx, cy) = (c % 16, c / 16);
                let east = col == 8 && cx < 15;
                let south = row == 8 && cy < 15;
                let owner = match (east, south) {
                    (true, true) => grid_of(cx + 1, cy + 1).outer(0, 0),
                    (true, false) => grid_of(cx + 1, cy).outer(0, row),
                    (false, true) => grid_of(cx, cy + 1).outer(col, 0),
                    (false, false) => None,
                };
                let on_edge = i % 17 < 9 && (row % 8 == 0 || col % 8 == 0);
                let expected = match owner.or(on_edge.then_some(gz)) {
                    Some(h) => f64::from(h as f32),
                    None => gz,
                };
                assert_eq!(z, expected, "{path}: chunk {c}, vertex {i}");
                moved += usize::from(z.to_bits() != f64::from(gz as f32).to_bits() && on_edge);
            }
        }
        // Chunks that share an edge share its vertices to the bit: the east
        // edge of each chunk is the west edge of the next, its south edge the
        // north edge of the one below (X, Y and the height: the grids' own
        // sums differ in the last bits at some of them).
        let at = |cx: usize, cy: usize, row: usize, col: usize| {
            mesh.positions[(cy * 16 + cx) * 145 + row * 17 + col]
        };
        for cy in 0..16 {
            for cx in 0..15 {
                for row in 0..9 {
                    let (a, b) = (at(cx, cy, row, 8), at(cx + 1, cy, row, 0));
                    assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{path}");
                    let (a, b) = (at(cy, cx, 8, row), at(cy, cx + 1, 0, row));
                    assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{path}");
                }
            }
        }
        println!("{path}: {moved} vertices on chunk edges take their neighbour's height");
        shared_edge_heights_moved += moved;
    }
    // The corpus tiles' own sums do differ at some shared vertices.
    assert!(shared_edge_heights_moved > 0);
}

#[test]
fn liquid_meshes_have_two_triangles_per_wet_quad() {
    for (path, adt) in tiles() {
        let tile = TerrainTile::from_adt(&adt).unwrap();
        let grids = liquids(&adt, tile.coord);
        let mesh = LiquidMesh::from_grids(tile.coord, &grids);
        let wet: usize = grids
            .iter()
            .map(|g| g.exists.iter().filter(|e| **e).count())
            .sum();
        assert_eq!(mesh.indices.len(), 6 * wet, "{path}");
        let vertices: usize = grids.iter().map(|g| (g.width + 1) * (g.height + 1)).sum();
        assert_eq!(mesh.positions.len(), vertices, "{path}");
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] =
                [t[0], t[1], t[2]].map(|i| DVec3::from_array(mesh.positions[i as usize]));
            assert!((b - a).cross(c - a).z > 0.0, "{path}");
        }
        assert!(
            mesh.splat_uv
                .iter()
                .flatten()
                .all(|v| (0.0..=1.0).contains(v)),
            "{path}"
        );
    }
}
