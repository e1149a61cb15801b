//! Skinned vertices in Babylon.js (`testkit::babylon_pose`: its own glTF
//! loader, headless, skinning on the CPU), a player nobody here wrote, on
//! three kinds of files:
//!
//! - corpus models exported with `formats::gltf::export` (a classic v800
//!   model skinned by matrix groups, Reforged v1000 and v1100 models with
//!   `SKIN` weights), at rest and at five times into each of three
//!   sequences: at rest and on the 1/30 s grid (where the export's
//!   resampled keys are exact) every vertex Babylon shows is where
//!   `formats::anim` poses it, turned Y up, within 1e-4 of the model's size
//!   (its rest box's diagonal); off the grid, where a player interpolates
//!   the resampled keys, within the export's own bound (1e-3 of the model's
//!   largest coordinate, as `export.rs` checks the export by glTF's rules);
//!   and everywhere within 1e-4 of the model's size of the export posed by
//!   glTF's rules (`export.rs`'s evaluation of the file's own channels);
//! - the Khronos samples `CesiumMan.glb` and `RiggedSimple.glb`
//!   (`../shared/gltf`): Babylon keeps each primitive's vertices (count and
//!   order: `babylon_pose` fails otherwise), every position is finite, at
//!   rest and every quarter second of the animation they are where glTF's
//!   rules put them (within 1e-4 of the model's size), and the animation
//!   moves them;
//! - the Blender-made fixture (`testkit::blender_rigged_glb`): the Khronos
//!   validator finds no error, it is what its README says (two animations
//!   named `Attack` and `Stand`, a skin of 8 joints, most vertices with 2 or
//!   3 influences, an alpha-masked textured material and an opaque one),
//!   Babylon keeps its vertices and poses them by glTF's rules, and both
//!   animations move them.
//!
//! Under `CI=true` a missing node, npm package or `../shared` is a failure;
//! elsewhere the tests say loudly that they did not run.

use crate::common;

use std::path::{Path, PathBuf};

use common::babylon::sampler_at;
use common::babylon_pose::{self, Posed, Vertices};
use formats::anim::glam::DVec3;
use formats::anim::{Skeleton, Timeline, meshes};
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;

use super::export::{channels, globals, skinned};

/// The models, and the sequences each is probed in (by name): classic
/// matrix groups (800), Reforged `SKIN` weights (1000 and 1100).
const MODELS: &[(&str, &[&str])] = &[
    ("rms_PackHorse", &["Walk", "Attack -1", "Death"]),
    ("tm_TM_DruidBear", &["Attack 01", "Walk", "Death"]),
    ("pqw3_HarvestGolem", &["Stand 2", "Attack 1", "Walk"]),
];

/// The farthest any vertex of `got` is from the one of `want` at its index.
fn farthest(got: &[Vertices], want: &[Vertices]) -> f64 {
    assert_eq!(got.len(), want.len());
    got.iter()
        .zip(want)
        .flat_map(|(g, w)| {
            assert_eq!(g.len(), w.len());
            g.iter().zip(w)
        })
        .map(|(g, w)| DVec3::from(*g).distance(DVec3::from(*w)))
        .fold(0.0, f64::max)
}

/// One probe time into a sequence: its milliseconds, and whether it is on
/// the export's 1/30 s grid.
#[derive(Clone, Copy)]
struct Probe {
    ms: f64,
    on_grid: bool,
}

/// Probe times into a sequence of `duration` ms: on the 1/30 s grid (a
/// third of the way, half way, the end) and two whole milliseconds off it.
fn probes(duration: u32) -> Vec<Probe> {
    let frames = (f64::from(duration) * 30.0 / 1000.0).floor();
    let on = [frames / 3.0, frames / 2.0, frames].map(|k| Probe {
        ms: k.floor() * 1000.0 / 30.0,
        on_grid: true,
    });
    let off = [0.37, 0.81].map(|f| Probe {
        ms: (f * f64::from(duration)).round(),
        on_grid: false,
    });
    on.into_iter().chain(off).collect()
}

