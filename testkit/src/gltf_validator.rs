//! The Khronos glTF Validator (npm `gltf-validator`, in
//! `harness/gltf_validator`, installed on first use) run on exported files.

use std::path::{Path, PathBuf};

use crate::{node_results, npm_harness};

/// The validator's folder, or `None` (loudly, and a panic under CI) when
/// node or the npm package is missing.
pub fn validator() -> Option<PathBuf> {
    npm_harness("gltf_validator", "gltf-validator", "glTF validation")
}

/// Runs the validator on `files`: each has 0 errors. Gives its report on each.
pub fn assert_valid(validator: &Path, files: &[PathBuf]) -> Vec<serde_json::Value> {
    let args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    let mut results = node_results(&validator.join("validate.js"), &args);
    let reports: Vec<serde_json::Value> = files
        .iter()
        .filter_map(|f| results.remove(f.to_str().unwrap()))
        .collect();
    for report in &reports {
        assert_eq!(report["errors"], 0, "{report}");
    }
    assert_eq!(reports.len(), files.len());
    reports
}

/// Runs the validator, if there is one ([`validator`]), on `files`: each
/// has 0 errors and 0 warnings.
pub fn assert_all_clean(files: &[PathBuf]) {
    if let Some(validator) = validator() {
        assert_eq!(assert_clean(&validator, files), files.len());
    }
}

/// Runs the validator on `files`: each has 0 errors and 0 warnings. Gives
/// how many it validated.
pub fn assert_clean(validator: &Path, files: &[PathBuf]) -> usize {
    let reports = assert_valid(validator, files);
    for report in &reports {
        assert_eq!(report["warnings"], 0, "{report}");
    }
    reports.len()
}
