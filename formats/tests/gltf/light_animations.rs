//! Lights' tracks in glTF (`ExportOptions::light_animations`: colour and
//! intensity channels on `KHR_lights_punctual` lights, through
//! `KHR_animation_pointer`), on every corpus model with a light:
//!
//! - the export's own keys, read from the `.glb` here: at every whole
//!   millisecond of every sequence, each light's colour and intensity are
//!   what its tracks give there as `ExportOptions::light_animations` says
//!   (sampled with `formats::anim` here), within 1e-4;
//! - Babylon.js's own glTF loader: with each animation group sent to times
//!   around every key and every 100 ms, each light's intensity and colour
//!   are the export's;
//! - the Khronos glTF Validator: 0 errors, 0 warnings.

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use formats::anim::visibility::visibility;
use formats::anim::{Moment, Sampler, Timeline};
use formats::gltf::{ExportOptions, export};
use formats::mdx::{LightTrack, Model, Track, alpha};

/// One channel's times and flattened values.
type Keys = (Vec<f64>, Vec<f64>);

/// A light of an export: its name, its colour and intensity at rest
/// (`[intensity, red, green, blue]`), and per animation its colour and
/// intensity channels.
struct Lit {
    name: String,
    rest: [f64; 4],
    channels: Vec<(Option<Keys>, Option<Keys>)>,
}

