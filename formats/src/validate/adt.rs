//! Checks of an ADT tile, and of the `_tex`/`_obj` files of a split one: the
//! references between their chunks, the grid of 256 map chunks, their
//! texture layers and the liquids.

use super::{Findings, Rule};
use crate::adt::alpha;
use crate::adt::mcnk::{MAX_LAYERS, Mcnk, McnkBody, McnkChunk, SMLayer, layer_flags};
use crate::adt::names::{FileNames, NameOffsets};
use crate::adt::{Adt, AdtChunk, SplitFile};

/// What a file's chunks index, from its first chunk of each kind (0 and
/// none where it has none).
struct Lists<'a> {
    doodads: usize,
    objects: usize,
    textures: usize,
    mmid: usize,
    mwid: usize,
    mmdx: Option<&'a FileNames>,
    mwmo: Option<&'a FileNames>,
}

/// [`Lists`] of a tile or a split file, through their accessors.
macro_rules! lists {
    ($file:expr) => {
        Lists {
            doodads: $file.mddf().map_or(0, |m| m.doodad_defs.len()),
            objects: $file.modf().map_or(0, |m| m.map_obj_defs.len()),
            textures: $file.mtex().map_or(0, |m| m.len()),
            mmid: $file.mmid().map_or(0, |m| m.offsets.len()),
            mwid: $file.mwid().map_or(0, |m| m.offsets.len()),
            mmdx: $file.mmdx(),
            mwmo: $file.mwmo(),
        }
    };
}

/// Every finding of the tile (see the [module](super) docs for the rules).
pub fn tile(adt: &Adt) -> Vec<super::Finding> {
    let findings = check(&adt.chunks, &lists!(adt), true, |m: &Mcnk| {
        (m.chunks.as_slice(), Some((m.index_x, m.index_y)))
    });
    #[cfg(feature = "terrain")]
    let findings = [findings, positions(adt)].concat();
    findings
}

/// `chunk-position`: the chunks off the grid, as the terrain exports see
/// them ([`TerrainTile::is_misplaced`](crate::terrain::TerrainTile::is_misplaced):
/// each MCNK's `position` against the corner its indices give in the tile
/// its first MCNK places).
#[cfg(feature = "terrain")]
fn positions(adt: &Adt) -> Vec<super::Finding> {
    let mut f = Findings::default();
    let mcnks = || {
        adt.chunks.iter().enumerate().filter_map(|(i, c)| match c {
            AdtChunk::Mcnk(m) => Some((i, m)),
            _ => None,
        })
    };
    let tile = match crate::terrain::TerrainTile::from_adt(adt) {
        Ok(tile) => tile,
        Err(e) => {
            if let Some((i, _)) = mcnks().next() {
                f.push(
                    Rule::ChunkPosition,
                    format!("chunks[{i}].MCNK.position"),
                    e.to_string(),
                );
            }
            return f.found;
        }
    };
    let t = tile.coord;
    // `TerrainTile::chunks` are the MCNKs in file order.
    for ((i, mcnk), chunk) in mcnks().zip(&tile.chunks) {
        if !tile.is_misplaced(chunk) {
            continue;
        }
        let [x, y] = chunk.coord.north_west(t);
        let [px, py] = [mcnk.position[0], mcnk.position[1]];
        f.push(
            Rule::ChunkPosition,
            format!("chunks[{i}].MCNK.position"),
            format!(
                "({px:.3}, {py:.3}): IndexX {}, IndexY {} of tile ({}, {}), which the first \
                 MCNK places, have their corner at ({x:.3}, {y:.3})",
                mcnk.index_x, mcnk.index_y, t.x, t.y
            ),
        );
    }
    f.found
}

/// Every finding of a file of a split tile (`_tex0`, `_obj0`, `_obj1`,
/// `_lod`): the rules of [`tile`] that its chunks can break on their own
/// (texture indices against its MTEX, `MCRD`/`MCRW` against its MDDF/MODF,
/// names, layers, alpha maps); a file with map chunks must have 256. Which
/// root MCNK a body belongs to is its place, so `chunk-index` is the root's.
pub fn split_file(file: &SplitFile) -> Vec<super::Finding> {
    check(&file.chunks, &lists!(file), false, |m: &McnkBody| {
        (m.chunks.as_slice(), None)
    })
}

