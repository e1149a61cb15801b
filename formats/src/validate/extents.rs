//! Extents that disagree with the geometry: each stored extent (`MODL`,
//! every sequence's, every geoset's and its per-sequence list) against what
//! [`bounds::measure`](crate::bounds::measure) finds from the posed
//! vertices, beyond a tolerance.
//!
//! A box the geometry reaches beyond makes the game cull a model that
//! shows; a box much larger than the geometry is stale. A bounds radius of 0
//! is read as "not set" (Blizzard's own `MODL` has 0) and not reported; a
//! geoset hidden throughout a sequence has nothing to disagree with. An
//! empty per-sequence list is not reported either (Blizzard's files leave
//! some empty), one of another length than the sequences is. In a model
//! with emitters, the model's and the sequences' boxes may be larger than
//! the geometry (particles reach past the vertices: see
//! [`bounds`](crate::bounds)); only geometry beyond them is reported.

use super::{Finding, Findings, Rule};
use crate::bounds::{Aabb, ExtentOptions, Extents, measure};
use crate::mdx::{Chunk, Extent, Model};

/// How far a stored extent may be from the measured one, as a fraction of
/// the measured model box's diagonal (1 %: the poses are sampled, and tools
/// measure in their own ways).
pub const EXTENT_TOLERANCE: f32 = 0.01;

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
/// // The sample's cube rises by 0.5 in "Stand": say it does not.
/// model.sequences_mut()[0].extent.maximum[2] = 0.5;
/// let findings = extents::model(&model);
/// assert_eq!(findings.len(), 1);
/// assert_eq!(findings[0].rule, Rule::StaleExtent);
/// assert_eq!(findings[0].path, "chunks[2].SEQS.sequences[0].extent");
/// assert!(findings[0].message.starts_with("the geometry reaches 0.500 beyond the box"));
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

/// What is wrong with `stored` against `measured`, if anything; with
/// `larger_allowed`, a box or radius larger than the geometry is not.
fn disagreement(
    stored: &Extent,
    measured: &Extent,
    tolerance: f32,
    larger_allowed: bool,
) -> Option<String> {
    let measured_box = Aabb::of(measured);
    if measured_box.is_empty() {
        return None;
    }
    let stored_box = Aabb::of(stored);
    let boxes = format!(
        "stored {} to {}, measured {} to {}",
        point(stored.minimum),
        point(stored.maximum),
        point(measured.minimum),
        point(measured.maximum)
    );
    if stored_box.is_empty() {
        return Some(format!("empty, but the geometry shows ({boxes})"));
    }
    if stored
        .minimum
        .iter()
        .chain(&stored.maximum)
        .any(|v| v.is_nan())
    {
        return Some(format!("the box holds NaN ({boxes})"));
    }
    let lows = stored.minimum.iter().zip(&measured.minimum);
    let highs = stored.maximum.iter().zip(&measured.maximum);
    let (mut outside, mut inside) = (0.0f32, 0.0f32);
    for (s, m) in lows {
        outside = outside.max(s - m);
        inside = inside.max(m - s);
    }
    for (s, m) in highs {
        outside = outside.max(m - s);
        inside = inside.max(s - m);
    }
    let mut problems = Vec::new();
    if outside > tolerance {
        problems.push(format!(
            "the geometry reaches {outside:.3} beyond the box (the game may cull what shows)"
        ));
    }
    if inside > tolerance && !larger_allowed {
        problems.push(format!("the box is {inside:.3} larger than the geometry"));
    }
    let (r, needed) = (stored.bounds_radius, measured.bounds_radius);
    let off = match larger_allowed {
        true => needed - r,
        false => (r - needed).abs(),
    };
    if r != 0.0 && (r.is_nan() || off > tolerance) {
        problems.push(format!(
            "bounds radius {r:.3} where the geometry gives {needed:.3}"
        ));
    }
    (!problems.is_empty()).then(|| format!("{} ({boxes})", problems.join("; ")))
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
    let emitters = crate::bounds::has_emitters(model);
    let mut check = |path: String, stored: &Extent, measured: &Extent, whole: bool| {
        if let Some(message) = disagreement(stored, measured, tolerance, whole && emitters) {
            findings.push(Rule::StaleExtent, path, message + &coarse);
        }
    };
    let mut lists = Vec::new();
    let (mut modl, mut seqs, mut geos) = (false, false, false);
    let wc3_geosets = model.geosets().len();
    for (c, chunk) in model.chunks.iter().enumerate() {
        let at = format!("chunks[{c}].{}", chunk.tag());
        match chunk {
            Chunk::Model(m) if !modl => {
                modl = true;
                check(format!("{at}.extent"), &m.extent, &measured.model, true);
            }
            Chunk::AlphaModel(m) if !modl => {
                modl = true;
                check(format!("{at}.bounds"), &m.bounds, &measured.model, true);
            }
            Chunk::Sequences(s) if !seqs => {
                seqs = true;
                let stored = s.sequences.iter().map(|s| &s.extent);
                for (i, (stored, m)) in stored.zip(&measured.sequences).enumerate() {
                    check(format!("{at}.sequences[{i}].extent"), stored, m, true);
                }
            }
            Chunk::AlphaSequences(s) if !seqs => {
                seqs = true;
                let stored = s.sequences.iter().map(|s| &s.bounds);
                for (i, (stored, m)) in stored.zip(&measured.sequences).enumerate() {
                    check(format!("{at}.sequences[{i}].bounds"), stored, m, true);
                }
            }
            Chunk::Geosets(g) if !geos => {
                geos = true;
                for (i, (geoset, m)) in g.geosets.iter().zip(&measured.geosets).enumerate() {
                    let at = format!("{at}.geosets[{i}]");
                    check(format!("{at}.extent"), &geoset.extent, &m.extent, false);
                    let path = format!("{at}.sequence_extents");
                    lists.push((path, &geoset.sequence_extents, &m.sequences));
                }
            }
            Chunk::AlphaGeosets(g) if !geos => {
                geos = true;
                let measured = measured.geosets.get(wc3_geosets..).unwrap_or_default();
                for (i, (geoset, m)) in g.geosets.iter().zip(measured).enumerate() {
                    let at = format!("{at}.geosets[{i}]");
                    check(format!("{at}.bounds"), &geoset.bounds, &m.extent, false);
                    lists.push((format!("{at}.seq_bounds"), &geoset.seq_bounds, &m.sequences));
                }
            }
            _ => {}
        }
    }
    let names: Vec<String> = crate::anim::Timeline::from_model(model)
        .sequences
        .into_iter()
        .map(|s| s.name)
        .collect();
    for (path, stored, measured) in lists {
        if let Some(message) = list_disagreement(stored, measured, &names, tolerance) {
            findings.push(Rule::StaleExtent, path, message + &coarse);
        }
    }
    findings.found
}

