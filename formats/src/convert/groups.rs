//! `SKIN` weights to matrix groups (Reforged to classic).
//!
//! A classic vertex belongs to one matrix group, whose bones all weigh the
//! same. A vertex's group is the `k` bones SKIN weighs most, with `k` the
//! size whose equal shares are nearest the SKIN weights (the smallest sum of
//! absolute differences, counting the bones left out at their full weight):
//! weights of 0.9 and 0.1 give a group of one bone, 0.6 and 0.4 a group of two.
//! Vertices with the same bones share a group; a geoset holds at most 256
//! groups (`GNDX` is a byte), so once they are taken a vertex gets the
//! largest of its smaller groups that exists.

use std::collections::HashMap;

/// A geoset's matrix groups.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Groups {
    /// `GNDX`: each vertex's group.
    pub vertex_groups: Vec<u8>,
    /// `MTGC`: each group's size.
    pub matrix_groups: Vec<u32>,
    /// `MATS`: the groups' bone object ids, concatenated.
    pub matrix_indices: Vec<u32>,
    /// Vertices whose SKIN weights are not their group's equal shares.
    pub reweighted: usize,
    /// Vertices whose group leaves out a bone SKIN weighs.
    pub trimmed: usize,
    /// Vertices whose group is smaller than the best, for want of groups.
    pub coarsened: usize,
    /// Vertices without a bone (an empty group).
    pub unbound: usize,
}

/// A vertex's influences in `SKIN`: `(bone object id, weight out of 255)`,
/// one per bone (slots naming one bone merged), in slot order, weights of 0
/// and slots past `matrix_indices` left out.
pub(super) fn influences(skin: &[u8], matrix_indices: &[u32]) -> Vec<Vec<(u32, u32)>> {
    skin.chunks_exact(8)
        .map(|vertex| {
            let (slots, weights) = vertex.split_at(4);
            let mut out: Vec<(u32, u32)> = Vec::with_capacity(4);
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

/// The sizes of group worth trying for one vertex, best first: the bones in
/// slot order for each size from the best down to 1.
fn candidates(influences: &[(u32, u32)]) -> Vec<Vec<u32>> {
    let total: u32 = influences.iter().map(|(_, w)| w).sum();
    if total == 0 {
        return vec![Vec::new()];
    }
    // Heaviest first; equal weights keep slot order.
    let mut by_weight: Vec<(usize, f64)> = influences
        .iter()
        .enumerate()
        .map(|(i, (_, w))| (i, f64::from(*w) / f64::from(total)))
        .collect();
    by_weight.sort_by(|a, b| b.1.total_cmp(&a.1));
    let cost = |k: usize| -> f64 {
        let share = 1.0 / k as f64;
        by_weight
            .iter()
            .enumerate()
            .map(|(rank, (_, w))| if rank < k { (w - share).abs() } else { *w })
            .sum()
    };
    let best = (1..=by_weight.len())
        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)).then(a.cmp(&b)))
        .unwrap_or(1);
    (1..=best)
        .rev()
        .map(|k| {
            let mut chosen: Vec<usize> = by_weight.iter().take(k).map(|(i, _)| *i).collect();
            chosen.sort_unstable();
            chosen
                .into_iter()
                .filter_map(|i| influences.get(i).map(|(bone, _)| *bone))
                .collect()
        })
        .collect()
}

/// The matrix groups of a geoset from its `SKIN` bytes (`matrix_indices`
/// maps SKIN's slots to bone object ids). Fails when even single-bone
/// groups need more than 256 groups.
pub(super) fn from_skin(skin: &[u8], matrix_indices: &[u32]) -> Result<Groups, String> {
    let mut groups = Groups::default();
    let mut index: HashMap<Vec<u32>, u8> = HashMap::new();
    let mut members: Vec<Vec<u32>> = Vec::new();
    for (v, vertex) in influences(skin, matrix_indices).iter().enumerate() {
        let options = candidates(vertex);
        let mut chosen = None;
        for (rank, bones) in options.iter().enumerate() {
            let mut key = bones.clone();
            key.sort_unstable();
            if let Some(&g) = index.get(&key) {
                chosen = Some((rank, g));
                break;
            }
            if let Ok(g) = u8::try_from(members.len()) {
                index.insert(key, g);
                members.push(bones.clone());
                chosen = Some((rank, g));
                break;
            }
        }
        let Some((rank, group)) = chosen else {
            return Err(format!(
                "vertex {v}: every group its bones could form is new, and the geoset already \
                 has 256 matrix groups (GNDX is a byte)"
            ));
        };
        groups.vertex_groups.push(group);
        let size = options.get(rank).map_or(0, Vec::len);
        groups.unbound += usize::from(vertex.is_empty());
        let equal = size == vertex.len()
            && vertex.iter().all(|(_, w)| {
                u64::from(*w) * size as u64 == u64::from(vertex.iter().map(|(_, w)| w).sum::<u32>())
            });
        groups.reweighted += usize::from(!equal);
        groups.trimmed += usize::from(size < vertex.len());
        groups.coarsened += usize::from(rank > 0);
    }
    for bones in members {
        groups
            .matrix_groups
            .push(u32::try_from(bones.len()).unwrap_or(u32::MAX));
        groups.matrix_indices.extend(bones);
    }
    Ok(groups)
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
        let groups = from_skin(&skin, &bones).unwrap();
        assert_eq!(groups.vertex_groups, [0, 1, 1, 2, 3, 4]);
        assert_eq!(groups.matrix_groups, [1, 2, 3, 0, 1]);
        assert_eq!(groups.matrix_indices, [10, 10, 11, 12, 13, 11, 13]);
        assert_eq!(
            (groups.trimmed, groups.coarsened, groups.unbound),
            (1, 0, 1)
        );
        // 0.9/0.1, 0.6/0.4 and 128/127 are not equal shares; 85/85/85, no bone
        // and 255 in two slots are.
        assert_eq!(groups.reweighted, 3);
    }

    #[test]
    fn past_256_groups_a_vertex_takes_a_smaller_one_that_exists() {
        // 256 single-bone groups, then a vertex of two of those bones.
        let bones: Vec<u32> = (0..256).collect();
        let mut skin: Vec<u8> = (0..=255u8)
            .flat_map(|b| vertex([b, 0, 0, 0], [255, 0, 0, 0]))
            .collect();
        skin.extend(vertex([7, 9, 0, 0], [128, 127, 0, 0]));
        let groups = from_skin(&skin, &bones).unwrap();
        assert_eq!(groups.vertex_groups.last(), Some(&7));
        assert_eq!(groups.coarsened, 1);
        // A vertex without a bone needs a new, empty group: there is none left.
        skin.extend([0, 0, 0, 0, 0, 0, 0, 0]);
        let err = from_skin(&skin, &bones).unwrap_err();
        assert!(err.contains("256 matrix groups"), "{err}");
    }
}
