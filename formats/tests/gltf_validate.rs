//! The Khronos glTF Validator (npm `gltf-validator`, installed by `.ci/run`
//! into `tests/gltf_validator`) on the export of every corpus model (`mdx/`
//! and `mdl/`), as `.glb`, and on a few as `.gltf` with their `.bin` and
//! images beside them: 0 errors and 0 warnings each, and the validator's own counts of
//! primitives, vertices, triangles and animations those of the model; on the
//! export of every corpus tile (`adt/` and the map folder), and on what
//! `formats export` writes of the corpus map (as `.glb` and as `.gltf`): 0
//! errors and 0 warnings each. One node process validates every file of a
//! test.
//!
//! Under `CI=true` a missing node or validator is a failure; elsewhere the
//! test says loudly that it did not run.

mod common;

use std::path::{Path, PathBuf};

use formats::anim::{Skeleton, meshes};
use formats::gltf::textures::TextureFolders;
use formats::gltf::{Document, Export, ExportOptions, GltfFiles, export, export_tile};
use formats::mdx::{Chunk, Model};
use serde_json::json;

/// The validator's folder, or `None` (loudly, and a panic under CI) when
/// node or the npm package is missing.
fn validator() -> Option<PathBuf> {
    common::npm_harness("gltf_validator", "gltf-validator", "glTF validation")
}

/// Runs the validator on `files`: each has 0 errors. Gives its report on each.
fn assert_valid(validator: &Path, files: &[PathBuf]) -> Vec<serde_json::Value> {
    let args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    let mut results = common::node_results(&validator.join("validate.js"), &args);
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

/// Runs the validator on `files`: each has 0 errors and 0 warnings. Gives
/// how many it validated.
fn assert_clean(validator: &Path, files: &[PathBuf]) -> usize {
    let reports = assert_valid(validator, files);
    for report in &reports {
        assert_eq!(report["warnings"], 0, "{report}");
    }
    reports.len()
}

/// What the validator should count in the export of `model`: the exported
/// geosets' primitives, vertices and triangles, and the animations.
fn expected_counts(model: &Model, exported: &Export) -> serde_json::Value {
    let all = meshes(model, &Skeleton::from_model(model));
    let geosets = exported.geosets.iter().map(|&g| &all[g]);
    json!({
        "primitives": exported.geosets.len(),
        "vertices": geosets.clone().map(|m| m.positions.len()).sum::<usize>(),
        "triangles": geosets.map(|m| m.triangles.len()).sum::<usize>(),
        "animations": exported.animations.len(),
    })
}

/// The validator's counts in `report`, next to [`expected_counts`]'s.
fn counted(report: &serde_json::Value) -> serde_json::Value {
    let counts = &report["counts"];
    json!({
        "primitives": counts["primitives"],
        "vertices": counts["vertices"],
        "triangles": counts["triangles"],
        "animations": counts["animations"],
    })
}

/// Writes `document` into `out` as `stem.glb`, and if `as_gltf` also as
/// `stem.gltf` with its files beside it; gives the documents' paths.
fn write(out: &Path, stem: &str, document: &Document, as_gltf: bool) -> Vec<PathBuf> {
    let glb = out.join(format!("{stem}.glb"));
    std::fs::write(&glb, document.to_glb().unwrap()).unwrap();
    let mut paths = vec![glb];
    if as_gltf {
        let GltfFiles {
            json,
            files: beside,
        } = document.to_gltf(stem).unwrap();
        for (name, bytes) in beside {
            std::fs::write(out.join(name), bytes).unwrap();
        }
        let gltf = out.join(format!("{stem}.gltf"));
        std::fs::write(&gltf, json).unwrap();
        paths.push(gltf);
    }
    paths
}

#[test]
fn every_corpus_export_is_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-validate");
    let folders = TextureFolders::new(vec![root.join("mdx"), root.join("textures")]);
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let mut files = Vec::new();
    let mut expected = Vec::new();
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
        let as_gltf = [
            "rms_PackHorse",
            "wowalpha_Boar",
            "pqw3_HarvestGolem",
            "mv_SmileyGW_004",
        ]
        .contains(&stem.as_str());
        let written = write(&out, &stem, &exported.document, as_gltf);
        let counts = expected_counts(&model, &exported);
        expected.extend(written.iter().map(|f| (f.clone(), counts.clone())));
        files.extend(written);
    }
    let reports = assert_valid(&validator, &files);
    assert_eq!(reports.len(), 57 + 4);
    for (report, (file, counts)) in reports.iter().zip(&expected) {
        assert_eq!(report["warnings"], 0, "{report}");
        assert_eq!(counted(report), *counts, "{}", file.display());
    }
    // The six corpus textures of five models went in (and were validated).
    assert_eq!(embedded, 6);
    std::fs::remove_dir_all(&out).ok();
}

