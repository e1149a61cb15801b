//! `formats::gltf::export` on every corpus model, read back with the `gltf`
//! crate (an independent reader that also validates the document): counts
//! against the model (primitives, vertices, indices, UV sets, joints and
//! their names, skin weights per vertex, animations and their names), and
//! the skinned mesh posed by evaluating the glTF animations here (glTF's
//! own interpolation rules) against `formats::anim` at the same times.
//! Known answers on built or edited models: `BIDX`/`BWGT` and v1500 vertex
//! skinning, levels of detail 0, 1, 2 and -1, a forward-slash texture path,
//! DontInterp tracks as `STEP` samplers (that export also checked by the
//! Khronos validator, as `gltf_validate.rs` does the corpus's).

use crate::common;

use common::z_up_to_y_up;
use formats::anim::glam::{DQuat, Mat4, Quat, Vec3};
use formats::anim::{Moment, Sampler, Skeleton, Timeline, meshes};
use formats::gltf::{
    ExportError, ExportOptions, FlatTextures, TextureError, TextureFolders, export,
};
use formats::mdx::Model;
use gltf::animation::{Interpolation, Property};
use gltf::mesh::Semantic;

fn models() -> Vec<(String, Model)> {
    common::corpus_models()
}

/// The 4D dot product of two quaternions: negative when they lie on
/// opposite sides (q and -q are one rotation).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Whether a rotation channel has two keys on opposite sides, which a
/// player that interpolates components turns the long way between.
fn turns_the_long_way(c: &Channel) -> bool {
    c.property == Property::Rotation && c.values.windows(2).any(|w| dot(&w[0], &w[1]) < 0.0)
}

/// `model` exported with the default options, and its `.glb` read back by
/// the `gltf` crate.
fn exported(path: &str, model: &Model) -> (formats::gltf::Export, gltf::Gltf) {
    let out = export(model, "m", &ExportOptions::default()).unwrap();
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap_or_else(|e| panic!("{path}: {e}"));
    (out, gltf)
}

/// One glTF animation channel, read back.
pub(crate) struct Channel {
    node: usize,
    property: Property,
    interpolation: Interpolation,
    times: Vec<f32>,
    values: Vec<Vec<f32>>,
}

/// The channels of a glTF animation, read back.
pub(crate) fn channels(animation: &gltf::Animation<'_>, blob: &[u8]) -> Vec<Channel> {
    animation
        .channels()
        .map(|channel| {
            let reader = channel.reader(|_| Some(blob));
            let times: Vec<f32> = reader.read_inputs().unwrap().collect();
            let values: Vec<Vec<f32>> = match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::Translations(t) => {
                    t.map(|v| v.to_vec()).collect()
                }
                gltf::animation::util::ReadOutputs::Scales(s) => s.map(|v| v.to_vec()).collect(),
                gltf::animation::util::ReadOutputs::Rotations(r) => {
                    r.into_f32().map(|v| v.to_vec()).collect()
                }
                gltf::animation::util::ReadOutputs::MorphTargetWeights(_) => {
                    panic!("no morph targets")
                }
            };
            Channel {
                node: channel.target().node().index(),
                property: channel.target().property(),
                interpolation: channel.sampler().interpolation(),
                times,
                values,
            }
        })
        .collect()
}

/// The channel's value at `t` seconds, by the glTF 2.0 specification
/// (Appendix C): step, linear (slerp for rotations), cubic Hermite spline
/// with tangents scaled by the segment's duration.
fn evaluate(c: &Channel, t: f32) -> Vec<f32> {
    let cubic = c.interpolation == Interpolation::CubicSpline;
    let value = |k: usize| c.values[if cubic { 3 * k + 1 } else { k }].clone();
    let n = c.times.len();
    if t <= c.times[0] {
        return value(0);
    }
    if t >= c.times[n - 1] {
        return value(n - 1);
    }
    let k = c.times.iter().rposition(|&x| x <= t).unwrap();
    let (t0, t1) = (c.times[k], c.times[k + 1]);
    let d = t1 - t0;
    let s = (t - t0) / d;
    let rotation = c.property == Property::Rotation;
    let out = match c.interpolation {
        Interpolation::Step => value(k),
        Interpolation::Linear if rotation => {
            let q = |v: Vec<f32>| Quat::from_slice(&v);
            q(value(k)).slerp(q(value(k + 1)), s).to_array().to_vec()
        }
        Interpolation::Linear => value(k)
            .iter()
            .zip(value(k + 1))
            .map(|(a, b)| a + (b - a) * s)
            .collect(),
        Interpolation::CubicSpline => {
            let (p0, b0) = (&c.values[3 * k + 1], &c.values[3 * k + 2]);
            let (a1, p1) = (&c.values[3 * (k + 1)], &c.values[3 * (k + 1) + 1]);
            let (s2, s3) = (s * s, s * s * s);
            (0..p0.len())
                .map(|i| {
                    (2.0 * s3 - 3.0 * s2 + 1.0) * p0[i]
                        + d * (s3 - 2.0 * s2 + s) * b0[i]
                        + (-2.0 * s3 + 3.0 * s2) * p1[i]
                        + d * (s3 - s2) * a1[i]
                })
                .collect()
        }
    };
    if rotation {
        Quat::from_slice(&out).normalize().to_array().to_vec()
    } else {
        out
    }
}

/// Every node's global matrix, with the animation's channels at `t` seconds
/// (no animation: the rest pose).
pub(crate) fn globals(doc: &gltf::Document, channels: &[Channel], t: f32) -> Vec<Mat4> {
    let nodes: Vec<_> = doc.nodes().collect();
    let mut local: Vec<(Vec3, Quat, Vec3)> = nodes
        .iter()
        .map(|n| {
            let (t, r, s) = n.transform().decomposed();
            (Vec3::from(t), Quat::from_array(r), Vec3::from(s))
        })
        .collect();
    for c in channels {
        let v = evaluate(c, t);
        let slot = &mut local[c.node];
        match c.property {
            Property::Translation => slot.0 = Vec3::from_slice(&v),
            Property::Rotation => slot.1 = Quat::from_slice(&v),
            Property::Scale => slot.2 = Vec3::from_slice(&v),
            Property::MorphTargetWeights => unreachable!(),
        }
    }
    let mut parent = vec![None; nodes.len()];
    for n in &nodes {
        for child in n.children() {
            parent[child.index()] = Some(n.index());
        }
    }
    fn global(i: usize, parent: &[Option<usize>], local: &[(Vec3, Quat, Vec3)]) -> Mat4 {
        let (t, r, s) = local[i];
        let m = Mat4::from_scale_rotation_translation(s, r, t);
        match parent[i] {
            Some(p) => global(p, parent, local) * m,
            None => m,
        }
    }
    (0..nodes.len())
        .map(|i| global(i, &parent, &local))
        .collect()
}

/// The skin's inverse bind matrices, one per joint.
fn inverse_bind_matrices(skin: &gltf::Skin<'_>, blob: &[u8]) -> Vec<Mat4> {
    skin.reader(|_| Some(blob))
        .read_inverse_bind_matrices()
        .unwrap()
        .map(|m| Mat4::from_cols_array_2d(&m))
        .collect()
}

/// Positions of every primitive (in the order of the meshes, then of their
/// primitives) skinned by the first skin with the joints' global matrices.
pub(crate) fn skinned(doc: &gltf::Document, blob: &[u8], globals: &[Mat4]) -> Vec<Vec<Vec3>> {
    let Some(skin) = doc.skins().next() else {
        return Vec::new();
    };
    let ibm = inverse_bind_matrices(&skin, blob);
    let joints: Vec<Mat4> = skin
        .joints()
        .zip(&ibm)
        .map(|(j, ibm)| globals[j.index()] * *ibm)
        .collect();
    doc.meshes()
        .flat_map(|m| m.primitives())
        .map(|p| {
            let reader = p.reader(|_| Some(blob));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let mut out = vec![Vec3::ZERO; positions.len()];
            let mut set = 0;
            while let (Some(j), Some(w)) = (reader.read_joints(set), reader.read_weights(set)) {
                for (v, (j, w)) in j.into_u16().zip(w.into_f32()).enumerate() {
                    for (j, w) in j.iter().zip(w) {
                        out[v] +=
                            joints[usize::from(*j)].transform_point3(Vec3::from(positions[v])) * w;
                    }
                }
                set += 1;
            }
            assert!(set > 0);
            out
        })
        .collect()
}

