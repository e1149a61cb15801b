//! Checks of an MDX model: indices between chunks, the node tree, sequences,
//! keyframes and normals.

use super::{Finding, Findings, Rule};
use crate::mdx::alpha::GenObject;
use crate::mdx::{
    AttachmentTrack, CameraTrack, Chunk, CornEmitterTrack, GeosetAnimationTrack, LayerTrack,
    LightTrack, Model, Node, NodeTrack, ParticleEmitter2Track, ParticleEmitterTrack,
    RibbonEmitterTrack, TextureAnimationTrack, Track,
};

/// How far a normal's length may be from 1 (the normals are stored as floats
/// computed by tools; 1% allows their rounding).
pub const NORMAL_TOLERANCE: f32 = 0.01;

/// True when `length` is 1 within [`NORMAL_TOLERANCE`] (false for NaN).
fn is_unit(length: f32) -> bool {
    (length - 1.0).abs() <= NORMAL_TOLERANCE
}

/// `0xffffffff`: "none" for parent, geoset and geoset animation ids.
const NONE: u32 = u32::MAX;

/// Every finding of the model (see the [module](super) docs for the rules).
pub fn model(model: &Model) -> Vec<Finding> {
    let mut v = Validator {
        f: Findings::default(),
        textures: model.textures().len(),
        materials: model.materials().len(),
        texture_animations: model.texture_animations().len(),
        geosets: model.geosets().len(),
        geoset_animations: model.geoset_animations().len(),
        global_sequences: model.global_sequences().to_vec(),
        sequences: model.sequences().iter().map(|s| s.interval).collect(),
        sequences_at: model
            .chunks
            .iter()
            .position(|c| matches!(c, Chunk::Sequences(_)))
            .map_or("SEQS".into(), |i| format!("chunks[{i}].SEQS")),
    };
    let mut nodes: Vec<NodeIds> = Vec::new();
    let mut pivots = None;
    for (i, chunk) in model.chunks.iter().enumerate() {
        v.chunk(i, chunk, &mut nodes, &mut pivots);
    }
    v.nodes(&nodes, pivots);
    v.sequence_order();
    v.f.0
}

/// A node as the id checks see it: where it is, its ids, and (Warcraft III /
/// Reforged) its tracks.
struct NodeIds<'m> {
    at: String,
    object_id: u32,
    parent_id: u32,
    tracks: Option<&'m [NodeTrack]>,
}

impl<'m> NodeIds<'m> {
    fn node(at: String, node: &'m Node) -> Self {
        NodeIds {
            at,
            object_id: node.object_id,
            parent_id: node.parent_id,
            tracks: Some(&node.tracks),
        }
    }
}

/// Adds the MDLGENOBJECTs of one alpha chunk (`list` is `TAG.field`).
fn alpha<'m>(
    nodes: &mut Vec<NodeIds<'m>>,
    i: usize,
    list: &str,
    objects: impl Iterator<Item = &'m GenObject>,
) {
    for (n, object) in objects.enumerate() {
        nodes.push(NodeIds {
            at: format!("chunks[{i}].{list}[{n}]"),
            object_id: object.object_id,
            parent_id: object.parent_id,
            tracks: None,
        });
    }
}

/// A track seen through its timing: what the key checks need.
struct Timing {
    global_sequence_id: i32,
    frames: Vec<i32>,
}

impl<T> From<&Track<T>> for Timing {
    fn from(t: &Track<T>) -> Timing {
        Timing {
            global_sequence_id: t.global_sequence_id,
            frames: t.keys.iter().map(|k| k.frame).collect(),
        }
    }
}

