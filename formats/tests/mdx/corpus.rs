//! Every `.mdx` of the corpus (Warcraft III / Reforged 800 to 1200, WoW alpha 1300)
//! through the typed reader and writer: byte-exact round trips, the two
//! light-quirk files through the lenient reader, and semantic checks against
//! the manifest.

use crate::common;

use std::collections::BTreeMap;

use common::{ManifestFile, corpus_root, manifest_models};
use formats::mdx::Model;

/// The files whose `LITE` size leaves out a light track (`MDX_VERSIONS.md` §8.3).
const LIGHT_QUIRK: [&str; 2] = [
    "mdx/amisd_nwdg32.mdx",
    "mdx/dbz_FountainOfSouls_rev-294411b2.mdx",
];

/// The manifest's `.mdx` rows (versions 800 to 1500), with their bytes.
fn corpus_mdx_files() -> Vec<(ManifestFile, Vec<u8>)> {
    if corpus_root().is_none() {
        return Vec::new();
    }
    let files = manifest_models(800..=1500);
    assert_eq!(
        files.len(),
        57,
        "the manifest lists 56 .mdx files of versions 800-1200 and one of 1300"
    );
    files
}

#[test]
fn every_corpus_mdx_round_trips_byte_exact() {
    let mut per_version: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for (file, data) in corpus_mdx_files() {
        let version: u32 = file.cell("version").parse().unwrap();
        let entry = per_version.entry(version).or_default();
        entry.1 += 1;
        let quirk = LIGHT_QUIRK.contains(&file.path.as_str());
        let model = if quirk {
            let strict = Model::from_bytes(&data);
            assert!(
                strict.is_err(),
                "{}: strict read must refuse the orphan light track",
                file.path
            );
            match Model::from_bytes_lenient(&data) {
                Ok((model, diagnostics)) => {
                    assert_eq!(diagnostics.len(), 1, "{}: {diagnostics:?}", file.path);
                    println!("{}: lenient: {}", file.path, diagnostics[0]);
                    model
                }
                Err(e) => {
                    failures.push(format!("{}: lenient read failed: {e}", file.path));
                    continue;
                }
            }
        } else {
            match Model::from_bytes(&data) {
                Ok(model) => model,
                Err(e) => {
                    failures.push(format!("{}: {e}", file.path));
                    continue;
                }
            }
        };
        assert_eq!(model.version(), version, "{}", file.path);
        let unknown = unknown_parts(&model);
        let expected: &[&str] = match file.path.as_str() {
            // MDX_MANIFEST.md: an unknown trailing MDVI chunk, an INFO chunk before VERS.
            "mdx/edem_Basket02.mdx" => &["chunks[8].Unknown(MDVI)"],
            "mdx/w3mt_Team_Background.mdx" => &["chunks[0].Unknown(INFO)"],
            _ => &[],
        };
        assert_eq!(
            unknown, expected,
            "{}: parts no definition knows",
            file.path
        );
        match model.to_bytes() {
            Ok(back) if back == data => {
                entry.0 += 1;
                println!(
                    "{:<60} v{version} byte-exact ({} chunks)",
                    file.path,
                    model.chunks.len()
                );
            }
            Ok(back) => {
                let at = back
                    .iter()
                    .zip(&data)
                    .position(|(a, b)| a != b)
                    .unwrap_or(back.len().min(data.len()));
                failures.push(format!(
                    "{}: written bytes differ from offset {at:#x} (len {} vs {})",
                    file.path,
                    back.len(),
                    data.len()
                ));
            }
            Err(e) => failures.push(format!("{}: write failed: {e}", file.path)),
        }
    }
    for (version, (passed, tried)) in &per_version {
        println!("version {version}: {passed}/{tried} byte-exact");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The path of every part of `model` that went to an `Unknown` variant or an
/// `unknown` field: a typed reader must know every byte of the corpus except
/// the chunks the manifest calls unknown.
fn unknown_parts(model: &Model) -> Vec<String> {
    fn walk(value: &serde_json::Value, path: &str, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, inner) in map {
                    if key == "Unknown" {
                        let tag = inner.get("tag").map(|t| t.to_string()).unwrap_or_default();
                        out.push(format!("{path}.Unknown({})", tag.trim_matches('"')));
                    } else if key == "unknown" && inner.as_array().is_some_and(|a| !a.is_empty()) {
                        out.push(format!("{path}.unknown"));
                    } else {
                        walk(inner, &format!("{path}.{key}"), out);
                    }
                }
            }
            serde_json::Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), out);
                }
            }
            _ => {}
        }
    }
    let value = serde_json::to_value(model).unwrap();
    let mut out = Vec::new();
    walk(&value["chunks"], "chunks", &mut out);
    out
}

#[test]
fn every_corpus_mdx_survives_a_serde_json_round_trip() {
    let mut checked = 0;
    for (file, data) in corpus_mdx_files() {
        let model = Model::from_bytes(&data)
            .or_else(|_| Model::from_bytes_lenient(&data).map(|(m, _)| m))
            .unwrap();
        let json = serde_json::to_string(&model).unwrap();
        let back: Model = serde_json::from_str(&json).unwrap();
        let nan_files = ["mdx/pqw3_Wood-floor-01.mdx", "mdx/pqw3_HarvestGolem.mdx"];
        if nan_files.contains(&file.path.as_str()) {
            // JSON has no NaN: serde_json writes the NaN emissive gains of these
            // files (MDX_VERSIONS.md §8.2) as null, which reads back as "absent".
            assert!(json.contains("\"emissive_gain\":null"), "{}", file.path);
            assert!(back.to_bytes().is_err(), "{}", file.path);
        } else {
            assert_eq!(back.to_bytes().unwrap(), data, "{}", file.path);
            checked += 1;
        }
    }
    if corpus_root().is_some() {
        assert_eq!(checked, 55);
    }
}
