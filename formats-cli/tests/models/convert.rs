//! `formats convert` on real models: Reforged to classic without `--force`
//! and with a report, classic to Reforged and back byte-exact, several files
//! and folders at once (table, `--json`), `--exact`, MDX <-> MDL, a damaged
//! model (its cut last chunk kept and reported), and what it refuses. The
//! library's side is tests/convert/versions.rs.

use crate::common;

use common::{formats, formats_command, read_model as read, stderr, stdout, temp_dir};

use std::path::Path;

use formats::convert::{Options, Report};
use formats::mdx::{Material, Model};
use predicates::prelude::*;
use serde_json::Value;

fn convert(input: &Path, output: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    formats_command()
        .arg("convert")
        .arg(input)
        .arg(output)
        .args(args)
        .assert()
}

/// The library's conversion of `path` (read leniently, as the tool does
/// when it must).
fn library(path: &Path, target: u32, options: &Options) -> (Model, Report) {
    let bytes = std::fs::read(path).unwrap();
    let mut model = Model::from_bytes_lenient(&bytes).unwrap().0;
    let report = formats::convert::convert(&mut model, target, options).unwrap();
    (model, report)
}

fn step(ms: u32) -> Options {
    Options {
        error_step: ms,
        ..Options::default()
    }
}

#[test]
fn a_reforged_model_converts_to_classic_and_says_what_changed() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("classic");
    let input = root.join("mdx/pqw3_girl2_portrait.mdx");
    let output = dir.join("girl.mdx");
    // No --force: converting is not losing the skinning.
    let done = convert(&input, &output, &["--version", "800"]).success();
    let text = stderr(&done);
    // The library's conversion, measured at every frame (the default).
    let (expected, report) = library(&input, 800, &Options::default());
    assert_eq!(
        std::fs::read(&output).unwrap(),
        expected.to_bytes().unwrap()
    );
    let bytes = std::fs::metadata(&output).unwrap().len();
    assert_eq!(
        text,
        format!(
            "{report}wrote {} (MDX, version 800, {bytes} bytes)\n",
            output.display()
        )
    );
    assert!(
        text.starts_with("version 1000 -> 800\napproximated (5):\n"),
        "{text}"
    );
    for line in [
        "  geosets[0].skin: 817 of 1808 vertices weigh their bones unequally: as 122 matrix \
         groups of equal weights\n",
        "  textures[10]: `Textures/Portrait_BG_Diffuse.tif` named `Textures/Portrait_BG_Diffuse.dds`: \
         version 800 loads .blp, .tga and .dds (Reforged keeps its .tif textures as .dds)\n",
        "dropped (32):\n",
        "  materials[0].layers[1]: the normal slot \
         (`Units/Critters/VillagerKid1/Neutral_Child2_Main_normal.tif`)\n",
        "  geosets[0].tangents: 1808 tangents (TANG)\n",
        "  textures[1]: `Units/Critters/VillagerKid1/Neutral_Child2_Main_normal.tif`, no longer \
         used\n",
        "skinning: 1595 vertices skinned differently; largest position error ",
        "(every frame of every sequence)\n",
    ] {
        assert!(text.contains(line), "{line:?} not in:\n{text}");
    }
    // Classic: matrix groups instead of SKIN, one layer per material, and
    // nothing the source did not already break.
    let classic = read(&output);
    assert_eq!(classic.version(), 800);
    for geoset in classic.geosets() {
        assert!(geoset.skin.is_none() && geoset.tangents.is_none());
        assert_eq!(geoset.vertex_groups.len(), geoset.vertex_count());
    }
    assert!(classic.materials().iter().all(|m| m.layers.len() == 1));
    // `formats validate` finds nothing in it, of any severity, that it does
    // not find in the source.
    let (before, after) = (validated(&input), validated(&output));
    let rules = |f: &[(String, String)]| {
        f.iter()
            .map(|(rule, _)| rule.clone())
            .collect::<std::collections::BTreeSet<_>>()
    };
    assert!(
        rules(&after).is_subset(&rules(&before)),
        "{:?} not in {:?}",
        rules(&after),
        rules(&before)
    );
}

