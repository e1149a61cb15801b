//! The `formats` binary, driven as a user would: the README's first command on
//! the built-in sample, a real file, and bad input.

mod common;

use std::process::Command;

fn formats(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_formats"))
        .args(args)
        .output()
        .expect("the formats binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn info_without_a_file_shows_the_built_in_sample() {
    let (ok, stdout, stderr) = formats(&["info"]);
    assert!(ok, "{stderr}");
    assert_eq!(
        stdout,
        "built-in sample: Mdx, 688 bytes, 4 chunks\n\
         \x20   offset  tag         size\n\
         \x20      0x4  VERS           4\n\
         \x20     0x10  MODL         372\n\
         \x20    0x18c  SEQS         264\n\
         \x20    0x29c  PIVT          12\n\
         round trip: byte-exact\n"
    );
}

#[test]
fn info_on_a_real_terrain_file() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let path = root.join("wdt/wowserfmt_pvpzone.wdt");
    let (ok, stdout, stderr) = formats(&["info", path.to_str().unwrap()]);
    assert!(ok, "{stderr}");
    let table: Vec<&str> = stdout.lines().skip(1).collect();
    assert_eq!(
        table,
        [
            "    offset  tag         size",
            "       0x0  MVER           4",
            "       0xc  MPHD          32",
            "      0x34  MAIN       32768",
            "    0x803c  MWMO           0",
            "round trip: byte-exact",
        ]
    );
}

#[test]
fn bad_input_is_one_line_on_stderr_and_a_failure_code() {
    let dir = std::env::temp_dir().join(format!("formats-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let truncated = dir.join("truncated.mdx");
    let mut data = formats::sample::sample_mdx();
    data.truncate(100);
    std::fs::write(&truncated, &data).unwrap();

    let (ok, stdout, stderr) = formats(&["info", truncated.to_str().unwrap()]);
    assert!(!ok);
    assert!(stdout.is_empty());
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.ends_with(
            "truncated.mdx: chunks[1].MODL: chunk size 372 at 0x14 exceeds the 76 bytes left\n"
        ),
        "{stderr}"
    );

    let (ok, _, stderr) = formats(&["info", dir.join("missing.mdx").to_str().unwrap()]);
    assert!(!ok);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("missing.mdx"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