/// The typed track enums: each variant's track and a name for the path.
trait Timed {
    fn timing(&self) -> Option<(&'static str, Timing)>;
}

macro_rules! timed {
    ($($enum:ident { $($variant:ident),* $(,)? })*) => {$(
        impl Timed for $enum {
            fn timing(&self) -> Option<(&'static str, Timing)> {
                match self {
                    $( $enum::$variant(t) => Some((stringify!($variant), Timing::from(t))), )*
                    // Unknown tags are kept as bytes: no keys to check.
                    #[allow(unreachable_patterns)]
                    _ => None,
                }
            }
        }
    )*};
}

timed! {
    NodeTrack { Translation, Rotation, Scaling }
    LayerTrack { TextureId, Alpha, EmissiveGain, FresnelColor, FresnelAlpha, FresnelTeamColor }
    TextureAnimationTrack { Translation, Rotation, Scaling }
    GeosetAnimationTrack { Alpha, Color }
    LightTrack {
        AttenuationStart, AttenuationEnd, Color, Intensity, AmbientIntensity, AmbientColor,
        Visibility,
    }
    AttachmentTrack { Visibility }
    ParticleEmitterTrack { EmissionRate, Gravity, Longitude, Latitude, Lifespan, Speed, Visibility }
    ParticleEmitter2Track { Speed, Variation, Latitude, Gravity, EmissionRate, Length, Width, Visibility }
    RibbonEmitterTrack { HeightAbove, HeightBelow, Alpha, Color, TextureSlot, Visibility }
    CornEmitterTrack { Alpha, Color, EmissionRate, Lifespan, Speed, Visibility }
    CameraTrack { Translation, TargetTranslation, Rotation }
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
    fn chunk<'m>(
        &mut self,
        i: usize,
        chunk: &'m Chunk,
        nodes: &mut Vec<NodeIds<'m>>,
        pivots: &mut Option<(String, usize)>,
    ) {
        match chunk {
            Chunk::Materials(c) => {
                for (m, material) in c.materials.iter().enumerate() {
                    for (l, layer) in material.layers.iter().enumerate() {
                        let at = format!("chunks[{i}].MTLS.materials[{m}].layers[{l}]");
                        self.layer(&at, layer);
                    }
                }
            }
            Chunk::TextureAnimations(c) => {
                for (a, anim) in c.animations.iter().enumerate() {
                    self.tracks(&format!("chunks[{i}].TXAN.animations[{a}]"), &anim.tracks);
                }
            }
            Chunk::Geosets(c) => {
                for (g, geoset) in c.geosets.iter().enumerate() {
                    self.geoset(&format!("chunks[{i}].GEOS.geosets[{g}]"), geoset);
                }
            }
            Chunk::GeosetAnimations(c) => {
                for (a, anim) in c.animations.iter().enumerate() {
                    let at = format!("chunks[{i}].GEOA.animations[{a}]");
                    let id = anim.geoset_id.into();
                    let path = format!("{at}.geoset_id");
                    self.f
                        .index(Rule::GeosetIndex, path, id, self.geosets, "geosets");
                    self.tracks(&at, &anim.tracks);
                }
            }
            Chunk::Bones(c) => {
                for (b, bone) in c.bones.iter().enumerate() {
                    let at = format!("chunks[{i}].BONE.bones[{b}]");
                    if bone.geoset_id != NONE {
                        let path = format!("{at}.geoset_id");
                        let id = bone.geoset_id.into();
                        self.f
                            .index(Rule::GeosetIndex, path, id, self.geosets, "geosets");
                    }
                    if bone.geoset_animation_id != NONE {
                        let path = format!("{at}.geoset_animation_id");
                        let (id, len) = (bone.geoset_animation_id.into(), self.geoset_animations);
                        let what = "geoset animations";
                        self.f
                            .index(Rule::GeosetAnimationIndex, path, id, len, what);
                    }
                    nodes.push(NodeIds::node(format!("{at}.node"), &bone.node));
                }
            }
            Chunk::Lights(c) => {
                for (l, light) in c.lights.iter().enumerate() {
                    let at = format!("chunks[{i}].LITE.lights[{l}]");
                    let tracks: Vec<_> = light.all_tracks().cloned().collect();
                    self.tracks(&at, &tracks);
                    nodes.push(NodeIds::node(format!("{at}.node"), &light.node));
                }
            }
            Chunk::Helpers(c) => {
                for (h, helper) in c.helpers.iter().enumerate() {
                    nodes.push(NodeIds::node(
                        format!("chunks[{i}].HELP.helpers[{h}].node"),
                        &helper.node,
                    ));
                }
            }
            Chunk::Attachments(c) => {
                for (a, attachment) in c.attachments.iter().enumerate() {
                    let at = format!("chunks[{i}].ATCH.attachments[{a}]");
                    self.tracks(&at, &attachment.tracks);
                    nodes.push(NodeIds::node(format!("{at}.node"), &attachment.node));
                }
            }
            Chunk::PivotPoints(c) => *pivots = Some((format!("chunks[{i}].PIVT"), c.points.len())),
            Chunk::ParticleEmitters(c) => {
                for (e, emitter) in c.emitters.iter().enumerate() {
                    let at = format!("chunks[{i}].PREM.emitters[{e}]");
                    self.tracks(&at, &emitter.tracks);
                    nodes.push(NodeIds::node(format!("{at}.node"), &emitter.node));
                }
            }
            Chunk::ParticleEmitters2(c) => {
                for (e, emitter) in c.emitters.iter().enumerate() {
                    let at = format!("chunks[{i}].PRE2.emitters[{e}]");
                    let (path, id) = (format!("{at}.texture_id"), emitter.texture_id.into());
                    self.f
                        .index(Rule::TextureIndex, path, id, self.textures, "textures");
                    self.tracks(&at, &emitter.tracks);
                    nodes.push(NodeIds::node(format!("{at}.node"), &emitter.node));
                }
            }
            Chunk::RibbonEmitters(c) => {
                for (e, emitter) in c.emitters.iter().enumerate() {
                    let at = format!("chunks[{i}].RIBB.emitters[{e}]");
                    let (path, id) = (format!("{at}.material_id"), emitter.material_id.into());
                    self.f
                        .index(Rule::MaterialIndex, path, id, self.materials, "materials");
                    self.tracks(&at, &emitter.tracks);
                    nodes.push(NodeIds::node(format!("{at}.node"), &emitter.node));
                }
            }
            Chunk::CornEmitters(c) => {
                for (e, emitter) in c.emitters.iter().enumerate() {
                    let at = format!("chunks[{i}].CORN.emitters[{e}]");
                    self.tracks(&at, &emitter.tracks);
                    nodes.push(NodeIds::node(format!("{at}.node"), &emitter.node));
                }
            }
            Chunk::Cameras(c) => {
                for (k, camera) in c.cameras.iter().enumerate() {
                    self.tracks(&format!("chunks[{i}].CAMS.cameras[{k}]"), &camera.tracks);
                }
            }
            Chunk::EventObjects(c) => {
                for (e, event) in c.objects.iter().enumerate() {
                    let at = format!("chunks[{i}].EVTS.objects[{e}]");
                    if let Some(track) = &event.track {
                        let timing = Timing {
                            global_sequence_id: track.global_sequence_id,
                            frames: track.tracks.iter().map(|t| *t as i32).collect(),
                        };
                        self.keys(&format!("{at}.track"), &timing);
                    }
                    nodes.push(NodeIds::node(format!("{at}.node"), &event.node));
                }
            }
            Chunk::CollisionShapes(c) => {
                for (s, shape) in c.shapes.iter().enumerate() {
                    nodes.push(NodeIds::node(
                        format!("chunks[{i}].CLID.shapes[{s}].node"),
                        &shape.node,
                    ));
                }
            }
            // WoW alpha (v1300-1500): every object is an MDLGENOBJECT; its ids
            // follow the same rules (its tracks have other types: not timed here).
            Chunk::AlphaBones(c) => {
                alpha(nodes, i, "BONE.bones", c.bones.iter().map(|b| &b.object))
            }
            Chunk::AlphaHelpers(c) => alpha(nodes, i, "HELP.helpers", c.helpers.iter()),
            Chunk::AlphaAttachments(c) => alpha(
                nodes,
                i,
                "ATCH.attachments",
                c.attachments.iter().map(|a| &a.object),
            ),
            Chunk::AlphaLights(c) => {
                alpha(nodes, i, "LITE.lights", c.lights.iter().map(|l| &l.object))
            }
            Chunk::AlphaParticleEmitters(c) => alpha(
                nodes,
                i,
                "PREM.emitters",
                c.emitters.iter().map(|e| &e.object),
            ),
            Chunk::AlphaParticleEmitters2(c) => alpha(
                nodes,
                i,
                "PRE2.emitters",
                c.emitters.iter().map(|e| &e.object),
            ),
            Chunk::AlphaRibbonEmitters(c) => alpha(
                nodes,
                i,
                "RIBB.emitters",
                c.emitters.iter().map(|e| &e.object),
            ),
            Chunk::AlphaEvents(c) => {
                alpha(nodes, i, "EVTS.events", c.events.iter().map(|e| &e.object))
            }
            Chunk::AlphaHitTestShapes(c) => alpha(
                nodes,
                i,
                "HTST.hit_test_shapes",
                c.hit_test_shapes.iter().map(|h| &h.object),
            ),
            _ => {}
        }
    }

