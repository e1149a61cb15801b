//! Split tiles (Cataclysm+): a root file and `_tex0`, `_obj0`, `_obj1`, `_lod`
//! files, built from a monolithic tile and merged back into one.
//!
//! Chunks go where the seed's "split files:" line puts them:
//!
//! | file | chunks | MCNK sub-chunks |
//! |---|---|---|
//! | root ([`Adt`]) | MHDR MH2O MFBO MBMH MBBB MBNV MBMI MBMB, unknown chunks | header, MCVT MCCV MCLV MCNR MCLQ MCSE MCBB MCDD, unknown |
//! | `_tex0` | MTEX MTXF MTXP MAMP | MCLY MCSH MCAL MCMT |
//! | `_obj0` | MMDX MMID MWMO MWID MDDF MODF | MCRD MCRW (MCRF split in two) |
//! | `_obj1` | MLMD MLMX MLDD MLDX MLDL MLFD | |
//! | `_lod` | MLHD MLVH MLVI MLLL MLND MLSI MLLD MLLN MLLV MLLI | |
//!
//! Every file starts with MVER; MCIN is gone (built afresh on merging). The
//! tex and obj files have an MCNK (without header) for each root MCNK.
//! Merging puts the chunks back in the order monolithic tiles use, so a tile
//! split and merged again is the same tile, byte for byte apart from MCIN,
//! which is rebuilt (its kept values, such as Noggit's short sizes, do not
//! survive the split). That holds for the files in memory; files written to
//! disk and read again have lost the MCNK header values that disagreed with
//! their sub-chunks (kept values live in memory, and the split MCNK header
//! and its sub-chunks are in different files): a merged tile writes fresh
//! ones, such as `sizeLiquid` 0 where the file said 8 without liquid, and
//! the real MCAL sizes where Northrend's size fields are wrong.

use format_core::{Codec, Error, FourCC, Mode, Result};

use super::chunk::AdtChunk;
use super::header::{Mcin, Mver, SMChunkInfo};
use super::mcnk::{EntryRefs, McnkBody, McnkChunk, Mcrf};
use super::tile::{self, Adt};

/// A `_tex`, `_obj` or `_lod` file: chunks, with MCNKs without headers.
#[derive(Codec, Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitFile {
    /// Every chunk, in file order (the derived chunk list of [`AdtChunk`]).
    #[format(until_end)]
    pub chunks: Vec<AdtChunk<McnkBody>>,
}

impl SplitFile {
    /// Reads a `_tex`, `_obj` or `_lod` file.
    pub fn from_bytes(data: &[u8]) -> Result<SplitFile> {
        tile::read_file(data, Mode::Strict, "an ADT file").map(|(file, _)| file)
    }

    /// Reads a `_tex`, `_obj` or `_lod` file leniently, as
    /// [`Adt::from_bytes_lenient`](super::Adt::from_bytes_lenient) reads a
    /// tile (undecodable chunks kept as bytes, a cut one as
    /// [`AdtChunk::Cut`]); the file writes back byte for byte.
    pub fn from_bytes_lenient(data: &[u8]) -> Result<(SplitFile, Vec<format_core::Diagnostic>)> {
        tile::read_file(data, Mode::Lenient, "an ADT file")
    }

    /// Writes the file.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        tile::write_file(self, self.chunks.len())
    }

    /// The MCNKs, in file order.
    pub fn mcnks(&self) -> impl Iterator<Item = &McnkBody> + '_ {
        self.chunks.iter().filter_map(|c| match c {
            AdtChunk::Mcnk(m) => Some(m),
            _ => None,
        })
    }
}

/// Which file of a split tile a chunk belongs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The root `.adt`.
    Root,
    /// `_tex0.adt`
    Tex,
    /// `_obj0.adt`
    Obj,
    /// `_obj1.adt`
    Obj1,
    /// `_lod.adt`
    Lod,
}

impl Part {
    /// Where a top-level chunk lives (MVER: everywhere, reported as root).
    pub fn of_chunk(tag: FourCC) -> Part {
        match &tag.bytes() {
            b"MTEX" | b"MTXF" | b"MTXP" | b"MAMP" => Part::Tex,
            b"MMDX" | b"MMID" | b"MWMO" | b"MWID" | b"MDDF" | b"MODF" => Part::Obj,
            b"MLMD" | b"MLMX" | b"MLDD" | b"MLDX" | b"MLDL" | b"MLFD" => Part::Obj1,
            b"MLHD" | b"MLVH" | b"MLVI" | b"MLLL" | b"MLND" | b"MLSI" | b"MLLD" | b"MLLN"
            | b"MLLV" | b"MLLI" => Part::Lod,
            _ => Part::Root,
        }
    }

