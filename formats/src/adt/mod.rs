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
//! Every value the client navigates by (the [`Mhdr`] offsets,
//! the [`Mcin`] entries, the MCNK header's offsets, sizes and
//! counts, the MH2O offsets) is derived on write from where things really are,
//! so an edited tile is always consistent. Real files sometimes wrote other
//! values (`ADT_MANIFEST.md`: MCIN sizes 8 short, an `ofsShadow` pointing at
//! MCAL, `sizeLiquid` 8 for no liquid…): those are recorded when read
//! ([`kept`]) and written back, so an unedited tile is byte-exact.
//! [`Adt::recompute_offsets`] forgets them. The sub-chunk size fields real
//! writers get wrong (MCNR 435, MCLQ 0, MCAL) are kept the same way, in the
//! sub-chunk ([`mcnk`]).
//!
//! # Strict and lenient
//!
//! [`Adt::from_bytes`] is strict: the real-file quirks above are the format
//! as shipped and are read in both modes, anything else that does not decode
//! is an error naming the byte offset and the path (`[84].MCNK.chunks[3].MCVT:
//! …`). [`Adt::from_bytes_lenient`] keeps such a chunk as an [`UnknownChunk`]
//! in place and reports it; the tile still writes back byte for byte. Counts
//! are checked against the bytes left before anything is allocated.
//!
//! ```
//! use formats::adt::{Adt, AdtChunk, header::Mver, mcnk::{Mcnk, McnkChunk, Mcvt}};
//!
//! let mut mcnk = Mcnk::new(0, 0);
//! mcnk.chunks.push(McnkChunk::Mcvt(Mcvt { height: vec![1.5; 145] }));
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
//! # Ok::<(), format_core::Error>(())
//! ```

pub mod alpha;
pub mod blend;
mod edit;
mod file;
pub mod header;
pub mod kept;
pub mod lod;
pub mod mcnk;
pub mod mh2o;
pub mod names;
pub mod placement;
pub mod split;
pub mod textures;

use format_core::{Codec, Diagnostic, Error, Mode, UnknownChunk};

pub use file::terrain_context;
pub use split::{SplitAdt, SplitFile};

use blend::{Mbbb, Mbmb, Mbmh, Mbmi, Mbnv};
use header::{Mcin, Mfbo, Mhdr, Mver};
use lod::{
    LodExtents, LodIndices, Mldd, Mldl, Mlfd, Mlhd, Mlld, Mlli, Mlll, Mlln, Mllv, Mlmd, Mlnd, Mlvh,
};
use mcnk::Mcnk;
use mh2o::Mh2o;
use names::{FileNames, NameOffsets};
use placement::{Mddf, Modf};
use textures::{Mamp, Mtxf, Mtxp};

/// One top-level chunk of an ADT file, in file order. `M` is the MCNK type:
/// [`Mcnk`] (with its header) in monolithic and root files, [`mcnk::McnkBody`]
/// in `_tex`/`_obj` files. Unknown chunks (the all-zero pseudo-chunk of Noggit
/// files among them) are kept where they are.
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AdtChunk<M = Mcnk> {
    /// `MVER` (all files)
    #[format(chunk = "MVER")]
    Mver(Mver),
    /// `MHDR` (root)
    #[format(chunk = "MHDR")]
    Mhdr(Mhdr),
    /// `MCIN` (< Cata)
    #[format(chunk = "MCIN")]
    Mcin(Mcin),
    /// `MTEX` (tex)
    #[format(chunk = "MTEX")]
    Mtex(FileNames),
    /// `MMDX` (obj)
    #[format(chunk = "MMDX")]
    Mmdx(FileNames),
    /// `MMID` (obj)
    #[format(chunk = "MMID")]
    Mmid(NameOffsets),
    /// `MWMO` (obj)
    #[format(chunk = "MWMO")]
    Mwmo(FileNames),
    /// `MWID` (obj)
    #[format(chunk = "MWID")]
    Mwid(NameOffsets),
    /// `MDDF` (obj)
    #[format(chunk = "MDDF")]
    Mddf(Mddf),
    /// `MODF` (obj)
    #[format(chunk = "MODF")]
    Modf(Modf),
    /// `MH2O` (root)
    #[format(chunk = "MH2O")]
    Mh2o(Mh2o),
    /// `MCNK` (all but lod)
    #[format(chunk = "MCNK")]
    Mcnk(M),
    /// `MFBO` (root)
    #[format(chunk = "MFBO")]
    Mfbo(Mfbo),
    /// `MTXF` (tex)
    #[format(chunk = "MTXF")]
    Mtxf(Mtxf),
    /// `MTXP` (tex)
    #[format(chunk = "MTXP")]
    Mtxp(Mtxp),
    /// `MAMP` (tex)
    #[format(chunk = "MAMP")]
    Mamp(Mamp),
    /// `MBMH` (root)
    #[format(chunk = "MBMH")]
    Mbmh(Mbmh),
    /// `MBBB` (root)
    #[format(chunk = "MBBB")]
    Mbbb(Mbbb),
    /// `MBNV` (root)
    #[format(chunk = "MBNV")]
    Mbnv(Mbnv),
    /// `MBMI` (root)
    #[format(chunk = "MBMI")]
    Mbmi(Mbmi),
    /// `MBMB` (root)
    #[format(chunk = "MBMB")]
    Mbmb(Mbmb),
    /// `MLHD` (lod)
    #[format(chunk = "MLHD")]
    Mlhd(Mlhd),
    /// `MLVH` (lod)
    #[format(chunk = "MLVH")]
    Mlvh(Mlvh),
    /// `MLVI` (lod)
    #[format(chunk = "MLVI")]
    Mlvi(LodIndices),
    /// `MLLL` (lod)
    #[format(chunk = "MLLL")]
    Mlll(Mlll),
    /// `MLND` (lod)
    #[format(chunk = "MLND")]
    Mlnd(Mlnd),
    /// `MLSI` (lod)
    #[format(chunk = "MLSI")]
    Mlsi(LodIndices),
    /// `MLLD` (lod)
    #[format(chunk = "MLLD")]
    Mlld(Mlld),
    /// `MLLN` (lod)
    #[format(chunk = "MLLN")]
    Mlln(Mlln),
    /// `MLLV` (lod)
    #[format(chunk = "MLLV")]
    Mllv(Mllv),
    /// `MLLI` (lod)
    #[format(chunk = "MLLI")]
    Mlli(Mlli),
    /// `MLMD` (obj1)
    #[format(chunk = "MLMD")]
    Mlmd(Mlmd),
    /// `MLMX` (obj1)
    #[format(chunk = "MLMX")]
    Mlmx(LodExtents),
    /// `MLDD` (obj1)
    #[format(chunk = "MLDD")]
    Mldd(Mldd),
    /// `MLDX` (obj1)
    #[format(chunk = "MLDX")]
    Mldx(LodExtents),
    /// `MLDL` (obj1)
    #[format(chunk = "MLDL")]
    Mldl(Mldl),
    /// `MLFD` (obj1)
    #[format(chunk = "MLFD")]
    Mlfd(Mlfd),
    /// Any other chunk, kept at its position.
    #[format(unknown)]
    Unknown(UnknownChunk),
}

