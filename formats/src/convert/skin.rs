//! Matrix groups to `SKIN` weights (classic to Reforged), and back when the
//! groups were kept.
//!
//! A classic group weighs its bones equally; `SKIN` stores, per vertex, four
//! bone bytes and four weights out of 255. Each bone gets an equal share of
//! 255, the remainder going to the first bones (two bones: 128 and 127).
//!
//! Readers disagree on what a `SKIN` bone byte names: mdx-m3-viewer takes it
//! as the bone's object id, Retera's Model Studio as a matrix group (of one
//! bone), [`anim`](crate::anim) as a position in `MATS`. Every Reforged file
//! in the corpus is written so that all three agree: its groups are one bone
//! each and `MATS` lists the bones by object id (`MATS[i] == i`). So is every
//! converted geoset: its groups start with that head, one group per object
//! id up to the largest bone it uses (every bone, when the bones are the
//! first nodes, as in every corpus model), and the bytes are object ids.
//! After the head come the classic groups as they were, `GNDX` pointing past
//! the head into them, so that converting back finds them (they say exactly
//! what `SKIN` says) and gives the original groups; when head and groups do
//! not fit in 256 (`GNDX` is a byte), `GNDX` names the head group of each
//! vertex's first bone, as in the Reforged files that keep `GNDX`.

/// A geoset's `SKIN`, and what it could not say.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Skin {
    /// Per vertex 4 bone object ids, then 4 weights out of 255.
    pub bytes: Vec<u8>,
    /// Vertices whose group has more than 4 bones (the first 4 are kept).
    pub truncated: usize,
    /// Vertices without a group (all weights 0).
    pub unbound: usize,
}

/// A geoset's skinning in the Reforged layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Reforged {
    /// `SKIN`.
    pub skin: Skin,
    /// `GNDX`.
    pub vertex_groups: Vec<u8>,
    /// `MTGC`: the head of one-bone groups, then (when `kept`) the classic groups.
    pub matrix_groups: Vec<u32>,
    /// `MATS`.
    pub matrix_indices: Vec<u32>,
    /// Whether the classic groups follow the head.
    pub kept: bool,
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

/// The groups: `matrix_groups[g]` bones of `matrix_indices` each.
fn split<'a>(matrix_groups: &[u32], matrix_indices: &'a [u32]) -> Vec<&'a [u32]> {
    let mut groups = Vec::with_capacity(matrix_groups.len());
    let mut rest = matrix_indices;
    for &size in matrix_groups {
        let (group, tail) = rest.split_at((size as usize).min(rest.len()));
        groups.push(group);
        rest = tail;
    }
    groups
}

/// `SKIN` saying what the groups say, bones as object ids, or `None` when a
/// group names an object id past 255.
pub(super) fn encode(
    vertex_groups: &[u8],
    matrix_groups: &[u32],
    matrix_indices: &[u32],
) -> Option<Skin> {
    // Each group's 8 bytes, computed once.
    let mut encoded: Vec<([u8; 8], bool)> = Vec::with_capacity(matrix_groups.len());
    for group in split(matrix_groups, matrix_indices) {
        let mut bytes = [0u8; 8];
        for (slot, &bone) in bytes.iter_mut().zip(group.iter().take(4)) {
            *slot = u8::try_from(bone).ok()?;
        }
        if !group.is_empty() {
            for (weight, share) in bytes.iter_mut().skip(4).zip(shares(group.len())) {
                *weight = share;
            }
        }
        encoded.push((bytes, group.len() > 4));
    }
    let mut skin = Skin {
        bytes: Vec::with_capacity(vertex_groups.len() * 8),
        ..Skin::default()
    };
    for &g in vertex_groups {
        let (bytes, truncated) = encoded.get(usize::from(g)).copied().unwrap_or_default();
        skin.bytes.extend_from_slice(&bytes);
        skin.truncated += usize::from(truncated);
        skin.unbound += usize::from(bytes.get(4..).is_some_and(|w| w.iter().all(|&x| x == 0)));
    }
    Some(skin)
}

