//! The document's node hierarchy and its animations as functions of time:
//! each node's local translation, rotation and scale at rest or at any
//! time of an animation (`LINEAR`, `STEP` and `CUBICSPLINE` samplers played
//! as the glTF specification defines them), and world matrices from them.

use std::collections::BTreeMap;

use crate::anim::glam::{DMat4, DQuat, DVec3};

use super::accessor;
use super::error::{AccessorProblem, ImportError};

/// A local transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Trs {
    pub translation: DVec3,
    pub rotation: DQuat,
    pub scale: DVec3,
}

impl Trs {
    pub fn matrix(&self) -> DMat4 {
        DMat4::from_scale_rotation_translation(self.scale, self.rotation, self.translation)
    }
}

/// One node of the document.
pub(super) struct SceneNode {
    pub name: String,
    pub parent: Option<usize>,
    pub rest: Trs,
    /// A node given as a matrix that is not a translation, rotation and
    /// scale (shear): its rest matrix as given.
    pub matrix: Option<DMat4>,
}

/// The node forest and the order that visits parents before children.
pub(super) struct Scene {
    pub nodes: Vec<SceneNode>,
    /// Every node, parents before their children.
    pub order: Vec<usize>,
    /// The nodes of the scene imported (the default scene, else the first,
    /// else every root), and their descendants.
    pub in_scene: Vec<bool>,
}

impl Scene {
    pub fn new(document: &gltf::Document) -> Result<Scene, ImportError> {
        let count = document.nodes().len();
        let mut parent: Vec<Option<usize>> = vec![None; count];
        for node in document.nodes() {
            for child in node.children() {
                let slot = parent
                    .get_mut(child.index())
                    .ok_or(ImportError::Hierarchy {
                        node: child.index(),
                    })?;
                if slot.is_some() || child.index() == node.index() {
                    return Err(ImportError::Hierarchy {
                        node: child.index(),
                    });
                }
                *slot = Some(node.index());
            }
        }
        // Parents before children; a cycle leaves its nodes unvisited.
        let mut order = Vec::with_capacity(count);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (child, p) in parent.iter().enumerate() {
            if let Some(p) = p
                && let Some(list) = children.get_mut(*p)
            {
                list.push(child);
            }
        }
        let roots_of_all = || (0..count).filter(|&n| parent.get(n).is_some_and(Option::is_none));
        let mut stack: Vec<usize> = roots_of_all().rev().collect();
        while let Some(n) = stack.pop() {
            order.push(n);
            stack.extend(children.get(n).into_iter().flatten().rev());
        }
        if order.len() != count {
            let mut visited = vec![false; count];
            for &n in &order {
                if let Some(v) = visited.get_mut(n) {
                    *v = true;
                }
            }
            let stuck = visited.iter().position(|v| !v).unwrap_or(0);
            return Err(ImportError::Hierarchy { node: stuck });
        }
        let roots: Vec<usize> = match document
            .default_scene()
            .or_else(|| document.scenes().next())
        {
            Some(scene) => scene.nodes().map(|n| n.index()).collect(),
            None => roots_of_all().collect(),
        };
        let mut in_scene = vec![false; count];
        let mut stack = roots;
        while let Some(n) = stack.pop() {
            if let Some(slot) = in_scene.get_mut(n)
                && !*slot
            {
                *slot = true;
                stack.extend(children.get(n).into_iter().flatten().copied());
            }
        }
        let nodes = document
            .nodes()
            .map(|node| {
                let (t, r, s) = node.transform().decomposed();
                let rest = Trs {
                    translation: DVec3::from(t.map(f64::from)),
                    rotation: DQuat::from_array(r.map(f64::from)).normalize(),
                    scale: DVec3::from(s.map(f64::from)),
                };
                let matrix = match node.transform() {
                    gltf::scene::Transform::Matrix { matrix } => {
                        let m = DMat4::from_cols_array_2d(&matrix.map(|c| c.map(f64::from)));
                        (!m.abs_diff_eq(rest.matrix(), 1e-6)).then_some(m)
                    }
                    gltf::scene::Transform::Decomposed { .. } => None,
                };
                SceneNode {
                    name: node.name().unwrap_or("").to_owned(),
                    parent: parent.get(node.index()).copied().flatten(),
                    rest: if rest.rotation.is_finite() {
                        rest
                    } else {
                        Trs {
                            rotation: DQuat::IDENTITY,
                            ..rest
                        }
                    },
                    matrix,
                }
            })
            .collect();
        Ok(Scene {
            nodes,
            order,
            in_scene,
        })
    }

