//! `formats check` on the whole corpus and on bad input, and `formats
//! convert` down the Reforged versions (1100 -> 1000 -> 800) on real models.

mod common;

use std::path::Path;

use assert_cmd::Command;
use formats::mdx::Model;
use predicates::prelude::*;
use serde_json::Value;

fn formats() -> Command {
    Command::cargo_bin("formats").expect("the formats binary is built")
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("formats-check-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn check_reports_every_corpus_file_byte_exact() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = formats()
        .current_dir(&root)
        .args(["check", "--json", "."])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).expect("check --json is JSON");
    let files = report["files"].as_array().unwrap();
    let by_path = |p: &str| {
        files
            .iter()
            .find(|f| f["path"] == format!("./{p}"))
            .unwrap_or_else(|| panic!("{p} is not in the report"))
    };
    let mut supported = Vec::new();
    for (folder, ext) in [
        ("mdx", ".mdx"),
        ("adt", ".adt"),
        ("wdt", ".wdt"),
        ("maps/cataclysmctf", ".adt"),
        ("maps/cataclysmctf", ".wdt"),
    ] {
        supported.extend(common::files_in(&root, folder, ext));
    }
    // The textures: blp/ and the models' textures in textures/ (subfolders).
    let textures = common::blp_files(&root);
    assert_eq!(textures.len(), 40);
    supported.extend(textures.iter().cloned());
    let mdl = common::files_in(&root, "mdl", ".mdl");
    // Every file of the folders, and nothing else (the manifests are ignored).
    assert_eq!(files.len(), supported.len() + mdl.len());
    assert!(supported.len() >= 113, "{}", supported.len());
    for path in &supported {
        let file = by_path(path);
        assert!(
            file["parse"] == "strict" || file["parse"] == "lenient",
            "{path}: {file}"
        );
        assert_eq!(file["byte_exact"], true, "{path}: {file}");
    }
    for path in &textures {
        let file = by_path(path);
        assert_eq!(file["kind"], "BLP", "{path}");
        assert_eq!(file["parse"], "strict", "{path}");
        assert_eq!(file["decodes"], true, "{path}: every level decodes");
    }
    // The two models with a light track after their LITE chunk (MDX_VERSIONS.md
    // §8.3), and the five MDL files whose quirks need the lenient reader
    // (tests/mdl_corpus.rs names each one's diagnostic).
    let lenient: Vec<&str> = files
        .iter()
        .filter(|f| f["parse"] == "lenient")
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        lenient,
        [
            "./mdl/zf_bang-RibbonEmitter.mdl",
            "./mdl/zf_cube.mdl",
            "./mdl/zf_helper.mdl",
            "./mdl/zf_particle_emitter2.mdl",
            "./mdl/zf_ribbon_emitter.mdl",
            "./mdx/amisd_nwdg32.mdx",
            "./mdx/dbz_FountainOfSouls_rev-294411b2.mdx"
        ]
    );
    // MDL text from other tools is rewritten in the canonical layout, so the
    // round trip that must hold is text -> model -> text -> the same model.
    for path in &mdl {
        let file = by_path(path);
        assert!(
            file["parse"] == "strict" || file["parse"] == "lenient",
            "{path}: {file}"
        );
        assert_eq!(file["same_model"], true, "{path}: {file}");
    }
    assert_eq!(report["failed"], 0, "{report}");
    assert!(out.status.success());
    let mdl_row = report["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "MDL")
        .unwrap();
    assert_eq!(mdl_row["same_model"], mdl.len());
    assert_eq!(mdl_row["failed"], 0);
}

