//! Geoset colour and alpha in glTF (`ExportOptions::material_colors`: a
//! material of each geoset's own, its `baseColorFactor` animated through
//! `KHR_animation_pointer`), on every corpus model:
//!
//! - the export's own keys, read from the `.glb` here: at every whole
//!   millisecond of every sequence, each geoset's factor (its curve, or its
//!   material's constant factor) is the colour `formats::anim` gives it
//!   (geoset animation colour, geoset alpha times layer alpha) within the
//!   bound the docs of `formats::gltf::ExportOptions::material_colors` state, and
//!   exactly (to `f32`) wherever one linear or stepped track moves alone;
//! - Babylon.js's own glTF loader (npm `@babylonjs/core` and
//!   `@babylonjs/loaders`, installed by `.ci/run` into `tests/babylon`, run
//!   headless): with each animation group sent to times around every key
//!   and every 100 ms, each geoset mesh's material colour is the export's;
//! - the Khronos glTF Validator: 0 errors, 0 warnings.
//!
//! Under `CI=true` a missing node or npm package is a failure; elsewhere the
//! test says loudly that it did not run.

use crate::common;
use crate::common::babylon::geoset_named;

use std::collections::BTreeMap;
use std::path::PathBuf;

use formats::anim::{
    Moment, Sampler, Skeleton, Timeline, geoset_state, layer_alpha, meshes, tex_layer_alpha,
};
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;
use serde_json::Value;

/// The largest difference allowed between a colour component of the export
/// and `formats::anim`'s, at any whole millisecond: what the 1/30 s samples
/// of a spline (or of two alphas moving together) leave. The test prints the
/// largest it measured.
const BOUND: f64 = 0.02;

/// The colour `formats::anim` gives geoset `geoset` (of model material
/// `material`) at the sampler's moment: red, green, blue, alpha.
fn expected(model: &Model, geoset: usize, material: usize, sampler: &Sampler<'_>) -> [f64; 4] {
    let state = geoset_state(model, geoset, sampler);
    let layer = match model.materials().get(material) {
        Some(m) => m.layers.first().map_or(1.0, |l| layer_alpha(l, sampler)),
        None => model
            .alpha_materials()
            .get(material - model.materials().len())
            .and_then(|m| m.tex_layers.first())
            .map_or(1.0, |l| tex_layer_alpha(l, sampler)),
    };
    let unit = |c: f32| {
        f64::from(if c.is_finite() {
            c.clamp(0.0, 1.0)
        } else {
            1.0
        })
    };
    let [r, g, b] = state.color.map(unit);
    [r, g, b, unit(state.alpha) * unit(layer)]
}

/// One geoset's colour in an export: its glTF material's factor, and per
/// animation its curve (times and flattened values), if it has one.
struct GeosetColor {
    factor: [f64; 4],
    own: bool,
    curves: Vec<Option<(Vec<f64>, Vec<f64>)>>,
}

/// Reads each geoset's material and colour curves from an export.
fn colors_of(glb: &[u8], path: &str) -> BTreeMap<usize, GeosetColor> {
    let (json, bin) = common::glb_parts(glb);
    let materials = json["materials"].as_array().cloned().unwrap_or_default();
    let mut out = BTreeMap::new();
    for node in json["nodes"].as_array().unwrap() {
        let Some(geoset) = node["name"].as_str().and_then(geoset_named) else {
            continue;
        };
        let mesh = &json["meshes"][node["mesh"].as_u64().unwrap() as usize];
        // No material (a material id out of range): glTF's default, white.
        let material = mesh["primitives"][0]["material"]
            .as_u64()
            .map(|m| m as usize);
        let material_json = material.map_or(&Value::Null, |m| &materials[m]);
        let factor: Vec<f64> = material_json["pbrMetallicRoughness"]["baseColorFactor"]
            .as_array()
            .map(|f| f.iter().map(|c| c.as_f64().unwrap()).collect())
            .unwrap_or_else(|| vec![1.0; 4]);
        let name = material_json["name"].as_str().unwrap_or_default();
        let own = name.ends_with(&format!(" geoset {geoset}"));
        let curves = common::babylon::animations(&json)
            .iter()
            .map(|animation| {
                let pointer = format!(
                    "/materials/{}/pbrMetallicRoughness/baseColorFactor",
                    material?
                );
                let keys =
                    common::babylon::pointer_channel((&json, bin), animation, &pointer, 4, path)?;
                assert!(own, "{path}: a shared material is animated");
                Some(keys)
            })
            .collect();
        let factor = factor.try_into().unwrap();
        out.insert(
            geoset,
            GeosetColor {
                factor,
                own,
                curves,
            },
        );
    }
    out
}

/// The export's colour of a geoset `ms` into animation `s`.
fn exported_at(color: &GeosetColor, s: usize, ms: u32) -> [f64; 4] {
    match color.curves.get(s).and_then(Option::as_ref) {
        Some(keys) => {
            let at = common::babylon::linear_at(keys, 4, common::babylon::gltf_seconds(ms));
            at.try_into().unwrap()
        }
        None => color.factor,
    }
}

