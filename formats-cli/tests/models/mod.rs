//! The model commands: check, convert, export, fix and optimize, validate,
//! damaged files, and glTF imported by convert.

pub(crate) mod check;
pub(crate) mod convert;
pub(crate) mod convert_sanity;
pub(crate) mod damaged;
pub(crate) mod export;
pub(crate) mod fix_and_optimize;
pub(crate) mod import;
pub(crate) mod validate;
