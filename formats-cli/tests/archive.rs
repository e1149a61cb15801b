//! `formats list` and `formats extract` on MPQ archives, and archives and
//! their entries (`map.w3x:Units/Footman.mdx`) given to the commands that
//! take models and textures: `info`, `check`, `validate`, `export`,
//! `convert`.

use std::path::PathBuf;

use predicates::prelude::*;

use crate::common::{self, formats, temp_dir};

/// The sample archive written to a fresh folder.
fn sample_archive(name: &str) -> (common::TempDir, PathBuf) {
    let dir = temp_dir(name);
    let archive = dir.join("sample.w3x");
    std::fs::write(&archive, formats::sample::sample_mpq()).unwrap();
    (dir, archive)
}

#[test]
fn list_names_every_entry_with_its_sizes() {
    let (_dir, archive) = sample_archive("list");
    formats!["list", &archive]
        .success()
        .stdout(predicate::str::contains("Units\\Footman.mdx"))
        .stdout(predicate::str::contains("compressed, encrypted"))
        .stdout(predicate::str::contains("4 entries"));
}

#[test]
fn extract_writes_the_entries_a_pattern_matches() {
    let (dir, archive) = sample_archive("extract");
    let out = dir.join("out");
    formats!["extract", &archive, &out, "units/*.MDX"]
        .success()
        .stdout(predicate::str::contains("1 file written"));
    let model = std::fs::read(out.join("Units/Footman.mdx")).unwrap();
    assert_eq!(model, formats::sample::sample_mdx());
    assert!(!out.join("war3map.j").exists());
    formats!["extract", &archive, &out, "*.tga"]
        .failure()
        .stderr(predicate::str::contains("no entry matches \"*.tga\""));
}

#[test]
fn model_commands_take_an_archive_and_its_entries() {
    let (dir, archive) = sample_archive("commands");
    let entry = format!("{}:Units/Footman.mdx", archive.display());
    formats!["info", &entry]
        .success()
        .stdout(predicate::str::contains("MDX version 800"));
    // An archive stands for the models and textures in it.
    formats!["check", &archive]
        .success()
        .stdout(predicate::str::contains("MDX        1"))
        .stdout(predicate::str::contains("BLP        1"));
    formats!["validate", &archive].success();
    let glb = dir.join("footman.glb");
    // Its texture comes from the archive.
    formats!["export", &entry, &glb]
        .success()
        .stdout(predicate::str::contains("1 texture embedded"))
        .stderr(predicate::str::contains("left out").not());
    assert!(std::fs::read(&glb).unwrap().starts_with(b"glTF"));
    let converted = dir.join("converted");
    formats!["convert", &archive, &converted, "--to", "mdl"].success();
    let text = std::fs::read_to_string(converted.join("Footman.mdl")).unwrap();
    assert!(text.contains("Version {"));
    // Not rewritten inside the archive.
    formats!["fix", "--extents", "--in-place", &entry]
        .failure()
        .stderr(predicate::str::contains("not rewritten in place"));
}

#[test]
fn a_map_from_the_corpus_lists_extracts_and_checks() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let map = root.join("archives/wc3lib_(4)WarChasers.w3m");
    formats!["list", &map]
        .success()
        .stdout(predicate::str::contains("war3mapMap.blp"))
        .stdout(predicate::str::contains("18 entries"));
    let dir = temp_dir("map");
    formats!["extract", &map, &dir]
        .success()
        .stdout(predicate::str::contains("18 files written"));
    assert_eq!(
        std::fs::metadata(dir.join("war3map.j")).unwrap().len(),
        445_914
    );
    // The minimap is the one texture in it: read from the archive, checked
    // byte-exact.
    formats!["check", &map]
        .success()
        .stdout(predicate::str::contains("BLP        1       1"));
}

#[test]
fn a_damaged_archive_is_an_error_naming_the_entry() {
    let (dir, archive) = sample_archive("damaged");
    let mut bytes = std::fs::read(&archive).unwrap();
    // The model's sector table (its first bytes, at 32) made nonsense.
    for b in &mut bytes[32..40] {
        *b ^= 0x5a;
    }
    std::fs::write(&archive, &bytes).unwrap();
    formats!["extract", &archive, dir.join("out")]
        .failure()
        .stderr(predicate::str::contains(
            "Units\\Footman.mdx (its bytes at 0x20)",
        ));
    formats!["list", dir.join("nothing.w3x")].failure();
    std::fs::write(dir.join("empty.w3x"), b"HM3W").unwrap();
    formats!["list", dir.join("empty.w3x")]
        .failure()
        .stderr(predicate::str::contains("no MPQ header"));
}
