//! Typed access to a tile's chunks, and edits that keep them consistent with
//! each other (offsets and counts follow by themselves: they are derived).

use format_core::{Error, Result};

use super::chunk::AdtChunk;
use super::header::{Mcin, Mfbo, Mhdr};
use super::mcnk::{Mcnk, McnkChunk};
use super::mh2o::Mh2o;
use super::names::{FileNames, NameOffsets};
use super::placement::{Mddf, Modf, SMDoodadDef};
use super::split::SplitFile;
use super::tile::Adt;

/// The order monolithic tiles write their leading chunks in; a chunk an edit
/// adds goes before the first chunk that comes after it here.
const ORDER: [&[u8; 4]; 12] = [
    b"MVER", b"MHDR", b"MCIN", b"MTEX", b"MMDX", b"MMID", b"MWMO", b"MWID", b"MDDF", b"MODF",
    b"MH2O", b"MCNK",
];

fn rank(tag: [u8; 4]) -> Option<usize> {
    ORDER.iter().position(|t| **t == tag)
}

macro_rules! accessors {
    ($($get:ident, $get_mut:ident, $variant:ident, $ty:ty;)*) => {$(
        #[doc = concat!("The first `", stringify!($variant), "` chunk (tag `", stringify!($variant), "` in upper case).")]
        pub fn $get(&self) -> Option<&$ty> {
            self.chunks.iter().find_map(|c| match c {
                AdtChunk::$variant(m) => Some(m),
                _ => None,
            })
        }

        #[doc = concat!("The first `", stringify!($variant), "` chunk, to change it.")]
        pub fn $get_mut(&mut self) -> Option<&mut $ty> {
            self.chunks.iter_mut().find_map(|c| match c {
                AdtChunk::$variant(m) => Some(m),
                _ => None,
            })
        }
    )*};
}

/// The accessors of the chunks a tile shares with its `_tex0` and `_obj0`
/// files (the names, their offsets, the placements).
macro_rules! texture_and_object_accessors {
    () => {
        accessors! {
            mtex, mtex_mut, Mtex, FileNames;
            mmdx, mmdx_mut, Mmdx, FileNames;
            mmid, mmid_mut, Mmid, NameOffsets;
            mwmo, mwmo_mut, Mwmo, FileNames;
            mwid, mwid_mut, Mwid, NameOffsets;
            mddf, mddf_mut, Mddf, Mddf;
            modf, modf_mut, Modf, Modf;
        }
    };
}

impl Adt {
    accessors! {
        mhdr, mhdr_mut, Mhdr, Mhdr;
        mcin, mcin_mut, Mcin, Mcin;
        mh2o, mh2o_mut, Mh2o, Mh2o;
        mfbo, mfbo_mut, Mfbo, Mfbo;
    }
    texture_and_object_accessors!();

    /// `MVER.version` (18 for every v18 tile).
    pub fn version(&self) -> Option<u32> {
        self.chunks.iter().find_map(|c| match c {
            AdtChunk::Mver(m) => Some(m.version),
            _ => None,
        })
    }

