//! The helpers every test file shares (the `testkit` crate's, shared with
//! `formats`' tests) and the tool under test.
#![allow(unused_imports)]

pub use testkit::*;

/// The `formats` binary this crate builds, to run with arguments.
pub fn formats() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("formats").expect("the formats binary is built")
}
