//! Extents that disagree with the geometry: each stored extent (`MODL`,
//! every sequence's, every geoset's and its per-sequence list) against the
//! vertices posed over the sequences, beyond a tolerance of a tenth of the
//! model's size ([`EXTENT_TOLERANCE`]).
//!
//! An extent is stale when the geometry it holds reaches beyond both its box
//! and its sphere ([`bounds::escapes`]: posed every 100 ms, as Blizzard's
//! exporter posed it), or when its box is larger than anything the geometry
//! reaches ([`bounds::measure`]: posed every 10 ms and at every key,
//! billboards turned every way, global sequences in every phase). So the
//! extents Blizzard's exporter wrote hold, and so do those `formats fix
//! --extents` writes; the ones an edit or a conversion left behind do not.
//! (A sphere larger than the geometry needs is not reported: it culls
//! nothing that shows, and a box larger than anything the geometry does
//! already says an edit left the extent behind.) What each extent holds
//! ([`bounds::Escapes`]):
//!
//! - a sequence's: the geosets showing in it;
//! - `MODL`'s: the sequences whose own extent is not set (mdx-m3-viewer
//!   then takes `MODL`'s), and the bind pose of a model without sequences.
//!   Blizzard's `MODL` is the union of its sequences' boxes, so it leaves
//!   out what they leave out, and its radius is 0;
//! - a geoset's, and each of its per-sequence ones: its vertices where the
//!   sequences put them, or at rest (Blizzard's exporter stored the rest
//!   pose of pieces one bone carries).
//!
//! An extent that is not set ([`bounds::is_set`]: empty, or a single point)
//! is not compared: Blizzard's files mark a geoset hidden in a sequence
//! with the empty one, and many of Blizzard's spell effects leave their
//! sequences' at 0. A bounds radius of 0 is not set either (Blizzard's own
//! `MODL` has 0): the box alone holds then. An empty per-sequence list is
//! not reported either (Blizzard's files leave some empty), one of another
//! length than the sequences is. In a model with emitters, the model's and
//! the sequences' boxes may be larger than the geometry (particles reach
//! past the vertices: see [`bounds`]); only geometry beyond them is
//! reported.
//!
//! [`bounds`]: crate::bounds
//! [`bounds::escapes`]: crate::bounds::escapes
//! [`bounds::measure`]: crate::bounds::measure
//! [`bounds::Escapes`]: crate::bounds::Escapes
//! [`bounds::is_set`]: crate::bounds::is_set

use super::{Finding, Findings, Rule};
use crate::bounds::{
    Aabb, ExtentOptions, Extents, GeosetExtents, escapes, has_emitters, is_set, measure,
};
use crate::mdx::{Chunk, Extent, Model};

/// How far a stored extent may be from the geometry, as a fraction of the
/// measured model box's diagonal. A tenth: of Blizzard's 1,120 classic
/// models (runi95/wc3-slk-edit-electron-resources) 78 have an extent the
/// geometry escapes or a box it does not fill by more than 5 % of the
/// model's size (the wind serpent falling out of its `Death` box and sphere,
/// a spell effect's box reaching far below anything it does), 34 by more
/// than 10 %; of the community models of
/// dbz-tribute-reforged (842), 546 and 519, of nazarpunk's
/// wc3-map-edemium-legacy (481), 231 and 205: theirs are stale through and
/// through, Blizzard's by a little.
pub const EXTENT_TOLERANCE: f32 = 0.1;

/// The smallest tolerance, in model units (for models of nearly no size).
const MIN_TOLERANCE: f32 = 0.01;

/// Every extent of `model` that disagrees with its geometry by more than
/// [`EXTENT_TOLERANCE`]: one finding per extent, one per geoset for its
/// per-sequence list. A model without vertices has none.
///
/// ```
/// use formats::validate::{Rule, extents};
///
/// let mut model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// assert!(extents::model(&model).is_empty());
/// // The sample's cube rises by 0.5 in "Stand": say it lies 2 units lower,
/// // in a sphere as small as its box.
/// let stand = &mut model.sequences_mut()[0].extent;
/// stand.minimum[2] -= 2.0;
/// stand.maximum[2] -= 2.0;
/// stand.bounds_radius = 0.0;
/// let findings = extents::model(&model);
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].rule, Rule::StaleExtent);
/// assert_eq!(findings[0].path, "chunks[2].SEQS.sequences[0].extent");
/// assert!(findings[0].message.starts_with("the geometry reaches 2.000 beyond the box"));
/// # Ok::<(), formats::Error>(())
/// ```
pub fn model(model: &Model) -> Vec<Finding> {
    match measure(model, &ExtentOptions::default()) {
        Some(measured) => against(model, &measured),
        None => Vec::new(),
    }
}