    /// Every node's world matrix, each node's local matrix from `local`.
    pub fn worlds(&self, local: impl Fn(usize) -> DMat4) -> Vec<DMat4> {
        let mut world = vec![DMat4::IDENTITY; self.nodes.len()];
        for &n in &self.order {
            let parent = (self.parent(n))
                .and_then(|p| world.get(p).copied())
                .unwrap_or(DMat4::IDENTITY);
            if let Some(slot) = world.get_mut(n) {
                *slot = parent * local(n);
            }
        }
        world
    }

    /// A node's rest local matrix.
    pub fn rest_local(&self, n: usize) -> DMat4 {
        self.nodes.get(n).map_or(DMat4::IDENTITY, |node| {
            node.matrix.unwrap_or_else(|| node.rest.matrix())
        })
    }

    /// A node's parent.
    pub fn parent(&self, n: usize) -> Option<usize> {
        self.nodes.get(n)?.parent
    }

    /// A node's name (empty for none).
    pub fn name(&self, n: usize) -> &str {
        self.nodes.get(n).map_or("", |node| &node.name)
    }

    /// A node's ancestors, its parent first.
    pub fn ancestors(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.parent(n);
        let mut steps = 0;
        core::iter::from_fn(move || {
            let here = at.filter(|_| steps <= self.nodes.len())?;
            steps += 1;
            at = self.parent(here);
            Some(here)
        })
    }

    /// Whether a node is in the scene imported.
    pub fn in_scene(&self, n: usize) -> bool {
        self.in_scene.get(n).copied().unwrap_or(false)
    }
}

/// `Σ weight · value`, component by component.
fn blend<const N: usize>(terms: [([f64; 4], f64); N]) -> [f64; 4] {
    let mut out = [0.0; 4];
    for (value, weight) in terms {
        for (o, v) in out.iter_mut().zip(value) {
            *o += weight * v;
        }
    }
    out
}

/// What a channel animates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    Translation,
    Rotation,
    Scale,
}

/// How a channel's sampler interpolates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Interp {
    Step,
    Linear,
    Cubic,
}

/// One channel of an animation: keys in seconds, values of 3 or 4
/// components (`Cubic`: in-tangent, value, out-tangent per key).
pub(super) struct Channel {
    pub node: usize,
    pub target: Target,
    pub interpolation: Interp,
    pub times: Vec<f32>,
    pub values: Vec<[f64; 4]>,
}

impl Channel {
    /// Key `key`'s value.
    pub fn value(&self, key: usize) -> [f64; 4] {
        let i = if self.interpolation == Interp::Cubic {
            key * 3 + 1
        } else {
            key
        };
        self.values.get(i).copied().unwrap_or_default()
    }

    /// A `CUBICSPLINE` key's in- and out-tangents (per second); zero for
    /// other interpolations.
    pub fn tangents(&self, key: usize) -> ([f64; 4], [f64; 4]) {
        if self.interpolation != Interp::Cubic {
            return ([0.0; 4], [0.0; 4]);
        }
        let at = |i: usize| self.values.get(i).copied().unwrap_or_default();
        (at(key * 3), at(key * 3 + 2))
    }

