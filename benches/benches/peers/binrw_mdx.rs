//! The comparison peer: the geometry part of an MDX model (version 800) read
//! with `binrw`'s own derive, written the way binrw's documentation teaches
//! (`#[derive(BinRead)]`, `#[br(little)]`, `magic`, `count`, `if`, `import` /
//! `args`, and `parse_with` for the parts that hold objects until an inclusive
//! size is consumed). Names follow the MDX specification
//! (`shared/seeds/000_99a28c282fe964f8.txt`).
//!
//! Read: `MDLX`, then chunks (`tag, size, body`): `VERS`, `SEQS`, `GEOS`,
//! `BONE`; every other chunk is skipped by its size. Not hand-optimised: the
//! only fast paths are the ones binrw applies by itself (`Vec` of integers).

// The bench only parses; the fields are compared in `tests/peers.rs`.
#![allow(dead_code)]

use binrw::{BinRead, BinResult};

/// A whole file: `char[4] "MDLX"`, then chunks to the end.
#[derive(BinRead, Debug)]
#[br(little, magic = b"MDLX")]
pub struct Mdx {
    /// The chunks in file order.
    #[br(parse_with = binrw::helpers::until_eof)]
    pub chunks: Vec<Chunk>,
}

/// One top-level chunk: `Header { char[4] tag; uint32 size }`, then its body.
#[derive(BinRead, Debug)]
#[br(little)]
pub enum Chunk {
    /// `VERS { uint32 version }` (800 for Warcraft 3: RoC and TFT; the only
    /// version this peer reads).
    #[br(magic = b"VERS")]
    Version {
        /// Chunk size (4).
        #[br(assert(size == 4))]
        size: u32,
        /// 800.
        #[br(assert(version == 800, "only version 800 is read, not {}", version))]
        version: u32,
    },
    /// `SEQS { Sequence[size / 132] sequences }`
    #[br(magic = b"SEQS")]
    Sequences {
        /// Chunk size.
        #[br(assert(size.is_multiple_of(132)))]
        size: u32,
        /// The sequences.
        #[br(count = size / 132)]
        sequences: Vec<Sequence>,
    },
    /// `GEOS { Geoset[?] geosets }`
    #[br(magic = b"GEOS")]
    Geosets {
        /// Chunk size.
        size: u32,
        /// The geosets, read until `size` bytes are consumed.
        #[br(parse_with = until_consumed, args(size))]
        geosets: Vec<Geoset>,
    },
    /// `BONE { Bone[?] bones }`
    #[br(magic = b"BONE")]
    Bones {
        /// Chunk size.
        size: u32,
        /// The bones, read until `size` bytes are consumed.
        #[br(parse_with = until_consumed, args(size))]
        bones: Vec<Bone>,
    },
    /// Any other chunk: skipped by its size. Not a tag read above, so a known
    /// chunk that does not parse is an error instead of being skipped.
    Skipped {
        /// The chunk's tag.
        #[br(assert(!matches!(&tag, b"VERS" | b"SEQS" | b"GEOS" | b"BONE"), "unreadable chunk {:?}", tag))]
        tag: [u8; 4],
        /// Chunk size.
        size: u32,
        /// Nothing: the body is skipped.
        #[br(pad_before = size)]
        body: (),
    },
}

/// Reads objects until exactly `size` bytes are consumed (the spec's
/// `while (totalSize < size)` loop for chunks of variable-sized objects).
#[binrw::parser(reader, endian)]
fn until_consumed<T>(size: u32) -> BinResult<Vec<T>>
where
    T: for<'a> BinRead<Args<'a> = ()>,
{
    let start = reader.stream_position()?;
    let end = start + u64::from(size);
    let mut items = Vec::new();
    loop {
        let pos = reader.stream_position()?;
        if pos == end {
            return Ok(items);
        }
        if pos > end {
            return Err(binrw::Error::AssertFail {
                pos,
                message: format!("objects overrun their {size}-byte parent by {}", pos - end),
            });
        }
        items.push(T::read_options(reader, endian, ())?);
    }
}

/// `Extent`
#[derive(BinRead, Debug, Clone, Copy)]
#[br(little)]
pub struct Extent {
    /// `float boundsRadius`
    pub bounds_radius: f32,
    /// `float[3] minimum`
    pub minimum: [f32; 3],
    /// `float[3] maximum`
    pub maximum: [f32; 3],
}

