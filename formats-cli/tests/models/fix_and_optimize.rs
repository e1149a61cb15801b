//! `formats fix --extents` and `formats optimize`, driven as a user would:
//! one model to a file, several into a folder, in place, a dry run, JSON,
//! bad arguments; what they write reads back and validates.

use crate::common;

use common::{formats, formats_command, temp_dir};

use std::path::PathBuf;

use assert_cmd::Command;
use formats::mdx::Model;
use predicates::prelude::*;

/// The corpus files `names` copied into the folder `dir/in`.
fn copies(root: &std::path::Path, dir: &std::path::Path, names: &[&str]) -> PathBuf {
    let models = dir.join("in");
    std::fs::create_dir_all(&models).unwrap();
    for name in names {
        let file = root.join(name);
        std::fs::copy(&file, models.join(file.file_name().unwrap())).unwrap();
    }
    models
}

fn stdout(command: &mut Command) -> String {
    let out = command.assert().success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// `zf_cube.mdx` (its cube swings 200 units either way while its extents
/// say it rests) fixed into a file: the line says what changed, `validate`
/// then finds nothing, and fixing again finds the extents up to date.
#[test]
fn fix_extents_of_a_stale_model() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("fix");
    let fixed = dir.join("cube.mdx");
    formats!["validate", root.join("mdx/zf_cube.mdx")]
        .success()
        .stdout(predicate::str::contains(
            "  warning  stale-extent            chunks[2].SEQS.sequences[0].extent: the geometry reaches 180.112 beyond",
        ));
    let text = stdout(
        formats_command()
            .args(["fix", "--extents"])
            .arg(root.join("mdx/zf_cube.mdx"))
            .arg(&fixed),
    );
    assert!(
        text.contains(
            "zf_cube.mdx: 6 extents changed (MODL, 1 sequence, 1 geoset, 3 per-sequence (+0 -2)), corners moved up to 200, wrote "
        ),
        "{text}"
    );
    assert!(
        text.contains("\nmodels  fixed  up to date  no vertices  failed\n1           1"),
        "{text}"
    );
    // What is left is no Death sequence (a sanity warning), no stale
    // extent.
    let text = stdout(formats_command().arg("validate").arg(&fixed));
    assert!(
        text.contains(
            "cube.mdx: 0 errors, 1 warning, 0 infos\n  warning  missing-death-sequence  chunks[2].SEQS: no \"Death\" sequence\n"
        ),
        "{text}"
    );
    assert!(!text.contains("stale-extent"), "{text}");
    // In place: nothing left to change.
    let text = stdout(
        formats_command()
            .args(["fix", "--extents", "--in-place"])
            .arg(&fixed),
    );
    assert!(
        text.contains("cube.mdx: extents up to date, wrote "),
        "{text}"
    );
    let model = Model::from_bytes(&std::fs::read(&fixed).unwrap()).unwrap();
    assert_eq!(
        model.model_chunk().unwrap().extent.maximum,
        [220.0, 20.0, 40.0]
    );
}

/// A model named twice in place (a folder and a file in it, and a second
/// spelling of the file) is fixed once: two jobs would rewrite the file in
/// parallel, one reading it while the other writes it. A dry run lists it
/// once too.
#[test]
fn fix_in_place_names_each_model_once() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("fix-twice");
    let models = copies(&root, &dir, &["mdx/zf_cube.mdx", "mdx/zf_bone.mdx"]);
    let cube = models.join("zf_cube.mdx");
    let again = models.join(".").join("zf_cube.mdx");
    for mode in ["--in-place", "--dry-run"] {
        let text = stdout(
            formats_command()
                .args(["fix", "--extents", mode, "--json"])
                .arg(&models)
                .arg(&cube)
                .arg(&again),
        );
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let inputs: Vec<&str> = json["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["input"].as_str().unwrap())
            .collect();
        assert_eq!(inputs.len(), 2, "{mode}: {inputs:?}");
        assert!(inputs[0].ends_with("zf_bone.mdx"), "{mode}: {inputs:?}");
        assert!(inputs[1].ends_with("zf_cube.mdx"), "{mode}: {inputs:?}");
    }
    let fixed = Model::from_bytes(&std::fs::read(&cube).unwrap()).unwrap();
    assert_eq!(
        fixed.model_chunk().unwrap().extent.maximum,
        [220.0, 20.0, 40.0]
    );
}