/// The head's length: one group per object id up to the largest bone the
/// groups use, and at least `bones` (the model's bone count), or the first
/// object id past 255 that a group uses.
fn head_len(bones: usize, matrix_indices: &[u32]) -> Result<usize, u32> {
    let largest = matrix_indices.iter().copied().max();
    match largest {
        Some(id) if id > 255 => Err(id),
        Some(id) => Ok(bones.clamp(id as usize + 1, 256)),
        None => Ok(bones.min(256)),
    }
}

/// The Reforged layout of a geoset's classic groups (`bones`: the model's
/// bone count). Fails with the first object id past 255 a group uses.
pub(super) fn to_reforged(
    vertex_groups: &[u8],
    matrix_groups: &[u32],
    matrix_indices: &[u32],
    bones: usize,
) -> Result<Reforged, u32> {
    let head = head_len(bones, matrix_indices)?;
    // No id past 255 (head_len said so): encoding cannot fail.
    let skin = encode(vertex_groups, matrix_groups, matrix_indices).unwrap_or_default();
    let mut out = Reforged {
        matrix_groups: vec![1; head],
        matrix_indices: (0..).take(head).collect(),
        ..Reforged::default()
    };
    match head + matrix_groups.len() {
        ..=256 if !matrix_groups.is_empty() => {
            out.kept = true;
            out.matrix_groups.extend_from_slice(matrix_groups);
            out.matrix_indices.extend_from_slice(matrix_indices);
            out.vertex_groups = vertex_groups
                .iter()
                .map(|&g| u8::try_from(usize::from(g) + head).unwrap_or(u8::MAX))
                .collect();
        }
        _ => out.vertex_groups = head_vertex_groups(&skin.bytes),
    }
    out.skin = skin;
    Ok(out)
}

/// Each vertex in the head group of its first bone (`GNDX`).
fn head_vertex_groups(skin: &[u8]) -> Vec<u8> {
    skin.chunks_exact(8)
        .map(|v| v.first().copied().unwrap_or(0))
        .collect()
}

/// The classic groups (`GNDX`, `MTGC`, `MATS`) a Reforged geoset of `skin`
/// has beside it, as the converter writes them (the module docs): a head
/// of one-bone groups, one per object id up to the largest bone `skin`
/// names and at least `bones`, each vertex in the head group of its first
/// bone.
#[cfg(feature = "gltf")]
pub(crate) fn head_groups(skin: &[u8], bones: usize) -> (Vec<u8>, Vec<u32>, Vec<u32>) {
    let largest = skin
        .chunks_exact(8)
        .filter_map(|v| v.first())
        .max()
        .map_or(0, |&b| usize::from(b) + 1);
    let head = bones.max(largest).clamp(1, 256);
    (
        head_vertex_groups(skin),
        vec![1; head],
        (0..head as u32).collect(),
    )
}

/// Classic groups: `(GNDX, MTGC, MATS)`, and whether a head of one-bone
/// groups came before them.
pub(super) type ClassicGroups = (Vec<u8>, Vec<u32>, Vec<u32>, bool);

