//! `GEOS` from v1500 (seed 003, "GEOS (v1500)"): a count, then one 64-byte
//! `MDLGEOSETSECTION` per geoset, then one `MDLBATCH` per geoset (its
//! interleaved 48-byte vertices and its indices, padded).
//!
//! No real file: the layout rests on seed 003, WMV, WEX and GMP, which agree
//! on the sizes (`MDX_VERSIONS.md` §7).

use format_core::{Codec, Derived, FourCC};

/// `GEOS { uint32_t numGeosets; MDLGEOSETSECTION geosets[numGeosets]; MDLBATCH batches[numGeosets]; }` (v1500)
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "GEOS")]
pub struct BatchedGeosetChunk {
    /// `numGeosets` ("limited to 0xFF"), computed from `geosets` on write.
    #[format(calc = geosets.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub num_geosets: Derived<u32>,
    /// The geoset headers.
    #[format(count = num_geosets)]
    pub geosets: Vec<GeosetSection>,
    /// The batches, batch `i` belonging to geoset `i` and read with its
    /// vertex count.
    #[format(
        count = geosets.len(),
        args(geosets.get(index).map_or(0, |g| g.vertex_count)),
        write_assert(
            batches.len() == geosets.len(),
            "each geoset has exactly one batch (`batches` and `geosets` differ in length)"
        )
    )]
    pub batches: Vec<Batch>,
}

/// `MDLGEOSETSECTION` (64 bytes, v1500)
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GeosetSection {
    /// MTLS index.
    pub material_id: u32,
    /// Centre of the bounding sphere.
    pub bounds_centre: [f32; 3],
    /// Radius of the bounding sphere.
    pub bounds_radius: f32,
    /// As in earlier versions.
    pub selection_group: u32,
    /// The geoset's index.
    pub geoset_index: u32,
    /// &1: unselectable, &0x10: project2D, &0x20: shaderSkin.
    pub flags: u32,
    /// `char vertexTag[4]; // PVTX`: kept as read (the client does not check it).
    pub vertex_tag: FourCC,
    /// The number of vertices in the batch.
    pub vertex_count: u32,
    /// `char primTypeTag[4]; // PTYP`
    pub prim_type_tag: FourCC,
    /// `primitiveTypesCount`.
    pub primitive_types_count: u32,
    /// `char primVertexTag[4]; // PVTX` ("duplicated tag name, client doesn't validate them")
    pub prim_vertex_tag: FourCC,
    /// `primitiveVerticesCount`: matches the batch's `numPrimVertices`.
    pub primitive_vertices_count: u32,
    /// "explicitly 0, ignored by client"; kept as read.
    pub unused: u64,
}

/// `MDLVERTEX` (48 bytes, "same structure as M2Vertex")
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Vertex {
    /// Position.
    pub position: [f32; 3],
    /// Bone weights, out of 255.
    pub bone_weights: [u8; 4],
    /// Bone indices.
    pub bone_indices: [u8; 4],
    /// Normal.
    pub normal: [f32; 3],
    /// "second is always (0,0) in all beta files however use of both is supported"
    pub tex_coords: [[f32; 2]; 2],
}

/// `MDLBATCH`: the vertices of its geoset, then its primitive.
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(vertex_count: u32))]
pub struct Batch {
    /// `MDLVERTEX vertices[geoset.vertexCount]`
    #[format(count = vertex_count)]
    pub vertices: Vec<Vertex>,
    /// Always 0x3 (Triangle).
    pub primitive_type: u32,
    /// Always 0.
    pub unknown: u32,
    /// `numPrimVertices`, computed from `primitive_vertices` on write.
    #[format(calc = primitive_vertices.len())]
    #[cfg_attr(feature = "serde", serde(skip))]
    pub num_prim_vertices: Derived<u16>,
    /// Smallest vertex index used.
    pub min_vertex: u16,
    /// Largest vertex index used.
    pub max_vertex: u16,
    /// "explicitly 0, ignored by client"; kept as read.
    pub unused: u16,
    /// `uint16_t primitiveVertices[numPrimVertices]`
    #[format(count = num_prim_vertices)]
    pub primitive_vertices: Vec<u16>,
    /// `uint16_t padding[x]`, x = (8 − numPrimVertices % 8) % 8: the index
    /// block is a multiple of 16 bytes. Kept as read.
    #[format(count = padding_len(primitive_vertices.len()))]
    pub padding: Vec<u16>,
}

impl Batch {
    /// `primitiveType` of a triangle list: "always 0x3 (Triangle)" (the v1500
    /// numbering, not `PTYP`'s `FACETYPE_TRIANGLES` 0x4).
    pub const TRIANGLES: u32 = 0x3;

    /// Number of triangles (0 unless the primitive is a triangle list).
    pub fn triangle_count(&self) -> usize {
        if self.primitive_type == Self::TRIANGLES {
            self.primitive_vertices.len() / 3
        } else {
            0
        }
    }
}

/// The number of `u16` of padding after `n` indices.
pub fn padding_len(n: usize) -> usize {
    (8 - n % 8) % 8
}
