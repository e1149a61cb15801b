//! `SKIN` weights to matrix groups (Reforged to classic; what and why: the
//! [module](super) docs), and a geoset's groups whatever their number, as
//! cutting a geoset into parts (`split`) needs them.

use std::collections::HashMap;

/// The most matrix groups a classic geoset holds (`GNDX` is a byte).
pub(super) const MAX_GROUPS: usize = 256;

/// A vertex's influences in `SKIN`: `(bone object id, weight out of 255)`.
pub(super) type Influences = Vec<(u32, u32)>;

/// A geoset's classic groups: `GNDX`, `MTGC`, `MATS`.
pub(super) type Classic = (Vec<u8>, Vec<u32>, Vec<u32>);

/// A geoset's matrix groups, however many.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Groups {
    /// Each vertex's group: an index into `members`.
    pub vertex_groups: Vec<usize>,
    /// Each group's bones (object ids).
    pub members: Vec<Vec<u32>>,
}

impl Groups {
    /// The groups of a classic geoset, or `None` when `GNDX` names a group
    /// past `MTGC` (or `MTGC` counts more bones than `MATS` holds).
    pub fn from_classic(
        vertex_groups: &[u8],
        matrix_groups: &[u32],
        matrix_indices: &[u32],
    ) -> Option<Groups> {
        let mut members = Vec::with_capacity(matrix_groups.len());
        let mut rest = matrix_indices;
        for &size in matrix_groups {
            let (group, tail) = rest.split_at_checked(usize::try_from(size).ok()?)?;
            members.push(group.to_vec());
            rest = tail;
        }
        let vertex_groups: Vec<usize> = vertex_groups.iter().map(|&g| usize::from(g)).collect();
        vertex_groups
            .iter()
            .all(|&g| g < members.len())
            .then_some(Groups {
                vertex_groups,
                members,
            })
    }

    /// The classic form of the groups that `vertices` (indices of this
    /// geoset's vertices; `None`: all of them, in order) use, kept in the
    /// order of `members`, `GNDX` giving each of `vertices` its group;
    /// `None` when they use more than [`MAX_GROUPS`].
    pub fn classic(&self, vertices: Option<&[u16]>) -> Option<Classic> {
        let groups: Vec<usize> = match vertices {
            None => self.vertex_groups.clone(),
            Some(vertices) => vertices
                .iter()
                .filter_map(|&v| self.vertex_groups.get(usize::from(v)).copied())
                .collect(),
        };
        let mut index: Vec<Option<u8>> = vec![None; self.members.len()];
        for &g in &groups {
            if let Some(slot) = index.get_mut(g) {
                *slot = Some(0);
            }
        }
        let (mut mtgc, mut mats) = (Vec::new(), Vec::new());
        for (slot, bones) in index.iter_mut().zip(&self.members) {
            if slot.is_some() {
                *slot = Some(u8::try_from(mtgc.len()).ok()?);
                mtgc.push(u32::try_from(bones.len()).unwrap_or(u32::MAX));
                mats.extend_from_slice(bones);
            }
        }
        let gndx = groups
            .iter()
            .map(|&g| index.get(g).copied().flatten())
            .collect::<Option<Vec<u8>>>()?;
        Some((gndx, mtgc, mats))
    }

    /// Keeps the first [`MAX_GROUPS`] groups, giving each vertex of a later
    /// group the kept group nearest its `influences` ([`cost`]; a vertex
    /// with bones never takes an empty group). Returns how many vertices
    /// changed group.
    pub fn coarsen(&mut self, influences: &[Influences]) -> usize {
        if self.members.len() <= MAX_GROUPS {
            return 0;
        }
        self.members.truncate(MAX_GROUPS);
        let mut coarsened = 0;
        for (v, group) in self.vertex_groups.iter_mut().enumerate() {
            if *group < MAX_GROUPS {
                continue;
            }
            let vertex = influences.get(v).map_or(&[][..], Vec::as_slice);
            let nearest = self
                .members
                .iter()
                .enumerate()
                .filter(|(_, bones)| vertex.is_empty() || !bones.is_empty())
                .min_by(|(_, a), (_, b)| cost(vertex, a).total_cmp(&cost(vertex, b)))
                .map_or(0, |(g, _)| g);
            *group = nearest;
            coarsened += 1;
        }
        coarsened
    }
}

