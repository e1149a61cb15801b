//! Geosets shown and hidden in glTF (`ExportOptions::geoset_visibility`:
//! `KHR_node_visibility` on each geoset's node, animated through
//! `KHR_animation_pointer`), on every corpus model:
//!
//! - the export's own keys, read from the `.glb` here (the `gltf` crate
//!   refuses channels without a node): at every whole millisecond of every
//!   sequence, each geoset's node is visible exactly where `formats::anim`
//!   gives the geoset an alpha above 0, and a node without a channel keeps
//!   its rest visibility, which is the one at rest;
//! - Babylon.js's own glTF loader (npm `@babylonjs/core` and
//!   `@babylonjs/loaders`, installed by `.ci/run` into `tests/babylon`, run
//!   headless): loaded, and with each animation group sent to times around
//!   every change and every 100 ms, each geoset mesh is visible where
//!   `formats::anim` says;
//! - the Khronos glTF Validator: 0 errors, 0 warnings.
//!
//! Under `CI=true` a missing node or npm package is a failure; elsewhere the
//! test says loudly that it did not run.

use crate::common;
use crate::common::babylon::geoset_named;

use std::collections::BTreeMap;
use std::path::PathBuf;

use formats::anim::{Moment, Sampler, Timeline, geoset_state};
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;
use serde_json::Value;

/// A scalar accessor's values (a sampler's times and its visibility keys).
fn scalars(json: &Value, bin: &[u8], accessor: &Value) -> Vec<f64> {
    let (components, values) = common::accessor_values(json, bin, accessor);
    assert_eq!(components, 1);
    values
}

/// A `STEP` curve's value at `t` seconds (the key at or before it).
fn step_at(times: &[f64], values: &[f64], t: f64) -> f64 {
    let k = times.iter().rposition(|&x| x <= t).unwrap_or(0);
    values[k]
}

/// [`geoset_named`] of a node.
fn geoset_of(node: &Value) -> Option<usize> {
    geoset_named(node["name"].as_str()?)
}

/// Whether `formats::anim` shows geoset `geoset` `ms` into sequence `s`.
fn shown(model: &Model, timeline: &Timeline, s: usize, ms: u32, geoset: usize) -> bool {
    let interval = timeline.sequences[s].interval;
    let moment = Moment {
        interval: Some(interval),
        frame: f64::from(interval[0]) + f64::from(ms),
        counter: Some(f64::from(ms)),
    };
    geoset_state(model, geoset, &Sampler::new(timeline, moment)).alpha > 0.0
}

/// A `STEP` channel's times (seconds) and values.
type Steps = (Vec<f64>, Vec<f64>);

/// One export's visibility keys: per animation, per geoset, its steps; and
/// each geoset's visibility at rest.
struct Keys {
    channels: Vec<BTreeMap<usize, Steps>>,
    rest: BTreeMap<usize, bool>,
}

/// Reads the visibility keys of an export written with geoset visibility,
/// checking that each pointer channel names a geoset node's visibility.
fn keys_of(glb: &[u8], path: &str) -> Keys {
    let (json, bin) = common::glb_parts(glb);
    let nodes = json["nodes"].as_array().unwrap();
    let rest = nodes
        .iter()
        .filter_map(|node| {
            let visible = node["extensions"]["KHR_node_visibility"]["visible"].as_bool()?;
            Some((geoset_of(node).expect("a geoset node"), visible))
        })
        .collect();
    let channels = common::babylon::animations(&json)
        .iter()
        .map(|animation| {
            let mut by_geoset = BTreeMap::new();
            for channel in animation["channels"].as_array().unwrap() {
                let target = &channel["target"];
                if target["path"] != "pointer" {
                    continue;
                }
                assert!(target.get("node").is_none(), "{path}");
                let pointer = target["extensions"]["KHR_animation_pointer"]["pointer"]
                    .as_str()
                    .unwrap();
                let node: usize = pointer
                    .strip_prefix("/nodes/")
                    .and_then(|p| p.strip_suffix("/extensions/KHR_node_visibility/visible"))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("{path}: pointer {pointer}"));
                let geoset = geoset_of(&nodes[node]).unwrap();
                let sampler = &animation["samplers"][channel["sampler"].as_u64().unwrap() as usize];
                assert_eq!(sampler["interpolation"], "STEP", "{path}");
                let times = scalars(&json, bin, &sampler["input"]);
                let values = scalars(&json, bin, &sampler["output"]);
                assert!(times.windows(2).all(|w| w[0] < w[1]), "{path}");
                assert!(
                    values.windows(2).all(|w| w[0] != w[1]),
                    "{path}: keys only at changes"
                );
                by_geoset.insert(geoset, (times, values));
            }
            by_geoset
        })
        .collect();
    Keys { channels, rest }
}

