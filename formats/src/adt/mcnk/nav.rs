//! The MCNK header's navigation fields: where each sub-chunk is, how large,
//! how many entries, derived from the sub-chunks on write.

use format_core::{Reader, Result, Writer};

use super::McnkChunk;
use crate::adt::kept::Kept;

/// The MCNK header fields that are derived from the sub-chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum McnkField {
    /// `nLayers`: MCLY entries.
    NLayers,
    /// `nDoodadRefs`: MCRF doodad references.
    NDoodadRefs,
    /// `ofsHeight`: MCVT.
    OfsHeight,
    /// `ofsNormal`: MCNR.
    OfsNormal,
    /// `ofsLayer`: MCLY.
    OfsLayer,
    /// `ofsRefs`: MCRF.
    OfsRefs,
    /// `ofsAlpha`: MCAL.
    OfsAlpha,
    /// `sizeAlpha`: MCAL's real length plus its 8-byte header.
    SizeAlpha,
    /// `ofsShadow`: MCSH.
    OfsShadow,
    /// `sizeShadow`: MCSH's length.
    SizeShadow,
    /// `nMapObjRefs`: MCRF object references.
    NMapObjRefs,
    /// `ofsSndEmitters`: MCSE.
    OfsSndEmitters,
    /// `nSndEmitters`: MCSE entries.
    NSndEmitters,
    /// `ofsLiquid`: MCLQ.
    OfsLiquid,
    /// `sizeLiquid`: MCLQ's real length plus its 8-byte header.
    SizeLiquid,
    /// `ofsMCCV`: MCCV.
    OfsMccv,
    /// `ofsMCLV`: MCLV.
    OfsMclv,
}

impl McnkField {
    /// Every field, in on-disk order.
    pub const ALL: [McnkField; 17] = [
        McnkField::NLayers,
        McnkField::NDoodadRefs,
        McnkField::OfsHeight,
        McnkField::OfsNormal,
        McnkField::OfsLayer,
        McnkField::OfsRefs,
        McnkField::OfsAlpha,
        McnkField::SizeAlpha,
        McnkField::OfsShadow,
        McnkField::SizeShadow,
        McnkField::NMapObjRefs,
        McnkField::OfsSndEmitters,
        McnkField::NSndEmitters,
        McnkField::OfsLiquid,
        McnkField::SizeLiquid,
        McnkField::OfsMccv,
        McnkField::OfsMclv,
    ];

    /// The position in [`McnkField::ALL`] (declaration order is disk order).
    fn index(self) -> usize {
        self as usize
    }
}

/// `flags.high_res_holes`: the 8 bytes of `ofsHeight`/`ofsNormal` hold a 64-bit hole map.
pub const HIGH_RES_HOLES: u32 = 0x1_0000;

/// Where the sub-chunks of one MCNK are (offsets from the MCNK tag), and the
/// values of the derived header fields (`None` where the sub-chunk is absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McnkLayout {
    /// Offset of each sub-chunk's tag from the MCNK tag, in order.
    pub offsets: Vec<u32>,
    /// The derived header values, in [`McnkField::ALL`] order.
    pub values: [Option<u32>; 17],
    /// The MCNK's body size (header and sub-chunks).
    pub body_size: u32,
}

fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl McnkLayout {
    /// The layout of `chunks` after the 128-byte header. The first sub-chunk of
    /// each kind is the one the header points at.
    pub fn of(chunks: &[McnkChunk]) -> McnkLayout {
        let mut offsets = Vec::with_capacity(chunks.len());
        let (values, body_size) = Self::scan(chunks, |offset| offsets.push(offset));
        McnkLayout {
            offsets,
            values,
            body_size,
        }
    }

    /// The derived header values and the body size, calling `at` with each
    /// sub-chunk's offset; allocates nothing (the writer derives 15 header
    /// fields per MCNK from it).
    fn scan(chunks: &[McnkChunk], mut at: impl FnMut(u32)) -> ([Option<u32>; 17], u32) {
        let mut values = [None; 17];
        let mut set = |field: McnkField, value: usize| {
            if let Some(slot) = values.get_mut(field.index())
                && slot.is_none()
            {
                *slot = Some(len32(value));
            }
        };
        let mut pos = 8 + 128usize;
        for chunk in chunks {
            at(len32(pos));
            let body = chunk.disk_len() - 8;
            match chunk {
                McnkChunk::Mcvt(_) => set(McnkField::OfsHeight, pos),
                McnkChunk::Mcnr(_) => set(McnkField::OfsNormal, pos),
                McnkChunk::Mcly(m) => {
                    set(McnkField::OfsLayer, pos);
                    set(McnkField::NLayers, m.layers.len());
                }
                McnkChunk::Mcrf(m) => {
                    set(McnkField::OfsRefs, pos);
                    set(McnkField::NDoodadRefs, m.doodad_refs.len());
                    set(McnkField::NMapObjRefs, m.object_refs.len());
                }
                McnkChunk::Mcal(_) => {
                    set(McnkField::OfsAlpha, pos);
                    set(McnkField::SizeAlpha, body + 8);
                }
                McnkChunk::Mcsh(_) => {
                    set(McnkField::OfsShadow, pos);
                    set(McnkField::SizeShadow, body);
                }
                McnkChunk::Mcse(m) => {
                    set(McnkField::OfsSndEmitters, pos);
                    set(McnkField::NSndEmitters, m.emitters.len());
                }
                McnkChunk::Mclq(_) => {
                    set(McnkField::OfsLiquid, pos);
                    set(McnkField::SizeLiquid, body + 8);
                }
                McnkChunk::Mccv(_) => set(McnkField::OfsMccv, pos),
                McnkChunk::Mclv(_) => set(McnkField::OfsMclv, pos),
                _ => {}
            }
            pos += chunk.disk_len();
        }
        (values, len32(pos - 8))
    }

    /// The derived value of `field` in the layout of `chunks` (`None`: its
    /// sub-chunk is absent), without building the layout.
    pub fn value_of(chunks: &[McnkChunk], field: McnkField) -> Option<u32> {
        Self::scan(chunks, |_| {})
            .0
            .get(field.index())
            .copied()
            .flatten()
    }

    /// The derived value of `field` (`None`: its sub-chunk is absent).
    pub fn get(&self, field: McnkField) -> Option<u32> {
        self.values.get(field.index()).copied().flatten()
    }
}

/// The value written for `field`: the layout's, with a kept value applied, or
/// half of the 64-bit hole map for `ofsHeight`/`ofsNormal` when
/// `flags.high_res_holes` is set.
pub fn value(
    chunks: &[McnkChunk],
    kept: &Kept<McnkField>,
    holes_high_res: &Option<u64>,
    field: McnkField,
) -> u32 {
    match (field, holes_high_res) {
        (McnkField::OfsHeight, Some(holes)) => *holes as u32,
        (McnkField::OfsNormal, Some(holes)) => (*holes >> 32) as u32,
        _ => kept.resolve(field, McnkLayout::value_of(chunks, field)),
    }
}

/// Reads nothing: records which of the header values just read (`raw`, in
/// [`McnkField::ALL`] order) differ from the layout of the sub-chunks read.
// Hand-written: the comparison needs the values of `Derived` fields, which a
// declaration reads but does not store.
pub(super) fn capture(
    _: &mut Reader<'_>,
    raw: [u32; 17],
    chunks: &[McnkChunk],
    flags: u32,
) -> Result<Kept<McnkField>> {
    let (values, _) = McnkLayout::scan(chunks, |_| {});
    let mut kept = Kept::new();
    for ((field, raw), derived) in McnkField::ALL.into_iter().zip(raw).zip(values) {
        let holes = matches!(field, McnkField::OfsHeight | McnkField::OfsNormal);
        if !(holes && flags & HIGH_RES_HOLES != 0) {
            kept.capture(field, raw, derived);
        }
    }
    Ok(kept)
}

/// Writes nothing (the kept values reach the disk through the derived fields).
pub(super) fn write_capture(
    _: &Kept<McnkField>,
    _: &mut Writer,
    _: [u32; 17],
    _: &[McnkChunk],
    _: u32,
) -> Result<()> {
    Ok(())
}

/// Reads nothing: the hole map is the `ofsHeight`/`ofsNormal` pair just read.
pub(super) fn read_holes(_: &mut Reader<'_>, low: u32, high: u32) -> Result<u64> {
    Ok(u64::from(low) | (u64::from(high) << 32))
}

/// Writes nothing (the hole map reaches the disk through `ofsHeight`/`ofsNormal`).
pub(super) fn write_holes(_: &u64, _: &mut Writer, _: u32, _: u32) -> Result<()> {
    Ok(())
}
