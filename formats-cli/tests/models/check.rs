//! `formats check` on the whole corpus and on bad input (`formats convert`:
//! tests/cli_convert.rs).

use crate::common;

use common::{formats, formats_command, temp_dir};

use predicates::prelude::*;
use serde_json::Value;

#[test]
fn check_reports_every_corpus_file_byte_exact() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = formats_command()
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
    // (tests/mdl/corpus.rs names each one's diagnostic).
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
    let out = formats_command()
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
    let dir = temp_dir("damaged");
    let mut data = formats::sample::sample_mdx();
    // The GEOS chunk's first geoset claims more bytes than the chunk holds
    // (the lenient reader keeps that chunk as bytes: `undecodable_geos.mdx`
    // reads leniently), and the file ends 2 bytes into the last chunk's
    // tag, where no reader can go on.
    let at = 0x3e8 + 8;
    data[at..at + 4].copy_from_slice(&9999u32.to_le_bytes());
    std::fs::write(dir.join("undecodable_geos.mdx"), &data).unwrap();
    data.truncate(data.len() - 18);
    std::fs::write(dir.join("damaged.mdx"), &data).unwrap();
    std::fs::write(dir.join("good.mdx"), formats::sample::sample_mdx()).unwrap();
    std::fs::write(dir.join("notes.md"), "ignored").unwrap();
    let out = formats_command()
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
        lines[2].starts_with(
            "./undecodable_geos.mdx: parsed leniently (1 diagnostic; strictly: \
             chunks[5].GEOS.geosets[0]"
        ),
        "{stdout}"
    );
    assert!(lines[2].ends_with(", byte-exact"), "{stdout}");
    assert!(
        stdout.ends_with(&format!("1 failed:\n  {}\n", lines[0])),
        "{stdout}"
    );
    assert!(!stdout.contains("notes.md"));
    // A file only the lenient reader takes (here a tile's MVER, then bytes
    // that are no chunk) says why the strict reader refused it; `--strict`
    // fails it.
    let mut noise = b"REVM\x04\0\0\0\x12\0\0\0".to_vec();
    noise.extend([0x5a; 52]);
    std::fs::write(dir.join("noise.adt"), noise).unwrap();
    let lenient = formats_command()
        .current_dir(&dir)
        .args(["check", "noise.adt"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&lenient.get_output().stdout).into_owned();
    assert!(
        stdout.starts_with("noise.adt: parsed leniently (1 diagnostic; strictly: chunks[1]."),
        "{stdout}"
    );
    assert!(stdout.contains(" at 0x10 exceeds the "), "{stdout}");
    assert!(
        stdout.contains("--strict counts these as failures"),
        "{stdout}"
    );
    formats_command()
        .current_dir(&dir)
        .args(["check", "--strict", "--json", "noise.adt"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("\"strict_error\": \"chunks[1]."))
        .stdout(predicate::str::contains("\"failed\": 1"));
    formats!["check", dir.join("missing")]
        .failure()
        .stderr(predicate::str::contains("no such file or folder"));
}

#[test]
fn check_reads_the_parts_of_a_split_tile() {
    let Some(data) = common::corpus_file("adt/wowserfmt_continent4229.adt") else {
        return;
    };
    let tile = formats::adt::Adt::from_bytes(&data).unwrap();
    let split = formats::adt::SplitAdt::from_monolithic(&tile);
    let dir = temp_dir("split");
    for (suffix, bytes) in [
        ("", split.root.to_bytes().unwrap()),
        ("_tex0", split.tex0.to_bytes().unwrap()),
        ("_obj0", split.obj0.to_bytes().unwrap()),
        ("_lod", split.lod.to_bytes().unwrap()),
    ] {
        std::fs::write(dir.join(format!("map_42_29{suffix}.adt")), bytes).unwrap();
    }
    let out = formats_command()
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
}

/// Textures that read and write back byte-exact but have a level whose bytes
/// do not decode: a DXT1 level 0 cut to half its blocks (the header and mip
/// table written consistently with the shorter level) and a JPEG level 2 of
/// bytes that are no JPEG data. `check` fails the first (exit code 1): its
/// level 0, what viewers and the game show, does not decode. The second's
/// level 0 does: a warning, named on its line and under the table, which
/// `--strict` makes a failure. Lines, summary and `--json` say so; the good
/// texture beside them passes.
#[test]
fn check_fails_on_a_texture_whose_level_0_does_not_decode_and_warns_of_smaller_levels() {
    let dir = temp_dir("undecodable-blp");
    let pixels: Vec<u8> = (0..64 * 64u32)
        .flat_map(|i| [(i % 64) as u8 * 4, (i / 64) as u8 * 4, 128, 255])
        .collect();
    let image = formats::blp::RgbaImage::new(64, 64, pixels).unwrap();
    let encode = |target| formats::blp::Blp::encode(&image, target).unwrap();
    let mut short = encode(formats::blp::Target::Dxt1);
    let full = short.levels[0].len();
    short.levels[0].truncate(full / 2);
    let mut garbled = encode(formats::blp::Target::Blp1Jpeg);
    let level_2 = garbled.levels[2].len();
    garbled.levels[2] = vec![0x55; level_2];
    let good = encode(formats::blp::Target::Dxt5);
    for (name, blp) in [
        ("dxt_short.blp", &short),
        ("good.blp", &good),
        ("jpeg_garbled.blp", &garbled),
    ] {
        let bytes = blp.to_bytes().unwrap();
        // What `check` reads is what was written: the failure is in the pixels.
        let back = formats::blp::Blp::from_bytes(&bytes).unwrap();
        assert_eq!(back.to_bytes().unwrap(), bytes, "{name}");
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let short_at = short.mip_table().unwrap().offsets[0];
    let garbled_at = garbled.mip_table().unwrap().offsets[2];

    let out = formats_command()
        .current_dir(&dir)
        .args(["check", "."])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0]
            .starts_with("./dxt_short.blp: parsed, byte-exact, level 0 does NOT decode: levels[0]"),
        "{stdout}"
    );
    assert!(
        lines[0].contains(&format!(
            "at {short_at:#x}: level 0: 64x64 DXT1: {full} bytes needed"
        )),
        "{stdout}"
    );
    assert_eq!(
        lines[1],
        "./good.blp: parsed, byte-exact, every level decodes"
    );
    assert!(
        lines[2].starts_with(
            "./jpeg_garbled.blp: parsed, byte-exact, level 0 decodes, level 2 does NOT decode \
             (a warning: viewers and the game show level 0): levels[2]"
        ),
        "{stdout}"
    );
    assert!(
        lines[2].contains(&format!(
            "at {garbled_at:#x}: level 2: 16x16 JPEG: JPEG byte"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "\nwarning: 1 texture has a mip level past level 0 that does not decode (its line \
             says which)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.ends_with(&format!("1 failed:\n  {}\n", lines[0])),
        "{stdout}"
    );
    // --strict: any level that does not decode fails the file.
    let out = formats_command()
        .current_dir(&dir)
        .args(["check", "--strict", "."])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.ends_with(&format!("2 failed:\n  {}\n  {}\n", lines[0], lines[2])),
        "{stdout}"
    );
    assert!(!stdout.contains("\nwarning:"), "{stdout}");

    let out = formats_command()
        .current_dir(&dir)
        .args(["check", "--json", "."])
        .assert()
        .code(1);
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    for (file, decodes, level) in [
        (&files[0], false, Some(0)),
        (&files[1], true, None),
        (&files[2], false, Some(2)),
    ] {
        assert_eq!(file["kind"], "BLP", "{file}");
        assert_eq!(file["parse"], "strict", "{file}");
        assert_eq!(file["byte_exact"], true, "{file}");
        assert_eq!(file["decodes"], decodes, "{file}");
        let levels = file["undecodable_levels"].as_array().unwrap();
        match level {
            Some(level) => {
                let prefix = format!("level {level}: ");
                assert!(
                    file["message"].as_str().unwrap().contains(&prefix),
                    "{file}"
                );
                assert_eq!(levels.len(), 1, "{file}");
                assert_eq!(levels[0]["level"], level, "{file}");
                assert!(
                    levels[0]["error"].as_str().unwrap().contains(&prefix),
                    "{file}"
                );
            }
            None => {
                assert!(file["message"].is_null(), "{file}");
                assert!(levels.is_empty(), "{file}");
            }
        }
    }
    assert_eq!(report["failed"], 1, "{report}");
    assert_eq!(report["level_warnings"], 1, "{report}");
    // The summary row counts every failure, as the list does, not only parses.
    let rows = report["summary"].as_array().unwrap();
    let blp = rows.iter().find(|r| r["kind"] == "BLP").unwrap();
    assert_eq!(
        (blp["files"].as_u64(), blp["failed"].as_u64()),
        (Some(3), Some(1)),
        "{blp}"
    );
    // The size and encoding are said once, by the level's prefix.
    let short_message = files[0]["message"].as_str().unwrap();
    assert_eq!(short_message.matches("64x64").count(), 1, "{short_message}");
}

/// The wild textures of `WILD_MANIFEST.md`: `dbz_Mummy2.blp` (mip levels
/// past its end) reads leniently, byte-exact, every level it holds
/// decoding; `dbz_Android15.blp` (a ninth level whose JPEG frame header is
/// cut short) reads strictly, its level 8 a warning. Neither fails `check`;
/// `--strict` fails both (one only the lenient reader takes, one with a
/// level that does not decode).
#[test]
fn check_reads_the_wild_textures_and_warns_of_what_they_lack() {
    let (Some(mummy), Some(android)) = (
        common::wild_path("dbz_Mummy2.blp"),
        common::wild_path("dbz_Android15.blp"),
    ) else {
        return;
    };
    let out = formats!["check", "--json", &mummy, &android].success();
    let report: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let files = report["files"].as_array().unwrap();
    let mummy = &files[0];
    assert_eq!(mummy["parse"], "lenient", "{mummy}");
    assert!(
        mummy["strict_error"]
            .as_str()
            .unwrap()
            .starts_with("levels[8]: invalid value at 0x3c: 327 bytes at 0xb60d"),
        "{mummy}"
    );
    assert_eq!(mummy["diagnostics"], 1, "{mummy}");
    assert_eq!(mummy["byte_exact"], true, "{mummy}");
    assert_eq!(mummy["decodes"], true, "{mummy}");
    let android = &files[1];
    assert_eq!(android["parse"], "strict", "{android}");
    assert_eq!(android["byte_exact"], true, "{android}");
    assert_eq!(android["decodes"], false, "{android}");
    let levels = android["undecodable_levels"].as_array().unwrap();
    assert_eq!(levels.len(), 1, "{android}");
    assert_eq!(levels[0]["level"], 8, "{android}");
    assert!(
        levels[0]["error"]
            .as_str()
            .unwrap()
            .ends_with("the frame header is cut short"),
        "{android}"
    );
    assert_eq!(
        (report["failed"].as_u64(), report["level_warnings"].as_u64()),
        (Some(0), Some(1))
    );
    let out = formats![
        "check",
        "--strict",
        common::wild_path("dbz_Mummy2.blp").unwrap(),
        common::wild_path("dbz_Android15.blp").unwrap()
    ]
    .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("2 failed:"), "{stdout}");
}