/// What `formats validate --json PATH` finds in a file: each finding's rule
/// id and path.
fn validated(path: &Path) -> Vec<(String, String)> {
    let out = formats_command()
        .args(["validate", "--json"])
        .arg(path)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).expect("validate --json is JSON");
    let file = &report["files"][0];
    assert!(file["error"].is_null(), "{}: {file}", path.display());
    file["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let text = |key: &str| f[key].as_str().unwrap().to_string();
            (text("rule"), text("path"))
        })
        .collect()
}

#[test]
fn a_converted_model_passes_validate_as_a_user_runs_it() {
    // HarvestGolem: a geoset of 10824 vertices cut in two for the classic
    // renderer, and every extent a copy of one stale box. The parts get
    // per-sequence extents of their own, said under "recomputed" (their
    // extent, the whole's, holds each: its sphere does); the source's stale
    // extents stay stale, and `formats validate` finds nothing new.
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("validated");
    let input = root.join("mdx/pqw3_HarvestGolem.mdx");
    let output = dir.join("golem.mdx");
    let done = convert(&input, &output, &["--version", "800", "--error-step", "0"]).success();
    let text = stderr(&done);
    assert!(text.contains("\nrecomputed (2):\n"), "{text}");
    for part in ["geosets[3]", "geosets[4]"] {
        let line = format!(
            "  chunks[5].GEOS.{part}.sequence_extents: measured again (a part of a cut geoset): "
        );
        assert!(text.contains(&line), "{line:?} not in:\n{text}");
    }
    let (before, after) = (validated(&input), validated(&output));
    for (rule, path) in &after {
        assert!(
            before.iter().any(|(r, _)| r == rule),
            "new finding {rule} at {path}"
        );
        if rule == "stale-extent" {
            assert!(
                !path.contains("geosets[3]") && !path.contains("geosets[4]"),
                "{path}"
            );
        }
    }
    let stale = |f: &[(String, String)]| f.iter().filter(|(r, _)| r == "stale-extent").count();
    assert!(stale(&after) <= stale(&before));
}

#[test]
fn a_classic_model_goes_to_reforged_and_back_byte_exact() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("reforged");
    for name in ["rms_PackHorse", "mv_SmileyGW_004"] {
        let input = root.join(format!("mdx/{name}.mdx"));
        let (reforged, back) = (dir.join("reforged.mdx"), dir.join("back.mdx"));
        let up = convert(
            &input,
            &reforged,
            &["--version", "1000", "--error-step", "50"],
        )
        .success();
        let text = stderr(&up);
        assert!(text.starts_with("version 800 -> 1000\n"), "{text}");
        assert!(text.contains("added ("), "{text}");
        assert!(text.contains(".skin: SKIN weights of "), "{text}");
        assert!(text.contains(" MikkTSpace tangents\n"), "{text}");
        assert!(
            text.contains("placeholder `Textures\\normal.dds`"),
            "{text}"
        );
        assert!(!text.contains("dropped ("), "{text}");
        let model = read(&reforged);
        assert_eq!(model.version(), 1000);
        for geoset in model.geosets() {
            let skin = geoset.skin.as_ref().unwrap();
            assert_eq!(skin.len(), 8 * geoset.vertex_count());
            for vertex in skin.chunks(8) {
                let total: u32 = vertex[4..].iter().map(|&w| u32::from(w)).sum();
                assert_eq!(total, 255, "{name}: {vertex:?}");
            }
            assert_eq!(
                geoset.tangents.as_ref().unwrap().len(),
                geoset.vertex_count()
            );
        }
        assert!(model.materials().iter().any(Material::has_hd_shader));
        convert(&reforged, &back, &["--version", "800", "--error-step", "0"]).success();
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&input).unwrap(),
            "{name}: 800 -> 1000 -> 800"
        );
    }
}

