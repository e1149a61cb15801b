//! The MCNK sub-chunks, as their bodies (the tag and size are framed by
//! [`McnkChunk`](super::McnkChunk) or, for the quirky ones, by the sub-chunk walk).
//! The fixed-size ones (MCVT, MCCV, MCLV, MCNR, MCSH) are inline arrays, one
//! copy each.

use format_core::Codec;

/// Vertices of a map chunk: 9x9 outer and 8x8 inner, row by row (9, 8, 9, ... 9).
pub const VERTICES: usize = 9 * 9 + 8 * 8;

/// `MCVT`: `float height[9*9 + 8*8]`, the 9x9 outer and 8x8 inner vertices row
/// by row (9, 8, 9, ... 9), relative to the MCNK position.
#[derive(Codec, Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mcvt {
    /// `float height[9*9 + 8*8]`
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_array"))]
    pub height: [f32; VERTICES],
}

impl Default for Mcvt {
    fn default() -> Self {
        Mcvt {
            height: [0.0; VERTICES],
        }
    }
}

/// `MCCVEntry`: 0x7F is 1.0 (the client reads it as bgra).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct MccvEntry {
    /// these values range from 0x00 to 0xFF with 0x7F being the default.
    pub blue: u8,
    /// you can interpret the values as 0x7F being 1.0 and these values being multiplicated with the vertex colors.
    pub green: u8,
    /// setting all values to 0x00 makes a chunk completely black.
    pub red: u8,
    /// seems not to have any effect.
    pub alpha: u8,
}

/// `MCCV` (WotLK+): vertex shading, one colour per MCVT vertex.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mccv {
    /// `MCCVEntry entries[9*9+8*8]`
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_array"))]
    pub entries: [MccvEntry; VERTICES],
}

impl Default for Mccv {
    fn default() -> Self {
        Mccv {
            entries: [MccvEntry::default(); VERTICES],
        }
    }
}

/// `MCLV` (Cata+): `CArgb values[9*9 + 8*8]`, baked lighting (alpha ignored).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mclv {
    /// `CArgb values[9*9 + 8*8]`
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_array"))]
    pub values: [[u8; 4]; VERTICES],
}

impl Default for Mclv {
    fn default() -> Self {
        Mclv {
            values: [[0; 4]; VERTICES],
        }
    }
}

/// `MCNR`: normals, then 13 bytes of unknown data.
///
/// ```text
/// struct SMNormal {
///   struct MCNREntry { int8_t normal[3]; } entries[9*9+8*8]; // X, Z, Y. 127 == 1.0, -127 == -1.0.
///   uint8_t padding[13];
/// };
/// ```
///
/// Up to WotLK the declared size is 435 and the 13 bytes follow *outside* the
/// chunk (every corpus file; Blizzard writes `00 70 f5 12 00 08 00 00 00 54 f5
/// 12 00`, tools zeros); from Cataclysm on it is 448. The declared size is
/// kept in [`declared_size`](Mcnr::declared_size) when it is not the real one.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcnr {
    /// `int8_t normal[3]`: normalized. X, Z, Y. 127 == 1.0, -127 == -1.0.
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_array"))]
    pub entries: [[i8; 3]; VERTICES],
    /// `uint8_t padding[13]`: additional data which purpose is unknown; absent
    /// only if nothing follows the normals.
    #[format(read_if = reader.remaining() >= 13)]
    pub padding: Option<[u8; 13]>,
    /// The size field as written when it differs from the real length (435).
    #[format(skip)]
    pub declared_size: Option<u32>,
}

impl Default for Mcnr {
    fn default() -> Self {
        Mcnr {
            entries: [[0; 3]; VERTICES],
            padding: None,
            declared_size: None,
        }
    }
}

/// `MCLY` layer flags.
pub mod layer_flags {
    /// `animation_rotation : 3`: each tick is 45°
    pub const ANIMATION_ROTATION_MASK: u32 = 0x7;
    /// `animation_speed : 3`
    pub const ANIMATION_SPEED_MASK: u32 = 0x38;
    /// `animation_enabled : 1`
    pub const ANIMATION_ENABLED: u32 = 0x40;
    /// This will make the texture way brighter. Used for lava to make it "glow".
    pub const OVERBRIGHT: u32 = 0x80;
    /// set for every layer after the first
    pub const USE_ALPHA_MAP: u32 = 0x100;
    /// see MCAL chunk description
    pub const ALPHA_MAP_COMPRESSED: u32 = 0x200;
    /// This makes the layer behave like its a reflection of the skybox.
    pub const USE_CUBE_MAP_REFLECTION: u32 = 0x400;
    /// WoD?+ if either of 0x800 or 0x1000 is set, texture effects' texture_scale is applied
    pub const UNKNOWN_0X800: u32 = 0x800;
    /// WoD?+ see 0x800
    pub const UNKNOWN_0X1000: u32 = 0x1000;
}

/// `SMLayer`: one texture layer (16 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SMLayer {
    /// The array index of the filename array in the MTEX chunk.
    pub texture_id: u32,
    /// [`layer_flags`]
    pub flags: u32,
    /// Where this layer's alpha map starts, relative to MCAL.
    pub offset_in_mcal: u32,
    /// `foreign_key<uint32_t, &GroundEffectTextureRec::m_ID>`: 0xFFFFFFFF for none
    pub effect_id: u32,
}

/// `MCLY`: texture layer definitions, 16 bytes per layer, up to 4 layers.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcly {
    /// `SMLayer layers[/* <= 4 */]`
    #[format(count = size / 16)]
    pub layers: Vec<SMLayer>,
}