/// [`model`]'s findings against extents measured already (with other
/// [`ExtentOptions`], say).
pub fn against(model: &Model, measured: &Extents) -> Vec<Finding> {
    let model_box = Aabb::of(&measured.model);
    let tolerance = (EXTENT_TOLERANCE * model_box.diagonal()).max(MIN_TOLERANCE);
    compare(model, measured, tolerance)
}

/// `(x, y, z)` with at most 3 decimals (`(-220, 20.5, 0)`).
fn point(p: [f32; 3]) -> String {
    let number = |v: f32| {
        let text = format!("{v:.3}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        if text == "-0" {
            "0".to_string()
        } else {
            text.to_string()
        }
    };
    format!("({})", p.map(number).join(", "))
}

/// What the geometry does against one stored extent.
struct Geometry {
    /// Everything it reaches (the measured extent; a geoset's rest pose
    /// added).
    reach: Extent,
    /// How far it escapes the stored box and sphere.
    escape: f32,
}

impl Geometry {
    /// The measured extent, with the rest pose a geoset's extent may hold
    /// instead, and how far the geometry escapes the stored one. Nothing
    /// measured (a geoset hidden throughout), nothing reached.
    fn of(measured: &Extent, at_rest: Option<&Aabb>, escape: f32) -> Geometry {
        let mut reach = Aabb::of(measured);
        if let Some(rest) = at_rest.filter(|_| !reach.is_empty()) {
            reach.union(rest);
        }
        Geometry {
            reach: reach.extent(measured.bounds_radius),
            escape,
        }
    }
}

/// What is wrong with `stored` against the `geometry`, if anything; with
/// `larger_allowed`, a box larger than the geometry is not.
fn disagreement(
    stored: &Extent,
    geometry: &Geometry,
    tolerance: f32,
    larger_allowed: bool,
) -> Option<String> {
    let reach = &geometry.reach;
    if !is_set(stored) || Aabb::of(reach).is_empty() {
        return None;
    }
    let boxes = format!(
        "stored {} to {}, measured {} to {}",
        point(stored.minimum),
        point(stored.maximum),
        point(reach.minimum),
        point(reach.maximum)
    );
    let r = stored.bounds_radius;
    if stored
        .minimum
        .iter()
        .chain(&stored.maximum)
        .chain([&r])
        .any(|v| v.is_nan())
    {
        return Some(format!("the box or the bounds radius is NaN ({boxes})"));
    }
    let mut problems = Vec::new();
    let escape = geometry.escape;
    if escape > tolerance {
        let volume = match r > 0.0 {
            true => "the box and its bounds sphere",
            false => "the box",
        };
        problems.push(format!(
            "the geometry reaches {escape:.3} beyond {volume} (the game may cull what shows)"
        ));
    }
    let lows = stored.minimum.iter().zip(&reach.minimum);
    let highs = reach.maximum.iter().zip(&stored.maximum);
    let larger = lows.chain(highs).map(|(s, m)| m - s).fold(0.0, f32::max);
    if larger > tolerance && !larger_allowed {
        problems.push(format!("the box is {larger:.3} larger than the geometry"));
    }
    (!problems.is_empty()).then(|| format!("{} ({boxes})", problems.join("; ")))
}