#[test]
fn several_models_and_folders_convert_in_parallel_with_a_table_or_json() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("batch");
    // A folder (with a subfolder and a file that is no model) and a file.
    let folder = dir.join("in");
    std::fs::create_dir_all(folder.join("sub")).unwrap();
    for (from, to) in [
        ("mdx/pqw3_candle.mdx", "in/candle.mdx"),
        ("mdx/tm_blob.mdx", "in/sub/blob.mdx"),
    ] {
        std::fs::copy(root.join(from), dir.join(to)).unwrap();
    }
    std::fs::write(folder.join("notes.txt"), "not a model").unwrap();
    let golem = root.join("mdx/pqw3_HarvestGolem.mdx");
    let args = ["--version", "800", "--error-step", "25"];
    let out = dir.join("out");
    let done = formats_command()
        .arg("convert")
        .args([&folder, &golem, &out])
        .args(args)
        .assert()
        .success();
    let table = stdout(&done);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        [
            "model",
            "version",
            "approximated",
            "dropped",
            "added",
            "recomputed",
            "moved",
            "left",
            "out",
            "skin",
            "error",
            "result"
        ]
    );
    assert_eq!(lines.len(), 1 + 3 + 2, "{table}");
    assert!(lines[1].contains("in/candle.mdx") && lines[1].contains("1000 -> 800"));
    assert!(lines[2].contains("in/sub/blob.mdx"), "{table}");
    assert!(lines[3].contains("pqw3_HarvestGolem.mdx") && lines[3].contains("1100 -> 800"));
    // HarvestGolem's cut geoset: its parts' 2 per-sequence lists measured
    // again (the others none).
    // (the sixth cell from the end: after it come moved, left out, skin
    // error and "N bytes")
    let recomputed = |line: &str| line.split_whitespace().rev().nth(5).map(str::to_string);
    assert_eq!(recomputed(lines[3]).as_deref(), Some("2"), "{table}");
    assert_eq!(recomputed(lines[1]).as_deref(), Some("0"), "{table}");
    assert_eq!(lines[5], "3 models written, no failures");
    let (blob, report) = library(&root.join("mdx/tm_blob.mdx"), 800, &step(25));
    let distance = report.skin_error.as_ref().unwrap().distance;
    assert!(lines[2].contains(&format!("{distance:.4}")), "{table}");
    assert_eq!(read(&out.join("blob.mdx")), blob);
    for name in ["candle", "pqw3_HarvestGolem"] {
        assert_eq!(read(&out.join(format!("{name}.mdx"))).version(), 800);
    }

    // --json: per model the versions, the lists and the error bound.
    let json_out = dir.join("json");
    let done = formats_command()
        .arg("convert")
        .args([&folder, &golem, &json_out])
        .args(args)
        .args(["--json", "--to", "mdl"])
        .assert()
        .success();
    let doc: Value = serde_json::from_str(&stdout(&done)).expect("convert --json is JSON");
    assert_eq!(doc["failed"], 0);
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 3);
    for (file, source) in files.iter().zip([
        root.join("mdx/pqw3_candle.mdx"),
        root.join("mdx/tm_blob.mdx"),
        golem.clone(),
    ]) {
        let (model, report) = library(&source, 800, &step(25));
        // Through JSON text as the tool writes it (an f32 becomes the
        // shortest decimal that reads back as it).
        let expected: Value =
            serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!(file["report"], expected);
        assert_eq!(file["to"], 800);
        assert!(file["error"].is_null());
        let written = Path::new(file["output"].as_str().unwrap());
        assert_eq!(written.extension().unwrap(), "mdl");
        let text = std::fs::read_to_string(written).unwrap();
        let from_text = formats::mdl::from_str(&text).unwrap();
        assert_eq!(from_text.to_bytes().unwrap(), model.to_bytes().unwrap());
    }
    let golem_report = &files[2]["report"];
    assert!(golem_report["skin_error"]["distance"].as_f64().unwrap() > 0.0);
    assert_eq!(golem_report["skin_error"]["step"], 25);
    assert!(
        golem_report["dropped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["what"].as_str().unwrap().starts_with("the normal slot"))
    );
}

#[test]
fn a_model_that_fails_fails_alone() {
    let dir = temp_dir("fails");
    let folder = dir.join("in");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("good.mdx"), formats::sample::sample_mdx()).unwrap();
    std::fs::write(folder.join("damaged.mdx"), b"not a model at all").unwrap();
    let out = dir.join("out");
    let done = formats!["convert", &folder, &out, "--version", "1000"].code(1);
    let table = stdout(&done);
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[1].contains("damaged.mdx") && lines[1].ends_with("FAILED"),
        "{table}"
    );
    assert!(
        lines[2].contains("good.mdx") && lines[2].contains("800 -> 1000"),
        "{table}"
    );
    assert_eq!(lines[4], "1 failed:");
    assert!(
        lines[5].starts_with("  ") && lines[5].contains("damaged.mdx: "),
        "{table}"
    );
    assert_eq!(read(&out.join("good.mdx")).version(), 1000);
    assert!(!out.join("damaged.mdx").exists());
}

