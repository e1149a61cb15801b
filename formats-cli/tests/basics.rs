//! The `formats` binary, driven as a user would: `info` (the README's first
//! command on the built-in sample, models, tiles, maps), `dump`,
//! `--help`, and bad input. Outputs that are stable are snapshots
//! (`tests/snapshots`), run from the corpus folder so no absolute path shows.

use crate::common;

use common::{formats, formats_command};

use predicates::prelude::*;

/// Runs `formats args` in the corpus folder; stdout, or `None` without corpus.
fn in_corpus(args: &[&str]) -> Option<(bool, String, String)> {
    let root = common::corpus_root()?;
    let out = formats_command()
        .current_dir(root)
        .args(args)
        .output()
        .ok()?;
    Some((
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// Runs `formats args` in the corpus folder, asserts success, and gives stdout.
fn succeeds_in_corpus(args: &[&str]) -> Option<String> {
    let (ok, stdout, stderr) = in_corpus(args)?;
    assert!(ok, "formats {args:?}: {stderr}");
    Some(stdout)
}

#[test]
fn info_without_a_file_shows_the_built_in_sample() {
    let out = formats!["info"].success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    insta::assert_snapshot!(stdout);
}

#[test]
fn info_on_a_model_lists_chunks_objects_geometry_and_animations() {
    let Some(stdout) = succeeds_in_corpus(&["info", "mdx/zf_all.mdx"]) else {
        return;
    };
    insta::assert_snapshot!(stdout);
}

#[test]
fn info_on_a_reforged_model() {
    let Some(stdout) = succeeds_in_corpus(&["info", "mdx/pqw3_BossMinimapIcon.mdx"]) else {
        return;
    };
    insta::assert_snapshot!(stdout);
}

#[test]
fn info_on_a_wow_alpha_model() {
    let Some(stdout) = succeeds_in_corpus(&["info", "mdx/wowalpha_Boar.mdx"]) else {
        return;
    };
    insta::assert_snapshot!(stdout);
}

#[test]
fn info_on_mdl_text_shows_the_model_as_mdx_chunks() {
    let Some(stdout) = succeeds_in_corpus(&["info", "mdl/zf_bone.mdl"]) else {
        return;
    };
    insta::assert_snapshot!(stdout);
}

#[test]
fn info_on_a_model_with_a_writer_bug_says_it_was_read_leniently() {
    let Some(stdout) = succeeds_in_corpus(&["info", "mdx/amisd_nwdg32.mdx"]) else {
        return;
    };
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[1].starts_with("strict read: "), "{stdout}");
    assert_eq!(lines[2], "read leniently (1 diagnostic):");
    assert!(lines[3].contains("follows the LITE chunk"), "{stdout}");
    assert!(stdout.contains("round trip: byte-exact\n"), "{stdout}");
    // The chunk table comes from the one read: the 32 bytes of the light track
    // stored after LITE (at 0xd11b1) come before HELP, and the last chunk ends
    // where the file does (0xdb788 + 8 + 120 = 899080 bytes).
    assert!(lines[0].ends_with("899080 bytes, 16 chunks"), "{stdout}");
    assert!(
        stdout.contains("   0xd1119  LITE         144  1 light\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("   0xd11d1  HELP       34740  14 helpers\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("   0xdb788  CAMS         120  1 camera\n"),
        "{stdout}"
    );
}

/// A file of the magic alone reads as an empty model: `info` says its
/// version is assumed, `validate` that its header chunks are missing.
#[test]
fn a_model_without_its_header_says_so() {
    let dir = common::temp_dir("bare");
    let file = dir.join("bare.mdx");
    std::fs::write(&file, b"MDLX").unwrap();
    formats!["info", &file]
        .success()
        .stdout(predicate::str::contains(
            "MDX version 800 (no VERS chunk: assumed), 4 bytes, 0 chunks",
        ));
    formats!["validate", &file]
        .stdout(predicate::str::contains("missing-header"))
        .stdout(predicate::str::contains("no VERS chunk"))
        .stdout(predicate::str::contains("no MODL chunk"));
}

#[test]
fn info_on_a_tile_lists_textures_doodads_objects_liquids_holes_and_alpha() {
    let Some(stdout) = succeeds_in_corpus(&["info", "adt/wowserfmt_pvpzone3430.adt"]) else {
        return;
    };
    insta::assert_snapshot!(stdout);
}

#[test]
fn info_on_a_tile_with_compressed_alpha_and_mh2o() {
    let Some(stdout) = succeeds_in_corpus(&["info", "adt/warcraftnet_Northrend_37_25.adt"]) else {
        return;
    };
    // The manifest: compressed alpha for 634 layers (MCLY 0x200), and 8-bit
    // uncompressed maps (it counts 10 chunks with them; their MCLY flags give
    // 110 layers with `use_alpha_map` and no `alpha_map_compressed`); MH2O.
    assert!(
        stdout.contains(
            "744 with alpha maps: 634 compressed, 110 uncompressed (8-bit, from their size)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("liquids: MH2O "), "{stdout}");
    assert!(stdout.contains("round trip: byte-exact\n"), "{stdout}");
}

#[test]
fn info_on_a_map() {
    let Some(stdout) = succeeds_in_corpus(&["info", "wdt/wowserfmt_pvpzone.wdt"]) else {
        return;
    };
    insta::assert_snapshot!(stdout);
}

#[test]
fn bad_input_is_one_line_on_stderr_and_a_failure_code() {
    let dir = common::temp_dir("cli-bad");
    // SEQS says 263 bytes: not a whole number of 132-byte sequences (the
    // lenient reader would keep that chunk as bytes), and the file ends 2
    // bytes after them, inside the next tag, where neither reader can go on.
    let damaged = dir.join("damaged.mdx");
    let mut data = formats::sample::sample_mdx();
    let seqs = data.windows(4).position(|w| w == b"SEQS").unwrap();
    data[seqs + 4..seqs + 8].copy_from_slice(&263u32.to_le_bytes());
    data.truncate(seqs + 8 + 263 + 2);
    std::fs::write(&damaged, &data).unwrap();
    // (`validate` takes many files and reports each: tests/cli_validate.rs.)
    for command in ["info", "dump"] {
        let out = formats![command, &damaged].failure();
        let output = out.get_output();
        assert!(output.stdout.is_empty(), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(
            stderr.ends_with(
                "damaged.mdx: chunks[2].SEQS.sequences: invalid value at 0x194: size 263 is not \
                 a multiple of the 132-byte element size\n"
            ),
            "{command}: {stderr}"
        );
    }
    formats!["info", dir.join("missing.mdx")].failure().stderr(
        predicate::str::starts_with("error: ").and(predicate::str::contains("missing.mdx")),
    );
    let text = dir.join("notes.txt");
    std::fs::write(&text, "hello").unwrap();
    formats!["info", &text]
        .failure()
        .stderr(predicate::str::contains("not a file this tool knows"));
    // A folder with nothing to work on (named by mistake, say) is an error
    // for every command that walks folders, not a job done.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = dir.join("out");
    for (args, what) in [
        (
            &["check"][..],
            "files to check (.mdx, .mdl, .adt, .wdt, .blp, .dds)",
        ),
        (&["validate"], "models or tiles (.mdx, .mdl, .adt)"),
        (&["fix", "--extents", "--dry-run"], "models (.mdx, .mdl)"),
        (
            &["render", "--heightmap", "h/"],
            "tiles or maps (.adt, .wdt)",
        ),
    ] {
        formats_command()
            .args(args)
            .arg(&empty)
            .assert()
            .failure()
            .stderr(format!("error: no {what} under {}\n", empty.display()));
    }
    for (command, what) in [
        ("convert", "models (.mdx, .mdl, .glb, .gltf)"),
        ("optimize", "models (.mdx, .mdl)"),
        ("export", "models, tiles or maps (.mdx, .mdl, .adt, .wdt)"),
    ] {
        formats![command, &empty, &out]
            .failure()
            .stderr(format!("error: no {what} under {}\n", empty.display()));
    }
}

/// A file that ends inside its last chunk (a download cut short): read
/// leniently, that chunk kept as its bytes, the rest of the model shown, and
/// the file written back as it is.
#[test]
fn a_file_cut_inside_its_last_chunk_is_read_leniently() {
    let dir = common::temp_dir("cli-cut");
    let truncated = dir.join("truncated.mdx");
    let mut data = formats::sample::sample_mdx();
    data.truncate(100); // 76 of MODL's 372 bytes
    std::fs::write(&truncated, &data).unwrap();
    let out = formats!["info", &truncated].success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].ends_with("truncated.mdx: MDX version 800, 100 bytes, 2 chunks"),
        "{stdout}"
    );
    assert_eq!(
        lines[1],
        "strict read: chunks[1].MODL: chunk size 372 at 0x14 exceeds the 76 bytes left"
    );
    assert_eq!(lines[2], "read leniently (1 diagnostic):");
    assert!(
        lines[3].starts_with(
            "  at 0x10: chunks[1].MODL: invalid value at 0x10: the file ends inside this chunk: \
             296 of its 372 bytes are missing; kept its 84 bytes from 0x10"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("      0x10  MODL         372  cut short: 76 bytes there\n"),
        "{stdout}"
    );
    assert!(stdout.contains("round trip: byte-exact\n"), "{stdout}");
    let out = formats!["check", &truncated].success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains(
            "truncated.mdx: parsed leniently (1 diagnostic; strictly: chunks[1].MODL: chunk size 372"
        ),
        "{stdout}"
    );
    assert!(stdout.contains(" bytes left), byte-exact\n"), "{stdout}");
    // The commands that go on with the model say it was read leniently.
    let warning = "truncated.mdx: read leniently (1 diagnostic; `formats info` lists them), \
                   the strict reader's error: chunks[1].MODL: chunk size 372";
    let out = dir.join("out");
    std::fs::write(dir.join("copy.mdx"), &data).unwrap();
    for args in [
        &["convert", "truncated.mdx", "out/converted.mdl"][..],
        &["convert", "truncated.mdx", "copy.mdx", "out/"],
        &["export", "truncated.mdx", "out/exported.glb"],
        &["optimize", "truncated.mdx", "out/optimized.mdx"],
        &["fix", "--extents", "truncated.mdx", "--dry-run"],
    ] {
        formats_command()
            .current_dir(&dir)
            .args(args)
            .assert()
            .stderr(predicate::str::contains(format!("warning: {warning}")));
    }
    assert!(out.join("converted.mdl").is_file() && out.join("optimized.mdx").is_file());
    // Read strictly: no such warning.
    std::fs::write(&truncated, formats::sample::sample_mdx()).unwrap();
    formats_command()
        .current_dir(&dir)
        .args(["convert", "truncated.mdx", "out/converted.mdl"])
        .assert()
        .success()
        .stderr(predicate::str::contains("read leniently").not());
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    for command in ["info", "dump", "convert", "check", "validate", "render"] {
        formats![command, "--help"]
            .success()
            .stdout(predicate::str::contains("Example"));
    }
}

#[test]
fn dump_json_is_the_serde_view_of_the_model() {
    let Some(stdout) = succeeds_in_corpus(&["dump", "--json", "mdx/zf_bone.mdx"]) else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("dump --json is JSON");
    let data = common::corpus_file("mdx/zf_bone.mdx").unwrap();
    let model = formats::mdx::Model::from_bytes(&data).unwrap();
    assert_eq!(json, serde_json::json!({ "Mdx": model }));
    // And it reads back as the same model.
    let back: formats::mdx::Model = serde_json::from_value(json["Mdx"].clone()).unwrap();
    assert_eq!(back, model);
}

#[test]
fn dump_tree_shows_every_object() {
    let Some(stdout) = succeeds_in_corpus(&["dump", "adt/blizzardry_Azeroth_38_46.adt"]) else {
        return;
    };
    assert!(stdout.starts_with("Adt:\n  chunks:\n    [0]:\n      Mver:\n        version: 18\n"));
    assert_eq!(stdout.matches("      Mcnk:\n").count(), 256);
    // As in the JSON: the names chunks as lists of names.
    assert!(
        stdout.contains(r#"filenames: ["Tileset\\BurningStepps\\BurningSteppsAsh01.blp"]"#),
        "{stdout}"
    );
}

/// Runs `formats args` under a pseudo-terminal (util-linux's `script`, as a
/// user at a terminal would see it) and gives what the terminal showed;
/// `None` outside CI when `script` is missing.
fn on_a_terminal(args: &[&str]) -> Option<String> {
    let binary = assert_cmd::cargo::cargo_bin("formats");
    let quoted: Vec<String> = std::iter::once(binary.display().to_string())
        .chain(args.iter().map(|a| a.to_string()))
        .map(|a| format!("'{a}'"))
        .collect();
    let out = std::process::Command::new("script")
        .args(["-qec", &quoted.join(" "), "/dev/null"])
        .current_dir(common::corpus_root()?)
        .output();
    match out {
        Ok(out) => {
            let shown = String::from_utf8_lossy(&out.stdout).into_owned();
            assert!(
                out.status.success(),
                "formats {args:?} on a terminal: {shown}"
            );
            Some(shown)
        }
        Err(e) => {
            common::did_not_run(
                "the progress bar test",
                &format!("`script` (util-linux) runs formats on a terminal: {e}"),
            );
            None
        }
    }
}

/// Every command that runs over many files draws a progress bar on a
/// terminal, counting to the number of files, and none when its output goes
/// to a pipe (the bar is on stderr, hidden when that is not a terminal).
#[test]
fn commands_over_many_files_draw_a_progress_bar_on_a_terminal_only() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = common::temp_dir("progress");
    let dir = |name: &str| out.join(name).display().to_string();
    // Three that validate without an error (validate fails on one).
    let models = [
        "mdx/zf_minimal.mdx",
        "mdx/zf_cube.mdx",
        "mdx/zf_globalseq.mdx",
    ];
    let with = |command: &[&str], tail: &[String]| -> Vec<String> {
        command
            .iter()
            .map(|a| a.to_string())
            .chain(models.iter().map(|m| m.to_string()))
            .chain(tail.iter().cloned())
            .collect()
    };
    let runs: Vec<(Vec<String>, &str)> = vec![
        (with(&["check"], &[]), "3/3"),
        (with(&["validate"], &[]), "3/3"),
        (
            with(&["convert"], &[dir("convert"), "--to".into(), "mdl".into()]),
            "3/3",
        ),
        (with(&["optimize"], &[dir("optimize")]), "3/3"),
        (with(&["fix", "--extents"], &[dir("fix")]), "3/3"),
        (
            with(&["export", "--no-animations"], &[dir("export")]),
            "3/3",
        ),
        (
            vec![
                "render".into(),
                "maps/cataclysmctf/cataclysmctf.wdt".into(),
                "--heightmap".into(),
                dir("heights"),
            ],
            "4/4",
        ),
    ];
    for (args, done) in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let Some(shown) = on_a_terminal(&args) else {
            return;
        };
        assert!(
            shown.contains(&format!(" {done}")) && shown.contains('█'),
            "formats {args:?} drew no bar up to {done}: {shown}"
        );
        // Piped, the same command shows no bar.
        let piped = formats_command()
            .current_dir(&root)
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&piped.stderr);
        assert!(piped.status.success(), "formats {args:?}: {stderr}");
        assert!(!stderr.contains('█'), "formats {args:?} piped: {stderr}");
    }
}

/// A single output in a folder that does not exist yet is written there,
/// the folder made, by every command that writes one (as a folder for
/// several inputs is made).
#[test]
fn single_outputs_go_into_folders_made_for_them() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = common::temp_dir("nested-outputs");
    let model = root.join("mdx/pqw3_candle.mdx");
    let texture = root
        .join("blp")
        .join(&common::listing(&root.join("blp"))[0]);
    let runs: [(&[&str], &str); 6] = [
        (&["convert", "{model}", "{out}"], "a/model.mdl"),
        (&["convert", "{texture}", "{out}"], "b/texture.png"),
        (&["render", "{model}", "--wireframe", "{out}"], "c/wire.png"),
        (&["export", "{model}", "{out}"], "d/model.glb"),
        (&["optimize", "{model}", "{out}"], "e/model.mdx"),
        (&["fix", "--extents", "{model}", "{out}"], "f/model.mdx"),
    ];
    for (args, out) in runs {
        let out = dir.join(out);
        let args: Vec<std::ffi::OsString> = args
            .iter()
            .map(|a| match *a {
                "{model}" => model.clone().into_os_string(),
                "{texture}" => texture.clone().into_os_string(),
                "{out}" => out.clone().into_os_string(),
                other => other.into(),
            })
            .collect();
        common::formats_command().args(&args).assert().success();
        assert!(out.is_file(), "{args:?}");
    }
}

/// MDL whose model MDX cannot hold (edited to `FormatVersion 1300`, a WoW
/// alpha version with no MDL blocks): `info` says why there is no chunk
/// table. Before, it walked the text's own bytes as chunks ("VERS
/// 1646292581, cut short").
#[test]
fn info_on_mdl_that_cannot_be_mdx_says_why_and_shows_no_chunks() {
    let dir = common::temp_dir("mdl_alpha_info");
    let file = dir.join("alpha.mdl");
    let text = "Version {\n\tFormatVersion 1300,\n}\nModel \"m\" {\n\tBlendTime 150,\n}\n";
    std::fs::write(&file, text).unwrap();
    let out = formats!["info", &file].success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].ends_with(&format!("MDL version 1300, {} bytes, 2 chunks", text.len())),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(
            "the model's chunks: none, it cannot be written as MDX: chunks[1]: cannot write"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("offset  tag"), "{stdout}");
    assert!(!stdout.contains("cut short"), "{stdout}");
}
