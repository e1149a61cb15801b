//! Babylon.js's own glTF loader, headless (`tests/babylon/probe.mjs`), for
//! the tests of what glTF exports animate through `KHR_animation_pointer`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A geoset mesh's state in Babylon.js: visible, its material's red,
/// green, blue and alpha, and where its base colour texture's transform
/// takes the texture coordinates (0, 0), (1, 0) and (0, 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshState {
    pub visible: bool,
    pub rgba: [f64; 4],
    pub corners: [[f64; 2]; 3],
}

/// What Babylon.js showed of one file: the geoset of each mesh (named
/// `NAME geoset N`), their states once loaded, and for each animation and
/// each probe time, their states there.
pub struct Probed {
    pub geosets: Vec<usize>,
    pub rest: Vec<MeshState>,
    pub animations: Vec<Vec<Vec<MeshState>>>,
}

/// The geoset a node or mesh of an export is named for (`NAME geoset N`).
pub fn geoset_named(name: &str) -> Option<usize> {
    name.rsplit_once(" geoset ")?.1.parse().ok()
}

fn states(list: &Value) -> Vec<MeshState> {
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
    let list: Vec<Value> = files
        .iter()
        .map(|(file, probes)| json!({ "file": file, "probes": probes }))
        .collect();
    let probes = dir.join("probes.json");
    std::fs::write(&probes, serde_json::to_vec(&list).unwrap()).unwrap();
    let results = super::node_results(&babylon.join("probe.mjs"), &[probes.as_os_str()]);
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
                .map(|probes| probes.as_array().unwrap().iter().map(states).collect())
                .collect();
            let probed = Probed {
                geosets,
                rest: states(&result["rest"]),
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