/// `MCRF` (< Cata): indices into the file's MDDF and MODF saying which doodads
/// and objects are drawn within this map chunk.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(n_doodad_refs: u32))]
pub struct Mcrf {
    /// `uint32_t doodad_refs[header.nDoodadRefs]; // into MDDF`
    #[format(count = n_doodad_refs)]
    pub doodad_refs: Vec<u32>,
    /// `uint32_t object_refs[header.nMapObjRefs]; // into MODF`
    #[format(until_end)]
    pub object_refs: Vec<u32>,
}

/// `MCSH`: `uint1_t shadow_map[64][64]`, a row per `u64`, LSB first (bit `x`
/// of row `y` is the shadow at column `x`).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mcsh {
    /// The 64 rows.
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_array"))]
    pub shadow_map: [u64; 64],
}

impl Default for Mcsh {
    fn default() -> Self {
        Mcsh {
            shadow_map: [0; 64],
        }
    }
}

/// `MCAL`: the alpha maps of the layers after the first, each at its layer's
/// `offsetInMCAL`; see [`alpha`](crate::adt::alpha) to decode them.
///
/// The declared size is wrong in Blizzard's compressed Northrend files (512, the
/// shadow map's size, while the data runs to the MCNK header's `sizeAlpha`); it
/// is kept in [`declared_size`](Mcal::declared_size) when so.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcal {
    /// The alpha map data of all layers.
    #[format(until_end)]
    #[cfg_attr(feature = "serde", serde(with = "format_core::serde_bytes"))]
    pub data: Vec<u8>,
    /// The size field as written when it differs from the real length.
    #[format(skip)]
    pub declared_size: Option<u32>,
}

/// `SLVert`: one MCLQ vertex, a union by liquid type: water `{ char depth,
/// flow0Pct, flow1Pct, filler; float height }`, ocean `{ char depth, foam, wet,
/// filler }`, magma `{ uint16 s, t; float height }`.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SLVert {
    /// The first four bytes: depth, flow0Pct, flow1Pct, filler (water); depth,
    /// foam, wet, filler (ocean); s, t as `uint16` (magma).
    pub data: [u8; 4],
    /// `float height` (water, magma; unused by ocean vertices).
    pub height: f32,
}

/// `SWFlowv` (40 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SWFlowv {
    /// `CAaSphere sphere`: centre and radius.
    pub sphere: [f32; 4],
    /// `C3Vector dir`
    pub dir: [f32; 3],
    /// `float velocity`
    pub velocity: f32,
    /// `float amplitude`
    pub amplitude: f32,
    /// `float frequency`
    pub frequency: f32,
}

/// One MCLQ liquid (804 bytes): one per liquid flag of the MCNK header.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MclqLayer {
    /// `CRange height`: minimum and maximum.
    pub height: [f32; 2],
    /// `SLVert verts[9*9]`
    #[format(count = 81)]
    pub verts: Vec<SLVert>,
    /// `char tiles[8][8]; // 0x0f or 0x8 mean don't render (?)`
    #[format(count = 8)]
    pub tiles: Vec<[u8; 8]>,
    /// `uint32_t nFlowvs`
    pub n_flowvs: u32,
    /// `SWFlowv flowvs[2]; // always 2 in file, independent on nFlowvs.`
    #[format(count = 2)]
    pub flowvs: Vec<SWFlowv>,
}

/// `MCLQ` (≤ BC): water levels for this map chunk.
///
/// Its size field is 0 in every corpus file, even where it carries liquid; the
/// real length is the MCNK header's `sizeLiquid` − 8. That 0 is kept in
/// [`declared_size`](Mclq::declared_size).
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mclq {
    /// The liquids.
    #[format(count = size / 804)]
    pub layers: Vec<MclqLayer>,
    /// The size field as written when it differs from the real length (0).
    #[format(skip)]
    pub declared_size: Option<u32>,
}

/// `CWSoundEmitter` (0x1C bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct CWSoundEmitter {
    /// `foreign_key<uint32_t, &SoundEntriesAdvancedRec::m_ID> entry_id`
    pub entry_id: u32,
    /// `C3Vector position`
    pub position: [f32; 3],
    /// `C3Vector size`
    pub size: [f32; 3],
}

/// `MCSE`: sound emitters.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcse {
    /// `CWSoundEmitter MCSE[]`
    #[format(count = size / 28)]
    pub emitters: Vec<CWSoundEmitter>,
}

/// `MCDD` (Cata?+): `uint1_t disable[8][8]`, disable detail doodads here (32
/// bytes in a high-res mode).
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcdd {
    /// The bits.
    #[format(until_end)]
    pub disable: Vec<u8>,
}

/// `MCMT` (Cata+): `foreign_key<uint8_t, &TerrainMaterialRec::m_ID> material_id[4]; // per MCLY`
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcmt {
    /// One per MCLY layer.
    pub material_id: [u8; 4],
}

/// One `MCBB` blend batch (20 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct BlendBatch {
    /// `uint32_t mbmh_index`
    pub mbmh_index: u32,
    /// MBMI
    pub index_count: u32,
    /// in addition to mbmh.mbnv_base
    pub index_first: u32,
    /// MBNV
    pub vertex_count: u32,
    /// in addition to mbmh.mbnv_base
    pub vertex_first: u32,
}

/// `MCBB` (MoP+): blend batches, max 256 per MCNK.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcbb {
    /// The batches.
    #[format(count = size / 20)]
    pub batches: Vec<BlendBatch>,
}

/// `MCRD`, `MCRW` (Cata+): `uint32_t mddf_entry[]` / `uint32_t modf_entry[]`.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EntryRefs {
    /// Indices into MDDF (MCRD) or MODF (MCRW).
    #[format(count = size / 4)]
    pub entries: Vec<u32>,
}
