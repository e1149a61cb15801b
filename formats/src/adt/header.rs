//! `MVER`, `MHDR` and `MCIN`: the version and the two tables the client
//! navigates a tile by, and `MFBO`, the flight bounds.
//!
//! The offsets in `MHDR` and the entries of `MCIN` point at other chunks of the
//! file; they are `Derived` here (computed by [`Adt::to_bytes`](super::Adt::to_bytes)
//! from where the chunks really are) and never stored.

use format_core::{Codec, Derived, Reader, Result, Writer};

use super::kept::Kept;

/// `MVER { uint32_t version; }` (18 for every ADT and map WDT, 20 for Legion `_lgt.wdt`).
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mver {
    /// The file version.
    #[format(sets_version)]
    pub version: u32,
}

/// The fields of `MHDR` that point at chunks, in the order the spec lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum MhdrField {
    /// `MCIN* mcin`
    Mcin,
    /// `MTEX* mtex`
    Mtex,
    /// `MMDX* mmdx`
    Mmdx,
    /// `MMID* mmid`
    Mmid,
    /// `MWMO* mwmo`
    Mwmo,
    /// `MWID* mwid`
    Mwid,
    /// `MDDF* mddf`
    Mddf,
    /// `MODF* modf`
    Modf,
    /// `MFBO* mfbo`
    Mfbo,
    /// `MH2O* mh2o`
    Mh2o,
    /// `MTXF* mtxf`
    Mtxf,
}

impl MhdrField {
    /// Every field, in on-disk order.
    pub const ALL: [MhdrField; 11] = [
        MhdrField::Mcin,
        MhdrField::Mtex,
        MhdrField::Mmdx,
        MhdrField::Mmid,
        MhdrField::Mwmo,
        MhdrField::Mwid,
        MhdrField::Mddf,
        MhdrField::Modf,
        MhdrField::Mfbo,
        MhdrField::Mh2o,
        MhdrField::Mtxf,
    ];

    /// The tag of the chunk the field points at.
    pub fn tag(self) -> [u8; 4] {
        match self {
            MhdrField::Mcin => *b"MCIN",
            MhdrField::Mtex => *b"MTEX",
            MhdrField::Mmdx => *b"MMDX",
            MhdrField::Mmid => *b"MMID",
            MhdrField::Mwmo => *b"MWMO",
            MhdrField::Mwid => *b"MWID",
            MhdrField::Mddf => *b"MDDF",
            MhdrField::Modf => *b"MODF",
            MhdrField::Mfbo => *b"MFBO",
            MhdrField::Mh2o => *b"MH2O",
            MhdrField::Mtxf => *b"MTXF",
        }
    }
}

/// The values the `MHDR` offsets are written with, in [`MhdrField::ALL`] order:
/// each chunk's offset from the start of the `MHDR` data, 0 where it is absent
/// (kept values applied). Computed by [`Adt::to_bytes`](super::Adt::to_bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MhdrOffsets(pub [u32; 11]);

impl MhdrOffsets {
    /// The value of one field.
    pub fn get(&self, field: MhdrField) -> u32 {
        let index = MhdrField::ALL
            .iter()
            .position(|f| *f == field)
            .unwrap_or_default();
        self.0.get(index).copied().unwrap_or_default()
    }
}

/// `SMMapHeader`: flags, and offsets relative to `&MHDR.data` of the chunks the
/// client parses the tile by. Cata+ root files keep only `mh2o` (and `mfbo`).
///
/// ```text
/// struct SMMapHeader {
///   uint32_t flags;          // 1: mhdr_MFBO (contains a MFBO chunk), 2: mhdr_northrend
///   MCIN* mcin; MTEX* mtex; MMDX* mmdx; MMID* mmid; MWMO* mwmo; MWID* mwid;
///   MDDF* mddf; MODF* modf; MFBO* mfbo; MH2O* mh2o; MTXF* mtxf;
///   uint8_t mamp_value; uint8_t padding[3]; uint32_t unused[3];
/// } mhdr;
/// ```
#[derive(Codec, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(offsets: MhdrOffsets))]
pub struct Mhdr {
    /// 1: `mhdr_MFBO` (contains a MFBO chunk), 2: `mhdr_northrend` (set for some northrend ones)
    pub flags: u32,
    /// Cata+: obviously gone. probably all offsets gone, except mh2o (which remains in root file).
    #[format(calc = offsets.get(MhdrField::Mcin))]
    pub mcin: Derived<u32>,
    /// `MTEX*`
    #[format(calc = offsets.get(MhdrField::Mtex))]
    pub mtex: Derived<u32>,
    /// `MMDX*`
    #[format(calc = offsets.get(MhdrField::Mmdx))]
    pub mmdx: Derived<u32>,
    /// `MMID*`
    #[format(calc = offsets.get(MhdrField::Mmid))]
    pub mmid: Derived<u32>,
    /// `MWMO*`
    #[format(calc = offsets.get(MhdrField::Mwmo))]
    pub mwmo: Derived<u32>,
    /// `MWID*`
    #[format(calc = offsets.get(MhdrField::Mwid))]
    pub mwid: Derived<u32>,
    /// `MDDF*`
    #[format(calc = offsets.get(MhdrField::Mddf))]
    pub mddf: Derived<u32>,
    /// `MODF*`
    #[format(calc = offsets.get(MhdrField::Modf))]
    pub modf: Derived<u32>,
    /// this is only set if flags & mhdr_MFBO.
    #[format(calc = offsets.get(MhdrField::Mfbo))]
    pub mfbo: Derived<u32>,
    /// `MH2O*`
    #[format(calc = offsets.get(MhdrField::Mh2o))]
    pub mh2o: Derived<u32>,
    /// `MTXF*`
    #[format(calc = offsets.get(MhdrField::Mtxf))]
    pub mtxf: Derived<u32>,
    /// Cata+, explicit MAMP chunk overrides data
    pub mamp_value: u8,
    /// `uint8_t padding[3]`
    pub padding: [u8; 3],
    /// `uint32_t unused[3]`
    pub unused: [u32; 3],
    /// Offsets this file wrote differently from its layout (see [`kept`](super::kept)).
    #[format(skip)]
    pub kept: Kept<MhdrField>,
}

