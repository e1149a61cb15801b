//! Blizzard's game formats (models, terrain, textures), read and written
//! byte-exact, defined with `#[derive(Codec)]` from `format_core`.
//!
//! - [`mdx`]: Warcraft III and Reforged models (versions 800 to 1200) and WoW
//!   alpha models (1300 to 1500, [`mdx::alpha`]), typed,
//!   read and written byte-exact.
//! - [`mdl`]: the MDL text form of the same models, read and written so that
//!   MDX -> MDL -> MDX is byte-exact.
//! - [`adt`] and [`wdt`]: World of Warcraft terrain tiles (ADT v18, monolithic
//!   and split) and map definitions, typed, read and written byte-exact.
//! - [`blp`]: BLP1 and BLP2 textures, read and written byte-exact; with the
//!   feature `blp-pixels`, any mip level decoded to RGBA8 and RGBA8
//!   encoded (JPEG, palette, DXT1/3/5, BGRA) with its mip levels.
//! - [`dds`]: DDS textures (Reforged's HD textures), read and written
//!   byte-exact; mip levels decoded to RGBA8 (BC1 to BC5, BC7,
//!   uncompressed) with `blp-pixels`.
//! - [`chunks`]: the chunk-level view every format shares (MDX files with
//!   their `MDLX` magic, ADT and WDT files with their reversed tags).
//! - [`validate`]: semantic checks beyond parsing (indices in range, ordered
//!   keys, …) and the map makers' sanity checks, each finding with a rule
//!   id, a severity, a path and a message.
//! - `terrain` (feature `terrain`): tiles as geometry in world
//!   coordinates: height grids, normals, holes, placements, liquids,
//!   heightmaps and splat maps.
//! - `anim` (feature `anim`): tracks sampled at any time, skeletons
//!   posed, skinned vertices.
//! - `bounds` (feature `anim`): extents measured from the posed
//!   geometry, `Model::recompute_extents`.
//! - `optimize` (feature `anim`): the keyframe optimizer, proven
//!   by sampling.
//! - `convert` (feature `convert`): classic and Reforged models converted
//!   into each other (skin weights, HD materials, tangents), with a report.
//! - `gltf` (feature `gltf`): models (skeleton, skin, animations, materials
//!   and textures, cameras, lights) and terrain tiles out as glTF 2.0, on a
//!   document builder other exporters can use.
//! - `render` (feature `render`): height fields, alpha maps and
//!   wireframes as images (PNG), posed models too, heightmaps as float TIFF.
//!
//! # Where to start
//!
//! | to | use |
//! |---|---|
//! | read, edit and write a model | [`mdx::Model::from_bytes`], its typed accessors (`sequences()`, `bones_mut()`, `textures_mut()`, ...), [`mdx::Model::to_bytes`] |
//! | a bone's world transform at a time | `anim::Skeleton::pose` with `anim::Timeline::at` (feature `anim`; the `anim` module docs) |
//! | read, edit and write a terrain tile | [`adt::Adt::from_bytes`], [`adt::Adt::mcnks_mut`], [`adt::mcnk::Mcnk::heights_mut`], [`adt::Adt::to_bytes`] |
//! | heights and doodads in world space | `terrain::TerrainTile::height_at`, `terrain::ChunkGrid::vertex_at` (which MCVT value to edit), `terrain::placements` (feature `terrain`) |
//! | a texture as RGBA and back | [`blp::Blp::decode_level`], [`blp::Blp::encode`] (feature `blp-pixels`) |
//! | a chunk of your own in a model, tile or map | `#[derive(formats::Codec)]`, [`mdx::Model::set_chunk`], [`mdx::Model::chunk`] |
//! | what went wrong, and where | [`Error`]: `Display` gives the path of fields and the byte offset; [`Error::offset`], [`Error::path_string`] |
//!
//! Each module's docs describe what it does; the repository's `docs/`
//! folder holds the guides that walk through it from the command line and
//! link back here (`cli.md`, `gltf.md`, `terrain.md`, `convert.md`,
//! `validation.md`, `bounds.md`, `mdl.md`, `blp.md`, `archives.md`,
//! `derive.md`), and `BENCHMARKS.md` what was measured.
//!
//! Files are read from bytes (`Model::from_bytes(&std::fs::read(path)?)`);
//! a `main` that reads files and parses them returns
//! `Result<(), Box<dyn std::error::Error>>`, as [`Error`] converts into it.
//!
//! The runtime ([`core`]: `FixedStr`, `Context`, `Derived`, `UnknownChunk`,
//! ...) and the attributes of `#[derive(Codec)]` are documented in the crates
//! `format_core` and `format_derive`: `cargo doc -p formats --no-deps`
//! leaves them out, `cargo doc -p formats` (or `cargo doc` in a crate that
//! depends on `formats`) builds them too.
//!
//! # Cargo features
//!
//! The defaults are the parsers and writers with their serde view; every
//! tool is opt-in, and the `formats` command-line tool is its own crate
//! (`formats-cli`), so a crate that depends on `formats` builds none of the
//! tool's dependencies. Each feature, what it adds and the crates it brings
//! (beyond those of the features it turns on):
//!
//! | feature | adds | crates | turns on |
//! |---|---|---|---|
//! | (always) | [`mdx`], [`mdl`], [`adt`], [`wdt`], [`blp`], [`dds`], [`chunks`], [`validate`], [`sample`] | `format-core`, `format-derive` (and their `syn`, `quote`, `proc-macro2`), `thiserror` | |
//! | `serde` (default) | `Serialize` and `Deserialize` on every type | `serde` | |
//! | `anim` | `anim`, `bounds`, `optimize` | `glam` | |
//! | `terrain` | `terrain` (tiles in world space, heightmaps, splat maps) | `glam` | |
//! | `render` | `render` (PNG height fields, alpha maps, wireframes; float TIFF heightmaps) | `png`, `tiff` | `anim`, `terrain` |
//! | `blp-pixels` | BLP and DDS levels decoded to RGBA8 and encoded from it, PNG in and out | `zune-jpeg`, `jpeg-encoder`, `texpresso`, `bcdec_rs`, `color_quant`, `rayon`, `png` | |
//! | `gltf` | `gltf` (models out as glTF 2.0; tiles too with `terrain`) | `gltf-json`, `serde_json` | `anim`, `blp-pixels` |
//! | `convert` | `convert` (classic and Reforged into each other) | `bevy_mikktspace` | `anim` |
//! | `archive` | `mpq` (MPQ archives: Warcraft III maps, the classic games' data) | `miniz_oxide`, `bzip2`, `explode` | |
//!
//! With `default-features = false` only the parsers are built: a crate that
//! reads and writes the formats, or defines chunks of its own with
//! [`Codec`], needs nothing more. A library that wants, say, glTF export of
//! models and tiles asks for
//! `formats = { version = "…", features = ["gltf", "terrain"] }`.
//! BENCHMARKS.md counts the crates each choice builds.
#![warn(missing_docs)]
// No unsafe code: neither here nor in what `#[derive(Codec)]` generates (a
// plain struct is read field by field, see `format_core::Plain`).
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

