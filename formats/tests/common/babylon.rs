//! Babylon.js's own glTF loader, headless (`testkit/harness/babylon/probe.mjs`),
//! for the tests of what glTF exports animate through `KHR_animation_pointer`.
//! Its skinned vertices (`pose.mjs`) are `testkit::babylon_pose`'s.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// A geoset mesh's state in Babylon.js: visible, its material's red,
/// green, blue and alpha, and where its base colour texture's transform
/// takes the texture coordinates (0, 0), (1, 0) and (0, 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshState {
    pub visible: bool,
    pub rgba: [f64; 4],
    pub corners: [[f64; 2]; 3],
}

/// What Babylon.js showed at one time: each geoset mesh's state, each
/// light's intensity, red, green and blue.
pub struct Frame {
    pub meshes: Vec<MeshState>,
    pub lights: Vec<[f64; 4]>,
}

/// What Babylon.js showed of one file: the geoset of each mesh (named
/// `NAME geoset N`), the name of each light, their states once loaded, and
/// for each animation and each probe time, their states there.
pub struct Probed {
    pub geosets: Vec<usize>,
    pub lights: Vec<String>,
    pub rest: Frame,
    pub animations: Vec<Vec<Frame>>,
}

/// The geoset a node or mesh of an export is named for (`NAME geoset N`).
pub fn geoset_named(name: &str) -> Option<usize> {
    name.rsplit_once(" geoset ")?.1.parse().ok()
}

fn frame(state: &Value) -> Frame {
    let lights = state["lights"].as_array().unwrap().iter();
    Frame {
        meshes: mesh_states(&state["meshes"]),
        lights: lights
            .map(|l| std::array::from_fn(|i| l[i].as_f64().unwrap()))
            .collect(),
    }
}

fn mesh_states(list: &Value) -> Vec<MeshState> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| MeshState {
            visible: s[0] == 1,
            rgba: std::array::from_fn(|i| s[i + 1].as_f64().unwrap()),
            corners: std::array::from_fn(|k| {
                std::array::from_fn(|i| s[5 + 2 * k + i].as_f64().unwrap())
            }),
        })
        .collect()
}

