//! `McnkChunk`: one MCNK sub-chunk, dispatched on its tag.

use format_core::{Codec, UnknownChunk};

use super::sub::{
    EntryRefs, Mcal, Mcbb, Mccv, Mcdd, Mclq, Mclv, Mcly, Mcmt, Mcnr, Mcrf, Mcse, Mcsh, Mcvt,
};

/// What the sub-chunk walk needs from the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SubArgs {
    /// `nDoodadRefs`: where MCRF's doodad references end.
    pub n_doodad_refs: u32,
}

/// One MCNK sub-chunk, in file order. Unknown ones are kept where they are.
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(sub: SubArgs))]
pub enum McnkChunk {
    /// `MCVT`
    #[format(chunk = "MCVT")]
    Mcvt(Mcvt),
    /// `MCCV`
    #[format(chunk = "MCCV")]
    Mccv(Mccv),
    /// `MCLV`
    #[format(chunk = "MCLV")]
    Mclv(Mclv),
    /// `MCNR`
    #[format(chunk = "MCNR")]
    Mcnr(Mcnr),
    /// `MCLY`
    #[format(chunk = "MCLY")]
    Mcly(Mcly),
    /// `MCRF`
    #[format(chunk = "MCRF", args(sub.n_doodad_refs))]
    Mcrf(Mcrf),
    /// `MCSH`
    #[format(chunk = "MCSH")]
    Mcsh(Mcsh),
    /// `MCAL`
    #[format(chunk = "MCAL")]
    Mcal(Mcal),
    /// `MCLQ`
    #[format(chunk = "MCLQ")]
    Mclq(Mclq),
    /// `MCSE`
    #[format(chunk = "MCSE")]
    Mcse(Mcse),
    /// `MCDD`
    #[format(chunk = "MCDD")]
    Mcdd(Mcdd),
    /// `MCMT`
    #[format(chunk = "MCMT")]
    Mcmt(Mcmt),
    /// `MCBB`
    #[format(chunk = "MCBB")]
    Mcbb(Mcbb),
    /// `MCRD`
    #[format(chunk = "MCRD")]
    Mcrd(EntryRefs),
    /// `MCRW`
    #[format(chunk = "MCRW")]
    Mcrw(EntryRefs),
    /// Any other sub-chunk.
    #[format(unknown)]
    Unknown(UnknownChunk),
}
