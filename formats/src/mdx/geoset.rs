//! Geometry (seed 000 `Geoset`, `GeosetAnimation`; the Reforged additions from
//! `shared/specs/MDX_VERSIONS.md` §5.1): `GEOS` and `GEOA`.

use format_core::{Codec, FixedStr, Mdl, UnknownTail};

use super::header::Extent;
use super::track::tracks;

/// `TextureCoordinateSet { char[4] "UVBS"; uint32 count; float[count * 2] texutreCoordinates }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextureCoordinateSet {
    /// One UV pair per vertex.
    #[format(tag = "UVBS", count = u32)]
    pub texture_coordinates: Vec<[f32; 2]>,
}

/// `Geoset`: one mesh with one material.
///
/// ```text
/// Geoset {
///   uint32 inclusiveSize
///   "VRTX" uint32 vertexCount; float[vertexCount * 3] vertexPositions
///   "NRMS" uint32 normalCount; float[normalCount * 3] vertexNormals
///   "PTYP" uint32 faceTypeGroupsCount; uint32[faceTypeGroupsCount] faceTypeGroups
///   "PCNT" uint32 faceGroupsCount; uint32[faceGroupsCount] faceGroups
///   "PVTX" uint32 facesCount; uint16[facesCount] faces
///   "GNDX" uint32 vertexGroupsCount; uint8[vertexGroupsCount] vertexGroups
///   "MTGC" uint32 matrixGroupsCount; uint32[matrixGroupsCount] matrixGroups
///   "MATS" uint32 matrixIndicesCount; uint32[matrixIndicesCount] matrixIndices
///   uint32 materialId; uint32 selectionGroup; uint32 selectionFlags
///   if (version > 800) { uint32 lod; char[80] lodName }
///   Extent extent
///   uint32 extentsCount; Extent[extentsCount] sequenceExtents
///   if (version > 800) { (Tangents) (Skin) }
///   "UVAS" uint32 textureCoordinateSetsCount; TextureCoordinateSet[textureCoordinateSetsCount]
/// }
/// ```
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Geoset {
    /// Vertex positions.
    #[format(tag = "VRTX", count = u32)]
    pub vertex_positions: Vec<[f32; 3]>,
    /// Vertex normals, one per vertex.
    #[format(tag = "NRMS", count = u32)]
    pub vertex_normals: Vec<[f32; 3]>,
    /// 0: points, 1: lines, 2: line loop, 3: line strip, 4: triangles, 5: triangle strip,
    /// 6: triangle fan, 7: quads, 8: quad strip, 9: polygons
    #[format(tag = "PTYP", count = u32)]
    pub face_type_groups: Vec<u32>,
    /// Number of indices in each face type group.
    #[format(tag = "PCNT", count = u32)]
    pub face_groups: Vec<u32>,
    /// Vertex indices of the faces.
    #[format(tag = "PVTX", count = u32)]
    pub faces: Vec<u16>,
    /// Each vertex's matrix group.
    #[format(tag = "GNDX", count = u32)]
    pub vertex_groups: Vec<u8>,
    /// Size of each matrix group.
    #[format(tag = "MTGC", count = u32)]
    pub matrix_groups: Vec<u32>,
    /// The matrix groups' bone object ids, concatenated.
    #[format(tag = "MATS", count = u32)]
    pub matrix_indices: Vec<u32>,
    /// Index into `MTLS`.
    pub material_id: u32,
    /// Selection group.
    pub selection_group: u32,
    /// 0x4: unselectable.
    pub selection_flags: u32,
    /// Level of detail (version > 800; 0, or -1 in some files).
    #[format(if = version > 800)]
    pub lod: Option<i32>,
    /// Level-of-detail name (version > 800).
    #[format(if = version > 800)]
    pub lod_name: Option<FixedStr<80>>,
    /// Bounds of the geoset.
    pub extent: Extent,
    /// Bounds per sequence.
    #[format(count = u32)]
    pub sequence_extents: Vec<Extent>,
    /// `Tangents { "TANG" uint32 count; float[count * 4] tangents }` (version > 800;
    /// `count` is the number of vectors, one per vertex).
    #[format(if = version > 800, tag = "TANG", optional, count = u32)]
    pub tangents: Option<Vec<[f32; 4]>>,
    /// `Skin { "SKIN" uint32 count; uint8[count] skin }` (version > 800; `count`
    /// is in bytes: per vertex 4 bone indices, then 4 weights out of 255).
    #[format(if = version > 800, tag = "SKIN", optional, count = u32)]
    pub skin: Option<Vec<u8>>,
    /// UV sets (Reforged files may have two).
    #[format(tag = "UVAS", count = u32)]
    pub texture_coordinate_sets: Vec<TextureCoordinateSet>,
    /// Sub-chunks the spec does not list, verbatim (none in known files).
    #[format(tagged)]
    pub unknown: Vec<UnknownTail>,
}

