//! Checks of an MDX model's structure: indices between chunks, the node
//! tree, sequences, keyframes, normals, and a file cut short.

use core::cmp::Ordering;

use super::walk::{self, NodeAt, Timing};
use super::{Finding, Findings, Rule};
use crate::mdx::{Chunk, Geoset, Layer, Model};

/// How far a normal's length may be from 1 (the normals are stored as floats
/// computed by tools; 1% allows their rounding).
pub const NORMAL_TOLERANCE: f32 = 0.01;

/// True when `length` is 1 within [`NORMAL_TOLERANCE`] (false for NaN).
fn is_unit(length: f32) -> bool {
    (length - 1.0).abs() <= NORMAL_TOLERANCE
}

/// `0xffffffff`: "none" for parent, geoset and geoset animation ids.
const NONE: u32 = u32::MAX;

/// Every finding of the model's structure (see the [module](super) docs for
/// the rules; [`sanity`](super::sanity) has the map makers' checks).
pub fn model(model: &Model) -> Vec<Finding> {
    let mut v = Validator {
        f: Findings::of(model),
        textures: model.textures().len(),
        materials: model.materials().len(),
        texture_animations: model.texture_animations().len(),
        geosets: model.geosets().len(),
        geoset_animations: model.geoset_animations().len(),
        global_sequences: model.global_sequences().to_vec(),
        sequences: model.sequences().iter().map(|s| s.interval).collect(),
        sequences_at: super::chunk_at(model, "SEQS"),
    };
    let mut pivots = None;
    for (i, chunk) in model.chunks.iter().enumerate() {
        v.chunk(i, chunk, &mut pivots);
    }
    let nodes = walk::nodes(model);
    v.nodes(&nodes, pivots);
    walk::tracks(model, &nodes, &mut |at, timing| v.keys(at, timing));
    v.sequence_order();
    v.f.found
}

/// The lists of the model an index points into (each with its rule).
#[derive(Clone, Copy)]
enum List {
    Textures,
    Materials,
    TextureAnimations,
    Geosets,
    GeosetAnimations,
    GlobalSequences,
}

struct Validator {
    f: Findings,
    textures: usize,
    materials: usize,
    texture_animations: usize,
    geosets: usize,
    geoset_animations: usize,
    global_sequences: Vec<u32>,
    sequences: Vec<[u32; 2]>,
    /// The path of the `SEQS` chunk.
    sequences_at: String,
}

impl Validator {
    /// `value` must index `list`.
    fn index(&mut self, list: List, path: String, value: impl Into<i64>) {
        let (rule, len, what) = match list {
            List::Textures => (Rule::TextureIndex, self.textures, "textures"),
            List::Materials => (Rule::MaterialIndex, self.materials, "materials"),
            List::TextureAnimations => (
                Rule::TextureAnimationIndex,
                self.texture_animations,
                "texture animations",
            ),
            List::Geosets => (Rule::GeosetIndex, self.geosets, "geosets"),
            List::GeosetAnimations => (
                Rule::GeosetAnimationIndex,
                self.geoset_animations,
                "geoset animations",
            ),
            List::GlobalSequences => (
                Rule::GlobalSequenceIndex,
                self.global_sequences.len(),
                "global sequences",
            ),
        };
        self.f.index(rule, path, value.into(), len, what);
    }