/// The runtime the definitions are built on ([`format_core`]): the reader,
/// the writer, errors with offsets and paths, and the building blocks
/// (`FourCC`, `FixedStr`, `Derived`, `Kept`, ...), re-exported so that a crate
/// depending on `formats` alone can define chunks of its own.
pub use format_core as core;
/// `#[derive(Codec)]`: a reader and a writer from one annotated definition
/// (the attributes are documented in the crate `format_derive`, which
/// `cargo doc -p formats` builds and `--no-deps` leaves out). In a crate that
/// depends on `formats` only, the generated code names the runtime
/// `formats::core`.
///
/// ```
/// use formats::core::FixedStr;
///
/// /// `MYCK { char[32] name; uint32 count; float[count][3] points }`
/// #[derive(formats::Codec, Debug, PartialEq)]
/// #[format(chunk = "MYCK")]
/// struct Marks {
///     name: FixedStr<32>,
///     #[format(count = u32)]
///     points: Vec<[f32; 3]>,
/// }
///
/// let mut model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let marks = Marks { name: FixedStr::try_from("spawn")?, points: vec![[0.0, 0.0, 1.0]] };
/// model.set_chunk(&marks)?;
/// let reread = formats::mdx::Model::from_bytes(&model.to_bytes()?)?;
/// assert_eq!(reread.chunk::<Marks>().transpose()?, Some(marks));
/// # Ok::<(), formats::Error>(())
/// ```
pub use format_core::Codec;
/// The error every reader and writer gives: what went wrong, the byte offset
/// and the path of fields (`chunks[5].GEOS.geosets[0]`).
pub use format_core::Error;
/// `#[derive(Mdl)]`: the same definition as a block of MDL text, for a chunk
/// of your own that [`mdl::to_string_with`] and [`mdl::from_str_with`] write
/// and read as a block (see [`mdl::Blocks`]).
pub use format_core::Mdl;
/// `Result<T, formats::Error>`.
pub use format_core::Result;
pub use kind::FileKind;

pub mod adt;
#[cfg(feature = "anim")]
pub mod anim;
pub mod blp;
#[cfg(feature = "anim")]
pub mod bounds;
pub mod chunks;
#[cfg(feature = "convert")]
pub mod convert;
pub mod dds;
#[cfg(feature = "gltf")]
pub mod gltf;
mod kind;
mod magic;
pub mod mdl;
pub mod mdx;
#[cfg(feature = "archive")]
pub mod mpq;
#[cfg(feature = "anim")]
pub mod optimize;
#[cfg(any(feature = "render", feature = "blp-pixels"))]
mod png_file;
#[cfg(feature = "render")]
pub mod render;
pub mod sample;
#[cfg(feature = "terrain")]
pub mod terrain;
pub mod validate;
pub mod wdt;

/// The examples of the README and of the guides in `docs/`, compiled and
/// run as doctests (a guide whose examples need a feature, with it).
#[cfg(doctest)]
mod guides {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../docs/derive.md")]
    struct Derive;
    #[doc = include_str!("../../docs/mdl.md")]
    struct Mdl;
    #[doc = include_str!("../../docs/validation.md")]
    struct Validation;
    #[cfg(feature = "anim")]
    #[doc = include_str!("../../docs/bounds.md")]
    struct Bounds;
    #[cfg(feature = "blp-pixels")]
    #[doc = include_str!("../../docs/blp.md")]
    struct Blp;
    #[cfg(all(feature = "terrain", feature = "gltf"))]
    #[doc = include_str!("../../docs/terrain.md")]
    struct Terrain;
    #[cfg(feature = "gltf")]
    #[doc = include_str!("../../docs/gltf.md")]
    struct Gltf;
    #[cfg(feature = "gltf")]
    #[doc = include_str!("../../docs/import.md")]
    struct Import;
    #[cfg(feature = "convert")]
    #[doc = include_str!("../../docs/convert.md")]
    struct Convert;
    #[doc = include_str!("../../docs/cli.md")]
    struct Cli;
    #[cfg(feature = "archive")]
    #[doc = include_str!("../../docs/archives.md")]
    struct Archives;
    #[doc = include_str!("../../docs/sweeps.md")]
    struct Sweeps;
}
