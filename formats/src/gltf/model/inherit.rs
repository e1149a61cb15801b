//! Nodes that do not take on all of their parent's motion (the "don't
//! inherit" flags), their transforms baked for glTF, whose nodes always
//! take on all of it; how, and where it cannot be exact, is in the
//! [`gltf`](crate::gltf#animations) docs.

use crate::anim::glam::{Mat4, Quat, Vec3};
use crate::anim::skeleton::normalized;
use crate::anim::{LocalTransform, Skeleton};

use super::curve::{Curve, Span, linear_rotations};
use super::nodes::rest_translation;

/// For each skeleton node, whether its glTF transform is baked: it does not
/// take on all of its parent's motion and has an ancestor with a track.
pub(super) fn baked_nodes(skeleton: &Skeleton) -> Vec<bool> {
    let nodes = skeleton.nodes();
    let moves = |i: usize| {
        nodes
            .get(i)
            .is_some_and(|n| n.translation.is_some() || n.rotation.is_some() || n.scaling.is_some())
    };
    // Whether some ancestor moves, parents first (one pass over the order).
    let mut moving_above = vec![false; nodes.len()];
    for &i in skeleton.order() {
        let parent = nodes.get(i).and_then(|n| n.parent);
        let above = parent.is_some_and(|p| moves(p) || moving_above.get(p) == Some(&true));
        if let Some(slot) = moving_above.get_mut(i) {
            *slot = above;
        }
    }
    nodes
        .iter()
        .zip(moving_above)
        .map(|(n, above)| above && !n.inherit.all())
        .collect()
}

/// A baked node's three curves over one sequence.
pub(super) struct BakedCurves {
    /// glTF `translation`.
    pub(super) translation: Curve<[f32; 3]>,
    /// glTF `rotation` (unit quaternions, as [`linear_rotations`] leaves them).
    pub(super) rotation: Curve<[f32; 4]>,
    /// glTF `scale`.
    pub(super) scale: Curve<[f32; 3]>,
}

/// The glTF local transform of skeleton node `node` that gives it the
/// world transform `world` under a parent whose world transform is
/// `parent_world`, or `None` when there is none (a singular parent, or a
/// value that is not finite).
fn local_under(
    skeleton: &Skeleton,
    node: usize,
    parent_world: Mat4,
    world: Mat4,
) -> Option<(Vec3, Quat, Vec3)> {
    let nodes = skeleton.nodes();
    let pivot = Vec3::from(nodes.get(node)?.pivot);
    let parent_pivot = nodes
        .get(node)
        .and_then(|n| n.parent)
        .and_then(|p| nodes.get(p))
        .map_or(Vec3::ZERO, |p| Vec3::from(p.pivot));
    let det = parent_world.determinant();
    if !det.is_finite() || det.abs() < 1e-12 {
        return None;
    }
    let local = Mat4::from_translation(-parent_pivot)
        * parent_world.inverse()
        * world
        * Mat4::from_translation(pivot);
    let (scale, rotation, translation) = local.to_scale_rotation_translation();
    let finite = scale.is_finite() && rotation.is_finite() && translation.is_finite();
    finite.then(|| (translation, rotation.normalize(), scale))
}

/// The curves over `span` of each node [`baked_nodes`] marks in `baked`,
/// with its index.
pub(super) fn curves(
    span: &Span<'_>,
    skeleton: &Skeleton,
    baked: &[bool],
) -> Vec<(usize, BakedCurves)> {
    let baked: Vec<usize> = (0..)
        .zip(baked)
        .filter_map(|(i, &b)| b.then_some(i))
        .collect();
    if baked.is_empty() {
        return Vec::new();
    }
    let times = span.resample_times();
    let mut samples: Vec<Vec<(Vec3, Quat, Vec3)>> =
        vec![Vec::with_capacity(times.len()); baked.len()];
    for &ms in &times {
        let sampler = span.sampler(ms);
        let pose = skeleton.pose(&sampler);
        for (&node, out) in baked.iter().zip(&mut samples) {
            let parent = skeleton.nodes().get(node).and_then(|n| n.parent);
            let parent_world = parent.and_then(|p| pose.world.get(p)).copied();
            let world = pose.world.get(node).copied();
            let baked = parent_world
                .zip(world)
                .and_then(|(pw, w)| local_under(skeleton, node, pw, w));
            out.push(
                baked.unwrap_or_else(|| own_local(skeleton, node, skeleton.local(node, &sampler))),
            );
        }
    }
    let curves = samples.into_iter().map(|values| {
        let component = |f: fn(&(Vec3, Quat, Vec3)) -> [f32; 3]| values.iter().map(f).collect();
        let rotations = values.iter().map(|v| v.1.to_array()).collect();
        BakedCurves {
            translation: span.linear_curve(&times, component(|v| v.0.to_array())),
            rotation: linear_rotations(span.linear_curve(&times, rotations)),
            scale: span.linear_curve(&times, component(|v| v.2.to_array())),
        }
    });
    baked.into_iter().zip(curves).collect()
}

/// The node's glTF transform from its own tracks, as an unbaked node's.
fn own_local(skeleton: &Skeleton, node: usize, local: LocalTransform) -> (Vec3, Quat, Vec3) {
    let rest = Vec3::from(rest_translation(skeleton, node));
    (
        Vec3::from(local.translation) + rest,
        normalized(local.rotation),
        Vec3::from(local.scaling),
    )
}