    fn chunk(&mut self, i: usize, chunk: &Chunk, pivots: &mut Option<(String, usize)>) {
        match chunk {
            Chunk::Materials(c) => {
                for (m, material) in c.materials.iter().enumerate() {
                    for (l, layer) in material.layers.iter().enumerate() {
                        let at = format!("chunks[{i}].MTLS.materials[{m}].layers[{l}]");
                        self.layer(&at, layer);
                    }
                }
            }
            Chunk::Geosets(c) => {
                for (g, geoset) in c.geosets.iter().enumerate() {
                    self.geoset(&format!("chunks[{i}].GEOS.geosets[{g}]"), geoset);
                }
            }
            Chunk::GeosetAnimations(c) => {
                for (a, anim) in c.animations.iter().enumerate() {
                    let path = format!("chunks[{i}].GEOA.animations[{a}].geoset_id");
                    self.index(List::Geosets, path, anim.geoset_id);
                }
            }
            Chunk::Bones(c) => {
                for (b, bone) in c.bones.iter().enumerate() {
                    let at = format!("chunks[{i}].BONE.bones[{b}]");
                    if bone.geoset_id != NONE {
                        let path = format!("{at}.geoset_id");
                        self.index(List::Geosets, path, bone.geoset_id);
                    }
                    if bone.geoset_animation_id != NONE {
                        let path = format!("{at}.geoset_animation_id");
                        self.index(List::GeosetAnimations, path, bone.geoset_animation_id);
                    }
                }
            }
            Chunk::PivotPoints(c) => *pivots = Some((format!("chunks[{i}].PIVT"), c.points.len())),
            Chunk::ParticleEmitters2(c) => {
                for (e, emitter) in c.emitters.iter().enumerate() {
                    let path = format!("chunks[{i}].PRE2.emitters[{e}].texture_id");
                    self.index(List::Textures, path, emitter.texture_id);
                }
            }
            Chunk::RibbonEmitters(c) => {
                for (e, emitter) in c.emitters.iter().enumerate() {
                    let path = format!("chunks[{i}].RIBB.emitters[{e}].material_id");
                    self.index(List::Materials, path, emitter.material_id);
                }
            }
            Chunk::Cut(cut) => {
                let path = format!("chunks[{i}].{}", cut.tag);
                self.f.push(Rule::CutChunk, path, cut.damage());
            }
            Chunk::Undecoded(kept) => {
                let path = format!("chunks[{i}].{}", kept.tag);
                self.f.push(Rule::CutChunk, path, kept.damage());
            }
            _ => {}
        }
    }

    /// Its textures (and a texture-id track's values) index `TEXS`, its
    /// texture animation `TXAN`.
    fn layer(&mut self, at: &str, layer: &Layer) {
        let path = format!("{at}.texture_id");
        self.index(List::Textures, path, layer.texture_id);
        if layer.texture_animation_id != -1 {
            let path = format!("{at}.texture_animation_id");
            let id = layer.texture_animation_id;
            self.index(List::TextureAnimations, path, id);
        }
        // Each texture entry's id, then its track's values (the findings'
        // order), then the layer's own texture-id tracks.
        let mut tracks = walk::texture_id_tracks(at, layer).peekable();
        for (t, entry) in layer.textures.iter().flatten().enumerate() {
            let path = format!("{at}.textures[{t}].texture_id");
            self.index(List::Textures, path, entry.texture_id);
            if entry.texture_id_track.is_some()
                && let Some((track_at, track)) = tracks.next()
            {
                self.texture_keys(&track_at, track);
            }
        }
        for (track_at, track) in tracks {
            self.texture_keys(&track_at, track);
        }
    }

    /// A texture-id track's values index `TEXS`.
    fn texture_keys(&mut self, at: &str, track: &crate::mdx::Track<u32>) {
        for (k, key) in track.keys.iter().enumerate() {
            let path = format!("{at}.keys[{k}].value");
            self.index(List::Textures, path, key.value);
        }
    }

