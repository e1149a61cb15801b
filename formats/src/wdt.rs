//! WDT map definitions: which tiles of a map exist (`MAIN`), the map's flags
//! (`MPHD`, among them the alpha bit depth the ADT alpha-map decoder needs),
//! and the global WMO of WMO-only maps (`MWMO`, `MODF`). Tags are stored
//! reversed, as in ADT files.
//!
//! The Cataclysm+ companions `_occ.wdt` (`MAOI`, `MAOH`) and Legion `_lgt.wdt`
//! (`MPL2`, `MSLT`, …, `MVER` 20) are read by the same type: their chunks are
//! kept as [`UnknownChunk`]s, in place, and written back as they were.
//! [`Wdt::from_bytes_lenient`] reads damaged files as ADT tiles are read:
//! a chunk that does not decode kept as bytes, the chunk a file cut short
//! ends inside as [`WdtChunk::Cut`].
//!
//! ```
//! use formats::wdt::{Wdt, WdtChunk, Main, Mphd, mphd_flags};
//! use formats::adt::header::Mver;
//!
//! let mut main = Main::new();
//! main.set_has_adt(32, 30, true);
//! let wdt = Wdt {
//!     chunks: vec![
//!         WdtChunk::Mver(Mver { version: 18 }),
//!         WdtChunk::Mphd(Mphd { flags: mphd_flags::ADT_HAS_BIG_ALPHA, ..Default::default() }),
//!         WdtChunk::Main(main),
//!     ],
//! };
//! let bytes = wdt.to_bytes()?;
//! assert_eq!(bytes.len(), 12 + 40 + 8 + 64 * 64 * 8);
//! let back = Wdt::from_bytes(&bytes)?;
//! assert!(back.main().is_some_and(|m| m.has_adt(32, 30)));
//! assert_eq!(back.mphd_flags(), mphd_flags::ADT_HAS_BIG_ALPHA);
//! assert_eq!(back, wdt);
//! # Ok::<(), formats::Error>(())
//! ```

use format_core::{Codec, CutChunk, Decode, Diagnostic, Encode, Error, HasTag, Mode, UnknownChunk};

use crate::adt::header::Mver;
use crate::adt::names::FileNames;
use crate::adt::placement::Modf;
use crate::adt::terrain_context;

/// `MPHD` flags.
pub mod mphd_flags {
    /// `wdt_uses_global_map_obj`: a WMO-only map (MWMO/MODF hold its WMO).
    pub const WDT_USES_GLOBAL_MAP_OBJ: u32 = 0x1;
    /// `adt_has_mccv`
    pub const ADT_HAS_MCCV: u32 = 0x2;
    /// `adt_has_big_alpha`: uncompressed alpha maps are 8-bit (4096 bytes).
    pub const ADT_HAS_BIG_ALPHA: u32 = 0x4;
    /// `adt_has_doodadrefs_sorted_by_size_cat`: MCRF/MCRD sorted by size category.
    pub const ADT_HAS_DOODADREFS_SORTED_BY_SIZE_CAT: u32 = 0x8;
    /// `adt_has_lighting_vertices` (MCLV)
    pub const ADT_HAS_LIGHTING_VERTICES: u32 = 0x10;
    /// `adt_has_upside_down_ground`
    pub const ADT_HAS_UPSIDE_DOWN_GROUND: u32 = 0x20;
    /// `unk_0x0040`
    pub const UNK_0X40: u32 = 0x40;
    /// `adt_has_height_texturing`: also makes alpha maps 8-bit.
    pub const ADT_HAS_HEIGHT_TEXTURING: u32 = 0x80;
    /// `unk_0x0100`
    pub const UNK_0X100: u32 = 0x100;
    /// `wdt_has_maid` (8.1+)
    pub const WDT_HAS_MAID: u32 = 0x200;
}

/// `SMMapHeader` of a WDT (32 bytes).
///
/// ```text
/// struct SMMapHeader { uint32_t flags; uint32_t something; uint32_t unused[6]; };
/// ```
/// (8.1+ put file data ids of the `_lgt`, `_occ`, `_fogs`, `_mpv`, `_tex`, `.wdl`
/// and `.pd4` files in the seven words after `flags`.)
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mphd {
    /// [`mphd_flags`]
    pub flags: u32,
    /// `uint32_t something`
    pub something: u32,
    /// `uint32_t unused[6]`
    pub unused: [u32; 6],
}

