//! `formats validate PATH... [--json]`: several files and folders, each
//! file's findings with rule id and severity, a table per rule, JSON that
//! agrees with the library, and the exit code (1 only for errors or files
//! that could not be checked).

use crate::common;

use common::{formats_command, temp_dir};

use formats::mdx::Model;
use formats::validate::{self, Rule};
use serde_json::Value;

/// Runs `formats args` in `dir`: (success, stdout, stderr).
fn run_in(dir: &std::path::Path, args: &[&str]) -> (bool, String, String) {
    let out = formats_command()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn several_files_list_their_findings_and_a_table_per_rule() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let (ok, stdout, stderr) = run_in(
        &root,
        &[
            "validate",
            "mdx/zf_bone.mdx",
            "mdx/zf_cube.mdx",
            "adt/warcraftnet_Northrend_37_25.adt",
        ],
    );
    assert!(!ok, "zf_bone has errors");
    assert!(stderr.is_empty(), "{stderr}");
    insta::assert_snapshot!(stdout);
}

#[test]
fn warnings_and_infos_alone_do_not_fail() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    // tm_blob: long normals and a light's attenuation (warnings; its
    // extents hold: MODL's stands for no sequence, its geoset's are not set,
    // and its sequences' larger boxes are not stale: it has emitters), two
    // tracks with keys outside the sequences, three bones without vertices
    // and five tracks with redundant keys (infos); zf_cube: no Death, and 2
    // stale extents (its cube swings 200 units beyond its sequence's box,
    // and its geoset lists 3 for 1 sequence; warnings). Neither is a unit:
    // no Origin Ref needed.
    let (ok, stdout, stderr) = run_in(&root, &["validate", "mdx/tm_blob.mdx", "mdx/zf_cube.mdx"]);
    assert!(ok, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "mdx/tm_blob.mdx: 0 errors, 2 warnings, 10 infos");
    assert!(
        stdout.contains("\nmdx/zf_cube.mdx: 0 errors, 3 warnings, 0 infos\n  warning  missing-death-sequence  chunks[2].SEQS: no \"Death\" sequence\n  warning  stale-extent            chunks[2].SEQS.sequences[0].extent: the geometry reaches 180.112 beyond the box and its bounds sphere"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("2 files: 0 failed (0 could not be checked), 0 without findings\n"),
        "{stdout}"
    );
    // A file named twice (two spellings) is checked and counted once.
    let (ok, twice, stderr) = run_in(
        &root,
        &[
            "validate",
            "mdx/tm_blob.mdx",
            "mdx/zf_cube.mdx",
            "mdx/./zf_cube.mdx",
        ],
    );
    assert!(ok, "{twice}{stderr}");
    assert_eq!(twice, stdout);
    assert_eq!(stderr, "mdx/./zf_cube.mdx is given twice: taken once\n");
}

/// Every model and tile of the corpus's `mdx` and `adt` folders, as JSON:
/// each file's findings are exactly what the library finds, each with its
/// rule's id and severity, and the totals, the table and the exit code agree.
#[test]
fn json_over_folders_agrees_with_the_library() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let out = formats_command()
        .current_dir(&root)
        .args(["validate", "--json", "mdx", "adt"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).expect("validate --json is JSON");
    let files = report["files"].as_array().unwrap();
    let models = common::files_in(&root, "mdx", ".mdx");
    let tiles = common::files_in(&root, "adt", ".adt");
    assert_eq!(files.len(), models.len() + tiles.len());
    // What the library finds, file by file, on every core (posing every
    // frame for the extents is most of this test's time).
    let library = |path: &str| {
        let data = std::fs::read(root.join(path)).unwrap();
        if path.ends_with(".mdx") {
            let model = Model::from_bytes(&data)
                .or_else(|_| Model::from_bytes_lenient(&data).map(|(m, _)| m))
                .unwrap();
            validate::all(&model)
        } else {
            validate::tile(&formats::adt::Adt::from_bytes(&data).unwrap())
        }
    };
    let paths: Vec<&str> = files.iter().map(|f| f["path"].as_str().unwrap()).collect();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let library_findings: Vec<Vec<validate::Finding>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores)
            .map(|k| {
                let (paths, library) = (&paths, &library);
                scope.spawn(move || {
                    let mine = paths.iter().enumerate().filter(|(i, _)| i % cores == k);
                    mine.map(|(i, path)| (i, library(path))).collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all: Vec<_> = workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect();
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, found)| found).collect()
    });
    let mut totals = [0usize; 3];
    let mut failed = 0;
    for (file, expected) in files.iter().zip(&library_findings) {
        let path = file["path"].as_str().unwrap();
        assert!(file["error"].is_null(), "{path}: {}", file["error"]);
        let findings = file["findings"].as_array().unwrap();
        assert_eq!(findings.len(), expected.len(), "{path}");
        let mut errors = 0;
        for (json, finding) in findings.iter().zip(expected) {
            let rule = Rule::from_id(json["rule"].as_str().unwrap()).unwrap();
            assert_eq!(rule, finding.rule, "{path}");
            assert_eq!(json["severity"], finding.severity().to_string(), "{path}");
            assert_eq!(json["path"], finding.path.as_str(), "{path}");
            assert_eq!(json["message"], finding.message.as_str(), "{path}");
            let slot = ["error", "warning", "info"]
                .iter()
                .position(|s| json["severity"] == *s)
                .unwrap();
            totals[slot] += 1;
            errors += usize::from(slot == 0);
        }
        failed += usize::from(errors > 0);
    }
    assert_eq!(
        [&report["errors"], &report["warnings"], &report["infos"]],
        totals.map(Value::from).each_ref()
    );
    assert_eq!(report["failed"], failed);
    assert!(failed > 0 && failed < files.len(), "{failed}");
    let summed: u64 = report["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["findings"].as_u64().unwrap())
        .sum();
    assert_eq!(summed as usize, totals.iter().sum::<usize>());
    assert!(!out.status.success());
}