    fn layer(&mut self, at: &str, layer: &crate::mdx::Layer) {
        let (textures, animations) = (self.textures, self.texture_animations);
        let path = format!("{at}.texture_id");
        let id = layer.texture_id.into();
        self.f
            .index(Rule::TextureIndex, path, id, textures, "textures");
        if layer.texture_animation_id != -1 {
            let path = format!("{at}.texture_animation_id");
            let id = layer.texture_animation_id.into();
            let what = "texture animations";
            self.f
                .index(Rule::TextureAnimationIndex, path, id, animations, what);
        }
        for (t, entry) in layer.textures.iter().flatten().enumerate() {
            let path = format!("{at}.textures[{t}].texture_id");
            let id = entry.texture_id.into();
            self.f
                .index(Rule::TextureIndex, path, id, textures, "textures");
            if let Some(track) = &entry.texture_id_track {
                let at = format!("{at}.textures[{t}].texture_id_track");
                self.texture_keys(&at, track);
                self.keys(&at, &Timing::from(track));
            }
        }
        for (t, track) in layer.tracks.iter().enumerate() {
            if let LayerTrack::TextureId(track) = track {
                self.texture_keys(&format!("{at}.tracks[{t}].TextureId"), track);
            }
        }
        self.tracks(at, &layer.tracks);
    }

