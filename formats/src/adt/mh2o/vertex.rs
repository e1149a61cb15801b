//! An instance's vertex data, by liquid vertex format (LVF); each array has
//! `(width + 1) * (height + 1)` entries.

use format_core::{Codec, Reader, Result};

/// `uv_map_entry`: divided by 8 for shaders.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct UvMapEntry {
    /// `uint16_t x`
    pub x: u16,
    /// `uint16_t y`
    pub y: u16,
}

/// Case 0, height and depth data.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(n: usize))]
pub struct HeightDepth {
    /// `float heightmap[]`
    #[format(count = n)]
    pub heightmap: Vec<f32>,
    /// `char depthmap[]`
    #[format(count = n)]
    pub depthmap: Vec<u8>,
}

/// Case 1, height and texture coordinate data.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(n: usize))]
pub struct HeightUv {
    /// `float heightmap[]`
    #[format(count = n)]
    pub heightmap: Vec<f32>,
    /// `uv_map_entry uvmap[]`
    #[format(count = n)]
    pub uvmap: Vec<UvMapEntry>,
}

/// Case 2, depth only data (hard coded for liquid type ocean).
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(n: usize))]
pub struct Depth {
    /// `char depthmap[]`
    #[format(count = n)]
    pub depthmap: Vec<u8>,
}

/// Case 3, height, depth and texture coordinates.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(n: usize))]
pub struct HeightUvDepth {
    /// `float heightmap[]`
    #[format(count = n)]
    pub heightmap: Vec<f32>,
    /// `uv_map_entry uvmap[]`
    #[format(count = n)]
    pub uvmap: Vec<UvMapEntry>,
    /// `char depthmap[]`
    #[format(count = n)]
    pub depthmap: Vec<u8>,
}

/// Vertex data of an LVF above 3 (a `LiquidObject` id, Cata+): its layout is in
/// the client's database, so the bytes are kept, up to the next part of the
/// chunk.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(base: usize))]
pub struct RawVertexData {
    /// The bytes.
    // A read hook: how long data of an unknown layout is can only be told by
    // where the next part of the MH2O chunk starts, which takes every offset
    // of the chunk (a declaration sees its own struct's fields only).
    #[format(until_end, read_with = read_to_next_part(base))]
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))]
    pub bytes: Vec<u8>,
}

/// Instance vertex data by liquid vertex format (LVF).
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(lvf: u16, n: usize, base: usize))]
pub enum LiquidVertexData {
    /// Case 0, height and depth data.
    #[format(when = lvf == 0, args(n))]
    HeightDepth(HeightDepth),
    /// Case 1, height and texture coordinate data.
    #[format(when = lvf == 1, args(n))]
    HeightUv(HeightUv),
    /// Case 2, depth only data (hard coded for liquid type ocean).
    #[format(when = lvf == 2, args(n))]
    Depth(Depth),
    /// Case 3, height, depth and texture coordinates.
    #[format(when = lvf == 3, args(n))]
    HeightUvDepth(HeightUvDepth),
    /// An LVF above 3: the bytes, kept.
    #[format(when = lvf > 3, args(base))]
    Raw(RawVertexData),
}

impl LiquidVertexData {
    /// The heights, if this format has them.
    pub fn heightmap(&self) -> Option<&[f32]> {
        match self {
            LiquidVertexData::HeightDepth(d) => Some(&d.heightmap),
            LiquidVertexData::HeightUv(d) => Some(&d.heightmap),
            LiquidVertexData::HeightUvDepth(d) => Some(&d.heightmap),
            LiquidVertexData::Depth(_) | LiquidVertexData::Raw(_) => None,
        }
    }

    /// The depths, if this format has them.
    pub fn depthmap(&self) -> Option<&[u8]> {
        match self {
            LiquidVertexData::HeightDepth(d) => Some(&d.depthmap),
            LiquidVertexData::Depth(d) => Some(&d.depthmap),
            LiquidVertexData::HeightUvDepth(d) => Some(&d.depthmap),
            LiquidVertexData::HeightUv(_) | LiquidVertexData::Raw(_) => None,
        }
    }
}

/// The bytes from here to the next part of the MH2O chunk whose data starts
/// at `base` (or the chunk's end). The parts' starts are gathered once per
/// chunk from its header and instance records.
fn read_to_next_part(r: &mut Reader<'_>, base: usize) -> Result<Vec<u8>> {
    let here = r.pos();
    let starts = r.region_starts(|data, end| part_starts(data, base, end));
    let next = starts
        .iter()
        .copied()
        .find(|&s| s > here)
        .unwrap_or(r.end())
        .min(r.end());
    r.bytes(next - here).map(<[u8]>::to_vec)
}

/// Every part start (absolute, sorted) of the MH2O chunk at `base..end`.
fn part_starts(data: &[u8], base: usize, end: usize) -> Vec<usize> {
    let word = |at: usize| -> Option<usize> {
        let bytes = data.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?) as usize)
    };
    let mut starts = Vec::new();
    let mut push = |offset: usize| {
        if offset != 0 && base + offset < end {
            starts.push(base + offset);
        }
    };
    for chunk in 0..256 {
        let at = base + 12 * chunk;
        let (Some(instances), Some(count), Some(attributes)) =
            (word(at), word(at + 4), word(at + 8))
        else {
            break;
        };
        push(instances);
        push(attributes);
        // As many records as fit before the chunk's end, no more.
        let fit = end.saturating_sub(base + instances) / 24;
        for k in 0..count.min(fit) {
            let record = base + instances + 24 * k;
            push(word(record + 16).unwrap_or(0));
            push(word(record + 20).unwrap_or(0));
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
}