#[test]
fn every_export_reads_back_with_the_models_counts_and_skin() {
    let models = models();
    let mut primitives = 0;
    for (path, model) in &models {
        let (out, gltf) = exported(path, model);
        let doc = &gltf.document;
        let blob = gltf.blob.as_deref().unwrap_or_default();
        let skeleton = Skeleton::from_model(model);
        let timeline = Timeline::from_model(model);
        let all = meshes(model, &skeleton);
        // Animations: one per sequence, in order, named as it.
        let names: Vec<&str> = doc.animations().map(|a| a.name().unwrap()).collect();
        let sequences: Vec<&str> = timeline.sequences.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, sequences, "{path}");
        // Nodes: the root, then every node of the model by name.
        let node_names: Vec<&str> = doc.nodes().filter_map(|n| n.name()).collect();
        for node in skeleton.nodes() {
            assert!(
                node_names.contains(&node.name.as_str()),
                "{path}: {}",
                node.name
            );
        }
        if doc.meshes().next().is_none() {
            assert!(out.geosets.is_empty(), "{path}");
            continue;
        }
        let skin = doc.skins().next().unwrap();
        assert_eq!(skin.joints().count(), skeleton.nodes().len() + 1, "{path}");
        let joint_names: Vec<&str> = skin.joints().skip(1).map(|j| j.name().unwrap()).collect();
        let model_names: Vec<&str> = skeleton.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(joint_names, model_names, "{path}");
        // One mesh of one primitive per geoset, on a node of its own with
        // the skin, named for the geoset.
        assert_eq!(doc.meshes().count(), out.geosets.len(), "{path}");
        for (mesh, &geoset) in doc.meshes().zip(&out.geosets) {
            assert_eq!(mesh.primitives().count(), 1, "{path}");
            let name = format!("m geoset {geoset}");
            assert_eq!(mesh.name(), Some(name.as_str()), "{path}");
            let node = doc
                .nodes()
                .find(|n| n.mesh().is_some_and(|m| m.index() == mesh.index()));
            let node = node.unwrap_or_else(|| panic!("{path}: no node for {name}"));
            assert_eq!(node.name(), Some(name.as_str()), "{path}");
            assert_eq!(node.skin().map(|s| s.index()), Some(skin.index()), "{path}");
        }
        for (primitive, &geoset) in doc.meshes().flat_map(|m| m.primitives()).zip(&out.geosets) {
            let source = &all[geoset];
            let count = |s: Semantic| primitive.get(&s).map(|a| a.count());
            assert_eq!(
                count(Semantic::Positions),
                Some(source.positions.len()),
                "{path}"
            );
            assert_eq!(
                primitive.indices().unwrap().count(),
                source.triangles.len() * 3,
                "{path}"
            );
            let uv_sets = (0..)
                .take_while(|&i| count(Semantic::TexCoords(i)).is_some())
                .count();
            assert_eq!(uv_sets, source.uv_sets.len(), "{path}");
            // Each vertex's joints and weights are its skin's influences.
            let reader = primitive.reader(|_| Some(blob));
            let mut per_vertex = vec![Vec::new(); source.positions.len()];
            let mut set = 0;
            while let (Some(j), Some(w)) = (reader.read_joints(set), reader.read_weights(set)) {
                for (v, (j, w)) in j.into_u16().zip(w.into_f32()).enumerate() {
                    per_vertex[v].extend(j.into_iter().zip(w).filter(|(_, w)| *w > 0.0));
                }
                set += 1;
            }
            for (v, got) in per_vertex.iter().enumerate() {
                let want: Vec<(u16, f32)> = match source.skin.vertex(v) {
                    [] => vec![(0, 1.0)],
                    influences => influences
                        .iter()
                        .map(|i| (i.node as u16 + 1, i.weight))
                        .collect(),
                };
                assert_eq!(*got, want, "{path}: geoset {geoset} vertex {v}");
            }
            primitives += 1;
        }
    }
    if !models.is_empty() {
        assert!(primitives >= 150, "{primitives}");
    }
}

/// The skin binds the meshes where the nodes stand at rest: every joint's
/// inverse bind matrix is the inverse of its rest world matrix, and the
/// vertices and normals are the model's turned Y up (exactly), where the
/// root's rotation puts the skeleton. Blender's importer takes its rest
/// pose from the inverse bind matrices: with the root's joint bound
/// unrotated, every model lay on its side in Blender's rest pose, edit
/// mode and a cleared pose, and in what Blender exports from it.
#[test]
fn the_bind_pose_is_the_rest_pose() {
    let models = models();
    let mut joints = 0;
    for (path, model) in &models {
        let (out, gltf) = exported(path, model);
        let doc = &gltf.document;
        let blob = gltf.blob.as_deref().unwrap_or_default();
        let Some(skin) = doc.skins().next() else {
            continue;
        };
        let rest = globals(doc, &[], 0.0);
        let ibm = inverse_bind_matrices(&skin, blob);
        for (joint, ibm) in skin.joints().zip(&ibm) {
            let bind = rest[joint.index()] * *ibm;
            let scale = rest[joint.index()]
                .w_axis
                .truncate()
                .abs()
                .max_element()
                .max(1.0);
            assert!(
                bind.abs_diff_eq(Mat4::IDENTITY, 1e-6 * scale),
                "{path}: joint {:?}: rest x inverse bind = {bind}",
                joint.name()
            );
            joints += 1;
        }
        let all = meshes(model, &Skeleton::from_model(model));
        for (primitive, &geoset) in doc.meshes().flat_map(|m| m.primitives()).zip(&out.geosets) {
            let reader = primitive.reader(|_| Some(blob));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let want: Vec<[f32; 3]> = all[geoset]
                .positions
                .iter()
                .copied()
                .map(z_up_to_y_up)
                .collect();
            assert_eq!(positions, want, "{path}: geoset {geoset}");
            let Some(normals) = reader.read_normals() else {
                continue;
            };
            for (v, (got, n)) in normals.zip(&all[geoset].normals).enumerate() {
                let n = Vec3::from(*n);
                if n.length() > 1e-6 {
                    let want = Vec3::from(z_up_to_y_up(n.normalize().to_array()));
                    assert!(
                        Vec3::from(got).abs_diff_eq(want, 1e-5),
                        "{path}: geoset {geoset} normal {v}: {got:?}, want {want}"
                    );
                }
            }
        }
    }
    if !models.is_empty() {
        assert!(joints >= 1000, "{joints}");
    }
}

/// The Khronos validator, where there is one, finds 0 errors and 0
/// warnings in `glb` (written to a temporary folder named after `name`).
fn assert_glb_clean(name: &str, glb: &[u8]) {
    let dir = common::temp_dir(name);
    let file = dir.join("model.glb");
    std::fs::write(&file, glb).unwrap();
    testkit::gltf_validator::assert_all_clean(&[file]);
}

/// Poses the `.glb` export of `model` by its own animations, evaluated here
/// by glTF's rules, at each of `moments` (`None`: the rest pose; `Some(s)`:
/// `ms` milliseconds into sequence `s`, which is the export's animation
/// `s`), and asserts every node stands where `formats::anim` poses it at
/// the same moment (its world transform, times its pivot: glTF nodes stand
/// at their pivots) and every vertex of every primitive (geoset
/// `geosets[i]`) is where it poses it, turned Y-up.
fn assert_posed_as_sampled(
    path: &str,
    model: &Model,
    glb: &[u8],
    geosets: &[usize],
    moments: &[(Option<usize>, f64)],
    slack: f32,
) {
    let rest_rotation = Mat4::from_quat(Quat::from_array(common::Z_UP_TO_Y_UP));
    let gltf = gltf::Gltf::from_slice(glb).unwrap();
    let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap_or_default());
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let all = meshes(model, &skeleton);
    for &(which, ms) in moments {
        let (channels, moment) = match which {
            None => (Vec::new(), Moment::BIND),
            Some(s) => {
                let interval = timeline.sequences[s].interval;
                let ms = ms.min(f64::from(timeline.sequences[s].duration()));
                let moment = Moment {
                    interval: Some(interval),
                    frame: f64::from(interval[0]) + ms,
                    counter: Some(ms),
                };
                (channels(&doc.animations().nth(s).unwrap(), blob), moment)
            }
        };
        let t = (ms / 1000.0) as f32;
        let node_globals = globals(doc, &channels, t);
        let posed = skinned(doc, blob, &node_globals);
        assert_eq!(posed.len(), geosets.len(), "{path}");
        let pose = skeleton.pose(&Sampler::new(&timeline, moment));
        let joints: Vec<usize> = doc
            .skins()
            .next()
            .unwrap()
            .joints()
            .map(|j| j.index())
            .collect();
        for (i, node) in skeleton.nodes().iter().enumerate() {
            let want =
                rest_rotation * pose.world[i] * Mat4::from_translation(Vec3::from(node.pivot));
            let got = node_globals[joints[i + 1]];
            let scale = want.w_axis.truncate().abs().max_element().max(1.0);
            for (g, w) in got.to_cols_array().iter().zip(want.to_cols_array()) {
                assert!(
                    (g - w).abs() <= 2e-3 * scale + slack,
                    "{path}: {which:?} at {ms} ms, node {i} ({}): glTF {got}, sampler {want}",
                    node.name
                );
            }
        }
        for (got, &geoset) in posed.iter().zip(geosets) {
            let want = all[geoset].posed_positions(&pose);
            for (v, (g, w)) in got.iter().zip(&want).enumerate() {
                let w = rest_rotation.transform_point3(Vec3::from(*w));
                let scale = w.abs().max_element().max(1.0);
                assert!(
                    g.distance(w) <= 2e-3 * scale + slack,
                    "{path}: {which:?} at {ms} ms, geoset {geoset} vertex {v}: glTF {g}, sampler {w}"
                );
            }
        }
    }
}

/// [`assert_posed_as_sampled`] at `moments` between resampled keys, where
/// a player interpolates them: each bone within `RESAMPLE_TURN_TOLERANCE`
/// (5e-4 rad) of the game's rotation, so each vertex within a thousandth of
/// the model's size (its largest rest coordinate) of the sampler's pose.
fn assert_posed_between_keys(
    path: &str,
    model: &Model,
    glb: &[u8],
    geosets: &[usize],
    moments: &[(Option<usize>, f64)],
) {
    let size = meshes(model, &Skeleton::from_model(model))
        .iter()
        .flat_map(|m| &m.positions)
        .flat_map(|p| p.map(f32::abs))
        .fold(1.0, f32::max);
    assert_posed_as_sampled(path, model, glb, geosets, moments, 1e-3 * size);
}

#[test]
fn gltf_animations_pose_the_mesh_as_the_sampler_does() {
    let mut checked = 0;
    for (path, model) in &models() {
        let out = export(model, "m", &ExportOptions::default()).unwrap();
        if out.geosets.is_empty() {
            continue;
        }
        let timeline = Timeline::from_model(model);
        // The rest pose: the mesh as stored, turned Y-up.
        let mut moments = vec![(None, 0.0)];
        let mut between = Vec::new();
        for (s, sequence) in timeline.sequences.iter().enumerate().take(4) {
            // Times on the 1/30 s grid, where resampled keys are exact, and
            // whole milliseconds halfway between two of them, where a
            // player interpolates between resampled keys (hermite and
            // bezier rotations: the pack horse was 1.75 off, 0.74 % of its
            // size, 550 ms into Attack -1 when they were 30 keys a second).
            let duration = f64::from(sequence.duration());
            let frames = (duration * 30.0 / 1000.0).floor() as u64;
            for k in [frames / 3, frames / 2, frames] {
                let on_grid = k as f64 * (1000.0 / 30.0);
                moments.push((Some(s), on_grid));
                let halfway = (on_grid + 1000.0 / 60.0).round();
                if halfway < duration {
                    between.push((Some(s), halfway));
                }
            }
            between.push((Some(s), (duration * 0.55).round()));
        }
        let glb = out.document.to_glb().unwrap();
        assert_posed_as_sampled(path, model, &glb, &out.geosets, &moments, 0.0);
        assert_posed_between_keys(path, model, &glb, &out.geosets, &between);
        checked += 1;
    }
    if common::corpus_root().is_some() {
        assert!(checked >= 30, "{checked}");
    }
}