/// A model named by a file whose extension says nothing (read by its
/// `MDLX` magic) goes into a folder as `.mdx`, as `optimize` and `fix` put
/// it; a texture among the inputs fails alone.
#[test]
fn a_model_named_otherwise_goes_into_a_folder_as_mdx() {
    let dir = temp_dir("named-otherwise");
    let (model, texture) = (dir.join("model.bin"), dir.join("texture.blp"));
    std::fs::write(&model, formats::sample::sample_mdx()).unwrap();
    let image = formats::blp::RgbaImage::new(2, 2, [9, 8, 7, 255].repeat(4)).unwrap();
    let blp = formats::blp::Blp::encode(&image, formats::blp::Target::Bgra).unwrap();
    std::fs::write(&texture, blp.to_bytes().unwrap()).unwrap();
    let out = dir.join("out");
    let done = formats!["convert", &model, &texture, &out, "--version", "1000"].code(1);
    let table = stdout(&done);
    assert!(
        table.contains("texture.blp: a BLP file, not a model (.mdx, .mdl)"),
        "{table}"
    );
    assert_eq!(read(&out.join("model.mdx")).version(), 1000);
}

#[test]
fn exact_refuses_a_conversion_that_changes_the_model() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("exact");
    let golem = root.join("mdx/pqw3_HarvestGolem.mdx");
    let v800 = dir.join("v800.mdx");
    let refused = convert(
        &golem,
        &v800,
        &["--version", "800", "--exact", "--error-step", "0"],
    )
    .failure();
    let text = stderr(&refused);
    let (_, report) = library(&golem, 800, &step(0));
    let first = format!(
        "error: {}: version 1100 -> 800 is not exact (nothing written; without --exact it is converted):",
        golem.display(),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], first);
    // Every reason, each under its kind, in the report's order.
    let reasons: Vec<String> = [
        ("approximated", &report.approximated),
        ("dropped", &report.dropped),
        ("recomputed", &report.recomputed),
    ]
    .into_iter()
    .flat_map(|(what, notes)| notes.iter().map(move |n| format!("  {what}: {n}")))
    .collect();
    assert!(report.approximated.len() > 1 && report.dropped.len() > 1);
    assert_eq!(lines[1..], reasons[..]);
    assert!(!v800.exists(), "nothing is written when refused");

    // Between the Reforged layouts nothing changes but the layout: --exact
    // passes, and the way back gives the original model.
    for name in [
        "pqw3_BlueUnsummon",
        "pqw3_BossMinimapIcon",
        "pqw3_HarvestGolem",
    ] {
        let input = root.join(format!("mdx/{name}.mdx"));
        let (v1000, back) = (dir.join("v1000.mdx"), dir.join("back.mdx"));
        convert(&input, &v1000, &["--version", "1000", "--exact"]).success();
        assert_eq!(read(&v1000).version(), 1000);
        convert(&v1000, &back, &["--version", "1100", "--exact"]).success();
        assert_eq!(
            std::fs::read(&back).unwrap(),
            std::fs::read(&input).unwrap(),
            "{name}: 1100 -> 1000 -> 1100"
        );
    }
}

#[test]
fn convert_mdx_to_mdl_and_back_is_byte_exact() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("mdl");
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
    // Every corpus MDX, as folders: to MDL and back, byte for byte. The two
    // whose light track follows their `LITE` chunk (a writer's quirk only the
    // lenient reader takes) come back with it, as MDL keeps it
    // (`ExtTracksAfterChunk`).
    let (texts, backs) = (dir.join("texts"), dir.join("backs"));
    convert(&root.join("mdx"), &texts, &["--to", "mdl"]).success();
    convert(&texts, &backs, &["--to", "mdx"]).success();
    let names = common::files_in(&root, "mdx", ".mdx");
    assert_eq!(names.len(), 57);
    for name in names {
        let file = std::path::Path::new(&name).file_name().unwrap();
        assert!(
            std::fs::read(backs.join(file)).unwrap() == std::fs::read(root.join(&name)).unwrap(),
            "{name}"
        );
    }
    // A corpus MDL to MDX: the same model as its MDX twin (zf_bone is a PAIR).
    let out = dir.join("zf_bone.mdx");
    convert(&root.join("mdl/zf_bone.mdl"), &out, &[]).success();
    let from_text = read(&out);
    let twin = Model::from_bytes(&std::fs::read(root.join("mdx/zf_bone.mdx")).unwrap()).unwrap();
    assert_eq!(from_text.bones().len(), twin.bones().len());
    assert_eq!(from_text.bones()[0].node.name, twin.bones()[0].node.name);
}

