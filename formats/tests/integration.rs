//! The integration tests of `formats`, one module per file beside this one,
//! built as one test binary (`autotests = false` in Cargo.toml): 52 binaries
//! each linked the library and its dependencies again, which took most of
//! CI's build time once the test profile optimises `formats`. A file's tests
//! are named by its module: `cargo test -p formats --test integration --
//! mdx_truncation::` runs one file's.
//!
//! These are the library's tests; those of the `formats` tool are
//! `formats-cli`'s. `common` holds the helpers every file shares (the
//! `testkit` crate's: the corpus, temp folders, the independent checkers),
//! `mdx_strategies` the proptest strategies of arbitrary models.

mod common;
mod mdx_strategies;

mod adt_alpha;
mod adt_damaged;
mod adt_lenient;
mod adt_mh2o;
mod adt_offsets;
mod adt_props;
mod adt_roundtrip;
mod adt_split;
mod adt_terrain;
mod anim_corpus;
mod blp_pillow;
mod blp_pixels;
mod blp_regenerate;
mod blp_roundtrip;
mod bounds;
mod convert;
mod convert_layout;
mod convert_proptest;
mod corpus_chunks;
mod custom_chunks;
mod dds_pillow;
mod gltf_colors;
mod gltf_export;
mod gltf_light_animations;
mod gltf_proptest;
mod gltf_terrain;
mod gltf_texture_transforms;
mod gltf_validate;
mod gltf_visibility;
mod mdl_corpus;
mod mdl_errors;
mod mdl_pairs;
mod mdl_plain;
mod mdl_proptest;
mod mdl_roundtrip;
mod mdx_alpha;
mod mdx_corpus;
mod mdx_damaged;
mod mdx_edit;
mod mdx_proptest;
mod mdx_quirks;
mod mdx_semantics;
mod mdx_truncation;
mod module_imports;
mod mpq;
mod optimize;
mod terrain_maps;
mod validate;
mod war3_model;
mod wdt_roundtrip;