/// DontInterp (`none`) node tracks map to glTF `STEP` samplers. No corpus
/// export has one (the corpus's DontInterp node tracks all follow global
/// sequences, which are resampled), so `rms_PackHorse`'s root bone is given
/// a translation, a rotation and a scaling track of DontInterp keys, not on
/// a global sequence: four in "Walk" (333 to 1333 ms; first and last on its
/// ends, so no key is added; a multiple of 100 ms apart) and one in "Stand
/// -1", which "Walk" must leave out. Its "Walk" animation has three `STEP`
/// samplers holding exactly those keys (times in seconds from 333 ms;
/// translations plus the bone's pivot, its rest offset as it has no
/// parent); the Khronos validator reports 0 errors and 0 warnings; and
/// posed by glTF's rules at every key and a frame (1/30 s) before and after
/// it, the mesh is where `formats::anim` puts it.
#[test]
fn dont_interp_tracks_export_as_step_samplers_holding_their_keys() {
    use formats::mdx::{Interpolation as Interp, Key, NodeTrack, Track};
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    let walk: [i32; 2] = [333, 1333];
    assert_eq!(model.sequences()[0].interval, walk.map(|f| f as u32));
    let stand_key = 3000; // inside "Stand -1", 2100 to 4933
    let translations: [(i32, [f32; 3]); 5] = [
        (333, [0.0, 0.0, 0.0]),
        (433, [10.0, 0.0, 5.0]),
        (833, [-8.0, 6.0, 2.0]),
        (1333, [4.0, 4.0, 4.0]),
        (stand_key, [50.0, 50.0, 50.0]),
    ];
    // Unit quaternions whose components are exact in f32, so normalising
    // leaves their bits.
    let rotations: [(i32, [f32; 4]); 5] = [
        (333, [0.0, 0.0, 0.0, 1.0]),
        (633, [0.5, 0.5, 0.5, 0.5]),
        (1033, [0.0, 0.0, 1.0, 0.0]),
        (1333, [-0.5, 0.5, -0.5, 0.5]),
        (stand_key, [1.0, 0.0, 0.0, 0.0]),
    ];
    let scalings: [(i32, [f32; 3]); 5] = [
        (333, [1.0, 1.0, 1.0]),
        (733, [2.0, 0.5, 1.5]),
        (1133, [0.25, 1.0, 1.0]),
        (1333, [1.0, 2.0, 1.0]),
        (stand_key, [3.0, 3.0, 3.0]),
    ];
    fn track<T: Copy>(keys: &[(i32, T)]) -> Track<T> {
        let track = Track::new(
            Interp::None,
            keys.iter().map(|&(f, v)| Key::new(f, v)).collect(),
        );
        assert_eq!(track.global_sequence_id, -1);
        track
    }
    // The first bone without a parent: every bone under it moves with it.
    let bone = model
        .bones()
        .iter()
        .position(|b| b.node.parent().is_none())
        .unwrap();
    let node = &mut model.bones_mut()[bone].node;
    node.tracks.retain(|t| {
        !matches!(
            t,
            NodeTrack::Translation(_) | NodeTrack::Rotation(_) | NodeTrack::Scaling(_)
        )
    });
    node.tracks.extend([
        NodeTrack::Translation(track(&translations)),
        NodeTrack::Rotation(track(&rotations)),
        NodeTrack::Scaling(track(&scalings)),
    ]);
    let (name, object) = (node.name.to_string_lossy().into_owned(), node.object_id);
    let pivot = model.pivot_points()[object as usize];
    // As a file stores it.
    let model = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();

    let out = export(&model, "horse", &ExportOptions::default()).unwrap();
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap());
    let target = doc.nodes().find(|n| n.name() == Some(&name)).unwrap();
    let animation = doc.animations().next().unwrap();
    assert_eq!(animation.name(), Some("Walk"));
    let mine: Vec<Channel> = channels(&animation, blob)
        .into_iter()
        .filter(|c| c.node == target.index())
        .collect();
    let in_walk = |keys: &[(i32, Vec<f32>)]| -> (Vec<f32>, Vec<Vec<f32>>) {
        keys.iter()
            .filter(|(f, _)| (walk[0]..=walk[1]).contains(f))
            .map(|(f, v)| (((f - walk[0]) as f64 / 1000.0) as f32, v.clone()))
            .unzip()
    };
    let plus_pivot = |v: [f32; 3]| vec![v[0] + pivot[0], v[1] + pivot[1], v[2] + pivot[2]];
    let want = [
        (
            Property::Translation,
            in_walk(&translations.map(|(f, v)| (f, plus_pivot(v)))),
        ),
        (
            Property::Rotation,
            in_walk(&rotations.map(|(f, v)| (f, v.to_vec()))),
        ),
        (
            Property::Scale,
            in_walk(&scalings.map(|(f, v)| (f, v.to_vec()))),
        ),
    ];
    assert_eq!(mine.len(), want.len());
    for (channel, (property, (times, values))) in mine.iter().zip(&want) {
        assert_eq!(channel.property, *property);
        assert_eq!(channel.interpolation, Interpolation::Step, "{property:?}");
        assert_eq!(times.len(), 4, "{property:?}");
        assert_eq!(channel.times, *times, "{property:?}");
        assert_eq!(channel.values, *values, "{property:?}");
    }

    // The Khronos validator takes it without a warning.
    assert_glb_clean("gltf-step", &glb);

    // Posed by glTF's STEP rule on the 1/30 s grid of "Walk" (where the
    // other nodes' resampled tracks are exact): the keys, 100 ms apart, are
    // on it, so each is checked at its time and a frame before and after.
    let mut moments = vec![(None, 0.0)];
    moments.extend((0..=30).map(|k| (Some(0), f64::from(k) * 100.0 / 3.0)));
    moments.push((Some(1), f64::from(stand_key - 2100)));
    assert_posed_as_sampled("rms_PackHorse", &model, &glb, &out.geosets, &moments, 0.0);
}

/// Nodes that do not take on their parent's translation, rotation or
/// scaling (the "don't inherit" flags) are baked: the corpus has one such
/// node under a moving parent (`wowalpha_Boar`'s `_TorsoSpell`, checked by
/// the test above), an attachment no vertex follows, so here each flag,
/// and all three, are set on every bone and helper of `rms_PackHorse` that
/// has a parent (its root nodes given a uniform scaling track too, as no
/// node of it scales). Posed by glTF's rules on the 1/30 s grid of its sequences,
/// every node stands and every vertex is where `formats::anim` puts them;
/// the Khronos validator takes the export without a warning.
#[test]
fn nodes_that_do_not_inherit_stand_where_the_game_puts_them() {
    use formats::mdx::node::node_flags::{
        DONT_INHERIT_ROTATION, DONT_INHERIT_SCALING, DONT_INHERIT_TRANSLATION,
    };
    use formats::mdx::{Interpolation as Interp, Key, Node, NodeTrack, Track};
    fn for_each_node(model: &mut Model, mut f: impl FnMut(&mut Node)) {
        model.bones_mut().iter_mut().for_each(|b| f(&mut b.node));
        model.helpers_mut().iter_mut().for_each(|h| f(&mut h.node));
    }
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let all = DONT_INHERIT_TRANSLATION | DONT_INHERIT_ROTATION | DONT_INHERIT_SCALING;
    for flags in [
        DONT_INHERIT_TRANSLATION,
        DONT_INHERIT_ROTATION,
        DONT_INHERIT_SCALING,
        all,
    ] {
        let mut model = Model::from_bytes(&data).unwrap();
        let end = model
            .sequences()
            .iter()
            .map(|s| s.interval[1])
            .max()
            .unwrap();
        let scaling = Track::new(
            Interp::Linear,
            (0..=end / 500)
                .map(|k| {
                    Key::new(
                        k as i32 * 500,
                        [[1.0; 3], [1.6; 3], [0.7; 3]][k as usize % 3],
                    )
                })
                .collect(),
        );
        for_each_node(&mut model, |node| {
            if node.parent().is_none() {
                node.tracks.retain(|t| !matches!(t, NodeTrack::Scaling(_)));
                node.tracks.push(NodeTrack::Scaling(scaling.clone()));
            }
        });
        let model_with_scaling = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
        let mut model = model_with_scaling.clone();
        let mut flagged = 0;
        for_each_node(&mut model, |node| {
            if node.parent().is_some() {
                node.flags |= flags;
                flagged += 1;
            }
        });
        assert!(flagged >= 10, "{flagged}");
        let path = format!("rms_PackHorse with flags {flags:#x}");
        let out = export(&model, "horse", &ExportOptions::default()).unwrap();
        let glb = out.document.to_glb().unwrap();
        let timeline = Timeline::from_model(&model);
        let mut moments = vec![(None, 0.0)];
        for (s, sequence) in timeline.sequences.iter().enumerate().take(3) {
            let frames = (f64::from(sequence.duration()) * 30.0 / 1000.0).floor() as u64;
            moments.extend(
                (0..=frames)
                    .step_by(4)
                    .map(|k| (Some(s), k as f64 * 1000.0 / 30.0)),
            );
        }
        assert_posed_as_sampled(&path, &model, &glb, &out.geosets, &moments, 0.0);
        // The flags change the pose: the same moments without them differ.
        let plain = model_with_scaling;
        let skeleton = Skeleton::from_model(&model);
        let plain_skeleton = Skeleton::from_model(&plain);
        let differs = moments.iter().any(|&(which, ms)| {
            let Some(s) = which else { return false };
            let moment = timeline.at(s, ms).unwrap();
            let a = skeleton.pose(&Sampler::new(&timeline, moment));
            let b = plain_skeleton.pose(&Sampler::new(&timeline, moment));
            a.world
                .iter()
                .zip(&b.world)
                .any(|(a, b)| !a.abs_diff_eq(*b, 1e-3))
        });
        assert!(differs, "{path}: the flags change nothing");
        if flags == all {
            assert_glb_clean("gltf-inherit", &glb);
        }
    }
}

