//! Legion level-of-detail chunks: `ML**` of `_lod.adt` (terrain, liquids) and of
//! `_obj1.adt` (objects at a distance).

use format_core::Codec;

use super::placement::{CAaBox, SMDoodadDef};

/// `MLHD`: `uint32_t unknown; float some_kind_of_bounding[6];`
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mlhd {
    /// `uint32_t unknown`
    pub unknown: u32,
    /// `float some_kind_of_bounding[6]`
    pub some_kind_of_bounding: [f32; 6],
}

/// `MLVH`: `float ml_v_heightData[129*129 + 128*128 + additional]`: interleaved
/// global height map plus additional data of not fixed size.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mlvh {
    /// The heights.
    #[format(count = size / 4)]
    pub height_data: Vec<f32>,
}

/// `MLVI`, `MLSI`: `uint16_t` index lists (`ml_v_indices`, `ml_skirtIndices` into MLVH).
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LodIndices {
    /// The indices.
    #[format(count = size / 2)]
    pub indices: Vec<u16>,
}

/// One `MLLL` lod band (20 bytes). Lod is reverse here: the lower lod is, the
/// more surface is detailed.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct LodLevel {
    /// lod bands: 32, 16, 8…
    pub lod: f32,
    /// `uint32_t height_length`
    pub height_length: u32,
    /// index into MLVI
    pub height_index: u32,
    /// `uint32_t mapAreaLow_length` (same data as in the WDL file; 0 for the most detailed layer)
    pub map_area_low_length: u32,
    /// index into MLVI
    pub map_area_low_index: u32,
}

/// `MLLL`: lod bands.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mlll {
    /// `ml_ll[]`
    #[format(count = size / 20)]
    pub levels: Vec<LodLevel>,
}

/// One `MLND` quad tree node (24 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct LodNode {
    /// index into MLVI
    pub index: u32,
    /// number of elements in MLVI used
    pub length: u32,
    /// `uint32_t _2`
    pub unknown_2: u32,
    /// `uint32_t _3`
    pub unknown_3: u32,
    /// indexes into MLND for child leaves
    pub indices: [u16; 4],
}

/// `MLND`: the quad tree for lod.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mlnd {
    /// `ml_nd[]`
    #[format(count = size / 24)]
    pub nodes: Vec<LodNode>,
}

/// `MLLD`: `SMLodLiquidData { uint32_t m_flags; … compressed (rle?) or
/// uncompressed data, two blobs (16384 and 2048) }` (layout not known further:
/// the flags and the bytes that follow).
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mlld {
    /// 1: `Flag_HasTileData`, 2: `_compressed_A`, 4: `_compressed_B`
    pub flags: u32,
    /// The data blobs.
    #[format(until_end)]
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))]
    pub data: Vec<u8>,
}

/// `MLLN`: introduces a new liquid; the following MLLI defines the indices, the next MLLV the vertices.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mlln {
    /// `uint32_t _0`
    pub unknown_0: u32,
    /// MLLI
    pub num_indices: u32,
    /// `uint32_t _2`
    pub unknown_2: u32,
    /// `uint16_t _3a`
    pub unknown_3a: u16,
    /// `uint16_t _3b`
    pub unknown_3b: u16,
    /// `uint32_t _4`
    pub unknown_4: u32,
    /// `uint32_t _5`
    pub unknown_5: u32,
}

/// `MLLV`: `C3Vector ml_liquid_vertices[]`.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mllv {
    /// The vertices.
    #[format(count = size / 12)]
    pub vertices: Vec<[f32; 3]>,
}

/// `MLLI`: `C3sVector ml_liquid_indices[]`: 3 shorts into MLLV.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mlli {
    /// The triangles.
    #[format(count = size / 6)]
    pub indices: Vec<[u16; 3]>,
}

/// One `MLMD` entry (40 bytes): same as MODF but without bounding box.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct LodObjectDef {
    /// `uint32_t mwidEntry`
    pub mwid_entry: u32,
    /// `uint32_t uniqueId`
    pub unique_id: u32,
    /// `C3Vector position`
    pub position: [f32; 3],
    /// `C3Vector rotation`
    pub rotation: [f32; 3],
    /// `uint16_t flags`
    pub flags: u16,
    /// `uint16_t doodadSet`
    pub doodad_set: u16,
    /// `uint16_t nameSet`
    pub name_set: u16,
    /// `uint16_t unk`
    pub unk: u16,
}

/// `MLMD` (obj1): `lod_object_defs[]`.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mlmd {
    /// The WMO placements.
    #[format(count = size / 40)]
    pub lod_object_defs: Vec<LodObjectDef>,
}

/// An `MLMX`/`MLDX` entry (28 bytes): `CAaBox bounding; float radius;`.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct LodExtent {
    /// `CAaBox bounding`
    pub bounding: CAaBox,
    /// `float radius`
    pub radius: f32,
}

/// `MLMX`, `MLDX` (obj1): `lod_object_extents[]` / `lod_doodad_extents[]`, same count as MLMD / MLDD.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LodExtents {
    /// The extents.
    #[format(count = size / 28)]
    pub extents: Vec<LodExtent>,
}

/// `MLDD` (obj1): `SMDoodadDef lod_doodad_defs[]` (see MDDF).
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mldd {
    /// The doodad placements.
    #[format(count = size / 36)]
    pub lod_doodad_defs: Vec<SMDoodadDef>,
}

/// `MLDL` (obj1): `uint32_t unk[]`; same count as MLDD. If the corresponding MLDD
/// has a flag of 0x8 this has a value otherwise 0.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mldl {
    /// The values.
    #[format(count = size / 4)]
    pub unk: Vec<u32>,
}

/// `MLFD` (obj1): `lod_levels_for_objects`.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mlfd {
    /// Index into MLDD per lod
    pub m2_lod_offset: [u32; 3],
    /// Number of elements used from MLDD per lod
    pub m2_lod_length: [u32; 3],
    /// Index into MLMD per lod
    pub wmo_lod_offset: [u32; 3],
    /// Number of elements used from MLMD per lod
    pub wmo_lod_length: [u32; 3],
}
