//! Weights to matrix groups (Reforged to classic; what and why: the
//! [module](super) docs): a vertex's influences, its `SKIN`'s or (from a
//! glTF import) all it has, to its best group; and a geoset's groups
//! whatever their number, as cutting a geoset into parts (`split`) needs
//! them.

use core::cmp::Ordering;
use std::collections::HashMap;

/// The most matrix groups a classic geoset holds (`GNDX` is a byte).
pub(super) const MAX_GROUPS: usize = 256;

/// A vertex's influences: `(bone object id, weight)`, one per bone, any
/// number of them, the weights in any unit (out of 255 in `SKIN`; only
/// their shares of the vertex's total count).
pub(crate) type Influences = Vec<(u32, u32)>;

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
                .min_by(|(_, a), (_, b)| cost(vertex, a).cmp(&cost(vertex, b)))
                .map_or(0, |(g, _)| g);
            *group = nearest;
            coarsened += 1;
        }
        coarsened
    }
}

/// How far a group of bones weighing equally is from a vertex's
/// influences: the sum of absolute differences of the weights (shares of
/// the vertex's total), a bone left out counting its whole weight. Kept
/// exact, as the fraction `numerator / denominator` (`n` bones, a total of
/// `t`: `(sum over the group of |n w - t| + n * the weight left out) / (n
/// t)`), so that equal weights give a group of exactly their bones and
/// ties go the same way on every machine.
#[derive(Clone, Copy, Debug)]
struct Cost {
    numerator: u128,
    denominator: u128,
}

impl Cost {
    /// The cost of a group of `n` bones (0: an empty group) for a vertex of
    /// total weight `total`: `inside` the sum of `|n w - total|` over the
    /// group's bones, `outside` the weight of the bones left out.
    fn new(n: usize, total: u128, inside: u128, outside: u128) -> Cost {
        if total == 0 {
            // No weight: every group but an empty one is a whole vertex off.
            return Cost {
                numerator: u128::from(n > 0),
                denominator: 1,
            };
        }
        let n = n.max(1) as u128;
        Cost {
            numerator: inside.saturating_add(n.saturating_mul(outside)),
            denominator: n.saturating_mul(total),
        }
    }

    fn cmp(&self, other: &Cost) -> Ordering {
        let a = self.numerator.saturating_mul(other.denominator);
        let b = other.numerator.saturating_mul(self.denominator);
        a.cmp(&b)
    }
}

/// The [`Cost`] of a group of `bones` for a vertex of `influences`.
fn cost(influences: &[(u32, u32)], bones: &[u32]) -> Cost {
    let total: u128 = influences.iter().map(|&(_, w)| u128::from(w)).sum();
    let n = bones.len().max(1) as u128;
    let weight = |bone: u32| -> u128 {
        influences
            .iter()
            .filter(|(b, _)| *b == bone)
            .map(|&(_, w)| u128::from(w))
            .sum()
    };
    let inside: u128 = bones.iter().map(|&b| (n * weight(b)).abs_diff(total)).sum();
    let outside: u128 = influences
        .iter()
        .filter(|(b, _)| !bones.contains(b))
        .map(|&(_, w)| u128::from(w))
        .sum();
    Cost::new(bones.len(), total, inside, outside)
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

/// A vertex's best group: the `k` bones it weighs most (in the order of
/// `influences`), `k` the size whose equal shares come nearest its weights
/// ([`Cost`]; the smallest such `k`). In `O(k log k)`: a vertex may have
/// hundreds of influences (a glTF import's).
fn best(influences: &[(u32, u32)]) -> Vec<u32> {
    let total: u128 = influences.iter().map(|&(_, w)| u128::from(w)).sum();
    if total == 0 {
        return Vec::new();
    }
    // Heaviest first; equal weights keep their order.
    let mut by_weight: Vec<usize> = (0..influences.len()).collect();
    by_weight.sort_by_key(|&i| core::cmp::Reverse(influences.get(i).map_or(0, |(_, w)| *w)));
    let sorted: Vec<u128> = by_weight
        .iter()
        .filter_map(|&i| influences.get(i).map(|&(_, w)| u128::from(w)))
        .collect();
    // prefix[i]: the weight of the `i` heaviest.
    let prefix: Vec<u128> = core::iter::once(0)
        .chain(sorted.iter().scan(0u128, |sum, &w| {
            *sum += w;
            Some(*sum)
        }))
        .collect();
    let sum = |i: usize| prefix.get(i).copied().unwrap_or(total);
    let mut chosen: Option<(usize, Cost)> = None;
    for k in 1..=sorted.len() {
        let n = k as u128;
        let heaviest = sorted.get(..k).unwrap_or_default();
        // The first `m` of the group weigh at least their share.
        let m = heaviest.partition_point(|&w| n * w >= total);
        let above = n * sum(m) - m as u128 * total;
        let below = (k - m) as u128 * total - n * (sum(k) - sum(m));
        let cost = Cost::new(k, total, above + below, total - sum(k));
        if chosen.is_none_or(|(_, c)| cost.cmp(&c) == Ordering::Less) {
            chosen = Some((k, cost));
        }
    }
    let k = chosen.map_or(1, |(k, _)| k);
    let mut group: Vec<usize> = by_weight.iter().take(k).copied().collect();
    group.sort_unstable();
    group
        .into_iter()
        .filter_map(|i| influences.get(i).map(|(bone, _)| *bone))
        .collect()
}

/// A geoset's groups from its vertices' influences, and what they
/// approximate.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct FromSkin {
    /// Every vertex in its best group, however many groups that makes.
    pub groups: Groups,
    /// Each vertex's influences.
    pub influences: Vec<Influences>,
    /// Vertices whose weights are not their group's equal shares.
    pub reweighted: usize,
    /// Vertices whose group leaves out a bone they weigh.
    pub trimmed: usize,
    /// Vertices without a bone (an empty group).
    pub unbound: usize,
}

