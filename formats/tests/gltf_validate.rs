//! The Khronos glTF Validator (npm `gltf-validator`, installed by `.ci/run`
//! into `tests/gltf_validator`) on the export of every corpus model, as
//! `.glb`, and on a few as `.gltf` with their `.bin` and images beside them:
//! 0 errors each. One node process validates every file.
//!
//! Under `CI=true` a missing node or validator is a failure; elsewhere the
//! test says loudly that it did not run.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use formats::gltf::textures::TextureFolders;
use formats::gltf::{ExportOptions, GltfFiles, export};
use formats::mdx::Model;

/// The validator's folder, or `None` (loudly, and a panic under CI) when
/// node or the npm package is missing.
fn validator() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gltf_validator");
    let installed = dir
        .join("node_modules/gltf-validator/package.json")
        .is_file();
    let node = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if installed && node {
        return Some(dir);
    }
    let why = if node {
        "the npm package gltf-validator is not installed (npm ci --prefix formats/tests/gltf_validator)"
    } else {
        "node is not installed"
    };
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("glTF validation cannot run under CI: {why}");
    }
    // Straight to stderr: the test harness captures `eprintln!`.
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! glTF Validator did NOT run: {why} !!!\n"
    );
    None
}

#[test]
fn every_corpus_export_is_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = std::env::temp_dir().join(format!("formats-gltf-validate-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let folders = TextureFolders::new(vec![root.join("mdx"), root.join("textures")]);
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let mut files = Vec::new();
    let mut embedded = 0;
    for path in common::files_in(&root, "mdx", ".mdx") {
        let bytes = std::fs::read(root.join(&path)).unwrap();
        let (model, _) = Model::from_bytes_lenient(&bytes).unwrap();
        let stem = Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let exported = export(&model, &stem, &options).unwrap();
        embedded += exported.embedded_textures.len();
        let glb = out.join(format!("{stem}.glb"));
        std::fs::write(&glb, exported.document.to_glb().unwrap()).unwrap();
        files.push(glb);
        if [
            "rms_PackHorse",
            "wowalpha_Boar",
            "pqw3_HarvestGolem",
            "mv_SmileyGW_004",
        ]
        .contains(&stem.as_str())
        {
            let GltfFiles {
                json,
                files: beside,
            } = exported.document.to_gltf(&stem).unwrap();
            for (name, bytes) in beside {
                std::fs::write(out.join(name), bytes).unwrap();
            }
            let gltf = out.join(format!("{stem}.gltf"));
            std::fs::write(&gltf, json).unwrap();
            files.push(gltf);
        }
    }
    let report = Command::new("node")
        .arg(validator.join("validate.js"))
        .args(&files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&report.stdout);
    assert!(
        report.status.success(),
        "validator failed: {stdout}\n{}",
        String::from_utf8_lossy(&report.stderr)
    );
    let mut validated = 0;
    for line in stdout.lines() {
        let result: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(result["errors"], 0, "{line}");
        validated += 1;
    }
    assert_eq!(validated, files.len());
    assert!(validated >= 57 + 4, "{validated}");
    // The six corpus textures of five models went in (and were validated).
    assert_eq!(embedded, 6);
    std::fs::remove_dir_all(&out).ok();
}