/// A dry run over models of every kind, as JSON: each change with its path,
/// before and after; nothing written; a model without vertices left alone;
/// MDL read and compared like MDX; a geoset's extent that was stored empty
/// (Blizzard's 3.4e38 corners) is not counted as a corner moving that far.
#[test]
fn fix_dry_run_as_json() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let text = stdout(
        formats_command()
            .args(["fix", "--extents", "--dry-run", "--json"])
            .arg(root.join("mdx/zf_cube.mdx"))
            .arg(root.join("mdl/zf_cube.mdl"))
            .arg(root.join("mdx/rms_DustEmitter.mdx"))
            .arg(root.join("mdx/risk_HumanDestroyerShip.mdx")),
    );
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["failed"], 0);
    let files = json["files"].as_array().unwrap();
    assert_eq!(files.len(), 4);
    for cube in &files[..2] {
        assert_eq!(cube["output"], serde_json::Value::Null);
        let changes = cube["changes"].as_array().unwrap();
        assert_eq!(changes.len(), 6);
        assert_eq!(changes[0]["path"], "chunks[1].MODL.extent");
        assert_eq!(changes[0]["before"]["maximum"][0], 20.0);
        assert_eq!(changes[0]["after"]["maximum"][0], 220.0);
        assert_eq!(changes[5]["after"], serde_json::Value::Null);
    }
    assert_eq!(files[2]["measured"], false);
    assert!(files[2]["changes"].as_array().unwrap().is_empty());
    let largest = files[3]["largest_move"].as_f64().unwrap();
    assert!(largest > 1.0 && largest < 1000.0, "{largest}");
}

/// Several models and a folder into a folder, in parallel: each written
/// in its own form (MDX or MDL) under its own name; bad arguments refused.
#[test]
fn fix_many_into_a_folder_and_bad_arguments() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("fix-many");
    let models = copies(
        &root,
        &dir,
        &[
            "mdx/mv_SmileyGW_004.mdx",
            "mdx/pqw3_candle.mdx",
            "mdl/zf_geoset.mdl",
        ],
    );
    std::fs::write(models.join("notes.txt"), "not a model").unwrap();
    let out = dir.join("out");
    let text = stdout(
        formats_command()
            .args(["fix", "--extents"])
            .arg(&models)
            .arg(root.join("mdx/wowalpha_Boar.mdx"))
            .arg(&out),
    );
    assert!(
        text.contains("\nmodels  fixed  up to date  no vertices  failed\n4           4"),
        "{text}"
    );
    for name in [
        "mv_SmileyGW_004.mdx",
        "pqw3_candle.mdx",
        "zf_geoset.mdl",
        "wowalpha_Boar.mdx",
    ] {
        // (Other rules have findings: validate may fail on them.)
        let written = formats_command()
            .arg("validate")
            .arg(out.join(name))
            .output()
            .unwrap();
        let text = String::from_utf8(written.stdout).unwrap();
        assert!(
            text.contains("\n1 file: ") && !text.contains("stale-extent"),
            "{name}: {text}"
        );
    }
    // No OUT, and no --in-place or --dry-run.
    formats!["fix", "--extents", root.join("mdx/zf_cube.mdx")]
        .failure()
        .stderr(predicate::str::contains(
            "fix takes IN... OUT, or --in-place, or --dry-run",
        ));
    // Two models into one file.
    formats![
        "fix",
        "--extents",
        root.join("mdx/zf_cube.mdx"),
        root.join("mdx/zf_geoset.mdx"),
        dir.join("one.mdx")
    ]
    .failure()
    .stderr(predicate::str::contains("2 inputs go into a folder"));
    // --extents is what there is to fix.
    formats!["fix", "--dry-run", root.join("mdx/zf_cube.mdx")].failure();
}

/// One model optimized into a file: the table's sizes are the files', the
/// model reads back with fewer keys; `--json` gives the same numbers.
#[test]
fn optimize_one_model() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("optimize");
    let out = dir.join("horse.mdx");
    let input = root.join("mdx/rms_PackHorse.mdx");
    let text = stdout(formats_command().arg("optimize").arg(&input).arg(&out));
    let size = |p: &PathBuf| std::fs::metadata(p).unwrap().len();
    let (before, after) = (size(&input), size(&out));
    assert!(after < before);
    assert!(text.starts_with("model "), "{text}");
    assert!(
        text.contains(&format!(
            "rms_PackHorse.mdx  {before}  {after}   4.6%  2502   2354"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "saved {} bytes; every track within 0.001",
            before - after
        )),
        "{text}"
    );
    Model::from_bytes(&std::fs::read(&out).unwrap()).unwrap();

    let text = stdout(
        formats_command()
            .args(["optimize", "--json", "--tolerance", "0.01"])
            .arg(&input)
            .arg(&out),
    );
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["tolerance"], 0.01f32 as f64);
    let file = &json["files"][0];
    assert_eq!(file["bytes_before"], before);
    assert_eq!(file["bytes_after"], size(&out));
    assert_eq!(json["total"]["saved"], before - size(&out));
    assert!(file["keys_after"].as_u64().unwrap() < 2354);
}

