//! Tangents for Reforged geosets (`TANG`), by MikkTSpace: the tangent space
//! the game's exporters and normal-map bakers agree on, computed from the
//! positions, normals, first UV set and triangles.
//!
//! Warcraft's UVs run down the texture (v = 0 at the top); MikkTSpace takes
//! v up, so v is flipped on the way in. So computed, the tangents of the
//! Reforged models saved by Blizzard's pipeline come out as their files carry
//! them, the sign of the bitangent (`w`) included (tested on the corpus).

use bevy_mikktspace::{Geometry, TangentSpace, generate_tangents};

use crate::anim::mesh::triangles;
use crate::mdx::Geoset;

/// The tangent of a vertex no triangle gives one (MikkTSpace's default).
const DEFAULT: [f32; 4] = [1.0, 0.0, 0.0, 1.0];

struct Faces<'a> {
    geoset: &'a Geoset,
    uvs: &'a [[f32; 2]],
    triangles: Vec<[u16; 3]>,
    tangents: Vec<Option<[f32; 4]>>,
}

impl Faces<'_> {
    fn index(&self, face: usize, vert: usize) -> usize {
        self.triangles
            .get(face)
            .and_then(|t| t.get(vert))
            .map_or(0, |&i| usize::from(i))
    }
}

impl Geometry for Faces<'_> {
    fn num_faces(&self) -> usize {
        self.triangles.len()
    }

    fn num_vertices_of_face(&self, _face: usize) -> usize {
        3
    }

    fn position(&self, face: usize, vert: usize) -> [f32; 3] {
        let i = self.index(face, vert);
        self.geoset
            .vertex_positions
            .get(i)
            .copied()
            .unwrap_or_default()
    }

    fn normal(&self, face: usize, vert: usize) -> [f32; 3] {
        let i = self.index(face, vert);
        self.geoset
            .vertex_normals
            .get(i)
            .copied()
            .unwrap_or([0.0, 0.0, 1.0])
    }

    fn tex_coord(&self, face: usize, vert: usize) -> [f32; 2] {
        let [u, v] = self
            .uvs
            .get(self.index(face, vert))
            .copied()
            .unwrap_or_default();
        [u, 1.0 - v]
    }

    fn set_tangent(&mut self, tangent_space: Option<TangentSpace>, face: usize, vert: usize) {
        let i = self.index(face, vert);
        if let (Some(space), Some(slot)) = (tangent_space, self.tangents.get_mut(i))
            && slot.is_none()
        {
            *slot = Some(space.tangent_encoded());
        }
    }
}

/// One tangent per vertex (`[x, y, z, w]`, `w` the bitangent's sign): a
/// vertex shared by triangles takes the first triangle's.
pub(crate) fn generate(geoset: &Geoset) -> Vec<[f32; 4]> {
    let uvs = geoset
        .texture_coordinate_sets
        .first()
        .map_or(&[][..], |set| set.texture_coordinates.as_slice());
    let groups = geoset
        .face_type_groups
        .iter()
        .copied()
        .zip(geoset.face_groups.iter().copied());
    let mut faces = Faces {
        geoset,
        uvs,
        triangles: triangles(geoset.vertex_count(), groups, &geoset.faces),
        tangents: vec![None; geoset.vertex_count()],
    };
    // The error type has no variants: generation cannot fail.
    let _ = generate_tangents(&mut faces);
    faces
        .tangents
        .into_iter()
        .map(|t| t.unwrap_or(DEFAULT))
        .collect()
}
