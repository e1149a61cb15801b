//! The model's nodes as glTF nodes under a root that turns Z up into Y up,
//! and the skin; how is in the [`gltf`](crate::gltf#nodes-and-skin) docs.

use gltf_json as json;
use json::Index;

use crate::anim::Skeleton;
use crate::gltf::builder::Builder;

/// The glTF nodes made for a model.
pub(super) struct ModelNodes {
    /// The root (joint 0).
    pub(super) root: Index<json::Node>,
    /// One per skeleton node, same order.
    pub(super) nodes: Vec<Index<json::Node>>,
}

/// `-90°` about X: Z up becomes Y up.
pub(crate) const Z_UP_TO_Y_UP: [f32; 4] = [
    -core::f32::consts::FRAC_1_SQRT_2,
    0.0,
    0.0,
    core::f32::consts::FRAC_1_SQRT_2,
];

/// A point or direction of the model's Z-up space turned into glTF's Y up,
/// as [`Z_UP_TO_Y_UP`] turns it: `(x, y, z)` becomes `(x, z, -y)`, exactly
/// (no rounding).
pub(super) fn z_up_to_y_up([x, y, z]: [f32; 3]) -> [f32; 3] {
    [x, z, -y]
}

/// The rest translation of skeleton node `i`: its pivot minus its parent's
/// (pivots are finite, see [`SkeletonNode::pivot`](crate::anim::SkeletonNode::pivot);
/// a difference past the largest `f32`, between two pivots near it on either
/// side, is that largest `f32`: glTF's JSON has no infinity, and
/// `serde_json` writes `null`, which readers refuse).
pub(super) fn rest_translation(skeleton: &Skeleton, i: usize) -> [f32; 3] {
    let Some(node) = skeleton.nodes().get(i) else {
        return [0.0; 3];
    };
    let parent = node
        .parent
        .and_then(|p| skeleton.nodes().get(p))
        .map_or([0.0; 3], |p| p.pivot);
    let [x, y, z] = node.pivot;
    let [px, py, pz] = parent;
    [x - px, y - py, z - pz].map(|c| c.clamp(f32::MIN, f32::MAX))
}

/// Adds the root and one node per skeleton node, with their children.
pub(super) fn add_nodes(b: &mut Builder, skeleton: &Skeleton, name: &str) -> ModelNodes {
    let root = b.push(json::Node {
        name: Some(name.to_string()),
        rotation: Some(json::scene::UnitQuaternion(Z_UP_TO_Y_UP)),
        ..Default::default()
    });
    let nodes: Vec<Index<json::Node>> = skeleton
        .nodes()
        .iter()
        .enumerate()
        .map(|(i, node)| {
            b.push(json::Node {
                name: Some(node.name.clone()),
                translation: Some(rest_translation(skeleton, i)),
                ..Default::default()
            })
        })
        .collect();
    let mut children: Vec<Vec<Index<json::Node>>> = vec![Vec::new(); nodes.len() + 1];
    for (i, node) in skeleton.nodes().iter().enumerate() {
        let parent = node.parent.map_or(0, |p| p + 1);
        if let (Some(list), Some(&me)) = (children.get_mut(parent), nodes.get(i)) {
            list.push(me);
        }
    }
    let all = std::iter::once(root).chain(nodes.iter().copied());
    for (index, kids) in all.zip(children) {
        if let Some(node) = b.root_mut().nodes.get_mut(index.value())
            && !kids.is_empty()
        {
            node.children = Some(kids);
        }
    }
    ModelNodes { root, nodes }
}