/// `retype()` over every variant but `Mcnk` and `Unknown`.
macro_rules! chunk_variants {
    ($($variant:ident,)*) => {
        impl<M> AdtChunk<M> {
            /// The same chunk in a list with another MCNK type; an MCNK is
            /// handed back as `Err`.
            pub fn retype<N>(self) -> Result<AdtChunk<N>, M> {
                match self {
                    $(AdtChunk::$variant(m) => Ok(AdtChunk::$variant(m)),)*
                    AdtChunk::Mcnk(m) => Err(m),
                    AdtChunk::Unknown(c) => Ok(AdtChunk::Unknown(c)),
                }
            }
        }
    };
}

chunk_variants! {
    Mver,
    Mhdr,
    Mcin,
    Mtex,
    Mmdx,
    Mmid,
    Mwmo,
    Mwid,
    Mddf,
    Modf,
    Mh2o,
    Mfbo,
    Mtxf,
    Mtxp,
    Mamp,
    Mbmh,
    Mbbb,
    Mbnv,
    Mbmi,
    Mbmb,
    Mlhd,
    Mlvh,
    Mlvi,
    Mlll,
    Mlnd,
    Mlsi,
    Mlld,
    Mlln,
    Mllv,
    Mlli,
    Mlmd,
    Mlmx,
    Mldd,
    Mldx,
    Mldl,
    Mlfd,
}

/// A monolithic ADT tile, or a Cataclysm+ root file: every chunk in file order.
///
/// Read with [`from_bytes`](Adt::from_bytes), written with
/// [`to_bytes`](Adt::to_bytes); see the [module](self) docs for how offsets are
/// derived and quirks kept.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Adt {
    /// Every chunk, in file order.
    pub chunks: Vec<AdtChunk>,
}

impl Adt {
    /// Reads a tile. Errors name the byte offset and the path of chunks and
    /// fields (`[84].MCNK.chunks[3].MCAL: …`); nothing is allocated beyond what
    /// the input can hold.
    pub fn from_bytes(data: &[u8]) -> Result<Adt, Error> {
        file::read(data, terrain_context()).map(|(chunks, _)| Adt { chunks })
    }

    /// Reads a tile leniently: a known chunk or MCNK sub-chunk whose body does
    /// not decode (a damaged or unexpected layout) is kept as an
    /// [`UnknownChunk`] in its place, and reported. The real-file quirks the
    /// strict reader already accepts (see [`mcnk`]) are not reported. The tile
    /// still writes back byte for byte.
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(Adt, Vec<Diagnostic>), Error> {
        let ctx = terrain_context().with_mode(Mode::Lenient);
        file::read(data, ctx).map(|(chunks, notes)| (Adt { chunks }, notes))
    }

    /// Writes the tile (see the [module](self) docs for the derived values).
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        file::write(&self.chunks, terrain_context())
    }
}
