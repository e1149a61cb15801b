//! Cutting a geoset into parts that a classic geoset can be (what and why:
//! the [module](super) docs): triangle by triangle in file order, a part
//! ending where the next triangle would take it past the vertices or the
//! matrix groups allowed; a vertex the cut runs through is in both parts,
//! and every vertex keeps its data (position, normal, UVs, group), so the
//! parts draw and animate as the whole did.

use super::groups::{FromSkin, Groups, MAX_GROUPS};
use super::report::Report;
use crate::mdx::{Chunk, Geoset, Model};

/// The most vertices of a geoset the classic renderer draws.
pub(super) const CLASSIC_VERTEX_LIMIT: usize = 7432;

/// `PTYP` 4: triangles.
const TRIANGLES: u32 = 4;

/// "None" for geoset ids.
const NONE: u32 = u32::MAX;

/// Where a converted geoset's vertices come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Origin {
    /// Its geoset in the source model.
    pub geoset: usize,
    /// Each of its vertices' index in that geoset; `None`: the same
    /// vertices (the geoset was not cut).
    pub vertices: Option<Vec<u16>>,
}

impl Origin {
    /// The source geosets `kept`, each whole.
    pub fn whole(kept: &[usize]) -> Vec<Origin> {
        kept.iter()
            .map(|&geoset| Origin {
                geoset,
                vertices: None,
            })
            .collect()
    }
}

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

/// What bounds a part: its vertices, and (with each vertex's group) its
/// matrix groups.
struct Limits<'a> {
    vertices: usize,
    /// Each vertex's group, when the groups are bounded.
    groups: Option<&'a [usize]>,
}

