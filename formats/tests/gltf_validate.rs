//! The Khronos glTF Validator (npm `gltf-validator`, installed by `.ci/run`
//! into `tests/gltf_validator`) on the export of every corpus model, as
//! `.glb`, and on a few as `.gltf` with their `.bin` and images beside them:
//! 0 errors each. One node process validates every file.
//!
//! Under `CI=true` a missing node or validator is a failure; elsewhere the
//! test says loudly that it did not run.

mod common;

use std::path::Path;
use std::process::Command;

use formats::gltf::textures::TextureFolders;
use formats::gltf::{ExportOptions, GltfFiles, export};
use formats::mdx::Model;

#[test]
fn every_corpus_export_is_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) =
        common::npm_harness("gltf_validator", "gltf-validator", "glTF validation")
    else {
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
