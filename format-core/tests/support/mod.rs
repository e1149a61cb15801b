//! Derived test types, modelled on the MDX spec (`shared/seeds/000_*`), that
//! together use every attribute of `#[derive(Codec)]`.
#![allow(dead_code)]

use format_core::{Codec, Derived, FixedStr, Reader, Result, UnknownChunk, Writer};

/// `Extent { float boundsRadius; float[3] minimum; float[3] maximum }`
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[format(plain)]
#[repr(C)]
pub struct Extent {
    pub bounds_radius: f32,
    pub minimum: [f32; 3],
    pub maximum: [f32; 3],
}

/// `Sequence`: 132 bytes of plain data, so `SEQS` is read with one copy.
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[format(plain)]
#[repr(C)]
pub struct Sequence {
    pub name: FixedStr<80>,
    pub interval: [u32; 2],
    pub move_speed: f32,
    /// 0: looping, 1: non looping
    pub flags: u32,
    pub rarity: f32,
    pub sync_point: u32,
    pub extent: Extent,
}

/// `SEQS { Sequence[size / 132] sequences }`
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(chunk = "SEQS")]
pub struct SequenceChunk {
    #[format(count = size / 132)]
    pub sequences: Vec<Sequence>,
}

/// `VERS { uint32 version }`: the version every later chunk is read with.
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(chunk = "VERS")]
pub struct VersionChunk {
    #[format(sets_version)]
    pub version: u32,
}

/// `uint32 interpolationType // 0: none 1: linear 2: hermite 3: bezier`
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[repr(u32)]
pub enum Interpolation {
    None = 0,
    Linear = 1,
    Hermite,
    Bezier,
    /// Values the spec does not name are kept.
    #[format(unknown)]
    Other(u32),
}

impl Interpolation {
    /// `if (interpolationType > 1) { X inTan; X outTan }`
    pub fn has_tangents(self) -> bool {
        match self {
            Interpolation::None | Interpolation::Linear => false,
            Interpolation::Hermite | Interpolation::Bezier => true,
            Interpolation::Other(v) => v > 1,
        }
    }
}

/// `Track { int32 frame; X value; if (interpolationType > 1) { X inTan; X outTan } }`
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(args(interpolation: Interpolation))]
pub struct Key<T> {
    pub frame: i32,
    pub value: T,
    #[format(if = interpolation.has_tangents())]
    pub in_tan: Option<T>,
    #[format(if = interpolation.has_tangents())]
    pub out_tan: Option<T>,
}

/// `TracksChunk { uint32 tracksCount; uint32 interpolationType; uint32 globalSequenceId; Track[tracksCount] }`
#[derive(Codec, Clone, Debug, PartialEq)]
pub struct Track<T> {
    #[format(calc = keys.len())]
    pub tracks_count: Derived<u32>,
    pub interpolation_type: Interpolation,
    pub global_sequence_id: i32,
    #[format(count = tracks_count, args(interpolation_type))]
    pub keys: Vec<Key<T>>,
}

/// `(KGTR) (KGRT) (KGSC)`
#[derive(Codec, Clone, Debug, PartialEq)]
pub enum NodeTrack {
    #[format(tag = "KGTR")]
    Translation(Track<[f32; 3]>),
    #[format(tag = "KGRT")]
    Rotation(Track<[f32; 4]>),
    #[format(tag = "KGSC")]
    Scaling(Track<[f32; 3]>),
}

/// `Node { uint32 inclusiveSize; char[80] name; uint32 objectId; uint32 parentId; uint32 flags; (KGTR) (KGRT) (KGSC) }`
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(inclusive_size)]
pub struct Node {
    pub name: FixedStr<80>,
    pub object_id: u32,
    pub parent_id: u32,
    pub flags: u32,
    #[format(tagged)]
    pub tracks: Vec<NodeTrack>,
}

/// `Bone { Node node; uint32 geosetId; uint32 geosetAnimationId }`
#[derive(Codec, Clone, Debug, PartialEq)]
pub struct Bone {
    pub node: Node,
    pub geoset_id: u32,
    pub geoset_animation_id: u32,
}

/// `(KMTF) (KMTA)`, and `(KMTE)` only if `version > 800`.
#[derive(Codec, Clone, Debug, PartialEq)]
pub enum LayerTrack {
    #[format(tag = "KMTF")]
    TextureId(Track<u32>),
    #[format(tag = "KMTA")]
    Alpha(Track<f32>),
    #[format(tag = "KMTE", if = version > 800)]
    EmissiveGain(Track<f32>),
}

/// `uint32 filterMode // 0: none 1: transparent 2: blend 3: additive 4: add alpha 5: modulate 6: modulate 2x`
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[format(repr = u32)]
pub enum FilterMode {
    None,
    Transparent,
    Blend,
    Additive,
    AddAlpha,
    Modulate,
    Modulate2x,
}

/// `Layer`
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(inclusive_size)]
pub struct Layer {
    pub filter_mode: FilterMode,
    pub shading_flags: u32,
    pub texture_id: u32,
    pub texture_animation_id: u32,
    pub coord_id: u32,
    pub alpha: f32,
    #[format(if = version > 800)]
    pub emissive_gain: Option<f32>,
    #[format(if = version > 900)]
    pub fresnel_color: Option<[f32; 3]>,
    #[format(tagged)]
    pub tracks: Vec<LayerTrack>,
}

/// `Material { uint32 inclusiveSize; uint32 priorityPlane; uint32 flags; if (version > 800) char[80] shader; "LAYS" uint32 layersCount; Layer[layersCount] }`
/// (the shader string exists in 900 and 1000 only: `specs/MDX_VERSIONS.md` §3.1)
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(inclusive_size)]
pub struct Material {
    pub priority_plane: i32,
    pub flags: u32,
    #[format(if = version > 800 && version < 1100)]
    pub shader: Option<FixedStr<80>>,
    #[format(tag = "LAYS", count = u32)]
    pub layers: Vec<Layer>,
}