/// Where a parent is scaled to 0, no glTF transform of a child that does
/// not inherit the scaling puts it where the game does (glTF scales the
/// child to 0 with it); the child plays its own tracks instead, and every
/// value written is finite.
#[test]
fn a_parent_scaled_to_zero_leaves_finite_values() {
    use formats::mdx::node::node_flags::DONT_INHERIT_SCALING;
    use formats::mdx::{Interpolation as Interp, Key, NodeTrack, Track};
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    for helper in model.helpers_mut() {
        if helper.node.parent().is_none() {
            let zero = Track::new(Interp::Linear, vec![Key::new(0, [0.0; 3])]);
            helper
                .node
                .tracks
                .retain(|t| !matches!(t, NodeTrack::Scaling(_)));
            helper.node.tracks.push(NodeTrack::Scaling(zero));
        } else {
            helper.node.flags |= DONT_INHERIT_SCALING;
        }
    }
    let out = export(&model, "horse", &ExportOptions::default()).unwrap();
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let mut values = 0;
    for animation in gltf.document.animations() {
        for channel in channels(&animation, blob) {
            for v in channel.values.iter().flatten() {
                assert!(v.is_finite(), "{:?}", channel.property);
                values += 1;
            }
        }
    }
    assert!(values > 1000, "{values}");
}

/// `resample_splines` (for Blender, whose importer drops `CUBICSPLINE`
/// tangents): no export of a corpus model has a `CUBICSPLINE` sampler,
/// where the default exports of the spline-animated ones have; each still
/// poses every node and vertex as the sampler does on the 1/30 s grid of
/// its first sequences; and the Khronos validator takes every one of them.
#[test]
fn resampled_splines_leave_no_cubic_spline_and_pose_as_sampled() {
    let options = ExportOptions {
        resample_splines: true,
        ..Default::default()
    };
    let cubic = |glb: &[u8]| {
        let gltf = gltf::Gltf::from_slice(glb).unwrap();
        gltf.document
            .animations()
            .flat_map(|a| a.samplers().map(|s| s.interpolation()).collect::<Vec<_>>())
            .filter(|i| *i == Interpolation::CubicSpline)
            .count()
    };
    let (mut had_splines, mut posed) = (0, 0);
    let dir = common::temp_dir("gltf-resampled");
    let mut files = Vec::new();
    for (path, model) in &models() {
        let before = export(model, "m", &ExportOptions::default()).unwrap();
        let out = export(model, "m", &options).unwrap();
        let glb = out.document.to_glb().unwrap();
        assert_eq!(cubic(&glb), 0, "{path}");
        if cubic(&before.document.to_glb().unwrap()) == 0 {
            continue;
        }
        had_splines += 1;
        if out.geosets.is_empty() {
            continue;
        }
        let timeline = Timeline::from_model(model);
        let mut moments = vec![(None, 0.0)];
        let mut between = Vec::new();
        for (s, sequence) in timeline.sequences.iter().enumerate().take(3) {
            let frames = (f64::from(sequence.duration()) * 30.0 / 1000.0).floor() as u64;
            moments.extend([frames / 3, frames / 2].map(|k| (Some(s), k as f64 * 1000.0 / 30.0)));
            between.extend(
                [frames / 3, frames / 2].map(|k| (Some(s), k as f64 * 1000.0 / 30.0 + 17.0)),
            );
        }
        assert_posed_as_sampled(path, model, &glb, &out.geosets, &moments, 0.0);
        assert_posed_between_keys(path, model, &glb, &out.geosets, &between);
        let file = dir.join(format!("{posed}.glb"));
        std::fs::write(&file, &glb).unwrap();
        files.push(file);
        posed += 1;
    }
    testkit::gltf_validator::assert_all_clean(&files);
    if common::corpus_root().is_some() {
        assert!(had_splines >= 6 && posed >= 6, "{had_splines} {posed}");
    }
}

/// What glTF cannot carry is said, one warning each: billboarded nodes
/// (Orc_Exp has 14, its first "moon") and emitters (nwdg32 has 17 particle
/// and ribbon emitters); a model with neither (DruidBear) gets neither line.
#[test]
fn billboards_and_emitters_are_said_to_be_left_out() {
    let mut said = 0;
    for (path, model) in &models() {
        let skeleton = Skeleton::from_model(model);
        let billboarded = skeleton.nodes().iter().filter(|n| n.billboarded).count();
        let emitters = skeleton
            .nodes()
            .iter()
            .filter(|n| n.kind.is_emitter())
            .count();
        let out = export(model, "m", &ExportOptions::default()).unwrap();
        let line = |needle: &str| out.warnings.iter().find(|w| w.contains(needle));
        match billboarded {
            0 => assert!(line("billboarded").is_none(), "{path}"),
            n => {
                let w = line("billboarded").unwrap_or_else(|| panic!("{path}: {:?}", out.warnings));
                assert!(
                    w.starts_with(&format!("{n} billboarded node")),
                    "{path}: {w}"
                );
                said += 1;
            }
        }
        match emitters {
            0 => assert!(line("emitter").is_none(), "{path}"),
            n => {
                let w =
                    line("no particles").unwrap_or_else(|| panic!("{path}: {:?}", out.warnings));
                assert!(w.starts_with(&format!("{n} emitter")), "{path}: {w}");
                said += 1;
            }
        }
        if path.ends_with("wc3lib_Orc_Exp.mdx") {
            let w = line("billboarded").unwrap();
            assert!(
                w.starts_with("14 billboarded nodes (\"moon\" and 13 more)"),
                "{w}"
            );
        }
        if path.ends_with("amisd_nwdg32.mdx") {
            assert!(line("no particles").unwrap().starts_with("17 emitters"));
        }
    }
    if common::corpus_root().is_some() {
        assert!(said >= 5, "{said}");
    }
}

#[test]
fn gltf_files_name_their_buffer_and_read_back() {
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let options = ExportOptions {
        sequence: Some("walk"),
        ..Default::default()
    };
    let out = export(&model, "horse", &options).unwrap();
    assert_eq!(out.animations, ["Walk"]);
    let files = out.document.to_gltf("horse").unwrap();
    let gltf = gltf::Gltf::from_slice(&files.json).unwrap();
    let buffer = gltf.document.buffers().next().unwrap();
    let gltf::buffer::Source::Uri(uri) = buffer.source() else {
        panic!("a .gltf names its buffer");
    };
    assert_eq!(uri, "horse.bin");
    assert_eq!(files.files[0].0, "horse.bin");
    assert_eq!(files.files[0].1.len(), buffer.length());
    // Unknown sequences are refused with the names there are.
    let options = ExportOptions {
        sequence: Some("Fly"),
        ..Default::default()
    };
    let err = export(&model, "horse", &options).unwrap_err();
    assert!(
        matches!(&err, ExportError::NoSequence { name, .. } if name == "Fly"),
        "{err}"
    );
    let err = err.to_string();
    assert!(
        err.contains("no sequence \"Fly\"") && err.contains("Walk"),
        "{err}"
    );
    // No animations, no animation.
    let options = ExportOptions {
        animations: false,
        ..Default::default()
    };
    let out = export(&model, "horse", &options).unwrap();
    assert!(out.animations.is_empty());
}

#[test]
fn lod_selects_the_reforged_geosets_of_one_level() {
    for (path, model) in &models() {
        let skeleton = Skeleton::from_model(model);
        let all = meshes(model, &skeleton);
        let with_triangles = |lod: i32| -> Vec<usize> {
            all.iter()
                .filter(|m| (m.lod == lod || m.lod < 0) && !m.triangles.is_empty())
                .map(|m| m.geoset)
                .collect()
        };
        for lod in [0, 1, 2] {
            let options = ExportOptions {
                lod,
                animations: false,
                ..Default::default()
            };
            let out = export(model, "m", &options).unwrap();
            assert_eq!(out.geosets, with_triangles(lod), "{path} lod {lod}");
        }
    }
}