/// `SMAreaInfo`: one tile of the 64x64 map.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct SMAreaInfo {
    /// 1: `Flag_HasADT`, 2: `Flag_Loaded` (client only)
    pub flags: u32,
    /// client use only
    pub async_id: u32,
}

/// `MAIN`: `SMAreaInfo map_area_info[64][64]`, row (`y`) by row.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Main {
    /// `entries[64 * y + x]`
    #[format(count = size / 8)]
    pub entries: Vec<SMAreaInfo>,
}

impl Main {
    /// 64x64 tiles, none present.
    pub fn new() -> Main {
        Main {
            entries: vec![SMAreaInfo::default(); 64 * 64],
        }
    }

    /// True if tile (`x`, `y`) has an ADT.
    pub fn has_adt(&self, x: usize, y: usize) -> bool {
        x < 64
            && self
                .entries
                .get(y * 64 + x)
                .is_some_and(|e| e.flags & 1 != 0)
    }

    /// Marks tile (`x`, `y`) as having an ADT or not (ignored outside the map).
    pub fn set_has_adt(&mut self, x: usize, y: usize, present: bool) {
        if x < 64
            && let Some(e) = self.entries.get_mut(y * 64 + x)
        {
            e.flags = (e.flags & !1) | u32::from(present);
        }
    }

    /// How many tiles have an ADT.
    pub fn tile_count(&self) -> usize {
        self.entries.iter().filter(|e| e.flags & 1 != 0).count()
    }
}

/// One `MAID` entry (8.1+): the file data ids of a tile's files.
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct MapFileDataIds {
    /// `_xx_yy.adt`
    pub root_adt: u32,
    /// `_xx_yy_obj0.adt`
    pub obj0_adt: u32,
    /// `_xx_yy_obj1.adt`
    pub obj1_adt: u32,
    /// `_xx_yy_tex0.adt`
    pub tex0_adt: u32,
    /// `_xx_yy_lod.adt`
    pub lod_adt: u32,
    /// `_xx_yy.blp`
    pub map_texture: u32,
    /// `_xx_yy_n.blp`
    pub map_texture_n: u32,
    /// `mapxx_yy.blp`
    pub minimap_texture: u32,
}

/// `MAID` (8.1+): `MapFileDataIDs map_file_data_ids[64][64]`.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Maid {
    /// `entries[64 * y + x]`
    #[format(count = size / 32)]
    pub entries: Vec<MapFileDataIds>,
}

/// One chunk of a WDT, in file order.
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk_list)]
pub enum WdtChunk {
    /// `MVER` (18; 20 for Legion light WDTs)
    #[format(chunk = "MVER")]
    Mver(Mver),
    /// `MPHD`
    #[format(chunk = "MPHD")]
    Mphd(Mphd),
    /// `MAIN`
    #[format(chunk = "MAIN")]
    Main(Main),
    /// `MAID`
    #[format(chunk = "MAID")]
    Maid(Maid),
    /// `MWMO`: the global WMO's file name (empty on terrain maps)
    #[format(chunk = "MWMO")]
    Mwmo(FileNames),
    /// `MODF`: the global WMO's placement (empty on terrain maps)
    #[format(chunk = "MODF")]
    Modf(Modf),
    /// The last chunk of a file that ends inside it, kept as its bytes: only
    /// a lenient read makes one (see [`Wdt::from_bytes_lenient`]), and
    /// writing gives the cut bytes back.
    #[format(cut)]
    Cut(CutChunk),
    /// Any other chunk (`_occ`: `MAOI`, `MAOH`; `_lgt`: `MPL2`, `MSLT`, …), kept in place.
    #[format(unknown)]
    Unknown(UnknownChunk),
}

