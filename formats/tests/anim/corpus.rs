//! `formats::anim` on every corpus model: skeletons, skins and poses are
//! well formed at every sequence's start, middle and end, and one vertex per
//! animated model posed by the library equals the same vertex posed by hand
//! from the sampled tracks of its bone.

use crate::common;

use formats::anim::glam::{Mat4, Quat, Vec3};
use formats::anim::{Moment, Sampler, Skeleton, Timeline, meshes};
use formats::mdx::Model;

fn models() -> Vec<(String, Model)> {
    common::corpus_models()
}

#[test]
fn every_model_poses_at_every_sequence() {
    let models = models();
    let mut posed_vertices = 0usize;
    for (path, model) in &models {
        let skeleton = Skeleton::from_model(model);
        let timeline = Timeline::from_model(model);
        let meshes = meshes(model, &skeleton);
        assert_eq!(skeleton.order().len(), skeleton.nodes().len(), "{path}");
        for mesh in &meshes {
            assert_eq!(mesh.skin.len(), mesh.positions.len(), "{path}");
            for v in 0..mesh.skin.len() {
                let total: f32 = mesh.skin.vertex(v).iter().map(|i| i.weight).sum();
                assert!(
                    mesh.skin.vertex(v).is_empty() || (total - 1.0).abs() < 1e-5,
                    "{path}: vertex {v} weighs {total}"
                );
            }
        }
        let mut moments = vec![Moment::BIND];
        for (i, sequence) in timeline.sequences.iter().enumerate() {
            for ms in [
                0.0,
                f64::from(sequence.duration()) / 2.0,
                f64::from(sequence.duration()),
            ] {
                moments.extend(timeline.at(i, ms));
            }
        }
        for moment in moments {
            let pose = skeleton.pose(&Sampler::new(&timeline, moment));
            for mesh in &meshes {
                for (p, bind) in mesh.posed_positions(&pose).iter().zip(&mesh.positions) {
                    if bind.iter().all(|c| c.is_finite()) {
                        assert!(p.iter().all(|c| c.is_finite()), "{path}: {moment:?}");
                    }
                }
                posed_vertices += mesh.positions.len();
            }
        }
        // Outside every sequence nothing moves (up to the rounding of
        // weights that sum to 1).
        let bind = skeleton.pose(&Sampler::new(&timeline, Moment::BIND));
        for mesh in &meshes {
            for (p, q) in mesh.posed_positions(&bind).iter().zip(&mesh.positions) {
                let (p, q) = (Vec3::from_array(*p), Vec3::from_array(*q));
                if q.is_finite() {
                    assert!(
                        p.distance(q) <= 1e-5 * q.abs().max_element().max(1.0),
                        "{path}: {p} vs {q}"
                    );
                }
            }
        }
    }
    if !models.is_empty() {
        assert!(posed_vertices > 1_000_000, "{posed_vertices}");
    }
}

/// The middle of the first sequence in which some vertex moves, with the
/// first vertex that is skinned to one bone only.
fn hand_check(path: &str, model: &Model) -> bool {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let meshes = meshes(model, &skeleton);
    for (s, sequence) in timeline.sequences.iter().enumerate() {
        let moment = timeline
            .at(s, f64::from(sequence.duration()) / 2.0)
            .unwrap();
        let sampler = Sampler::new(&timeline, moment);
        let pose = skeleton.pose(&sampler);
        for mesh in &meshes {
            for (v, position) in mesh.positions.iter().enumerate() {
                let [influence] = mesh.skin.vertex(v) else {
                    continue;
                };
                let posed = mesh.skin.pose_point(v, &pose, *position);
                if Vec3::from_array(posed).distance(Vec3::from_array(*position)) < 1e-3 {
                    continue;
                }
                // By hand: the bone and its ancestors, each sampled and
                // composed about its pivot, root last.
                let mut world = Mat4::IDENTITY;
                let mut at = Some(influence.node as usize);
                while let Some(i) = at {
                    let node = &skeleton.nodes()[i];
                    assert!(
                        node.inherit.all(),
                        "{path}: pick a model without inherit flags"
                    );
                    let t = sampler.sample_or(node.translation.as_ref(), &[0.0; 3]);
                    let r = sampler.sample_or(node.rotation.as_ref(), &[0.0, 0.0, 0.0, 1.0]);
                    let sc = sampler.sample_or(node.scaling.as_ref(), &[1.0; 3]);
                    let p = Vec3::from_array(node.pivot);
                    let local = Mat4::from_translation(Vec3::from_array(t))
                        * Mat4::from_translation(p)
                        * Mat4::from_quat(Quat::from_array(r).normalize())
                        * Mat4::from_scale(Vec3::from_array(sc))
                        * Mat4::from_translation(-p);
                    world = local * world;
                    at = node.parent;
                }
                let by_hand = world.transform_point3(Vec3::from_array(*position));
                let scale = by_hand.abs().max_element().max(1.0);
                assert!(
                    by_hand.distance(Vec3::from_array(posed)) < 1e-4 * scale,
                    "{path}: {} vertex {v}: library {posed:?}, by hand {by_hand}",
                    sequence.name
                );
                return true;
            }
        }
    }
    false
}

#[test]
fn a_posed_vertex_equals_its_bone_chain_sampled_by_hand() {
    let models = models();
    let mut checked = Vec::new();
    for (path, model) in &models {
        let names = [
            "rms_PackHorse",
            "pqw3_HarvestGolem",
            "wowalpha_Boar",
            "tm_TM_DruidBear",
        ];
        if names.iter().any(|n| path.contains(n)) && hand_check(path, model) {
            checked.push(path.as_str());
        }
    }
    if !models.is_empty() {
        assert_eq!(checked.len(), 4, "{checked:?}");
    }
}
