//! ADT v18 terrain tiles (`shared/seeds/004_197596b642e47697.txt`), read and
//! written byte-exact, with edits that stay consistent.
//!
//! A tile is a list of chunks ([`AdtChunk`]) with tags stored reversed on disk
//! (`MVER` is the bytes `REVM`); definitions say `MVER`. Monolithic tiles
//! (≤ WotLK) hold everything; Cataclysm split a tile into a root file (the same
//! [`Adt`] type) and `_tex`, `_obj` and Legion `_lod` files ([`split`]).
//!
//! # Offsets, sizes and counts
//!
//! The tables read like seed 004: [`SMMapHeader`](header::SMMapHeader)
//! (`MHDR`), [`SMChunkInfo`](header::SMChunkInfo) (`MCIN`), the `SMChunk`
//! fields of [`Mcnk`](mcnk::Mcnk), [`SMLiquidChunk`](mh2o::SMLiquidChunk)
//! and [`SMLiquidInstance`](mh2o::SMLiquidInstance) (`MH2O`), each offset and
//! size declared with what it points at (`offset(of = parent["MCNK"][index],
//! from = 0)`, `offset(of = chunks["MCVT"], ...)`, `placed` MH2O parts). One
//! mechanism derives them all on write from where things really are, so an
//! edited tile is always consistent. Real files sometimes wrote other values
//! (`ADT_MANIFEST.md`: MCIN sizes 8 short, an `ofsShadow` pointing at MCAL,
//! `sizeLiquid` 8 for no liquid, MH2O parts with padding between them): those
//! are kept when read (each struct's `kept`, see `format_core::kept`) and
//! written back while the data still gives what it gave, so an unedited tile
//! is byte-exact. [`Adt::recompute_offsets`] forgets them. The sub-chunk size
//! fields real writers get wrong (MCNR 435, MCLQ 0, MCAL) are kept in the
//! sub-chunk ([`mcnk`]).
//!
//! # Strict and lenient
//!
//! [`Adt::from_bytes`] is strict: the real-file quirks above are the format
//! as shipped and are read in both modes, anything else that does not decode
//! is an error naming the byte offset and the path (`chunks[84].MCNK.chunks[3].MCVT:
//! …`). [`Adt::from_bytes_lenient`] keeps such a chunk as an [`UnknownChunk`](format_core::UnknownChunk)
//! in place and reports it, and the chunk a file cut short ends inside as
//! [`AdtChunk::Cut`]; the tile still writes back byte for byte. Counts
//! are checked against the bytes left before anything is allocated.
//!
//! ```
//! use formats::adt::{Adt, AdtChunk, header::Mver, mcnk::{Mcnk, McnkChunk, Mcvt}};
//!
//! let mut mcnk = Mcnk::new(0, 0);
//! mcnk.chunks.push(McnkChunk::Mcvt(Mcvt { height: [1.5; 145] }));
//! let tile = Adt {
//!     chunks: vec![
//!         AdtChunk::Mver(Mver { version: 18 }),
//!         AdtChunk::Mhdr(Default::default()),
//!         AdtChunk::Mcnk(mcnk),
//!     ],
//! };
//! let bytes = tile.to_bytes()?;
//! assert_eq!(&bytes[..4], b"REVM");
//! // MCVT sits right after the 8 + 128 bytes of the MCNK header: ofsHeight = 136.
//! let mcnk_at = 12 + 72;
//! assert_eq!(bytes[mcnk_at + 8 + 0x14..][..4], 136u32.to_le_bytes());
//! assert_eq!(Adt::from_bytes(&bytes)?, tile);
//! # Ok::<(), formats::Error>(())
//! ```

pub mod alpha;
pub mod blend;
mod chunk;
mod custom;
mod edit;
pub mod header;
pub mod lod;
pub mod mcnk;
pub mod mh2o;
pub mod names;
pub mod placement;
pub mod split;
pub mod textures;
mod tile;
mod view;

pub use chunk::{AdtChunk, AdtChunkView};
pub use split::{SplitAdt, SplitFile};
pub use tile::{Adt, AdtView, terrain_context};
/// The file reader and writer, which WDT files share.
pub(crate) use tile::{read_file, read_view, write_file};