/// One stored extent (or list), where the model keeps it and which
/// measured one it is.
enum Slot<'m> {
    Model(&'m Extent),
    Sequence(usize, &'m Extent),
    Geoset(usize, &'m Extent),
    List(usize, &'m [Extent]),
}

/// The stored extents of the chunks `validate` reads (the first of each
/// kind): `MODL`'s, the sequences', the geosets', then the geosets'
/// per-sequence lists, each with its path; geosets by their place in the
/// measurement (Warcraft III ones, then alpha ones).
fn slots(model: &Model) -> Vec<(String, Slot<'_>)> {
    let mut found = Vec::new();
    let mut lists = Vec::new();
    let (mut modl, mut seqs, mut geos) = (false, false, false);
    let wc3_geosets = model.geosets().len();
    for (c, chunk) in model.chunks.iter().enumerate() {
        let at = format!("chunks[{c}].{}", chunk.tag());
        match chunk {
            Chunk::Model(m) if !modl => {
                modl = true;
                found.push((format!("{at}.extent"), Slot::Model(&m.extent)));
            }
            Chunk::AlphaModel(m) if !modl => {
                modl = true;
                found.push((format!("{at}.bounds"), Slot::Model(&m.bounds)));
            }
            Chunk::Sequences(s) if !seqs => {
                seqs = true;
                for (i, s) in s.sequences.iter().enumerate() {
                    let path = format!("{at}.sequences[{i}].extent");
                    found.push((path, Slot::Sequence(i, &s.extent)));
                }
            }
            Chunk::AlphaSequences(s) if !seqs => {
                seqs = true;
                for (i, s) in s.sequences.iter().enumerate() {
                    let path = format!("{at}.sequences[{i}].bounds");
                    found.push((path, Slot::Sequence(i, &s.bounds)));
                }
            }
            Chunk::Geosets(g) if !geos => {
                geos = true;
                for (i, geoset) in g.geosets.iter().enumerate() {
                    let at = format!("{at}.geosets[{i}]");
                    found.push((format!("{at}.extent"), Slot::Geoset(i, &geoset.extent)));
                    let path = format!("{at}.sequence_extents");
                    lists.push((path, Slot::List(i, &geoset.sequence_extents)));
                }
            }
            Chunk::AlphaGeosets(g) if !geos => {
                geos = true;
                for (i, geoset) in g.geosets.iter().enumerate() {
                    let (m, at) = (wc3_geosets + i, format!("{at}.geosets[{i}]"));
                    found.push((format!("{at}.bounds"), Slot::Geoset(m, &geoset.bounds)));
                    lists.push((
                        format!("{at}.seq_bounds"),
                        Slot::List(m, &geoset.seq_bounds),
                    ));
                }
            }
            _ => {}
        }
    }
    found.extend(lists);
    found
}

/// The stored extents in the measurement's shape (what is not stored: the
/// empty extent), for [`escapes`].
fn stored(slots: &[(String, Slot<'_>)], measured: &Extents) -> Extents {
    let empty = Aabb::EMPTY.extent(0.0);
    let mut stored = Extents {
        model: empty,
        sequences: vec![empty; measured.sequences.len()],
        geosets: vec![
            GeosetExtents {
                extent: empty,
                sequences: Vec::new(),
            };
            measured.geosets.len()
        ],
        stretch: 1,
        every: 1,
    };
    for (_, slot) in slots {
        match *slot {
            Slot::Model(e) => stored.model = *e,
            Slot::Sequence(s, e) => {
                if let Some(slot) = stored.sequences.get_mut(s) {
                    *slot = *e;
                }
            }
            Slot::Geoset(g, e) => {
                if let Some(slot) = stored.geosets.get_mut(g) {
                    slot.extent = *e;
                }
            }
            Slot::List(g, list) => {
                if let Some(slot) = stored.geosets.get_mut(g) {
                    slot.sequences = list.to_vec();
                }
            }
        }
    }
    stored
}

/// One finding per disagreeing extent of the chunks `measured` was taken from
/// (the first of each kind): `MODL`'s, the sequences', the geosets', then the
/// geosets' per-sequence lists.
fn compare(model: &Model, measured: &Extents, tolerance: f32) -> Vec<Finding> {
    let mut findings = Findings::of(model);
    // Measured at every n-th pose (a model whose sequences are too long to
    // pose in full): the boxes may be smaller than the geometry reaches.
    let coarse = measured
        .coarse()
        .map_or_else(String::new, |how| format!(" (measured coarsely: {how})"));
    // Particles reach past the vertices: the model's and the sequences'
    // boxes may be larger than the geometry where there are emitters.
    let emitters = has_emitters(model);
    let slots = slots(model);
    let Some(escaped) = escapes(model, &stored(&slots, measured)) else {
        return Vec::new();
    };
    let names: Vec<String> = crate::anim::Timeline::from_model(model)
        .sequences
        .into_iter()
        .map(|s| s.name)
        .collect();
    let none = f32::NEG_INFINITY;
    for (path, slot) in &slots {
        let message = match *slot {
            Slot::Model(e) => {
                let geometry = Geometry::of(&measured.model, None, escaped.model);
                disagreement(e, &geometry, tolerance, emitters)
            }
            Slot::Sequence(s, e) => measured.sequences.get(s).and_then(|m| {
                let escape = escaped.sequences.get(s).copied().unwrap_or(none);
                let geometry = Geometry::of(m, None, escape);
                disagreement(e, &geometry, tolerance, emitters)
            }),
            Slot::Geoset(g, e) => measured.geosets.get(g).and_then(|m| {
                let escapes = escaped.geosets.get(g);
                let escape = escapes.map_or(none, |x| x.extent);
                let geometry = Geometry::of(&m.extent, escapes.map(|x| &x.at_rest), escape);
                disagreement(e, &geometry, tolerance, false)
            }),
            Slot::List(g, list) => measured.geosets.get(g).and_then(|m| {
                let escapes = escaped.geosets.get(g);
                let wrong = list
                    .iter()
                    .zip(&m.sequences)
                    .enumerate()
                    .filter_map(|(s, (e, m))| {
                        let escape = escapes.and_then(|x| x.sequences.get(s)).copied();
                        let at_rest = escapes.map(|x| &x.at_rest);
                        let geometry = Geometry::of(m, at_rest, escape.unwrap_or(none));
                        Some((s, disagreement(e, &geometry, tolerance, false)?))
                    });
                list_disagreement(list.len(), m.sequences.len(), wrong.collect(), &names)
            }),
        };
        if let Some(message) = message {
            findings.push(Rule::StaleExtent, path.clone(), message + &coarse);
        }
    }
    findings.found
}

/// A geoset's per-sequence list of `stored` extents for `sequences`
/// sequences, `wrong` of them disagreeing: its length, and how many
/// disagree (the first named).
fn list_disagreement(
    stored: usize,
    sequences: usize,
    wrong: Vec<(usize, String)>,
    names: &[String],
) -> Option<String> {
    let mut problems = Vec::new();
    // Blizzard's own files leave some geosets' lists empty (the geoset's
    // extent stands for every sequence): only a list of another length is wrong.
    if stored != 0 && stored != sequences {
        problems.push(format!(
            "{} for {}",
            crate::validate::count(stored, "extent", "extents"),
            crate::validate::count(sequences, "sequence", "sequences")
        ));
    }
    if let Some((i, first)) = wrong.first() {
        let name = names.get(*i).map_or("", String::as_str);
        problems.push(format!(
            "{} of {} disagree with the geometry (first: [{i}] {name:?}: {first})",
            wrong.len(),
            stored.min(sequences)
        ));
    }
    (!problems.is_empty()).then(|| problems.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn extent(r: f32, lo: f32, hi: f32) -> Extent {
        Extent {
            bounds_radius: r,
            minimum: [lo; 3],
            maximum: [hi; 3],
        }
    }

    /// The geometry of the box from -1 to 1, escaping the stored extent by
    /// `escape`.
    fn geometry(escape: f32) -> Geometry {
        Geometry::of(&extent(2.0, -1.0, 1.0), None, escape)
    }

    #[test]
    fn extents_disagree_beyond_the_tolerance() {
        // Within the tolerance either way: nothing.
        let close = extent(2.05, -1.05, 1.0);
        assert_eq!(disagreement(&close, &geometry(0.05), 0.1, false), None);
        let out = disagreement(&extent(0.0, -1.0, 0.5), &geometry(0.5), 0.1, false).unwrap();
        assert!(
            out.starts_with("the geometry reaches 0.500 beyond the box (the game"),
            "{out}"
        );
        let out = disagreement(&extent(1.0, -1.0, 0.5), &geometry(0.5), 0.1, false).unwrap();
        assert!(
            out.starts_with("the geometry reaches 0.500 beyond the box and its bounds sphere"),
            "{out}"
        );
        let large = disagreement(&extent(0.0, -3.0, 1.0), &geometry(-1.0), 0.1, false).unwrap();
        assert!(
            large.starts_with("the box is 2.000 larger than the geometry ("),
            "{large}"
        );
        // A sphere larger than the geometry needs culls nothing that shows:
        // not compared.
        assert_eq!(
            disagreement(&extent(9.0, -1.0, 1.0), &geometry(-1.0), 0.1, false),
            None
        );
        let nan = extent(2.0, f32::NAN, 1.0);
        assert!(
            disagreement(&nan, &geometry(0.0), 0.1, false)
                .unwrap()
                .starts_with("the box or the bounds radius is NaN")
        );
        // Where larger is allowed (a model with emitters): only the escape.
        let wide = extent(9.0, -3.0, 1.0);
        assert_eq!(disagreement(&wide, &geometry(-1.0), 0.1, true), None);
        assert!(disagreement(&wide, &geometry(0.5), 0.1, true).is_some());
    }

    /// Extents that are not set (empty, or one point) and geometry that is
    /// not there (a geoset hidden throughout) disagree with nothing.
    #[test]
    fn unset_extents_and_missing_geometry_are_not_compared() {
        let empty = Aabb::EMPTY.extent(0.0);
        let point = extent(0.0, 0.0, 0.0);
        for unset in [empty, point] {
            assert_eq!(disagreement(&unset, &geometry(1e9), 0.1, false), None);
        }
        let hidden = Geometry::of(&empty, None, f32::NEG_INFINITY);
        assert_eq!(
            disagreement(&extent(2.0, -1.0, 1.0), &hidden, 0.1, false),
            None
        );
    }

    /// A geoset's extent may hold it at rest: the rest pose counts as
    /// geometry it reaches, its box no larger than that.
    #[test]
    fn a_geoset_may_hold_its_rest_pose() {
        let rest = Aabb::of(&extent(0.0, 9.0, 11.0));
        let stored = extent(2.0, 9.0, 11.0);
        let posed = extent(2.0, -1.0, 1.0);
        let geometry = Geometry::of(&posed, Some(&rest), -1.0);
        assert_eq!(disagreement(&stored, &geometry, 0.1, false), None);
        let without = Geometry::of(&posed, None, -1.0);
        assert!(disagreement(&stored, &without, 0.1, false).is_some());
    }
}
