//! `MVER`, `MHDR` and `MCIN`: the version and the two tables the client
//! navigates a tile by, and `MFBO`, the flight bounds.
//!
//! `MHDR` and `MCIN` point at other chunks of the file. Their offsets and
//! sizes are declared (`offset(of = parent["MCIN"], ...)`): derived on write
//! from where the chunks land, and what a file wrote differently (Noggit's
//! MCIN sizes, 8 bytes short) kept while the chunks stay where they were.

use format_core::{Codec, Derived, Kept};

/// `MVER { uint32_t version; }` (18 for every ADT and map WDT, 20 for Legion `_lgt.wdt`).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mver {
    /// The file version.
    #[format(sets_version)]
    pub version: u32,
}

/// `MHDR` flags.
pub mod mhdr_flags {
    /// `mhdr_MFBO`: contains a MFBO chunk.
    pub const MFBO: u32 = 1;
    /// `mhdr_northrend`: is set for some northrend ones.
    pub const NORTHREND: u32 = 2;
}

/// `MHDR`: flags, and offsets relative to `&MHDR.data` of the chunks the
/// client parses the tile by (0 where the chunk is absent). Cata+ root files
/// keep only `mh2o` (and `mfbo`).
///
/// ```text
/// struct SMMapHeader {
///   uint32_t flags;          // 1: mhdr_MFBO (contains a MFBO chunk), 2: mhdr_northrend
///   MCIN* mcin; MTEX* mtex; MMDX* mmdx; MMID* mmid; MWMO* mwmo; MWID* mwid;
///   MDDF* mddf; MODF* modf; MFBO* mfbo; MH2O* mh2o; MTXF* mtxf;
///   uint8_t mamp_value; uint8_t padding[3]; uint32_t unused[3];
/// } mhdr;
/// ```
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SMMapHeader {
    /// [`mhdr_flags`]
    pub flags: u32,
    /// Cata+: obviously gone. probably all offsets gone, except mh2o (which remains in root file).
    #[format(offset(of = parent["MCIN"], from = start))]
    pub mcin: Derived<u32>,
    /// `MTEX* mtex`
    #[format(offset(of = parent["MTEX"], from = start))]
    pub mtex: Derived<u32>,
    /// `MMDX* mmdx`
    #[format(offset(of = parent["MMDX"], from = start))]
    pub mmdx: Derived<u32>,
    /// `MMID* mmid`
    #[format(offset(of = parent["MMID"], from = start))]
    pub mmid: Derived<u32>,
    /// `MWMO* mwmo`
    #[format(offset(of = parent["MWMO"], from = start))]
    pub mwmo: Derived<u32>,
    /// `MWID* mwid`
    #[format(offset(of = parent["MWID"], from = start))]
    pub mwid: Derived<u32>,
    /// `MDDF* mddf`
    #[format(offset(of = parent["MDDF"], from = start))]
    pub mddf: Derived<u32>,
    /// `MODF* modf`
    #[format(offset(of = parent["MODF"], from = start))]
    pub modf: Derived<u32>,
    /// this is only set if flags & mhdr_MFBO.
    #[format(offset(of = parent["MFBO"], from = start))]
    pub mfbo: Derived<u32>,
    /// `MH2O* mh2o`
    #[format(offset(of = parent["MH2O"], from = start))]
    pub mh2o: Derived<u32>,
    /// `MTXF* mtxf`
    #[format(offset(of = parent["MTXF"], from = start))]
    pub mtxf: Derived<u32>,
    /// Cata+, explicit MAMP chunk overrides data
    pub mamp_value: u8,
    /// `uint8_t padding[3]`
    pub padding: [u8; 3],
    /// `uint32_t unused[3]`
    pub unused: [u32; 3],
    /// Offsets this file wrote differently from where its chunks are.
    #[format(kept)]
    pub kept: Kept,
}

/// The `MHDR` chunk: [`SMMapHeader`].
pub type Mhdr = SMMapHeader;

/// `SMChunkInfo`: where the `index`-th MCNK of the file is.
///
/// ```text
/// struct SMChunkInfo {
///   uint32_t offset;   // absolute offset.
///   uint32_t size;     // the size of the MCNK chunk, this is refering to.
///   uint32_t flags;    // always 0. only set in the client., FLAG_LOADED = 1
///   union { char pad[4]; uint32_t asyncId; }; // not in the adt file. client use only
/// } mcin[16*16];
/// ```
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(index: usize))]
pub struct SMChunkInfo {
    /// absolute offset.
    #[format(offset(of = parent["MCNK"][index], from = 0))]
    pub offset: Derived<u32>,
    /// the size of the MCNK chunk, this is refering to (its 8-byte header included).
    #[format(size(of = parent["MCNK"][index]))]
    pub size: Derived<u32>,
    /// always 0. only set in the client., FLAG_LOADED = 1
    pub flags: u32,
    /// `union { char pad[4]; uint32_t asyncId; }`: not in the adt file. client use only
    pub async_id: u32,
    /// The offset and size as this file wrote them, if they differ from where its MCNK is.
    #[format(kept)]
    pub kept: Kept,
}

/// `MCIN` (< Cata): `SMChunkInfo mcin[16*16]`, entry `n` locating the `n`-th MCNK.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mcin {
    /// `SMChunkInfo mcin[16*16]`
    #[format(count = size / 16, args(index))]
    pub entries: Vec<SMChunkInfo>,
}

/// `MFBO` (BC+): the flight bounds, two planes of 3*3 heights.
///
/// ```text
/// struct plane { short[3][3] height; };
/// struct { plane maximum; plane minimum; } MFBO;
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Mfbo {
    /// `plane maximum`
    pub maximum: [[i16; 3]; 3],
    /// `plane minimum`
    pub minimum: [[i16; 3]; 3],
}
