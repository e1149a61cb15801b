//! `MH2O` (WotLK+): liquids, typed, with the offset-based layout of the file
//! kept for unchanged data.
//!
//! The chunk is a header of 256 `SMLiquidChunk` (at the start, the only part
//! with a fixed position), then instances, attributes, exists-bitmaps and vertex
//! data anywhere in the chunk, found by offsets relative to the chunk data.
//! Writers place them differently (Blizzard: all instance arrays, then per
//! chunk attributes, bitmaps and vertex data; Noggit Red: 8-byte bitmaps with
//! padding after them), so the layout read is kept in [`Mh2o::layout`]:
//!
//! - on write, when every element (instance array, attributes, bitmap, vertex
//!   data) still has the length it had, each goes back to its offset and the
//!   bytes between them are restored: the chunk is written as it was read;
//! - otherwise (liquid added, removed or resized) the whole chunk is laid out
//!   afresh in Blizzard's order and every offset is derived.

use format_core::{Codec, Error, Reader, Result};

/// `mh2o_chunk_attributes`.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct LiquidAttributes {
    /// seems to be usable as visibility information.
    pub fishable: u64,
    /// `uint64_t deep`
    pub deep: u64,
}

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

/// Instance vertex data by liquid vertex format (LVF); each array has
/// `(width + 1) * (height + 1)` entries.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LiquidVertexData {
    /// Case 0, height and depth data.
    HeightDepth {
        /// `float heightmap[]`
        heightmap: Vec<f32>,
        /// `char depthmap[]`
        depthmap: Vec<u8>,
    },
    /// Case 1, height and texture coordinate data.
    HeightUv {
        /// `float heightmap[]`
        heightmap: Vec<f32>,
        /// `uv_map_entry uvmap[]`
        uvmap: Vec<UvMapEntry>,
    },
    /// Case 2, depth only data (hard coded for liquid type ocean).
    Depth {
        /// `char depthmap[]`
        depthmap: Vec<u8>,
    },
    /// Case 3, height, depth and texture coordinates.
    HeightUvDepth {
        /// `float heightmap[]`
        heightmap: Vec<f32>,
        /// `uv_map_entry uvmap[]`
        uvmap: Vec<UvMapEntry>,
        /// `char depthmap[]`
        depthmap: Vec<u8>,
    },
    /// An LVF above 3 (a `LiquidObject` id, Cata+): the format is in the client's
    /// database, so the bytes are kept up to the next element of the chunk.
    Raw(#[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))] Vec<u8>),
}

/// One liquid instance (`SMLiquidInstance` with what its offsets point at).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LiquidInstance {
    /// `foreign_key<uint16_t, &LiquidTypeRec::m_ID>`
    pub liquid_type: u16,
    /// ≤ Wrath: the LVF (0..=3); later, if > 41 an id into DB/LiquidObject.
    pub liquid_object_or_lvf: u16,
    /// used as height if no heightmap given and culling
    pub min_height_level: f32,
    /// ≥ WoD ignores value and assumes to both be 0.0 for LVF = 2!
    pub max_height_level: f32,
    /// The X offset of the liquid square (0-7)
    pub x_offset: u8,
    /// The Y offset of the liquid square (0-7)
    pub y_offset: u8,
    /// The width of the liquid square (1-8)
    pub width: u8,
    /// The height of the liquid square (1-8)
    pub height: u8,
    /// `offset_exists_bitmap`: `width * height` bits, row by row, LSB first
    /// (`None`: offset 0, all exist).
    pub exists_bitmap: Option<Vec<u8>>,
    /// `offset_vertex_data` (`None`: offset 0, heights are `min_height_level`).
    pub vertex_data: Option<LiquidVertexData>,
}

impl LiquidInstance {
    /// The width and height the bitmap and vertex arrays are sized by: as
    /// stored for an LVF up to 41, 8 by 8 for a `LiquidObject` id.
    pub fn dimensions(&self) -> (usize, usize) {
        if self.liquid_object_or_lvf <= 41 {
            (usize::from(self.width), usize::from(self.height))
        } else {
            (8, 8)
        }
    }

    /// `(width + 1) * (height + 1)`: entries of each vertex array.
    pub fn vertex_count(&self) -> usize {
        let (w, h) = self.dimensions();
        (w + 1) * (h + 1)
    }

    /// `width * height` bits, whole bytes.
    pub fn bitmap_len(&self) -> usize {
        let (w, h) = self.dimensions();
        (w * h).div_ceil(8)
    }

