//! Mesh primitives to geosets: positions and normals in the model's space,
//! every UV set, triangles (strips and fans turned into lists), skin
//! weights as `SKIN` (the four largest, out of 255) and, for a classic
//! model, every weight (for its matrix groups), and a primitive cut into
//! several geosets where it passes the 65,535 vertices a `u16` face index
//! reaches.

use std::collections::HashMap;

use crate::anim::glam::{DMat3, DMat4, DVec3};
use crate::convert::Influences;
use crate::mdx::{Geoset, TextureCoordinateSet};

use super::accessor;
use super::error::ImportError;
use super::report::ImportReport;
use super::skeleton::Skeleton;

/// The most vertices a geoset's `u16` face indices reach.
const MAX_GEOSET_VERTICES: usize = 65_535;

/// The most vertices (all primitives together) an import reads.
pub(super) const MAX_VERTICES: u64 = 1 << 20;

/// One vertex before it is put in a geoset.
#[derive(Clone, Debug, PartialEq)]
struct Vertex {
    position: [f32; 3],
    normal: [f32; 3],
    uvs: Vec<[f32; 2]>,
    /// MDX object ids and weights out of 255, the largest first.
    skin: [u8; 8],
    /// Every weight (for a classic model; else empty).
    all: Influences,
}

/// A geoset made from (part of) a primitive, the material it asks for
/// (`None`: glTF's default material), and (for a classic model) every
/// weight of each of its vertices.
pub(super) struct Piece {
    pub geoset: Geoset,
    pub material: Option<usize>,
    pub weights: Vec<Influences>,
}

/// `influences` (object id, weight) made one per bone (two joint slots
/// naming a bone summed), weights above zero only, the largest first
/// (equal ones by object id).
fn merge(influences: &mut Vec<(u8, f64)>) {
    influences.retain(|&(_, w)| w > 0.0 && w.is_finite());
    influences.sort_by_key(|&(b, _)| b);
    influences.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    influences.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
}

/// The unit of the weights a classic model's matrix groups are made from:
/// each vertex's weights out of 2^24 (each within 3e-8 of its share; equal
/// weights stay equal).
const WEIGHT_UNIT: f64 = 16_777_216.0;

/// Every one of `influences` ([`merge`]d), as the conversion takes them:
/// object ids, weights out of [`WEIGHT_UNIT`] (a weight that rounds to 0
/// left out).
fn all_weights(influences: &[(u8, f64)]) -> Influences {
    let total: f64 = influences.iter().map(|i| i.1).sum();
    influences
        .iter()
        .map(|&(bone, w)| (u32::from(bone), ((w / total) * WEIGHT_UNIT).round() as u32))
        .filter(|&(_, w)| w > 0)
        .collect()
}

/// The four largest of `influences` ([`merge`]d), as `SKIN` bytes: ids,
/// then weights out of 255 that sum to 255 (each rounded, what rounding
/// leaves over or short given to the largest first). `None` when there are
/// none.
fn skin_bytes(influences: &[(u8, f64)]) -> Option<[u8; 8]> {
    let influences = influences.get(..4).unwrap_or(influences);
    let total: f64 = influences.iter().map(|i| i.1).sum();
    if total <= 0.0 {
        return None;
    }
    let mut out = [0u8; 8];
    // Each share rounded (so that weights written as n/255 come back as n),
    // then the sum made 255 on the largest weights.
    let mut shares: Vec<i64> = influences
        .iter()
        .map(|&(_, w)| ((w / total) * 255.0).round() as i64)
        .collect();
    let mut off = 255 - shares.iter().sum::<i64>();
    // At most 4 shares, each moved by at most 2: a few rounds.
    while off != 0 {
        let before = off;
        for share in shares.iter_mut() {
            let step = off.signum();
            if off != 0 && *share + step >= 0 {
                *share += step;
                off -= step;
            }
        }
        if off == before {
            break;
        }
    }
    let (bones, weights) = out.split_at_mut(4);
    for ((&(bone, _), share), (b, w)) in influences
        .iter()
        .zip(shares)
        .zip(bones.iter_mut().zip(weights))
    {
        *b = bone;
        *w = share.clamp(0, 255) as u8;
    }
    Some(out)
}