/// `MTLS { Material[?] materials }`
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(chunk = "MTLS")]
pub struct MaterialChunk {
    #[format(until_end)]
    pub materials: Vec<Material>,
}

/// `TextureCoordinateSet { "UVBS" uint32 count; float[count * 2] }`
#[derive(Codec, Clone, Debug, PartialEq)]
pub struct TextureCoordinateSet {
    #[format(tag = "UVBS", count = u32)]
    pub texture_coordinates: Vec<[f32; 2]>,
}

/// A reduced `Geoset`: tagged counted arrays, a version-gated optional sub-chunk
/// found by peeking its tag, a `u16`-counted array.
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(inclusive_size)]
pub struct Geoset {
    #[format(tag = "VRTX", count = u32)]
    pub vertex_positions: Vec<[f32; 3]>,
    #[format(tag = "NRMS", count = u32)]
    pub vertex_normals: Vec<[f32; 3]>,
    #[format(tag = "PVTX", count = u32)]
    pub faces: Vec<u16>,
    #[format(tag = "GNDX", count = u32)]
    pub vertex_groups: Vec<u8>,
    pub material_id: u32,
    pub extent: Extent,
    #[format(count = u16)]
    pub sequence_extents: Vec<Extent>,
    #[format(if = version > 800, tag = "TANG", optional, count = u32)]
    pub tangents: Option<Vec<[f32; 4]>>,
    #[format(tag = "UVAS", count = u32)]
    pub texture_coordinate_sets: Vec<TextureCoordinateSet>,
}

/// `uint32 type // 0: cube 1: plane 2: sphere 3: cylinder`
#[derive(Codec, Clone, Copy, Debug, PartialEq)]
#[repr(u32)]
pub enum ShapeType {
    Cube = 0,
    Plane = 1,
    Sphere = 2,
    Cylinder = 3,
}

impl ShapeType {
    /// `float[?][3] vertices // type 0: 2, type 1: 2, type 2: 1, type 3: 2`
    pub fn vertex_count(self) -> u32 {
        if self == ShapeType::Sphere { 1 } else { 2 }
    }
    /// `if (type == 2 || type == 3) { float radius }`
    pub fn has_radius(self) -> bool {
        matches!(self, ShapeType::Sphere | ShapeType::Cylinder)
    }
}

/// `CollisionShape`: a count and a condition computed from an earlier field.
#[derive(Codec, Clone, Debug, PartialEq)]
pub struct CollisionShape {
    pub node: Node,
    pub shape_type: ShapeType,
    #[format(count = shape_type.vertex_count())]
    pub vertices: Vec<[f32; 3]>,
    #[format(if = shape_type.has_radius())]
    pub radius: Option<f32>,
}

/// A NUL-terminated text, read by hand (the escape hatch).
#[derive(Codec, Clone, Debug, PartialEq)]
pub struct Info {
    #[format(read_with = read_c_string, write_with = write_c_string)]
    pub text: String,
    /// Not on disk: filled in by the reader's caller.
    #[format(skip)]
    pub note: u32,
}

pub fn read_c_string(r: &mut Reader<'_>) -> Result<String> {
    let offset = r.pos();
    let rest = r.rest();
    let len = rest
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| format_core::Error::invalid(offset, "string has no terminating NUL"))?;
    let bytes = r.bytes(len + 1)?;
    String::from_utf8(bytes[..len].to_vec())
        .map_err(|_| format_core::Error::invalid(offset, "string is not UTF-8"))
}

pub fn write_c_string(text: &String, w: &mut Writer) -> Result<()> {
    if text.as_bytes().contains(&0) {
        return Err(format_core::Error::inconsistent(
            w.pos(),
            "text contains a NUL",
        ));
    }
    w.bytes(text.as_bytes());
    w.u8(0);
    Ok(())
}

/// `PIVT { float[size / 12][3] points }`, a tuple struct.
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(chunk = "PIVT")]
pub struct PivotChunk(#[format(count = size / 12)] pub Vec<[f32; 3]>);

/// Bodies of the chunks whose header lives in the chunk-list enum.
#[derive(Codec, Clone, Debug, PartialEq)]
pub struct GeosetList {
    #[format(until_end)]
    pub geosets: Vec<Geoset>,
}

#[derive(Codec, Clone, Debug, PartialEq)]
pub struct BoneList {
    #[format(until_end)]
    pub bones: Vec<Bone>,
}

#[derive(Codec, Clone, Debug, PartialEq)]
pub struct ShapeList {
    #[format(until_end)]
    pub shapes: Vec<CollisionShape>,
}

/// The chunk list: dispatched on the peeked tag, unknown chunks kept in place.
#[derive(Codec, Clone, Debug, PartialEq)]
pub enum Chunk {
    /// `VERS`, tagged by its own `chunk` attribute.
    Version(VersionChunk),
    Sequences(SequenceChunk),
    Materials(MaterialChunk),
    Pivots(PivotChunk),
    #[format(chunk = "GEOS")]
    Geosets(GeosetList),
    #[format(chunk = "BONE")]
    Bones(BoneList),
    #[format(chunk = "CLID")]
    CollisionShapes(ShapeList),
    #[format(chunk = "INFO")]
    Info(Info),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

/// `MDX { char[4] "MDLX"; chunks... }`
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(magic = "MDLX")]
pub struct Model {
    #[format(until_end)]
    pub chunks: Vec<Chunk>,
}