/// A geoset's per-sequence list against the measured one: its length, and
/// how many disagree (the first named).
fn list_disagreement(
    stored: &[Extent],
    measured: &[Extent],
    names: &[String],
    tolerance: f32,
) -> Option<String> {
    let mut problems = Vec::new();
    // Blizzard's own files leave some geosets' lists empty (the geoset's
    // extent stands for every sequence): only a list of another length is wrong.
    if !stored.is_empty() && stored.len() != measured.len() {
        problems.push(format!(
            "{} for {}",
            crate::validate::count(stored.len(), "extent", "extents"),
            crate::validate::count(measured.len(), "sequence", "sequences")
        ));
    }
    let wrong: Vec<(usize, String)> = stored
        .iter()
        .zip(measured)
        .enumerate()
        .filter_map(|(i, (s, m))| Some((i, disagreement(s, m, tolerance, false)?)))
        .collect();
    if let Some((i, first)) = wrong.first() {
        let name = names.get(*i).map_or("", String::as_str);
        problems.push(format!(
            "{} of {} disagree with the geometry (first: [{i}] {name:?}: {first})",
            wrong.len(),
            stored.len().min(measured.len())
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

    #[test]
    fn boxes_disagree_beyond_the_tolerance_in_either_direction() {
        let measured = extent(2.0, -1.0, 1.0);
        assert_eq!(
            disagreement(&extent(2.05, -1.05, 1.0), &measured, 0.1, false),
            None
        );
        let small = disagreement(&extent(2.0, -1.0, 0.5), &measured, 0.1, false).unwrap();
        assert!(
            small.starts_with("the geometry reaches 0.500 beyond the box"),
            "{small}"
        );
        let large = disagreement(&extent(0.0, -3.0, 1.0), &measured, 0.1, false).unwrap();
        assert!(
            large.starts_with("the box is 2.000 larger than the geometry ("),
            "{large}"
        );
        let radius = disagreement(&extent(9.0, -1.0, 1.0), &measured, 0.1, false).unwrap();
        assert!(
            radius.starts_with(
                "bounds radius 9.000 where the geometry gives 2.000 (stored (-1, -1, -1) to (1, 1, 1)"
            ),
            "{radius}"
        );
        let empty = Aabb::EMPTY.extent(0.0);
        assert!(
            disagreement(&empty, &measured, 0.1, false)
                .unwrap()
                .starts_with("empty, but")
        );
        // Nothing measured (a hidden geoset): nothing to disagree with.
        assert_eq!(disagreement(&measured, &empty, 0.1, false), None);
        let nan = extent(2.0, f32::NAN, 1.0);
        assert!(
            disagreement(&nan, &measured, 0.1, false)
                .unwrap()
                .starts_with("the box holds NaN")
        );
        // Where larger is allowed (a model with emitters): only too small.
        assert_eq!(
            disagreement(&extent(9.0, -3.0, 1.0), &measured, 0.1, true),
            None
        );
        assert!(disagreement(&extent(2.0, -1.0, 0.5), &measured, 0.1, true).is_some());
        assert!(disagreement(&extent(1.0, -1.0, 1.0), &measured, 0.1, true).is_some());
    }
}
