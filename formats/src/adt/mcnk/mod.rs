//! `MCNK`: one of the 256 map chunks of a tile, its 128-byte header and its
//! sub-chunks.
//!
//! [`Mcnk`] is the header, `SMChunk`, field by field as seed 004 lists it,
//! then the sub-chunks ([`McnkChunk`], in file order, unknown ones kept where
//! they are). The header's counts, offsets and sizes (`nLayers`, `ofsHeight`
//! … `ofsMCLV`, `sizeAlpha`, …) are declared, not stored: derived on write
//! from the sub-chunks that are really there, with what a real file wrote
//! differently kept in [`Mcnk::kept`] (see `format_core::kept`).
//!
//! The sub-chunks are walked by hand (`walk`) because three of them have
//! sizes that real files write wrong (MCNR, MCLQ, MCAL; see their types).
//! The fixed-size ones (MCVT, MCCV, MCLV, MCNR, MCSH) are inline arrays.

mod chunk;
mod edit;
mod sub;
mod sub_chunk;
mod walk;

pub use chunk::{Mcnk, McnkBody, flags};
pub use edit::MAX_LAYERS;
pub use sub::{
    BlendBatch, CWSoundEmitter, EntryRefs, Mcal, Mcbb, Mccv, MccvEntry, Mcdd, Mclq, MclqLayer,
    Mclv, Mcly, Mcmt, Mcnr, Mcrf, Mcse, Mcsh, Mcvt, SLVert, SMLayer, SWFlowv, VERTICES,
    layer_flags,
};
pub use sub_chunk::{McnkChunk, SubArgs};

/// `flags.high_res_holes`: the 8 bytes of `ofsHeight`/`ofsNormal` hold a 64-bit hole map.
pub const HIGH_RES_HOLES: u32 = flags::HIGH_RES_HOLES;