/// The matrix groups of a geoset from its `SKIN` bytes (`matrix_indices`
/// maps SKIN's slots to bone object ids): [`from_influences`] of its
/// [`influences`].
pub(super) fn from_skin(skin: &[u8], matrix_indices: &[u32]) -> FromSkin {
    from_influences(influences(skin, matrix_indices))
}

/// The matrix groups of a geoset whose vertices have `influences`: every
/// vertex in its best group, vertices with the same bones sharing one, in
/// the order vertices first use them.
pub(super) fn from_influences(influences: Vec<Influences>) -> FromSkin {
    let mut out = FromSkin {
        influences,
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

    #[test]
    fn influences_of_any_number_group_by_the_same_rule() {
        // Five and six equal weights (in any unit): all their bones.
        let five: Influences = (20..25).map(|b| (b, 3_355_443)).collect();
        assert_eq!(best(&five), [20, 21, 22, 23, 24]);
        let six: Influences = (30..36).map(|b| (b, 7)).collect();
        assert_eq!(best(&six), [30, 31, 32, 33, 34, 35]);
        // Uneven: 0.4, 0.4 and four of 0.05 is the two (a cost of 0.4,
        // against 0.57 for three, 0.93 for all six).
        let uneven = vec![(3, 1), (1, 8), (2, 1), (5, 8), (4, 1), (6, 1)];
        assert_eq!(best(&uneven), [1, 5]);
        // 2/11 five times and 1/110 ten times, the heaviest last: the five.
        let mut many: Influences = (0..10).map(|b| (b, 1)).collect();
        many.extend((10..15).map(|b| (b, 20)));
        assert_eq!(best(&many), [10, 11, 12, 13, 14]);
        let found = from_influences(vec![five, six, uneven]);
        assert_eq!(found.groups.members.len(), 3);
        assert_eq!(found.groups.members[1].len(), 6);
        assert_eq!((found.reweighted, found.trimmed), (1, 1));
    }

    #[test]
    fn the_best_group_is_the_top_k_of_least_cost() {
        // `best` sums prefixes; it agrees with `cost` of each heaviest k.
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..2_000 {
            let len = 1 + next(12) as usize;
            let vertex: Influences = (0..len as u32).map(|b| (b, 1 + next(20) as u32)).collect();
            let mut order: Vec<usize> = (0..len).collect();
            order.sort_by_key(|&i| core::cmp::Reverse(vertex[i].1));
            let top = |k: usize| -> Vec<u32> {
                let mut chosen = order[..k].to_vec();
                chosen.sort_unstable();
                chosen.into_iter().map(|i| vertex[i].0).collect()
            };
            let mut least = top(1);
            for k in 2..=len {
                if cost(&vertex, &top(k)).cmp(&cost(&vertex, &least)) == Ordering::Less {
                    least = top(k);
                }
            }
            assert_eq!(best(&vertex), least, "{vertex:?}");
        }
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
