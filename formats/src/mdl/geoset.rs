//! `Geoset { ... }` (vertices, normals, UV sets, faces, matrix groups,
//! extents, and the Reforged `Tangents`, `SkinWeights`, `LevelOfDetail`,
//! `Name`), and the tracks of `GeosetAnim`, whose block is derived from its
//! definition (`mdx::GeosetAnimation`).

use format_core::{FixedStr, Result};

use super::header::{read_extent, read_flag, write_extent, write_flags};
use super::syntax::{Kind, Stmt};
use super::tracks::{mdl_tracks, read_tail, write_tail};
use super::value::{Cx, Out, Value, list, write_list};
use crate::mdx::{Extent, Geoset, GeosetAnimationTrack, TextureCoordinateSet};

/// `PTYP` face types by number.
const FACE_TYPES: [&str; 10] = [
    "Points",
    "Lines",
    "LineLoop",
    "LineStrip",
    "Triangles",
    "TriangleStrip",
    "TriangleFan",
    "Quads",
    "QuadStrip",
    "Polygons",
];

const SELECTION_FLAGS: &[(u32, &str)] = &[(4, "Unselectable")];

/// Whether the face groups can be written as `Faces` blocks: every type is
/// named, and the counts add up to the indices.
fn faces_are_regular(g: &Geoset) -> bool {
    g.face_type_groups.len() == g.face_groups.len()
        && g.face_type_groups
            .iter()
            .all(|&t| (t as usize) < FACE_TYPES.len())
        && g.face_groups.iter().map(|&n| n as u64).sum::<u64>() == g.faces.len() as u64
}

fn matrices_are_regular(g: &Geoset) -> bool {
    g.matrix_groups.iter().map(|&n| n as u64).sum::<u64>() == g.matrix_indices.len() as u64
}

/// `Geoset { ... }`
///
/// Hand-written: vertices, faces and matrices are written as the groups
/// MDL has (`Faces n m { Triangles { ... } }`, `Groups n m { Matrices }`)
/// rebuilt from the binary's flat lists and counts, with the `Ext*` lists
/// where those do not add up, which no field attribute describes.
pub(crate) fn write_geoset(out: &mut Out, g: &Geoset) {
    out.open("Geoset");
    write_list(out, "Vertices", &g.vertex_positions);
    write_list(out, "Normals", &g.vertex_normals);
    for set in &g.texture_coordinate_sets {
        write_list(out, "TVertices", &set.texture_coordinates);
    }
    if let Some(tangents) = &g.tangents {
        write_list(out, "Tangents", tangents);
    }
    if let Some(skin) = &g.skin {
        // The count is of vertices (8 bytes each), as Reforged tools write it;
        // a byte count that is not a multiple of 8 is written as is.
        let count = if skin.len().is_multiple_of(8) {
            skin.len() / 8
        } else {
            skin.len()
        };
        out.open(&format!("SkinWeights {count}"));
        for weights in skin.chunks(8) {
            let mut line = String::new();
            for (i, b) in weights.iter().enumerate() {
                if i > 0 {
                    line.push_str(", ");
                }
                b.write(&mut line);
            }
            out.flag(&line);
        }
        out.close();
    }
    out.open("VertexGroup");
    for group in &g.vertex_groups {
        out.item(group);
    }
    out.close();
    let regular = faces_are_regular(g);
    if regular || out.is_plain() {
        // Plain MDL has only regular groups: irregular ones become every
        // index in one triangle list (type 4).
        let (types, counts): (&[u32], &[u32]) = if regular {
            (&g.face_type_groups, &g.face_groups)
        } else {
            out.note(format!(
                "face groups {:?} of types {:?} that do not add up to the {} indices (written as one Triangles group)",
                g.face_groups,
                g.face_type_groups,
                g.faces.len()
            ));
            (&[4], &[g.faces.len() as u32])
        };
        out.open(&format!("Faces {} {}", counts.len(), g.faces.len()));
        let mut rest = g.faces.as_slice();
        for (&face_type, &count) in types.iter().zip(counts) {
            let Some((indices, tail)) = rest.split_at_checked(count as usize) else {
                break;
            };
            rest = tail;
            out.open(
                FACE_TYPES
                    .get(face_type as usize)
                    .copied()
                    .unwrap_or_default(),
            );
            out.item(&Indices(indices));
            out.close();
        }
        out.close();
    } else {
        write_list(out, "ExtFaceTypeGroups", &g.face_type_groups);
        write_list(out, "ExtFaceGroups", &g.face_groups);
        write_list(
            out,
            "ExtFaces",
            &g.faces.iter().map(|&f| u32::from(f)).collect::<Vec<_>>(),
        );
    }
    if matrices_are_regular(g) || out.is_plain() {
        // Plain MDL has only regular groups: those the indices fill.
        let mut groups = Vec::new();
        let mut rest = g.matrix_indices.as_slice();
        for &count in &g.matrix_groups {
            let Some((indices, tail)) = rest.split_at_checked(count as usize) else {
                break;
            };
            rest = tail;
            groups.push(indices);
        }
        let used: usize = groups.iter().map(|i| i.len()).sum();
        if groups.len() < g.matrix_groups.len() || used < g.matrix_indices.len() {
            out.note(format!(
                "matrix groups {:?} that do not add up to the {} indices (the {} groups they fill written)",
                g.matrix_groups,
                g.matrix_indices.len(),
                groups.len()
            ));
        }
        out.open(&format!("Groups {} {used}", groups.len()));
        for indices in groups {
            out.line(&format!("Matrices {},", list_text(indices)));
        }
        out.close();
    } else {
        write_list(out, "ExtMatrixGroups", &g.matrix_groups);
        write_list(out, "ExtMatrixIndices", &g.matrix_indices);
    }
    write_extent(out, &g.extent);
    for extent in &g.sequence_extents {
        out.open("Anim");
        write_extent(out, extent);
        out.close();
    }
    out.field("MaterialID", &g.material_id);
    out.field("SelectionGroup", &g.selection_group);
    write_flags(
        out,
        g.selection_flags,
        SELECTION_FLAGS,
        "ExtFlags",
        Default::default(),
    );
    if let Some(lod) = &g.lod {
        out.field("LevelOfDetail", lod);
    }
    if let Some(name) = &g.lod_name {
        out.field("Name", name);
    }
    for tail in &g.unknown {
        write_tail(out, tail);
    }
    out.close();
}

