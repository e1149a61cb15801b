//! A chunk of your own, defined in a crate that depends on `formats` alone
//! (with `default-features = false`: the parsers, no rendering, no CLI).
//!
//! `#[derive(formats::Codec)]` finds the runtime as `formats::core` by
//! itself; [`Marks`] is then a chunk like any other: set into a model, a
//! tile or a map with `set_chunk`, written, and read back with `chunk::<Marks>()`
//! (see `tests/roundtrip.rs`, which does it on real files).
//!
//! `#[derive(formats::Mdl)]` makes the same definition a block of MDL text,
//! `Marks "spawn points" { Points 3 { { 0, 0, 0 }, ... } }`: a model's
//! `MYCK` chunk is written and read as that block by
//! `formats::mdl::to_string_with` and `from_str_with`, given
//! [`mdl_blocks`].

use formats::core::{Error, FixedStr};
use formats::{Codec, Mdl};

/// `MYCK { char[32] name; uint32 count; float[count][3] points }`: named
/// points, a chunk that no seed has.
///
/// MDL: `Marks "name" { Points n { { x, y, z }, ... } }`.
#[derive(Codec, Mdl, Debug, Clone, PartialEq)]
#[format(chunk = "MYCK")]
#[mdl(block = "Marks", name = name)]
pub struct Marks {
    /// What the points are (NUL-padded, at most 31 bytes and the NUL).
    pub name: FixedStr<32>,
    /// The points, `x, y, z` each.
    #[format(count = u32)]
    #[mdl(list)]
    pub points: Vec<[f32; 3]>,
}

/// The blocks of this crate for MDL: a model's `MYCK` chunk as a `Marks`
/// block. An error only if `formats` read `Marks` blocks or `MYCK` chunks
/// itself.
pub fn mdl_blocks() -> Result<formats::mdl::Blocks, Error> {
    formats::mdl::Blocks::new().with::<Marks>()
}

impl Marks {
    /// Named points; an error if `name` does not fit in 32 bytes with its NUL.
    pub fn new(name: &str, points: Vec<[f32; 3]>) -> Result<Marks, Error> {
        Ok(Marks {
            name: FixedStr::try_from(name)?,
            points,
        })
    }
}
