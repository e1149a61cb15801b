//! Conversion between Reforged and classic models: versions, sequence layout, proptest.

pub(crate) mod layout;
pub(crate) mod properties;
pub(crate) mod versions;