fn lights_of(glb: &[u8], path: &str) -> Vec<Lit> {
    let (json, bin) = common::glb_parts(glb);
    let lights = json["extensions"]["KHR_lights_punctual"]["lights"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let channel = |animation: &serde_json::Value, pointer: &str, components| -> Option<Keys> {
        common::babylon::pointer_channel((&json, bin), animation, pointer, components, path)
    };
    let animations = common::babylon::animations(&json);
    lights
        .iter()
        .enumerate()
        .map(|(n, light)| {
            let number = |v: &serde_json::Value| v.as_f64().unwrap();
            let color = &light["color"];
            let pointer = format!("/extensions/KHR_lights_punctual/lights/{n}");
            Lit {
                name: light["name"].as_str().unwrap().to_string(),
                rest: [
                    number(&light["intensity"]),
                    number(&color[0]),
                    number(&color[1]),
                    number(&color[2]),
                ],
                channels: animations
                    .iter()
                    .map(|a| {
                        let color = channel(a, &format!("{pointer}/color"), 3);
                        (color, channel(a, &format!("{pointer}/intensity"), 1))
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The export's `[intensity, red, green, blue]` of a light `ms` into
/// animation `s`.
fn exported_at(lit: &Lit, s: usize, ms: u32) -> [f64; 4] {
    let t = common::babylon::gltf_seconds(ms);
    let mut out = lit.rest;
    if let Some((color, intensity)) = lit.channels.get(s) {
        if let Some(keys) = color {
            out[1..4].copy_from_slice(&common::babylon::linear_at(keys, 3, t));
        }
        if let Some(keys) = intensity {
            out[0] = common::babylon::linear_at(keys, 1, t)[0];
        }
    }
    out
}

/// A model's light as the export reads it: its name, its static colour
/// (blue, green, red) and intensity, and its first colour, intensity and
/// visibility tracks.
struct ModelLight<'m> {
    name: String,
    color: [f32; 3],
    intensity: f32,
    color_track: Option<&'m Track<[f32; 3]>>,
    intensity_track: Option<&'m Track<f32>>,
    visibility_track: Option<&'m Track<f32>>,
}

/// Every light of `model` (Warcraft III's, then WoW alpha's).
fn model_lights(model: &Model) -> Vec<ModelLight<'_>> {
    let mut lights = Vec::new();
    for l in model.lights() {
        let (mut color, mut intensity, mut shown) = (None, None, None);
        for track in l.all_tracks() {
            match track {
                LightTrack::Color(t) => color = color.or(Some(t)),
                LightTrack::Intensity(t) => intensity = intensity.or(Some(t)),
                LightTrack::Visibility(t) => shown = shown.or(Some(t)),
                _ => {}
            }
        }
        lights.push(ModelLight {
            name: l.node.name.to_string(),
            color: l.color,
            intensity: l.intensity,
            color_track: color,
            intensity_track: intensity,
            visibility_track: shown,
        });
    }
    for l in model.alpha_lights() {
        let (mut color, mut intensity, mut shown) = (None, None, None);
        for track in &l.tracks {
            match track {
                alpha::LightTrack::Color(t) => color = color.or(Some(t)),
                alpha::LightTrack::Intensity(t) => intensity = intensity.or(Some(t)),
                alpha::LightTrack::Visibility(t) => shown = shown.or(Some(t)),
                _ => {}
            }
        }
        lights.push(ModelLight {
            name: l.object.name.to_string(),
            color: l.static_color,
            intensity: l.static_intensity,
            color_track: color,
            intensity_track: intensity,
            visibility_track: shown,
        });
    }
    lights
}

/// The light's `[intensity, red, green, blue]` at the sampler's moment, as
/// `ExportOptions::light_animations` says the export plays it: a track's
/// value outside its keys is its first key (the value the glTF light
/// has), the colour clamped to 0..1 and the intensity to 0 or more (a
/// number that is not finite: 0), the intensity 0 where the visibility
/// track hides the light.
fn light_state(light: &ModelLight<'_>, sampler: &Sampler<'_>) -> [f64; 4] {
    let (color, intensity) = (light.color_track, light.intensity_track);
    let color_at_rest = color
        .and_then(|t| t.keys.first())
        .map_or(light.color, |k| k.value);
    let [b, g, r] = color.map_or(color_at_rest, |t| sampler.sample(t, &color_at_rest));
    let intensity_at_rest = intensity
        .and_then(|t| t.keys.first())
        .map_or(light.intensity, |k| k.value);
    let intensity = intensity.map_or(intensity_at_rest, |t| sampler.sample(t, &intensity_at_rest));
    let finite = |v: f32| if v.is_finite() { f64::from(v) } else { 0.0 };
    let lit = visibility(light.visibility_track, sampler) > 0.0;
    let intensity = if lit { finite(intensity).max(0.0) } else { 0.0 };
    let [r, g, b] = [r, g, b].map(|c| finite(c).clamp(0.0, 1.0));
    [intensity, r, g, b]
}

fn max_diff(a: [f64; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max)
}

#[test]
fn light_tracks_play_on_the_gltf_lights_in_babylon() {
    let dir = common::temp_dir("gltf-lights");
    let mut exported = Vec::new();
    let (mut frames, mut worst, mut worst_at) = (0usize, 0.0f64, String::new());
    for (path, model) in common::corpus_models() {
        let model_lights = model_lights(&model);
        if model_lights.is_empty() {
            continue;
        }
        let timeline = Timeline::from_model(&model);
        let options = ExportOptions {
            light_animations: true,
            ..Default::default()
        };
        let glb = common::babylon::export_glb(&model, &options);
        let lits = lights_of(&glb, &path);
        let plain = export(&model, "m", &ExportOptions::default()).unwrap();
        assert!(plain.document.pointer_channels.is_empty(), "{path}");
        let mut animated = false;
        for lit in &lits {
            // The glTF light is the model light of its name (the first one
            // not taken: names are not unique in every model).
            let light = model_lights.iter().find(|l| l.name == lit.name).unwrap();
            let rest = light_state(light, &Sampler::new(&timeline, Moment::BIND));
            assert!(
                max_diff(lit.rest, rest) < 1e-6,
                "{path}: {} at rest",
                lit.name
            );
            animated |= lit.channels.iter().any(|(c, i)| c.is_some() || i.is_some());
            for (s, sequence) in timeline.sequences.iter().enumerate() {
                for ms in 0..=sequence.duration() {
                    let sampler = common::babylon::sampler_at(&timeline, s, f64::from(ms));
                    let want = light_state(light, &sampler);
                    let d = max_diff(exported_at(lit, s, ms), want);
                    if d > worst {
                        worst = d;
                        worst_at = format!("{path}: {} in {} at {ms} ms", lit.name, sequence.name);
                    }
                    frames += 1;
                }
            }
        }
        if animated {
            let file = dir.join(format!("{}.glb", path.replace('/', "_")));
            std::fs::write(&file, &glb).unwrap();
            exported.push((file, timeline, lits));
        }
    }
    if exported.is_empty() {
        return; // No corpus (said loudly by `corpus_models`).
    }
    eprintln!(
        "light animations: {} models, {frames} light frames, the largest difference {worst:.2e} ({worst_at})",
        exported.len()
    );
    assert!(worst <= 1e-4, "{worst} at {worst_at}");

    let files: Vec<PathBuf> = exported.iter().map(|(file, ..)| file.clone()).collect();
    testkit::gltf_validator::assert_all_clean(&files);

    let files = exported.iter().map(|(file, timeline, lits)| {
        let keys = (0..timeline.sequences.len()).map(|s| {
            let channels = lits.iter().filter_map(|l| l.channels.get(s));
            let keys = channels.flat_map(|(c, i)| [c, i]).flatten();
            keys.flat_map(|(times, _)| times).copied().collect()
        });
        (file.clone(), timeline, keys.collect())
    });
    let Some((results, probes_of)) = common::babylon::probe_around_keys(&dir, files) else {
        return;
    };
    let mut compared = 0usize;
    for ((file, timeline, lits), probes) in exported.iter().zip(&probes_of) {
        let result = &results[file];
        let by_name: BTreeMap<&str, &Lit> = lits.iter().map(|l| (l.name.as_str(), l)).collect();
        let file = file.display();
        assert_eq!(result.lights.len(), lits.len(), "{file}");
        for (s, ms) in probes.iter().enumerate() {
            for (&ms, frame) in ms.iter().zip(&result.animations[s]) {
                for (name, &got) in result.lights.iter().zip(&frame.lights) {
                    let ours = exported_at(by_name[name.as_str()], s, ms);
                    assert!(
                        max_diff(got, ours) < 1e-4,
                        "{file}: {name} in {} at {ms} ms in Babylon.js: {got:?}, exported {ours:?}",
                        timeline.sequences[s].name
                    );
                    compared += 1;
                }
            }
        }
    }
    eprintln!("light animations: {compared} light probes in Babylon.js");
    assert!(compared > 1_000, "{compared}");
}
