//! `AdtChunk`: one top-level chunk of an ADT file, dispatched on its tag.

use format_core::{Codec, CutChunk, UnknownChunk};

use super::blend::{Mbbb, Mbmb, Mbmh, Mbmi, Mbnv};
use super::header::{Mcin, Mfbo, Mhdr, Mver};
use super::lod::{
    LodExtents, LodIndices, Mldd, Mldl, Mlfd, Mlhd, Mlld, Mlli, Mlll, Mlln, Mllv, Mlmd, Mlnd, Mlvh,
};
use super::mcnk::Mcnk;
use super::mh2o::Mh2o;
use super::names::{FileNames, NameOffsets};
use super::placement::{Mddf, Modf};
use super::textures::{Mamp, Mtxf, Mtxp};

/// One top-level chunk of an ADT file, in file order. `M` is the MCNK type:
/// [`Mcnk`] (with its header) in monolithic and root files, [`McnkBody`](super::mcnk::McnkBody)
/// in `_tex`/`_obj` files. Unknown chunks (the all-zero pseudo-chunk of Noggit
/// files among them) are kept where they are.
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk_list(parent))]
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
    /// The last chunk of a file that ends inside it, kept as its bytes: only
    /// a lenient read makes one (see [`Adt::from_bytes_lenient`]), and
    /// writing gives the cut bytes back.
    ///
    /// [`Adt::from_bytes_lenient`]: super::Adt::from_bytes_lenient
    #[format(cut)]
    Cut(CutChunk),
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
                    AdtChunk::Cut(c) => Ok(AdtChunk::Cut(c)),
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
