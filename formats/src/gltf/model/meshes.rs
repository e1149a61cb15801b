//! Geosets as skinned meshes, one each; what they hold is in the
//! [`gltf`](crate::gltf#meshes) docs.

use gltf_json as json;
use json::Index;
use json::mesh::Semantic;

use super::nodes::z_up_to_y_up;
use crate::anim::Mesh;
use crate::gltf::builder::Builder;
use crate::gltf::builder::triangles;

/// Influences per `JOINTS_n`/`WEIGHTS_n` set.
const PER_SET: usize = 4;

/// A mesh of one primitive for every geoset given that has triangles, in
/// order, with the geoset's index, named `{name} geoset {index}`;
/// `material` gives a geoset's glTF material. Notes what
/// was left out in `warnings`.
pub(super) fn add_meshes(
    b: &mut Builder,
    name: &str,
    meshes: &[&Mesh],
    joint_count: usize,
    material: impl Fn(&Mesh) -> Option<Index<json::Material>>,
    warnings: &mut Vec<String>,
) -> Vec<(usize, Index<json::Mesh>)> {
    let mut out = Vec::new();
    for mesh in meshes {
        if mesh.triangles_left_out > 0 {
            warnings.push(format!(
                "geoset {}: {} left out (a vertex index past its {} vertices)",
                mesh.geoset,
                plural(mesh.triangles_left_out, "triangle"),
                mesh.positions.len()
            ));
        }
        if mesh.positions.is_empty() || mesh.triangles.is_empty() {
            warnings.push(format!("geoset {}: no triangles, no mesh", mesh.geoset));
            continue;
        }
        let mut attributes = vec![(Semantic::Positions, b.vertex_attribute(&positions(mesh)))];
        let n = mesh.positions.len();
        if mesh.normals.len() == n {
            let normals = normals(mesh);
            if mesh.tangents.len() == n {
                let tangents = tangents(&mesh.tangents, &normals);
                attributes.push((Semantic::Tangents, b.vertex_attribute(&tangents)));
            }
            attributes.push((Semantic::Normals, b.vertex_attribute(&normals)));
        } else {
            warnings.push(format!(
                "geoset {}: {} normals for {n} vertices, normals left out",
                mesh.geoset,
                mesh.normals.len()
            ));
        }
        let mut set = 0;
        for (k, uvs) in mesh.uv_sets.iter().enumerate() {
            if uvs.len() == n {
                let uvs = finite(uvs);
                attributes.push((Semantic::TexCoords(set), b.vertex_attribute(&uvs)));
                set += 1;
            } else {
                warnings.push(format!(
                    "geoset {}: UV set {k} has {} pairs for {n} vertices, left out",
                    mesh.geoset,
                    uvs.len()
                ));
            }
        }
        for (k, JointSet { joints, weights }) in joint_sets(mesh).into_iter().enumerate() {
            let k = u32::try_from(k).unwrap_or(u32::MAX);
            let joints = if joint_count <= 256 {
                let small: Vec<[u8; 4]> = joints.iter().map(|j| j.map(|i| i as u8)).collect();
                b.vertex_attribute(&small)
            } else {
                b.vertex_attribute(&joints)
            };
            attributes.push((Semantic::Joints(k), joints));
            attributes.push((Semantic::Weights(k), b.vertex_attribute(&weights)));
        }
        let indices: Vec<u32> = mesh
            .triangles
            .iter()
            .flatten()
            .map(|&i| u32::from(i))
            .collect();
        let indices = b.indices(&indices);
        let primitive = triangles(attributes, Some(indices), material(mesh));
        let index = b.push(json::Mesh {
            extensions: None,
            extras: Default::default(),
            name: Some(geoset_name(name, mesh.geoset)),
            primitives: vec![primitive],
            weights: None,
        });
        out.push((mesh.geoset, index));
    }
    out
}

/// The name of geoset `geoset`'s mesh and node.
pub(super) fn geoset_name(model: &str, geoset: usize) -> String {
    format!("{model} geoset {geoset}")
}

/// Positions turned Y up, non-finite coordinates as 0 (glTF refuses NaN).
fn positions(mesh: &Mesh) -> Vec<[f32; 3]> {
    finite(&mesh.positions)
        .into_iter()
        .map(z_up_to_y_up)
        .collect()
}

/// The values with every non-finite component as 0.
fn finite<const N: usize>(values: &[[f32; N]]) -> Vec<[f32; N]> {
    values
        .iter()
        .map(|v| v.map(|c| if c.is_finite() { c } else { 0.0 }))
        .collect()
}

/// Unit normals turned Y up (zero or non-finite ones: the model's +Z).
fn normals(mesh: &Mesh) -> Vec<[f32; 3]> {
    mesh.normals
        .iter()
        .map(|n| z_up_to_y_up(unit(*n).unwrap_or([0.0, 0.0, 1.0])))
        .collect()
}

