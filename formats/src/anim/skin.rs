//! Which nodes move each vertex, and by how much: matrix groups (every
//! version: a vertex's group of N bones, each with weight 1/N), `SKIN`
//! (1100 and later: 4 bone slots and 4 weights out of 255 per vertex, the
//! slots indexing the geoset's matrix list `MATS`), and the packed 4 + 4 bytes
//! of `BIDX`/`BWGT` and the v1500 vertices (alpha).
//!
//! A posed vertex is the weighted sum of the vertex moved by each of its
//! nodes' world transforms; a vertex without influences stays where it is.

use glam::{Mat4, Vec3};

use super::skeleton::{Pose, Skeleton};

/// One node's share of a vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Influence {
    /// Index in [`Skeleton::nodes`].
    pub node: u32,
    /// Share of the vertex (the shares of a vertex sum to 1).
    pub weight: f32,
}

/// Every vertex's influences.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skin {
    /// Where each vertex's influences start in `influences` (one more entry
    /// than vertices).
    starts: Vec<u32>,
    influences: Vec<Influence>,
}

impl Skin {
    /// Builds a skin vertex by vertex; each vertex's `(node, weight)` pairs are
    /// merged per node, zero or negative weights dropped, and the rest scaled
    /// to sum to 1.
    pub fn from_vertices<I>(vertices: impl IntoIterator<Item = I>) -> Skin
    where
        I: IntoIterator<Item = (usize, f32)>,
    {
        let mut skin = Skin {
            starts: vec![0],
            influences: Vec::new(),
        };
        for vertex in vertices {
            let start = skin.influences.len();
            for (node, weight) in vertex {
                let (Ok(node), true) = (u32::try_from(node), weight > 0.0 && weight.is_finite())
                else {
                    continue;
                };
                let own = skin.influences.get_mut(start..).unwrap_or_default();
                match own.iter_mut().find(|i| i.node == node) {
                    Some(existing) => existing.weight += weight,
                    None => skin.influences.push(Influence { node, weight }),
                }
            }
            let own = skin.influences.get_mut(start..).unwrap_or_default();
            let total: f32 = own.iter().map(|i| i.weight).sum();
            for influence in own.iter_mut() {
                influence.weight /= total;
            }
            skin.starts
                .push(u32::try_from(skin.influences.len()).unwrap_or(u32::MAX));
        }
        skin
    }

    /// Matrix groups: vertex `v` belongs to group `vertex_groups[v]`; group `g`
    /// is the next `group_sizes[g]` entries of `matrix_indices` (bone object
    /// ids), each weighing the same. Unknown ids and groups are left out.
    pub fn from_matrix_groups(
        skeleton: &Skeleton,
        vertex_groups: &[u8],
        group_sizes: &[u32],
        matrix_indices: &[u32],
    ) -> Skin {
        let mut groups: Vec<&[u32]> = Vec::with_capacity(group_sizes.len());
        let mut rest = matrix_indices;
        for &size in group_sizes {
            let (group, tail) = rest.split_at((size as usize).min(rest.len()));
            groups.push(group);
            rest = tail;
        }
        Skin::from_vertices(vertex_groups.iter().map(|&g| {
            let members = groups.get(usize::from(g)).copied().unwrap_or_default();
            let nodes: Vec<usize> = members
                .iter()
                .filter_map(|&id| skeleton.index_of(id))
                .collect();
            let weight = 1.0 / nodes.len().max(1) as f32;
            nodes.into_iter().map(move |n| (n, weight))
        }))
    }

    /// Packed slots: per vertex 4 indices and 4 weights out of 255, each
    /// index mapped to a node by `node_of` (for `SKIN`: through `MATS` to a
    /// bone object id; alpha: the n-th bone).
    pub fn from_packed(
        slots: impl IntoIterator<Item = ([u8; 4], [u8; 4])>,
        node_of: impl Fn(u8) -> Option<usize>,
    ) -> Skin {
        Skin::from_vertices(slots.into_iter().map(|(indices, weights)| {
            indices
                .into_iter()
                .zip(weights)
                .filter_map(|(index, weight)| Some((node_of(index)?, f32::from(weight) / 255.0)))
                .collect::<Vec<_>>()
        }))
    }

