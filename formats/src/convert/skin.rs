//! Matrix groups to `SKIN` weights (classic to Reforged).
//!
//! A classic group weighs its bones equally; `SKIN` stores, per vertex, four
//! slots into `MATS` and four weights out of 255. Each bone gets an equal
//! share of 255, the remainder going to the first bones (two bones: 128 and
//! 127). A slot names the first position of its bone in `MATS`, so the
//! classic groups stay as they are beside `SKIN` when every such position
//! fits in a byte; otherwise `MATS` becomes one group per bone.

/// A geoset's `SKIN`, and what it could not say.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Skin {
    /// Per vertex 4 slots into `MATS`, then 4 weights out of 255.
    pub bytes: Vec<u8>,
    /// Vertices whose group has more than 4 bones (the first 4 are kept).
    pub truncated: usize,
    /// Vertices without a group (all weights 0).
    pub unbound: usize,
}

/// Equal shares of 255 for `n` bones (1 to 4), the remainder first.
pub(super) fn shares(n: usize) -> [u8; 4] {
    let n = n.clamp(1, 4);
    let share = 255 / n;
    let extra = 255 % n;
    core::array::from_fn(|i| {
        if i < n {
            u8::try_from(share + usize::from(i < extra)).unwrap_or(u8::MAX)
        } else {
            0
        }
    })
}

/// `SKIN` for the groups as they are, its slots naming a bone's first
/// position in `slots` (the `MATS` written beside it), or `None` when such a
/// position is past 255 or missing.
pub(super) fn encode(
    vertex_groups: &[u8],
    matrix_groups: &[u32],
    matrix_indices: &[u32],
    slots: &[u32],
) -> Option<Skin> {
    let mut groups: Vec<&[u32]> = Vec::with_capacity(matrix_groups.len());
    let mut rest = matrix_indices;
    for &size in matrix_groups {
        let (group, tail) = rest.split_at((size as usize).min(rest.len()));
        groups.push(group);
        rest = tail;
    }
    let slot_of = |bone: u32| -> Option<u8> {
        let at = slots.iter().position(|&b| b == bone)?;
        u8::try_from(at).ok()
    };
    // Each group's 8 bytes, computed once.
    let mut encoded: Vec<([u8; 8], bool)> = Vec::with_capacity(groups.len());
    for group in &groups {
        let mut bytes = [0u8; 8];
        let kept = group.len().min(4);
        for (i, &bone) in group.iter().take(4).enumerate() {
            if let Some(slot) = bytes.get_mut(i) {
                *slot = slot_of(bone)?;
            }
        }
        if kept > 0 {
            for (i, share) in shares(kept).into_iter().enumerate() {
                if let Some(weight) = bytes.get_mut(4 + i) {
                    *weight = share;
                }
            }
        }
        encoded.push((bytes, group.len() > 4));
    }
    let mut skin = Skin {
        bytes: Vec::with_capacity(vertex_groups.len() * 8),
        ..Skin::default()
    };
    for &g in vertex_groups {
        match encoded.get(usize::from(g)) {
            Some((bytes, truncated)) => {
                skin.bytes.extend_from_slice(bytes);
                skin.truncated += usize::from(*truncated);
                skin.unbound += usize::from(bytes[4..].iter().all(|&w| w == 0));
            }
            None => {
                skin.bytes.extend_from_slice(&[0; 8]);
                skin.unbound += 1;
            }
        }
    }
    Some(skin)
}

/// The groups rewritten one per bone (the Reforged layout), for a `MATS`
/// too long for byte slots: `(vertex_groups, matrix_groups,
/// matrix_indices)`, each vertex in the group of its group's first bone
/// (`SKIN` says the rest). `None` with more than 256 distinct bones.
pub(super) fn one_group_per_bone(
    vertex_groups: &[u8],
    matrix_groups: &[u32],
    matrix_indices: &[u32],
) -> Option<(Vec<u8>, Vec<u32>, Vec<u32>)> {
    let mut bones: Vec<u32> = Vec::new();
    for &bone in matrix_indices {
        if !bones.contains(&bone) {
            bones.push(bone);
        }
    }
    if bones.len() > 256 {
        return None;
    }
    let mut starts = Vec::with_capacity(matrix_groups.len());
    let mut at = 0usize;
    for &size in matrix_groups {
        starts.push(at);
        at = at.saturating_add(size as usize);
    }
    let vertex_groups = vertex_groups
        .iter()
        .map(|&g| {
            let first = starts
                .get(usize::from(g))
                .and_then(|&s| matrix_indices.get(s))
                .and_then(|b| bones.iter().position(|x| x == b));
            first.and_then(|i| u8::try_from(i).ok()).unwrap_or(u8::MAX)
        })
        .collect();
    Some((vertex_groups, vec![1; bones.len()], bones))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_shares_sum_to_255() {
        assert_eq!(shares(1), [255, 0, 0, 0]);
        assert_eq!(shares(2), [128, 127, 0, 0]);
        assert_eq!(shares(3), [85, 85, 85, 0]);
        assert_eq!(shares(4), [64, 64, 64, 63]);
    }

    #[test]
    fn slots_name_a_bones_first_position_in_mats() {
        // Groups [5], [5, 6], [7, 6, 5, 8, 9].
        let mats = [5, 5, 6, 7, 6, 5, 8, 9];
        let skin = encode(&[0, 1, 2, 9], &[1, 2, 5], &mats, &mats).unwrap();
        assert_eq!(
            skin.bytes,
            [
                0, 0, 0, 0, 255, 0, 0, 0, //
                0, 2, 0, 0, 128, 127, 0, 0, //
                3, 2, 0, 6, 64, 64, 64, 63, //
                0, 0, 0, 0, 0, 0, 0, 0,
            ]
        );
        assert_eq!((skin.truncated, skin.unbound), (1, 1));
        // A first position past 255 cannot be a slot (300 groups of one bone);
        // a group of 300 bones keeps its first 4, which fit.
        let long: Vec<u32> = (0..300).collect();
        assert_eq!(encode(&[0], &[1; 300], &long, &long), None);
        let first_four = encode(&[0], &[300], &long, &long).unwrap();
        assert_eq!(first_four.bytes, [0, 1, 2, 3, 64, 64, 64, 63]);
        assert_eq!(first_four.truncated, 1);
        let (gndx, mtgc, mats) = one_group_per_bone(&[0, 1], &[2, 1], &[4, 3, 4]).unwrap();
        assert_eq!(
            (&gndx, &mtgc, &mats),
            (&vec![0, 0], &vec![1, 1], &vec![4, 3])
        );
        // SKIN then slots into the new MATS.
        let skin = encode(&[0, 1], &[2, 1], &[4, 3, 4], &mats).unwrap();
        assert_eq!(
            skin.bytes,
            [0, 1, 0, 0, 128, 127, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0]
        );
    }
}