    /// A texture-id track's values index `TEXS`.
    fn texture_keys(&mut self, at: &str, track: &Track<u32>) {
        for (k, key) in track.keys.iter().enumerate() {
            let path = format!("{at}.keys[{k}].value");
            let id = key.value.into();
            self.f
                .index(Rule::TextureIndex, path, id, self.textures, "textures");
        }
    }

    fn geoset(&mut self, at: &str, geoset: &crate::mdx::Geoset) {
        let path = format!("{at}.material_id");
        let id = geoset.material_id.into();
        self.f
            .index(Rule::MaterialIndex, path, id, self.materials, "materials");
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

    fn tracks<T: Timed>(&mut self, at: &str, tracks: &[T]) {
        for (t, track) in tracks.iter().enumerate() {
            if let Some((name, timing)) = track.timing() {
                self.keys(&format!("{at}.tracks[{t}].{name}"), &timing);
            }
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
        let inside: Box<dyn Fn(i64) -> bool> = if gs == -1 {
            let sequences = self.sequences.clone();
            let any = !sequences.is_empty();
            Box::new(move |f| {
                !any || sequences
                    .iter()
                    .any(|[s, e]| i64::from(*s) <= f && f <= i64::from(*e))
            })
        } else {
            let Some(&length) = usize::try_from(gs)
                .ok()
                .and_then(|g| self.global_sequences.get(g))
            else {
                let len = self.global_sequences.len();
                let what = "global sequences";
                let path = format!("{at}.global_sequence_id");
                self.f
                    .index(Rule::GlobalSequenceIndex, path, gs.into(), len, what);
                return;
            };
            Box::new(move |f| 0 <= f && f <= i64::from(length))
        };
        let outside: Vec<_> = frames
            .iter()
            .enumerate()
            .filter(|(_, f)| !inside(i64::from(**f)))
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
    fn nodes(&mut self, nodes: &[NodeIds], pivots: Option<(String, usize)>) {
        let (pivot_path, pivot_count) = pivots.unwrap_or_else(|| ("PIVT".into(), 0));
        if pivot_count != nodes.len() {
            self.f.push(
                Rule::PivotCount,
                pivot_path,
                format!(
                    "{pivot_count} pivot points for {} nodes (pivot count must equal node count)",
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
            if let Some(tracks) = node.tracks {
                self.tracks(&node.at, tracks);
            }
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

    /// Each sequence ends after it starts, and starts after the previous ends.
    fn sequence_order(&mut self) {
        let at = self.sequences_at.clone();
        let path = |s: usize| format!("{at}.sequences[{s}].interval");
        for (s, [start, end]) in self.sequences.clone().into_iter().enumerate() {
            if end < start {
                self.f.push(
                    Rule::SequenceOrder,
                    path(s),
                    format!("ends at {end}, before it starts at {start}"),
                );
            }
            if let Some([_, previous_end]) = s.checked_sub(1).and_then(|p| self.sequences.get(p))
                && start < *previous_end
            {
                self.f.push(
                    Rule::SequenceOrder,
                    path(s),
                    format!(
                        "starts at {start}, before sequence {} ends at {previous_end}",
                        s - 1
                    ),
                );
            }
        }
    }
}