    fn geoset(&mut self, at: &str, geoset: &Geoset) {
        let path = format!("{at}.material_id");
        self.index(List::Materials, path, geoset.material_id);
        let vertices = geoset.vertex_positions.len();
        let bad: Vec<_> = geoset
            .faces
            .iter()
            .enumerate()
            .filter(|(_, v)| usize::from(**v) >= vertices)
            .collect();
        if let Some((first, value)) = bad.first() {
            self.f.push(
                Rule::VertexIndex,
                format!("{at}.faces[{first}]"),
                format!(
                    "{} of {} face indices are out of range of the {vertices} vertices \
                     (first: {value})",
                    bad.len(),
                    geoset.faces.len()
                ),
            );
        }
        let length = |n: &[f32; 3]| (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        let bad: Vec<_> = geoset
            .vertex_normals
            .iter()
            .enumerate()
            .filter(|(_, n)| !is_unit(length(n)))
            .collect();
        if let Some((first, normal)) = bad.first() {
            self.f.push(
                Rule::NormalLength,
                format!("{at}.vertex_normals[{first}]"),
                format!(
                    "{} of {} normals are not unit length (first: {normal:?}, length {})",
                    bad.len(),
                    geoset.vertex_normals.len(),
                    length(normal)
                ),
            );
        }
    }

    /// Keys in time order, inside a sequence (or their global sequence).
    fn keys(&mut self, at: &str, timing: &Timing) {
        let frames = &timing.frames;
        let previous = frames.iter().zip(frames.iter().skip(1)).enumerate();
        if let Some((k, (before, after))) = previous.into_iter().find(|(_, (a, b))| b < a) {
            self.f.push(
                Rule::KeyOrder,
                format!("{at}.keys[{}]", k + 1),
                format!("frame {after} comes after frame {before}"),
            );
        }
        let gs = timing.global_sequence_id;
        // The intervals a key may be in: its global sequence's, or any sequence's.
        let global;
        let intervals = if gs == -1 {
            self.sequences.as_slice()
        } else {
            let Some(&length) = usize::try_from(gs)
                .ok()
                .and_then(|g| self.global_sequences.get(g))
            else {
                let path = format!("{at}.global_sequence_id");
                self.index(List::GlobalSequences, path, gs);
                return;
            };
            global = [[0, length]];
            global.as_slice()
        };
        // A model without sequences has nothing to be outside of.
        let inside = |f: i32| {
            let f = i64::from(f);
            intervals.is_empty()
                || intervals
                    .iter()
                    .any(|[s, e]| i64::from(*s) <= f && f <= i64::from(*e))
        };
        let outside: Vec<_> = frames
            .iter()
            .enumerate()
            .filter(|(_, f)| !inside(**f))
            .collect();
        if let Some((k, frame)) = outside.first() {
            let of = if gs == -1 {
                "every sequence".to_string()
            } else {
                format!("global sequence {gs}")
            };
            self.f.push(
                Rule::KeyOutsideSequence,
                format!("{at}.keys[{k}]"),
                format!(
                    "{} of {} keys are outside {of} (first: frame {frame})",
                    outside.len(),
                    frames.len()
                ),
            );
        }
    }

    /// Pivot count, sequential object ids, parents that exist.
    fn nodes(&mut self, nodes: &[NodeAt<'_>], pivots: Option<(String, usize)>) {
        let (pivot_path, pivot_count) = pivots.unwrap_or_else(|| ("PIVT".into(), 0));
        let rule = match pivot_count.cmp(&nodes.len()) {
            Ordering::Less => Some(Rule::PivotCount),
            Ordering::Greater => Some(Rule::ExtraPivotPoints),
            Ordering::Equal => None,
        };
        if let Some(rule) = rule {
            self.f.push(
                rule,
                pivot_path,
                format!(
                    "{pivot_count} pivot points for {} nodes (one per node)",
                    nodes.len()
                ),
            );
        }
        if let Some((n, node)) = nodes
            .iter()
            .enumerate()
            .find(|(n, node)| node.object_id as usize != *n)
        {
            self.f.push(
                Rule::ObjectIds,
                format!("{}.object_id", node.at),
                format!(
                    "object id {} where {n} comes next (ids must be 0, 1, 2, … in file order)",
                    node.object_id
                ),
            );
        }
        let ids: std::collections::HashSet<u32> = nodes.iter().map(|n| n.object_id).collect();
        for node in nodes {
            if node.parent_id == NONE {
                continue;
            }
            let why = if node.parent_id == node.object_id {
                "is the node itself"
            } else if !ids.contains(&node.parent_id) {
                "is no node's object id"
            } else {
                continue;
            };
            self.f.push(
                Rule::ParentIndex,
                format!("{}.parent_id", node.at),
                format!("parent {} {why}", node.parent_id),
            );
        }
    }

    /// Each sequence ends after it starts, and starts after every earlier
    /// one ends and not where an earlier one starts (as mdx-m3-viewer
    /// compares them), naming the nearest earlier one it does not.
    fn sequence_order(&mut self) {
        let (at, sequences) = (&self.sequences_at, &self.sequences);
        let path = |s: usize| format!("{at}.sequences[{s}].interval");
        for (s, &[start, end]) in sequences.iter().enumerate() {
            if end < start {
                self.f.push(
                    Rule::NegativeLengthSequence,
                    path(s),
                    format!("ends at {end}, before it starts at {start}"),
                );
            }
            let earlier = sequences.iter().take(s).enumerate().rev();
            let conflict = earlier
                .into_iter()
                .find_map(|(e, &[earlier_start, earlier_end])| {
                    if start == earlier_start {
                        // A key at `start` is in both (the earlier one may be 0 ms).
                        Some(format!("starts at {start}, where sequence {e} starts"))
                    } else if start < earlier_end {
                        Some(format!(
                            "starts at {start}, before sequence {e} ends at {earlier_end}"
                        ))
                    } else {
                        None
                    }
                });
            if let Some(message) = conflict {
                self.f.push(Rule::SequenceOrder, path(s), message);
            }
        }
    }
}