/// What kind of WDT a file is, from its chunks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WdtKind {
    /// A map definition: MPHD and MAIN.
    Map,
    /// `_occ.wdt`: MAOI/MAOH occlusion data.
    Occlusion,
    /// `_lgt.wdt`: lights (MVER 20; possibly nothing else).
    Light,
    /// None of the above.
    Other,
}

/// A WDT file: every chunk in file order, read and written as a tile's
/// chunk list is ([`Adt`](crate::adt::Adt)), strictly or leniently.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Wdt {
    /// Every chunk, in file order (the derived chunk list of [`WdtChunk`]).
    #[format(until_end)]
    pub chunks: Vec<WdtChunk>,
}

impl Wdt {
    /// Reads a WDT (any kind).
    pub fn from_bytes(data: &[u8]) -> Result<Wdt, Error> {
        crate::adt::read_file(data, Mode::Strict, "a WDT file").map(|(wdt, _)| wdt)
    }

    /// Reads a WDT leniently: a known chunk whose body does not decode is
    /// kept as an [`UnknownChunk`] in its place, the chunk a file cut short
    /// ends inside as [`WdtChunk::Cut`], each with a diagnostic; the file
    /// writes back byte for byte.
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(Wdt, Vec<Diagnostic>), Error> {
        crate::adt::read_file(data, Mode::Lenient, "a WDT file")
    }

    /// Views a WDT in place, strictly, as [`Adt::view`](crate::adt::Adt::view)
    /// views a tile: the chunk walk now, each chunk's content when reached.
    pub fn view(data: &[u8]) -> Result<WdtView<'_>, Error> {
        crate::adt::read_view::<Wdt>(data, "a WDT file")
    }

    /// Writes the WDT (by the writer tiles have: a cut chunk can only be
    /// the last one).
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        crate::adt::write_file(self, self.chunks.len())
    }

    /// `MVER.version`.
    pub fn version(&self) -> Option<u32> {
        self.chunks.iter().find_map(|c| match c {
            WdtChunk::Mver(m) => Some(m.version),
            _ => None,
        })
    }

    /// The `MPHD` chunk.
    pub fn mphd(&self) -> Option<&Mphd> {
        self.chunks.iter().find_map(|c| match c {
            WdtChunk::Mphd(m) => Some(m),
            _ => None,
        })
    }

    /// `MPHD.flags` (0 without MPHD): what the ADT alpha-map decoder takes
    /// (see [`AlphaFormat::for_layer`](crate::adt::alpha::AlphaFormat::for_layer)).
    pub fn mphd_flags(&self) -> u32 {
        self.mphd().map_or(0, |m| m.flags)
    }

    /// The `MAIN` chunk.
    pub fn main(&self) -> Option<&Main> {
        self.chunks.iter().find_map(|c| match c {
            WdtChunk::Main(m) => Some(m),
            _ => None,
        })
    }

    /// The first chunk with `T`'s tag, decoded as a `T` (tags reversed, as
    /// in the file): a chunk of the user's own, kept as
    /// [`WdtChunk::Unknown`] in place. See
    /// [`mdx::Model::chunk`](crate::mdx::Model::chunk).
    pub fn chunk<T: Decode<Args = ()> + HasTag>(&self) -> Option<Result<T, Error>> {
        format_core::chunk_list::chunk(&self.chunks, terrain_context())
    }

    /// Puts `value` in place of the first chunk with its tag, or after the
    /// last chunk. See [`mdx::Model::set_chunk`](crate::mdx::Model::set_chunk).
    pub fn set_chunk<T: Encode<Args = ()> + HasTag>(&mut self, value: &T) -> Result<(), Error> {
        format_core::chunk_list::set_chunk(&mut self.chunks, value, terrain_context())
    }

    /// What kind of WDT this is.
    pub fn kind(&self) -> WdtKind {
        let has = |tag: &[u8; 4]| self.chunks.iter().any(|c| c.tag() == tag);
        if has(b"MPHD") && has(b"MAIN") {
            WdtKind::Map
        } else if has(b"MAOI") || has(b"MAOH") {
            WdtKind::Occlusion
        } else if self.version() == Some(20) {
            WdtKind::Light
        } else {
            WdtKind::Other
        }
    }
}
