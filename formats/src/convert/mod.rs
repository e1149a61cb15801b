//! Converting models between the classic format (800) and Reforged (900,
//! 1000, 1100, 1200) so that the result draws and animates as the source did,
//! with a [`Report`] of what was approximated, dropped, added and repaired.
//!
//! Reforged to classic (800):
//!
//! - `SKIN` weights become matrix groups: each vertex's group is the bones
//!   whose equal shares come nearest its weights (the smallest sum of
//!   absolute differences, a bone left out counting its whole weight: 0.9/0.1
//!   is one bone, 0.6/0.4 two; computed exactly, a tie going to the fewer
//!   bones), shared between vertices. A glTF import (`gltf::import`) hands
//!   over every weight of its vertices, past the 4 `SKIN` holds: its groups
//!   are made from those by the same rule (5 equal weights: the group of
//!   those 5 bones), and the rest of the conversion (cutting, the error)
//!   takes them for `SKIN`. A classic geoset holds at most 256 groups (a
//!   vertex's group index is a byte): a geoset whose vertices need more is
//!   cut (below), so that every vertex keeps its best group. Only a geoset
//!   that cannot be cut, its faces not a triangle list (a damaged file), is
//!   coarsened: past its first 256 groups a vertex takes the kept group
//!   nearest its weights by the same measure (never an empty one when it
//!   has bones), and the report says how many did. Classic groups weigh
//!   their bones equally, so the report's [`SkinError`] is the largest
//!   distance between a vertex as `SKIN` (or every weight) places it and as
//!   its group does, both posed with [`anim`](crate::anim) in the
//!   bind pose and every [`Options::error_step`] milliseconds (default: every
//!   frame) of every sequence, its last frame included; global sequences run
//!   from the sequence's start. A vertex of a cut geoset is measured once,
//!   against the source vertex it came from.
//! - HD materials become classic layers: the diffuse texture with its filter
//!   mode, flags, alpha and tracks; the normal, ORM, emissive, team colour and
//!   reflection slots are listed as dropped, and textures no longer used go.
//!   A `.tif` texture path (Reforged only) is named in `.dds`.
//! - Tangents are dropped; geosets of a level of detail above 0 are dropped
//!   (with their geoset animations and the materials only they used) unless
//!   [`Options::keep_lods`]; popcorn emitters (`CORN`, object ids after them
//!   renumbered), face effects (`FAFX`) and bind poses (`BPOS`) have no
//!   classic chunk and are dropped.
//! - A geoset is cut into several when its vertices need more than 256
//!   matrix groups, and when it has more than 7432 vertices, which the
//!   classic renderer draws broken (mdx-m3-viewer's tests: 7433 failed, 7394
//!   drew; `validate`'s `geoset-vertex-limit`), though Reforged's HD
//!   materials do not mind ([`Options::split_large_geosets`]; a geoset
//!   converted from classic comes back as it was): triangle by
//!   triangle in file order, a part ending where the next triangle would
//!   take it past 256 groups or (for a large one) 7432 vertices (pqhuy98's
//!   wow-converter also splits at the group limit). A vertex the cut runs
//!   through is in both parts and every vertex keeps its position, normal,
//!   UVs and group, so the parts draw and animate as the whole did
//!   (vertices no triangle uses are left out, and reported). Each part
//!   keeps the whole's material, level of detail fields and extents (then
//!   measured again where stale, below), and holds the groups its vertices
//!   use, renumbered; the whole's geoset animation is copied for each part
//!   (appended to `GEOA`, so the indices bones hold stay), a bone's geoset
//!   id names the first part, and later geoset ids move down the line. The
//!   report names each geoset cut, why, and its parts' vertices and groups.
//! - Sequences are laid out in order. The classic game plays a sequence
//!   that overlaps another wrongly, which Reforged files often have (a
//!   doodad's Birth, Stand and Death all playing 0..1633, or sequences not
//!   in time order in the file): `validate`'s `sequence-order`. When a
//!   sequence ends before it starts, or starts before the one before it
//!   ends or where it starts, the sequences are laid out in file order:
//!   each keeps its interval when that starts after the one before (as laid
//!   out) ends, else starts 1 ms after it, and each keeps its length (0 ms
//!   for one that ended before it started). Every key of every track that
//!   follows the sequences moves with its sequence: nodes, geoset
//!   animations, layers, texture animations, lights, emitters, cameras and
//!   event objects' `KEVT` (every track
//!   [`visit_tracks`](crate::optimize::visit_tracks) reaches); a track on a
//!   global sequence stays (an id past `GLBS` follows the sequences, as
//!   [`anim`](crate::anim) plays it). A key that several overlapping
//!   sequences played is copied into each. A key outside every sequence
//!   never played (`key-outside-sequence`) and would play in a sequence
//!   moved over it, so it is dropped ([`Report::dropped`] counts them).
//!   Each sequence moved is listed in [`Report::moved`]. A track kept as
//!   bytes (a tag no definition knows) cannot be moved (approximated), and
//!   sequences that laid out would end past `i32::MAX` ms, or need more than
//!   16 million keys with the copies (a file made to explode), are left as
//!   they were (approximated). Sequences in order keep their frames, their
//!   keys outside every sequence included.
//! - A bone that the source binds vertices to and the classic model binds
//!   none to (it only weighed little, or only dropped levels of detail used
//!   it: `validate`'s `bone-without-vertex`) is listed as approximated.
//! - Extents: when the geometry changed (levels of detail dropped, a
//!   geoset cut, vertices skinned by new groups), every extent (`MODL`, a
//!   sequence's, a geoset's, a geoset's per-sequence list) that now
//!   disagrees with it as `formats validate` measures it (`stale-extent`) is
//!   measured again and listed in [`Report::recomputed`]; the others keep
//!   their bits, and so does one the source stored stale already (the
//!   same bits, stale there too: `formats fix --extents` is the tool for
//!   those). Classic models come back from Reforged with their own extents.
//!
//! Classic to Reforged: matrix groups become `SKIN` weights (equal shares
//! summing to 255), laid out so that every reader takes its bone bytes for
//! the same bones (see `skin.rs`: object ids, one-bone groups first, the
//! classic groups kept after them), tangents are generated with MikkTSpace,
//! and classic materials of one layer become HD materials with placeholders
//! for the other slots ([`HdMaterials`], [`PLACEHOLDERS`]; a model that names
//! textures past its `TEXS` keeps its materials SD, as appended placeholders
//! would take those names). Converting such a model back to 800 gives the
//! original model (with its sequences laid out, if they were out of order).
//!
//! Between Reforged versions, HD materials move between the 900/1000 layout
//! (six layers) and the 1100 one (a texture list). Version 900 (the
//! Reforged beta's, which no released game reads) has the Reforged geoset
//! (`SKIN`, `TANG`, levels of detail) and the HD material shader string of
//! 1000: converting to it keeps `SKIN` weights, tangents and HD materials
//! as they are, and a 900 model goes to 800 as the other Reforged versions.
//!
//! Every direction first moves light tracks stored after their `LITE` chunk
//! (a writer bug of some classic tools) into their light, and says so. A
//! damaged model's last chunk, cut short by the end of its file and kept as
//! bytes by the lenient reader ([`Chunk::Cut`]), stays last and as it was,
//! listed in [`Report::kept`]: the converted model writes the same damaged
//! ending. So does a chunk whose content does not decode ([`Chunk::Undecoded`]),
//! in its place.
//!
//! ```
//! use formats::convert::{Options, convert};
//! use formats::mdx::Model;
//!
//! let bytes = formats::sample::sample_mdx();
//! let mut model = Model::from_bytes(&bytes)?;
//! let report = convert(&mut model, 1000, &Options::default())?;
//! assert_eq!(model.version(), 1000);
//! assert!(model.geosets()[0].skin.is_some() && model.geosets()[0].tangents.is_some());
//! assert!(report.dropped.is_empty());
//! // And back: the same bytes.
//! convert(&mut model, 800, &Options::default())?;
//! assert_eq!(model.to_bytes()?, bytes);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bones;
mod error;
mod extents;
mod geosets;
mod groups;
mod materials;
mod nodes;
mod removal;
mod report;
mod sequences;
mod skin;
mod split;
mod tangents;
mod textures;