/// `--plain`: MDL other tools read, and the list of what it left out (on
/// stderr, or per model in `--json`); WoW alpha models have no MDL form.
#[test]
fn plain_mdl_says_what_it_left_out() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("plain");
    let input = root.join("mdx/zf_cube.mdx");
    let text = dir.join("zf_cube.mdl");
    let said = stderr(&convert(&input, &text, &["--plain"]).success());
    assert!(said.contains("left out of plain MDL (2):"), "{said}");
    assert!(
        said.contains("RibbonEmitter \"BlizRibbon01\": `ExtNodeFlags 4194304`"),
        "{said}"
    );
    let written = std::fs::read_to_string(&text).unwrap();
    assert!(
        !written.contains("#\"") && !written.contains("\tExt"),
        "{written}"
    );
    let plain = formats::mdl::from_str(&written).unwrap();
    assert_eq!(plain.geosets().len(), read(&input).geosets().len());

    let json = stdout(
        &formats![
            "convert",
            "--to",
            "mdl",
            "--plain",
            "--json",
            &input,
            root.join("mdx/zf_minimal.mdx"),
            dir.join("both")
        ]
        .success(),
    );
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(per_file(&doc, "left_out"), [2, 1], "{json}");
    assert_eq!(
        doc["files"][0]["left_out"][1]["path"],
        "RibbonEmitter \"BlizRibbon01\""
    );

    let alpha = convert(
        &root.join("mdx/wowalpha_Boar.mdx"),
        &dir.join("boar.mdl"),
        &["--plain"],
    );
    assert!(stderr(&alpha.failure()).contains("MDL is for versions 800 to 1200"));
    let mdx = convert(&input, &dir.join("cube.mdx"), &["--plain"]);
    assert!(stderr(&mdx.failure()).contains("--plain is for MDL out"));
}

