//! `MH2O` (WotLK+): liquids, typed, read once through the offsets the file
//! declares.
//!
//! The chunk is a header of 256 [`SMLiquidChunk`] (at the start, the only part
//! with a fixed position), then instance arrays, attributes, exists-bitmaps
//! and vertex data anywhere in the chunk, found by offsets relative to the
//! chunk data. These are `placed` fields: read where their offsets point, and
//! written after the header with every offset derived. Writers place them
//! differently (Blizzard: all instance arrays, then per chunk attributes,
//! bitmaps and vertex data; Noggit Red: 8-byte bitmaps with padding after
//! them), so [`Mh2o`] is a `region` that keeps where a file put each part and
//! the bytes between them, and puts them back there while the parts keep
//! their lengths; otherwise the chunk is laid out afresh.

mod chunk;
mod vertex;

pub use chunk::{
    LiquidAttributes, LiquidChunk, LiquidInstance, Mh2o, SMLiquidChunk, SMLiquidInstance,
};
pub use vertex::{
    Depth, HeightDepth, HeightUv, HeightUvDepth, LiquidVertexData, RawVertexData, UvMapEntry,
};