/// Where glTF's rules put every vertex of `file` (a `.glb` with one skin),
/// by Babylon's primitives: at rest (`None`) or `seconds` into animation
/// `k` (`export.rs`'s evaluation of the file's own channels).
fn by_gltf_rules(file: &Path, posed: &Posed, moment: Option<(usize, f64)>) -> Vec<Vertices> {
    let bytes = std::fs::read(file).unwrap();
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap_or_default());
    let (channels, t) = match moment {
        None => (Vec::new(), 0.0),
        Some((k, seconds)) => (
            channels(&doc.animations().nth(k).unwrap(), blob),
            seconds as f32,
        ),
    };
    let all = skinned(doc, blob, &globals(doc, &channels, t));
    // `skinned` goes mesh by mesh, primitive by primitive.
    let first: Vec<usize> = doc
        .meshes()
        .scan(0, |at, m| {
            let here = *at;
            *at += m.primitives().count();
            Some(here)
        })
        .collect();
    posed
        .primitives
        .iter()
        .map(|p| {
            let vertices = &all[first[p.mesh] + p.primitive];
            vertices.iter().map(|v| v.as_dvec3().to_array()).collect()
        })
        .collect()
}

#[test]
fn corpus_models_skin_in_babylon_where_formats_anim_poses_them() {
    let dir = common::temp_dir("babylon-skinning");
    let mut cases = Vec::new();
    for (name, sequences) in MODELS {
        let Some(bytes) = common::corpus_file(&format!("mdx/{name}.mdx")) else {
            return;
        };
        let (model, _) = Model::from_bytes_lenient(&bytes).unwrap();
        let out = export(&model, "m", &ExportOptions::default()).unwrap();
        let file = dir.join(format!("{name}.glb"));
        std::fs::write(&file, out.document.to_glb().unwrap()).unwrap();
        let timeline = Timeline::from_model(&model);
        let mut by_sequence = vec![Vec::new(); timeline.sequences.len()];
        for sequence in *sequences {
            let s = timeline.sequence_named(sequence).unwrap();
            by_sequence[s] = probes(timeline.sequences[s].duration());
        }
        cases.push((name, model, out.geosets, file, by_sequence));
    }
    let list: Vec<(PathBuf, Vec<Vec<f64>>)> = cases
        .iter()
        .map(|(_, _, _, file, by_sequence)| {
            let seconds = by_sequence
                .iter()
                .map(|probes| probes.iter().map(|p| p.ms / 1000.0).collect())
                .collect();
            (file.clone(), seconds)
        })
        .collect();
    let Some(posed) = babylon_pose::pose(&list) else {
        return;
    };
    for (name, model, geosets, file, by_sequence) in &cases {
        let babylon = &posed[file];
        let skeleton = Skeleton::from_model(model);
        let timeline = Timeline::from_model(model);
        let all = meshes(model, &skeleton);
        // One primitive per exported geoset, its mesh's index the geoset's place.
        let geoset_of: Vec<usize> = babylon.primitives.iter().map(|p| geosets[p.mesh]).collect();
        assert_eq!(geoset_of.len(), geosets.len(), "{name}");
        let names: Vec<&str> = timeline.sequences.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(babylon.animation_names, names, "{name}");
        let turned = |positions: &[[f32; 3]]| -> Vertices {
            positions
                .iter()
                .map(|p| common::z_up_to_y_up(*p).map(f64::from))
                .collect()
        };
        let rest: Vec<Vertices> = geoset_of
            .iter()
            .map(|&g| turned(&all[g].positions))
            .collect();
        let size = babylon_pose::diagonal(rest.iter().flatten());
        let largest = rest
            .iter()
            .flatten()
            .flatten()
            .fold(1.0, |m, x| x.abs().max(m));
        let worst = farthest(&babylon.rest, &rest);
        eprintln!(
            "{name}: rest: {worst:.2e} ({:.1e} of {size:.1})",
            worst / size
        );
        assert!(worst <= 1e-4 * size, "{name}: rest: {worst} of {size}");
        let mut moved = 0.0f64;
        for (s, probed) in babylon.animations.iter().enumerate() {
            let sequence = &timeline.sequences[s].name;
            for (probe, got) in by_sequence[s].iter().zip(probed) {
                let pose = skeleton.pose(&sampler_at(&timeline, s, probe.ms));
                let want: Vec<Vertices> = geoset_of
                    .iter()
                    .map(|&g| turned(&all[g].posed_positions(&pose)))
                    .collect();
                let rules = by_gltf_rules(file, babylon, Some((s, probe.ms / 1000.0)));
                let (anim, gltf) = (farthest(got, &want), farthest(got, &rules));
                moved = moved.max(farthest(got, &babylon.rest));
                let ms = probe.ms;
                eprintln!(
                    "{name}: {sequence} at {ms:.1} ms{}: from formats::anim {anim:.2e} ({:.1e}), \
                     from glTF's rules {gltf:.2e} ({:.1e})",
                    if probe.on_grid { "" } else { " (off the grid)" },
                    anim / size,
                    gltf / size,
                );
                assert!(
                    gltf <= 1e-4 * size,
                    "{name}: {sequence} at {ms} ms: a vertex {gltf} from glTF's rules (size {size})"
                );
                let bound = match probe.on_grid {
                    true => 1e-4 * size,
                    false => 1e-3 * largest,
                };
                assert!(
                    anim <= bound,
                    "{name}: {sequence} at {ms} ms: a vertex {anim} from formats::anim's (bound {bound})"
                );
            }
        }
        // The probes are no rest pose in disguise.
        assert!(moved > 0.05 * size, "{name}: moved {moved} of {size}");
    }
}

