//! Semantic checks of the typed MDX reader on the corpus: object counts equal
//! the counts the manifest gives (its GEOS summaries, and the block counts of
//! the MDL twin of each MDX/MDL pair), and the per-vertex arrays of every
//! geoset agree with its vertex count.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::{corpus_root, manifest_files};
use formats::mdx::Model;

fn read(data: &[u8]) -> Model {
    match Model::from_bytes(data) {
        Ok(model) => model,
        Err(_) => Model::from_bytes_lenient(data).unwrap().0,
    }
}

/// `Geoset×3 Bone×30 Light` -> {"Geoset": 3, "Bone": 30, "Light": 1}.
fn mdl_block_counts(chunks: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for word in chunks.trim_start_matches("MDL:").split_whitespace() {
        let (name, n) = match word.split_once('×') {
            Some((name, n)) => (name, n.parse().unwrap()),
            None => (word, 1),
        };
        *counts.entry(name.to_string()).or_default() += n;
    }
    counts
}

/// The model's object counts under the MDL block names.
fn object_counts(model: &Model) -> BTreeMap<String, usize> {
    [
        ("Geoset", model.geosets().len()),
        ("GeosetAnim", model.geoset_animations().len()),
        ("Bone", model.bones().len()),
        ("Light", model.lights().len()),
        ("Helper", model.helpers().len()),
        ("Attachment", model.attachments().len()),
        ("ParticleEmitter", model.particle_emitters().len()),
        ("ParticleEmitter2", model.particle_emitters2().len()),
        ("RibbonEmitter", model.ribbon_emitters().len()),
        ("EventObject", model.event_objects().len()),
        ("Camera", model.cameras().len()),
        ("CollisionShape", model.collision_shapes().len()),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .map(|(k, n)| (k.to_string(), n))
    .collect()
}

#[test]
fn object_counts_equal_the_mdl_twins_in_the_manifest() {
    let Some(root) = corpus_root() else { return };
    let mdl: BTreeMap<String, String> = manifest_files(&root, "MDX_MANIFEST.md", "mdl", ".mdl")
        .into_iter()
        .map(|f| (f.path.clone(), f.cell("top-level chunks").to_string()))
        .collect();
    // The "Same model in both forms" table: pairs and near-pairs.
    let mut pairs: Vec<(String, String)> = [
        ("rms_PackHorse", "rms_PackHorse_magos"),
        ("amisd_File00001202_98f1fm0", "amisd_File00001202_98f1fm0"),
        ("wc3lib_Orc_Exp", "wc3lib_Orc_Exp"),
        ("amisd_456", "amisd_456"),
        (
            "pqw3_icecrownraid_arthas_precipice_phase0_set0",
            "pqw3_icecrownraid_arthas_precipice_phase0_set0",
        ),
        ("pqw3_BlueUnsummon", "pqw3_BlueUnsummon"),
    ]
    .iter()
    .map(|(x, l)| (format!("mdx/{x}.mdx"), format!("mdl/{l}.mdl")))
    .collect();
    for name in mdl.keys() {
        if let Some(stem) = name.strip_prefix("mdl/zf_") {
            let mdx = format!("mdx/zf_{stem}").replace(".mdl", ".mdx");
            if root.join(&mdx).exists() {
                pairs.push((mdx, name.clone()));
            }
        }
    }
    assert_eq!(pairs.len(), 6 + 23, "6 named pairs and 23 zf_* pairs");
    for (mdx, mdl_path) in &pairs {
        let model = read(&std::fs::read(root.join(mdx)).unwrap());
        let ours = object_counts(&model);
        let mut theirs: BTreeMap<String, usize> = mdl_block_counts(&mdl[mdl_path])
            .into_iter()
            .filter(|(k, _)| ours.contains_key(k) || object_counts_names().contains(k.as_str()))
            .collect();
        if mdx == "mdx/pqw3_BlueUnsummon.mdx" {
            // The manifest's known difference: "MDX has 4 PRE2, MDL 3".
            assert_eq!(theirs.get("ParticleEmitter2"), Some(&3));
            theirs.insert("ParticleEmitter2".into(), 4);
        }
        assert_eq!(ours, theirs, "{mdx} vs {mdl_path}");
        println!("{mdx:<62} {ours:?}");
    }
}

fn object_counts_names() -> BTreeSet<&'static str> {
    [
        "Geoset",
        "GeosetAnim",
        "Bone",
        "Light",
        "Helper",
        "Attachment",
        "ParticleEmitter",
        "ParticleEmitter2",
        "RibbonEmitter",
        "EventObject",
        "Camera",
        "CollisionShape",
    ]
    .into_iter()
    .collect()
}