/// `Sequence` (132 bytes).
#[derive(BinRead, Debug)]
#[br(little)]
pub struct Sequence {
    /// `char[80] name`
    pub name: [u8; 80],
    /// `uint32[2] interval`
    pub interval: [u32; 2],
    /// `float moveSpeed`
    pub move_speed: f32,
    /// `uint32 flags` (0: looping, 1: non looping)
    pub flags: u32,
    /// `float rarity`
    pub rarity: f32,
    /// `uint32 syncPoint`
    pub sync_point: u32,
    /// `Extent extent`
    pub extent: Extent,
}

/// `Geoset` of version 800 (no `lod`, `lodName`, `Tangents` or `Skin`).
#[derive(BinRead, Debug)]
#[br(little)]
pub struct Geoset {
    /// `uint32 inclusiveSize`
    pub inclusive_size: u32,
    /// `char[4] "VRTX"; uint32 vertexCount`
    #[br(magic = b"VRTX")]
    pub vertex_count: u32,
    /// `float[vertexCount * 3] vertexPositions`
    #[br(count = vertex_count)]
    pub vertex_positions: Vec<[f32; 3]>,
    /// `char[4] "NRMS"; uint32 normalCount`
    #[br(magic = b"NRMS")]
    pub normal_count: u32,
    /// `float[normalCount * 3] vertexNormals`
    #[br(count = normal_count)]
    pub vertex_normals: Vec<[f32; 3]>,
    /// `char[4] "PTYP"; uint32 faceTypeGroupsCount`
    #[br(magic = b"PTYP")]
    pub face_type_groups_count: u32,
    /// `uint32[faceTypeGroupsCount] faceTypeGroups` (4: triangles, ...)
    #[br(count = face_type_groups_count)]
    pub face_type_groups: Vec<u32>,
    /// `char[4] "PCNT"; uint32 faceGroupsCount`
    #[br(magic = b"PCNT")]
    pub face_groups_count: u32,
    /// `uint32[faceGroupsCount] faceGroups`
    #[br(count = face_groups_count)]
    pub face_groups: Vec<u32>,
    /// `char[4] "PVTX"; uint32 facesCount`
    #[br(magic = b"PVTX")]
    pub faces_count: u32,
    /// `uint16[facesCount] faces`
    #[br(count = faces_count)]
    pub faces: Vec<u16>,
    /// `char[4] "GNDX"; uint32 vertexGroupsCount`
    #[br(magic = b"GNDX")]
    pub vertex_groups_count: u32,
    /// `uint8[vertexGroupsCount] vertexGroups`
    #[br(count = vertex_groups_count)]
    pub vertex_groups: Vec<u8>,
    /// `char[4] "MTGC"; uint32 matrixGroupsCount`
    #[br(magic = b"MTGC")]
    pub matrix_groups_count: u32,
    /// `uint32[matrixGroupsCount] matrixGroups`
    #[br(count = matrix_groups_count)]
    pub matrix_groups: Vec<u32>,
    /// `char[4] "MATS"; uint32 matrixIndicesCount`
    #[br(magic = b"MATS")]
    pub matrix_indices_count: u32,
    /// `uint32[matrixIndicesCount] matrixIndices`
    #[br(count = matrix_indices_count)]
    pub matrix_indices: Vec<u32>,
    /// `uint32 materialId`
    pub material_id: u32,
    /// `uint32 selectionGroup`
    pub selection_group: u32,
    /// `uint32 selectionFlags`
    pub selection_flags: u32,
    /// `Extent extent`
    pub extent: Extent,
    /// `uint32 extentsCount`
    pub extents_count: u32,
    /// `Extent[extentsCount] sequenceExtents`
    #[br(count = extents_count)]
    pub sequence_extents: Vec<Extent>,
    /// `char[4] "UVAS"; uint32 textureCoordinateSetsCount`
    #[br(magic = b"UVAS")]
    pub texture_coordinate_sets_count: u32,
    /// `TextureCoordinateSet[textureCoordinateSetsCount] textureCoordinateSets`
    #[br(count = texture_coordinate_sets_count)]
    pub texture_coordinate_sets: Vec<TextureCoordinateSet>,
}