/// A folder of models into a folder: one row per model and a total; the
/// unused global sequences of `zf_globalseq` go; a bad tolerance is refused.
#[test]
fn optimize_a_folder() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("optimize-many");
    let models = copies(
        &root,
        &dir,
        &[
            "mdx/zf_globalseq.mdx",
            "mdl/zf_all.mdl",
            "mdx/wowalpha_Boar.mdx",
        ],
    );
    let out = dir.join("out");
    let text = stdout(formats_command().arg("optimize").arg(&models).arg(&out));
    let row = |name: &str| -> Vec<String> {
        let line = text.lines().find(|l| l.contains(name)).unwrap();
        line.split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        row("zf_globalseq.mdx"),
        ["464", "420", "9.5%", "0", "0", "0", "9"]
    );
    assert_eq!(row("zf_all.mdl")[3..], ["85", "68", "8", "3"]);
    assert!(text.contains("total (3 models)"), "{text}");
    let model = Model::from_bytes(&std::fs::read(out.join("zf_globalseq.mdx")).unwrap()).unwrap();
    assert!(model.global_sequences().is_empty());
    formats::mdl::from_str(&std::fs::read_to_string(out.join("zf_all.mdl")).unwrap()).unwrap();
    // Written either way, a negative tolerance gets the tool's own message
    // (not clap's advice to pass `-- -1`, which would make it a path).
    for args in [&["--tolerance=-1"][..], &["--tolerance", "-1"]] {
        formats_command()
            .arg("optimize")
            .args(args)
            .arg(&models)
            .arg(&out)
            .assert()
            .failure()
            .stderr(predicate::str::contains(
                "--tolerance -1: a tolerance is a number 0 or above",
            ));
    }
    // Over the inputs only with `fix --in-place`: a file or a folder given
    // as its own output is refused, and left as it was.
    let before = std::fs::read(models.join("zf_globalseq.mdx")).unwrap();
    let file = models.join("zf_globalseq.mdx");
    for (command, input, output) in [
        (&["optimize"][..], &file, &file),
        (&["optimize"], &models, &models),
        (&["fix", "--extents"], &file, &file),
    ] {
        formats_command()
            .args(command)
            .arg(input)
            .arg(output)
            .assert()
            .failure()
            .stderr(predicate::str::contains("would be written over itself"));
    }
    assert_eq!(std::fs::read(&file).unwrap(), before);
    for command in ["fix", "optimize"] {
        formats![command, "--help"]
            .success()
            .stdout(predicate::str::contains("Example"));
    }
}

/// Rewriting MDL text (in place, or to another `.mdl`) keeps no comments:
/// `convert`, `fix` and `optimize` say how many they drop; a file this tool wrote (its
/// own header comment only) gets no such warning.
#[test]
fn rewriting_mdl_says_its_comments_go() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("mdl-comments");
    let models = copies(&root, &dir, &["mdl/zf_all-latest.mdl"]);
    let file = models.join("zf_all-latest.mdl");
    // Its comments: lines of their own, and after a value (`NonLooping, //
    // line comment`, `Sequences 2 {/* block comment */`), which the
    // warning once left uncounted. None of its strings holds `//` or `/*`.
    let text = std::fs::read_to_string(&file).unwrap();
    let (own, after): (Vec<&str>, Vec<&str>) =
        text.lines().partition(|l| l.trim_start().starts_with("//"));
    let after = after
        .iter()
        .map(|l| l.matches("//").count() + l.matches("/*").count())
        .sum::<usize>();
    assert!(after >= 2, "{after}");
    let comments = own.len() + after;
    let warning = format!(
        "zf_all-latest.mdl: {comments} comments of the MDL are not kept: MDL is written in the canonical layout"
    );
    // `convert` from MDL to MDL drops them too, and says so (it said
    // nothing); to MDX, nothing is said.
    formats!["convert", &file, dir.join("converted.mdl")]
        .success()
        .stderr(predicate::str::contains(&warning));
    formats!["convert", &file, dir.join("converted.mdx")]
        .success()
        .stderr(predicate::str::contains("not kept: MDL is written").not());
    formats!["fix", "--extents", "--in-place", &file]
        .success()
        .stderr(predicate::str::contains(&warning));
    // Now written by this tool: nothing more to drop.
    formats!["optimize", &file, dir.join("out.mdl")]
        .success()
        .stderr(predicate::str::contains("not kept: MDL is written").not());
}
