//! Which glTF nodes become which MDX nodes, and their bind matrices
//! (`B`, the [`import`](super::import()) docs' "Motion").

use std::collections::{BTreeMap, BTreeSet};

use crate::anim::glam::{DMat4, DVec3};

use super::accessor;
use super::error::ImportError;
use super::scene::Scene;

/// What an MDX node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A joint, or the node of a mesh without skin: vertices follow it.
    Bone,
    /// A node on the way to a bone or attachment.
    Helper,
    /// A node named like an attachment point (`... Ref`).
    Attachment,
    /// A node carrying a `KHR_lights_punctual` light.
    Light,
}

/// One MDX node made from a glTF node.
pub(super) struct MdxNode {
    /// The glTF node.
    pub gltf: usize,
    pub role: Role,
    /// The MDX parent (an object id).
    pub parent: Option<usize>,
    /// `B`, in glTF world space.
    pub bind: DMat4,
    /// `B⁻¹`.
    pub bind_inverse: DMat4,
}

/// The MDX nodes in object id order (bones first, then lights, helpers
/// and attachments), and which MDX node each glTF node became.
pub(super) struct Skeleton {
    pub nodes: Vec<MdxNode>,
    pub of_gltf: BTreeMap<usize, usize>,
    /// Joints whose inverse bind matrices differ between two skins (the
    /// first skin's is used).
    pub conflicting_binds: Vec<String>,
}

/// Whether a node's name calls it an attachment point, as Warcraft III's
/// models name them (`Origin Ref`, `Hand Right Ref`, `Overhead Ref`).
pub(super) fn is_attachment_name(name: &str) -> bool {
    name.trim_end().to_ascii_lowercase().ends_with(" ref") || name.eq_ignore_ascii_case("ref")
}

/// The change from glTF world space to the model's: Y up to Z up, scaled.
pub(super) fn axes(scale: f64) -> DMat4 {
    DMat4::from_cols_array(&[
        scale, 0.0, 0.0, 0.0, //
        0.0, 0.0, scale, 0.0, //
        0.0, -scale, 0.0, 0.0, //
        0.0, 0.0, 0.0, 1.0,
    ])
}

