//! Geosets: what the classic client draws, faces, vertices bound to bones
//! (matrix groups, or Reforged `SKIN`), and geosets animated twice.

use std::collections::HashMap;

use crate::mdx::{Geoset, Material, Model};
use crate::validate::walk::{self, NodeKind};
use crate::validate::{Findings, Rule};

/// The most vertices a geoset drawn by the classic (SD) renderer may have:
/// 7433 drew broken and 7394 drew right in mdx-m3-viewer's tests, which flag
/// 7433 and more.
pub(super) const CLASSIC_VERTEX_LIMIT: usize = 7432;

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "GEOS");
    let nodes: HashMap<u32, NodeKind> = walk::nodes(model)
        .into_iter()
        .map(|n| (n.object_id, n.kind))
        .collect();
    let has_bones = nodes.values().any(|k| *k == NodeKind::Bone);
    for (g, geoset) in model.geosets().iter().enumerate() {
        let at = format!("{at}.geosets[{g}]");
        let vertices = geoset.vertex_count();
        if vertices > CLASSIC_VERTEX_LIMIT && !is_hd(model, geoset) {
            f.push(
                Rule::GeosetVertexLimit,
                format!("{at}.vertex_positions"),
                format!(
                    "{vertices} vertices: the classic renderer draws at most \
                     {CLASSIC_VERTEX_LIMIT} in a geoset"
                ),
            );
        }
        if geoset.faces.is_empty() {
            f.push(Rule::GeosetWithoutFaces, format!("{at}.faces"), "no faces");
        }
        // A model without bones may bind its vertices any way (nothing moves them).
        if has_bones {
            skinning(&at, geoset, &nodes, f);
        }
    }
    animated_twice(model, f);
}

/// Geosets named by several geoset animations: one finding per geoset, at
/// the second animation naming it.
fn animated_twice(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "GEOA");
    let mut by_geoset: HashMap<u32, Vec<usize>> = HashMap::new();
    let geosets = model.geosets().len();
    for (a, animation) in model.geoset_animations().iter().enumerate() {
        // Out of range is `geoset-index`.
        if usize::try_from(animation.geoset_id).is_ok_and(|g| g < geosets) {
            by_geoset.entry(animation.geoset_id).or_default().push(a);
        }
    }
    // Each geoset named again, with the animation naming it the second time.
    let mut twice: Vec<(usize, u32, Vec<usize>)> = by_geoset
        .into_iter()
        .filter_map(|(geoset, a)| Some((*a.get(1)?, geoset, a)))
        .collect();
    twice.sort_unstable();
    for (second, geoset, animations) in twice {
        let list: Vec<String> = animations.iter().map(usize::to_string).collect();
        f.push(
            Rule::GeosetAnimatedTwice,
            format!("{at}.animations[{second}].geoset_id"),
            format!(
                "geoset {geoset} is named by geoset animations {}: the game uses one",
                list.join(", ")
            ),
        );
    }
}

/// True when the geoset's material is drawn by Reforged's HD renderer.
fn is_hd(model: &Model, geoset: &Geoset) -> bool {
    usize::try_from(geoset.material_id)
        .ok()
        .and_then(|m| model.materials().get(m))
        .is_some_and(Material::is_hd)
}

/// What one vertex is bound to.
pub(super) enum Bound {
    /// A node, by object id.
    Node(u32),
    /// A matrix group index with no group (or no `GNDX` entry at all).
    NoGroup(Option<u8>),
    /// A `SKIN` slot with no matrix index.
    NoSlot(u8),
    /// Nothing: an empty group, or `SKIN` weights of 0.
    Nothing,
    /// `SKIN` weights adding up to this, not 255.
    Weights(u32),
}

/// Calls `visit` with each vertex's bindings: by `SKIN` when the geoset has
/// it (4 slots into the matrix indices, 4 weights), by matrix groups
/// otherwise.
pub(super) fn bindings(geoset: &Geoset, visit: &mut dyn FnMut(usize, Bound)) {
    let vertices = geoset.vertex_count();
    if let Some(skin) = &geoset.skin {
        for v in 0..vertices {
            let Some(record) = skin.get(v * 8..v * 8 + 8) else {
                visit(v, Bound::Nothing);
                continue;
            };
            let (slots, weights) = record.split_at(4);
            let mut sum = 0u32;
            for (slot, weight) in slots.iter().zip(weights) {
                if *weight > 0 {
                    sum += u32::from(*weight);
                    match geoset.matrix_indices.get(usize::from(*slot)) {
                        Some(id) => visit(v, Bound::Node(*id)),
                        None => visit(v, Bound::NoSlot(*slot)),
                    }
                }
            }
            match sum {
                0 => visit(v, Bound::Nothing),
                255 => {}
                other => visit(v, Bound::Weights(other)),
            }
        }
        return;
    }
    // Each group is the next `size` matrix indices.
    let mut groups = Vec::with_capacity(geoset.matrix_groups.len());
    let mut rest = geoset.matrix_indices.as_slice();
    for size in &geoset.matrix_groups {
        let (group, after) =
            rest.split_at(usize::try_from(*size).unwrap_or(usize::MAX).min(rest.len()));
        groups.push(group);
        rest = after;
    }
    for v in 0..vertices {
        let Some(&group) = geoset.vertex_groups.get(v) else {
            visit(v, Bound::NoGroup(None));
            continue;
        };
        match groups.get(usize::from(group)) {
            None => visit(v, Bound::NoGroup(Some(group))),
            Some([]) => visit(v, Bound::Nothing),
            Some(ids) => {
                for id in *ids {
                    visit(v, Bound::Node(*id));
                }
            }
        }
    }
}

/// Every vertex bound to bones: one finding per geoset, with the first problem.
fn skinning(at: &str, geoset: &Geoset, nodes: &HashMap<u32, NodeKind>, f: &mut Findings) {
    let mut bad = Vec::new();
    let mut first = None;
    bindings(geoset, &mut |v, bound| {
        let problem = match bound {
            Bound::Node(id) => match nodes.get(&id) {
                Some(NodeKind::Bone) => return,
                Some(NodeKind::Other) => format!("bound to object {id}, which is not a bone"),
                None => format!("bound to object {id}, which does not exist"),
            },
            Bound::NoGroup(Some(g)) => format!("in matrix group {g}, which does not exist"),
            Bound::NoGroup(None) => "has no matrix group (GNDX is short)".into(),
            Bound::NoSlot(s) => format!("SKIN slot {s} names no matrix index"),
            Bound::Nothing => "bound to nothing".into(),
            Bound::Weights(w) => format!("SKIN weights add up to {w}, not 255"),
        };
        if bad.last() != Some(&v) {
            bad.push(v);
        }
        first.get_or_insert((v, problem));
    });
    if let Some((v, problem)) = first {
        let field = if geoset.skin.is_some() {
            "skin"
        } else {
            "vertex_groups"
        };
        f.push(
            Rule::VertexSkinning,
            format!("{at}.{field}"),
            format!(
                "{} of {} vertices are not bound to bones (first: vertex {v} {problem})",
                bad.len(),
                geoset.vertex_count()
            ),
        );
    }
}