/// The checks, over a tile's (`root`) or a split file's chunks; `body` gives
/// an MCNK's sub-chunks and, where it has a header, its `IndexX`/`IndexY`.
fn check<M>(
    chunks: &[AdtChunk<M>],
    lists: &Lists<'_>,
    root: bool,
    body: impl Fn(&M) -> (&[McnkChunk], Option<(u32, u32)>),
) -> Vec<super::Finding> {
    let mut f = Findings::default();
    let Lists {
        doodads,
        objects,
        textures,
        mmid,
        mwid,
        mmdx,
        mwmo,
    } = *lists;
    let mut mcnks = 0usize;
    for (i, chunk) in chunks.iter().enumerate() {
        match chunk {
            AdtChunk::Cut(cut) => {
                f.push(
                    Rule::CutChunk,
                    format!("chunks[{i}].{}", cut.tag),
                    cut.damage(),
                );
            }
            AdtChunk::Mmid(offsets) => {
                let at = format!("chunks[{i}].MMID");
                name_offsets(&mut f, &at, offsets, mmdx, "MMDX");
            }
            AdtChunk::Mwid(offsets) => {
                let at = format!("chunks[{i}].MWID");
                name_offsets(&mut f, &at, offsets, mwmo, "MWMO");
            }
            AdtChunk::Mddf(m) => {
                for (j, d) in m.doodad_defs.iter().enumerate() {
                    let path = format!("chunks[{i}].MDDF.doodad_defs[{j}].name_id");
                    f.index(Rule::NameId, path, d.name_id.into(), mmid, "MMID entries");
                }
            }
            AdtChunk::Modf(m) => {
                for (j, d) in m.map_obj_defs.iter().enumerate() {
                    let path = format!("chunks[{i}].MODF.map_obj_defs[{j}].name_id");
                    f.index(Rule::NameId, path, d.name_id.into(), mwid, "MWID entries");
                }
            }
            AdtChunk::Mh2o(mh2o) => {
                for (j, liquid) in mh2o.chunks.iter().enumerate() {
                    for (k, instance) in liquid.instances.iter().enumerate() {
                        let across = u16::from(instance.x_offset) + u16::from(instance.width);
                        let down = u16::from(instance.y_offset) + u16::from(instance.height);
                        if across > 8 || down > 8 {
                            f.push(
                                Rule::LiquidExtent,
                                format!("chunks[{i}].MH2O.chunks[{j}].instances[{k}]"),
                                format!(
                                    "x_offset {} + width {} and y_offset {} + height {}: \
                                     the chunk has 8 x 8 liquid tiles",
                                    instance.x_offset,
                                    instance.width,
                                    instance.y_offset,
                                    instance.height
                                ),
                            );
                        }
                    }
                }
            }
            AdtChunk::Mcnk(mcnk) => {
                let (subs, indices) = body(mcnk);
                let place = (mcnks % 16, mcnks / 16);
                if let Some((x, y)) = indices
                    && mcnks < 256
                    && (x as usize, y as usize) != place
                {
                    f.push(
                        Rule::ChunkIndex,
                        format!("chunks[{i}].MCNK"),
                        format!(
                            "IndexX {x}, IndexY {y}: MCNK {mcnks} of the tile is at \
                             column {}, row {}",
                            place.0, place.1
                        ),
                    );
                }
                mcnks += 1;
                let refs = Refs {
                    doodads,
                    objects,
                    textures,
                };
                sub_chunks(&mut f, &format!("chunks[{i}].MCNK"), subs, &refs);
            }
            _ => {}
        }
    }
    // A tile has 256 map chunks; a split file has one for each, or none
    // (`_obj1`, `_lod`).
    if mcnks != 256 && (root || mcnks > 0) {
        f.push(
            Rule::ChunkCount,
            "chunks",
            format!("{mcnks} MCNK map chunks, not 16 x 16 = 256"),
        );
    }
    f.found
}

/// How many entries the lists that sub-chunks index have.
struct Refs {
    doodads: usize,
    objects: usize,
    textures: usize,
}

