//! A chunk of your own, defined in a crate that depends on `formats` alone
//! (with `default-features = false`: the parsers, no rendering, no CLI).
//!
//! `#[derive(formats::Codec)]` finds the runtime as `formats::core` by
//! itself; [`Marks`] is then a chunk like any other: set into a model, a
//! tile or a map with `set_chunk`, written, and read back with `chunk::<Marks>()`
//! (see `tests/roundtrip.rs`, which does it on real files).

use formats::Codec;
use formats::core::{Error, FixedStr};

/// `MYCK { char[32] name; uint32 count; float[count][3] points }`: named
/// points, a chunk that no seed has.
#[derive(Codec, Debug, Clone, PartialEq)]
#[format(chunk = "MYCK")]
pub struct Marks {
    /// What the points are (NUL-padded, at most 31 bytes and the NUL).
    pub name: FixedStr<32>,
    /// The points, `x, y, z` each.
    #[format(count = u32)]
    pub points: Vec<[f32; 3]>,
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