impl Default for Mhdr {
    fn default() -> Self {
        Mhdr {
            flags: 0,
            mcin: Derived::new(),
            mtex: Derived::new(),
            mmdx: Derived::new(),
            mmid: Derived::new(),
            mwmo: Derived::new(),
            mwid: Derived::new(),
            mddf: Derived::new(),
            modf: Derived::new(),
            mfbo: Derived::new(),
            mh2o: Derived::new(),
            mtxf: Derived::new(),
            mamp_value: 0,
            padding: [0; 3],
            unused: [0; 3],
            kept: Kept::new(),
        }
    }
}

/// An `MCIN` entry's derived field: which entry, and whether the offset or
/// the size (ordered by entry first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct McinField {
    /// The entry's index.
    pub entry: u32,
    /// `false`: its `offset`; `true`: its `size`.
    pub size: bool,
}

impl McinField {
    /// `offset` of entry `n`.
    pub fn offset(entry: u32) -> McinField {
        McinField { entry, size: false }
    }

    /// `size` of entry `n`.
    pub fn size(entry: u32) -> McinField {
        McinField { entry, size: true }
    }
}

/// The `offset`/`size` pairs `MCIN` is written with, one per entry: each
/// `MCNK`'s absolute position and its size including the 8-byte header
/// (kept values applied). Computed by [`Adt::to_bytes`](super::Adt::to_bytes).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McinOffsets(pub Vec<(u32, u32)>);

/// `SMChunkInfo` without its derived `offset` and `size`: what the entry holds
/// besides the position of its `MCNK`.
///
/// ```text
/// struct SMChunkInfo {
///   uint32_t offset;   // absolute offset.
///   uint32_t size;     // the size of the MCNK chunk, this is refering to.
///   uint32_t flags;    // always 0. only set in the client., FLAG_LOADED = 1
///   union { char pad[4]; uint32_t asyncId; }; // not in the adt file. client use only
/// } mcin[16*16];
/// ```
#[derive(Codec, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct McinEntry {
    /// always 0. only set in the client., FLAG_LOADED = 1
    pub flags: u32,
    /// `union { char pad[4]; uint32_t asyncId; }`: not in the adt file. client use only
    pub async_id: u32,
}

/// `MCIN` (< Cata): pointers to the MCNK chunks and their sizes, 16*16 entries.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(args(offsets: McinOffsets))]
pub struct Mcin {
    /// The entries, without their derived `offset` and `size`.
    // Hand-written: entry `n` takes its offset and size from the `n`-th MCNK, and
    // a per-element declaration cannot see its own index.
    #[format(read_with = read_entries, write_with = write_entries, args(&offsets))]
    pub entries: Vec<McinEntry>,
    /// Entries this file wrote differently from its layout (see [`kept`](super::kept)).
    #[format(skip)]
    pub kept: Kept<McinField>,
}

/// Reads `SMChunkInfo[size / 16]`, keeping `flags` and `asyncId` (the offsets
/// are captured by the tile reader, which knows where the MCNKs are).
fn read_entries(r: &mut Reader<'_>, _: &McinOffsets) -> Result<Vec<McinEntry>> {
    let start = r.pos();
    if !r.remaining().is_multiple_of(16) {
        return Err(format_core::Error::invalid(
            start,
            format!("MCIN size {} is not a multiple of 16", r.remaining()),
        ));
    }
    let count = r.remaining() / 16;
    let raw: Vec<[u32; 4]> = r.plain_vec(count)?;
    Ok(raw
        .into_iter()
        .map(|[_, _, flags, async_id]| McinEntry { flags, async_id })
        .collect())
}

/// Writes each entry with the offset and size of its MCNK.
fn write_entries(entries: &[McinEntry], w: &mut Writer, offsets: &McinOffsets) -> Result<()> {
    for (i, entry) in entries.iter().enumerate() {
        let (offset, size) = offsets.0.get(i).copied().unwrap_or_default();
        w.plain(&[offset, size, entry.flags, entry.async_id]);
    }
    Ok(())
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
