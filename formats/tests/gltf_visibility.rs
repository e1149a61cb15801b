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

use std::collections::BTreeMap;
use std::path::PathBuf;

use formats::anim::{Moment, Sampler, Timeline, geoset_state};
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;
use serde_json::{Value, json};

/// A `.glb` file's JSON and binary chunk.
fn glb_parts(glb: &[u8]) -> (Value, &[u8]) {
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = word(12);
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = match glb.len() > bin_at {
        true => &glb[bin_at + 8..bin_at + 8 + word(bin_at)],
        false => &[],
    };
    (json, bin)
}

/// An accessor's values as `f64` (scalar float and unsigned byte accessors:
/// a sampler's times and its visibility keys).
fn scalars(json: &Value, bin: &[u8], accessor: &Value) -> Vec<f64> {
    let accessor = &json["accessors"][accessor.as_u64().unwrap() as usize];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let count = accessor["count"].as_u64().unwrap() as usize;
    assert_eq!(accessor["type"], "SCALAR");
    match accessor["componentType"].as_u64() {
        Some(5126) => (0..count)
            .map(|i| {
                let at = start + 4 * i;
                f64::from(f32::from_le_bytes(bin[at..at + 4].try_into().unwrap()))
            })
            .collect(),
        Some(5121) => bin[start..start + count]
            .iter()
            .map(|&b| f64::from(b))
            .collect(),
        other => panic!("component type {other:?}"),
    }
}

/// A `STEP` curve's value at `t` seconds (the key at or before it).
fn step_at(times: &[f64], values: &[f64], t: f64) -> f64 {
    let k = times.iter().rposition(|&x| x <= t).unwrap_or(0);
    values[k]
}

/// The geoset a node or mesh of the export is named for (`NAME geoset N`).
fn geoset_named(name: &str) -> Option<usize> {
    name.rsplit_once(" geoset ")?.1.parse().ok()
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
    let (json, bin) = glb_parts(glb);
    let nodes = json["nodes"].as_array().unwrap();
    let rest = nodes
        .iter()
        .filter_map(|node| {
            let visible = node["extensions"]["KHR_node_visibility"]["visible"].as_bool()?;
            Some((geoset_of(node).expect("a geoset node"), visible))
        })
        .collect();
    let channels = json["animations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
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

/// Every corpus model exported with geoset visibility: its keys checked at
/// every whole millisecond; those with a geoset not always shown validated
/// and played in Babylon.js (see the module docs).
#[test]
fn geoset_visibility_follows_the_geoset_animations_in_babylon() {
    let dir = common::temp_dir("gltf-visibility");
    let mut exported = Vec::new();
    let mut checked_frames = 0usize;
    for (path, model) in common::corpus_models() {
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
    if let Some(validator) = crate::gltf_validate::validator() {
        assert_eq!(
            crate::gltf_validate::assert_clean(&validator, &files),
            files.len()
        );
    }

    let Some(babylon) = common::npm_harness("babylon", "@babylonjs/loaders", "Babylon.js") else {
        return;
    };
    // Probes: every 100 ms, and the milliseconds before and at each change,
    // each half a millisecond in (the game's frames are whole milliseconds,
    // so the expected visibility is that of the millisecond the probe is in).
    let mut list = Vec::new();
    let mut expected = BTreeMap::new();
    for (file, _, model, timeline, keys) in &exported {
        let probes: Vec<Vec<u32>> = timeline
            .sequences
            .iter()
            .enumerate()
            .map(|(s, sequence)| {
                let mut ms: Vec<u32> = (0..=sequence.duration()).step_by(100).collect();
                for (times, _) in keys.channels[s].values() {
                    for &t in times {
                        let at = (t * 1000.0).round() as u32;
                        ms.extend([at.saturating_sub(1), at]);
                    }
                }
                ms.retain(|&m| m < sequence.duration());
                ms.sort_unstable();
                ms.dedup();
                ms
            })
            .collect();
        let seconds: Vec<Vec<f64>> = probes
            .iter()
            .map(|ms| ms.iter().map(|&m| (f64::from(m) + 0.5) / 1000.0).collect())
            .collect();
        list.push(json!({ "file": file, "probes": seconds }));
        expected.insert(
            file.to_str().unwrap().to_string(),
            (model, timeline, probes),
        );
    }
    let probes = dir.join("probes.json");
    std::fs::write(&probes, serde_json::to_vec(&list).unwrap()).unwrap();
    let results = common::node_results(&babylon.join("visibility.mjs"), &[probes.as_os_str()]);
    assert_eq!(results.len(), exported.len());
    let mut compared = 0usize;
    for (file, result) in &results {
        let (model, timeline, probes) = &expected[file];
        let geosets: Vec<usize> = result["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|name| geoset_named(name.as_str().unwrap()).unwrap())
            .collect();
        assert!(!geosets.is_empty(), "{file}");
        let at_rest = Sampler::new(timeline, Moment::BIND);
        for (k, &geoset) in geosets.iter().enumerate() {
            let rest = geoset_state(model, geoset, &at_rest).alpha > 0.0;
            assert_eq!(
                result["rest"][k] == 1,
                rest,
                "{file}: geoset {geoset} at rest"
            );
        }
        for (s, ms) in probes.iter().enumerate() {
            let shown_in_babylon = &result["animations"][s];
            for (p, &ms) in ms.iter().enumerate() {
                for (k, &geoset) in geosets.iter().enumerate() {
                    assert_eq!(
                        shown_in_babylon[p][k] == 1,
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
    std::fs::remove_dir_all(&dir).ok();
}
