//! Removing nodes (the Reforged popcorn emitters, which the classic format
//! has no chunk for): object ids are positions in `PIVT`, so the nodes after
//! a removed one move down, and everything naming an object id follows.

use super::report::Report;
use crate::mdx::{Chunk, Model, Node};

/// "No parent".
const NONE: u32 = u32::MAX;

/// Every node of a Warcraft III model, to edit.
fn nodes_mut(model: &mut Model) -> Vec<&mut Node> {
    let mut out: Vec<&mut Node> = Vec::new();
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::Bones(c) => out.extend(c.bones.iter_mut().map(|x| &mut x.node)),
            Chunk::Lights(c) => out.extend(c.lights.iter_mut().map(|x| &mut x.node)),
            Chunk::Helpers(c) => out.extend(c.helpers.iter_mut().map(|x| &mut x.node)),
            Chunk::Attachments(c) => out.extend(c.attachments.iter_mut().map(|x| &mut x.node)),
            Chunk::ParticleEmitters(c) => out.extend(c.emitters.iter_mut().map(|x| &mut x.node)),
            Chunk::ParticleEmitters2(c) => out.extend(c.emitters.iter_mut().map(|x| &mut x.node)),
            Chunk::RibbonEmitters(c) => out.extend(c.emitters.iter_mut().map(|x| &mut x.node)),
            Chunk::CornEmitters(c) => out.extend(c.emitters.iter_mut().map(|x| &mut x.node)),
            Chunk::EventObjects(c) => out.extend(c.objects.iter_mut().map(|x| &mut x.node)),
            Chunk::CollisionShapes(c) => out.extend(c.shapes.iter_mut().map(|x| &mut x.node)),
            _ => {}
        }
    }
    out
}

/// Removes the `CORN` chunks: their emitters' pivots go, the object ids
/// after them move down (in nodes, parents and `MATS`), and a node whose
/// parent was one of them takes that emitter's parent.
pub(super) fn drop_corn_emitters(model: &mut Model, report: &mut Report) {
    let mut removed: Vec<(u32, u32)> = Vec::new();
    model.chunks.retain(|chunk| match chunk {
        Chunk::CornEmitters(c) => {
            for e in &c.emitters {
                report.drop(
                    format!("CORN.emitters[{}]", removed.len()),
                    format!(
                        "popcorn emitter `{}` (`{}`; the classic format has no popcorn emitters)",
                        e.node.name.to_string_lossy(),
                        e.path.to_string_lossy()
                    ),
                );
                removed.push((e.node.object_id, e.node.parent_id));
            }
            false
        }
        _ => true,
    });
    if removed.is_empty() {
        return;
    }
    let is_removed = |id: u32| removed.iter().any(|(r, _)| *r == id);
    let moved = |id: u32| -> u32 {
        if id == NONE {
            return NONE;
        }
        let below = removed.iter().filter(|(r, _)| *r < id).count();
        id - u32::try_from(below).unwrap_or(0)
    };
    // A parent that is removed hands its children to its own parent.
    let parent_of = |mut id: u32| -> u32 {
        for _ in 0..=removed.len() {
            match removed.iter().find(|(r, _)| *r == id) {
                Some((_, parent)) => id = *parent,
                None => break,
            }
        }
        if is_removed(id) { NONE } else { moved(id) }
    };
    for node in nodes_mut(model) {
        if is_removed(node.parent_id) {
            report.approximate(
                format!("node `{}`", node.name.to_string_lossy()),
                format!(
                    "its parent {} was a popcorn emitter: it now follows that emitter's parent",
                    node.parent_id
                ),
            );
        }
        node.parent_id = parent_of(node.parent_id);
        node.object_id = moved(node.object_id);
    }
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::PivotPoints(c) => {
                let mut id = 0u32;
                c.points.retain(|_| {
                    let keep = !is_removed(id);
                    id += 1;
                    keep
                });
            }
            Chunk::Geosets(c) => {
                for geoset in &mut c.geosets {
                    for bone in &mut geoset.matrix_indices {
                        *bone = moved(*bone);
                    }
                }
            }
            _ => {}
        }
    }
}
