//! The exports checked by the Khronos glTF Validator (`--gltf-validator`):
//! the npm package the glTF tests use (`testkit/harness/gltf_validator`,
//! installed there with `npm ci` on first use), run on the kept exports in
//! batches, two processes at once. An export with errors becomes `wrong`,
//! with the validator's first messages.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::record::{FileResult, Outcome};

/// The harness folder in this workspace.
fn harness() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testkit/harness/gltf_validator")
}

/// The harness's script, installing its package first if needed.
pub fn prepare() -> Result<PathBuf, String> {
    let dir = harness();
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Err("--gltf-validator needs node".into());
    }
    if !dir
        .join("node_modules/gltf-validator/package.json")
        .is_file()
    {
        eprintln!(
            "installing gltf-validator (npm ci --prefix {})",
            dir.display()
        );
        let status = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .status()
            .map_err(|e| format!("npm: {e}"))?;
        if !status.success() {
            return Err(format!("npm ci --prefix {} failed", dir.display()));
        }
    }
    Ok(dir.join("validate.js"))
}

/// Validates `folder`'s `N.glb` (file `N`'s export) and folds the results
/// into the files' `export` runs; gives totals for the summary.
pub fn check(script: &Path, folder: &Path, files: &mut [FileResult]) -> String {
    let exports: Vec<(usize, PathBuf)> = (0..files.len())
        .map(|i| (i, folder.join(format!("{i}.glb"))))
        .filter(|(_, p)| p.is_file())
        .collect();
    let batches: Vec<&[(usize, PathBuf)]> = exports.chunks(25).collect();
    let results: Vec<Vec<(usize, serde_json::Value)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|worker| {
                let batches = &batches;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for batch in batches.iter().skip(worker).step_by(2) {
                        out.extend(validate(script, batch));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let (mut checked, mut failed, mut warnings) = (0, 0, 0u64);
    for (i, result) in results.into_iter().flatten() {
        checked += 1;
        let errors = result["errors"].as_i64().unwrap_or(-1);
        warnings += result["warnings"].as_u64().unwrap_or(0);
        if errors == 0 {
            continue;
        }
        failed += 1;
        let messages: Vec<&str> = result["messages"]
            .as_array()
            .map(|m| m.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        let run = files[i].runs.iter_mut().find(|r| r.tool == "export");
        if let Some(run) = run {
            run.outcome = Outcome::Wrong(format!(
                "{errors} glTF validator errors: {}",
                messages.join("; ")
            ));
        }
    }
    format!(
        "{checked} of {} exports checked, {failed} with errors, {warnings} warnings in all",
        exports.len()
    )
}

/// One validator process over `batch`: each file's JSON line, by file index.
fn validate(script: &Path, batch: &[(usize, PathBuf)]) -> Vec<(usize, serde_json::Value)> {
    let output = Command::new("node")
        .arg(script)
        .args(batch.iter().map(|(_, p)| p))
        .output();
    let Ok(output) = output else {
        return Vec::new();
    };
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|value| {
            let file = value["file"].as_str()?;
            let (i, _) = batch.iter().find(|(_, p)| p.to_str() == Some(file))?;
            Some((*i, value))
        })
        .collect()
}