    /// Whether the channel holds `value` throughout: every key's value is
    /// it (within 1e-6 of its size; a rotation or its opposite) and every
    /// tangent is zero.
    pub fn holds(&self, value: [f64; 4]) -> bool {
        let near = |a: [f64; 4], b: [f64; 4]| {
            let size = b.iter().fold(1.0f64, |m, c| m.max(c.abs()));
            a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= 1e-6 * size)
        };
        let same = |v: [f64; 4]| {
            near(v, value) || (self.target == Target::Rotation && near(v.map(|c| -c), value))
        };
        (0..self.times.len()).all(|k| {
            let (a, b) = self.tangents(k);
            same(self.value(k)) && near(a, [0.0; 4]) && near(b, [0.0; 4])
        })
    }

    /// Whether the channel moves its node from where it rests.
    pub fn moves(&self, scene: &Scene) -> bool {
        let Some(node) = scene.nodes.get(self.node) else {
            return false;
        };
        let rest = match self.target {
            Target::Translation => node.rest.translation.extend(0.0).to_array(),
            Target::Scale => node.rest.scale.extend(0.0).to_array(),
            Target::Rotation => node.rest.rotation.to_array(),
        };
        node.matrix.is_some() || !self.holds(rest)
    }

    /// The value at `t` seconds.
    pub fn sample(&self, t: f64) -> [f64; 4] {
        let times = &self.times;
        let Some(&first) = times.first() else {
            return [0.0; 4];
        };
        if t <= f64::from(first) {
            return self.value(0);
        }
        let next = times.partition_point(|&k| f64::from(k) <= t);
        if next >= times.len() {
            return self.value(times.len() - 1);
        }
        let (a, b) = (next - 1, next);
        let time = |k: usize| times.get(k).map_or(0.0, |&t| f64::from(t));
        let (ta, tb) = (time(a), time(b));
        let dt = tb - ta;
        let f = if dt > 0.0 { (t - ta) / dt } else { 0.0 };
        let (va, vb) = (self.value(a), self.value(b));
        match self.interpolation {
            Interp::Step => va,
            Interp::Linear if self.target == Target::Rotation => {
                let (qa, mut qb) = (DQuat::from_array(va), DQuat::from_array(vb));
                if qa.dot(qb) < 0.0 {
                    qb = -qb;
                }
                qa.normalize().slerp(qb.normalize(), f).to_array()
            }
            Interp::Linear => blend([(va, 1.0 - f), (vb, f)]),
            Interp::Cubic => {
                let out_a = self.values.get(a * 3 + 2).copied().unwrap_or_default();
                let in_b = self.values.get(b * 3).copied().unwrap_or_default();
                let (f2, f3) = (f * f, f * f * f);
                let h = [
                    2.0 * f3 - 3.0 * f2 + 1.0,
                    f3 - 2.0 * f2 + f,
                    -2.0 * f3 + 3.0 * f2,
                    f3 - f2,
                ];
                let [h0, h1, h2, h3] = h;
                let v = blend([(va, h0), (out_a, h1 * dt), (vb, h2), (in_b, h3 * dt)]);
                if self.target == Target::Rotation {
                    DQuat::from_array(v).normalize().to_array()
                } else {
                    v
                }
            }
        }
    }
}

/// One glTF animation: its channels on the nodes, and its length.
pub(super) struct Clip {
    pub name: String,
    pub channels: Vec<Channel>,
    /// Seconds: the last key of any channel.
    pub duration: f64,
    /// Morph target weight channels, which have no MDX equivalent.
    pub morph_channels: usize,
    /// The sequence's interval and whether it loops, as an export of this
    /// workspace records them (`extras.mdx`).
    pub mdx_interval: Option<[u32; 2]>,
    pub mdx_looping: Option<bool>,
    /// The indices in `channels` of each animated node's channels.
    pub by_node: BTreeMap<usize, Vec<usize>>,
}

/// The `mdx` object of an `extras` (what the export records that glTF has
/// no field for).
pub(super) fn mdx_extras(extras: &gltf::json::Extras) -> Option<serde_json::Value> {
    let raw = extras.as_ref()?;
    let mut value: serde_json::Value = serde_json::from_str(raw.get()).ok()?;
    Some(value.get_mut("mdx")?.take())
}