#[test]
fn missing_textures_are_listed_and_leave_materials_untextured() {
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let folders = TextureFolders::new(vec![std::env::temp_dir().join("formats-no-such-folder")]);
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let out = export(&model, "horse", &options).unwrap();
    let missing: Vec<&str> = out
        .missing_textures
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(
        missing,
        [
            r"Textures\gutz.blp",
            r"units\Critters\PackHorse\PackHorse.blp"
        ]
    );
    // Why, as a value to match on.
    assert!(
        out.missing_textures
            .iter()
            .all(|(_, why)| matches!(why, TextureError::NotFound { .. }))
    );
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    assert_eq!(gltf.document.images().count(), 0);
    // Its skin, not the team colour layer under it, would be the base colour.
    for material in gltf.document.materials() {
        assert!(
            material
                .pbr_metallic_roughness()
                .base_color_texture()
                .is_none()
        );
    }
    // Team glow (replaceable id 2) is a flat-colour placeholder image.
    let Some(data) = common::corpus_file("mdx/w3mt_Hero_Glow.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let out = export(&model, "glow", &options).unwrap();
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    let images: Vec<&str> = gltf.document.images().filter_map(|i| i.name()).collect();
    assert_eq!(images, ["Replaceable Texture 2"]);
    let material = gltf.document.materials().next().unwrap();
    assert!(
        material
            .pbr_metallic_roughness()
            .base_color_texture()
            .is_some()
    );
}

/// Every texture path is found, as a 4x4 PNG of one colour.
const EVERY_TEXTURE: FlatTextures = FlatTextures([10, 20, 30, 255]);

#[test]
fn materials_follow_the_first_layer_and_hd_textures_their_roles() {
    use formats::mdx::FilterMode;
    use gltf::material::AlphaMode;
    let mut hd_materials = 0;
    let mut emissive_materials = 0;
    for (path, model) in &models() {
        let out = export(
            model,
            "m",
            &ExportOptions {
                textures: &EVERY_TEXTURE,
                animations: false,
                ..Default::default()
            },
        )
        .unwrap();
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let materials: Vec<_> = gltf.document.materials().collect();
        assert_eq!(
            materials.len(),
            model.materials().len() + model.alpha_materials().len(),
            "{path}"
        );
        for (material, source) in materials.iter().zip(model.materials()) {
            let Some(layer) = source.layers.first() else {
                continue;
            };
            let mode = match layer.filter_mode {
                FilterMode::None => AlphaMode::Opaque,
                FilterMode::Transparent => AlphaMode::Mask,
                _ => AlphaMode::Blend,
            };
            assert_eq!(material.alpha_mode(), mode, "{path}");
            assert_eq!(
                material.double_sided(),
                layer.shading_flags & 0x10 != 0,
                "{path}"
            );
            assert_eq!(material.unlit(), layer.shading_flags & 0x1 != 0, "{path}");
            let hd = layer.shader_type_id == Some(1)
                || source
                    .shader
                    .as_ref()
                    .is_some_and(|s| s.to_string_lossy() == "Shader_HD_DefaultUnit");
            if hd {
                hd_materials += 1;
                assert!(material.normal_texture().is_some(), "{path}: HD normal map");
                assert!(material.occlusion_texture().is_some(), "{path}: HD ORM");
                assert!(
                    material
                        .pbr_metallic_roughness()
                        .metallic_roughness_texture()
                        .is_some(),
                    "{path}"
                );
            }
            let diffuse = |layer: &formats::mdx::Layer| match &layer.textures {
                Some(entries) => entries.first().map_or(-1, |e| e.texture_id),
                None => layer.texture_id,
            };
            let texture = |layer| {
                usize::try_from(diffuse(layer))
                    .ok()
                    .and_then(|d| model.textures().get(d))
            };
            // The first layer with a file texture, else the first layer.
            let textured = source
                .layers
                .iter()
                .find(|l| texture(l).is_some_and(|t| t.replaceable_id == 0))
                .unwrap_or(layer);
            // The emissive texture of an HD material, where it has one: slot
            // 3 of the textured layer's list (1100 and later), else its
            // fourth layer (900 and 1000).
            let emissive_id = match &textured.textures {
                _ if !hd => None,
                Some(entries) => entries.get(3).map(|e| e.texture_id),
                None => source.layers.get(3).map(|l| l.texture_id),
            };
            let emissive = emissive_id
                .and_then(|id| usize::try_from(id).ok())
                .and_then(|id| model.textures().get(id));
            match (material.emissive_texture(), emissive) {
                (Some(info), Some(source)) => {
                    let name = match source.replaceable_id {
                        0 => source.file_name.to_string_lossy().into_owned(),
                        id => format!("Replaceable Texture {id}"),
                    };
                    assert_eq!(info.texture().name(), Some(name.as_str()), "{path}");
                    assert_eq!(material.emissive_factor(), [1.0; 3], "{path}");
                    emissive_materials += 1;
                }
                (None, None) => {}
                (got, want) => panic!(
                    "{path}: emissive {:?}, the model's {:?}",
                    got.map(|i| i.texture().index()),
                    want.map(|t| t.file_name.to_string_lossy())
                ),
            }
            let exists = texture(textured).is_some();
            let textured = material
                .pbr_metallic_roughness()
                .base_color_texture()
                .is_some();
            assert_eq!(
                textured, exists,
                "{path}: every texture is found, so each that exists"
            );
        }
        // Every image is a PNG the png crate decodes.
        for image in gltf.document.images() {
            let gltf::image::Source::View { view, mime_type } = image.source() else {
                panic!("{path}: a .glb embeds its images");
            };
            assert_eq!(mime_type, "image/png");
            let blob = gltf.blob.as_deref().unwrap();
            let bytes = &blob[view.offset()..view.offset() + view.length()];
            png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .unwrap();
        }
    }
    if common::corpus_root().is_some() {
        assert!(hd_materials >= 40, "{hd_materials}");
        // Every HD material of the corpus has an emissive texture.
        assert_eq!(emissive_materials, hd_materials);
    }
}

/// A `TEXS` path with forward slashes (the model names
/// `Textures\SmileyGW.blp`) finds the file under a texture folder, as is
/// and in other letter cases (so each component is matched on its own,
/// not the whole path joined as one): found by [`TextureFolders::find`] and
/// embedded, the same PNG as the backslash path gives.
#[test]
fn a_forward_slash_texture_path_finds_its_file() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folders = TextureFolders::new(vec![root.join("textures")]);
    let file = root.join("textures/Textures/SmileyGW.blp");
    for path in [
        "Textures/SmileyGW.blp",
        "textures/smileygw.BLP",
        r"Textures\SmileyGW.blp",
    ] {
        assert_eq!(folders.find(path), Some(file.clone()), "{path}");
    }
    let bytes = std::fs::read(root.join("mdx/mv_SmileyGW_004.mdx")).unwrap();
    let mut model = Model::from_bytes(&bytes).unwrap();
    let options = ExportOptions {
        textures: &folders,
        animations: false,
        ..Default::default()
    };
    let backslash = export(&model, "smiley", &options).unwrap();
    assert_eq!(backslash.embedded_textures, [r"Textures\SmileyGW.blp"]);
    let texture = &mut model.textures_mut()[0];
    assert_eq!(
        texture.file_name.to_string_lossy(),
        r"Textures\SmileyGW.blp"
    );
    texture.file_name = "textures/SMILEYGW.blp".try_into().unwrap();
    let slash = export(&model, "smiley", &options).unwrap();
    assert_eq!(slash.embedded_textures, ["textures/SMILEYGW.blp"]);
    assert!(slash.missing_textures.is_empty());
    let image = |out: &formats::gltf::Export| {
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        let image = gltf.document.images().next().unwrap();
        let gltf::image::Source::View { view, .. } = image.source() else {
            panic!("not embedded");
        };
        blob[view.offset()..view.offset() + view.length()].to_vec()
    };
    assert_eq!(image(&slash), image(&backslash));
}

#[test]
fn the_five_textured_corpus_models_embed_their_textures() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folders = TextureFolders::new(vec![root.join("mdx"), root.join("textures")]);
    let options = ExportOptions {
        textures: &folders,
        animations: false,
        ..Default::default()
    };
    let expected: [(&str, &[&str]); 5] = [
        ("edem_Basket02", &["Goods01_D.blp"]),
        ("mv_SmileyGW_004", &[r"Textures\SmileyGW.blp"]),
        ("risk_HumanBattleship_v800", &["BoatTC.blp"]),
        (
            "pqw3_icecrownraid_arthas_precipice_phase0_set0",
            &[
                r"Models\FrozenThrone\ce_arthas_side.blp",
                r"Models\FrozenThrone\ce_artahs_stairs.blp",
            ],
        ),
        (
            "pqw3_BlueUnsummon",
            &[r"Models\BlueUnsummon\BlueUnsummon.blp"],
        ),
    ];
    for (name, textures) in expected {
        let bytes = std::fs::read(root.join(format!("mdx/{name}.mdx"))).unwrap();
        let model = Model::from_bytes(&bytes).unwrap();
        let out = export(&model, name, &options).unwrap();
        assert_eq!(out.embedded_textures, textures, "{name}");
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        for path in textures {
            // The embedded PNG holds the BLP's level 0, pixel for pixel.
            let image = gltf
                .document
                .images()
                .find(|i| i.name() == Some(path))
                .unwrap_or_else(|| panic!("{name}: no image {path}"));
            let gltf::image::Source::View { view, .. } = image.source() else {
                panic!("{name}: not embedded");
            };
            let png = &blob[view.offset()..view.offset() + view.length()];
            let mut reader = png::Decoder::new(std::io::Cursor::new(png))
                .read_info()
                .unwrap();
            let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut pixels).unwrap();
            let file = folders.find(path).unwrap();
            let blp = formats::blp::Blp::from_bytes(&std::fs::read(file).unwrap()).unwrap();
            let level0 = blp.decode_level(0).unwrap();
            assert_eq!(
                (info.width, info.height),
                (level0.width, level0.height),
                "{path}"
            );
            assert_eq!(pixels, level0.data, "{path}");
            // And a material shows it.
            let shown = gltf.document.materials().any(|m| {
                m.pbr_metallic_roughness()
                    .base_color_texture()
                    .is_some_and(|t| t.texture().source().index() == image.index())
            });
            assert!(shown, "{name}: {path} on no material");
        }
    }
}