/// What the nodes do that glTF cannot carry, one warning line each: nodes
/// that turn to face the camera (billboarded: in glTF they keep one
/// orientation) and emitters (particles, ribbons, popcorn: their nodes are
/// exported, their effects are not), and names that are not UTF-8 (glTF's
/// names are).
pub(super) fn not_carried(skeleton: &Skeleton) -> Vec<String> {
    let mut warnings = Vec::new();
    let billboarded: Vec<&str> = skeleton
        .nodes()
        .iter()
        .filter(|n| n.billboarded)
        .map(|n| n.name.as_str())
        .collect();
    if let [first, rest @ ..] = billboarded.as_slice() {
        let more = match rest {
            [] => String::new(),
            [second] => format!(" and {second:?}"),
            more => format!(" and {} more", more.len()),
        };
        let (n, s, verb) = match rest.len() {
            0 => (1, "", "keeps"),
            more => (more + 1, "s", "keep"),
        };
        warnings.push(format!(
            "{n} billboarded node{s} ({first:?}{more}) {verb} one orientation: glTF has no billboards"
        ));
    }
    let emitters = skeleton
        .nodes()
        .iter()
        .filter(|n| n.kind.is_emitter())
        .count();
    if emitters > 0 {
        warnings.push(format!(
            "{emitters} emitter{} (particles, ribbons) exported as nodes only: glTF has no particles",
            if emitters == 1 { "" } else { "s" },
        ));
    }
    let mangled = skeleton
        .nodes()
        .iter()
        .filter(|n| n.name.contains(char::REPLACEMENT_CHARACTER))
        .count();
    if mangled > 0 {
        warnings.push(format!(
            "{mangled} node name{} not UTF-8 (written in another code page, such as GBK): \
             U+FFFD stands for the bytes glTF cannot hold",
            if mangled == 1 { " is" } else { "s are" },
        ));
    }
    warnings
}

/// The skin: joints root then every node, inverse bind matrices as above.
pub(super) fn add_skin(
    b: &mut Builder,
    skeleton: &Skeleton,
    nodes: &ModelNodes,
) -> Index<json::Skin> {
    let mut matrices: Vec<[f32; 16]> = vec![inverse_rest([0.0; 3])];
    for node in skeleton.nodes() {
        matrices.push(inverse_rest(node.pivot));
    }
    let inverse_bind_matrices = b.accessor(&matrices, None, false);
    b.push(json::Skin {
        extensions: None,
        extras: Default::default(),
        inverse_bind_matrices: Some(inverse_bind_matrices),
        joints: std::iter::once(nodes.root)
            .chain(nodes.nodes.iter().copied())
            .collect(),
        name: None,
        skeleton: Some(nodes.root),
    })
}

/// The inverse of the rest world matrix of a joint at `pivot`, column-major:
/// Y up turned back to Z up (+90° about X, the inverse of
/// [`Z_UP_TO_Y_UP`]: `(x, y, z)` becomes `(x, -z, y)`), then a
/// translation by minus the pivot.
fn inverse_rest([x, y, z]: [f32; 3]) -> [f32; 16] {
    [
        1.0, 0.0, 0.0, 0.0, //
        0.0, 0.0, 1.0, 0.0, //
        0.0, -1.0, 0.0, 0.0, //
        -x, -y, -z, 1.0,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdx::Model;

    fn bone(name: &str, object_id: u32, parent_id: u32) -> crate::mdx::Bone {
        crate::anim::skeleton::tests::bone(name, object_id, parent_id, Vec::new())
    }

    /// Every node's rest translation goes into the JSON, where an infinity
    /// or NaN is written `null` (the Khronos validator: "Array element null
    /// is not a 'number'"): a damaged pivot (NaN, infinite) stands at 0, and
    /// a child 3e38 past a parent at -3e38 is the largest `f32` away.
    #[test]
    fn rest_translations_are_finite() {
        let mut model = Model::new(800);
        model.bones_mut().extend([
            bone("root", 0, u32::MAX),
            bone("child", 1, 0),
            bone("odd", 2, 0),
        ]);
        model.pivot_points_mut().extend([
            [-3e38, 1.0, 0.0],
            [3e38, 2.0, 0.0],
            [f32::NAN, f32::INFINITY, 5.0],
        ]);
        let skeleton = Skeleton::from_model(&model);
        assert_eq!(rest_translation(&skeleton, 0), [-3e38, 1.0, 0.0]);
        assert_eq!(rest_translation(&skeleton, 1), [f32::MAX, 1.0, 0.0]);
        assert_eq!(rest_translation(&skeleton, 2), [3e38, -1.0, 5.0]);
        let mut b = Builder::new("m");
        let nodes = add_nodes(&mut b, &skeleton, "m");
        let json = b.finish(vec![nodes.root]).root;
        let text = serde_json::to_string(&json).unwrap();
        assert!(!text.contains("null"), "{text}");
    }
}
