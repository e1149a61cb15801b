//! Geosets the classic renderer cannot draw: past 7432 vertices a geoset
//! draws broken (mdx-m3-viewer's tests: 7433 failed, 7394 drew; `validate`'s
//! `geoset-vertex-limit`), which Reforged's HD materials do not mind. Such a
//! geoset is cut, triangle by triangle in file order, into geosets of at most
//! that many vertices: a vertex the cut runs through is in both parts, every
//! vertex keeps its data (position, normal, UVs, matrix group), so the parts
//! draw and animate as the whole did. Each part keeps the whole's material,
//! extents and matrix groups; its geoset animation is copied for each part
//! (appended to `GEOA`, so the indices bones hold stay), and ids after it move
//! down the line.

use super::report::Report;
use crate::mdx::{Chunk, Geoset, Model};

/// The most vertices of a geoset the classic renderer draws.
pub(super) const CLASSIC_VERTEX_LIMIT: usize = 7432;

/// `PTYP` 4: triangles.
const TRIANGLES: u32 = 4;

/// "None" for geoset ids.
const NONE: u32 = u32::MAX;

/// `geoset`'s triangles, when its faces are all triangle lists.
fn triangles(geoset: &Geoset) -> Option<Vec<[u16; 3]>> {
    let listed: u64 = geoset.face_groups.iter().map(|&n| u64::from(n)).sum();
    let all_triangles = geoset.face_type_groups.iter().all(|&t| t == TRIANGLES);
    let in_range = geoset
        .faces
        .iter()
        .all(|&v| usize::from(v) < geoset.vertex_count());
    if !all_triangles
        || !in_range
        || listed != geoset.faces.len() as u64
        || !geoset.faces.len().is_multiple_of(3)
    {
        return None;
    }
    Some(
        geoset
            .faces
            .chunks_exact(3)
            .filter_map(|t| <[u16; 3]>::try_from(t).ok())
            .collect(),
    )
}

/// The parts of a geoset: for each, its vertices (indices into the whole)
/// and its triangles (indices into the part).
fn cut(vertex_count: usize, triangles: &[[u16; 3]]) -> Vec<(Vec<u16>, Vec<u16>)> {
    let mut parts = Vec::new();
    let mut local: Vec<Option<u16>> = vec![None; vertex_count];
    let mut vertices: Vec<u16> = Vec::new();
    let mut faces: Vec<u16> = Vec::new();
    for triangle in triangles {
        let new = triangle
            .iter()
            .enumerate()
            .filter(|&(i, v)| {
                local.get(usize::from(*v)).is_some_and(Option::is_none)
                    && !triangle.get(..i).is_some_and(|before| before.contains(v))
            })
            .count();
        if vertices.len() + new > CLASSIC_VERTEX_LIMIT {
            for &v in &vertices {
                if let Some(slot) = local.get_mut(usize::from(v)) {
                    *slot = None;
                }
            }
            parts.push((core::mem::take(&mut vertices), core::mem::take(&mut faces)));
        }
        for &v in triangle {
            let Some(slot) = local.get_mut(usize::from(v)) else {
                continue;
            };
            let index = *slot.get_or_insert_with(|| {
                vertices.push(v);
                u16::try_from(vertices.len() - 1).unwrap_or(u16::MAX)
            });
            faces.push(index);
        }
    }
    if !faces.is_empty() {
        parts.push((vertices, faces));
    }
    parts
}

/// The part of `whole` made of `vertices`, with `faces`.
fn part(whole: &Geoset, vertices: &[u16], faces: Vec<u16>) -> Geoset {
    fn pick<T: Copy>(all: &[T], vertices: &[u16]) -> Vec<T> {
        vertices
            .iter()
            .filter_map(|&v| all.get(usize::from(v)).copied())
            .collect()
    }
    let mut part = whole.clone();
    part.vertex_positions = pick(&whole.vertex_positions, vertices);
    part.vertex_normals = pick(&whole.vertex_normals, vertices);
    part.vertex_groups = pick(&whole.vertex_groups, vertices);
    part.tangents = whole.tangents.as_ref().map(|t| pick(t, vertices));
    part.skin = None;
    for set in &mut part.texture_coordinate_sets {
        set.texture_coordinates = pick(&set.texture_coordinates, vertices);
    }
    part.face_type_groups = vec![TRIANGLES];
    part.face_groups = vec![u32::try_from(faces.len()).unwrap_or(u32::MAX)];
    part.faces = faces;
    part
}