pub(crate) use groups::Influences;
pub(crate) use materials::neutral_layer;
pub use materials::{HD_SHADER, HdMaterials, PLACEHOLDERS, SLOTS};
pub use report::{Note, Report, SkinError};
// For the glTF import, which builds a Reforged model and then converts it.
#[cfg(feature = "gltf")]
pub(crate) use report::write_notes;
#[cfg(feature = "gltf")]
pub(crate) use skin::head_groups;
#[cfg(feature = "gltf")]
pub(crate) use tangents::generate as tangents_of;

use crate::mdx::{Chunk, Geoset, Model};

/// The versions converted between (the Warcraft III ones).
pub const VERSIONS: [u32; 5] = [800, 900, 1000, 1100, 1200];

/// How [`convert`] converts.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
pub struct Options {
    /// Reforged to classic: keep the geosets of levels of detail above 0
    /// (the classic client draws them all, over each other).
    pub keep_lods: bool,
    /// Classic to Reforged: which materials become HD.
    pub hd_materials: HdMaterials,
    /// Classic to Reforged: add `SKIN` weights and tangents (off: the
    /// geosets keep their classic form, which Reforged also reads).
    pub skin_and_tangents: bool,
    /// Reforged to classic: cut geosets of more than 7432 vertices (which
    /// the classic renderer draws broken) into geosets it draws (a geoset
    /// whose vertices need more than 256 matrix groups is cut either way).
    pub split_large_geosets: bool,
    /// Milliseconds between the frames the skinning error is measured at (1:
    /// every frame; 0: not measured). Raised for a model whose measurement
    /// would pose more than 2^28 nodes and vertices in all (a unit of
    /// 20,000 converted vertices over 100 seconds of sequences, or
    /// sequences lasting days), so that it ends in seconds (the report's
    /// [`SkinError::step`] says the step used).
    pub error_step: u32,
    /// Reforged to classic: measure again the extents the conversion leaves
    /// stale (off: they stay as the source stored them, for a caller that
    /// measures them itself, with `formats fix --extents` say).
    pub recompute_extents: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep_lods: false,
            hd_materials: HdMaterials::default(),
            skin_and_tangents: true,
            split_large_geosets: true,
            error_step: 1,
            recompute_extents: true,
        }
    }
}

