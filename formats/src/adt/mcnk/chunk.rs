//! `Mcnk`: the 128-byte `SMChunk` header, field by field as seed 004 lists
//! it, then the sub-chunks; and `McnkBody`, the sub-chunks alone (split files).

use format_core::{Codec, Derived, Kept};

use super::sub_chunk::McnkChunk;
use super::walk;

/// MCNK `flags` bits.
pub mod flags {
    /// `has_mcsh`
    pub const HAS_MCSH: u32 = 0x1;
    /// `impass`
    pub const IMPASS: u32 = 0x2;
    /// `lq_river`
    pub const LQ_RIVER: u32 = 0x4;
    /// `lq_ocean`
    pub const LQ_OCEAN: u32 = 0x8;
    /// `lq_magma`
    pub const LQ_MAGMA: u32 = 0x10;
    /// `lq_slime`
    pub const LQ_SLIME: u32 = 0x20;
    /// `has_mccv`
    pub const HAS_MCCV: u32 = 0x40;
    /// `unknown_0x80`
    pub const UNKNOWN_0X80: u32 = 0x80;
    /// "fix" alpha maps in MCAL (4 bit alpha maps are 63*63 instead of 64*64).
    pub const DO_NOT_FIX_ALPHA_MAP: u32 = 0x8000;
    /// Since ~5.3 WoW uses full 64-bit to store holes for each tile if this flag is set.
    pub const HIGH_RES_HOLES: u32 = 0x1_0000;
}

use flags::HIGH_RES_HOLES;

/// `MCNK` with its header (monolithic tiles and Cata+ root files): the fields
/// up to `unused` are `SMChunk`, in the seed's order and with its names; the
/// offsets are relative to the MCNK chunk (its 8-byte header included).
///
/// Counts, offsets and sizes are derived on write from the sub-chunks; what a
/// file wrote differently (an `ofsShadow` pointing at MCAL in a chunk without
/// MCSH, a `sizeLiquid` of 8 without liquid, ...) is in [`kept`](Mcnk::kept)
/// and written back while the sub-chunks stay as they were.
///
/// ```text
/// struct SMChunk {
///   uint32_t flags; uint32_t IndexX; uint32_t IndexY; uint32_t nLayers; uint32_t nDoodadRefs;
/// #if version >= ~5.3
///   uint64_t holes_high_res;  // only used with flags.high_res_holes
/// #else
///   uint32_t ofsHeight; uint32_t ofsNormal;
/// #endif
///   uint32_t ofsLayer; uint32_t ofsRefs; uint32_t ofsAlpha; uint32_t sizeAlpha;
///   uint32_t ofsShadow; uint32_t sizeShadow; uint32_t areaid; uint32_t nMapObjRefs;
///   uint16_t holes_low_res; uint16_t unknown_but_used; uint2_t[8][8] ReallyLowQualityTextureingMap;
///   uint64_t noEffectDoodad; uint32_t ofsSndEmitters; uint32_t nSndEmitters;
///   uint32_t ofsLiquid; uint32_t sizeLiquid; C3Vector position;
///   uint32_t ofsMCCV; uint32_t ofsMCLV; uint32_t unused;
/// };
/// ```
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcnk {
    /// [`flags`]
    pub flags: u32,
    /// `IndexX`
    pub index_x: u32,
    /// `IndexY`
    pub index_y: u32,
    /// maximum 4
    #[format(calc = count::layers(chunks))]
    pub n_layers: Derived<u32>,
    /// `nDoodadRefs`
    #[format(calc = count::doodad_refs(chunks))]
    pub n_doodad_refs: Derived<u32>,
    /// only used with flags.high_res_holes (in place of `ofsHeight` and
    /// `ofsNormal`). Read as bytes, `(Holes[row] >> col) & 1` is bit `8 * row + col`.
    #[format(if = flags & HIGH_RES_HOLES != 0)]
    pub holes_high_res: Option<u64>,
    /// `ofsHeight`: MCVT
    #[format(
        if = flags & HIGH_RES_HOLES == 0,
        offset(of = chunks["MCVT"], from = start.saturating_sub(8))
    )]
    pub ofs_height: Derived<u32>,
    /// `ofsNormal`: MCNR
    #[format(
        if = flags & HIGH_RES_HOLES == 0,
        offset(of = chunks["MCNR"], from = start.saturating_sub(8))
    )]
    pub ofs_normal: Derived<u32>,
    /// `ofsLayer`: MCLY
    #[format(offset(of = chunks["MCLY"], from = start.saturating_sub(8)))]
    pub ofs_layer: Derived<u32>,
    /// `ofsRefs`: MCRF
    #[format(offset(of = chunks["MCRF"], from = start.saturating_sub(8)))]
    pub ofs_refs: Derived<u32>,
    /// `ofsAlpha`: MCAL
    #[format(offset(of = chunks["MCAL"], from = start.saturating_sub(8)))]
    pub ofs_alpha: Derived<u32>,
    /// `sizeAlpha`: MCAL with its 8-byte header
    #[format(size(of = chunks["MCAL"]))]
    pub size_alpha: Derived<u32>,
    /// only with flags.has_mcsh
    #[format(offset(of = chunks["MCSH"], from = start.saturating_sub(8)))]
    pub ofs_shadow: Derived<u32>,
    /// `sizeShadow`: MCSH without its header
    #[format(size(of = chunks["MCSH"], body))]
    pub size_shadow: Derived<u32>,
    /// in alpha: both zone id and sub zone id, as uint16s.
    pub areaid: u32,
    /// `nMapObjRefs`
    #[format(calc = count::object_refs(chunks))]
    pub n_map_obj_refs: Derived<u32>,
    /// the least significant 16 bits are used row-wise, 1 bit: a hole in that part of the chunk
    pub holes_low_res: u16,
    /// in alpha: padding
    pub unknown_but_used: u16,
    /// `uint2_t[8][8] ReallyLowQualityTextureingMap`: "predTex", which layer's
    /// detail doodads to show.
    pub really_low_quality_textureing_map: [u8; 16],
    /// WoD: may be an explicit MCDD chunk
    pub no_effect_doodad: u64,
    /// `ofsSndEmitters`: MCSE
    #[format(offset(of = chunks["MCSE"], from = start.saturating_sub(8)))]
    pub ofs_snd_emitters: Derived<u32>,
    /// will be set to 0 in the client if ofsSndEmitters doesn't point to MCSE!
    #[format(calc = count::sound_emitters(chunks))]
    pub n_snd_emitters: Derived<u32>,
    /// `ofsLiquid`: MCLQ
    #[format(offset(of = chunks["MCLQ"], from = start.saturating_sub(8)))]
    pub ofs_liquid: Derived<u32>,
    /// 8 when not used; only read if >8.
    #[format(size(of = chunks["MCLQ"]))]
    pub size_liquid: Derived<u32>,
    /// `C3Vector position`
    pub position: [f32; 3],
    /// only with flags.has_mccv
    #[format(offset(of = chunks["MCCV"], from = start.saturating_sub(8)))]
    pub ofs_mccv: Derived<u32>,
    /// introduced in Cataclysm
    #[format(offset(of = chunks["MCLV"], from = start.saturating_sub(8)))]
    pub ofs_mclv: Derived<u32>,
    /// currently unused
    pub unused: u32,
    /// The sub-chunks, in file order.
    // Hand-written (one of the few hooks left): real files write the size
    // fields of MCNR, MCLQ and MCAL wrong, and their real lengths come from
    // the header's `sizeLiquid`/`sizeAlpha` and from whether a known tag
    // follows; a declared layout has no way to try two lengths.
    #[format(read_with = walk::read(size_alpha, size_liquid, n_doodad_refs, n_snd_emitters), write_with = walk::write)]
    pub chunks: Vec<McnkChunk>,
    /// Header values this file wrote differently from its sub-chunks.
    #[format(kept)]
    pub kept: Kept,
}