#[test]
fn check_prints_a_line_per_file_and_a_summary() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = formats()
        .current_dir(&root)
        .args([
            "check",
            "mdx/amisd_nwdg32.mdx",
            "mdx/zf_bone.mdx",
            "adt/wowserfmt_pvpzone3430.adt",
            "wdt",
            "mdl/zf_bone.mdl",
            "blp/dbz_GutsArm.blp",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    insta::assert_snapshot!(stdout);
}

#[test]
fn check_fails_on_a_damaged_file_with_offset_and_path() {
    let dir = tempdir("damaged");
    let mut data = formats::sample::sample_mdx();
    // The GEOS chunk's first geoset claims more bytes than the chunk holds.
    let at = 0x3e8 + 8;
    data[at..at + 4].copy_from_slice(&9999u32.to_le_bytes());
    std::fs::write(dir.join("damaged.mdx"), &data).unwrap();
    std::fs::write(dir.join("good.mdx"), formats::sample::sample_mdx()).unwrap();
    std::fs::write(dir.join("notes.md"), "ignored").unwrap();
    let out = formats()
        .current_dir(&dir)
        .args(["check", "."])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("./damaged.mdx: FAILED: chunks[5].GEOS.geosets[0]"),
        "{stdout}"
    );
    assert!(lines[0].contains(" at 0x"), "{stdout}");
    assert_eq!(lines[1], "./good.mdx: parsed, byte-exact");
    assert!(
        stdout.ends_with(&format!("1 failed:\n  {}\n", lines[0])),
        "{stdout}"
    );
    assert!(!stdout.contains("notes.md"));
    formats()
        .args(["check"])
        .arg(dir.join("missing"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("no such file or folder"));
    std::fs::remove_dir_all(&dir).unwrap();
}

fn convert(input: &Path, output: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    formats()
        .arg("convert")
        .arg(input)
        .arg(output)
        .args(args)
        .assert()
}

fn read(path: &Path) -> Model {
    Model::from_bytes(&std::fs::read(path).unwrap()).expect("the written model re-reads strictly")
}

#[test]
fn convert_down_from_reforged_1100_to_1000_to_800() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = tempdir("convert");
    for name in ["pqw3_BlueUnsummon", "pqw3_BossMinimapIcon"] {
        let input = root.join(format!("mdx/{name}.mdx"));
        let (v1000, v800) = (dir.join("v1000.mdx"), dir.join("v800.mdx"));
        convert(&input, &v1000, &["--version", "1000"]).success();
        convert(&v1000, &v800, &["--version", "800"]).success();
        let original = read(&input);
        assert_eq!(original.version(), 1100);
        let (m1000, m800) = (read(&v1000), read(&v800));
        assert_eq!((m1000.version(), m800.version()), (1000, 800));
        // Nothing was lost: the geometry and the animations are the same.
        assert_eq!(m800.geosets().len(), original.geosets().len());
        for (a, b) in m800.geosets().iter().zip(original.geosets()) {
            assert_eq!(a.vertex_positions, b.vertex_positions);
            assert_eq!(a.faces, b.faces);
        }
        assert_eq!(m800.sequences(), original.sequences());
        assert_eq!(m800.bones(), original.bones());
        // And back up: the same model as the original.
        let back = dir.join("back.mdx");
        convert(&v800, &back, &["--version", "1100"]).success();
        assert_eq!(read(&back), original, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_refuses_to_lose_data_and_drops_it_with_force() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = tempdir("force");
    let input = root.join("mdx/pqw3_HarvestGolem.mdx");
    let (v1000, v800) = (dir.join("v1000.mdx"), dir.join("v800.mdx"));
    let refused = convert(&input, &v1000, &["--version", "1000"]).failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        lines[0],
        "error: version 1100 -> 1000 would lose 28 things (nothing written; --force drops them):"
    );
    assert_eq!(lines.len(), 29);
    // 14 HD materials: each layer's shader type and its list of textures.
    assert_eq!(
        lines[1],
        "  chunks[3].materials[0].layers[0].shader_type_id: an HD layer (shaderTypeId 1) \
         (version 1000 cannot hold it)"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(".shader_type_id: "))
            .count(),
        14
    );
    assert_eq!(
        lines.iter().filter(|l| l.contains(".textures: ")).count(),
        14
    );
    assert!(!v1000.exists(), "nothing is written when refused");

    let forced = convert(&input, &v1000, &["--version", "1000", "--force"]).success();
    let stderr = String::from_utf8_lossy(&forced.get_output().stderr).into_owned();
    assert!(
        stderr.starts_with("version 1100 -> 1000: dropped 28 things (--force):\n"),
        "{stderr}"
    );
    let m1000 = read(&v1000);
    assert_eq!(m1000.version(), 1000);
    // Version 800 has no emissive gain: refused, then forced.
    convert(&v1000, &v800, &["--version", "800"])
        .failure()
        .stderr(predicate::str::contains("1000 -> 800 would lose 35 things"));
    convert(&v1000, &v800, &["--version", "800", "--force"]).success();
    let m800 = read(&v800);
    assert_eq!(m800.version(), 800);
    assert_eq!(m800.geosets(), {
        let mut m = m1000.clone();
        m.force_version(800);
        m.geosets().to_vec()
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_mdx_to_mdl_and_back_is_byte_exact() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = tempdir("mdl");
    for name in ["zf_all", "pqw3_HarvestGolem", "wowalpha_Boar"] {
        let input = root.join(format!("mdx/{name}.mdx"));
        let text = dir.join(format!("{name}.mdl"));
        let back = dir.join(format!("{name}.mdx"));
        convert(&input, &text, &[]).success();
        convert(&text, &back, &[]).success();
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&input).unwrap(),
            "{name}"
        );
    }
    // A corpus MDL to MDX: the same model as its MDX twin (zf_bone is a PAIR).
    let out = dir.join("zf_bone.mdx");
    convert(&root.join("mdl/zf_bone.mdl"), &out, &[]).success();
    let from_text = formats::mdx::Model::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let twin =
        formats::mdx::Model::from_bytes(&std::fs::read(root.join("mdx/zf_bone.mdx")).unwrap())
            .unwrap();
    assert_eq!(from_text.bones().len(), twin.bones().len());
    assert_eq!(from_text.bones()[0].node.name, twin.bones()[0].node.name);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convert_says_what_it_cannot_do() {
    let dir = tempdir("cannot");
    let input = dir.join("in.mdx");
    std::fs::write(&input, formats::sample::sample_mdx()).unwrap();
    convert(&input, &dir.join("out.mdx"), &["--version", "700"])
        .failure()
        .stderr(predicate::str::contains("version 700 is not one of"));
    convert(&input, &dir.join("out.adt"), &[])
        .failure()
        .stderr(predicate::str::contains(
            "models convert to .mdx or .mdl, not ADT",
        ));
    convert(&input, &dir.join("out.mdx"), &["--force"]).failure();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_reads_the_parts_of_a_split_tile() {
    let Some(data) = common::corpus_file("adt/wowserfmt_continent4229.adt") else {
        return;
    };
    let tile = formats::adt::Adt::from_bytes(&data).unwrap();
    let split = formats::adt::SplitAdt::from_monolithic(&tile);
    let dir = tempdir("split");
    for (suffix, bytes) in [
        ("", split.root.to_bytes().unwrap()),
        ("_tex0", split.tex0.to_bytes().unwrap()),
        ("_obj0", split.obj0.to_bytes().unwrap()),
        ("_lod", split.lod.to_bytes().unwrap()),
    ] {
        std::fs::write(dir.join(format!("map_42_29{suffix}.adt")), bytes).unwrap();
    }
    let out = formats()
        .current_dir(&dir)
        .args(["check", "--json", "."])
        .assert()
        .success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let kinds: Vec<(&str, &str, bool)> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let exact = f["byte_exact"] == true;
            (
                f["path"].as_str().unwrap(),
                f["kind"].as_str().unwrap(),
                exact,
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("./map_42_29.adt", "ADT", true),
            ("./map_42_29_lod.adt", "ADT part", true),
            ("./map_42_29_obj0.adt", "ADT part", true),
            ("./map_42_29_tex0.adt", "ADT part", true),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