/// A WoW alpha model of `version` with two bones and one triangle skinned by
/// packed bone indices and weights: at 1400 a `GEOS` geoset with `BIDX` and
/// `BWGT` and no matrix groups, at 1500 a batch whose vertices carry the same
/// 4 + 4 bytes. Nodes: a helper (object 0, so a bone index is not an object
/// id), bone "root" (object 1, bone 0) rising from 0 to 10 along Z over
/// "Stand" (0 to 1000 ms), bone "arm" (object 2, bone 1), a child of root,
/// turned 90 degrees about Z about its pivot (1, 0, 0) from 500 ms on.
/// Vertex 0 is root's, vertex 1 root's by 51/255 and arm's by 204/255,
/// vertex 2 arm's. Written and read back, so it is a file as stored.
fn two_bone_alpha_model(version: u32) -> Model {
    use formats::mdx::alpha::{
        Batch, BatchedGeosetChunk, Bone, BoneChunk, CompressedQuaternion, GenObject,
        GenObjectTrack, Geoset, GeosetChunk, GeosetSection, HelperChunk, Sequence, SequenceChunk,
        Vertex,
    };
    use formats::mdx::{Chunk, Interpolation, Key, PivotPointChunk, Track};
    let object = |name: &str, object_id, parent_id, tracks| GenObject {
        name: name.try_into().unwrap(),
        object_id,
        parent_id,
        flags: 0,
        tracks,
    };
    let rise = GenObjectTrack::Translation(Track::new(
        Interpolation::Linear,
        vec![
            Key::new(0, [0.0, 0.0, 0.0]),
            Key::new(1000, [0.0, 0.0, 10.0]),
        ],
    ));
    let quarter = CompressedQuaternion::from_quaternion([0.0, 0.0, 0.5f32.sqrt(), 0.5f32.sqrt()]);
    let turn = GenObjectTrack::Rotation(Track::new(
        Interpolation::Linear,
        vec![
            Key::new(
                0,
                CompressedQuaternion::from_quaternion([0.0, 0.0, 0.0, 1.0]),
            ),
            Key::new(500, quarter),
            Key::new(1000, quarter),
        ],
    ));
    let bone = |object| Bone {
        object,
        geoset_id: u32::MAX,
        geoset_anim_id: u32::MAX,
    };
    let positions = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 2.0, 0.0]];
    let indices: [[u8; 4]; 3] = [[0, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]];
    let weights: [[u8; 4]; 3] = [[255, 0, 0, 0], [51, 204, 0, 0], [255, 0, 0, 0]];
    let mut model = Model::new(version);
    model.chunks.push(Chunk::AlphaSequences(SequenceChunk {
        sequences: vec![Sequence {
            name: "Stand".try_into().unwrap(),
            time: [0, 1000],
            ..Sequence::default()
        }],
    }));
    model.chunks.push(if version < 1500 {
        Chunk::AlphaGeosets(GeosetChunk {
            geosets: vec![Geoset {
                vertices: positions.to_vec(),
                normals: vec![[0.0, 0.0, 1.0]; 3],
                uv_set_count: 1,
                tex_coords: vec![[0.0, 0.0]; 3],
                primitive_types: vec![Geoset::TRIANGLES],
                primitive_counts: vec![3],
                primitive_vertices: vec![0, 1, 2],
                bone_indices: indices.iter().map(|i| u32::from_le_bytes(*i)).collect(),
                bone_weights: weights.iter().map(|w| u32::from_le_bytes(*w)).collect(),
                ..Geoset::default()
            }],
        })
    } else {
        Chunk::AlphaBatchedGeosets(BatchedGeosetChunk {
            geosets: vec![GeosetSection {
                vertex_count: 3,
                ..GeosetSection::default()
            }],
            batches: vec![Batch {
                vertices: (0..3)
                    .map(|v| Vertex {
                        position: positions[v],
                        bone_weights: weights[v],
                        bone_indices: indices[v],
                        normal: [0.0, 0.0, 1.0],
                        tex_coords: [[0.0, 0.0]; 2],
                    })
                    .collect(),
                primitive_type: Batch::TRIANGLES,
                primitive_vertices: vec![0, 1, 2],
                padding: vec![0; 5],
                ..Batch::default()
            }],
            ..BatchedGeosetChunk::default()
        })
    });
    model.chunks.push(Chunk::AlphaBones(BoneChunk {
        bones: vec![
            bone(object("root", 1, u32::MAX, vec![rise])),
            bone(object("arm", 2, 1, vec![turn])),
        ],
    }));
    model.chunks.push(Chunk::AlphaHelpers(HelperChunk {
        helpers: vec![object("helper", 0, u32::MAX, Vec::new())],
    }));
    model.chunks.push(Chunk::PivotPoints(PivotPointChunk {
        points: vec![[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
    }));
    let back = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
    assert_eq!(back, model);
    back
}

/// `BIDX`/`BWGT` (1400) and v1500 vertex bytes, known answers: at 500 ms
/// into "Stand" root has risen by 5 and arm is turned a quarter about its
/// pivot, so vertex 0 is at (0, 0, 5), vertex 2 (1, 2, 0) at (-1, 0, 5), and
/// vertex 1 (2, 0, 0) at 0.2 (2, 0, 5) + 0.8 (1, 1, 5) = (1.2, 0.8, 5). The
/// glTF export carries those joints and weights, and posed by its own
/// animation (glTF's rules) puts the vertices there too.
#[test]
fn packed_bone_weights_pose_a_vertex_by_the_weighted_sum() {
    let rest_rotation = Mat4::from_quat(Quat::from_array(common::Z_UP_TO_Y_UP));
    let want = [
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(1.2, 0.8, 5.0),
        Vec3::new(-1.0, 0.0, 5.0),
    ];
    for version in [1400, 1500] {
        let model = two_bone_alpha_model(version);
        let skeleton = Skeleton::from_model(&model);
        let names: Vec<&str> = skeleton.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["helper", "root", "arm"]);
        let timeline = Timeline::from_model(&model);
        let stand = timeline.sequence("Stand").unwrap();
        let pose = skeleton.pose(&Sampler::new(&timeline, timeline.at(stand, 500.0).unwrap()));
        let all = meshes(&model, &skeleton);
        assert_eq!(all.len(), 1, "{version}");
        let posed = all[0].posed_positions(&pose);
        for (v, (got, want)) in posed.iter().zip(want).enumerate() {
            assert!(
                Vec3::from(*got).distance(want) < 1e-4,
                "{version}: vertex {v} at {got:?}, not {want}"
            );
        }
        // The glTF skin: joint k + 1 is skeleton node k (root 2, arm 3).
        let out = export(&model, "m", &ExportOptions::default()).unwrap();
        assert_eq!(out.geosets, [0]);
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap());
        let joints: Vec<_> = doc
            .skins()
            .next()
            .unwrap()
            .joints()
            .map(|j| j.name().unwrap().to_string())
            .collect();
        assert_eq!(joints[2..], ["root", "arm"]);
        let primitive = doc.meshes().flat_map(|m| m.primitives()).next().unwrap();
        let reader = primitive.reader(|_| Some(blob));
        let got_joints: Vec<[u16; 4]> = reader.read_joints(0).unwrap().into_u16().collect();
        let got_weights: Vec<[f32; 4]> = reader.read_weights(0).unwrap().into_f32().collect();
        assert!(reader.read_joints(1).is_none());
        assert_eq!(got_joints, [[2, 0, 0, 0], [2, 3, 0, 0], [3, 0, 0, 0]]);
        let weights = [
            [1.0, 0.0, 0.0, 0.0],
            [0.2, 0.8, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0],
        ];
        for (got, want) in got_weights.iter().zip(weights) {
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-6, "{version}: weights {got:?}");
            }
        }
        // Posed by the glTF animation at 0.5 s: the same places, Y up.
        let stand = channels(&doc.animations().next().unwrap(), blob);
        let posed = skinned(doc, blob, &globals(doc, &stand, 0.5));
        for (v, (got, want)) in posed[0].iter().zip(want).enumerate() {
            let want = rest_rotation.transform_point3(want);
            assert!(
                got.distance(want) < 1e-4,
                "{version}: glTF vertex {v} at {got}, not {want}"
            );
        }
    }
}

/// The levels of detail given to the 9 geosets of `pqw3_Wood-floor-01`
/// (Reforged, all at level 0 as stored; the corpus has no level above 0).
const LODS: [i32; 9] = [0, 1, 2, -1, 0, 1, 2, -1, 1];

/// `(lod, the geosets exported)` for the levels of [`LODS`], by hand: a
/// level's own geosets and those of level -1 (every level).
const LOD_GEOSETS: [(i32, &[usize]); 5] = [
    (0, &[0, 3, 4, 7]),
    (1, &[1, 3, 5, 7, 8]),
    (2, &[2, 3, 6, 7]),
    (3, &[3, 7]),
    (-1, &[3, 7]),
];

/// Levels of detail 0, 1, 2 and -1 in one Reforged model (a corpus model's
/// geosets given [`LODS`]): the default exports level 0 and `lod: n` level
/// n, each with the geosets of level -1, as [`LOD_GEOSETS`] lists them; each
/// primitive holds its geoset's vertices.
#[test]
fn lod_exports_exactly_the_geosets_of_one_level() {
    let Some(data) = common::corpus_file("mdx/pqw3_Wood-floor-01.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    assert_eq!(model.geosets().len(), LODS.len());
    for (geoset, lod) in model.geosets_mut().iter_mut().zip(LODS) {
        geoset.lod = Some(lod);
    }
    // Each geoset has triangles and vertices of its own: a primitive's
    // positions name its geoset.
    let positions: Vec<&Vec<[f32; 3]>> = model
        .geosets()
        .iter()
        .map(|g| &g.vertex_positions)
        .collect();
    for (i, geoset) in model.geosets().iter().enumerate() {
        assert!(!geoset.faces.is_empty(), "geoset {i}");
        assert_eq!(positions.iter().filter(|p| **p == positions[i]).count(), 1);
    }
    let exported = |options: &ExportOptions<'_>| -> (Vec<usize>, Vec<Vec<[f32; 3]>>) {
        let out = export(&model, "floor", options).unwrap();
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        let primitives = gltf
            .document
            .meshes()
            .flat_map(|m| m.primitives())
            .map(|p| p.reader(|_| Some(blob)).read_positions().unwrap().collect())
            .collect();
        (out.geosets, primitives)
    };
    let by_default = exported(&ExportOptions::default());
    for (lod, want) in LOD_GEOSETS {
        let (geosets, primitives) = exported(&ExportOptions {
            lod,
            ..Default::default()
        });
        assert_eq!(geosets, want, "lod {lod}");
        let want_positions: Vec<Vec<[f32; 3]>> = want
            .iter()
            .map(|&g| positions[g].iter().copied().map(z_up_to_y_up).collect())
            .collect();
        assert_eq!(primitives, want_positions, "lod {lod}");
        if lod == 0 {
            assert_eq!(by_default, (geosets, primitives));
        }
    }
}

/// A camera as the file gives it: name, eye, target, field of view, and
/// the tracks that move eye and target (classic cameras; WoW alpha's have
/// none in the corpus and are checked at rest).
struct FileCamera<'m> {
    name: String,
    eye: Vec3,
    target: Vec3,
    fov: f32,
    eye_track: Option<&'m formats::mdx::Track<[f32; 3]>>,
    target_track: Option<&'m formats::mdx::Track<[f32; 3]>>,
}