/// How far a group of `bones` weighing equally is from a vertex's
/// `influences`: the sum of absolute differences of the weights (shares of
/// the vertex's total), a bone left out counting its whole weight.
fn cost(influences: &[(u32, u32)], bones: &[u32]) -> f64 {
    let total: u32 = influences.iter().map(|(_, w)| w).sum();
    let weight = |bone: u32| -> f64 {
        if total == 0 {
            return 0.0;
        }
        let w: u32 = influences
            .iter()
            .filter(|(b, _)| *b == bone)
            .map(|(_, w)| w)
            .sum();
        f64::from(w) / f64::from(total)
    };
    let share = 1.0 / bones.len().max(1) as f64;
    let inside: f64 = bones.iter().map(|&b| (weight(b) - share).abs()).sum();
    let outside: f64 = influences
        .iter()
        .filter(|(b, _)| !bones.contains(b))
        .map(|&(b, _)| weight(b))
        .sum();
    inside + outside
}

/// A vertex's influences in `SKIN`: one per bone (slots naming one bone
/// merged), in slot order, weights of 0 and slots past `matrix_indices`
/// left out.
pub(super) fn influences(skin: &[u8], matrix_indices: &[u32]) -> Vec<Influences> {
    skin.chunks_exact(8)
        .map(|vertex| {
            let (slots, weights) = vertex.split_at(4);
            let mut out: Influences = Vec::with_capacity(4);
            for (&slot, &weight) in slots.iter().zip(weights) {
                let Some(&bone) = matrix_indices.get(usize::from(slot)) else {
                    continue;
                };
                if weight == 0 {
                    continue;
                }
                match out.iter_mut().find(|(b, _)| *b == bone) {
                    Some((_, w)) => *w += u32::from(weight),
                    None => out.push((bone, u32::from(weight))),
                }
            }
            out
        })
        .collect()
}

/// A vertex's best group: the `k` bones it weighs most (in slot order),
/// `k` the size whose equal shares come nearest its weights ([`cost`]).
fn best(influences: &[(u32, u32)]) -> Vec<u32> {
    let total: u32 = influences.iter().map(|(_, w)| w).sum();
    if total == 0 {
        return Vec::new();
    }
    // Heaviest first; equal weights keep slot order.
    let mut by_weight: Vec<usize> = (0..influences.len()).collect();
    by_weight.sort_by_key(|&i| core::cmp::Reverse(influences.get(i).map_or(0, |(_, w)| *w)));
    let group = |k: usize| -> Vec<u32> {
        let mut chosen: Vec<usize> = by_weight.iter().take(k).copied().collect();
        chosen.sort_unstable();
        chosen
            .into_iter()
            .filter_map(|i| influences.get(i).map(|(bone, _)| *bone))
            .collect()
    };
    let k = (1..=influences.len())
        .min_by(|&a, &b| {
            cost(influences, &group(a))
                .total_cmp(&cost(influences, &group(b)))
                .then(a.cmp(&b))
        })
        .unwrap_or(1);
    group(k)
}

/// A geoset's groups from its `SKIN`, and what they approximate.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct FromSkin {
    /// Every vertex in its best group, however many groups that makes.
    pub groups: Groups,
    /// Each vertex's influences in `SKIN`.
    pub influences: Vec<Influences>,
    /// Vertices whose SKIN weights are not their group's equal shares.
    pub reweighted: usize,
    /// Vertices whose group leaves out a bone SKIN weighs.
    pub trimmed: usize,
    /// Vertices without a bone (an empty group).
    pub unbound: usize,
}

