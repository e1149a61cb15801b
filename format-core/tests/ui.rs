//! Compile tests of `#[derive(Codec)]`: each file in `tests/ui/` misuses
//! an attribute, and its `.stderr` holds the error the derive must report;
//! each file in `tests/ui/pass/` uses attributes as documented, and must
//! compile and run (its `main` round-trips and asserts).
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test --test ui`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
