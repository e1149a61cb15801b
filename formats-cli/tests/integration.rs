//! The tests of the `formats` tool, one module per file beside this one,
//! built as one test binary (`autotests = false` in Cargo.toml, as in
//! `formats`): each runs the binary on real files and checks what it
//! prints and writes, with the independent checkers where there is one
//! (Pillow, the Khronos glTF Validator, mdx-m3-viewer). `cargo test -p
//! formats-cli --test integration -- cli_export::` runs one file's.
//!
//! `common` holds the helpers every file shares (the `testkit` crate's, and
//! the binary under test).

mod common;

mod cli;
mod cli_archive;
mod cli_blp;
mod cli_check;
mod cli_convert;
mod cli_damaged;
mod cli_export;
mod cli_model_tools;
mod cli_validate;
mod convert_sanity;
mod render;
mod terrain_cli;
mod terrain_splat_layers;