/// The matrix groups of a geoset from its `SKIN` bytes (`matrix_indices`
/// maps SKIN's slots to bone object ids): every vertex in its best group,
/// vertices with the same bones sharing one, in the order vertices first
/// use them.
pub(super) fn from_skin(skin: &[u8], matrix_indices: &[u32]) -> FromSkin {
    let mut out = FromSkin {
        influences: influences(skin, matrix_indices),
        ..FromSkin::default()
    };
    let mut index: HashMap<Vec<u32>, usize> = HashMap::new();
    for vertex in &out.influences {
        let bones = best(vertex);
        let mut key = bones.clone();
        key.sort_unstable();
        let members = &mut out.groups.members;
        let group = *index.entry(key).or_insert_with(|| {
            members.push(bones.clone());
            members.len() - 1
        });
        out.groups.vertex_groups.push(group);
        let size = bones.len();
        let total: u32 = vertex.iter().map(|(_, w)| w).sum();
        let equal = size == vertex.len()
            && vertex
                .iter()
                .all(|(_, w)| u64::from(*w) * size as u64 == u64::from(total));
        out.reweighted += usize::from(!equal);
        out.trimmed += usize::from(size < vertex.len());
        out.unbound += usize::from(vertex.is_empty());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertex(slots: [u8; 4], weights: [u8; 4]) -> Vec<u8> {
        slots.into_iter().chain(weights).collect()
    }

    #[test]
    fn the_group_is_the_bones_whose_weight_matters() {
        let bones = [10, 11, 12, 13];
        let mut skin = Vec::new();
        skin.extend(vertex([0, 1, 0, 0], [230, 25, 0, 0])); // 0.9 / 0.1: one bone
        skin.extend(vertex([0, 1, 0, 0], [153, 102, 0, 0])); // 0.6 / 0.4: two
        skin.extend(vertex([1, 0, 0, 0], [128, 127, 0, 0])); // the same two, other slots
        skin.extend(vertex([2, 3, 1, 0], [85, 85, 85, 0])); // three equal
        skin.extend(vertex([0, 0, 0, 0], [0, 0, 0, 0])); // no bone
        skin.extend(vertex([3, 3, 0, 0], [100, 155, 0, 0])); // one bone in two slots
        let found = from_skin(&skin, &bones);
        let (gndx, mtgc, mats) = found.groups.classic(None).unwrap();
        assert_eq!(gndx, [0, 1, 1, 2, 3, 4]);
        assert_eq!(mtgc, [1, 2, 3, 0, 1]);
        assert_eq!(mats, [10, 10, 11, 12, 13, 11, 13]);
        assert_eq!((found.trimmed, found.unbound), (1, 1));
        // 0.9/0.1, 0.6/0.4 and 128/127 are not equal shares; 85/85/85, no bone
        // and 255 in two slots are.
        assert_eq!(found.reweighted, 3);
    }

    /// A vertex of two bones (`a`, `b`) weighing 128/127.
    fn pair(a: u8, b: u8) -> Vec<u8> {
        vertex([a, b, 0, 0], [128, 127, 0, 0])
    }

    #[test]
    fn every_vertex_keeps_its_best_group_past_256() {
        // 300 vertices of two bones each: 300 groups of two.
        let bones: Vec<u32> = (0..=255).collect();
        let skin: Vec<u8> = (0..300u32)
            .flat_map(|i| pair((i % 256) as u8, ((i / 256) * 7 + i % 256 + 1) as u8))
            .collect();
        let found = from_skin(&skin, &bones);
        assert_eq!(found.groups.members.len(), 300);
        assert!(found.groups.members.iter().all(|m| m.len() == 2));
        assert_eq!(found.groups.classic(None), None);
        // The first 200 vertices use 200 groups: a part of a geoset.
        let first: Vec<u16> = (0..200).collect();
        let (gndx, mtgc, _) = found.groups.classic(Some(&first)).unwrap();
        assert_eq!(gndx, (0..200).map(|g| g as u8).collect::<Vec<_>>());
        assert_eq!(mtgc.len(), 200);
        // The last 100 use groups 200 to 299, numbered from 0 there.
        let last: Vec<u16> = (200..300).rev().collect();
        let (gndx, mtgc, mats) = found.groups.classic(Some(&last)).unwrap();
        assert_eq!(gndx, (0..100).rev().map(|g| g as u8).collect::<Vec<_>>());
        assert_eq!(mtgc, [2; 100]);
        assert_eq!(mats[..2], found.groups.members[200][..]);
    }

    #[test]
    fn coarsened_a_vertex_takes_the_kept_group_nearest_its_weights() {
        // 256 single-bone groups, then a vertex of two of those bones
        // (130/125: nearer bone 7 alone than bone 9 alone), then a vertex
        // without a bone, whose empty group is new too.
        let bones: Vec<u32> = (0..256).collect();
        let mut skin: Vec<u8> = (0..=255u8)
            .flat_map(|b| vertex([b, 0, 0, 0], [255, 0, 0, 0]))
            .collect();
        skin.extend(vertex([9, 7, 0, 0], [125, 130, 0, 0]));
        skin.extend(vertex([0, 0, 0, 0], [0, 0, 0, 0]));
        let mut found = from_skin(&skin, &bones);
        assert_eq!(found.groups.members.len(), 258);
        assert_eq!(found.groups.coarsen(&found.influences), 2);
        let (gndx, mtgc, _) = found.groups.classic(None).unwrap();
        assert_eq!(mtgc.len(), 256);
        assert_eq!(gndx[256..], [7, 0]);
    }
}