/// The classic groups kept beside `skin` after the head of one-bone groups,
/// when they say exactly what it says: `(GNDX, MTGC, MATS)` and whether a
/// head came first (the geoset was converted from classic). The longest
/// head is tried first (the converter's head reaches past every bone its
/// groups use, so no classic group can pass for a head group), down to none
/// (groups that say what `SKIN` says on their own, as in Reforged files
/// whose every vertex has one bone).
pub(super) fn classic_groups(
    skin: &[u8],
    vertex_groups: &[u8],
    matrix_groups: &[u32],
    matrix_indices: &[u32],
) -> Option<ClassicGroups> {
    let head = matrix_groups
        .iter()
        .zip(matrix_indices)
        .zip(0u32..)
        .take_while(|&((&size, &bone), i)| size == 1 && bone == i)
        .count();
    for at in (0..=head).rev() {
        let Some(gndx) = vertex_groups
            .iter()
            .map(|&g| {
                usize::from(g)
                    .checked_sub(at)
                    .and_then(|g| u8::try_from(g).ok())
            })
            .collect::<Option<Vec<u8>>>()
        else {
            continue;
        };
        let (mtgc, mats) = (matrix_groups.get(at..)?, matrix_indices.get(at..)?);
        if encode(&gndx, mtgc, mats).is_some_and(|s| s.bytes == skin && s.truncated == 0) {
            return Some((gndx, mtgc.to_vec(), mats.to_vec(), at > 0));
        }
    }
    None
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
    fn bones_are_object_ids_and_the_groups_follow_a_head() {
        // Groups [5], [5, 6], [7, 6, 5, 8, 9] of a model of 10 bones; a
        // vertex in no group.
        let (gndx, mtgc, mats) = ([0, 1, 2, 9], [1, 2, 5], [5, 5, 6, 7, 6, 5, 8, 9]);
        let reforged = to_reforged(&gndx, &mtgc, &mats, 10).unwrap();
        assert_eq!(
            reforged.skin.bytes,
            [
                5, 0, 0, 0, 255, 0, 0, 0, //
                5, 6, 0, 0, 128, 127, 0, 0, //
                7, 6, 5, 8, 64, 64, 64, 63, //
                0, 0, 0, 0, 0, 0, 0, 0,
            ]
        );
        assert_eq!((reforged.skin.truncated, reforged.skin.unbound), (1, 1));
        assert!(reforged.kept);
        assert_eq!(
            reforged.matrix_groups,
            [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 5]
        );
        assert_eq!(
            &reforged.matrix_indices[..10],
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        );
        assert_eq!(&reforged.matrix_indices[10..], mats);
        assert_eq!(reforged.vertex_groups, [10, 11, 12, 19]);
        // A group of 5 does not say what SKIN says: no groups to keep.
        let found = classic_groups(
            &reforged.skin.bytes,
            &reforged.vertex_groups,
            &reforged.matrix_groups,
            &reforged.matrix_indices,
        );
        assert_eq!(found, None);
        // Groups of 4 at most come back as they were.
        let (gndx, mtgc, mats) = ([0, 1, 2, 0], [1, 2, 4], [5, 5, 6, 7, 6, 5, 8]);
        let reforged = to_reforged(&gndx, &mtgc, &mats, 10).unwrap();
        let found = classic_groups(
            &reforged.skin.bytes,
            &reforged.vertex_groups,
            &reforged.matrix_groups,
            &reforged.matrix_indices,
        );
        assert_eq!(
            found,
            Some((gndx.to_vec(), mtgc.to_vec(), mats.to_vec(), true))
        );
        // The head reaches past the largest bone used (3, past the 3 bones
        // counted), so a classic group [3] is not taken for a head group.
        let reforged = to_reforged(&[0, 1], &[1, 1], &[3, 0], 3).unwrap();
        assert_eq!(reforged.matrix_indices, [0, 1, 2, 3, 3, 0]);
        let found = classic_groups(
            &reforged.skin.bytes,
            &reforged.vertex_groups,
            &reforged.matrix_groups,
            &reforged.matrix_indices,
        );
        assert_eq!(found, Some((vec![0, 1], vec![1, 1], vec![3, 0], true)));
    }

    #[test]
    fn past_256_groups_gndx_names_the_head_and_past_255_there_is_no_byte() {
        // 200 bones and 100 groups: no room for the groups after the head.
        let mats: Vec<u32> = (0..100).collect();
        let gndx: Vec<u8> = (0..100).collect();
        let reforged = to_reforged(&gndx, &[1; 100], &mats, 200).unwrap();
        assert!(!reforged.kept);
        assert_eq!(reforged.matrix_groups.len(), 200);
        assert_eq!(reforged.vertex_groups, gndx);
        // A bone whose object id is past 255.
        assert_eq!(to_reforged(&[0], &[2], &[3, 300], 400), Err(300));
    }
}