/// A damaged file, a file cut short, and a texture named on purpose: each
/// reported on its line, the run failing; files in folders that are neither
/// models nor tiles are not looked at.
#[test]
fn damaged_cut_and_unchecked_files() {
    let dir = temp_dir("files");
    let sample = formats::sample::sample_mdx();
    let mut damaged = sample.clone();
    let seqs = damaged.windows(4).position(|w| w == b"SEQS").unwrap();
    damaged[seqs + 4..seqs + 8].copy_from_slice(&263u32.to_le_bytes());
    // The file ends 2 bytes after that size, inside the next tag: the lenient
    // reader, which keeps such a SEQS as bytes, cannot go on either.
    damaged.truncate(seqs + 8 + 263 + 2);
    std::fs::write(dir.join("damaged.mdx"), &damaged).unwrap();
    std::fs::write(dir.join("truncated.mdx"), &sample[..sample.len() - 5]).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a model").unwrap();
    let texture = dir.join("texture.blp");
    std::fs::write(&texture, b"BLP2").unwrap();
    let (ok, stdout, _) = run_in(&dir, &["validate", ".", "texture.blp"]);
    assert!(!ok);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "./damaged.mdx: FAILED: chunks[2].SEQS.sequences: invalid value at 0x194: size 263 is \
         not a multiple of the 132-byte element size"
    );
    // (The warning: no Death.)
    assert_eq!(
        lines[1],
        "./truncated.mdx: 2 errors, 1 warning, 0 infos (read leniently: 1 diagnostic)"
    );
    assert!(
        lines.contains(
            &"  error    cut-chunk               chunks[7].PIVT: the file ends inside this chunk: 5 of its 12 bytes are missing"
        ),
        "{stdout}"
    );
    assert!(
        lines.contains(&"texture.blp: FAILED: validate checks models and tiles, not BLP files"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("3 files: 3 failed (2 could not be checked), 0 without findings\n"),
        "{stdout}"
    );
    let (ok, _, stderr) = run_in(&dir, &["validate", "missing.mdx"]);
    assert!(!ok);
    assert_eq!(stderr, "error: missing.mdx: no such file or folder\n");
}

/// The files of a split tile: each checked on its own (`validate::split_file`
/// for `_tex0`, `_obj0`, ...), a broken `_tex0` failing the run.
#[test]
fn split_tile_files() {
    let Some(data) = common::corpus_file("adt/warcraftnet_Northrend_37_25.adt") else {
        return;
    };
    let dir = temp_dir("validate-split");
    let tile = formats::adt::Adt::from_bytes(&data).unwrap();
    let mut split = formats::adt::SplitAdt::from_monolithic(&tile);
    let write = |name: &str, bytes: Vec<u8>| std::fs::write(dir.join(name), bytes).unwrap();
    write("Map_37_25.adt", split.root.to_bytes().unwrap());
    write("Map_37_25_obj0.adt", split.obj0.to_bytes().unwrap());
    let (ok, stdout, stderr) = run_in(&dir, &["validate", "."]);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("./Map_37_25_obj0.adt: no findings"),
        "{stdout}"
    );
    for chunk in &mut split.tex0.chunks {
        if let formats::adt::AdtChunk::Mtex(names) = chunk {
            *names = Default::default();
        }
    }
    write("Map_37_25_tex0.adt", split.tex0.to_bytes().unwrap());
    let (ok, stdout, _) = run_in(&dir, &["validate", "Map_37_25_tex0.adt"]);
    assert!(!ok, "{stdout}");
    assert!(stdout.starts_with("Map_37_25_tex0.adt: "), "{stdout}");
    assert!(
        stdout.contains("texture-index") && stdout.contains("there are 0 MTEX textures"),
        "{stdout}"
    );
}