    /// The MCNKs in file order (row by row from the north-west in real tiles).
    pub fn mcnks(&self) -> impl Iterator<Item = &Mcnk> + '_ {
        self.chunks.iter().filter_map(|c| match c {
            AdtChunk::Mcnk(m) => Some(m),
            _ => None,
        })
    }

    /// The MCNKs in file order, to change them.
    pub fn mcnks_mut(&mut self) -> impl Iterator<Item = &mut Mcnk> + '_ {
        self.chunks.iter_mut().filter_map(|c| match c {
            AdtChunk::Mcnk(m) => Some(m),
            _ => None,
        })
    }

    /// The `index`-th MCNK in file order.
    pub fn mcnk(&self, index: usize) -> Option<&Mcnk> {
        self.mcnks().nth(index)
    }

    /// The `index`-th MCNK in file order, to change it.
    pub fn mcnk_mut(&mut self, index: usize) -> Option<&mut Mcnk> {
        self.mcnks_mut().nth(index)
    }

    /// Forgets every value kept from the file (MHDR, MCIN and MCNK header
    /// values that differed from the layout, the MH2O layout): the next write
    /// derives all of them. Sub-chunk size fields are a separate matter
    /// ([`clear_declared_sizes`](Adt::clear_declared_sizes)).
    pub fn recompute_offsets(&mut self) {
        for chunk in &mut self.chunks {
            match chunk {
                AdtChunk::Mhdr(m) => m.kept.clear(),
                AdtChunk::Mcin(m) => m.entries.iter_mut().for_each(|e| e.kept.clear()),
                AdtChunk::Mh2o(m) => m.recompute_offsets(),
                AdtChunk::Mcnk(m) => m.kept.clear(),
                _ => {}
            }
        }
    }

    /// Makes every MCNR, MCLQ and MCAL size field say the real length (MCNR
    /// 448, as Cataclysm writes it) instead of what the file said.
    pub fn clear_declared_sizes(&mut self) {
        for mcnk in self.mcnks_mut() {
            for chunk in &mut mcnk.chunks {
                match chunk {
                    McnkChunk::Mcnr(m) => m.declared_size = None,
                    McnkChunk::Mclq(m) => m.declared_size = None,
                    McnkChunk::Mcal(m) => m.declared_size = None,
                    _ => {}
                }
            }
        }
    }

    /// The index of the first chunk with `tag`, inserting `make()` where a
    /// monolithic tile has it if there is none.
    fn ensure(&mut self, tag: [u8; 4], make: impl FnOnce() -> AdtChunk) -> usize {
        if let Some(i) = self.chunks.iter().position(|c| c.tag().bytes() == tag) {
            return i;
        }
        let mine = rank(tag).unwrap_or(ORDER.len());
        let at = self
            .chunks
            .iter()
            .position(|c| rank(c.tag().bytes()).is_some_and(|r| r > mine))
            .unwrap_or(self.chunks.len());
        self.chunks.insert(at, make());
        at
    }

    /// The MH2O chunk, inserted (without liquid) before the first MCNK if the
    /// tile has none.
    pub fn mh2o_or_insert(&mut self) -> Result<&mut Mh2o> {
        let at = self.ensure(*b"MH2O", || AdtChunk::Mh2o(Mh2o::new()));
        match self.chunks.get_mut(at) {
            Some(AdtChunk::Mh2o(m)) => Ok(m),
            _ => Err(Error::other("MH2O is missing")),
        }
    }

    /// The MTEX index of texture `path` (what an MCLY layer's `textureId`
    /// holds, see [`Mcnk::add_layer`](crate::adt::mcnk::Mcnk::add_layer)),
    /// appended to MTEX if the tile does not list it yet (MTEX is created in
    /// its place if the tile has none). Names compare as the game's file
    /// system does ([`FileNames::find`]: ASCII case and the slash do not
    /// matter). A name with a NUL is an error.
    pub fn add_texture(&mut self, path: &str) -> Result<u32> {
        if path.as_bytes().contains(&0) {
            return Err(Error::other(format!("file name {path:?} contains a NUL")));
        }
        let at = self.ensure(*b"MTEX", || AdtChunk::Mtex(FileNames::default()));
        let Some(AdtChunk::Mtex(names)) = self.chunks.get_mut(at) else {
            return Err(Error::other("MTEX is missing"));
        };
        let index = match names.find(path) {
            Some((index, _)) => index,
            None => {
                names.push(path)?;
                names.len() - 1
            }
        };
        u32::try_from(index).map_err(|_| Error::other("too many textures"))
    }

    /// Places a doodad: its model name goes into MMDX (unless there already,
    /// compared as [`FileNames::find`] does),
    /// an MMID entry points at it, the placement is appended to MDDF with that
    /// `nameId`, and the MCNKs `chunks` (file order) reference it in MCRF.
    /// Missing chunks are created. Returns the new MDDF index. An MCNK index
    /// the tile does not have, or a name with a NUL, is an error that leaves
    /// the tile as it was.
    pub fn add_doodad(
        &mut self,
        model: &str,
        mut def: SMDoodadDef,
        chunks: &[usize],
    ) -> Result<u32> {
        // Checked before anything changes: an error leaves the tile as it was.
        let mcnks = self.mcnks().count();
        if let Some(missing) = chunks.iter().find(|&&chunk| chunk >= mcnks) {
            return Err(Error::other(format!(
                "no MCNK {missing} (the tile has {mcnks})"
            )));
        }
        if model.as_bytes().contains(&0) {
            return Err(Error::other(format!("file name {model:?} contains a NUL")));
        }
        let names = self.ensure(*b"MMDX", || AdtChunk::Mmdx(FileNames::default()));
        let offset = match self.chunks.get_mut(names) {
            Some(AdtChunk::Mmdx(m)) => match m.find(model) {
                Some((_, offset)) => offset,
                None => m.push(model)?,
            },
            _ => return Err(Error::other("MMDX is missing")),
        };
        let ids = self.ensure(*b"MMID", || AdtChunk::Mmid(NameOffsets::default()));
        let name_id = match self.chunks.get_mut(ids) {
            Some(AdtChunk::Mmid(m)) => match m.offsets.iter().position(|&o| o == offset) {
                Some(i) => i,
                None => {
                    m.offsets.push(offset);
                    m.offsets.len() - 1
                }
            },
            _ => return Err(Error::other("MMID is missing")),
        };
        def.name_id = u32::try_from(name_id).map_err(|_| Error::other("too many models"))?;
        let defs = self.ensure(*b"MDDF", || AdtChunk::Mddf(Mddf::default()));
        let index = match self.chunks.get_mut(defs) {
            Some(AdtChunk::Mddf(m)) => {
                m.doodad_defs.push(def);
                m.doodad_defs.len() - 1
            }
            _ => return Err(Error::other("MDDF is missing")),
        };
        let index = u32::try_from(index).map_err(|_| Error::other("too many doodads"))?;
        for &chunk in chunks {
            self.mcnk_mut(chunk)
                .ok_or_else(|| Error::other(format!("no MCNK {chunk}")))?
                .add_doodad_ref(index);
        }
        Ok(index)
    }
}

/// The chunks a `_tex0` or `_obj0` file holds, as a tile has them.
impl SplitFile {
    texture_and_object_accessors!();
}