/// `{ 0, 1, 2 }` of any length.
struct Indices<'a>(&'a [u16]);

impl Value for Indices<'_> {
    fn read(item: &super::syntax::Item, cx: &Cx) -> Result<Self> {
        Err(cx.error(item.pos, "indices are only written"))
    }

    fn write(&self, out: &mut String) {
        out.push_str(&list_text(self.0));
    }
}

fn list_text<T: Value + Copy>(values: &[T]) -> String {
    let mut s = String::from("{ ");
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        v.write(&mut s);
    }
    s.push_str(" }");
    s
}

/// Every number in the `{ }` groups of `body` (`{ 0, 1, 2 }, { 3, 4, 5 }`).
fn numbers<T: Value>(body: &[Stmt], cx: &Cx) -> Result<Vec<T>> {
    let mut out = Vec::new();
    for s in body {
        for item in &s.items {
            match &item.kind {
                Kind::Group(inner) => {
                    for n in inner {
                        for value in &n.items {
                            out.push(T::read(value, cx)?);
                        }
                    }
                }
                _ => out.push(T::read(item, cx)?),
            }
        }
    }
    Ok(out)
}

/// `SkinWeights n { 4 bone indices, 4 weights, ... }`: `n` counts vertices.
/// A vertex's 8 values bare (as the corpus's Reforged MDL and mdx-m3-viewer
/// write them) or in braces (`{ 0, 0, 0, 0, 255, 0, 0, 0 },`, as war3-model
/// does).
fn skin_weights(stmt: &Stmt, cx: &Cx) -> Result<Vec<u8>> {
    let (count, body) = stmt.block(cx)?;
    let mut bytes = Vec::with_capacity(body.len());
    for s in body {
        match s.items.as_slice() {
            [item] if matches!(item.kind, Kind::Group(_)) => {
                bytes.extend(<[u8; 8]>::read(item, cx)?);
            }
            [item] => bytes.push(u8::read(item, cx)?),
            _ => return Err(cx.error(s.pos, "expected one number per value in SkinWeights")),
        }
    }
    if let Some((pos, declared)) = count {
        let found = if bytes.len().is_multiple_of(8) && declared != bytes.len() {
            bytes.len() / 8
        } else {
            bytes.len()
        };
        cx.count(pos, "skinned vertices", declared, found)?;
    }
    Ok(bytes)
}

/// `Keyword a b { ... }`: the two declared counts and the body.
fn two_counts<'a>(stmt: &'a Stmt, cx: &Cx) -> Result<([Option<usize>; 2], &'a [Stmt])> {
    let mut counts = [None, None];
    let mut n = 0;
    for item in stmt.args() {
        match &item.kind {
            Kind::Num(_) => {
                if let Some(slot) = counts.get_mut(n) {
                    *slot = Some(u32::read(item, cx)? as usize);
                }
                n += 1;
            }
            Kind::Group(body) => return Ok((counts, body)),
            _ => {}
        }
    }
    Err(cx.error(
        stmt.pos,
        format!("`{}` needs a `{{ }}` block", stmt.key().1),
    ))
}