/// The checks of one MCNK's sub-chunks (`at`: the MCNK's path).
fn sub_chunks(f: &mut Findings, at: &str, subs: &[McnkChunk], refs: &Refs) {
    let mcal = subs
        .iter()
        .find_map(|c| match c {
            McnkChunk::Mcal(m) => Some(m.data.as_slice()),
            _ => None,
        })
        .unwrap_or_default();
    for (j, sub) in subs.iter().enumerate() {
        let at = format!("{at}.chunks[{j}]");
        let lists: Vec<(&str, &[u32], usize, &str)> = match sub {
            McnkChunk::Mcrf(r) => vec![
                (
                    "MCRF.doodad_refs",
                    &r.doodad_refs,
                    refs.doodads,
                    "MDDF doodads",
                ),
                (
                    "MCRF.object_refs",
                    &r.object_refs,
                    refs.objects,
                    "MODF map objects",
                ),
            ],
            McnkChunk::Mcrd(r) => vec![("MCRD.entries", &r.entries, refs.doodads, "MDDF doodads")],
            McnkChunk::Mcrw(r) => {
                vec![("MCRW.entries", &r.entries, refs.objects, "MODF map objects")]
            }
            _ => Vec::new(),
        };
        for (field, list, len, what) in lists {
            for (k, r) in list.iter().enumerate() {
                let path = format!("{at}.{field}[{k}]");
                f.index(Rule::McrfReference, path, (*r).into(), len, what);
            }
        }
        let McnkChunk::Mcly(mcly) = sub else {
            continue;
        };
        if mcly.layers.len() > MAX_LAYERS {
            f.push(
                Rule::LayerCount,
                format!("{at}.MCLY.layers"),
                format!(
                    "{} texture layers: the client draws {MAX_LAYERS}",
                    mcly.layers.len()
                ),
            );
        }
        for (k, layer) in mcly.layers.iter().enumerate() {
            let path = format!("{at}.MCLY.layers[{k}].texture_id");
            let value = layer.texture_id.into();
            f.index(
                Rule::TextureIndex,
                path,
                value,
                refs.textures,
                "MTEX textures",
            );
            if let Some(why) = misplaced_alpha(layer, mcal) {
                let path = format!("{at}.MCLY.layers[{k}].offset_in_mcal");
                f.push(Rule::AlphaOffset, path, why);
            }
        }
    }
}

/// Why `layer`'s alpha map does not fit in MCAL's `data`, if it has one that
/// does not. Without the WDT's MPHD flags an uncompressed map may be 4-bit
/// (2048 bytes) or 8-bit (4096): the smaller must fit. A compressed one must
/// decode.
fn misplaced_alpha(layer: &SMLayer, data: &[u8]) -> Option<String> {
    if layer.flags & layer_flags::USE_ALPHA_MAP == 0 {
        return None;
    }
    let offset = layer.offset_in_mcal as usize;
    let mcal = data.len();
    let Some(rest) = data.get(offset..).filter(|rest| !rest.is_empty()) else {
        return Some(format!("{offset} is past the end of MCAL ({mcal} bytes)"));
    };
    if layer.flags & layer_flags::ALPHA_MAP_COMPRESSED != 0 {
        // With 8-bit alpha (MPHD) this is how it reads; with 4-bit alpha the
        // client ignores the flag and reads 2048 bytes.
        return alpha::decompress(rest)
            .err()
            .filter(|_| rest.len() < 2048)
            .map(|e| {
                format!(
                    "the compressed alpha map at {offset} of MCAL ({mcal} bytes) does not \
                     decode ({e}), nor do 2048 bytes of a 4-bit one follow"
                )
            });
    }
    (rest.len() < 2048).then(|| {
        format!(
            "{offset} leaves {} bytes of MCAL ({mcal} bytes): an uncompressed map takes 2048 \
             (4-bit) or 4096 (8-bit)",
            rest.len()
        )
    })
}

/// Every offset must be the start of a name: 0, or just after a NUL, inside the names.
fn name_offsets(
    f: &mut Findings,
    at: &str,
    offsets: &NameOffsets,
    names: Option<&FileNames>,
    names_tag: &str,
) {
    let bytes = names.map_or(&[][..], |n| n.filenames.as_slice());
    for (k, offset) in offsets.offsets.iter().enumerate() {
        let o = *offset as usize;
        let starts_name = o < bytes.len() && (o == 0 || bytes.get(o - 1) == Some(&0));
        if !starts_name {
            let why = if o >= bytes.len() {
                format!("past the end of {names_tag} ({} bytes)", bytes.len())
            } else {
                format!("inside a name of {names_tag}, not at its start")
            };
            f.push(
                Rule::NameOffset,
                format!("{at}.offsets[{k}]"),
                format!("offset {o} is {why}"),
            );
        }
    }
}
