//! Every geoset of a model, whatever its version, as one shape: positions,
//! normals, UV sets, triangles, material, level of detail and skin.
//!
//! Warcraft III geosets (800 to 1200) skin by `SKIN` when they have one and by
//! their matrix groups otherwise. Alpha geosets of 1300 and 1400 skin by their
//! matrix groups when they have them (the only real file has both, and its
//! `BIDX`/`BWGT` name one bone where its groups name two: the groups are what
//! the 0.5.3 client draws with) and by `BIDX`/`BWGT` otherwise; v1500
//! vertices carry their 4 + 4 bytes. Alpha bone indices are read as the n-th
//! bone of `BONE` (no real file says otherwise).

use super::skeleton::{NodeKind, Pose, Skeleton};
use super::skin::Skin;
use crate::mdx::Model;

/// `PTYP` value of a triangle list (v1500 batches number it 3).
const TRIANGLES: u32 = 4;

/// One geoset's geometry.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Its index among the model's geosets.
    pub geoset: usize,
    /// Vertex positions.
    pub positions: Vec<[f32; 3]>,
    /// Vertex normals (as many as positions in a well-formed file).
    pub normals: Vec<[f32; 3]>,
    /// Vertex tangents, X, Y, Z and the bitangent's sign W (Reforged `TANG`,
    /// versions after 800; empty where the geoset has none).
    pub tangents: Vec<[f32; 4]>,
    /// UV sets, each with one pair per vertex in a well-formed file.
    pub uv_sets: Vec<Vec<[f32; 2]>>,
    /// Triangles (triangle-list groups only; triangles with an index past
    /// the vertices are left out).
    pub triangles: Vec<[u16; 3]>,
    /// How many triangles of the triangle-list groups were left out of
    /// [`triangles`](Self::triangles) for an index past the vertices.
    pub triangles_left_out: usize,
    /// Index into the materials (`MTLS`).
    pub material_id: u32,
    /// Reforged level of detail (0 for the full model, -1 seen; 0 before 900
    /// and in alpha files).
    pub lod: i32,
    /// Which nodes move each vertex.
    pub skin: Skin,
}

impl Mesh {
    /// The positions moved by `pose`.
    pub fn posed_positions(&self, pose: &Pose) -> Vec<[f32; 3]> {
        self.positions
            .iter()
            .enumerate()
            .map(|(v, p)| self.skin.pose_point(v, pose, *p))
            .collect()
    }

    /// The normals turned by `pose`.
    pub fn posed_normals(&self, pose: &Pose) -> Vec<[f32; 3]> {
        self.normals
            .iter()
            .enumerate()
            .map(|(v, n)| self.skin.pose_normal(v, pose, *n))
            .collect()
    }
}

