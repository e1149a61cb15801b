//! Blend meshes (MoP+, split files: root): `MBMH`, `MBBB`, `MBNV`, `MBMI`, and
//! Legion's `MBMB`. They blend WMO geometry into the terrain.

use format_core::Codec;

use super::placement::CAaBox;

/// A blend mesh header (28 bytes). There can be multiple entries per map object
/// (as different textures are possible).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct BlendMeshHeader {
    /// (unique ID)
    pub map_object_id: u32,
    /// of linked WMO
    pub texture_id: u32,
    /// `char unknown[0xc]`
    pub unknown: [u8; 12],
    /// first index into MBMI for this mesh
    pub mbmi_base: u32,
    /// first index into MBNV for this mesh
    pub mbnv_base: u32,
}

/// `MBMH`: blend mesh headers.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mbmh {
    /// `MBMH[]`
    #[format(count = size / 28)]
    pub headers: Vec<BlendMeshHeader>,
}

/// A blend mesh bounding box (28 bytes); each one corresponds to a MBMH entry of same index.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct BlendMeshBounds {
    /// (unique ID) -- repeated for unknown reason
    pub map_object_id: u32,
    /// `CAaBox bounding`
    pub bounding: CAaBox,
}

/// `MBBB`: blend mesh bounding boxes.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mbbb {
    /// `MBBB[]`
    #[format(count = size / 28)]
    pub bounds: Vec<BlendMeshBounds>,
}

/// A blend mesh vertex (44 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct BlendMeshVertex {
    /// `C3Vector pos`
    pub pos: [f32; 3],
    /// `C3Vector normal`
    pub normal: [f32; 3],
    /// `C2Vector texture_coordinates`
    pub texture_coordinates: [f32; 2],
    /// `CArgb color[3]`; used: PN: none; PNC: 0; PNC2: 0, 1; PNC2T: 0, 2
    pub color: [[u8; 4]; 3],
}

/// `MBNV`: blend mesh vertices.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mbnv {
    /// `MBNV[]`
    #[format(count = size / 44)]
    pub vertices: Vec<BlendMeshVertex>,
}

/// `MBMI`: blend mesh indices.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mbmi {
    /// `uint16_t index` into MBNV
    #[format(count = size / 2)]
    pub indices: Vec<u16>,
}

/// `MBMB` (Legion+): "Contains array. Length of each element of array is 20
/// bytes. It's related to blend meshes" (layout unknown, kept as 20-byte records).
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mbmb {
    /// The 20-byte elements.
    #[format(count = size / 20)]
    pub entries: Vec<[u8; 20]>,
}
