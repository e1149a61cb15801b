//! `GEOS` up to v1400 (`MDLGEOSETSECTION` with `VRTX`, `NRMS`, `UVAS`, the
//! primitives, `GNDX`, `MTGC`, `MATS`, `BIDX`, `BWGT`) and `GEOA` (seed 003).
//!
//! The geoset layout is verified on the real v1300 file (`MDX_VERSIONS.md`
//! §6.2): `UVAS` carries the coordinates directly (no `UVBS`), `PTYP` entries
//! are bytes, no padding after the byte arrays. `GEOA` rests on the sources.

use format_core::Codec;

use crate::mdx::header::Extent;
use crate::mdx::track::tracks;

/// `GEOS { uint32_t numGeosets; MDLGEOSETSECTION geosets[numGeosets]; }` (≤ v1400)
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GEOS")]
pub struct GeosetChunk {
    /// The geosets ("limited to 0xFF").
    #[format(count = u32)]
    pub geosets: Vec<Geoset>,
}

/// `MDLGEOSETSECTION` (≤ v1400)
///
/// ```text
/// uint32_t size
/// VRTX vertices; NRMS normals; UVAS texCoords
/// MDLPRIMITIVES primitives { PTYP types; PCNT counts; PVTX vertices }
/// GNDX vertGroupIndices; MTGC groupMatrixCounts; MATS matrices
/// BIDX boneIndices; BWGT boneWeights
/// uint32_t materialId; uint32_t selectionGroup; uint32_t flags
/// CMdlBounds bounds; uint32_t numSeqBounds; CMdlBounds seqBounds[numSeqBounds]
/// ```
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Geoset {
    /// `VRTX { uint32_t count; C3Vector vertices[count]; }` ("limited to 0xFFFF")
    #[format(tag = "VRTX", count = u32)]
    pub vertices: Vec<[f32; 3]>,
    /// `NRMS { uint32_t count; C3Vector normals[count]; }`
    #[format(tag = "NRMS", count = u32)]
    pub normals: Vec<[f32; 3]>,
    /// `UVAS { uint32_t count; ... }`: the number of coordinate sets.
    #[format(tag = "UVAS")]
    pub uv_set_count: u32,
    /// `C2Vector texCoords[count * vertices.count]`: "The client uses
    /// UVAS.count * VRTX.count to calculate how many C2Vectors to read".
    #[format(count = u64::from(uv_set_count).saturating_mul(vertices.len() as u64))]
    pub tex_coords: Vec<[f32; 2]>,
    /// `PTYP { uint32_t count; FACETYPE primitiveTypes[count]; }`, `FACETYPE : uint8_t`
    /// (4: triangles, always in real files).
    #[format(tag = "PTYP", count = u32)]
    pub primitive_types: Vec<u8>,
    /// `PCNT`: the number of `PVTX` entries used by each group.
    #[format(tag = "PCNT", count = u32)]
    pub primitive_counts: Vec<u32>,
    /// `PVTX`: primitive vertices.
    #[format(tag = "PVTX", count = u32)]
    pub primitive_vertices: Vec<u16>,
    /// `GNDX`: each vertex's matrix group.
    #[format(tag = "GNDX", count = u32)]
    pub vert_group_indices: Vec<u8>,
    /// `MTGC`: the number of matrices of each group.
    #[format(tag = "MTGC", count = u32)]
    pub group_matrix_counts: Vec<u32>,
    /// `MATS`: the groups' bone object ids, concatenated.
    #[format(tag = "MATS", count = u32)]
    pub matrices: Vec<u32>,
    /// `BIDX`: per vertex, 4 bone indices packed in a `u32`.
    #[format(tag = "BIDX", count = u32)]
    pub bone_indices: Vec<u32>,
    /// `BWGT`: per vertex, 4 weights packed in a `u32` (summing to 255).
    #[format(tag = "BWGT", count = u32)]
    pub bone_weights: Vec<u32>,
    /// MTLS index.
    pub material_id: u32,
    /// As four digits: the first two a `CHARACTER_GEOSET_SECTIONS`, the second two a sub-group.
    pub selection_group: u32,
    /// &1: unselectable.
    pub flags: u32,
    /// Bounds of the geoset.
    pub bounds: Extent,
    /// Bounds per sequence.
    #[format(count = u32)]
    pub seq_bounds: Vec<Extent>,
}

impl Geoset {
    /// `FACETYPE_TRIANGLES`: "always 0x4 (Triangle)" in `PTYP`.
    pub const TRIANGLES: u8 = 0x4;

    /// Number of triangles: the `PCNT` counts of the `PTYP` groups that are
    /// triangle lists, over 3.
    pub fn triangle_count(&self) -> usize {
        let groups = self.primitive_types.iter().zip(&self.primitive_counts);
        groups
            .filter(|(t, _)| **t == Self::TRIANGLES)
            .map(|(_, n)| *n as usize / 3)
            .sum()
    }

    /// The coordinates of set `index` (`None` past `uv_set_count`).
    pub fn tex_coord_set(&self, index: usize) -> Option<&[[f32; 2]]> {
        let n = self.vertices.len();
        self.tex_coords
            .get(index.checked_mul(n)?..(index + 1).checked_mul(n)?)
    }
}

tracks! {
    /// `KGAO alphaKeys; KGAC colorKeys;`
    GeosetAnimTrack {
        /// `KGAO: MDLKEYTRACK<float> alphaKeys`
        "KGAO" => Alpha(f32),
        /// `KGAC: MDLKEYTRACK<C3Color> colorKeys` (b, g, r)
        "KGAC" => Color([f32; 3]),
    }
}

/// `MDLGEOSETANIMSECTION { uint32_t size; uint32_t geosetId; float staticAlpha; C3Color staticColor; uint32_t flags; KGAO alphaKeys; KGAC colorKeys; }`
///
/// The field order differs from WC3 and seed 001; seed 003, WMV, WEX and GMP
/// agree on this one (`MDX_VERSIONS.md` §9; no real file has a `GEOA`).
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct GeosetAnim {
    /// GEOS index or `0xFFFFFFFF` if none.
    pub geoset_id: u32,
    /// 0 is transparent, 1 is opaque.
    pub static_alpha: f32,
    /// `C3Color { float b; float g; float r; }`
    pub static_color: [f32; 3],
    /// &1: color.
    pub flags: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<GeosetAnimTrack>,
}

/// `GEOA { uint32_t numGeoAnims; MDLGEOSETANIMSECTION geosetAnims[numGeoAnims]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GEOA")]
pub struct GeosetAnimChunk {
    /// The geoset animations.
    #[format(count = u32)]
    pub geoset_anims: Vec<GeosetAnim>,
}