/// Why a model cannot be converted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// A version this module does not convert to or from.
    #[error(
        "converting version {from} to {to} is not supported (Warcraft III versions: {VERSIONS:?})"
    )]
    Version {
        /// The model's version.
        from: u32,
        /// The target.
        to: u32,
    },
    /// A geoset whose skinning the target cannot hold.
    #[error("geosets[{geoset}]: {source}")]
    Skin {
        /// The geoset's index.
        geoset: usize,
        /// What about its skinning.
        #[source]
        source: SkinProblem,
    },
}

/// What about a geoset's skinning keeps [`convert`] from converting it
/// ([`ConvertError::Skin`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SkinProblem {
    /// Reforged to classic: `SKIN` is not 8 bytes a vertex.
    #[error("SKIN holds {bytes} bytes, not 8 for each of the {vertices} vertices")]
    SkinSize {
        /// The bytes `SKIN` holds.
        bytes: usize,
        /// The geoset's vertices.
        vertices: usize,
    },
    /// Classic to Reforged: `GNDX` does not give every vertex a group.
    #[error("GNDX gives {groups} vertices a matrix group, but there are {vertices} vertices")]
    GroupCount {
        /// The entries of `GNDX`.
        groups: usize,
        /// The geoset's vertices.
        vertices: usize,
    },
    /// Classic to Reforged: a matrix group names an object id past 255.
    #[error("a group names object id {id}: SKIN names bones by a byte")]
    ObjectId {
        /// The object id.
        id: u32,
    },
}