fn max_diff(a: [f64; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

/// Every corpus model exported with material colours: each geoset's colour
/// checked at every whole millisecond; those with a colour of their own
/// validated and played in Babylon.js (see the module docs).
#[test]
fn material_colors_follow_the_geoset_animations_in_babylon() {
    let dir = common::temp_dir("gltf-colors");
    let mut exported = Vec::new();
    let (mut frames, mut worst, mut worst_at) = (0usize, 0.0f64, String::new());
    let mut inexact = 0usize;
    for (path, model) in common::corpus_models() {
        let timeline = Timeline::from_model(&model);
        let options = ExportOptions {
            material_colors: true,
            ..Default::default()
        };
        let glb = common::babylon::export_glb(&model, &options);
        let colors = colors_of(&glb, &path);
        // Without the option: every geoset on its model material.
        let plain = export(&model, "m", &ExportOptions::default()).unwrap();
        let plain_colors = colors_of(&plain.document.to_glb().unwrap(), &path);
        assert!(plain_colors.values().all(|c| !c.own), "{path}");
        let skeleton = Skeleton::from_model(&model);
        let material_of: BTreeMap<usize, usize> = meshes(&model, &skeleton)
            .iter()
            .map(|m| (m.geoset, m.material_id as usize))
            .collect();
        let rest = Sampler::new(&timeline, Moment::BIND);
        for (&geoset, color) in &colors {
            let material = material_of[&geoset];
            let want = expected(&model, geoset, material, &rest);
            assert!(
                max_diff(color.factor, want) < 1e-6,
                "{path}: geoset {geoset} at rest: {:?} for {want:?}",
                color.factor
            );
            for (s, sequence) in timeline.sequences.iter().enumerate() {
                for ms in 0..=sequence.duration() {
                    let want = expected(
                        &model,
                        geoset,
                        material,
                        &common::babylon::sampler_at(&timeline, s, f64::from(ms)),
                    );
                    let got = exported_at(color, s, ms);
                    let diff = max_diff(got, want);
                    inexact += usize::from(diff > 1e-6);
                    if diff > worst {
                        worst = diff;
                        worst_at =
                            format!("{path}: geoset {geoset} in {} at {ms} ms", sequence.name);
                    }
                    frames += 1;
                }
            }
        }
        if colors.values().any(|c| c.own) {
            let file = dir.join(format!("{}.glb", path.replace('/', "_")));
            std::fs::write(&file, &glb).unwrap();
            exported.push((file, model, timeline, colors, material_of));
        }
    }
    if exported.is_empty() {
        return; // No corpus (said loudly by `corpus_models`).
    }
    eprintln!(
        "material colours: {frames} geoset frames, {inexact} more than 1e-6 off, \
         the largest {worst:.2e} ({worst_at})"
    );
    assert!(worst <= BOUND, "{worst} at {worst_at}");
    assert!(frames > 1_000_000, "{frames}");
    // The corpus has fading and tinted geosets in many models.
    assert!(exported.len() >= 10, "{}", exported.len());

    let files: Vec<PathBuf> = exported.iter().map(|(file, ..)| file.clone()).collect();
    testkit::gltf_validator::assert_all_clean(&files);

    // Probes, at whole milliseconds: every 100 ms, and the millisecond
    // before, at and after each key of each curve.
    let files = exported.iter().map(|(file, _, timeline, colors, _)| {
        let keys = (0..timeline.sequences.len()).map(|s| {
            let curves = colors.values().filter_map(|c| c.curves.get(s)?.as_ref());
            curves.flat_map(|(times, _)| times).copied().collect()
        });
        (file.clone(), timeline, keys.collect())
    });
    let Some((results, probes_of)) = common::babylon::probe_around_keys(&dir, files) else {
        return;
    };
    let mut compared = 0usize;
    for ((file, model, timeline, colors, material_of), probes) in exported.iter().zip(&probes_of) {
        let result = &results[file];
        let file = file.display();
        assert_eq!(result.geosets.len(), colors.len(), "{file}");
        for (&geoset, rest) in result.geosets.iter().zip(&result.rest.meshes) {
            assert!(
                max_diff(rest.rgba, colors[&geoset].factor) < 1e-6,
                "{file}: geoset {geoset} at rest in Babylon.js: {rest:?}"
            );
        }
        for (s, ms) in probes.iter().enumerate() {
            for (&ms, frame) in ms.iter().zip(&result.animations[s]) {
                for (&geoset, state) in result.geosets.iter().zip(&frame.meshes) {
                    let got = state.rgba;
                    let ours = exported_at(&colors[&geoset], s, ms);
                    let want = expected(
                        model,
                        geoset,
                        material_of[&geoset],
                        &common::babylon::sampler_at(timeline, s, f64::from(ms)),
                    );
                    let name = &timeline.sequences[s].name;
                    assert!(
                        max_diff(got, ours) < 1e-4 && max_diff(got, want) <= BOUND + 1e-4,
                        "{file}: geoset {geoset} in {name} at {ms} ms in Babylon.js: \
                         {got:?}, exported {ours:?}, formats::anim {want:?}"
                    );
                    compared += 1;
                }
            }
        }
    }
    eprintln!(
        "material colours: {} models in Babylon.js, {compared} geoset probes",
        exported.len()
    );
    assert!(compared > 10_000, "{compared}");
}