/// Triangles of a primitive's indices by its mode, or `None` for points
/// and lines.
fn triangles(mode: gltf::mesh::Mode, indices: &[u32]) -> Option<Vec<[u32; 3]>> {
    use gltf::mesh::Mode;
    Some(match mode {
        Mode::Triangles => indices.as_chunks::<3>().0.to_vec(),
        Mode::TriangleStrip => (indices.windows(3))
            .filter_map(|t| <[u32; 3]>::try_from(t).ok())
            .enumerate()
            .map(|(i, [a, b, c])| if i % 2 == 0 { [a, b, c] } else { [b, a, c] })
            .collect(),
        Mode::TriangleFan => {
            let Some((&first, rest)) = indices.split_first() else {
                return Some(Vec::new());
            };
            (rest.windows(2))
                .filter_map(|t| <[u32; 2]>::try_from(t).ok())
                .map(|[b, c]| [first, b, c])
                .collect()
        }
        Mode::Points | Mode::Lines | Mode::LineLoop | Mode::LineStrip => return None,
    })
}

/// Smooth normals from the triangles (for a primitive without `NORMAL`).
fn computed_normals(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Vec<[f32; 3]> {
    let mut sums = vec![DVec3::ZERO; positions.len()];
    let at = |i: u32| {
        positions
            .get(i as usize)
            .map_or(DVec3::ZERO, |p| DVec3::from(p.map(f64::from)))
    };
    for t in triangles {
        let n = (at(t[1]) - at(t[0])).cross(at(t[2]) - at(t[0]));
        for &i in t {
            if let Some(s) = sums.get_mut(i as usize) {
                *s += n;
            }
        }
    }
    sums.into_iter()
        .map(|n| n.try_normalize().unwrap_or(DVec3::Z).as_vec3().to_array())
        .collect()
}

/// Each vertex's weights by joint slot (`JOINTS_n` with `WEIGHTS_n`, the
/// weights above zero), for a primitive of `n` vertices.
fn slot_weights(
    primitive: &gltf::Primitive<'_>,
    buffers: &accessor::Buffers<'_>,
    at: &str,
    n: usize,
) -> Result<Vec<Vec<(u32, f64)>>, ImportError> {
    let mut out: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
    for set in 0.. {
        let (Some(j), Some(w)) = (
            primitive.get(&gltf::Semantic::Joints(set)),
            primitive.get(&gltf::Semantic::Weights(set)),
        ) else {
            break;
        };
        let (jn, wn) = (format!("{at}.JOINTS_{set}"), format!("{at}.WEIGHTS_{set}"));
        let js = accessor::integers::<4>(&j, buffers, &jn, "VEC4 of unsigned integers")?;
        let ws = accessor::floats::<4>(&w, buffers, &wn, "VEC4")?;
        for (a, name, len) in [(&j, &jn, js.len()), (&w, &wn, ws.len())] {
            if len != n {
                return Err(accessor::error(
                    a,
                    name,
                    super::error::AccessorProblem::Count {
                        got: len,
                        expected: n,
                    },
                ));
            }
        }
        for ((list, js), ws) in out.iter_mut().zip(&js).zip(&ws) {
            for (&slot, &weight) in js.iter().zip(ws) {
                if weight > 0.0 {
                    list.push((slot, f64::from(weight)));
                }
            }
        }
    }
    Ok(out)
}

/// The joints (glTF nodes) some vertex of a skinned mesh instance is
/// weighted to: the ones that become bones.
pub(super) fn weighted_joints(
    document: &gltf::Document,
    buffers: &accessor::Buffers<'_>,
    meshes: &[(usize, Option<usize>)],
) -> Result<std::collections::BTreeSet<usize>, ImportError> {
    let mut out = std::collections::BTreeSet::new();
    for &(node, skin) in meshes {
        let (Some(mesh), Some(skin)) = (
            document.nodes().nth(node).and_then(|n| n.mesh()),
            skin.and_then(|s| document.skins().nth(s)),
        ) else {
            continue;
        };
        let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
        for primitive in mesh.primitives() {
            let at = format!("meshes[{}].primitives[{}]", mesh.index(), primitive.index());
            let n = primitive
                .get(&gltf::Semantic::Positions)
                .map_or(0, |p| p.count());
            for list in slot_weights(&primitive, buffers, &at, n)? {
                out.extend(
                    list.iter()
                        .filter_map(|&(slot, _)| joints.get(slot as usize)),
                );
            }
        }
    }
    Ok(out)
}

/// Every geoset of one mesh instance: `node`'s mesh, skinned by `skin`;
/// `classic`: with every weight of each vertex ([`Piece::weights`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn pieces(
    document: &gltf::Document,
    buffers: &accessor::Buffers<'_>,
    skeleton: &Skeleton,
    c: DMat4,
    node: usize,
    skin: Option<usize>,
    classic: bool,
    vertices_so_far: &mut u64,
    report: &mut ImportReport,
) -> Result<Vec<Piece>, ImportError> {
    let Some(gltf_node) = document.nodes().nth(node) else {
        return Ok(Vec::new());
    };
    let Some(mesh) = gltf_node.mesh() else {
        return Ok(Vec::new());
    };
    // Where the vertices go: a skinned mesh's are in bind space already; an
    // unskinned one's are placed by its node's bind matrix.
    let own = skeleton.of_gltf.get(&node).copied();
    let placement = match (skin, own) {
        (Some(_), _) => c,
        (None, Some(id)) => c * skeleton.node(id).map_or(DMat4::IDENTITY, |n| n.bind),
        (None, None) => c,
    };
    let normal_matrix = DMat3::from_mat4(placement).inverse().transpose();
    // Skin joint slot -> MDX object id.
    let joints: Vec<Option<u8>> = skin
        .and_then(|s| document.skins().nth(s))
        .map(|s| {
            s.joints()
                .map(|j| {
                    skeleton
                        .of_gltf
                        .get(&j.index())
                        .and_then(|&id| u8::try_from(id).ok())
                })
                .collect()
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    for primitive in mesh.primitives() {
        let at = format!("meshes[{}].primitives[{}]", mesh.index(), primitive.index());
        let Some(position) = primitive.get(&gltf::Semantic::Positions) else {
            report.drop(at, "no POSITION");
            continue;
        };
        let positions =
            accessor::floats::<3>(&position, buffers, &format!("{at}.POSITION"), "VEC3")?;
        let n = positions.len();
        *vertices_so_far += n as u64;
        if *vertices_so_far > MAX_VERTICES {
            return Err(ImportError::TooLarge {
                what: "vertices",
                needed: *vertices_so_far,
                limit: MAX_VERTICES,
            });
        }
        let attribute = |semantic: gltf::Semantic| primitive.get(&semantic);
        let same_count = |got: usize, a: &gltf::Accessor<'_>, name: &str| {
            if got == n {
                Ok(())
            } else {
                Err(accessor::error(
                    a,
                    name,
                    super::error::AccessorProblem::Count { got, expected: n },
                ))
            }
        };
        let indices: Vec<u32> = match primitive.indices() {
            Some(a) => {
                let used = format!("{at}.indices");
                let list =
                    accessor::integers::<1>(&a, buffers, &used, "SCALAR of unsigned integers")?;
                if let Some(&[bad]) = list.iter().find(|&&[i]| i as usize >= n) {
                    return Err(accessor::error(
                        &a,
                        &used,
                        super::error::AccessorProblem::SparseIndex {
                            index: bad,
                            count: n,
                        },
                    ));
                }
                list.into_iter().map(|[i]| i).collect()
            }
            None => (0..n as u32).collect(),
        };
        let Some(tris) = triangles(primitive.mode(), &indices) else {
            report.drop(
                at,
                format!("{:?} (only triangles become faces)", primitive.mode()),
            );
            continue;
        };
        let normals = match attribute(gltf::Semantic::Normals) {
            Some(a) => {
                let name = format!("{at}.NORMAL");
                let v = accessor::floats::<3>(&a, buffers, &name, "VEC3")?;
                same_count(v.len(), &a, &name)?;
                v
            }
            None => {
                report.approximate(at.clone(), "no NORMAL: smooth normals computed");
                computed_normals(&positions, &tris)
            }
        };
        let mut uv_sets = Vec::new();
        for set in 0.. {
            let Some(a) = attribute(gltf::Semantic::TexCoords(set)) else {
                break;
            };
            let name = format!("{at}.TEXCOORD_{set}");
            let v = accessor::floats::<2>(&a, buffers, &name, "VEC2")?;
            same_count(v.len(), &a, &name)?;
            uv_sets.push(v);
        }
        if uv_sets.is_empty() {
            uv_sets.push(vec![[0.0, 0.0]; n]);
        }
        if primitive.morph_targets().len() > 0 {
            report.drop(
                at.clone(),
                format!(
                    "{} morph targets (MDX has none)",
                    primitive.morph_targets().len()
                ),
            );
        }
        // Influences: JOINTS_n with WEIGHTS_n, joint slots as object ids.
        let mut unknown_joint = false;
        let mut influences: Vec<Vec<(u8, f64)>> = match skin {
            Some(_) => slot_weights(&primitive, buffers, &at, n)?
                .into_iter()
                .map(|list| {
                    (list.into_iter())
                        .filter_map(|(slot, weight)| {
                            let id = joints.get(slot as usize).copied().flatten();
                            unknown_joint |= id.is_none();
                            Some((id?, weight))
                        })
                        .collect()
                })
                .collect(),
            None => vec![Vec::new(); n],
        };
        if unknown_joint {
            report.approximate(
                at.clone(),
                "weights on joints the skin does not list were dropped",
            );
        }
        let fallback = match (skin, own) {
            (None, Some(id)) => u8::try_from(id).unwrap_or(0),
            _ => joints.iter().flatten().next().copied().unwrap_or(0),
        };
        let mut truncated = 0usize;
        let mut unbound = 0usize;
        let vertices: Vec<Vertex> = (influences.iter_mut().zip(&positions).zip(&normals))
            .enumerate()
            .map(|(v, ((list, position), normal))| {
                merge(list);
                truncated += usize::from(list.len() > 4);
                let (skin, all) = match skin_bytes(list) {
                    Some(bytes) => (bytes, all_weights(list)),
                    None => {
                        unbound += usize::from(skin.is_some());
                        let bytes = [fallback, 0, 0, 0, 255, 0, 0, 0];
                        (bytes, vec![(u32::from(fallback), 1)])
                    }
                };
                let all = if classic { all } else { Vec::new() };
                let p = placement.transform_point3(DVec3::from(position.map(f64::from)));
                let nrm = normal_matrix * DVec3::from(normal.map(f64::from));
                Vertex {
                    position: p.as_vec3().to_array(),
                    normal: nrm.try_normalize().unwrap_or(DVec3::Z).as_vec3().to_array(),
                    uvs: (uv_sets.iter())
                        .map(|set| set.get(v).copied().unwrap_or_default())
                        .collect(),
                    skin,
                    all,
                }
            })
            .collect();
        // A classic model's matrix groups are made from every weight.
        if truncated > 0 && !classic {
            report.approximate(
                at.clone(),
                format!("{truncated} vertices with more than 4 weights keep their 4 largest, renormalized"),
            );
        }
        if unbound > 0 {
            report.approximate(
                at.clone(),
                format!("{unbound} vertices without weights follow the skin's first joint"),
            );
        }
        let parts = cut(&tris, n);
        if parts.len() > 1 {
            report.approximate(
                at.clone(),
                format!(
                    "{n} vertices: cut into {} geosets (a face index is a u16)",
                    parts.len()
                ),
            );
        }
        for (used, faces) in parts {
            let weights = match classic {
                true => (used.iter())
                    .filter_map(|&v| Some(vertices.get(v as usize)?.all.clone()))
                    .collect(),
                false => Vec::new(),
            };
            out.push(Piece {
                geoset: geoset(&vertices, &used, &faces, uv_sets.len()),
                material: primitive.material().index(),
                weights,
            });
        }
    }
    Ok(out)
}

/// The triangles in parts of at most [`MAX_GEOSET_VERTICES`] vertices, in
/// order, each part's vertices (source indices, in the order the triangles
/// first use them) and its faces (indices into them); a primitive of at
/// most that many vertices is one part of all its vertices.
fn cut(tris: &[[u32; 3]], n: usize) -> Vec<(Vec<u32>, Vec<u16>)> {
    // A primitive that fits keeps its vertices as they are, in their order,
    // those no triangle uses included.
    if n <= MAX_GEOSET_VERTICES {
        let faces = tris.iter().flatten().map(|&v| v as u16).collect();
        return vec![((0..n as u32).collect(), faces)];
    }
    let mut parts = Vec::new();
    let mut map: HashMap<u32, u16> = HashMap::new();
    let mut used: Vec<u32> = Vec::new();
    let mut faces: Vec<u16> = Vec::new();
    for t in tris {
        let new = t.iter().filter(|v| !map.contains_key(v)).count();
        if used.len() + new > MAX_GEOSET_VERTICES {
            parts.push((std::mem::take(&mut used), std::mem::take(&mut faces)));
            map.clear();
        }
        for &v in t {
            let next = used.len() as u16;
            let i = *map.entry(v).or_insert_with(|| {
                used.push(v);
                next
            });
            faces.push(i);
        }
    }
    if !faces.is_empty() {
        parts.push((used, faces));
    }
    parts
}

/// A Reforged geoset (version 1000's fields) of `used` vertices.
fn geoset(vertices: &[Vertex], used: &[u32], faces: &[u16], uv_sets: usize) -> Geoset {
    let picked: Vec<&Vertex> = used
        .iter()
        .filter_map(|&v| vertices.get(v as usize))
        .collect();
    let skin: Vec<u8> = picked.iter().flat_map(|v| v.skin).collect();
    Geoset {
        vertex_positions: picked.iter().map(|v| v.position).collect(),
        vertex_normals: picked.iter().map(|v| v.normal).collect(),
        face_type_groups: vec![4],
        face_groups: vec![faces.len() as u32],
        faces: faces.to_vec(),
        lod: Some(0),
        lod_name: Some(Default::default()),
        skin: Some(skin),
        texture_coordinate_sets: (0..uv_sets)
            .map(|s| TextureCoordinateSet {
                texture_coordinates: picked
                    .iter()
                    .map(|v| v.uvs.get(s).copied().unwrap_or_default())
                    .collect(),
            })
            .collect(),
        ..Geoset::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_become_four_bytes_summing_to_255() {
        let mut list = vec![(3, 0.5), (1, 0.25), (7, 0.125), (9, 0.0625), (2, 0.0625)];
        merge(&mut list);
        let bytes = skin_bytes(&list).unwrap();
        assert_eq!(&bytes[..4], &[3, 1, 7, 2]);
        assert_eq!(bytes[4..].iter().map(|&w| u32::from(w)).sum::<u32>(), 255);
        assert!(bytes[4] > bytes[5] && bytes[5] > bytes[6]);
        // Every weight, out of 2^24: the fifth too.
        let all = all_weights(&list);
        assert_eq!(
            all,
            [
                (3, 1 << 23),
                (1, 1 << 22),
                (7, 1 << 21),
                (2, 1 << 20),
                (9, 1 << 20)
            ]
        );
        let mut same_bone = vec![(4, 0.5), (4, 0.5)];
        merge(&mut same_bone);
        assert_eq!(skin_bytes(&same_bone).unwrap(), [4, 0, 0, 0, 255, 0, 0, 0]);
        assert_eq!(all_weights(&same_bone), [(4, 1 << 24)]);
        let mut none = vec![(1, 0.0), (2, f64::NAN)];
        merge(&mut none);
        assert_eq!(skin_bytes(&none), None);
    }

    #[test]
    fn equal_weights_stay_equal_out_of_2_to_the_24() {
        for n in 1..=12u8 {
            let mut list: Vec<(u8, f64)> = (0..n).map(|b| (b, 1.0 / f64::from(n))).collect();
            merge(&mut list);
            let all = all_weights(&list);
            assert_eq!(all.len(), usize::from(n));
            assert!(all.iter().all(|&(_, w)| w == all[0].1), "{n}: {all:?}");
        }
    }

    #[test]
    fn strips_and_fans_become_lists_facing_the_same_way() {
        use gltf::mesh::Mode;
        assert_eq!(
            triangles(Mode::TriangleStrip, &[0, 1, 2, 3]).unwrap(),
            [[0, 1, 2], [2, 1, 3]]
        );
        assert_eq!(
            triangles(Mode::TriangleFan, &[0, 1, 2, 3]).unwrap(),
            [[0, 1, 2], [0, 2, 3]]
        );
        assert_eq!(triangles(Mode::Lines, &[0, 1]), None);
    }

    #[test]
    fn a_mesh_past_65535_vertices_is_cut_where_a_triangle_would_pass_it() {
        let tris: Vec<[u32; 3]> = (0..30_000u32)
            .map(|t| [t * 3, t * 3 + 1, t * 3 + 2])
            .collect();
        let parts = cut(&tris, 90_000);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].0.len(), 65_535);
        assert_eq!(parts[1].0.len(), 90_000 - 65_535);
        assert!(
            parts
                .iter()
                .all(|(used, faces)| faces.iter().all(|&f| (f as usize) < used.len()))
        );
    }
}