/// A damaged model: `zf_all.mdx` cut in the middle of its last chunk
/// (`CLID`, as the public `Glow.mdx` is), which the tool reads leniently
/// with that chunk kept as bytes. MDX -> MDX at its version writes it back
/// byte for byte; to 1000 the cut chunk stays last, as it was, and the
/// report says so, once (and back to 800 ends the same way, its sequences
/// laid out in order);
/// to MDL it is an `ExtChunk`, and back to MDX gives the damaged file; plain
/// MDL leaves it out and says so; converting a folder, the table and
/// `--json` say which model was damaged and what was kept.
#[test]
fn a_damaged_model_converts_with_its_cut_chunk_kept_and_said() {
    let Some(data) = common::corpus_file("mdx/zf_all.mdx") else {
        return;
    };
    let dir = temp_dir("damaged");
    let (cut, start) = common::cut_in_last_chunk(&data);
    assert_eq!((start, cut.len()), (9046, 9170));
    let input = dir.join("cut.mdx");
    std::fs::write(&input, &cut).unwrap();
    let chunk = "chunks[19].CLID (116 of its 240 bytes)";
    let damaged = format!(
        "damaged: {} is damaged: the file ends inside its last chunk, {chunk}; ",
        input.display()
    );
    let cut_chunk = |path: &Path| {
        let bytes = std::fs::read(path).unwrap();
        assert!(Model::from_bytes(&bytes).is_err(), "{}", path.display());
        let (model, _) = Model::from_bytes_lenient(&bytes).unwrap();
        (model.version(), model.chunks.last().cloned())
    };
    let (_, kept) = cut_chunk(&input);
    assert!(matches!(kept, Some(formats::mdx::Chunk::Cut(_))));

    // At its version: the same bytes.
    let same = dir.join("same.mdx");
    let said = stderr(&convert(&input, &same, &[]).success());
    assert_eq!(std::fs::read(&same).unwrap(), cut);
    let written = format!(
        "kept as the bytes there are, at the end: {} is damaged the same way\n",
        same.display()
    );
    assert!(said.contains(&format!("{damaged}{written}")), "{said}");

    // To 1000 and back.
    let reforged = dir.join("reforged.mdx");
    let said = stderr(&convert(&input, &reforged, &["--version", "1000"]).success());
    assert!(
        said.contains(
            "kept as read from a damaged file (1):\n  chunks[19].CLID: the file ends inside this \
             chunk (116 of its 240 bytes): kept as the bytes there are, at the end, not converted \
             to version 1000\n"
        ),
        "{said}"
    );
    // Said once: the report's line, not the summary's too.
    assert!(!said.contains(&damaged), "{said}");
    assert_eq!(cut_chunk(&reforged), (1000, kept.clone()));
    // Back to 800, its sequences are laid out in order (zf_all's second
    // starts inside its first: the classic game plays that wrongly), and the
    // damaged ending is the same.
    let back = dir.join("back.mdx");
    let said = stderr(&convert(&reforged, &back, &["--version", "800"]).success());
    assert!(
        said.contains("moved on the timeline (1):\n  sequences[1]"),
        "{said}"
    );
    let back = std::fs::read(&back).unwrap();
    assert!(
        back.ends_with(&cut[start..]),
        "the cut chunk is not the same"
    );

    // To MDL and back.
    let text = dir.join("cut.mdl");
    let said = stderr(&convert(&input, &text, &[]).success());
    assert!(said.contains(&damaged), "{said}");
    assert!(said.contains("kept as an `ExtChunk`, last"), "{said}");
    let mdl = std::fs::read_to_string(&text).unwrap();
    assert!(
        mdl.lines()
            .last()
            .unwrap()
            .starts_with("ExtChunk #\"434c4944f0000000")
    );
    let back = dir.join("from_mdl.mdx");
    convert(&text, &back, &[]).success();
    assert_eq!(std::fs::read(&back).unwrap(), cut);

    // Plain MDL has no form for it.
    let plain = dir.join("plain.mdl");
    let said = stderr(&convert(&input, &plain, &["--plain"]).success());
    assert!(
        said.contains(
            "left out of plain MDL (1):\n  model: the `CLID` chunk the file ends inside (116 of \
             its 240 bytes) (a damaged file's last chunk, kept as bytes): plain MDL has no form \
             for it\n"
        ),
        "{said}"
    );
    assert!(
        said.contains(&format!("{damaged}left out of the plain MDL")),
        "{said}"
    );
    formats::mdl::from_str(&std::fs::read_to_string(&plain).unwrap()).unwrap();

    // Among others in a folder: the table and --json say it.
    let folder = dir.join("in");
    std::fs::create_dir(&folder).unwrap();
    std::fs::copy(&input, folder.join("cut.mdx")).unwrap();
    std::fs::copy(
        common::corpus_root().unwrap().join("mdx/zf_cube.mdx"),
        folder.join("zf_cube.mdx"),
    )
    .unwrap();
    let table = stdout(&convert(&folder, &dir.join("out"), &["--version", "1000"]).success());
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.contains("800 -> 1000"))
        .collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(
        rows[0].contains("cut.mdx") && rows[0].ends_with("bytes, damaged"),
        "{table}"
    );
    assert!(rows[1].ends_with("5586 bytes"), "{table}");
    assert!(
        table.contains("damaged: ") && table.contains(chunk),
        "{table}"
    );
    let json = stdout(&convert(&folder, &dir.join("json"), &["--json"]).success());
    let doc: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(per_file(&doc, "damaged"), [1, 0], "{json}");
}

