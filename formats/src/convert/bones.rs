//! Bones the classic model binds no vertex to, though the source did
//! (`validate`'s `bone-without-vertex`): a bone that only ever weighs little
//! in `SKIN` (or in the influences [`convert_weighted`](super::convert_weighted)
//! was given) is left out of every vertex's matrix group (the classic format
//! weighs a group's bones equally, so 0.9/0.1 is one bone), and a bone only
//! dropped level-of-detail geosets used binds nothing. The bone still moves
//! what hangs from it; each is reported.

use std::collections::{HashMap, HashSet};

use super::Weights;
use super::groups::{Influences, influences};
use super::report::Report;
use crate::mdx::{Geoset, Model};

/// The object ids a geoset binds its vertices to, each with the largest
/// weight (out of 255) it has on a vertex: the weights (above 0) of `all`
/// when given, else of `SKIN` when there is `SKIN`, else the vertices'
/// matrix groups (equal shares).
fn bound(geoset: &Geoset, all: Option<&[Influences]>, into: &mut HashMap<u32, u32>) {
    let mut bind = |bone: u32, weight: u32| {
        let w = into.entry(bone).or_default();
        *w = (*w).max(weight);
    };
    if let Some(all) = all {
        for vertex in all {
            let total: u64 = vertex.iter().map(|&(_, w)| u64::from(w)).sum();
            for &(bone, weight) in vertex.iter().filter(|(_, w)| *w > 0) {
                let out_of_255 = (u64::from(weight) * 255).div_ceil(total.max(1));
                bind(bone, u32::try_from(out_of_255).unwrap_or(255));
            }
        }
        return;
    }
    if let Some(skin) = &geoset.skin {
        for vertex in influences(skin, &geoset.matrix_indices) {
            for (bone, weight) in vertex {
                bind(bone, weight);
            }
        }
        return;
    }
    let mut groups = Vec::with_capacity(geoset.matrix_groups.len());
    let mut rest = geoset.matrix_indices.as_slice();
    for &size in &geoset.matrix_groups {
        let (group, after) =
            rest.split_at(usize::try_from(size).unwrap_or(usize::MAX).min(rest.len()));
        groups.push(group);
        rest = after;
    }
    let used: HashSet<u8> = geoset.vertex_groups.iter().copied().collect();
    for group in used {
        let Some(&bones) = groups.get(usize::from(group)) else {
            continue;
        };
        let share = u32::try_from(255 / bones.len().max(1)).unwrap_or(255);
        for &bone in bones {
            bind(bone, share);
        }
    }
}

/// Reports each bone of `model` (converted from `original`, whose geoset
/// `kept[i]` is its geoset `i` before any was cut, and whose vertices have
/// `weights` where given) that `original` binds a vertex to and `model`
/// does not.
pub(super) fn report_unbound(
    original: &Model,
    model: &Model,
    kept: &[usize],
    weights: &Weights<'_>,
    report: &mut Report,
) {
    let (mut in_kept, mut in_any, mut now) = (HashMap::new(), HashMap::new(), HashMap::new());
    for (g, geoset) in original.geosets().iter().enumerate() {
        bound(geoset, weights.of(g), &mut in_any);
        if kept.contains(&g) {
            bound(geoset, weights.of(g), &mut in_kept);
        }
    }
    for geoset in model.geosets() {
        bound(geoset, None, &mut now);
    }
    for (b, (before, after)) in original.bones().iter().zip(model.bones()).enumerate() {
        let id = before.node.object_id;
        if !in_any.contains_key(&id) || now.contains_key(&after.node.object_id) {
            continue;
        }
        let name = before.node.name.to_string_lossy();
        let why = match in_kept.get(&id) {
            Some(weight) => format!(
                "weighs at most {weight}/255 on a vertex, and no vertex's matrix group keeps \
                 it (a group weighs its bones equally)"
            ),
            None => "only dropped level-of-detail geosets bound vertices to it".to_string(),
        };
        report.approximate(
            format!("bones[{b}]"),
            format!("`{name}` binds no vertex any more: it {why}"),
        );
    }
}
