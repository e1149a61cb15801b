//! The tests of the `formats` tool, one module per file beside this one,
//! built as one test binary (`autotests = false` in Cargo.toml, as in
//! `formats`): each runs the binary on real files and checks what it
//! prints and writes, with the independent checkers where there is one
//! (Pillow, the Khronos glTF Validator, mdx-m3-viewer). `cargo test -p
//! formats-cli --test integration -- models::export::` runs one file's.
//!
//! `common` holds the helpers every file shares (the `testkit` crate's, and
//! the binary under test).

mod archive;
mod basics;
mod common;
mod models;
mod render;
mod terrain;
mod textures;
