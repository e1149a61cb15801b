//! Compile-fail tests of `#[derive(Codec)]`: each file in `tests/ui/` misuses
//! an attribute, and its `.stderr` holds the error the derive must report.
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