/// The largest time of any of an animation's samplers, in seconds.
fn animation_end(file: &Path, k: usize) -> f64 {
    let bytes = std::fs::read(file).unwrap();
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let animation = gltf.document.animations().nth(k).unwrap();
    animation
        .samplers()
        .map(|s| s.input().max().unwrap()[0].as_f64().unwrap())
        .fold(0.0, f64::max)
}

/// Poses `files` in Babylon every quarter second of each animation and at
/// two times between (12.3 % and 65.1 % of the way), and checks
/// every vertex: finite, where glTF's rules put it (within 1e-4 of the
/// file's size, its rest box's diagonal), and moved by each animation
/// (somewhere by a hundredth of the size). Gives Babylon's poses.
fn assert_posed_by_the_rules(files: &[PathBuf]) -> Option<Vec<Posed>> {
    let list: Vec<(PathBuf, Vec<Vec<f64>>)> = files
        .iter()
        .map(|file| {
            let bytes = std::fs::read(file).unwrap();
            let count = gltf::Gltf::from_slice(&bytes).unwrap().animations().count();
            let probes = (0..count)
                .map(|k| {
                    let end = animation_end(file, k);
                    let mut times: Vec<f64> = (0..)
                        .map(|q: u32| f64::from(q) * 0.25)
                        .take_while(|t| *t <= end)
                        .collect();
                    times.extend([0.123 * end, 0.651 * end]);
                    times
                })
                .collect();
            (file.clone(), probes)
        })
        .collect();
    let posed = babylon_pose::pose(&list)?;
    let mut out = Vec::new();
    for (file, probes) in &list {
        let babylon = posed[file].clone();
        let name = file.file_name().unwrap().to_string_lossy();
        let rules = by_gltf_rules(file, &babylon, None);
        let size = babylon_pose::diagonal(rules.iter().flatten());
        let worst = farthest(&babylon.rest, &rules);
        eprintln!(
            "{name}: rest: {worst:.2e} ({:.1e} of {size:.2})",
            worst / size
        );
        assert!(worst <= 1e-4 * size, "{name}: rest: {worst} of {size}");
        for (k, (probed, times)) in babylon.animations.iter().zip(probes).enumerate() {
            let mut moved = 0.0f64;
            for (got, &t) in probed.iter().zip(times) {
                for v in got.iter().flatten() {
                    assert!(v.iter().all(|x| x.is_finite()), "{name}: {t} s: {v:?}");
                }
                let want = by_gltf_rules(file, &babylon, Some((k, t)));
                let worst = farthest(got, &want);
                moved = moved.max(farthest(got, &babylon.rest));
                eprintln!(
                    "{name}: {} at {t:.3} s: from glTF's rules {worst:.2e} ({:.1e})",
                    babylon.animation_names[k],
                    worst / size
                );
                assert!(
                    worst <= 1e-4 * size,
                    "{name}: animation {k} at {t} s: a vertex {worst} from glTF's rules (size {size})"
                );
            }
            eprintln!(
                "{name}: {} moves a vertex {moved:.3} ({:.1e})",
                babylon.animation_names[k],
                moved / size
            );
            assert!(
                moved >= 1e-2 * size,
                "{name}: animation {k} moved {moved} of {size}"
            );
        }
        out.push(babylon);
    }
    Some(out)
}

#[test]
fn khronos_samples_skin_in_babylon_by_the_gltf_rules() {
    let (Some(cesium), Some(rigged)) = (
        common::shared_gltf("CesiumMan.glb"),
        common::shared_gltf("RiggedSimple.glb"),
    ) else {
        return;
    };
    let Some(posed) = assert_posed_by_the_rules(&[cesium, rigged]) else {
        return;
    };
    // One skinned primitive each (the manifest's), every vertex probed.
    for (posed, vertices) in posed.iter().zip([3273, 960]) {
        assert_eq!(posed.primitives.len(), 1);
        assert_eq!(posed.rest[0].len(), vertices);
        assert_eq!(posed.animation_names.len(), 1);
    }
}

