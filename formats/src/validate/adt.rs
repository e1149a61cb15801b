//! Checks of an ADT tile: the references between its chunks, its grid of
//! 256 map chunks, their texture layers and its liquids.

use super::{Findings, Rule};
use crate::adt::alpha;
use crate::adt::mcnk::{MAX_LAYERS, SMLayer, layer_flags};
use crate::adt::names::{FileNames, NameOffsets};
use crate::adt::{Adt, AdtChunk};

/// Every finding of the tile (see the [module](super) docs for the rules).
pub fn tile(adt: &Adt) -> Vec<super::Finding> {
    let mut f = Findings::default();
    let doodads = adt.mddf().map_or(0, |m| m.doodad_defs.len());
    let objects = adt.modf().map_or(0, |m| m.map_obj_defs.len());
    let textures = adt.mtex().map_or(0, |m| m.len());
    let mmid = adt.mmid().map_or(0, |m| m.offsets.len());
    let mwid = adt.mwid().map_or(0, |m| m.offsets.len());
    let mut mcnks = 0usize;
    for (i, chunk) in adt.chunks.iter().enumerate() {
        match chunk {
            AdtChunk::Cut(cut) => {
                f.push(
                    Rule::CutChunk,
                    format!("chunks[{i}].{}", cut.tag),
                    cut.damage(),
                );
            }
            AdtChunk::Mmid(offsets) => {
                name_offsets(
                    &mut f,
                    &format!("chunks[{i}].MMID"),
                    offsets,
                    adt.mmdx(),
                    "MMDX",
                );
            }
            AdtChunk::Mwid(offsets) => {
                name_offsets(
                    &mut f,
                    &format!("chunks[{i}].MWID"),
                    offsets,
                    adt.mwmo(),
                    "MWMO",
                );
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
                let place = (mcnks % 16, mcnks / 16);
                let indices = (mcnk.index_x as usize, mcnk.index_y as usize);
                if mcnks < 256 && indices != place {
                    f.push(
                        Rule::ChunkIndex,
                        format!("chunks[{i}].MCNK"),
                        format!(
                            "IndexX {}, IndexY {}: MCNK {mcnks} of the tile is at column {}, row {}",
                            indices.0, indices.1, place.0, place.1
                        ),
                    );
                }
                mcnks += 1;
                let data = mcnk.alpha().map_or(&[][..], |m| m.data.as_slice());
                for (j, sub) in mcnk.chunks.iter().enumerate() {
                    let at = format!("chunks[{i}].MCNK.chunks[{j}]");
                    if let crate::adt::mcnk::McnkChunk::Mcrf(refs) = sub {
                        let lists = [
                            ("doodad_refs", &refs.doodad_refs, doodads, "MDDF doodads"),
                            (
                                "object_refs",
                                &refs.object_refs,
                                objects,
                                "MODF map objects",
                            ),
                        ];
                        for (field, list, len, what) in lists {
                            for (k, r) in list.iter().enumerate() {
                                let path = format!("{at}.MCRF.{field}[{k}]");
                                f.index(Rule::McrfReference, path, (*r).into(), len, what);
                            }
                        }
                    }
                    if let crate::adt::mcnk::McnkChunk::Mcly(mcly) = sub {
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
                            f.index(Rule::TextureIndex, path, value, textures, "MTEX textures");
                            if let Some(why) = misplaced_alpha(layer, data) {
                                f.push(
                                    Rule::AlphaOffset,
                                    format!("{at}.MCLY.layers[{k}].offset_in_mcal"),
                                    why,
                                );
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if mcnks != 256 {
        f.push(
            Rule::ChunkCount,
            "chunks",
            format!("{mcnks} MCNK map chunks, not 16 x 16 = 256"),
        );
    }
    f.0
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
        // Compressed maps need 8-bit alpha (MPHD): then this is how they read.
        return alpha::decompress(rest).err().map(|e| {
            format!(
                "the compressed alpha map at {offset} of MCAL ({mcal} bytes) does not decode: {e}"
            )
        });
    }
    (rest.len() < 2048).then(|| {
        format!(
            "{offset} leaves {} bytes of MCAL ({mcal} bytes): an uncompressed map takes 2048 (4-bit) or 4096 (8-bit)",
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
