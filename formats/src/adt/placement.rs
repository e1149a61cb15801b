//! `MDDF` and `MODF`: where doodads (M2 models) and map objects (WMOs) stand.

use format_core::Codec;

/// `CAaBox`: an axis-aligned box.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct CAaBox {
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

/// `MDDFFlags`.
pub mod mddf_flags {
    /// this sets internal flags to | 0x800 (WDOODADDEF.var0xC).
    pub const BIODOME: u16 = 0x1;
    /// the actual meaning of these is unknown.
    pub const SHRUBBERY: u16 = 0x2;
    /// Legion+
    pub const UNK_4: u16 = 0x4;
    /// Legion+
    pub const UNK_8: u16 = 0x8;
    /// Legion+: `SMDoodadDef::Flag_liquidKnown`
    pub const LIQUID_KNOWN: u16 = 0x20;
    /// Legion+: mmidEntry is a file data id to directly load
    pub const ENTRY_IS_FILEDATA_ID: u16 = 0x40;
    /// Legion+
    pub const UNK_100: u16 = 0x100;
}

/// `SMDoodadDef`: one doodad placement (36 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SMDoodadDef {
    /// references an entry in the MMID chunk, specifying the model to use.
    pub name_id: u32,
    /// this ID should be unique for all ADTs currently loaded. Best, they are
    /// unique for the whole map. Blizzard has these unique for the whole game.
    pub unique_id: u32,
    /// This is relative to a corner of the map. Subtract 17066 from the non
    /// vertical values and you should start to see something that makes sense.
    pub position: [f32; 3],
    /// degrees. This is not the same coordinate system orientation like the ADT itself!
    pub rotation: [f32; 3],
    /// 1024 is the default size equaling 1.0f.
    pub scale: u16,
    /// values from enum MDDFFlags ([`mddf_flags`]).
    pub flags: u16,
}

/// `MDDF`: placement information for doodads (M2 models). Additional to this,
/// the models to render are referenced in each MCRF chunk.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mddf {
    /// `SMDoodadDef doodadDefs[0]`
    #[format(count = size / 36)]
    pub doodad_defs: Vec<SMDoodadDef>,
}

/// `MODFFlags`.
pub mod modf_flags {
    /// set for destroyable buildings like the tower in DeathknightStart.
    pub const DESTROYABLE: u16 = 0x1;
    /// WoD(?)+: also load _LOD1.WMO for use dependent on distance
    pub const USE_LOD: u16 = 0x2;
    /// Legion(?)+: unknown
    pub const UNK_4: u16 = 0x4;
}

/// `SMMapObjDef`: one WMO placement (64 bytes).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SMMapObjDef {
    /// references an entry in the MWID chunk, specifying the model to use.
    pub name_id: u32,
    /// this ID should be unique for all ADTs currently loaded.
    pub unique_id: u32,
    /// `C3Vector position`
    pub position: [f32; 3],
    /// same as in MDDF.
    pub rotation: [f32; 3],
    /// position plus the transformed wmo bounding box. used for defining if they
    /// are rendered as well as collision.
    pub extents: CAaBox,
    /// values from enum MODFFlags ([`modf_flags`]).
    pub flags: u16,
    /// which WMO doodad set is used.
    pub doodad_set: u16,
    /// which WMO name set is used.
    pub name_set: u16,
    /// Legion(?)+: has data finally! Padding in 0.5.3 alpha.
    pub unk: u16,
}

/// `MODF`: placement information for WMOs.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Modf {
    /// `SMMapObjDef mapObjDefs[0]`
    #[format(count = size / 64)]
    pub map_obj_defs: Vec<SMMapObjDef>,
}