    /// Where an MCNK sub-chunk lives.
    pub fn of_sub_chunk(tag: FourCC) -> Part {
        match &tag.bytes() {
            b"MCLY" | b"MCSH" | b"MCAL" | b"MCMT" => Part::Tex,
            b"MCRF" | b"MCRD" | b"MCRW" => Part::Obj,
            _ => Part::Root,
        }
    }
}

/// A tile as Cataclysm+ stores it.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitAdt {
    /// The root `.adt`: MCNKs with their headers.
    pub root: Adt,
    /// `_tex0.adt`: textures and alpha maps.
    pub tex0: SplitFile,
    /// `_obj0.adt`: models and their placement.
    pub obj0: SplitFile,
    /// `_obj1.adt`: objects at a distance (Legion).
    pub obj1: SplitFile,
    /// `_lod.adt`: terrain and liquids at a distance (Legion).
    pub lod: SplitFile,
}

impl SplitAdt {
    /// Splits a monolithic tile, moving each chunk where the seed says it lives.
    pub fn from_monolithic(tile: &Adt) -> SplitAdt {
        let mver = tile.version().unwrap_or(18);
        let start = || vec![AdtChunk::Mver(Mver { version: mver })];
        let mut split = SplitAdt {
            root: Adt { chunks: Vec::new() },
            tex0: SplitFile { chunks: start() },
            obj0: SplitFile { chunks: start() },
            obj1: SplitFile { chunks: start() },
            lod: SplitFile { chunks: start() },
        };
        for chunk in tile.chunks.iter().cloned() {
            let part = Part::of_chunk(chunk.tag());
            match chunk.retype::<McnkBody>() {
                Err(mut mcnk) => {
                    let mut tex = McnkBody::default();
                    let mut obj = McnkBody::default();
                    for sub in std::mem::take(&mut mcnk.chunks) {
                        match (Part::of_sub_chunk(sub.tag()), sub) {
                            (Part::Tex, sub) => tex.chunks.push(sub),
                            (Part::Obj, McnkChunk::Mcrf(refs)) => {
                                obj.chunks.push(McnkChunk::Mcrd(EntryRefs {
                                    entries: refs.doodad_refs,
                                }));
                                obj.chunks.push(McnkChunk::Mcrw(EntryRefs {
                                    entries: refs.object_refs,
                                }));
                            }
                            (Part::Obj, sub) => obj.chunks.push(sub),
                            (_, sub) => mcnk.chunks.push(sub),
                        }
                    }
                    split.root.chunks.push(AdtChunk::Mcnk(mcnk));
                    split.tex0.chunks.push(AdtChunk::Mcnk(tex));
                    split.obj0.chunks.push(AdtChunk::Mcnk(obj));
                }
                Ok(AdtChunk::Mver(_)) => split
                    .root
                    .chunks
                    .push(AdtChunk::Mver(Mver { version: mver })),
                Ok(AdtChunk::Mcin(_)) => {}
                Ok(other) => match part {
                    Part::Tex => split.tex0.chunks.push(other),
                    Part::Obj => split.obj0.chunks.push(other),
                    Part::Obj1 => split.obj1.chunks.push(other),
                    Part::Lod => split.lod.chunks.push(other),
                    Part::Root => {
                        if let Ok(chunk) = other.retype() {
                            split.root.chunks.push(chunk);
                        }
                    }
                },
            }
        }
        split
    }