/// Converts `model` to version `target` (800, 900, 1000, 1100 or 1200), as
/// the [module](self) docs describe. On error the model is unchanged.
pub fn convert(model: &mut Model, target: u32, options: &Options) -> Result<Report, ConvertError> {
    convert_weighted(model, target, options, &[])
}

/// [`convert`], given every influence of the vertices of geoset `g` in
/// `weights[g]` (bones by object id, in the order `SKIN` would list them,
/// heaviest first: a glTF import's `JOINTS_n`/`WEIGHTS_n`, past the 4
/// `SKIN` holds). To classic, a geoset with `SKIN` and such a list for each
/// of its vertices takes its matrix groups from the lists, by the rules it
/// would apply to `SKIN`, and its skinning error is measured against them;
/// other geosets, and other targets, convert as [`convert`] does.
pub(crate) fn convert_weighted(
    model: &mut Model,
    target: u32,
    options: &Options,
    weights: &[Vec<Influences>],
) -> Result<Report, ConvertError> {
    let from = model.version();
    if !VERSIONS.contains(&from) || !VERSIONS.contains(&target) {
        return Err(ConvertError::Version { from, to: target });
    }
    let mut report = Report {
        from,
        to: target,
        ..Report::default()
    };
    // Named as the source has them, before chunks are added or dropped.
    for (index, kept) in model.undecoded_chunks() {
        report.keep(
            format!("chunks[{index}].{}", kept.tag),
            format!(
                "{}: kept as its bytes, in its place, not converted to version {target}",
                kept.damage()
            ),
        );
    }
    for (index, chunk) in model.chunks.iter().enumerate() {
        if let Chunk::Cut(cut) = chunk {
            report.keep(
                format!("chunks[{index}].{}", cut.tag),
                format!(
                    "the file ends inside this chunk ({}): kept as the bytes there are, at \
                     the end, not converted to version {target}",
                    cut.where_cut()
                ),
            );
        }
    }
    let mut converted = model.clone();
    if target == 900 && from != 900 {
        report.approximate(
            "VERS",
            "version 900 is the Reforged beta's: no released game reads it (800, 1000, 1100 \
             and 1200 are read)",
        );
    }
    let moved = converted.repair_sizes();
    if moved > 0 {
        report.repaired.push(Note {
            path: "LITE".into(),
            what: format!(
                "{moved} light tracks stored after the LITE chunk moved into their light"
            ),
        });
    }
    if target <= 800 && from > 800 {
        let weights = Weights {
            lists: weights,
            source: model,
        };
        to_classic(&mut converted, model, options, &weights, &mut report)?;
    } else if from <= 800 && target > 800 {
        to_reforged(&mut converted, model, target, options, &mut report)?;
    } else {
        if from >= 1100 && target < 1100 {
            materials::to_layer_slots(&mut converted, &mut report);
        } else if from < 1100 && target >= 1100 {
            materials::to_texture_list(&mut converted, &mut report);
        }
        finish_version(&mut converted, target, &mut report);
    }
    *model = converted;
    Ok(report)
}

/// The rest of the version change ([`Model::force_version`]); what it drops
/// is reported.
fn finish_version(model: &mut Model, target: u32, report: &mut Report) {
    for loss in model.force_version(target) {
        report.drop(loss.path, loss.what);
    }
}

/// The influences [`convert_weighted`] was given, by source geoset.
#[derive(Clone, Copy)]
pub(super) struct Weights<'a> {
    lists: &'a [Vec<Influences>],
    source: &'a Model,
}

impl<'a> Weights<'a> {
    /// No lists: every geoset's influences are its `SKIN`'s.
    pub fn none(source: &'a Model) -> Weights<'a> {
        Weights { lists: &[], source }
    }

    /// The influences of source geoset `g`'s vertices, when it has `SKIN`
    /// and a list for each of its vertices.
    pub fn of(&self, g: usize) -> Option<&'a [Influences]> {
        let geoset = self.source.geosets().get(g)?;
        self.lists
            .get(g)
            .filter(|lists| geoset.skin.is_some() && lists.len() == geoset.vertex_count())
            .map(Vec::as_slice)
    }
}