impl Geoset {
    /// Number of vertices (`VRTX` count).
    pub fn vertex_count(&self) -> usize {
        self.vertex_positions.len()
    }

    /// Number of triangles, counting the face type groups of type 4.
    pub fn triangle_count(&self) -> usize {
        let mut total = 0;
        for (face_type, count) in self.face_type_groups.iter().zip(&self.face_groups) {
            if *face_type == 4 {
                total += *count as usize / 3;
            }
        }
        total
    }
}

/// `GEOS { Geoset[?] geosets }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GEOS")]
pub struct GeosetChunk {
    /// The geosets.
    #[format(until_end)]
    pub geosets: Vec<Geoset>,
}

tracks! {
    /// `(KGAO) (KGAC)`
    GeosetAnimationTrack {
        /// `KGAO: float alpha`
        "KGAO" => Alpha(f32),
        /// `KGAC: float[3] color`
        "KGAC" => Color([f32; 3]),
    }
}

/// `GeosetAnimation { uint32 inclusiveSize; float alpha; uint32 flags; float[3] color; uint32 geosetId; (KGAO) (KGAC) }`
///
/// MDL: `GeosetAnim { GeosetId, DropShadow, static Alpha, static Color,
/// tracks }`. The colour flag (2) has no word: a `static Color` or a
/// `Color` track says it (as Blizzard's converter and mdx-m3-viewer read
/// it; every corpus model agrees), so `static Color` is written when the
/// colour is not white, or the flag is set and no `Color` track says it;
/// `UseColor`, which files this crate wrote before say, still reads.
/// `ExtFlags` is written only when the flags differ from what the words
/// say (so plain MDL, which has no `ExtFlags`, reads back as the flags the
/// words give). Left out: alpha 1, white, no geoset (`0xffffffff`, what
/// war3mdlx writes to the twin MDX); `GeosetId None` and `Multiple` read as
/// that too, but it is written as its number, which mdx-m3-viewer reads
/// (it takes no word there).
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(block = "GeosetAnim", order(geoset_id, flags, alpha, color, tracks))]
pub struct GeosetAnimation {
    /// Static alpha.
    #[mdl(static, default = 1.0)]
    pub alpha: f32,
    /// 0x1: drop shadow, 0x2: color (seed 002).
    #[mdl(flags(DropShadow = 1, UseColor = 2))]
    pub flags: u32,
    /// Static colour (blue, green, red).
    #[mdl(static, rgb, default = [1.0; 3], says(flags = 2))]
    pub color: [f32; 3],
    /// Index into `GEOS`.
    #[mdl(
        key = "GeosetId",
        none("None", "Multiple"),
        numbered,
        default = u32::MAX
    )]
    pub geoset_id: u32,
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks)]
    pub tracks: Vec<GeosetAnimationTrack>,
}

/// `GEOA { GeosetAnimation[?] animations }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GEOA")]
pub struct GeosetAnimationChunk {
    /// The geoset animations.
    #[format(until_end)]
    pub animations: Vec<GeosetAnimation>,
}