    /// Merges the files into a monolithic tile: MVER, MHDR, a new MCIN, MTEX,
    /// the obj chunks, the root's other chunks before its MCNKs, the MCNKs
    /// (root sub-chunks up to MCNR, then MCLY, MCRF, the other tex sub-chunks,
    /// then the rest of the root's), the root's chunks after its MCNKs, then
    /// the remaining tex, obj1 and lod chunks.
    pub fn to_monolithic(&self) -> Result<Adt> {
        let others = |file: &SplitFile, keep: &dyn Fn(&[u8; 4]) -> bool| -> Vec<AdtChunk> {
            file.chunks
                .iter()
                .filter(|c| !matches!(c, AdtChunk::Mver(_)) && keep(&c.tag().bytes()))
                .filter_map(|c| c.clone().retype().ok())
                .collect()
        };
        let tex_mcnks: Vec<&McnkBody> = self.tex0.mcnks().collect();
        let obj_mcnks: Vec<&McnkBody> = self.obj0.mcnks().collect();
        let root_mcnks = self.root.mcnks().count();
        for (name, n) in [("_tex0", tex_mcnks.len()), ("_obj0", obj_mcnks.len())] {
            if n != 0 && n != root_mcnks {
                return Err(Error::other(format!(
                    "{name} has {n} MCNKs, the root {root_mcnks}"
                )));
            }
        }
        let first_mcnk = self
            .root
            .chunks
            .iter()
            .position(|c| matches!(c, AdtChunk::Mcnk(_)))
            .unwrap_or(self.root.chunks.len());
        let after_header = self
            .root
            .chunks
            .iter()
            .take(first_mcnk)
            .position(|c| !matches!(c, AdtChunk::Mver(_) | AdtChunk::Mhdr(_)))
            .unwrap_or(first_mcnk);

        let mut chunks: Vec<AdtChunk> = self
            .root
            .chunks
            .iter()
            .take(after_header)
            .cloned()
            .collect();
        chunks.push(AdtChunk::Mcin(Mcin {
            entries: vec![SMChunkInfo::default(); root_mcnks],
        }));
        chunks.extend(others(&self.tex0, &|t| t == b"MTEX"));
        chunks.extend(others(&self.obj0, &|_| true));
        let mut n = 0;
        for chunk in self.root.chunks.iter().skip(after_header) {
            match chunk {
                AdtChunk::Mcnk(root) => {
                    let mut mcnk = root.clone();
                    let tex = tex_mcnks
                        .get(n)
                        .map(|m| m.chunks.as_slice())
                        .unwrap_or_default();
                    let obj = obj_mcnks
                        .get(n)
                        .map(|m| m.chunks.as_slice())
                        .unwrap_or_default();
                    mcnk.chunks = merge_sub_chunks(&root.chunks, tex, obj);
                    chunks.push(AdtChunk::Mcnk(mcnk));
                    n += 1;
                }
                other => chunks.push(other.clone()),
            }
        }
        chunks.extend(others(&self.tex0, &|t| t != b"MTEX"));
        chunks.extend(others(&self.obj1, &|_| true));
        chunks.extend(others(&self.lod, &|_| true));
        Ok(Adt { chunks })
    }
}

/// One MCNK's sub-chunks from the three files, in monolithic order.
fn merge_sub_chunks(root: &[McnkChunk], tex: &[McnkChunk], obj: &[McnkChunk]) -> Vec<McnkChunk> {
    let geometry = root
        .iter()
        .take_while(|c| {
            matches!(
                c,
                McnkChunk::Mcvt(_) | McnkChunk::Mccv(_) | McnkChunk::Mclv(_) | McnkChunk::Mcnr(_)
            )
        })
        .count();
    let mut out: Vec<McnkChunk> = root.iter().take(geometry).cloned().collect();
    out.extend(
        tex.iter()
            .filter(|c| matches!(c, McnkChunk::Mcly(_)))
            .cloned(),
    );
    let doodads = obj.iter().find_map(|c| match c {
        McnkChunk::Mcrd(r) => Some(r.entries.clone()),
        _ => None,
    });
    let objects = obj.iter().find_map(|c| match c {
        McnkChunk::Mcrw(r) => Some(r.entries.clone()),
        _ => None,
    });
    if doodads.is_some() || objects.is_some() {
        out.push(McnkChunk::Mcrf(Mcrf {
            doodad_refs: doodads.unwrap_or_default(),
            object_refs: objects.unwrap_or_default(),
        }));
    }
    out.extend(
        obj.iter()
            .filter(|c| !matches!(c, McnkChunk::Mcrd(_) | McnkChunk::Mcrw(_)))
            .cloned(),
    );
    out.extend(
        tex.iter()
            .filter(|c| !matches!(c, McnkChunk::Mcly(_)))
            .cloned(),
    );
    out.extend(root.iter().skip(geometry).cloned());
    out
}
