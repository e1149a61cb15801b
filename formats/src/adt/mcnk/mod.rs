//! `MCNK`: one of the 256 map chunks of a tile, its 128-byte header and its
//! sub-chunks.
//!
//! The header's offsets, sizes and counts (`ofsHeight` … `ofsMCLV`, `nLayers`,
//! `sizeAlpha`, …) are `Derived`: computed on write from the sub-chunks that
//! are really there ([`McnkLayout`]), with the values a real file wrote
//! differently kept in [`Mcnk::kept`] (see [`kept`](crate::adt::kept)). The
//! sub-chunks are walked by hand (see `Mcnk::chunks`) because three of them have sizes
//! that real files write wrong (MCNR, MCLQ, MCAL; see their types).

mod edit;
mod nav;
mod sub;
mod walk;

pub use nav::{HIGH_RES_HOLES, McnkField, McnkLayout};
pub use sub::{
    BlendBatch, CWSoundEmitter, EntryRefs, Mcal, Mcbb, Mccv, MccvEntry, Mcdd, Mclq, MclqLayer,
    Mclv, Mcly, Mcmt, Mcnr, Mcrf, Mcse, Mcsh, Mcvt, SLVert, SMLayer, SWFlowv, layer_flags,
};

use format_core::{Codec, Derived, UnknownChunk};

use super::kept::Kept;

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
    pub const HIGH_RES_HOLES: u32 = super::HIGH_RES_HOLES;
}

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

impl McnkChunk {
    /// Bytes on disk, header included (a trailing MCNR padding counts, whatever
    /// the declared size says). [`Mcnk`]'s writer checks every sub-chunk lands
    /// where this says.
    pub fn disk_len(&self) -> usize {
        8 + match self {
            McnkChunk::Mcvt(m) => 4 * m.height.len(),
            McnkChunk::Mccv(m) => 4 * m.entries.len(),
            McnkChunk::Mclv(m) => 4 * m.values.len(),
            McnkChunk::Mcnr(m) => 3 * m.entries.len() + if m.padding.is_some() { 13 } else { 0 },
            McnkChunk::Mcly(m) => 16 * m.layers.len(),
            McnkChunk::Mcrf(m) => 4 * (m.doodad_refs.len() + m.object_refs.len()),
            McnkChunk::Mcsh(m) => 8 * m.shadow_map.len(),
            McnkChunk::Mcal(m) => m.data.len(),
            McnkChunk::Mclq(m) => 804 * m.layers.len(),
            McnkChunk::Mcse(m) => 28 * m.emitters.len(),
            McnkChunk::Mcdd(m) => m.disable.len(),
            McnkChunk::Mcmt(_) => 4,
            McnkChunk::Mcbb(m) => 20 * m.batches.len(),
            McnkChunk::Mcrd(m) | McnkChunk::Mcrw(m) => 4 * m.entries.len(),
            McnkChunk::Unknown(c) => c.bytes.len(),
        }
    }
}

/// `MCNK` with its header (monolithic tiles and Cata+ root files).
///
/// The header is `SMChunk` (128 bytes); the `Derived` fields are written from
/// the sub-chunks (see the [module](self) docs).
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
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::NLayers))]
    pub n_layers: Derived<u32>,
    /// `nDoodadRefs`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::NDoodadRefs))]
    pub n_doodad_refs: Derived<u32>,
    /// `ofsHeight` (the low half of `holes_high_res` with `flags.high_res_holes`)
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsHeight))]
    pub ofs_height: Derived<u32>,
    /// `ofsNormal` (the high half of `holes_high_res` with `flags.high_res_holes`)
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsNormal))]
    pub ofs_normal: Derived<u32>,
    /// `ofsLayer`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsLayer))]
    pub ofs_layer: Derived<u32>,
    /// `ofsRefs`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsRefs))]
    pub ofs_refs: Derived<u32>,
    /// `ofsAlpha`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsAlpha))]
    pub ofs_alpha: Derived<u32>,
    /// `sizeAlpha`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::SizeAlpha))]
    pub size_alpha: Derived<u32>,
    /// only with flags.has_mcsh
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsShadow))]
    pub ofs_shadow: Derived<u32>,
    /// `sizeShadow`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::SizeShadow))]
    pub size_shadow: Derived<u32>,
    /// in alpha: both zone id and sub zone id, as uint16s.
    pub areaid: u32,
    /// `nMapObjRefs`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::NMapObjRefs))]
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
    /// `ofsSndEmitters`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsSndEmitters))]
    pub ofs_snd_emitters: Derived<u32>,
    /// will be set to 0 in the client if ofsSndEmitters doesn't point to MCSE!
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::NSndEmitters))]
    pub n_snd_emitters: Derived<u32>,
    /// `ofsLiquid`
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsLiquid))]
    pub ofs_liquid: Derived<u32>,
    /// 8 when not used; only read if >8.
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::SizeLiquid))]
    pub size_liquid: Derived<u32>,
    /// `C3Vector position`
    pub position: [f32; 3],
    /// only with flags.has_mccv
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsMccv))]
    pub ofs_mccv: Derived<u32>,
    /// introduced in Cataclysm
    #[format(calc = nav::value(chunks, kept, holes_high_res, McnkField::OfsMclv))]
    pub ofs_mclv: Derived<u32>,
    /// currently unused
    pub unused: u32,
    /// The sub-chunks, in file order.
    // Hand-written: MCNR, MCLQ and MCAL sizes in real files need the header's
    // sizes to be walked (see `walk`).
    #[format(
        read_with = walk::read,
        write_with = walk::write,
        args(size_alpha, size_liquid, n_doodad_refs, n_snd_emitters)
    )]
    pub chunks: Vec<McnkChunk>,
    /// `uint64_t holes_high_res` (≥ ~5.3): in place of `ofsHeight`/`ofsNormal`
    /// when `flags.high_res_holes` is set; read as bytes, `(Holes[row] >> col) & 1`
    /// is bit `8 * row + col`.
    #[format(
        if = flags & HIGH_RES_HOLES != 0,
        read_with = nav::read_holes,
        write_with = nav::write_holes,
        args(ofs_height, ofs_normal)
    )]
    pub holes_high_res: Option<u64>,
    /// Header values this file wrote differently from the layout (see
    /// [`kept`](crate::adt::kept)). Nothing on disk.
    #[format(
        read_with = nav::capture,
        write_with = nav::write_capture,
        args(
            [
                n_layers, n_doodad_refs, ofs_height, ofs_normal, ofs_layer, ofs_refs,
                ofs_alpha, size_alpha, ofs_shadow, size_shadow, n_map_obj_refs,
                ofs_snd_emitters, n_snd_emitters, ofs_liquid, size_liquid, ofs_mccv,
                ofs_mclv,
            ],
            chunks,
            flags
        )
    )]
    pub kept: Kept<McnkField>,
}

/// `MCNK` without its header: the `_tex` and `_obj` split files.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct McnkBody {
    /// The sub-chunks, in file order.
    #[format(until_end)]
    pub chunks: Vec<McnkChunk>,
}
