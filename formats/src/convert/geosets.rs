//! Reforged levels of detail: the classic client draws every geoset, so the
//! geosets of levels above 0 go (and what points at them follows).

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
    let kept: Vec<usize> = all.into_iter().filter(|&g| levels.get(g).is_some_and(|&l| l <= 0)).collect();
    let new_geoset = |old: u32| -> u32 {
        kept.iter()
            .position(|&k| k as u64 == u64::from(old))
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or(NONE)
    };
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
                                g.lod_name.map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
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
    kept
}