fn to_classic(
    model: &mut Model,
    original: &Model,
    options: &Options,
    weights: &Weights<'_>,
    report: &mut Report,
) -> Result<(), ConvertError> {
    // Notes name the parts of the source model: materials are edited before
    // geosets go, geosets are named by their index before.
    let used = textures::used(model);
    materials::to_classic(model, report);
    let kept: Vec<usize> = if options.keep_lods {
        (0..model.geosets().len()).collect()
    } else {
        geosets::drop_lods(model, report)
    };
    let mut skinned = false;
    // Whether a vertex is now skinned otherwise (a group from SKIN).
    let mut regrouped = false;
    // The geosets converted from classic, given back as they were.
    let mut classic = vec![false; kept.len()];
    // The geosets whose SKIN makes more groups than a classic geoset holds.
    let mut wide = vec![None; kept.len()];
    for (index, geoset) in geosets_mut(model).iter_mut().enumerate() {
        let g = kept.get(index).copied().unwrap_or(index);
        match geoset.lod {
            Some(lod) if lod > 0 => report.approximate(
                format!("geosets[{g}].lod"),
                format!("level of detail {lod}: drawn with the others"),
            ),
            // -1: every level, as the classic client draws every geoset.
            _ => {}
        }
        geoset.lod = geoset.lod.map(|_| 0);
        if let Some(tangents) = geoset.tangents.take() {
            report.drop(
                format!("geosets[{g}].tangents"),
                format!("{} tangents (TANG)", tangents.len()),
            );
        }
        let Some(skin) = geoset.skin.take() else {
            continue;
        };
        if skin.len() != 8 * geoset.vertex_count() {
            return Err(ConvertError::Skin {
                geoset: g,
                source: SkinProblem::SkinSize {
                    bytes: skin.len(),
                    vertices: geoset.vertex_count(),
                },
            });
        }
        skinned = true;
        let all = weights.of(g);
        let kept_groups = all.is_none().then(|| {
            skin::classic_groups(
                &skin,
                &geoset.vertex_groups,
                &geoset.matrix_groups,
                &geoset.matrix_indices,
            )
        });
        if let Some((gndx, mtgc, mats, from_classic)) = kept_groups.flatten() {
            // The groups beside SKIN say exactly what it says.
            if let Some(keep) = classic.get_mut(index) {
                *keep = from_classic;
            }
            geoset.vertex_groups = gndx;
            geoset.matrix_groups = mtgc;
            geoset.matrix_indices = mats;
            continue;
        }
        let found = match all {
            Some(all) => groups::from_influences(all.to_vec()),
            None => groups::from_skin(&skin, &geoset.matrix_indices),
        };
        regrouped = true;
        let at = format!("geosets[{g}]");
        let count = found.groups.members.len();
        if found.reweighted > 0 {
            report.approximate(
                format!("{at}.skin"),
                format!(
                    "{} of {} vertices weigh their bones unequally: as {count} matrix groups of \
                     equal weights",
                    found.reweighted,
                    found.groups.vertex_groups.len(),
                ),
            );
        }
        for (n, what) in [
            (found.trimmed, "lose a bone of little weight"),
            (found.unbound, "have no bone (an empty group)"),
        ] {
            if n > 0 {
                report.approximate(format!("{at}.skin"), format!("{n} vertices {what}"));
            }
        }
        match found.groups.classic(None) {
            Some((gndx, mtgc, mats)) => {
                geoset.vertex_groups = gndx;
                geoset.matrix_groups = mtgc;
                geoset.matrix_indices = mats;
            }
            // More than a classic geoset holds: cut below.
            None => {
                geoset.vertex_groups.clear();
                geoset.matrix_groups.clear();
                geoset.matrix_indices.clear();
                if let Some(slot) = wide.get_mut(index) {
                    *slot = Some(found);
                }
            }
        }
    }
    let origins = split::split(
        model,
        &kept,
        &classic,
        wide,
        options.split_large_geosets,
        report,
    );
    if skinned && options.error_step > 0 {
        report.skin_error = error::measure(original, model, &origins, weights, options.error_step);
    }
    bones::report_unbound(original, model, &kept, weights, report);
    nodes::drop_corn_emitters(model, report);
    finish_version(model, 800, report);
    textures::classic_paths(model, report);
    textures::drop_unused(model, &used, report);
    sequences::lay_out(model, report);
    // The geometry the extents describe changed: levels of detail dropped,
    // a geoset cut, vertices skinned otherwise.
    let cut = origins.iter().any(|o| o.vertices.is_some());
    let changed = regrouped || cut || kept.len() < original.geosets().len();
    if changed && options.recompute_extents {
        // Each geoset's source, none for the parts of a cut one.
        let source: Vec<Option<usize>> = origins
            .iter()
            .map(|o| o.vertices.is_none().then_some(o.geoset))
            .collect();
        extents::repair(original, model, &source, report);
    }
    Ok(())
}