/// Cuts every geoset past [`CLASSIC_VERTEX_LIMIT`] vertices (whose faces are
/// triangle lists and which has no `SKIN`: a classic geoset) into parts,
/// but for those `from_classic` (converted from a classic model and given
/// back as they were); `source[g]` is geoset `g`'s index in the source
/// model, for the report. Returns how many geosets each geoset became (1:
/// not cut), in order.
pub(super) fn split_large(
    model: &mut Model,
    source: &[usize],
    from_classic: &[bool],
    report: &mut Report,
) -> Vec<usize> {
    // (index before, how many geosets it became), in order.
    let mut became: Vec<(u32, u32)> = Vec::new();
    let mut next = 0u32;
    for chunk in &mut model.chunks {
        let Chunk::Geosets(c) = chunk else {
            continue;
        };
        let mut out = Vec::with_capacity(c.geosets.len());
        for (g, geoset) in c.geosets.drain(..).enumerate() {
            let vertices = geoset.vertex_count();
            let classic = from_classic.get(g).copied().unwrap_or(false);
            let cut = (vertices > CLASSIC_VERTEX_LIMIT && geoset.skin.is_none() && !classic)
                .then(|| triangles(&geoset))
                .flatten()
                .map(|t| cut(vertices, &t))
                .filter(|parts| parts.len() > 1);
            let Some(parts) = cut else {
                became.push((next, 1));
                next += 1;
                out.push(geoset);
                continue;
            };
            let sizes: Vec<String> = parts.iter().map(|(v, _)| v.len().to_string()).collect();
            report.approximate(
                format!("geosets[{}]", source.get(g).copied().unwrap_or(g)),
                format!(
                    "{vertices} vertices, more than the classic renderer draws in a geoset \
                     ({CLASSIC_VERTEX_LIMIT}): cut into {} geosets of {} vertices (the vertices \
                     along the cut in both)",
                    parts.len(),
                    sizes.join(", ")
                ),
            );
            let count = u32::try_from(parts.len()).unwrap_or(1);
            became.push((next, count));
            next += count;
            for (vertices, faces) in parts {
                out.push(part(&geoset, &vertices, faces));
            }
        }
        c.geosets = out;
    }
    let parts: Vec<usize> = became.iter().map(|&(_, n)| n as usize).collect();
    if parts.iter().all(|&n| n == 1) {
        return parts;
    }
    let first = |old: u32| -> u32 {
        usize::try_from(old)
            .ok()
            .and_then(|i| became.get(i))
            .map_or(old, |&(at, _)| at)
    };
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::GeosetAnimations(c) => {
                let mut copies = Vec::new();
                for animation in &mut c.animations {
                    let old = animation.geoset_id;
                    let Some(&(at, n)) = usize::try_from(old).ok().and_then(|i| became.get(i))
                    else {
                        continue;
                    };
                    animation.geoset_id = at;
                    for extra in 1..n {
                        let mut copy = animation.clone();
                        copy.geoset_id = at + extra;
                        copies.push(copy);
                    }
                }
                c.animations.extend(copies);
            }
            Chunk::Bones(c) => {
                for bone in &mut c.bones {
                    if bone.geoset_id != NONE {
                        bone.geoset_id = first(bone.geoset_id);
                    }
                }
            }
            _ => {}
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mdx::GeosetAnimation;

    fn animation(geoset_id: u32) -> GeosetAnimation {
        GeosetAnimation {
            alpha: 1.0,
            flags: 0,
            color: [1.0; 3],
            geoset_id,
            tracks: Vec::new(),
        }
    }

    #[test]
    fn the_parts_of_a_geoset_keep_its_animation_and_later_ids_move() {
        // The sample's cube made a strip of 2 * 4000 vertices, then the cube
        // again; an animation for each, a bone on the second.
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        let cube = model.geosets()[0].clone();
        let mut strip = cube.clone();
        strip.vertex_positions = (0..8000).map(|i| [i as f32, 0.0, 0.0]).collect();
        strip.vertex_normals = vec![[0.0, 0.0, 1.0]; 8000];
        strip.vertex_groups = vec![0; 8000];
        for set in &mut strip.texture_coordinate_sets {
            set.texture_coordinates = vec![[0.0, 0.0]; 8000];
        }
        strip.faces = (0..3999u16)
            .flat_map(|i| [2 * i, 2 * i + 1, 2 * i + 2, 2 * i + 1, 2 * i + 3, 2 * i + 2])
            .collect();
        strip.face_type_groups = vec![TRIANGLES];
        strip.face_groups = vec![strip.faces.len() as u32];
        *model.geosets_mut() = vec![strip, cube];
        *model.geoset_animations_mut() = vec![animation(1), animation(0)];
        model.bones_mut()[0].geoset_id = 1;
        let mut report = Report::default();
        let parts = split_large(&mut model, &[0, 1], &[false, false], &mut report);
        assert_eq!(parts, [2, 1]);
        let counts: Vec<usize> = model.geosets().iter().map(Geoset::vertex_count).collect();
        assert_eq!(counts, [7432, 570, 8]);
        let ids: Vec<u32> = model
            .geoset_animations()
            .iter()
            .map(|a| a.geoset_id)
            .collect();
        assert_eq!(ids, [2, 0, 1]);
        assert_eq!(model.bones()[0].geoset_id, 2);
        assert_eq!(report.approximated.len(), 1);
        assert_eq!(report.approximated[0].path, "geosets[0]");
    }

    #[test]
    fn a_geoset_converted_from_classic_comes_back_whole() {
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        let geoset = &mut model.geosets_mut()[0];
        geoset.vertex_positions = vec![[0.0; 3]; 8000];
        geoset.vertex_normals = vec![[0.0, 0.0, 1.0]; 8000];
        geoset.vertex_groups = vec![0; 8000];
        geoset.faces = (0..7998u16).flat_map(|i| [i, i + 1, i + 2]).collect();
        geoset.face_type_groups = vec![TRIANGLES];
        geoset.face_groups = vec![geoset.faces.len() as u32];
        let whole = model.clone();
        split_large(&mut model, &[0], &[true], &mut Report::default());
        assert_eq!(model, whole);
        split_large(&mut model, &[0], &[false], &mut Report::default());
        assert_eq!(model.geosets().len(), 2);
    }

    #[test]
    fn a_cut_keeps_every_triangle_and_no_part_is_too_large() {
        // A strip of 2 * 5000 vertices: 9998 triangles.
        let n: u16 = 5000;
        let triangles: Vec<[u16; 3]> = (0..n - 1)
            .flat_map(|i| {
                [
                    [2 * i, 2 * i + 1, 2 * i + 2],
                    [2 * i + 1, 2 * i + 3, 2 * i + 2],
                ]
            })
            .collect();
        let parts = cut(usize::from(2 * n), &triangles);
        assert_eq!(parts.len(), 2);
        let mut back = Vec::new();
        for (vertices, faces) in &parts {
            assert!(vertices.len() <= CLASSIC_VERTEX_LIMIT);
            for t in faces.chunks(3) {
                back.push(
                    t.iter()
                        .map(|&i| vertices[usize::from(i)])
                        .collect::<Vec<_>>(),
                );
            }
        }
        let whole: Vec<Vec<u16>> = triangles.iter().map(|t| t.to_vec()).collect();
        assert_eq!(back, whole);
        // The vertices along the cut are in both parts.
        let shared = parts[0].0.iter().filter(|v| parts[1].0.contains(v)).count();
        assert_eq!(shared, 2);
        assert_eq!(
            parts[0].0.len() + parts[1].0.len(),
            2 * usize::from(n) + shared
        );
    }
}