#[test]
fn geoset_summaries_equal_the_manifest_notes() {
    let Some(root) = corpus_root() else { return };
    let mut checked = 0;
    for file in manifest_files(&root, "MDX_MANIFEST.md", "mdx", ".mdx") {
        let Some(summary) = file.cell("notes").split("GEOS: ").nth(1) else {
            continue;
        };
        let fields: BTreeMap<&str, &str> = summary
            .split_whitespace()
            .filter_map(|kv| kv.split_once('='))
            .collect();
        let model = read(&std::fs::read(root.join(&file.path)).unwrap());
        let geosets = model.geosets();
        let tangents = geosets.iter().filter(|g| g.tangents.is_some()).count();
        let skins = geosets.iter().filter(|g| g.skin.is_some()).count();
        let max_uv = geosets
            .iter()
            .map(|g| g.texture_coordinate_sets.len())
            .max()
            .unwrap_or(0);
        let lods: BTreeSet<i32> = geosets.iter().filter_map(|g| g.lod).collect();
        let expected_lods: BTreeSet<i32> = fields["LODs"]
            .split(',')
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(
            geosets.len().to_string(),
            fields["geosets"],
            "{}",
            file.path
        );
        assert_eq!(tangents.to_string(), fields["TANG"], "{}", file.path);
        assert_eq!(skins.to_string(), fields["SKIN"], "{}", file.path);
        assert_eq!(max_uv.to_string(), fields["maxUV"], "{}", file.path);
        assert_eq!(lods, expected_lods, "{}", file.path);
        checked += 1;
    }
    assert_eq!(checked, 12, "the manifest has 12 GEOS summaries");
}

#[test]
fn per_vertex_arrays_agree_within_every_geoset() {
    let Some(root) = corpus_root() else { return };
    let mut geosets_checked = 0;
    for file in manifest_files(&root, "MDX_MANIFEST.md", "mdx", ".mdx") {
        if file.cell("version") == "1300" {
            continue;
        }
        let model = read(&std::fs::read(root.join(&file.path)).unwrap());
        for (i, g) in model.geosets().iter().enumerate() {
            let n = g.vertex_count();
            let at = format!("{} geoset {i}", file.path);
            assert_eq!(g.vertex_normals.len(), n, "{at}: normals");
            // HD geosets skinned through SKIN may leave GNDX empty.
            if !(g.skin.is_some() && g.vertex_groups.is_empty()) {
                assert_eq!(g.vertex_groups.len(), n, "{at}: vertex groups");
            }
            for (s, set) in g.texture_coordinate_sets.iter().enumerate() {
                assert_eq!(set.texture_coordinates.len(), n, "{at}: UV set {s}");
            }
            if let Some(t) = &g.tangents {
                assert_eq!(t.len(), n, "{at}: tangents");
            }
            if let Some(s) = &g.skin {
                assert_eq!(s.len(), 8 * n, "{at}: skin bytes");
            }
            let indices: u32 = g.face_groups.iter().sum();
            assert_eq!(
                indices as usize,
                g.faces.len(),
                "{at}: PCNT sums to the PVTX count"
            );
            // (Face indices in range is a `validate` check, not a reading one:
            // the war3mdlx test model zf_all.mdx has one out of range.)
            let groups: u32 = g.matrix_groups.iter().sum();
            assert_eq!(
                groups as usize,
                g.matrix_indices.len(),
                "{at}: MTGC sums to the MATS count"
            );
            geosets_checked += 1;
        }
    }
    println!("{geosets_checked} geosets checked");
    assert_eq!(geosets_checked, 175, "geosets in the 56 Warcraft III files");
}