/// Loads each file in Babylon.js and sends each of its animations to each
/// of its probe times (seconds, per animation); by file. `None` (loudly; a
/// failure under `CI=true`) when node or the npm packages are missing.
pub fn probe(dir: &Path, files: &[(PathBuf, Vec<Vec<f64>>)]) -> Option<BTreeMap<PathBuf, Probed>> {
    let babylon = super::npm_harness("babylon", "@babylonjs/loaders", "Babylon.js")?;
    let results = super::node_probes(dir, &babylon.join("probe.mjs"), files);
    assert_eq!(results.len(), files.len());
    let probed = results
        .into_iter()
        .map(|(file, result)| {
            let geosets = result["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|name| geoset_named(name.as_str().unwrap()).unwrap())
                .collect();
            let animations = result["animations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|probes| probes.as_array().unwrap().iter().map(frame).collect())
                .collect();
            let lights = result["lights"].as_array().unwrap().iter();
            let probed = Probed {
                geosets,
                lights: lights.map(|l| l.as_str().unwrap().to_string()).collect(),
                rest: frame(&result["rest"]),
                animations,
            };
            (PathBuf::from(file), probed)
        })
        .collect();
    Some(probed)
}

/// Probe times, in whole milliseconds into a sequence: every 100 ms, and
/// each key time (`keys`, in seconds) moved by each of `around` (in ms),
/// those up to `last`, in order, once each.
pub fn probe_ms(keys: impl IntoIterator<Item = f64>, around: &[i64], last: u32) -> Vec<u32> {
    let mut ms: Vec<u32> = (0..=last).step_by(100).collect();
    for t in keys {
        let at = (t * 1000.0).round() as i64;
        ms.extend(around.iter().filter_map(|d| u32::try_from(at + d).ok()));
    }
    ms.retain(|&m| m <= last);
    ms.sort_unstable();
    ms.dedup();
    ms
}

/// `ms` milliseconds as glTF times are: `f32` seconds (so that a probe at a
/// key is at the key, not a float past it).
pub fn gltf_seconds(ms: u32) -> f64 {
    f64::from((f64::from(ms) / 1000.0) as f32)
}

/// Probe times of one file, in whole milliseconds, by sequence.
pub type ProbeMs = Vec<Vec<u32>>;

/// Probes of each file at whole milliseconds of every sequence of its
/// timeline: every 100 ms, and the millisecond before, at and after each key
/// time (seconds) its channels have in that sequence (`keys`, by sequence),
/// sent to Babylon.js at the times the export holds them ([`gltf_seconds`]).
/// Gives what [`probe`] gives, with each file's probes (ms, by sequence).
pub fn probe_around_keys<'t>(
    dir: &Path,
    files: impl IntoIterator<Item = (PathBuf, &'t formats::anim::Timeline, Vec<Vec<f64>>)>,
) -> Option<(BTreeMap<PathBuf, Probed>, Vec<ProbeMs>)> {
    let mut list = Vec::new();
    let mut probes_of = Vec::new();
    for (file, timeline, keys) in files {
        let probes: ProbeMs = (timeline.sequences.iter().zip(keys))
            .map(|(sequence, keys)| probe_ms(keys, &[-1, 0, 1], sequence.duration()))
            .collect();
        let seconds = probes
            .iter()
            .map(|ms| ms.iter().map(|&m| gltf_seconds(m)).collect())
            .collect();
        list.push((file, seconds));
        probes_of.push(probes);
    }
    Some((probe(dir, &list)?, probes_of))
}

/// A `LINEAR` animation channel (its times, and its values of `n`
/// components flattened) at `t` seconds, as glTF interpolates it (held
/// before the first key and after the last).
pub fn linear_at((times, values): &(Vec<f64>, Vec<f64>), n: usize, t: f64) -> Vec<f64> {
    let key = |k: usize| values[n * k..n * k + n].to_vec();
    let next = times.partition_point(|&x| x <= t);
    if next == 0 || next == times.len() {
        return key(next.saturating_sub(1));
    }
    let s = (t - times[next - 1]) / (times[next] - times[next - 1]);
    let (a, b) = (key(next - 1), key(next));
    (0..n).map(|i| a[i] + s * (b[i] - a[i])).collect()
}

/// The sampler `ms` milliseconds into sequence `s` of `timeline`.
pub fn sampler_at(
    timeline: &formats::anim::Timeline,
    s: usize,
    ms: f64,
) -> formats::anim::Sampler<'_> {
    let interval = timeline.sequences[s].interval;
    let moment = formats::anim::Moment {
        interval: Some(interval),
        frame: f64::from(interval[0]) + ms,
        counter: Some(ms),
    };
    formats::anim::Sampler::new(timeline, moment)
}

/// The `LINEAR` channel of `animation` that targets `pointer` through
/// `KHR_animation_pointer`: its times (strictly increasing) and its values
/// of `components` each, flattened; `None` without one. `file` names the
/// export in failures.
pub fn pointer_channel(
    (json, bin): (&Value, &[u8]),
    animation: &Value,
    pointer: &str,
    components: usize,
    file: &str,
) -> Option<(Vec<f64>, Vec<f64>)> {
    let channels = animation["channels"].as_array().unwrap();
    let channel = channels
        .iter()
        .find(|c| c["target"]["extensions"]["KHR_animation_pointer"]["pointer"] == *pointer)?;
    let sampler = &animation["samplers"][channel["sampler"].as_u64().unwrap() as usize];
    assert_eq!(sampler["interpolation"], "LINEAR", "{file}: {pointer}");
    let (one, times) = super::accessor_values(json, bin, &sampler["input"]);
    let (n, values) = super::accessor_values(json, bin, &sampler["output"]);
    assert_eq!((one, n), (1, components), "{file}: {pointer}");
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{file}: {pointer}");
    Some((times, values))
}

/// `model` exported with `options` as a `.glb` (named "m").
pub fn export_glb(
    model: &formats::mdx::Model,
    options: &formats::gltf::ExportOptions<'_>,
) -> Vec<u8> {
    let out = formats::gltf::export(model, "m", options).unwrap();
    out.document.to_glb().unwrap()
}

/// The animations of a glTF document's JSON (none: empty).
pub fn animations(json: &Value) -> &[Value] {
    json["animations"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
}