/// `v` scaled to unit length, `None` when it is zero or not finite.
/// Worked out in `f64`: in `f32` the squared length of a vector with a
/// coordinate above about 1.8e19 is infinite (and below 1e-19 or so, 0),
/// so `normalize` gave a zero vector, which glTF refuses as a normal or
/// tangent.
fn unit(v: [f32; 3]) -> Option<[f32; 3]> {
    let v = glam::DVec3::from_array(v.map(f64::from));
    let length = v.length();
    (v.is_finite() && length > 0.0).then(|| (v / length).to_array().map(|c| c as f32))
}

/// Unit tangents turned Y up with W -1 or +1, for the unit `normals` (Y up
/// already; a zero or non-finite tangent: a unit vector perpendicular to its
/// normal).
fn tangents(tangents: &[[f32; 4]], normals: &[[f32; 3]]) -> Vec<[f32; 4]> {
    tangents
        .iter()
        .zip(normals)
        .map(|([x, y, z, w], normal)| {
            let [x, y, z] = match unit([*x, *y, *z]) {
                Some(v) => z_up_to_y_up(v),
                None => glam::Vec3::from_array(*normal)
                    .any_orthonormal_vector()
                    .to_array(),
            };
            let sign = if *w < 0.0 { -1.0 } else { 1.0 };
            [x, y, z, sign]
        })
        .collect()
}

/// One `JOINTS_n` and `WEIGHTS_n` pair of attributes.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct JointSet {
    /// Four joint indices per vertex.
    pub(super) joints: Vec<[u16; 4]>,
    /// Their weights.
    pub(super) weights: Vec<[f32; 4]>,
}

/// The `JOINTS_n`/`WEIGHTS_n` sets: joint `i + 1` for skeleton node `i`,
/// joint 0 (the root) with weight 1 for a vertex no node holds; unused slots
/// are joint 0 with weight 0.
pub(super) fn joint_sets(mesh: &Mesh) -> Vec<JointSet> {
    let sets = mesh.skin.max_influences().div_ceil(PER_SET).max(1);
    let n = mesh.positions.len();
    let empty = JointSet {
        joints: vec![[0u16; 4]; n],
        weights: vec![[0f32; 4]; n],
    };
    let mut out = vec![empty; sets];
    for v in 0..n {
        let influences = mesh.skin.vertex(v);
        if influences.is_empty() {
            if let Some(w) = out.first_mut().and_then(|set| set.weights.get_mut(v)) {
                w[0] = 1.0;
            }
            continue;
        }
        for (slot, influence) in influences.iter().enumerate() {
            let Some(JointSet { joints, weights }) = out.get_mut(slot / PER_SET) else {
                continue;
            };
            let joint = u16::try_from(influence.node + 1).unwrap_or(0);
            if let (Some(j), Some(w)) = (
                joints.get_mut(v).and_then(|j| j.get_mut(slot % PER_SET)),
                weights.get_mut(v).and_then(|w| w.get_mut(slot % PER_SET)),
            ) {
                *j = joint;
                *w = influence.weight;
            }
        }
    }
    out
}

/// `n` and `what`, with an `s` unless `n` is 1.
fn plural(n: usize, what: &str) -> String {
    match n {
        1 => format!("1 {what}"),
        _ => format!("{n} {what}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn length(v: [f32; 3]) -> f32 {
        glam::Vec3::from_array(v).length()
    }

    /// A normal with a huge coordinate (a corrupt file had 3.02e38) is still
    /// a direction: unit length along it, not the zero vector the `f32`
    /// square overflowed to, which the Khronos validator reports as an error
    /// (`ACCESSOR_VECTOR3_NON_UNIT`). So is a tiny one, whose square is 0 in
    /// `f32`; a zero or non-finite one stays +Z.
    #[test]
    fn huge_and_tiny_normals_scale_to_unit_length() {
        let mesh = Mesh {
            normals: vec![
                [0.458, -0.0058, 3.0241273e38],
                [-f32::MAX, f32::MAX, 0.0],
                [1e-30, 0.0, -1e-30],
                [0.0; 3],
                [f32::NAN, 0.0, 1.0],
            ],
            ..Mesh::default()
        };
        let out = normals(&mesh);
        for n in &out {
            assert!((length(*n) - 1.0).abs() < 1e-6, "{out:?}");
        }
        // Z up turned Y up: (x, y, z) is (x, z, -y).
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let want = [
            [0.0, 1.0, 0.0],
            [-h, 0.0, -h],
            [h, -h, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ];
        for (got, want) in out.iter().zip(want) {
            let close = got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-6);
            assert!(close, "{got:?} is not {want:?}");
        }
    }

    /// Tangents likewise: a huge one keeps its direction, at unit length.
    #[test]
    fn huge_tangents_scale_to_unit_length() {
        let normals = [[0.0, 1.0, 0.0]; 2];
        let out = tangents(&[[3e38, 0.0, 0.0, -1.0], [0.0, 0.0, 0.0, 1.0]], &normals);
        assert_eq!(out[0], [1.0, 0.0, 0.0, -1.0]);
        // A zero one: perpendicular to its normal.
        let [x, y, z, w] = out[1];
        assert!((length([x, y, z]) - 1.0).abs() < 1e-6 && y.abs() < 1e-6 && w == 1.0);
    }
}