/// Every corpus `.mdl` (36: the only v900 model, one without a `Version`
/// block, models found only as text), read as `formats export` reads it
/// (strictly, else leniently) and exported with its textures looked up
/// beside it and in the corpus textures: 0 errors and 0 warnings each, one
/// report per file, the validator's counts those of the model, the totals
/// pinned.
#[test]
fn every_corpus_mdl_export_is_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-validate-mdl");
    let folders = TextureFolders::new(vec![root.join("mdl"), root.join("textures")]);
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let mut versions = std::collections::BTreeMap::new();
    let mut embedded = Vec::new();
    for path in common::files_in(&root, "mdl", ".mdl") {
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        let model = formats::mdl::from_str(&text)
            .or_else(|_| formats::mdl::from_str_lenient(&text).map(|(m, _)| m))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let version = model.chunks.iter().find_map(|c| match c {
            Chunk::Version(v) => Some(v.version),
            _ => None,
        });
        *versions.entry(version).or_insert(0) += 1;
        let stem = Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let exported = export(&model, &stem, &options).unwrap_or_else(|e| panic!("{path}: {e}"));
        embedded.extend(
            exported
                .embedded_textures
                .iter()
                .map(|t| format!("{stem}: {t}")),
        );
        // The v900 model and the one without a version also as .gltf.
        let as_gltf =
            ["pqw3_icecrown_precipicerunes_01", "zf_particle_emitter"].contains(&stem.as_str());
        let written = write(&out, &stem, &exported.document, as_gltf);
        let counts = expected_counts(&model, &exported);
        expected.extend(written.iter().map(|f| (f.clone(), counts.clone())));
        files.extend(written);
    }
    assert_eq!(
        versions,
        [
            (None, 1),
            (Some(800), 32),
            (Some(900), 1),
            (Some(1000), 1),
            (Some(1100), 1)
        ]
        .into()
    );
    let reports = assert_valid(&validator, &files);
    assert_eq!(reports.len(), 36 + 2);
    let mut total = json!({"primitives": 0, "vertices": 0, "triangles": 0, "animations": 0});
    for (report, (file, counts)) in reports.iter().zip(&expected) {
        assert_eq!(report["warnings"], 0, "{report}");
        assert_eq!(counted(report), *counts, "{}", file.display());
        if file.extension().is_some_and(|e| e == "glb") {
            for (key, value) in total.as_object_mut().unwrap() {
                *value = json!(value.as_u64().unwrap() + counts[key].as_u64().unwrap());
            }
        }
    }
    assert_eq!(
        total,
        json!({"primitives": 65, "vertices": 41277, "triangles": 42588, "animations": 70})
    );
    // The corpus textures of two models went in (and were validated).
    assert_eq!(
        embedded,
        [
            r"pqw3_BlueUnsummon: Models\BlueUnsummon\BlueUnsummon.blp",
            r"pqw3_icecrownraid_arthas_precipice_phase0_set0: Models\FrozenThrone\ce_arthas_side.blp",
            r"pqw3_icecrownraid_arthas_precipice_phase0_set0: Models\FrozenThrone\ce_artahs_stairs.blp",
        ]
    );
    std::fs::remove_dir_all(&out).ok();
}

#[test]
fn every_corpus_tile_exports_valid_gltf() {
    if common::corpus_root().is_none() {
        return;
    }
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-tiles");
    let mut files = Vec::new();
    let mut placements = 0;
    for (path, adt) in common::corpus_tiles() {
        let stem = Path::new(&path).file_stem().unwrap().to_string_lossy();
        let exported = export_tile(&adt, &stem).unwrap();
        placements += exported.doodads + exported.map_objects;
        // One as .gltf with its .bin beside it.
        let as_gltf = stem == "cataclysmctf_31_27";
        files.extend(write(&out, &stem, &exported.document, as_gltf));
    }
    assert_eq!(assert_clean(&validator, &files), 12 + 1);
    // Placements went in (Northrend alone has 2294 doodads).
    assert!(placements > 3000, "{placements}");
    std::fs::remove_dir_all(&out).ok();
}

/// `formats export MAP.wdt DIR`, and with `--gltf`: every tile written
/// (four of the corpus map's nine are there) is valid.
#[cfg(feature = "cli")]
#[test]
fn the_map_export_writes_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-map");
    let wdt = root.join("maps/cataclysmctf/cataclysmctf.wdt");
    let mut files = Vec::new();
    for (folder, flags, extension) in [("glb", &[][..], "glb"), ("gltf", &["--gltf"][..], "gltf")] {
        let folder = out.join(folder);
        common::formats()
            .arg("export")
            .arg(&wdt)
            .arg(&folder)
            .args(flags)
            .assert()
            .success();
        let mut written: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == extension))
            .collect();
        assert_eq!(written.len(), 4, "{}", folder.display());
        written.sort();
        files.extend(written);
    }
    assert_eq!(assert_clean(&validator, &files), 2 * 4);
    std::fs::remove_dir_all(&out).ok();
}