/// The parts of a geoset: for each, its vertices (indices into the whole)
/// and its triangles (indices into the part).
fn cut(vertex_count: usize, triangles: &[[u16; 3]], limits: &Limits) -> Vec<(Vec<u16>, Vec<u16>)> {
    let mut parts = Vec::new();
    let mut local: Vec<Option<u16>> = vec![None; vertex_count];
    let mut vertices: Vec<u16> = Vec::new();
    let mut faces: Vec<u16> = Vec::new();
    // The groups the part uses, and how many.
    let group_of = |v: u16| limits.groups.and_then(|g| g.get(usize::from(v)).copied());
    let mut in_part: Vec<bool> = match limits.groups {
        Some(groups) => vec![false; groups.iter().max().map_or(0, |&g| g + 1)],
        None => Vec::new(),
    };
    let mut group_count = 0;
    for triangle in triangles {
        let new: Vec<u16> = triangle
            .iter()
            .enumerate()
            .filter(|&(i, v)| {
                local.get(usize::from(*v)).is_some_and(Option::is_none)
                    && !triangle.get(..i).is_some_and(|before| before.contains(v))
            })
            .map(|(_, &v)| v)
            .collect();
        let mut new_groups: Vec<usize> = new.iter().filter_map(|&v| group_of(v)).collect();
        new_groups.sort_unstable();
        new_groups.dedup();
        new_groups.retain(|&g| !in_part.get(g).copied().unwrap_or(false));
        let full = vertices.len() + new.len() > limits.vertices
            || group_count + new_groups.len() > MAX_GROUPS;
        if full && !faces.is_empty() {
            for &v in &vertices {
                if let Some(slot) = local.get_mut(usize::from(v)) {
                    *slot = None;
                }
            }
            in_part.iter_mut().for_each(|used| *used = false);
            group_count = 0;
            parts.push((core::mem::take(&mut vertices), core::mem::take(&mut faces)));
        }
        for &v in triangle {
            let Some(slot) = local.get_mut(usize::from(v)) else {
                continue;
            };
            let index = *slot.get_or_insert_with(|| {
                vertices.push(v);
                if let Some(used) = group_of(v).and_then(|g| in_part.get_mut(g))
                    && !*used
                {
                    *used = true;
                    group_count += 1;
                }
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

/// The part of `whole` made of `vertices`, with `faces`; its matrix groups
/// are those of `groups` its vertices use (without `groups`, a damaged
/// geoset's, the whole's).
fn part(whole: &Geoset, vertices: &[u16], faces: Vec<u16>, groups: Option<&Groups>) -> Geoset {
    fn pick<T: Copy>(all: &[T], vertices: &[u16]) -> Vec<T> {
        vertices
            .iter()
            .filter_map(|&v| all.get(usize::from(v)).copied())
            .collect()
    }
    let mut part = whole.clone();
    part.vertex_positions = pick(&whole.vertex_positions, vertices);
    part.vertex_normals = pick(&whole.vertex_normals, vertices);
    match groups.and_then(|g| g.classic(Some(vertices))) {
        Some((gndx, mtgc, mats)) => {
            part.vertex_groups = gndx;
            part.matrix_groups = mtgc;
            part.matrix_indices = mats;
        }
        None => part.vertex_groups = pick(&whole.vertex_groups, vertices),
    }
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

/// Why a geoset is cut, for the report.
fn why(groups: Option<usize>, vertices: Option<usize>) -> String {
    let mut why = Vec::new();
    if let Some(n) = groups {
        why.push(format!(
            "its vertices' best matrix groups number {n}, more than a classic geoset holds \
             ({MAX_GROUPS}: a vertex's group index is a byte)"
        ));
    }
    if let Some(n) = vertices {
        why.push(format!(
            "{n} vertices, more than the classic renderer draws in a geoset \
             ({CLASSIC_VERTEX_LIMIT})"
        ));
    }
    why.join(", and ")
}

/// Cuts the geosets that need it into parts: each geoset whose `SKIN` made
/// more than [`MAX_GROUPS`] groups (`wide[g]`, its groups from `SKIN`), and,
/// when `large`, each past [`CLASSIC_VERTEX_LIMIT`] vertices (whose faces
/// are triangle lists and which has no `SKIN`: a classic geoset) but for
/// those `from_classic` (converted from a classic model and given back as
/// they were). A wide geoset whose faces are not a triangle list cannot be
/// cut: its groups are coarsened ([`Groups::coarsen`]). `source[g]` is
/// geoset `g`'s index in the source model. Returns each geoset's origin, in
/// order.
pub(super) fn split(
    model: &mut Model,
    source: &[usize],
    from_classic: &[bool],
    mut wide: Vec<Option<FromSkin>>,
    large: bool,
    report: &mut Report,
) -> Vec<Origin> {
    // (index before, how many geosets it became), in order.
    let mut became: Vec<(u32, u32)> = Vec::new();
    let mut origins = Vec::new();
    let mut next = 0u32;
    for chunk in &mut model.chunks {
        let Chunk::Geosets(c) = chunk else {
            continue;
        };
        let mut out = Vec::with_capacity(c.geosets.len());
        for (g, mut geoset) in c.geosets.drain(..).enumerate() {
            let from = source.get(g).copied().unwrap_or(g);
            let at = format!("geosets[{from}]");
            let count = geoset.vertex_count();
            let skinned = wide.get_mut(g).and_then(Option::take);
            let classic = from_classic.get(g).copied().unwrap_or(false);
            let too_large =
                large && count > CLASSIC_VERTEX_LIMIT && geoset.skin.is_none() && !classic;
            let triangles = (skinned.is_some() || too_large)
                .then(|| triangles(&geoset))
                .flatten();
            let groups = match (skinned, &triangles) {
                (Some(mut skinned), None) => {
                    let needed = skinned.groups.members.len();
                    let n = skinned.groups.coarsen(&skinned.influences);
                    report.approximate(
                        format!("{at}.skin"),
                        format!(
                            "{n} vertices take the kept group nearest their weights: {}, and its \
                             faces are not a triangle list, so it cannot be cut",
                            why(Some(needed), None)
                        ),
                    );
                    if let Some((gndx, mtgc, mats)) = skinned.groups.classic(None) {
                        geoset.vertex_groups = gndx;
                        geoset.matrix_groups = mtgc;
                        geoset.matrix_indices = mats;
                    }
                    None
                }
                (Some(skinned), Some(_)) => Some((skinned.groups, true)),
                (None, Some(_)) => Groups::from_classic(
                    &geoset.vertex_groups,
                    &geoset.matrix_groups,
                    &geoset.matrix_indices,
                )
                .map(|groups| (groups, false)),
                (None, None) => None,
            };
            let wide_groups = groups.as_ref().filter(|(_, w)| *w).map(|(g, _)| g);
            let limits = Limits {
                vertices: if too_large {
                    CLASSIC_VERTEX_LIMIT
                } else {
                    usize::MAX
                },
                groups: wide_groups.map(|g| g.vertex_groups.as_slice()),
            };
            let parts = triangles
                .as_ref()
                .map(|t| cut(count, t, &limits))
                .filter(|parts| parts.len() > 1 || wide_groups.is_some());
            let Some(parts) = parts else {
                became.push((next, 1));
                origins.push(Origin {
                    geoset: from,
                    vertices: None,
                });
                next += 1;
                out.push(geoset);
                continue;
            };
            let built: Vec<Geoset> = parts
                .iter()
                .map(|(vertices, faces)| {
                    part(
                        &geoset,
                        vertices,
                        faces.clone(),
                        groups.as_ref().map(|(g, _)| g),
                    )
                })
                .collect();
            let sizes: Vec<String> = built
                .iter()
                .map(|p| {
                    format!(
                        "{} vertices in {} groups",
                        p.vertex_count(),
                        p.matrix_groups.len()
                    )
                })
                .collect();
            let mut used = vec![false; count];
            for v in parts.iter().flat_map(|(v, _)| v) {
                if let Some(u) = used.get_mut(usize::from(*v)) {
                    *u = true;
                }
            }
            let unused = used.iter().filter(|u| !**u).count();
            let left_out = if unused > 0 {
                format!("; {unused} vertices no triangle uses are left out")
            } else {
                String::new()
            };
            report.approximate(
                at,
                format!(
                    "{}: cut into {} geosets sharing its material, {} (the vertices \
                     along the cut in both){left_out}",
                    why(
                        wide_groups.map(|g| g.members.len()),
                        too_large.then_some(count)
                    ),
                    built.len(),
                    sizes.join(", ")
                ),
            );
            let n = u32::try_from(built.len()).unwrap_or(1);
            became.push((next, n));
            next += n;
            for (p, (vertices, _)) in built.into_iter().zip(parts) {
                out.push(p);
                origins.push(Origin {
                    geoset: from,
                    vertices: Some(vertices),
                });
            }
        }
        c.geosets = out;
    }
    if became.iter().all(|&(_, n)| n == 1) {
        return origins;
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
    origins
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
        let origins = split(
            &mut model,
            &[0, 1],
            &[false, false],
            vec![],
            true,
            &mut report,
        );
        let from: Vec<usize> = origins.iter().map(|o| o.geoset).collect();
        assert_eq!(from, [0, 0, 1]);
        assert!(origins[2].vertices.is_none());
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
        split(
            &mut model,
            &[0],
            &[true],
            vec![],
            true,
            &mut Report::default(),
        );
        assert_eq!(model, whole);
        split(
            &mut model,
            &[0],
            &[false],
            vec![],
            false,
            &mut Report::default(),
        );
        assert_eq!(model, whole);
        split(
            &mut model,
            &[0],
            &[false],
            vec![],
            true,
            &mut Report::default(),
        );
        assert_eq!(model.geosets().len(), 2);
    }

    /// A strip of `2 * n` vertices: `2 * (n - 1)` triangles.
    fn strip(n: u16) -> Vec<[u16; 3]> {
        (0..n - 1)
            .flat_map(|i| {
                [
                    [2 * i, 2 * i + 1, 2 * i + 2],
                    [2 * i + 1, 2 * i + 3, 2 * i + 2],
                ]
            })
            .collect()
    }

    /// The triangles of `parts` as indices into the whole, in order.
    fn joined(parts: &[(Vec<u16>, Vec<u16>)]) -> Vec<[u16; 3]> {
        parts
            .iter()
            .flat_map(|(vertices, faces)| {
                faces
                    .chunks(3)
                    .map(|t| [0, 1, 2].map(|i| vertices[usize::from(t[i])]))
            })
            .collect()
    }

    #[test]
    fn a_cut_keeps_every_triangle_and_no_part_is_too_large() {
        let n: u16 = 5000;
        let triangles = strip(n);
        let limits = Limits {
            vertices: CLASSIC_VERTEX_LIMIT,
            groups: None,
        };
        let parts = cut(usize::from(2 * n), &triangles, &limits);
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(|(v, _)| v.len() <= CLASSIC_VERTEX_LIMIT));
        assert_eq!(joined(&parts), triangles);
        // The vertices along the cut are in both parts.
        let shared = parts[0].0.iter().filter(|v| parts[1].0.contains(v)).count();
        assert_eq!(shared, 2);
        assert_eq!(
            parts[0].0.len() + parts[1].0.len(),
            2 * usize::from(n) + shared
        );
    }

    #[test]
    fn a_cut_keeps_each_part_within_256_groups() {
        // A strip of 2 * 300 vertices, each pair its own group: 300 groups.
        let triangles = strip(300);
        let groups: Vec<usize> = (0..600).map(|v| v / 2).collect();
        let limits = Limits {
            vertices: usize::MAX,
            groups: Some(&groups),
        };
        let parts = cut(600, &triangles, &limits);
        assert_eq!(joined(&parts), triangles);
        let counts: Vec<usize> = parts
            .iter()
            .map(|(vertices, _)| {
                let mut used: Vec<usize> =
                    vertices.iter().map(|&v| groups[usize::from(v)]).collect();
                used.sort_unstable();
                used.dedup();
                used.len()
            })
            .collect();
        // The first part takes groups 0 to 255; the pair of the cut (255)
        // is in the second too.
        assert_eq!(counts, [256, 45]);
    }
}