impl Skeleton {
    /// `meshes`: each instantiated mesh's node and, if skinned, its skin.
    pub fn new(
        document: &gltf::Document,
        buffers: &accessor::Buffers<'_>,
        scene: &Scene,
        meshes: &[(usize, Option<usize>)],
        weighted: &BTreeSet<usize>,
    ) -> Result<Skeleton, ImportError> {
        let worlds = scene.worlds(|n| scene.rest_local(n));
        let rest = |n: usize| worlds.get(n).copied().unwrap_or(DMat4::IDENTITY);
        let mut bind: BTreeMap<usize, DMat4> = BTreeMap::new();
        let mut conflicting_binds = Vec::new();
        let mut skins_done = Vec::new();
        for &(node, skin) in meshes {
            match skin {
                None => {
                    bind.entry(node).or_insert(rest(node));
                }
                Some(s) if !skins_done.contains(&s) => {
                    skins_done.push(s);
                    let Some(skin) = document.skins().nth(s) else {
                        continue;
                    };
                    let joints: Vec<usize> = skin.joints().map(|j| j.index()).collect();
                    let inverse = match skin.inverse_bind_matrices() {
                        Some(a) => {
                            let used_as = format!("skins[{s}].inverseBindMatrices");
                            let m = accessor::floats::<16>(&a, buffers, &used_as, "MAT4 of FLOAT")?;
                            if m.len() < joints.len() {
                                return Err(accessor::error(
                                    &a,
                                    &used_as,
                                    super::error::AccessorProblem::Count {
                                        got: m.len(),
                                        expected: joints.len(),
                                    },
                                ));
                            }
                            m.into_iter()
                                .map(|c| DMat4::from_cols_array(&c.map(f64::from)))
                                .collect()
                        }
                        None => vec![DMat4::IDENTITY; joints.len()],
                    };
                    for (&joint, ibm) in joints.iter().zip(inverse) {
                        let b = if ibm.determinant().abs() > 1e-12 && ibm.is_finite() {
                            ibm.inverse()
                        } else {
                            rest(joint)
                        };
                        match bind.get(&joint) {
                            Some(old) if !old.abs_diff_eq(b, 1e-4) => {
                                conflicting_binds.push(scene.name(joint).to_owned());
                            }
                            Some(_) => {}
                            None => {
                                bind.insert(joint, b);
                            }
                        }
                    }
                }
                Some(_) => {}
            }
        }
        // Bones: the joints vertices are weighted to, and the nodes of meshes
        // without skin. Every other node that matters keeps its bind matrix
        // (a joint's is its inverse bind matrix's inverse, so that the motion
        // is measured from the same pose) and becomes a light if it carries
        // one, an attachment if named as one, or a helper: the joints no
        // vertex follows, and the ancestors of them all.
        let unskinned: BTreeSet<usize> = meshes
            .iter()
            .filter(|(_, s)| s.is_none())
            .map(|&(n, _)| n)
            .collect();
        let is_bone = |n: usize| weighted.contains(&n) || unskinned.contains(&n);
        let has_light = |n: usize| document.nodes().nth(n).is_some_and(|n| n.light().is_some());
        let mut roles: BTreeMap<usize, Role> = BTreeMap::new();
        for n in (0..scene.nodes.len()).filter(|&n| scene.in_scene(n) || bind.contains_key(&n)) {
            let role = if is_bone(n) && bind.contains_key(&n) {
                Role::Bone
            } else if has_light(n) {
                Role::Light
            } else if is_attachment_name(scene.name(n)) {
                Role::Attachment
            } else if bind.contains_key(&n) {
                Role::Helper
            } else {
                continue;
            };
            roles.insert(n, role);
        }
        // Each node's ancestors, up to the first that is already an MDX
        // node (whose own ancestors are, or will be, walked from it).
        let kept: Vec<usize> = roles.keys().copied().collect();
        for n in kept {
            for p in scene.ancestors(n) {
                if roles.contains_key(&p) {
                    break;
                }
                roles.insert(p, Role::Helper);
            }
        }
        let mut nodes: Vec<MdxNode> = Vec::new();
        // The order of their chunks in a file (BONE, LITE, HELP, ATCH):
        // object ids count up in file order.
        let order = [Role::Bone, Role::Light, Role::Helper, Role::Attachment];
        let bind_of = |n: usize| bind.get(&n).copied().unwrap_or_else(|| rest(n));
        let roles: Vec<(usize, Role, DMat4)> = (order.into_iter())
            .flat_map(|role| {
                (roles.iter())
                    .filter(move |(_, r)| **r == role)
                    .map(move |(&n, _)| (n, role, bind_of(n)))
            })
            .collect();
        for (gltf, role, b) in roles {
            let b = if b.determinant().abs() > 1e-12 && b.is_finite() {
                b
            } else {
                DMat4::from_translation(b.w_axis.truncate())
            };
            nodes.push(MdxNode {
                gltf,
                role,
                parent: None,
                bind: b,
                bind_inverse: b.inverse(),
            });
        }
        let bones = nodes.iter().filter(|n| n.role == Role::Bone).count();
        if bones > 256 {
            return Err(ImportError::TooManyBones { bones });
        }
        let of_gltf: BTreeMap<usize, usize> =
            nodes.iter().enumerate().map(|(i, n)| (n.gltf, i)).collect();
        for node in &mut nodes {
            node.parent = scene
                .ancestors(node.gltf)
                .find_map(|p| of_gltf.get(&p).copied());
        }
        Ok(Skeleton {
            nodes,
            of_gltf,
            conflicting_binds,
        })
    }

    /// MDX node `i`.
    pub fn node(&self, i: usize) -> Option<&MdxNode> {
        self.nodes.get(i)
    }

    /// Each node's pivot in the model's space: where its bind matrix puts
    /// the origin.
    pub fn pivots(&self, c: DMat4) -> Vec<DVec3> {
        self.nodes
            .iter()
            .map(|n| c.transform_point3(n.bind.w_axis.truncate()))
            .collect()
    }
}