impl Clip {
    pub fn read(
        animation: &gltf::Animation<'_>,
        buffers: &accessor::Buffers<'_>,
    ) -> Result<Clip, ImportError> {
        let mut channels = Vec::new();
        let mut morph_channels = 0;
        for channel in animation.channels() {
            let target = match channel.target().property() {
                gltf::animation::Property::Translation => Target::Translation,
                gltf::animation::Property::Rotation => Target::Rotation,
                gltf::animation::Property::Scale => Target::Scale,
                gltf::animation::Property::MorphTargetWeights => {
                    morph_channels += 1;
                    continue;
                }
            };
            let sampler = channel.sampler();
            let interpolation = match sampler.interpolation() {
                gltf::animation::Interpolation::Step => Interp::Step,
                gltf::animation::Interpolation::Linear => Interp::Linear,
                gltf::animation::Interpolation::CubicSpline => Interp::Cubic,
            };
            let name = format!(
                "animations[{}].samplers[{}]",
                animation.index(),
                sampler.index()
            );
            let input = sampler.input();
            let times: Vec<f32> = accessor::floats::<1>(
                &input,
                buffers,
                &format!("{name}.input"),
                "SCALAR of FLOAT",
            )?
            .into_iter()
            .map(|[t]| if t.is_finite() { t.max(0.0) } else { 0.0 })
            .collect();
            let output = sampler.output();
            let used_as = format!("{name}.output");
            let values: Vec<[f64; 4]> = if target == Target::Rotation {
                accessor::floats::<4>(&output, buffers, &used_as, "VEC4")?
                    .into_iter()
                    .map(|v| v.map(f64::from))
                    .collect()
            } else {
                accessor::floats::<3>(&output, buffers, &used_as, "VEC3")?
                    .into_iter()
                    .map(|[x, y, z]| [f64::from(x), f64::from(y), f64::from(z), 0.0])
                    .collect()
            };
            let per_key = if interpolation == Interp::Cubic { 3 } else { 1 };
            if values.len() != times.len() * per_key {
                return Err(accessor::error(
                    &output,
                    &used_as,
                    AccessorProblem::Count {
                        got: values.len(),
                        expected: times.len() * per_key,
                    },
                ));
            }
            // Keys out of order (invalid glTF) are played in order.
            let (times, values) = if times.is_sorted() {
                (times, values)
            } else {
                let mut keys: Vec<(f32, &[[f64; 4]])> = times
                    .iter()
                    .copied()
                    .zip(values.chunks_exact(per_key))
                    .collect();
                keys.sort_by(|a, b| a.0.total_cmp(&b.0));
                let sorted = keys.iter().flat_map(|(_, v)| v.iter().copied()).collect();
                (keys.iter().map(|k| k.0).collect(), sorted)
            };
            channels.push(Channel {
                node: channel.target().node().index(),
                target,
                interpolation,
                times,
                values,
            });
        }
        let duration = channels
            .iter()
            .filter_map(|c| c.times.last())
            .fold(0.0f64, |d, &t| d.max(f64::from(t)));
        let mdx = mdx_extras(animation.extras());
        let mdx_interval = mdx
            .as_ref()
            .and_then(|m| serde_json::from_value::<[u32; 2]>(m.get("interval")?.clone()).ok());
        let mdx_looping = mdx.as_ref().and_then(|m| m.get("looping")?.as_bool());
        let mut by_node: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, channel) in channels.iter().enumerate() {
            by_node.entry(channel.node).or_default().push(i);
        }
        Ok(Clip {
            name: animation.name().unwrap_or("").to_owned(),
            channels,
            duration,
            morph_channels,
            mdx_interval,
            mdx_looping,
            by_node,
        })
    }

    /// The channels that animate `node`.
    pub fn channels_on(&self, node: usize) -> impl Iterator<Item = &Channel> {
        (self.by_node.get(&node).into_iter().flatten()).filter_map(|&i| self.channels.get(i))
    }

    /// A node's local matrix with each of its channels at the value
    /// `value` gives it (`Channel::sample` at a time: the node then), over
    /// its rest transform.
    pub fn local_where(
        &self,
        scene: &Scene,
        node: usize,
        value: impl Fn(&Channel) -> [f64; 4],
    ) -> DMat4 {
        let Some(mut trs) = scene.nodes.get(node).map(|n| n.rest) else {
            return DMat4::IDENTITY;
        };
        if !self.by_node.contains_key(&node) {
            return scene.rest_local(node);
        }
        for channel in self.channels_on(node) {
            let [x, y, z, w] = value(channel);
            match channel.target {
                Target::Translation => trs.translation = DVec3::new(x, y, z),
                Target::Rotation => {
                    let q = DQuat::from_xyzw(x, y, z, w);
                    if q.length_squared() > 0.0 && q.is_finite() {
                        trs.rotation = q.normalize();
                    }
                }
                Target::Scale => trs.scale = DVec3::new(x, y, z),
            }
        }
        trs.matrix()
    }
}
