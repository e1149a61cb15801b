//! Runtime for `#[derive(Codec)]`: a bounded zero-copy [`Reader`], a back-patching
//! [`Writer`], one [`Error`] type that names the byte offset and the path of fields,
//! and the types chunked binary formats are made of ([`FourCC`], [`FixedStr`],
//! [`UnknownChunk`], [`Derived`]).
//!
//! Everything is little-endian. The crate is `no_std` with `alloc`.
//!
//! ```
//! use format_core::{Codec, Context, FixedStr, decode, encode};
//!
//! /// `Texture { uint32 replaceableId; char[260] fileName; uint32 flags }`
//! #[derive(Codec, Debug, PartialEq)]
//! struct Texture {
//!     replaceable_id: u32,
//!     file_name: FixedStr<260>,
//!     flags: u32,
//! }
//!
//! /// `TEXS { Texture[size / 268] textures }`
//! #[derive(Codec, Debug, PartialEq)]
//! #[format(chunk = "TEXS")]
//! struct TextureChunk {
//!     #[format(count = size / 268)]
//!     textures: Vec<Texture>,
//! }
//!
//! let chunk = TextureChunk {
//!     textures: vec![Texture {
//!         replaceable_id: 1,
//!         file_name: FixedStr::try_from("")?,
//!         flags: 0,
//!     }],
//! };
//! let bytes = encode(&chunk, Context::new())?;
//! assert_eq!(&bytes[..8], b"TEXS\x0c\x01\x00\x00");
//! assert_eq!(decode::<TextureChunk>(&bytes, Context::new())?, chunk);
//! # Ok::<(), format_core::Error>(())
//! ```
#![cfg_attr(not(test), no_std)]
#![warn(missing_docs)]
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

extern crate alloc;
// Lets generated code name `::format_core` inside this crate's own tests.
extern crate self as format_core;

pub mod anchor;
pub mod chunk_list;
mod codec;
mod context;
mod cut;
mod derived;
mod error;
mod fixed_str;
mod fourcc;
mod hex;
pub mod kept;
mod layout;
pub mod mdl;
mod placed_read;
mod placed_write;
mod plain;
mod reader;
pub mod records;
#[cfg(feature = "serde")]
pub mod serde_array;
#[cfg(feature = "serde")]
pub mod serde_bytes;
mod unknown;
pub mod view;
mod writer;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use anchor::Anchor;
pub use chunk_list::{AfterChunk, UndecodedChunk};
pub use codec::{
    ChunkTag, Decode, Encode, HasTag, Tagged, decode, decode_each, decode_tagged, decode_until_end,
    encode,
};
pub use context::{Context, Diagnostic, Mode, TagOrder};
pub use cut::CutChunk;
pub use derived::Derived;
pub use error::{Error, ErrorKind, Expected, Result, Segment, SizeKind};
pub use fixed_str::FixedStr;
pub use fourcc::FourCC;
pub use kept::{Kept, KeptValue, Placement};
pub use layout::LayoutRow;
pub use plain::Plain;
pub use reader::{MAX_NESTING, Reader};
pub use records::Record;
pub use unknown::{UnknownChunk, UnknownTail};
pub use view::View;
pub use writer::{SizeSlot, Writer};

/// Derives [`Decode`] and [`Encode`] (and [`Tagged`], [`HasTag`], [`Plain`] where
/// they apply) from a definition annotated with `#[format(...)]`; see the
/// `format-derive` crate for the attribute reference.
#[cfg(feature = "derive")]
pub use format_derive::Codec;

/// Derives [`mdl::Block`] (a value as a block of MDL text) or [`mdl::Words`]
/// (a value enum as words) from `#[mdl(...)]` attributes; see the
/// `format-derive` crate for the attribute reference.
#[cfg(feature = "derive")]
pub use format_derive::Mdl;