    /// `SKIN` bytes: per vertex 4 slots into `matrix_indices` then 4 weights.
    pub fn from_skin_bytes(skeleton: &Skeleton, skin: &[u8], matrix_indices: &[u32]) -> Skin {
        let slots = skin.chunks_exact(8).map(|v| {
            let mut indices = [0u8; 4];
            let mut weights = [0u8; 4];
            for (i, (a, b)) in indices.iter_mut().zip(weights.iter_mut()).enumerate() {
                *a = v.get(i).copied().unwrap_or(0);
                *b = v.get(i + 4).copied().unwrap_or(0);
            }
            (indices, weights)
        });
        Skin::from_packed(slots, |slot| {
            matrix_indices
                .get(usize::from(slot))
                .and_then(|&id| skeleton.index_of(id))
        })
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// Whether there are no vertices.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Vertex `v`'s influences (empty past the end).
    pub fn vertex(&self, v: usize) -> &[Influence] {
        let range = |i: usize| self.starts.get(i).map(|&s| s as usize);
        match (range(v), range(v + 1)) {
            (Some(a), Some(b)) => self.influences.get(a..b).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The most influences any vertex has.
    pub fn max_influences(&self) -> usize {
        self.starts
            .windows(2)
            .map(|w| match w {
                [a, b] => b.saturating_sub(*a) as usize,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// The blended world transform of vertex `v` (identity without
    /// influences; see `blend`).
    pub fn matrix(&self, v: usize, pose: &Pose) -> Mat4 {
        blend(self.vertex(v), &pose.world)
    }

    /// Vertex `v` at `position` moved by `pose`.
    pub fn pose_point(&self, v: usize, pose: &Pose, position: [f32; 3]) -> [f32; 3] {
        self.matrix(v, pose)
            .transform_point3(Vec3::from_array(position))
            .to_array()
    }

    /// Vertex `v`'s `normal` turned by `pose` (renormalised; zero stays zero).
    pub fn pose_normal(&self, v: usize, pose: &Pose, normal: [f32; 3]) -> [f32; 3] {
        self.matrix(v, pose)
            .transform_vector3(Vec3::from_array(normal))
            .normalize_or_zero()
            .to_array()
    }
}

/// A transform skinning blends: [`Mat4`] here, and the affine rows
/// [`bounds`](crate::bounds) moves points by (the same sums, in fewer
/// floats).
pub(crate) trait Blend: Sized {
    /// What a vertex without influences, or a node not in the pose, moves by.
    const IDENTITY: Self;
    /// Nothing summed yet.
    const ZERO: Self;
    /// `self += other * weight`, element by element.
    fn add_weighted(&mut self, other: &Self, weight: f32);
}

impl Blend for Mat4 {
    const IDENTITY: Self = Mat4::IDENTITY;
    const ZERO: Self = Mat4::ZERO;

    #[inline(always)]
    fn add_weighted(&mut self, other: &Self, weight: f32) {
        *self += *other * weight;
    }
}

/// The one skinning kernel: the weighted sum of the transforms in `world`
/// of the nodes of `influences` (a node not in `world` counts as the
/// identity), or the identity without influences. [`Skin::matrix`] blends a
/// vertex's with it, and [`bounds`](crate::bounds) a group of vertices'
/// that move alike, once per pose.
#[inline]
pub(crate) fn blend<M: Blend>(influences: &[Influence], world: &[M]) -> M {
    if influences.is_empty() {
        return M::IDENTITY;
    }
    let mut sum = M::ZERO;
    for i in influences {
        sum.add_weighted(world.get(i.node as usize).unwrap_or(&M::IDENTITY), i.weight);
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_merge_per_node_and_sum_to_one() {
        let skin = Skin::from_vertices([
            vec![(3, 0.5), (3, 0.25), (1, 0.25)],
            vec![],
            vec![(2, 0.0), (4, 2.0)],
        ]);
        assert_eq!(skin.len(), 3);
        assert_eq!(
            skin.vertex(0),
            [
                Influence {
                    node: 3,
                    weight: 0.75
                },
                Influence {
                    node: 1,
                    weight: 0.25
                }
            ]
        );
        assert!(skin.vertex(1).is_empty());
        assert_eq!(
            skin.vertex(2),
            [Influence {
                node: 4,
                weight: 1.0
            }]
        );
        assert!(skin.vertex(3).is_empty());
        assert_eq!(skin.max_influences(), 2);
    }

    #[test]
    fn a_vertex_between_two_bones_moves_halfway() {
        let skin = Skin::from_vertices([vec![(0, 1.0), (1, 1.0)]]);
        let pose = Pose {
            world: vec![
                Mat4::IDENTITY,
                Mat4::from_translation(Vec3::new(0.0, 0.0, 4.0)),
            ],
        };
        assert_eq!(skin.pose_point(0, &pose, [1.0, 2.0, 3.0]), [1.0, 2.0, 5.0]);
        assert_eq!(skin.pose_normal(0, &pose, [0.0, 0.0, 2.0]), [0.0, 0.0, 1.0]);
    }

    #[test]
    fn packed_slots_read_weights_out_of_255() {
        let skin = Skin::from_packed([([0, 1, 0, 0], [0, 0, 127, 128])], |i| {
            Some(usize::from(i) + 10)
        });
        // Slots 2 and 3 both name index 0: one node, weight 1.
        assert_eq!(
            skin.vertex(0),
            [Influence {
                node: 10,
                weight: 1.0
            }]
        );
    }
}