fn file_cameras(model: &Model) -> Vec<FileCamera<'_>> {
    use formats::mdx::CameraTrack;
    let classic = model.cameras().iter().map(|c| FileCamera {
        name: c.name.to_string(),
        eye: Vec3::from(c.position),
        target: Vec3::from(c.target_position),
        fov: c.field_of_view,
        eye_track: c.tracks.iter().find_map(|t| match t {
            CameraTrack::Translation(t) => Some(t),
            _ => None,
        }),
        target_track: c.tracks.iter().find_map(|t| match t {
            CameraTrack::TargetTranslation(t) => Some(t),
            _ => None,
        }),
    });
    let alpha = model.alpha_cameras().iter().map(|c| FileCamera {
        name: c.name.to_string(),
        eye: Vec3::from(c.pivot),
        target: Vec3::from(c.target_pivot),
        fov: c.field_of_view,
        eye_track: None,
        target_track: None,
    });
    classic.chain(alpha).collect()
}

/// Every corpus camera is a glTF perspective camera on a node named as the
/// camera that, under the model's root (Z up turned Y up), stands at the
/// file's eye and looks down its -Z at the file's target, its +Y on the
/// model's up side and its +X level; its `yfov` is the file's field of view
/// (π/4 where the file's is not one: 0, or π). A camera that moves (the
/// corpus has one, `wc3lib_Orc_Exp`'s: KCTR, KTTR and KCRL) is, evaluated by
/// glTF's rules from the exported channels at times in each sequence, where
/// the sampler puts its eye, looking at where it puts its target.
#[test]
fn cameras_stand_at_their_eye_and_look_at_their_target() {
    let (mut cameras, mut moving) = (0, 0);
    for (path, model) in &models() {
        let listed = file_cameras(model);
        if listed.is_empty() {
            continue;
        }
        let (out, gltf) = exported(path, model);
        assert_eq!(
            out.cameras,
            listed.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
            "{path}"
        );
        let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap_or_default());
        let nodes: Vec<_> = doc.nodes().filter(|n| n.camera().is_some()).collect();
        assert_eq!(nodes.len(), listed.len(), "{path}");
        let root = doc.nodes().find(|n| n.name() == Some("m")).unwrap().index();
        let timeline = Timeline::from_model(model);
        for (node, file) in nodes.iter().zip(&listed) {
            let what = format!("{path}: camera {}", file.name);
            assert_eq!(node.name(), Some(file.name.as_str()), "{what}");
            let camera = node.camera().unwrap();
            let gltf::camera::Projection::Perspective(p) = camera.projection() else {
                panic!("{what}: not perspective");
            };
            let usual = file.fov > 0.0 && file.fov < std::f32::consts::PI;
            let fov = if usual {
                file.fov
            } else {
                std::f32::consts::FRAC_PI_4
            };
            assert_eq!(p.yfov(), fov, "{what}");
            // In model space (under the root), at `t` seconds of `channels`.
            let placed = |channels: &[Channel], t: f32| {
                let g = globals(doc, channels, t);
                g[root].inverse() * g[node.index()]
            };
            let check = |m: Mat4, eye: Vec3, target: Vec3, level: bool, when: &str| {
                let (_, turn, at) = m.to_scale_rotation_translation();
                let scale = eye.length().max(1.0);
                assert!(
                    at.distance(eye) <= 1e-4 * scale,
                    "{what} {when}: at {at}, eye {eye}"
                );
                if let Some(wanted) = (target - eye).try_normalize() {
                    let looks = turn * Vec3::NEG_Z;
                    assert!(
                        looks.angle_between(wanted) <= 1e-3,
                        "{what} {when}: {looks} {wanted}"
                    );
                }
                if level {
                    assert!((turn * Vec3::X).z.abs() <= 1e-4, "{what} {when}: leans");
                    assert!((turn * Vec3::Y).z >= 0.0, "{what} {when}: upside down");
                }
            };
            check(placed(&[], 0.0), file.eye, file.target, true, "at rest");
            cameras += 1;
            if file.eye_track.is_none() && file.target_track.is_none() {
                continue;
            }
            for (s, animation) in doc.animations().enumerate() {
                let channels = channels(&animation, blob);
                assert!(
                    channels.iter().any(|c| c.node == node.index()),
                    "{what}: no channel in animation {s}"
                );
                // Each rotation key on the side of the one before.
                for c in channels.iter().filter(|c| c.node == node.index()) {
                    assert!(
                        !turns_the_long_way(c),
                        "{what}: animation {s} turns the long way"
                    );
                }
                let frames = (f64::from(timeline.sequences[s].duration()) * 30.0 / 1000.0) as u64;
                for k in [frames / 3, frames / 2, frames.saturating_sub(1)] {
                    let ms = k as f64 * (1000.0 / 30.0);
                    let sampler = Sampler::new(&timeline, timeline.at(s, ms).unwrap());
                    let offset = |track: Option<&formats::mdx::Track<[f32; 3]>>| {
                        track.map_or(Vec3::ZERO, |t| Vec3::from(sampler.sample(t, &[0.0; 3])))
                    };
                    let eye = file.eye + offset(file.eye_track);
                    let target = file.target + offset(file.target_track);
                    let m = placed(&channels, (ms / 1000.0) as f32);
                    check(
                        m,
                        eye,
                        target,
                        false,
                        &format!("in animation {s} at {ms} ms"),
                    );
                }
                moving += 1;
            }
        }
    }
    if common::corpus_root().is_some() {
        assert!(
            cameras >= 10 && moving >= 2,
            "{cameras} cameras, {moving} moving"
        );
    }
}

/// Every omni and directional light of the corpus is a `KHR_lights_punctual`
/// light (point, directional) on the node named as the light, read back by
/// the `gltf` crate: its colour the file's blue, green, red turned round
/// (clamped to 0..1), its intensity the file's (at least 0), its range the
/// attenuation end; where the file has a track for one of them, its first
/// key (the corpus's candle stores an intensity of -1 beside its track).
/// Ambient lights (glTF has none) are left out, with a warning.
#[test]
fn lights_are_punctual_lights_on_their_nodes() {
    use formats::mdx::{LightTrack, LightType};
    use gltf::khr_lights_punctual::Kind;
    let (mut checked, mut from_tracks) = (0, 0);
    for (path, model) in &models() {
        if model.lights().is_empty() {
            continue;
        }
        let (out, gltf) = exported(path, model);
        let lit: Vec<_> = gltf
            .document
            .nodes()
            .filter(|n| n.light().is_some())
            .collect();
        let ambient = model
            .lights()
            .iter()
            .filter(|l| l.light_type == LightType::Ambient)
            .count();
        assert_eq!(lit.len() + ambient, model.lights().len(), "{path}");
        assert_eq!(out.lights, lit.len(), "{path}");
        assert_eq!(
            out.warnings
                .iter()
                .filter(|w| w.contains("ambient"))
                .count(),
            ambient,
            "{path}"
        );
        for light in model
            .lights()
            .iter()
            .filter(|l| l.light_type != LightType::Ambient)
        {
            let name = light.node.name.to_string();
            let node = lit
                .iter()
                .find(|n| n.name() == Some(name.as_str()))
                .unwrap();
            let gltf_light = node.light().unwrap();
            let what = format!("{path}: light {name}");
            match (light.light_type, gltf_light.kind()) {
                (LightType::Omni, Kind::Point) | (LightType::Directional, Kind::Directional) => {}
                (ours, _) => panic!("{what}: {ours:?} as another kind"),
            }
            // The first key of the first track `pick` takes.
            fn first<T: Copy>(
                light: &formats::mdx::Light,
                pick: impl Fn(&LightTrack) -> Option<&formats::mdx::Track<T>>,
            ) -> Option<T> {
                light
                    .all_tracks()
                    .find_map(pick)
                    .and_then(|t| t.keys.first())
                    .map(|k| k.value)
            }
            let color = first(light, |t| match t {
                LightTrack::Color(t) => Some(t),
                _ => None,
            });
            let intensity = first(light, |t| match t {
                LightTrack::Intensity(t) => Some(t),
                _ => None,
            });
            let end = first(light, |t| match t {
                LightTrack::AttenuationEnd(t) => Some(t),
                _ => None,
            });
            from_tracks += usize::from(intensity.is_some() || color.is_some() || end.is_some());
            let [b, g, r] = color.unwrap_or(light.color);
            assert_eq!(
                gltf_light.color(),
                [r, g, b].map(|c| c.clamp(0.0, 1.0)),
                "{what}"
            );
            let intensity = intensity.unwrap_or(light.intensity).max(0.0);
            assert_eq!(gltf_light.intensity(), intensity, "{what}");
            let end = end.unwrap_or(light.attenuation_end);
            assert_eq!(gltf_light.range(), (end > 0.0).then_some(end), "{what}");
            checked += 1;
        }
    }
    if common::corpus_root().is_some() {
        assert!(
            checked >= 20 && from_tracks >= 2,
            "{checked} lights, {from_tracks} from tracks"
        );
    }
}

/// Every rotation channel of every corpus export has each key on the side
/// of the one before (a negative 4D dot product between two keys makes a
/// player that interpolates components, as Blender's curves do, turn the
/// long way; the game's slerp, and glTF's, take the short way). The corpus
/// has linear rotation tracks whose keys change sign, so this is not a
/// property of the files alone.
#[test]
fn rotation_keys_never_turn_the_long_way() {
    use formats::mdx::Interpolation as Interp;
    let (mut channels_seen, mut flipped_in_files) = (0, 0);
    for (path, model) in &models() {
        for node in Skeleton::from_model(model).nodes() {
            if let Some(track) = &node.rotation
                && track.interpolation_type == Interp::Linear
            {
                flipped_in_files += track
                    .keys
                    .windows(2)
                    .filter(|w| dot(&w[0].value, &w[1].value) < 0.0)
                    .count();
            }
        }
        let (_, gltf) = exported(path, model);
        let blob = gltf.blob.as_deref().unwrap_or_default();
        for animation in gltf.document.animations() {
            for c in channels(&animation, blob) {
                if c.property != Property::Rotation || c.interpolation == Interpolation::Step {
                    continue;
                }
                channels_seen += 1;
                assert!(
                    !turns_the_long_way(&c),
                    "{path}: {:?} turns the long way",
                    animation.name()
                );
            }
        }
    }
    if common::corpus_root().is_some() {
        assert!(
            channels_seen > 1000 && flipped_in_files > 0,
            "{channels_seen} {flipped_in_files}"
        );
    }
}

