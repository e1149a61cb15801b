//! Reforged levels of detail: the classic client draws every geoset, so the
//! geosets of levels above 0 go (and what points at them follows; the
//! materials only they used go too).

use super::removal::Removal;
use super::report::Report;
use crate::mdx::{Chunk, Model};

/// "None" for a bone's geoset and geoset animation ids.
const NONE: u32 = u32::MAX;

/// Drops the geosets whose level of detail is above 0 (when some geoset is
/// at level 0 or -1, the levels drawn at full detail), with their geoset
/// animations; bones pointing at them point at none. Returns, for each
/// geoset kept, its index before.
pub(super) fn drop_lods(model: &mut Model, report: &mut Report) -> Vec<usize> {
    let levels: Vec<i32> = model.geosets().iter().map(|g| g.lod.unwrap_or(0)).collect();
    let all: Vec<usize> = (0..levels.len()).collect();
    if !levels.iter().any(|&l| l <= 0) || levels.iter().all(|&l| l <= 0) {
        return all;
    }
    let kept: Vec<usize> = all
        .into_iter()
        .filter(|&g| levels.get(g).is_some_and(|&l| l <= 0))
        .collect();
    let new_geoset = |old: u32| -> u32 {
        kept.iter()
            .position(|&k| k as u64 == u64::from(old))
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(NONE)
    };
    let materials_before = used_materials(model);
    let mut kept_animations = Vec::new();
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::Geosets(c) => {
                let mut index = 0;
                c.geosets.retain(|g| {
                    let keep = kept.contains(&index);
                    if !keep {
                        report.drop(
                            format!("geosets[{index}]"),
                            format!(
                                "a level of detail {} geoset (`{}`, {} vertices; the classic \
                                 client draws every geoset)",
                                g.lod.unwrap_or(0),
                                g.lod_name
                                    .map(|n| n.to_string_lossy().into_owned())
                                    .unwrap_or_default(),
                                g.vertex_count()
                            ),
                        );
                    }
                    index += 1;
                    keep
                });
            }
            Chunk::GeosetAnimations(c) => {
                let mut index = 0u32;
                c.animations.retain_mut(|a| {
                    let id = new_geoset(a.geoset_id);
                    let keep = id != NONE || a.geoset_id == NONE;
                    if keep {
                        a.geoset_id = id;
                        kept_animations.push(index);
                    } else {
                        report.drop(
                            format!("geoset_animations[{index}]"),
                            format!("the animation of dropped geoset {}", a.geoset_id),
                        );
                    }
                    index += 1;
                    keep
                });
            }
            _ => {}
        }
    }
    let new_animation = |old: u32| -> u32 {
        kept_animations
            .iter()
            .position(|&k| k == old)
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(NONE)
    };
    for chunk in &mut model.chunks {
        if let Chunk::Bones(c) = chunk {
            for bone in &mut c.bones {
                if bone.geoset_id != NONE {
                    bone.geoset_id = new_geoset(bone.geoset_id);
                }
                if bone.geoset_animation_id != NONE {
                    bone.geoset_animation_id = new_animation(bone.geoset_animation_id);
                }
            }
        }
    }
    drop_unused_materials(model, &materials_before, report);
    kept
}

/// Which materials geosets and ribbon emitters use, by index.
fn used_materials(model: &Model) -> Vec<bool> {
    let mut used = vec![false; model.materials().len()];
    let ids = model
        .geosets()
        .iter()
        .map(|g| g.material_id)
        .chain(model.ribbon_emitters().iter().map(|e| e.material_id));
    for id in ids {
        if let Some(u) = used.get_mut(id as usize) {
            *u = true;
        }
    }
    used
}

/// Removes the materials that only dropped geosets used (used `before`,
/// no longer), moving the material ids after them down.
fn drop_unused_materials(model: &mut Model, before: &[bool], report: &mut Report) {
    let now = used_materials(model);
    let Some(removal) = Removal::unused(before, &now) else {
        return;
    };
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::Materials(c) => removal.apply(&mut c.materials, |index, _| {
                report.drop(
                    format!("materials[{index}]"),
                    "a material only dropped level-of-detail geosets used",
                );
            }),
            Chunk::Geosets(c) => c
                .geosets
                .iter_mut()
                .for_each(|g| removal.renumber(&mut g.material_id)),
            Chunk::RibbonEmitters(c) => c
                .emitters
                .iter_mut()
                .for_each(|e| removal.renumber(&mut e.material_id)),
            _ => {}
        }
    }
}
