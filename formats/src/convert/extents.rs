//! Extents a conversion leaves stale. Converting to classic can change the
//! geometry the stored extents describe: levels of detail dropped (`MODL`
//! and the sequences' extents held them), a geoset cut in parts (each part
//! starts with the whole's extents), vertices skinned by matrix groups
//! instead of `SKIN` weights (posed, they move by up to the skinning error).
//! Every extent that then disagrees with the geometry as `formats validate`
//! measures it (`stale-extent`, [`validate::extents`]) is measured again
//! from the converted model ([`bounds::measure`], stored as
//! [`Model::store_extents`] stores it); the others keep their bits, so a
//! conversion changes no extent that still holds, and one that the source
//! stored stale already (the same bits, stale in the source too) is left as
//! it was (`formats fix --extents` measures every extent).
//!
//! [`bounds::measure`]: crate::bounds::measure

use std::collections::{HashMap, HashSet};

use super::report::Report;
use crate::bounds::{ExtentOptions, Extents, GeosetExtents, measure};
use crate::mdx::{Chunk, Extent, Model};
use crate::validate::{self, Rule};

/// One stored extent (or a geoset's list of them), by what it covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Model,
    Sequence(usize),
    Geoset(usize),
    /// A geoset's per-sequence list (`validate` reports it whole).
    List(usize),
}

/// Where the extents of a model are: its first `MODL`, `SEQS` and `GEOS`
/// chunks (those [`Model::store_extents`] and `validate` read), as
/// `chunks[i].TAG`.
struct Places {
    modl: Option<String>,
    seqs: Option<String>,
    geos: Option<String>,
}

impl Places {
    fn of(model: &Model) -> Places {
        let first = |is: fn(&Chunk) -> bool| {
            let (c, chunk) = model.chunks.iter().enumerate().find(|(_, c)| is(c))?;
            Some(format!("chunks[{c}].{}", chunk.tag()))
        };
        Places {
            modl: first(|c| matches!(c, Chunk::Model(_))),
            seqs: first(|c| matches!(c, Chunk::Sequences(_))),
            geos: first(|c| matches!(c, Chunk::Geosets(_))),
        }
    }

    /// The path `validate` gives `slot`'s finding.
    fn path(&self, slot: Slot) -> Option<String> {
        match slot {
            Slot::Model => self.modl.as_ref().map(|at| format!("{at}.extent")),
            Slot::Sequence(s) => self
                .seqs
                .as_ref()
                .map(|at| format!("{at}.sequences[{s}].extent")),
            Slot::Geoset(g) => self
                .geos
                .as_ref()
                .map(|at| format!("{at}.geosets[{g}].extent")),
            Slot::List(g) => self
                .geos
                .as_ref()
                .map(|at| format!("{at}.geosets[{g}].sequence_extents")),
        }
    }
}

/// What `model` stores for `slot`, as bits (`-0.0` is not `0.0`).
fn stored(model: &Model, slot: Slot) -> Option<Vec<[u32; 7]>> {
    let bits = |e: &Extent| {
        let ([a, b, c], [d, f, g]) = (e.minimum, e.maximum);
        [a, b, c, d, f, g, e.bounds_radius].map(f32::to_bits)
    };
    match slot {
        Slot::Model => model.chunks.iter().find_map(|c| match c {
            Chunk::Model(m) => Some(vec![bits(&m.extent)]),
            _ => None,
        }),
        Slot::Sequence(s) => model.sequences().get(s).map(|s| vec![bits(&s.extent)]),
        Slot::Geoset(g) => model.geosets().get(g).map(|g| vec![bits(&g.extent)]),
        Slot::List(g) => model
            .geosets()
            .get(g)
            .map(|g| g.sequence_extents.iter().map(bits).collect()),
    }
}

/// The `stale-extent` findings of `model` against `measured`: path, message.
fn stale(model: &Model, measured: &Extents) -> HashMap<String, String> {
    validate::extents::against(model, measured)
        .into_iter()
        .filter(|f| f.rule == Rule::StaleExtent)
        .map(|f| (f.path, f.message))
        .collect()
}