/// The meshes of every geoset of `model`, skinned to `skeleton` (which must
/// be [`Skeleton::from_model`] of the same model).
///
/// ```
/// use formats::anim::{Skeleton, meshes};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let meshes = meshes(&model, &Skeleton::from_model(&model));
/// assert_eq!(meshes[0].positions.len(), 8); // the sample is a cube
/// assert_eq!(meshes[0].triangles.len(), 12);
/// # Ok::<(), formats::Error>(())
/// ```
pub fn meshes(model: &Model, skeleton: &Skeleton) -> Vec<Mesh> {
    let mut out = Vec::new();
    for geoset in model.geosets() {
        let skin = match &geoset.skin {
            Some(bytes) => Skin::from_skin_bytes(skeleton, bytes, &geoset.matrix_indices),
            None => Skin::from_matrix_groups(
                skeleton,
                &geoset.vertex_groups,
                &geoset.matrix_groups,
                &geoset.matrix_indices,
            ),
        };
        let groups = geoset
            .face_type_groups
            .iter()
            .copied()
            .zip(geoset.face_groups.iter().copied());
        let (triangles, triangles_left_out) =
            triangles_counted(geoset.vertex_positions.len(), groups, &geoset.faces);
        out.push(Mesh {
            geoset: out.len(),
            triangles,
            triangles_left_out,
            positions: geoset.vertex_positions.clone(),
            normals: geoset.vertex_normals.clone(),
            tangents: geoset.tangents.clone().unwrap_or_default(),
            uv_sets: geoset
                .texture_coordinate_sets
                .iter()
                .map(|set| set.texture_coordinates.clone())
                .collect(),
            material_id: geoset.material_id,
            lod: geoset.lod.unwrap_or(0),
            skin,
        });
    }
    let bones: Vec<usize> = (0..skeleton.nodes().len())
        .filter(|&i| {
            skeleton
                .nodes()
                .get(i)
                .is_some_and(|n| n.kind == NodeKind::Bone)
        })
        .collect();
    let nth_bone = |i: u8| bones.get(usize::from(i)).copied();
    for geoset in model.alpha_geosets() {
        let skin = if geoset.group_matrix_counts.is_empty() {
            let packed = geoset
                .bone_indices
                .iter()
                .zip(&geoset.bone_weights)
                .map(|(i, w)| (i.to_le_bytes(), w.to_le_bytes()));
            Skin::from_packed(packed, nth_bone)
        } else {
            Skin::from_matrix_groups(
                skeleton,
                &geoset.vert_group_indices,
                &geoset.group_matrix_counts,
                &geoset.matrices,
            )
        };
        let types = geoset.primitive_types.iter().map(|t| u32::from(*t));
        let groups = types.zip(geoset.primitive_counts.iter().copied());
        let (triangles, triangles_left_out) =
            triangles_counted(geoset.vertices.len(), groups, &geoset.primitive_vertices);
        out.push(Mesh {
            geoset: out.len(),
            triangles,
            triangles_left_out,
            positions: geoset.vertices.clone(),
            normals: geoset.normals.clone(),
            tangents: Vec::new(),
            uv_sets: (0..geoset.uv_set_count as usize)
                .map_while(|i| geoset.tex_coord_set(i).map(<[_]>::to_vec))
                .collect(),
            material_id: geoset.material_id,
            lod: 0,
            skin,
        });
    }
    for chunk in &model.chunks {
        let crate::mdx::Chunk::AlphaBatchedGeosets(c) = chunk else {
            continue;
        };
        for (header, batch) in c.geosets.iter().zip(&c.batches) {
            let vertices = &batch.vertices;
            let count = u32::try_from(batch.primitive_vertices.len()).unwrap_or(u32::MAX);
            let kind = if batch.primitive_type == crate::mdx::alpha::Batch::TRIANGLES {
                TRIANGLES
            } else {
                0
            };
            let slots = vertices.iter().map(|v| (v.bone_indices, v.bone_weights));
            let (triangles, triangles_left_out) = triangles_counted(
                vertices.len(),
                std::iter::once((kind, count)),
                &batch.primitive_vertices,
            );
            out.push(Mesh {
                geoset: out.len(),
                triangles,
                triangles_left_out,
                positions: vertices.iter().map(|v| v.position).collect(),
                normals: vertices.iter().map(|v| v.normal).collect(),
                tangents: Vec::new(),
                uv_sets: (0..2)
                    .map(|set| {
                        vertices
                            .iter()
                            .map(|v| v.tex_coords.get(set).copied().unwrap_or_default())
                            .collect()
                    })
                    .collect(),
                material_id: header.material_id,
                lod: 0,
                skin: Skin::from_packed(slots, nth_bone),
            });
        }
    }
    out
}

/// The triangles of the groups `(type, index count)` over `faces`, leaving
/// out those with an index past `vertex_count`.
pub fn triangles(
    vertex_count: usize,
    groups: impl Iterator<Item = (u32, u32)>,
    faces: &[u16],
) -> Vec<[u16; 3]> {
    triangles_counted(vertex_count, groups, faces).0
}

/// [`triangles`], and how many it left out for an index past `vertex_count`.
fn triangles_counted(
    vertex_count: usize,
    groups: impl Iterator<Item = (u32, u32)>,
    faces: &[u16],
) -> (Vec<[u16; 3]>, usize) {
    let mut out = Vec::new();
    let mut left_out = 0;
    let mut faces = faces;
    for (face_type, count) in groups {
        let (group, rest) = faces.split_at((count as usize).min(faces.len()));
        faces = rest;
        if face_type != TRIANGLES {
            continue;
        }
        for t in group.chunks_exact(3) {
            if let [a, b, c] = *t
                && [a, b, c].iter().all(|&i| usize::from(i) < vertex_count)
            {
                out.push([a, b, c]);
            } else {
                left_out += 1;
            }
        }
    }
    (out, left_out)
}
