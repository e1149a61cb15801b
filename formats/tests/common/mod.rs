//! The helpers every test file shares: those of `formats-cli`'s tests too
//! live in the `testkit` crate; Babylon.js's probe is these tests' alone.
#![allow(unused_imports)]

pub mod babylon;

pub use testkit::*;