/// Every corpus model (MDX and MDL) exported with geoset visibility: its keys checked at
/// every whole millisecond; those with a geoset not always shown validated
/// and played in Babylon.js (see the module docs).
#[test]
fn geoset_visibility_follows_the_geoset_animations_in_babylon() {
    let dir = common::temp_dir("gltf-visibility");
    let mut exported = Vec::new();
    let mut checked_frames = 0usize;
    let models = common::corpus_models().into_iter();
    for (path, model) in models.chain(common::corpus_mdl_models()) {
        let timeline = Timeline::from_model(&model);
        let options = ExportOptions {
            geoset_visibility: true,
            ..Default::default()
        };
        let out = export(&model, "m", &options).unwrap();
        let glb = out.document.to_glb().unwrap();
        let keys = keys_of(&glb, &path);
        // Without the option: no extension, no pointer channel, and the
        // `gltf` crate reads the file.
        let plain = export(&model, "m", &ExportOptions::default()).unwrap();
        assert!(plain.document.pointer_channels.is_empty(), "{path}");
        assert!(
            plain
                .document
                .root
                .extensions_used
                .iter()
                .all(|e| !e.contains("visibility"))
        );
        if keys.rest.is_empty() {
            assert!(out.document.pointer_channels.is_empty(), "{path}");
            continue;
        }
        assert_eq!(keys.channels.len(), timeline.sequences.len(), "{path}");
        let at_rest = Sampler::new(&timeline, Moment::BIND);
        for &geoset in &out.geosets {
            let rest = geoset_state(&model, geoset, &at_rest).alpha > 0.0;
            assert_eq!(
                keys.rest.get(&geoset).copied().unwrap_or(true),
                rest,
                "{path}"
            );
            for (s, sequence) in timeline.sequences.iter().enumerate() {
                let channel = keys.channels[s].get(&geoset);
                for ms in 0..=sequence.duration() {
                    let want = shown(&model, &timeline, s, ms, geoset);
                    let got = match channel {
                        Some((times, values)) => {
                            let t = f64::from((f64::from(ms) / 1000.0) as f32);
                            step_at(times, values, t) != 0.0
                        }
                        None => keys.rest.get(&geoset).copied().unwrap_or(true),
                    };
                    assert_eq!(
                        got, want,
                        "{path}: geoset {geoset} in {} at {ms} ms",
                        sequence.name
                    );
                    checked_frames += 1;
                }
            }
        }
        let file = dir.join(format!("{}.glb", path.replace('/', "_")));
        std::fs::write(&file, &glb).unwrap();
        exported.push((file, path, model, timeline, keys));
    }
    if exported.is_empty() {
        return; // No corpus (said loudly by `corpus_models`).
    }
    // The corpus has models that hide a geoset in some sequences.
    assert!(exported.len() >= 5, "{}", exported.len());
    assert!(
        exported
            .iter()
            .any(|(.., keys)| keys.channels.iter().any(|c| !c.is_empty()))
    );
    assert!(checked_frames > 1_000_000, "{checked_frames}");

    let files: Vec<PathBuf> = exported.iter().map(|(file, ..)| file.clone()).collect();
    testkit::gltf_validator::assert_all_clean(&files);

    // Probes: every 100 ms, and the milliseconds before and at each change,
    // each half a millisecond in (the game's frames are whole milliseconds,
    // so the expected visibility is that of the millisecond the probe is in).
    let mut list = Vec::new();
    let mut probes_of = Vec::new();
    for (file, _, _, timeline, keys) in &exported {
        let probes: Vec<Vec<u32>> = timeline
            .sequences
            .iter()
            .enumerate()
            .map(|(s, sequence)| {
                let changes = keys.channels[s].values().flat_map(|(times, _)| times);
                let last = sequence.duration().saturating_sub(1);
                common::babylon::probe_ms(changes.copied(), &[-1, 0], last)
            })
            .collect();
        let seconds = probes
            .iter()
            .map(|ms| ms.iter().map(|&m| (f64::from(m) + 0.5) / 1000.0).collect());
        list.push((file.clone(), seconds.collect()));
        probes_of.push(probes);
    }
    let Some(results) = common::babylon::probe(&dir, &list) else {
        return;
    };
    let mut compared = 0usize;
    for ((file, _, model, timeline, _), probes) in exported.iter().zip(&probes_of) {
        let result = &results[file];
        let file = file.display();
        assert!(!result.geosets.is_empty(), "{file}");
        let at_rest = Sampler::new(timeline, Moment::BIND);
        for (&geoset, state) in result.geosets.iter().zip(&result.rest.meshes) {
            let rest = geoset_state(model, geoset, &at_rest).alpha > 0.0;
            assert_eq!(state.visible, rest, "{file}: geoset {geoset} at rest");
        }
        for (s, ms) in probes.iter().enumerate() {
            for (&ms, frame) in ms.iter().zip(&result.animations[s]) {
                for (&geoset, state) in result.geosets.iter().zip(&frame.meshes) {
                    assert_eq!(
                        state.visible,
                        shown(model, timeline, s, ms, geoset),
                        "{file}: geoset {geoset} in {} at {ms}.5 ms in Babylon.js",
                        timeline.sequences[s].name
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 10_000, "{compared}");
}