#[test]
fn convert_says_what_it_cannot_do() {
    let dir = temp_dir("cannot");
    let input = dir.join("in.mdx");
    std::fs::write(&input, formats::sample::sample_mdx()).unwrap();
    let fails = |args: &[&std::ffi::OsStr], why: &str| {
        formats_command()
            .arg("convert")
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(why));
    };
    let (i, out) = (input.as_os_str(), dir.join("out.mdx"));
    let o = out.as_os_str();
    fails(
        &[i, o, "--version".as_ref(), "700".as_ref()],
        "converting version 800 to 700 is not supported",
    );
    fails(
        &[i, o, "--to".as_ref(), "mdl".as_ref()],
        "--to mdl and the output",
    );
    // Two inputs of one name: refused before the folder is made.
    let copy = dir.join("copy/in.mdx");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&input, &copy).unwrap();
    fails(
        &[i, copy.as_os_str(), dir.join("both").as_os_str()],
        "would both be written to",
    );
    assert!(!dir.join("both").exists());
    // A file where a folder on the way should be.
    std::fs::write(dir.join("afile"), b"").unwrap();
    fails(
        &[i, dir.join("afile/x.mdl").as_os_str()],
        "afile is a file, not a folder",
    );
    fails(
        &[i, dir.join("out.adt").as_os_str()],
        "models convert to .mdx or .mdl, not ADT",
    );
    fails(&[i, o, "--exact".as_ref()], "--version");
    // The options of a version change are refused without one, as --exact
    // is, rather than ignored (the model would be written unchanged).
    for option in [["--hd-materials", "all"], ["--error-step", "10"]] {
        let [name, value] = option.map(std::ffi::OsStr::new);
        fails(&[i, o, name, value], "--version");
    }
    fails(&[i, o, "--force".as_ref()], "--force");
    fails(&[i, i], "would be written over itself");
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("in.mdx"), formats::sample::sample_mdx()).unwrap();
    fails(
        &[i, other.join("in.mdx").as_os_str(), o],
        "2 inputs go into a folder, not into",
    );
    // One file named twice is one input (and said so).
    formats!["convert", i, i, dir.join("once.mdx").as_os_str()]
        .success()
        .stderr(predicate::str::contains(
            "in.mdx is given twice: taken once",
        ));
    fails(
        &[
            i,
            other.join("in.mdx").as_os_str(),
            dir.join("all").as_os_str(),
        ],
        "would both be written to",
    );
    fails(
        &[i, o, "--level".as_ref(), "1".as_ref()],
        "--level and --encoding are for textures",
    );
    fails(
        &[
            dir.join("x.png").as_os_str(),
            dir.join("x.blp").as_os_str(),
            "--version".as_ref(),
            "800".as_ref(),
        ],
        "--version, --to, --plain and --json are for models",
    );
    fails(
        &[dir.join("empty").as_os_str(), o],
        "no such file or folder",
    );
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    fails(
        &[dir.join("empty").as_os_str(), dir.join("o").as_os_str()],
        "no models",
    );
    assert!(!out.exists());
}

/// The length of the list `key` of each file in `convert --json`'s output.
fn per_file(doc: &Value, key: &str) -> Vec<usize> {
    doc["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f[key].as_array().unwrap().len())
        .collect()
}

/// `formats convert --version 800` on a large converted model from the wild
/// whose sequences overlap (21 sequences, 9 starting before the one before
/// ends): the tool says which it moved on the timeline, and writes what
/// `formats::convert` gives (`convert_layout` in `formats`' tests checks
/// that it plays the same).
#[test]
fn a_wild_model_with_overlapping_sequences_converts_to_classic_and_says_what_moved() {
    let name = "wowconverter_7-the-lich-king-36597.mdx";
    let Some(bytes) = common::wild_file(name) else {
        return;
    };
    let mut classic = formats::mdx::Model::from_bytes(&bytes).unwrap();
    let options = formats::convert::Options {
        error_step: 200,
        ..formats::convert::Options::default()
    };
    formats::convert::convert(&mut classic, 800, &options).unwrap();
    let dir = common::temp_dir("convert_layout_wild");
    let out = dir.join("classic.mdx");
    let done = common::formats![
        "convert",
        common::wild_path(name).unwrap(),
        &out,
        "--version",
        "800",
        "--error-step",
        "200"
    ]
    .success();
    let said = String::from_utf8_lossy(&done.get_output().stderr).into_owned();
    assert!(said.contains("moved on the timeline ("), "{said}");
    assert!(
        said.contains("sequences[2]: `Stand Channel 1` 55025..56625 moved to"),
        "{said}"
    );
    assert_eq!(std::fs::read(&out).unwrap(), classic.to_bytes().unwrap());
}
