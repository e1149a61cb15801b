//! The helpers every test file shares (the `testkit` crate's, shared with
//! `formats`' tests) and the tool under test.
#![allow(unused_imports)]

pub use testkit::*;

/// The `formats` binary this crate builds, to run with arguments.
pub fn formats_command() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("formats").expect("the formats binary is built")
}

/// Runs the `formats` binary with the given arguments (each anything
/// `Command::arg` takes) and returns what it did, to assert on:
/// `formats!["info", &path].success()`.
macro_rules! formats {
    ($($arg:expr),* $(,)?) => {{
        let mut command = $crate::common::formats_command();
        $(command.arg($arg);)*
        command.assert()
    }};
}
pub(crate) use formats;

/// What a run printed on stderr.
pub fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

/// What a run printed on stdout.
pub fn stdout(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

/// The MDX model the tool wrote at `path`, read strictly.
pub fn read_model(path: &std::path::Path) -> formats::mdx::Model {
    formats::mdx::Model::from_bytes(&std::fs::read(path).unwrap())
        .expect("the written model re-reads strictly")
}