/// How many of a primitive's vertices have each number of joints with a
/// weight above 0 (index: the number).
fn influences(primitive: &gltf::Primitive<'_>, blob: &[u8]) -> Vec<usize> {
    let reader = primitive.reader(|_| Some(blob));
    let mut counts = vec![0; 5];
    for weights in reader.read_weights(0).unwrap().into_f32() {
        counts[weights.iter().filter(|w| **w > 0.0).count()] += 1;
    }
    counts
}

#[test]
fn the_blender_fixture_is_valid_and_what_its_readme_says() {
    let file = common::blender_rigged_glb();
    let bytes = std::fs::read(&file).unwrap();
    assert!(bytes.len() < 200_000, "{} bytes", bytes.len());
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap());
    assert_eq!(
        doc.as_json().asset.generator.as_deref(),
        Some("Khronos glTF Blender I/O v3.4.50")
    );
    // One animation per action, named as Warcraft III's sequences.
    let names: Vec<&str> = doc.animations().map(|a| a.name().unwrap()).collect();
    assert_eq!(names, ["Attack", "Stand"]);
    // A skin of 8 joints: the hierarchy Root > Hips > Spine > Neck > Head
    // and Hips > Tail1 > Tail2 > Tail3.
    let skin = doc.skins().next().unwrap();
    let joints: Vec<&str> = skin.joints().map(|j| j.name().unwrap()).collect();
    assert_eq!(joints.len(), 8, "{joints:?}");
    let parent_of = |name: &str| {
        doc.nodes()
            .find(|n| n.children().any(|c| c.name() == Some(name)))
            .and_then(|n| n.name())
    };
    for (child, parent) in [
        ("Hips", "Root"),
        ("Spine", "Hips"),
        ("Neck", "Spine"),
        ("Head", "Neck"),
        ("Tail1", "Hips"),
        ("Tail2", "Tail1"),
        ("Tail3", "Tail2"),
    ] {
        assert_eq!(parent_of(child), Some(parent), "{child}");
    }
    // One mesh of two primitives: the scales (alpha-masked, textured by a
    // 64 x 64 PNG with transparent pixels) and the horns (opaque); most
    // scale vertices blend 2 or 3 joints.
    let mesh = doc.meshes().next().unwrap();
    let primitives: Vec<_> = mesh.primitives().collect();
    assert_eq!(primitives.len(), 2);
    let scales = primitives[0].material();
    assert_eq!(scales.alpha_mode(), gltf::material::AlphaMode::Mask);
    let texture = scales
        .pbr_metallic_roughness()
        .base_color_texture()
        .unwrap();
    let gltf::image::Source::View { view, mime_type } = texture.texture().source().source() else {
        panic!("the texture is not in the GLB");
    };
    assert_eq!(mime_type, "image/png");
    let png = &blob[view.offset()..view.offset() + view.length()];
    // The PNG's IHDR: width, height, 8 bits, colour type 6 (RGBA).
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!(&png[16..26], [0, 0, 0, 64, 0, 0, 0, 64, 8, 6]);
    let horn = primitives[1].material();
    assert_eq!(horn.alpha_mode(), gltf::material::AlphaMode::Opaque);
    assert!(horn.pbr_metallic_roughness().base_color_texture().is_none());
    let blended = influences(&primitives[0], blob);
    eprintln!("rigged.glb: scale vertices by joints: {blended:?}");
    assert!(blended[2] + blended[3] >= 300, "{blended:?}");
    // The Khronos validator: no error, and the one warning the README
    // explains (NODE_SKINNED_MESH_NON_ROOT: the mesh's node is the
    // armature's child).
    if let Some(validator) = common::gltf_validator::validator() {
        let report = &common::gltf_validator::assert_valid(&validator, &[file])[0];
        eprintln!("rigged.glb: the validator's report: {report}");
        assert_eq!(report["warnings"], 1, "{report}");
    }
}

#[test]
fn the_blender_fixture_skins_in_babylon_by_the_gltf_rules() {
    let file = common::blender_rigged_glb();
    let Some(posed) = assert_posed_by_the_rules(std::slice::from_ref(&file)) else {
        return;
    };
    let posed = &posed[0];
    assert_eq!(posed.animation_names, ["Attack", "Stand"]);
    assert_eq!(posed.primitives.len(), 2);
    // "Stand" loops: its last pose (2 s, the probe before the two between)
    // is its first.
    let stand = &posed.animations[1];
    let (first, last) = (&stand[0], &stand[stand.len() - 3]);
    let size = babylon_pose::diagonal(posed.rest.iter().flatten());
    assert!(farthest(first, last) <= 1e-5 * size);
}
