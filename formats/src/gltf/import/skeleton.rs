//! Which glTF nodes become which MDX nodes, and the matrices that carry a
//! glTF node's motion into Warcraft III's space.
//!
//! MDX nodes have no rest rotation: a node's transform moves the vertices
//! from where the model stores them. So each MDX node `i` has a bind
//! matrix `B_i` (glTF world space): for a joint, the inverse of its inverse
//! bind matrix; for any other node, its world matrix at rest. The node's
//! MDX world matrix at a time is then `C · G_i(t) · B_i⁻¹ · C⁻¹`, `G_i(t)`
//! its glTF world matrix then and `C` the change from glTF's Y-up metres
//! to the game's Z-up units (`(x, y, z)` to `(x, -z, y)`, times the scale).
//! A skinned vertex stored at `C · v` (its mesh-space position) is moved by
//! its joints exactly as glTF moves `v`; an unskinned mesh's vertex is
//! stored at `C · B · v` and moved by its node's bone.

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

/// The MDX nodes in object id order (bones first, then helpers, then
/// attachments), and which MDX node each glTF node became.
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
        // Helpers: the ancestors of bones and attachments; attachments: named
        // nodes of the scene that are not bones.
        let attachments: Vec<usize> = (0..scene.nodes.len())
            .filter(|&n| {
                scene.in_scene(n) && !bind.contains_key(&n) && is_attachment_name(scene.name(n))
            })
            .collect();
        // Each node's ancestors, up to the first that is already an MDX
        // node (whose own ancestors are, or will be, walked from it).
        let mut made: BTreeSet<usize> = bind.keys().chain(&attachments).copied().collect();
        let mut helpers = Vec::new();
        for &n in bind.keys().chain(&attachments) {
            for p in scene.ancestors(n) {
                if !made.insert(p) {
                    break;
                }
                helpers.push(p);
            }
        }
        helpers.sort_unstable();
        let mut nodes: Vec<MdxNode> = Vec::new();
        let roles = bind
            .iter()
            .map(|(&n, &b)| (n, Role::Bone, b))
            .chain(helpers.iter().map(|&n| (n, Role::Helper, rest(n))))
            .chain(attachments.iter().map(|&n| (n, Role::Attachment, rest(n))));
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