    /// True if the tile at (`x`, `y`) of the instance's rectangle has liquid.
    pub fn exists(&self, x: usize, y: usize) -> bool {
        let (w, h) = self.dimensions();
        if x >= w || y >= h {
            return false;
        }
        let bit = y * w + x;
        match &self.exists_bitmap {
            None => true,
            Some(bits) => bits.get(bit / 8).is_some_and(|b| b >> (bit % 8) & 1 == 1),
        }
    }

    /// The vertex data's length on disk, checked against the instance's size.
    fn vertex_len(&self, data: &LiquidVertexData) -> Result<usize> {
        let n = self.vertex_count();
        let (len, ok) = match data {
            LiquidVertexData::HeightDepth {
                heightmap,
                depthmap,
            } => (
                4 * heightmap.len() + depthmap.len(),
                heightmap.len() == n && depthmap.len() == n,
            ),
            LiquidVertexData::HeightUv { heightmap, uvmap } => (
                4 * heightmap.len() + 4 * uvmap.len(),
                heightmap.len() == n && uvmap.len() == n,
            ),
            LiquidVertexData::Depth { depthmap } => (depthmap.len(), depthmap.len() == n),
            LiquidVertexData::HeightUvDepth {
                heightmap,
                uvmap,
                depthmap,
            } => (
                4 * heightmap.len() + 4 * uvmap.len() + depthmap.len(),
                heightmap.len() == n && uvmap.len() == n && depthmap.len() == n,
            ),
            LiquidVertexData::Raw(bytes) => (bytes.len(), self.liquid_object_or_lvf > 3),
        };
        if ok {
            Ok(len)
        } else {
            Err(Error::inconsistent(
                0,
                format!(
                    "liquid vertex data does not match LVF {} with {n} vertices",
                    self.liquid_object_or_lvf
                ),
            ))
        }
    }
}

/// One of the 16x16 map chunks' liquids (`SMLiquidChunk` and what it points at).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LiquidChunk {
    /// `SMLiquidInstance[layer_count]` (empty if the chunk has no liquids).
    pub instances: Vec<LiquidInstance>,
    /// `offset_attributes` (`None`: offset 0, all-0 attributes).
    pub attributes: Option<LiquidAttributes>,
}

/// Where each element of an MH2O chunk was, to write it back there (see the
/// [module](self) docs).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mh2oLayout {
    /// The chunk's size.
    pub size: u32,
    /// `(offset, length)` of every element, in the order of [`Mh2o::chunks`]:
    /// per chunk its instance array then its attributes, per instance its
    /// bitmap then its vertex data (absent ones skipped).
    pub elements: Vec<(u32, u32)>,
    /// Bytes no element covers (writer padding), with their offsets.
    pub gaps: Vec<(u32, Vec<u8>)>,
    /// `offset_instances` of chunks without instances, where not 0: `(chunk, offset)`.
    pub empty_chunk_offsets: Vec<(u32, u32)>,
}

/// `MH2O`: the liquids of the 16x16 map chunks.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mh2o {
    /// The layout read (`None` for a new chunk, or after `recompute_offsets`).
    // Hand-written: elements are placed by offsets, not in sequence.
    #[format(read_with = layout::read_layout, write_with = layout::write_layout)]
    pub layout: Option<Mh2oLayout>,
    /// `SMLiquidChunk chunks[16*16]`, with their instances.
    #[format(read_with = layout::read_chunks, write_with = layout::write_chunks, args(layout))]
    pub chunks: Vec<LiquidChunk>,
}

impl Mh2o {
    /// 256 chunks without liquid.
    pub fn new() -> Mh2o {
        Mh2o {
            layout: None,
            chunks: vec![LiquidChunk::default(); 256],
        }
    }
}

mod layout;

/// Reads the instance array at `offset` (used by the layout module).
fn read_instance_records(
    r: &Reader<'_>,
    offset: usize,
    count: usize,
) -> Result<Vec<SMLiquidInstance>> {
    let mut sub = r.clone();
    sub.skip(offset)?;
    let count = sub.check_count(count as u64, 24)?;
    sub.plain_vec(count)
}

/// `SMLiquidInstance` as on disk (24 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[format(plain)]
#[repr(C)]
struct SMLiquidInstance {
    liquid_type: u16,
    liquid_object_or_lvf: u16,
    min_height_level: f32,
    max_height_level: f32,
    x_offset: u8,
    y_offset: u8,
    width: u8,
    height: u8,
    offset_exists_bitmap: u32,
    offset_vertex_data: u32,
}
