//! The integration tests of `formats`, one module per file beside this one,
//! built as one test binary (`autotests = false` in Cargo.toml): 52 binaries
//! each linked the library and its dependencies again, which took most of
//! CI's build time once the test profile optimises `formats`. A file's tests
//! are named by its module: `cargo test -p formats --test integration --
//! mdx::truncation::` runs one file's.
//!
//! These are the library's tests; those of the `formats` tool are
//! `formats-cli`'s. `common` holds the helpers every file shares (the
//! `testkit` crate's: the corpus, temp folders, the independent checkers),
//! `mdx::strategies` the proptest strategies of arbitrary models. The
//! files are grouped in folders by area (`adt`, `mdx`, `mdl`, `textures`,
//! `gltf`, `convert`, `anim`, `validate`, `terrain`).

mod adt;
mod anim;
mod common;
mod convert;
mod corpus_chunks;
mod gltf;
mod mdl;
mod mdx;
mod module_imports;
mod mpq;
mod terrain;
mod textures;
mod validate;