fn to_reforged(
    model: &mut Model,
    original: &Model,
    target: u32,
    options: &Options,
    report: &mut Report,
) -> Result<(), ConvertError> {
    finish_version(model, target, report);
    materials::promote(model, target, options.hd_materials, report);
    if !options.skin_and_tangents {
        return Ok(());
    }
    let mut skinned = false;
    let bones = model.bones().len();
    for (g, geoset) in geosets_mut(model).iter_mut().enumerate() {
        let at = format!("geosets[{g}]");
        if geoset.vertex_groups.len() != geoset.vertex_count() {
            return Err(ConvertError::Skin {
                geoset: g,
                source: SkinProblem::GroupCount {
                    groups: geoset.vertex_groups.len(),
                    vertices: geoset.vertex_count(),
                },
            });
        }
        let reforged = skin::to_reforged(
            &geoset.vertex_groups,
            &geoset.matrix_groups,
            &geoset.matrix_indices,
            bones,
        )
        .map_err(|id| ConvertError::Skin {
            geoset: g,
            source: SkinProblem::ObjectId { id },
        })?;
        if !reforged.kept && !geoset.matrix_groups.is_empty() {
            report.approximate(
                format!("{at}.matrix_groups"),
                format!(
                    "{} groups do not fit after the {} one-bone groups SKIN names (256 at \
                     most): converting back groups the vertices from SKIN",
                    geoset.matrix_groups.len(),
                    reforged.matrix_groups.len()
                ),
            );
        }
        let skin = reforged.skin;
        geoset.vertex_groups = reforged.vertex_groups;
        geoset.matrix_groups = reforged.matrix_groups;
        geoset.matrix_indices = reforged.matrix_indices;
        if skin.truncated > 0 {
            report.approximate(
                format!("{at}.skin"),
                format!(
                    "{} vertices of groups of more than 4 bones keep 4",
                    skin.truncated
                ),
            );
        }
        if skin.unbound > 0 {
            report.approximate(
                format!("{at}.skin"),
                format!("{} vertices without a group have no bone", skin.unbound),
            );
        }
        report.add(
            format!("{at}.skin"),
            format!("SKIN weights of {} vertices", geoset.vertex_count()),
        );
        geoset.skin = Some(skin.bytes);
        geoset.tangents = Some(tangents::generate(geoset));
        report.add(
            format!("{at}.tangents"),
            format!("{} MikkTSpace tangents", geoset.vertex_count()),
        );
        skinned = true;
    }
    if skinned && options.error_step > 0 {
        let kept: Vec<usize> = (0..model.geosets().len()).collect();
        let origins = split::Origin::whole(&kept);
        let weights = Weights::none(original);
        report.skin_error = error::measure(original, model, &origins, &weights, options.error_step);
    }
    Ok(())
}

/// The geosets to edit, without adding a `GEOS` chunk to a model that has
/// none.
fn geosets_mut(model: &mut Model) -> &mut [Geoset] {
    model
        .chunks
        .iter_mut()
        .find_map(|chunk| match chunk {
            Chunk::Geosets(c) => Some(c.geosets.as_mut_slice()),
            _ => None,
        })
        .unwrap_or_default()
}
