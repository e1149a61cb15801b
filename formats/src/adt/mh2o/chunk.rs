//! The MH2O header (`SMLiquidChunk[256]`) and the instances it points at.

use format_core::{Codec, Derived, Kept};

use super::vertex::LiquidVertexData;

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

/// The width and height an instance's bitmap and vertex arrays are sized by:
/// as stored for an LVF up to 41, 8 by 8 for a `LiquidObject` id.
fn dimensions(liquid_object_or_lvf: u16, width: u8, height: u8) -> (usize, usize) {
    if liquid_object_or_lvf <= 41 {
        (usize::from(width), usize::from(height))
    } else {
        (8, 8)
    }
}

/// `width * height` bits, in whole bytes.
fn bitmap_len(liquid_object_or_lvf: u16, width: u8, height: u8) -> usize {
    let (w, h) = dimensions(liquid_object_or_lvf, width, height);
    (w * h).div_ceil(8)
}

/// `(width + 1) * (height + 1)`: entries of each vertex array.
fn vertex_count(liquid_object_or_lvf: u16, width: u8, height: u8) -> usize {
    let (w, h) = dimensions(liquid_object_or_lvf, width, height);
    (w + 1) * (h + 1)
}

/// `SMLiquidInstance` (24 bytes) and what its offsets point at; offsets are
/// relative to the MH2O data (`base`).
///
/// ```text
/// struct SMLiquidInstance {
///   foreign_key<uint16_t, &LiquidTypeRec::m_ID> liquid_type;
///   uint16_t liquid_object_or_lvf;
///   float min_height_level; float max_height_level;
///   uint8_t x_offset; uint8_t y_offset; uint8_t width; uint8_t height;
///   uint32_t offset_exists_bitmap;  // width * height bits, 0: all exist
///   uint32_t offset_vertex_data;    // 0: heights are min_height_level
/// };
/// ```
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(base: usize))]
pub struct SMLiquidInstance {
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
    /// `offset_exists_bitmap`
    #[format(offset(of = exists_bitmap, from = base))]
    pub offset_exists_bitmap: Derived<u32>,
    /// `offset_vertex_data`
    #[format(offset(of = vertex_data, from = base))]
    pub offset_vertex_data: Derived<u32>,
    /// `width * height` bits, row by row, LSB first (`None`: offset 0, all exist).
    #[format(placed, count = bitmap_len(liquid_object_or_lvf, width, height))]
    pub exists_bitmap: Option<Vec<u8>>,
    /// The vertex data (`None`: offset 0, heights are `min_height_level`).
    #[format(
        placed,
        args(
            liquid_object_or_lvf,
            vertex_count(liquid_object_or_lvf, width, height),
            base
        )
    )]
    pub vertex_data: Option<LiquidVertexData>,
    /// Offsets this file wrote without a part to point at.
    #[format(kept)]
    pub kept: Kept,
}

/// The name the instances had before they were declared as `SMLiquidInstance`.
pub type LiquidInstance = SMLiquidInstance;

impl SMLiquidInstance {
    /// The width and height the bitmap and vertex arrays are sized by: as
    /// stored for an LVF up to 41, 8 by 8 for a `LiquidObject` id.
    pub fn dimensions(&self) -> (usize, usize) {
        dimensions(self.liquid_object_or_lvf, self.width, self.height)
    }

    /// `(width + 1) * (height + 1)`: entries of each vertex array.
    pub fn vertex_count(&self) -> usize {
        vertex_count(self.liquid_object_or_lvf, self.width, self.height)
    }

    /// `width * height` bits, whole bytes.
    pub fn bitmap_len(&self) -> usize {
        bitmap_len(self.liquid_object_or_lvf, self.width, self.height)
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
}

/// `SMLiquidChunk` (12 bytes): one of the 16x16 map chunks' liquids, and what
/// its offsets (relative to the MH2O data, `base`) point at.
///
/// ```text
/// struct SMLiquidChunk {
///   uint32_t offset_instances;  // SMLiquidInstance[layer_count]
///   uint32_t layer_count;       // 0 if the chunk has no liquids
///   uint32_t offset_attributes; // mh2o_chunk_attributes, 0 for none
/// };
/// ```
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(base: usize))]
pub struct SMLiquidChunk {
    /// `offset_instances`
    #[format(offset(of = instances, from = base))]
    pub offset_instances: Derived<u32>,
    /// `layer_count`
    #[format(calc = instances.len())]
    pub layer_count: Derived<u32>,
    /// `offset_attributes`
    #[format(offset(of = attributes, from = base))]
    pub offset_attributes: Derived<u32>,
    /// `SMLiquidInstance[layer_count]` (empty if the chunk has no liquids).
    #[format(placed, count = layer_count, args(base))]
    pub instances: Vec<SMLiquidInstance>,
    /// The attributes (`None`: offset 0).
    #[format(placed)]
    pub attributes: Option<LiquidAttributes>,
    /// Offsets this file wrote without a part to point at.
    #[format(kept)]
    pub kept: Kept,
}

/// The name the chunks had before they were declared as `SMLiquidChunk`.
pub type LiquidChunk = SMLiquidChunk;

/// `MH2O`: `SMLiquidChunk chunks[16*16]` and everything they point at.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(region)]
pub struct Mh2o {
    /// `SMLiquidChunk chunks[16*16]`, with their instances.
    #[format(count = 256, args(start))]
    pub chunks: Vec<SMLiquidChunk>,
    /// Where this file placed the parts, when not one after the other.
    #[format(kept)]
    pub kept: Kept,
}

impl Mh2o {
    /// 256 chunks without liquid.
    pub fn new() -> Mh2o {
        Mh2o {
            chunks: vec![SMLiquidChunk::default(); 256],
            kept: Kept::new(),
        }
    }

    /// Forgets where the file put each part: the next write lays the chunk
    /// out afresh.
    pub fn recompute_offsets(&mut self) {
        self.kept.clear();
        for chunk in &mut self.chunks {
            chunk.kept.clear();
            for instance in &mut chunk.instances {
                instance.kept.clear();
            }
        }
    }
}