fn read_faces(stmt: &Stmt, cx: &mut Cx, g: &mut Geoset) -> Result<()> {
    let ([groups, indices], body) = two_counts(stmt, cx)?;
    for s in body {
        let key = s.key().1;
        let Some(face_type) = FACE_TYPES.iter().position(|t| *t == key) else {
            cx.unknown(s)?;
            continue;
        };
        let (_, inner) = s.block(cx)?;
        let faces: Vec<u16> = numbers(inner, cx)?;
        g.face_type_groups.push(face_type as u32);
        g.face_groups.push(faces.len() as u32);
        g.faces.extend(faces);
    }
    if let Some(declared) = groups {
        cx.count(stmt.pos, "face groups", declared, g.face_groups.len())?;
    }
    if let Some(declared) = indices {
        cx.count(stmt.pos, "face indices", declared, g.faces.len())?;
    }
    Ok(())
}

fn read_groups(stmt: &Stmt, cx: &mut Cx, g: &mut Geoset) -> Result<()> {
    let ([groups, indices], body) = two_counts(stmt, cx)?;
    for s in body {
        if s.key().1 != "Matrices" {
            cx.unknown(s)?;
            continue;
        }
        let (_, inner) = s.block(cx)?;
        let matrices: Vec<u32> = numbers(inner, cx)?;
        g.matrix_groups.push(matrices.len() as u32);
        g.matrix_indices.extend(matrices);
    }
    if let Some(declared) = groups {
        cx.count(stmt.pos, "matrix groups", declared, g.matrix_groups.len())?;
    }
    if let Some(declared) = indices {
        cx.count(stmt.pos, "matrix indices", declared, g.matrix_indices.len())?;
    }
    Ok(())
}

pub(crate) fn read_geoset(stmt: &Stmt, cx: &mut Cx) -> Result<Geoset> {
    let version = cx.version;
    let mut g = Geoset {
        lod: (version > 800).then_some(0),
        lod_name: (version > 800).then(FixedStr::default),
        ..Geoset::default()
    };
    let (_, body) = stmt.block(cx)?;
    // Each `TVertices` is one UV set, each `Anim` one sequence's extent;
    // `Faces` and `Groups` add to what is there.
    cx.once_each(body, &["TVertices", "Anim", "Faces", "Groups"])?;
    let mut reforged = None;
    for s in body {
        let key = s.key().1;
        let name = key.to_owned();
        if matches!(key, "Tangents" | "SkinWeights" | "LevelOfDetail" | "Name") {
            reforged.get_or_insert((s.pos, name.clone()));
        }
        match key {
            "Vertices" => g.vertex_positions = cx.within(name, |cx| list(s, cx, "vertices"))?,
            "Normals" => g.vertex_normals = cx.within(name, |cx| list(s, cx, "normals"))?,
            "TVertices" => {
                let texture_coordinates = cx.within(name, |cx| list(s, cx, "texture vertices"))?;
                g.texture_coordinate_sets.push(TextureCoordinateSet {
                    texture_coordinates,
                });
            }
            "Tangents" => g.tangents = Some(cx.within(name, |cx| list(s, cx, "tangents"))?),
            "SkinWeights" => g.skin = Some(cx.within(name, |cx| skin_weights(s, cx))?),
            "VertexGroup" => {
                g.vertex_groups = cx.within(name, |cx| list(s, cx, "vertex groups"))?
            }
            "Faces" => cx.within(name, |cx| read_faces(s, cx, &mut g))?,
            "Groups" => cx.within(name, |cx| read_groups(s, cx, &mut g))?,
            "ExtFaceTypeGroups" => g.face_type_groups = list(s, cx, "face types")?,
            "ExtFaceGroups" => g.face_groups = list(s, cx, "face groups")?,
            "ExtFaces" => g.faces = list(s, cx, "faces")?,
            "ExtMatrixGroups" => g.matrix_groups = list(s, cx, "matrix groups")?,
            "ExtMatrixIndices" => g.matrix_indices = list(s, cx, "matrix indices")?,
            "Anim" => {
                let mut extent = Extent::default();
                let (_, fields) = s.block(cx)?;
                for f in fields {
                    if !read_extent(f, cx, &mut extent)? {
                        cx.unknown(f)?;
                    }
                }
                g.sequence_extents.push(extent);
            }
            "MaterialID" => g.material_id = s.value(cx)?,
            "SelectionGroup" => g.selection_group = s.value(cx)?,
            "LevelOfDetail" => g.lod = Some(s.value(cx)?),
            "Name" => g.lod_name = Some(s.value(cx)?),
            "ExtTail" => g.unknown.push(read_tail(s, cx)?),
            _ if read_extent(s, cx, &mut g.extent)? => {}
            _ if read_flag(
                s,
                cx,
                &mut g.selection_flags,
                SELECTION_FLAGS,
                &["ExtFlags"],
            )? => {}
            _ => cx.unknown(s)?,
        }
    }
    // `if (version > 800)` in the binary layout.
    cx.not_in_version(reforged, 801)?;
    if version <= 800 {
        g.lod = None;
        g.lod_name = None;
        g.tangents = None;
        g.skin = None;
    }
    Ok(g)
}

mdl_tracks!(GeosetAnimationTrack {
    Alpha => "Alpha",
    Color => "Color" in rgb,
});