#[test]
fn check_says_an_mdl_file_failed_as_a_model_not_as_bytes() {
    // A hand edit to `FormatVersion 1300` (a WoW alpha model, which has no
    // MDL blocks): the text reads, but its model cannot be written as MDX,
    // so it does not come back. Before, the line said "NOT byte-exact
    // (first difference at 0x...)", which MDL text never is nor needs to be.
    let dir = temp_dir("mdl_not_same");
    let text = "Version {\n\tFormatVersion 1300,\n}\nModel \"m\" {\n\tBlendTime 150,\n}\n";
    std::fs::write(dir.join("alpha.mdl"), text).unwrap();
    let out = formats_command()
        .current_dir(&dir)
        .args(["check", "alpha.mdl"])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let first = stdout.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("alpha.mdl: parsed, NOT the same model back: writing as MDX: chunks[1]"),
        "{stdout}"
    );
    assert!(!stdout.contains("byte-exact ("), "{stdout}");
}

/// A folder of symbolic links (to a model, to a folder of models, and one
/// back to itself) is walked as the folders it points to: every batch
/// command finds the models once each, and names the loop it did not follow.
#[cfg(unix)]
#[test]
fn batch_commands_follow_symbolic_links_and_skip_loops() {
    let dir = temp_dir("links");
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::write(models.join("cube.mdx"), formats::sample::sample_mdx()).unwrap();
    let links = dir.join("links");
    std::fs::create_dir_all(&links).unwrap();
    std::os::unix::fs::symlink(models.join("cube.mdx"), links.join("linked.mdx")).unwrap();
    std::os::unix::fs::symlink(&models, links.join("more")).unwrap();
    std::os::unix::fs::symlink(&links, links.join("again")).unwrap();
    for command in ["check", "validate"] {
        let out = formats![command, &links].success();
        let output = out.get_output();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        // One model, reached by two links: one line, as given twice.
        assert_eq!(
            stdout.matches("cube.mdx").count() + stdout.matches("linked.mdx").count(),
            1,
            "{command}: {stdout}"
        );
        assert!(
            stderr.contains("(a loop): not followed"),
            "{command}: {stderr}"
        );
    }
}