/// Measures `model` (converted from `original`; geoset `g` of it is geoset
/// `source[g]` of `original`, `None` for a part of a cut geoset) and
/// stores, in place of each extent the conversion left stale, the measured
/// one; each is reported.
pub(super) fn repair(
    original: &Model,
    model: &mut Model,
    source: &[Option<usize>],
    report: &mut Report,
) {
    let Some(measured) = measure(model, &ExtentOptions::default()) else {
        return;
    };
    let now = stale(model, &measured);
    if now.is_empty() {
        return;
    }
    let places = Places::of(model);
    let geosets = model.geosets().len().min(measured.geosets.len());
    let slots = [Slot::Model]
        .into_iter()
        .chain((0..model.sequences().len()).map(Slot::Sequence))
        .chain((0..geosets).map(Slot::Geoset))
        .chain((0..geosets).map(Slot::List));
    // The source's stale extents, measured only when needed.
    let mut before: Option<(Places, HashSet<String>)> = None;
    let mut renew = Vec::new();
    for slot in slots {
        let Some(path) = places.path(slot) else {
            continue;
        };
        let Some(message) = now.get(&path) else {
            continue;
        };
        let in_source = match slot {
            Slot::Model | Slot::Sequence(_) => Some(slot),
            Slot::Geoset(g) => source.get(g).copied().flatten().map(Slot::Geoset),
            Slot::List(g) => source.get(g).copied().flatten().map(Slot::List),
        };
        let kept_stale = in_source.is_some_and(|from| {
            stored(original, from) == stored(model, slot) && {
                let (places, paths) = before.get_or_insert_with(|| {
                    let paths = validate::extents::model(original)
                        .into_iter()
                        .filter(|f| f.rule == Rule::StaleExtent)
                        .map(|f| f.path)
                        .collect();
                    (Places::of(original), paths)
                });
                places.path(from).is_some_and(|p| paths.contains(&p))
            }
        });
        if !kept_stale {
            renew.push((slot, path, message.clone()));
        }
    }
    if renew.is_empty() {
        return;
    }
    // What is stored, with the extents to renew measured.
    let mut target = Extents {
        model: model
            .chunks
            .iter()
            .find_map(|c| match c {
                Chunk::Model(m) => Some(m.extent),
                _ => None,
            })
            .unwrap_or(measured.model),
        sequences: model.sequences().iter().map(|s| s.extent).collect(),
        geosets: model
            .geosets()
            .iter()
            .map(|g| GeosetExtents {
                extent: g.extent,
                sequences: g.sequence_extents.clone(),
            })
            .collect(),
        stretch: measured.stretch,
        every: measured.every,
    };
    for (slot, _, _) in &renew {
        match *slot {
            Slot::Model => target.model = measured.model,
            Slot::Sequence(s) => {
                if let (Some(t), Some(m)) = (target.sequences.get_mut(s), measured.sequences.get(s))
                {
                    *t = *m;
                }
            }
            Slot::Geoset(g) => {
                if let (Some(t), Some(m)) = (target.geosets.get_mut(g), measured.geosets.get(g)) {
                    t.extent = m.extent;
                }
            }
            Slot::List(g) => {
                if let (Some(t), Some(m)) = (target.geosets.get_mut(g), measured.geosets.get(g)) {
                    t.sequences.clone_from(&m.sequences);
                }
            }
        }
    }
    model.store_extents(&target);
    for (slot, path, message) in &renew {
        let why = match *slot {
            Slot::Geoset(g) | Slot::List(g) => match source.get(g).copied().flatten() {
                Some(s) => format!("geoset {s} of the source"),
                None => "a part of a cut geoset".to_string(),
            },
            Slot::Model | Slot::Sequence(_) => "the geosets kept, as converted".to_string(),
        };
        report.recompute(path.clone(), format!("measured again ({why}): {message}"));
    }
}
