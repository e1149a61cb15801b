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
    /// sub-chunk's offset; allocates nothing.
    fn scan(chunks: &[McnkChunk], mut at: impl FnMut(u32)) -> ([Option<u32>; 17], u32) {
        let mut values = [None; 17];
        let mut pos = 8 + 128usize;
        for chunk in chunks {
            at(len32(pos));
            for (field, value) in Self::fields(chunk, pos).into_iter().flatten() {
                if let Some(slot) = values.get_mut(field.index())
                    && slot.is_none()
                {
                    *slot = Some(value);
                }
            }
            pos += chunk.disk_len();
        }
        (values, len32(pos - 8))
    }

    /// The header fields `chunk` gives when it sits at `pos` (up to three).
    ///
    /// [`value_of`](Self::value_of) states the same pairing field-first, for
    /// the writer; one table serving both cost 13 % of a tile's parse
    /// (callgrind), so there are two, and `one_field_at_a_time_agrees_with_the_whole_layout`
    /// (and its corpus twin in `tests/adt_offsets.rs`) holds them equal.
    fn fields(chunk: &McnkChunk, pos: usize) -> [Option<(McnkField, u32)>; 3] {
        use McnkField::*;
        let body = || chunk.disk_len() - 8;
        let at = |field| Some((field, len32(pos)));
        let n = |field, n: usize| Some((field, len32(n)));
        match chunk {
            McnkChunk::Mcvt(_) => [at(OfsHeight), None, None],
            McnkChunk::Mcnr(_) => [at(OfsNormal), None, None],
            McnkChunk::Mcly(m) => [at(OfsLayer), n(NLayers, m.layers.len()), None],
            McnkChunk::Mcrf(m) => [
                at(OfsRefs),
                n(NDoodadRefs, m.doodad_refs.len()),
                n(NMapObjRefs, m.object_refs.len()),
            ],
            McnkChunk::Mcal(_) => [at(OfsAlpha), n(SizeAlpha, body() + 8), None],
            McnkChunk::Mcsh(_) => [at(OfsShadow), n(SizeShadow, body()), None],
            McnkChunk::Mcse(m) => [at(OfsSndEmitters), n(NSndEmitters, m.emitters.len()), None],
            McnkChunk::Mclq(_) => [at(OfsLiquid), n(SizeLiquid, body() + 8), None],
            McnkChunk::Mccv(_) => [at(OfsMccv), None, None],
            McnkChunk::Mclv(_) => [at(OfsMclv), None, None],
            _ => [None, None, None],
        }
    }

    /// The derived value of `field` in the layout of `chunks` (`None`: its
    /// sub-chunk is absent), without building the layout: the walk stops at
    /// the first sub-chunk that gives it (the writer derives 15 header fields
    /// per MCNK this way).
    pub fn value_of(chunks: &[McnkChunk], field: McnkField) -> Option<u32> {
        use McnkField::*;
        let mut pos = 8 + 128usize;
        for chunk in chunks {
            let value = match (field, chunk) {
                (OfsHeight, McnkChunk::Mcvt(_))
                | (OfsNormal, McnkChunk::Mcnr(_))
                | (OfsLayer, McnkChunk::Mcly(_))
                | (OfsRefs, McnkChunk::Mcrf(_))
                | (OfsAlpha, McnkChunk::Mcal(_))
                | (OfsShadow, McnkChunk::Mcsh(_))
                | (OfsSndEmitters, McnkChunk::Mcse(_))
                | (OfsLiquid, McnkChunk::Mclq(_))
                | (OfsMccv, McnkChunk::Mccv(_))
                | (OfsMclv, McnkChunk::Mclv(_)) => Some(pos),
                (NLayers, McnkChunk::Mcly(m)) => Some(m.layers.len()),
                (NDoodadRefs, McnkChunk::Mcrf(m)) => Some(m.doodad_refs.len()),
                (NMapObjRefs, McnkChunk::Mcrf(m)) => Some(m.object_refs.len()),
                (NSndEmitters, McnkChunk::Mcse(m)) => Some(m.emitters.len()),
                (SizeAlpha, McnkChunk::Mcal(_)) | (SizeLiquid, McnkChunk::Mclq(_)) => {
                    Some(chunk.disk_len())
                }
                (SizeShadow, McnkChunk::Mcsh(_)) => Some(chunk.disk_len() - 8),
                _ => None,
            };
            if let Some(value) = value {
                return Some(len32(value));
            }
            pos += chunk.disk_len();
        }
        None
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
    // The common case (every Blizzard MCNK): the header agrees with the layout.
    if raw
        .iter()
        .zip(values)
        .all(|(raw, derived)| *raw == derived.unwrap_or(0))
    {
        return Ok(kept);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adt::mcnk::{Mcal, Mcly, Mcrf, Mcvt, SMLayer};

    #[test]
    fn one_field_at_a_time_agrees_with_the_whole_layout() {
        let layer = SMLayer {
            texture_id: 0,
            flags: 0,
            offset_in_mcal: 0,
            effect_id: 0,
        };
        let sets: Vec<Vec<McnkChunk>> = vec![
            vec![],
            vec![
                McnkChunk::Mcvt(Mcvt {
                    height: vec![0.0; 145],
                }),
                McnkChunk::Mcly(Mcly {
                    layers: vec![layer; 3],
                }),
                McnkChunk::Mcrf(Mcrf {
                    doodad_refs: vec![1, 2],
                    object_refs: vec![3],
                }),
                McnkChunk::Mcal(Mcal {
                    data: vec![0; 100],
                    declared_size: None,
                }),
                // A second MCLY: the header names the first one.
                McnkChunk::Mcly(Mcly { layers: vec![] }),
            ],
        ];
        for chunks in &sets {
            let layout = McnkLayout::of(chunks);
            for field in McnkField::ALL {
                assert_eq!(
                    McnkLayout::value_of(chunks, field),
                    layout.get(field),
                    "{field:?}"
                );
            }
        }
    }
}