/// The counts the header holds, from the first sub-chunk of each kind.
mod count {
    use crate::adt::mcnk::sub_chunk::McnkChunk;

    fn first(chunks: &[McnkChunk], pick: impl Fn(&McnkChunk) -> Option<usize>) -> usize {
        chunks.iter().find_map(pick).unwrap_or(0)
    }

    /// `nLayers`: MCLY's layers.
    pub fn layers(chunks: &[McnkChunk]) -> usize {
        first(chunks, |c| match c {
            McnkChunk::Mcly(m) => Some(m.layers.len()),
            _ => None,
        })
    }

    /// `nDoodadRefs`: MCRF's doodad references.
    pub fn doodad_refs(chunks: &[McnkChunk]) -> usize {
        first(chunks, |c| match c {
            McnkChunk::Mcrf(m) => Some(m.doodad_refs.len()),
            _ => None,
        })
    }

    /// `nMapObjRefs`: MCRF's object references.
    pub fn object_refs(chunks: &[McnkChunk]) -> usize {
        first(chunks, |c| match c {
            McnkChunk::Mcrf(m) => Some(m.object_refs.len()),
            _ => None,
        })
    }

    /// `nSndEmitters`: MCSE's emitters.
    pub fn sound_emitters(chunks: &[McnkChunk]) -> usize {
        first(chunks, |c| match c {
            McnkChunk::Mcse(m) => Some(m.emitters.len()),
            _ => None,
        })
    }
}

/// `MCNK` without its header: the `_tex` and `_obj` split files.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct McnkBody {
    /// The sub-chunks, in file order.
    #[format(until_end)]
    pub chunks: Vec<McnkChunk>,
}
