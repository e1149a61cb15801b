//! Checks of an ADT tile: the references between its chunks.

use super::{Findings, Rule};
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
            AdtChunk::Mcnk(mcnk) => {
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
                        for (k, layer) in mcly.layers.iter().enumerate() {
                            let path = format!("{at}.MCLY.layers[{k}].texture_id");
                            let value = layer.texture_id.into();
                            f.index(Rule::TextureIndex, path, value, textures, "MTEX textures");
                        }
                    }
                }
            }
            _ => {}
        }
    }
    f.0
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