/// `TextureCoordinateSet`
#[derive(BinRead, Debug)]
#[br(little, magic = b"UVBS")]
pub struct TextureCoordinateSet {
    /// `uint32 count`
    pub count: u32,
    /// `float[count * 2] texutreCoordinates` (sic)
    #[br(count = count)]
    pub texture_coordinates: Vec<[f32; 2]>,
}

/// `Bone { Node node; uint32 geosetId; uint32 geosetAnimationId }`
#[derive(BinRead, Debug)]
#[br(little)]
pub struct Bone {
    /// `Node node`
    pub node: Node,
    /// `uint32 geosetId`
    pub geoset_id: u32,
    /// `uint32 geosetAnimationId`
    pub geoset_animation_id: u32,
}

/// `Node`: its inclusive size covers the name, ids, flags and the tracks.
#[derive(BinRead, Debug)]
#[br(little)]
pub struct Node {
    /// `uint32 inclusiveSize`
    #[br(assert(inclusive_size >= Node::FIXED, "node size {} < {}", inclusive_size, Node::FIXED))]
    pub inclusive_size: u32,
    /// `char[80] name`
    pub name: [u8; 80],
    /// `uint32 objectId`
    pub object_id: u32,
    /// `uint32 parentId`
    pub parent_id: u32,
    /// `uint32 flags` (0x100: bone, ...)
    pub flags: u32,
    /// `(KGTR) (KGRT) (KGSC)`: the rest of the inclusive size.
    #[br(parse_with = until_consumed, args(inclusive_size - Node::FIXED))]
    pub tracks: Vec<NodeTrack>,
}

impl Node {
    /// `inclusiveSize` + `name` + `objectId` + `parentId` + `flags`.
    const FIXED: u32 = 4 + 80 + 4 + 4 + 4;
}

/// A node's keyframe track, chosen by its tag. Trying the next variant is the
/// normal path here, so the variants' errors are not collected (binrw's
/// performance guide: "Discard enum errors").
#[derive(BinRead, Debug)]
#[br(little, return_unexpected_error)]
pub enum NodeTrack {
    /// `KGTR: float[3] translation`
    #[br(magic = b"KGTR")]
    Translation(TracksChunk<[f32; 3]>),
    /// `KGRT: float[4] rotation`
    #[br(magic = b"KGRT")]
    Rotation(TracksChunk<[f32; 4]>),
    /// `KGSC: float[3] scaling`
    #[br(magic = b"KGSC")]
    Scaling(TracksChunk<[f32; 3]>),
}

impl NodeTrack {
    /// The number of keys.
    pub fn len(&self) -> usize {
        match self {
            NodeTrack::Translation(t) | NodeTrack::Scaling(t) => t.tracks.len(),
            NodeTrack::Rotation(t) => t.tracks.len(),
        }
    }
}

/// `TracksChunk` (after its tag).
#[derive(BinRead, Debug)]
#[br(little)]
pub struct TracksChunk<X>
where
    X: for<'a> BinRead<Args<'a> = ()> + 'static,
{
    /// `uint32 tracksCount`
    pub tracks_count: u32,
    /// `uint32 interpolationType` (0: none, 1: linear, 2: hermite, 3: bezier)
    pub interpolation_type: u32,
    /// `uint32 globalSequenceId`
    pub global_sequence_id: u32,
    /// `Track[tracksCount] tracks`
    #[br(count = tracks_count, args { inner: (interpolation_type,) })]
    pub tracks: Vec<Track<X>>,
}

/// `Track`: one key.
#[derive(BinRead, Debug, Clone)]
#[br(little, import(interpolation_type: u32))]
pub struct Track<X>
where
    X: for<'a> BinRead<Args<'a> = ()>,
{
    /// `int32 frame`
    pub frame: i32,
    /// `X value`
    pub value: X,
    /// `X inTan` (if `interpolationType > 1`)
    #[br(if(interpolation_type > 1))]
    pub in_tan: Option<X>,
    /// `X outTan` (if `interpolationType > 1`)
    #[br(if(interpolation_type > 1))]
    pub out_tan: Option<X>,
}

/// Reads a whole file from memory.
pub fn read(bytes: &[u8]) -> BinResult<Mdx> {
    Mdx::read(&mut binrw::io::Cursor::new(bytes))
}