/// Blender's curves play a `LINEAR` rotation channel by interpolating the
/// quaternion's components and normalising, where glTF (and the game)
/// slerp: between keys 90° apart they differ by almost a degree. So no two
/// neighbouring keys of an exported rotation channel turn more than
/// 0.1 rad (the `formats::gltf` docs), and at a quarter, half and three quarters of
/// every segment of every corpus export, the two ways agree within 5e-6
/// rad. The corpus's files have such segments (counted), so this is the
/// export's doing.
#[test]
fn rotation_channels_play_alike_by_slerp_and_by_components() {
    use formats::mdx::Interpolation as Interp;
    const MAX_KEY_TURN: f64 = 0.1;
    let turn64 = |a: DQuat, b: DQuat| {
        let d = a.conjugate() * b;
        2.0 * d.xyz().length().atan2(d.w.abs())
    };
    let turn = |a: Quat, b: Quat| turn64(a.as_dquat(), b.as_dquat());
    let (mut segments, mut wide_in_files, mut worst) = (0u64, 0u64, 0.0f64);
    for (path, model) in &models() {
        for node in Skeleton::from_model(model).nodes() {
            if let Some(track) = &node.rotation
                && track.interpolation_type == Interp::Linear
            {
                let q = |v: [f32; 4]| Quat::from_array(v).normalize();
                wide_in_files += track
                    .keys
                    .windows(2)
                    .filter(|w| turn(q(w[0].value), q(w[1].value)) > MAX_KEY_TURN)
                    .count() as u64;
            }
        }
        let (_, gltf) = exported(path, model);
        let blob = gltf.blob.as_deref().unwrap_or_default();
        for animation in gltf.document.animations() {
            for c in channels(&animation, blob) {
                if c.property != Property::Rotation || c.interpolation != Interpolation::Linear {
                    continue;
                }
                for (k, w) in c.values.windows(2).enumerate() {
                    let (a, b) = (Quat::from_slice(&w[0]), Quat::from_slice(&w[1]));
                    assert!(
                        turn(a, b) <= MAX_KEY_TURN + 1e-5,
                        "{path}: {:?}, node {}, keys {k} and {}: {} rad apart",
                        animation.name(),
                        c.node,
                        k + 1,
                        turn(a, b)
                    );
                    // In f64: f32's slerp of keys this close is noisier
                    // than the difference looked for.
                    let (a, b) = (a.as_dquat().normalize(), b.as_dquat().normalize());
                    for s in [0.25, 0.5, 0.75] {
                        let components = (a * (1.0 - s) + b * s).normalize();
                        worst = worst.max(turn64(a.slerp(b, s), components));
                    }
                    segments += 1;
                }
            }
        }
    }
    assert!(worst <= 5e-6, "{worst} rad");
    if common::corpus_root().is_some() {
        assert!(
            segments > 10_000 && wide_in_files > 0,
            "{segments} {wide_in_files}"
        );
    }
    eprintln!(
        "{segments} segments, {wide_in_files} over {MAX_KEY_TURN} rad in the files, worst {worst:e} rad"
    );
}

/// A model built to explode, as the fuzzer built one: 600 sequences of 49
/// days over 100 bones, each with a hermite rotation, resampled at
/// 9 000 keys in each sequence (the most a resampled channel gets), 540
/// million samples. The first count refuses it before anything is made
/// (`ExportError::TooManyKeys`, counted ahead, with at least those samples,
/// past the limit; its message says "would need" and the way out), in well
/// under the seconds resampling even the budget's worth would take; its
/// first sequence alone exports.
#[test]
fn a_model_built_to_explode_is_refused_before_anything_is_made() {
    use formats::mdx::{Interpolation as Interp, KeyFrame, NodeTrack, Track};
    let (sequences, bones) = (600, 100);
    let mut model = common::sample_with_long_sequences(sequences);
    let h = std::f32::consts::FRAC_1_SQRT_2;
    let q = |frame, v: [f32; 4]| KeyFrame::with_tangents(frame, v, v, v);
    let turn = Track::from_key_frames(
        Interp::Hermite,
        vec![q(0, [0.0, 0.0, 0.0, 1.0]), q(1000, [0.0, 0.0, h, h])],
    );
    let first = model.bones()[0].clone();
    for k in 0..bones {
        let mut bone = first.clone();
        bone.node.object_id = 1 + k;
        bone.node.tracks = vec![NodeTrack::Rotation(turn.clone())];
        model.bones_mut().push(bone);
        model.pivot_points_mut().push([0.0; 3]);
    }
    let model = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
    let started = std::time::Instant::now();
    let Err(e) = export(&model, "m", &ExportOptions::default()) else {
        panic!("exported {sequences} sequences of 49 days");
    };
    let refused_in = started.elapsed();
    let ExportError::TooManyKeys {
        needed,
        limit,
        sequences: counted,
        counted_ahead,
    } = e
    else {
        panic!("{e}");
    };
    assert!(counted_ahead, "{e}");
    assert_eq!(counted, sequences);
    // 2^25, as the `formats::gltf` docs give it.
    assert_eq!(limit, 1 << 25);
    let samples = (sequences as u64 - 2) * u64::from(bones) * 9_000;
    assert!(needed >= samples && needed > limit, "{e}");
    let e = e.to_string();
    assert!(
        e.starts_with(&format!("the animations would need {needed} values")),
        "{e}"
    );
    assert!(
        e.contains("--sequence") && e.contains("--no-animations"),
        "{e}"
    );
    assert!(e.contains(&format!("{sequences} sequences")), "{e}");
    assert!(e.contains(&limit.to_string()), "{e}");
    // Not a timing claim: far above the milliseconds the count takes, far
    // below resampling the budget's worth in a debug build.
    assert!(
        refused_in < std::time::Duration::from_secs(10),
        "{refused_in:?}"
    );
    let stand = ExportOptions {
        sequence: Some("Stand"),
        ..Default::default()
    };
    let out = export(&model, "m", &stand).unwrap();
    assert_eq!(out.animations, ["Stand"]);
}

/// Real models the animation budget once refused (`../shared/wild`: a
/// classic Blizzard unit, and a v1000 model converted from WoW whose
/// sequences overlap) export with every sequence under the default
/// options; the Khronos validator finds nothing in them, and posed by
/// their own animations at the start, middle and end of every sequence
/// they stand where `formats::anim` poses them.
#[test]
fn real_models_the_budget_refused_export_every_sequence() {
    for name in [
        "runi95_headhunter_v1.mdx",
        "wowconverter_7-the-lich-king-36597.mdx",
    ] {
        let Some(bytes) = common::wild_file(name) else {
            continue;
        };
        let model = Model::from_bytes(&bytes).unwrap();
        let out = export(&model, "m", &ExportOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let timeline = Timeline::from_model(&model);
        let names: Vec<&str> = timeline.sequences.iter().map(|s| s.name.as_str()).collect();
        assert!(names.len() > 15, "{name}: {names:?}");
        assert_eq!(out.animations, names, "{name}");
        let glb = out.document.to_glb().unwrap();
        assert_glb_clean(name, &glb);
        let moments: Vec<(Option<usize>, f64)> = timeline
            .sequences
            .iter()
            .enumerate()
            .flat_map(|(s, sequence)| {
                let duration = f64::from(sequence.duration());
                [0.0, (duration / 2.0).round(), duration].map(|ms| (Some(s), ms))
            })
            .collect();
        assert_posed_as_sampled(name, &model, &glb, &out.geosets, &moments, 0.0);
    }
}

/// A damaged file can hold keys that are NaN or infinite, and tracks whose
/// exact glTF form overflows `f32` (a hermite tangent of 3e38 over a 1 ms
/// segment is 3e41 per second): glTF forbids non-finite floats (the
/// Khronos validator reports each as an error), so every value written is
/// finite. Here the sample's bone gets a linear translation with a NaN and
/// an infinite key, a hermite scaling with huge tangents a millisecond
/// apart, and a linear rotation with a NaN key; every animation value read
/// back is finite and the validator, where there is one, finds nothing.
#[test]
fn nan_infinite_and_overflowing_keys_are_written_finite() {
    use formats::mdx::{Interpolation as Interp, Key, KeyFrame, NodeTrack, Track};
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let node = &mut model.bones_mut()[0].node;
    node.tracks.clear();
    node.tracks.extend([
        NodeTrack::Translation(Track::new(
            Interp::Linear,
            vec![
                Key::new(0, [f32::NAN, 0.0, 1.0]),
                Key::new(500, [0.0, f32::INFINITY, 2.0]),
                Key::new(1000, [3.0, 0.0, f32::NEG_INFINITY]),
            ],
        )),
        NodeTrack::Scaling(Track::from_key_frames(
            Interp::Hermite,
            vec![
                KeyFrame::with_tangents(0, [1.0; 3], [0.0; 3], [3e38, 1.0, 1.0]),
                KeyFrame::with_tangents(1, [2.0; 3], [-3e38, 1.0, 1.0], [0.0; 3]),
                KeyFrame::with_tangents(1000, [1.0; 3], [0.0; 3], [0.0; 3]),
            ],
        )),
        NodeTrack::Rotation(Track::new(
            Interp::Linear,
            vec![
                Key::new(0, [0.0, 0.0, 0.0, 1.0]),
                Key::new(500, [f32::NAN, 0.0, 0.0, 1.0]),
                Key::new(1000, [0.0, 0.0, 1.0, 0.0]),
            ],
        )),
    ]);
    let model = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
    let out = export(&model, "damaged", &ExportOptions::default()).unwrap();
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    let blob = gltf.blob.as_deref().unwrap();
    let mut checked = 0;
    for animation in gltf.document.animations() {
        for channel in channels(&animation, blob) {
            for v in channel.values.iter().flatten() {
                assert!(
                    v.is_finite(),
                    "{:?}: {:?}",
                    channel.property,
                    channel.values
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
    assert_glb_clean("nan_keys", &glb);
}
