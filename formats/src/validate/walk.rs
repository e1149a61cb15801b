//! A model's nodes and animation tracks, each with its path, walked in one
//! place for every check that needs them (ids and parents, key timing,
//! global-sequence usage, bones).

use crate::mdx::alpha::GenObject;
use crate::mdx::{
    AttachmentTrack, CameraTrack, Chunk, CornEmitterTrack, GeosetAnimationTrack, LayerTrack,
    LightTrack, Model, Node, NodeTrack, ParticleEmitter2Track, ParticleEmitterTrack,
    RibbonEmitterTrack, TextureAnimationTrack, Track,
};

/// What kind of object a node belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NodeKind {
    /// A `BONE` (Warcraft III / Reforged or WoW alpha).
    Bone,
    /// Any other object with a node.
    Other,
}

/// A node: where it is, its ids, and (Warcraft III / Reforged) its tracks.
pub(super) struct NodeAt<'m> {
    /// The path of the node (`chunks[6].BONE.bones[0].node`).
    pub at: String,
    pub object_id: u32,
    pub parent_id: u32,
    pub kind: NodeKind,
    /// The node's tracks; `None` for WoW alpha objects (other track types).
    pub tracks: Option<&'m [NodeTrack]>,
}

/// Every node of `model`, in file order: the `Node` of each Warcraft III /
/// Reforged object, the `MDLGENOBJECT` of each WoW alpha one.
pub(super) fn nodes(model: &Model) -> Vec<NodeAt<'_>> {
    use NodeKind::{Bone, Other};
    let mut out = Vec::new();
    for (i, chunk) in model.chunks.iter().enumerate() {
        let out = &mut out;
        match chunk {
            Chunk::Bones(c) => wc3(out, i, "BONE.bones", Bone, c.bones.iter().map(|b| &b.node)),
            Chunk::Lights(c) => wc3(
                out,
                i,
                "LITE.lights",
                Other,
                c.lights.iter().map(|l| &l.node),
            ),
            Chunk::Helpers(c) => wc3(
                out,
                i,
                "HELP.helpers",
                Other,
                c.helpers.iter().map(|h| &h.node),
            ),
            Chunk::Attachments(c) => {
                let nodes = c.attachments.iter().map(|a| &a.node);
                wc3(out, i, "ATCH.attachments", Other, nodes)
            }
            Chunk::ParticleEmitters(c) => wc3(
                out,
                i,
                "PREM.emitters",
                Other,
                c.emitters.iter().map(|e| &e.node),
            ),
            Chunk::ParticleEmitters2(c) => wc3(
                out,
                i,
                "PRE2.emitters",
                Other,
                c.emitters.iter().map(|e| &e.node),
            ),
            Chunk::RibbonEmitters(c) => wc3(
                out,
                i,
                "RIBB.emitters",
                Other,
                c.emitters.iter().map(|e| &e.node),
            ),
            Chunk::CornEmitters(c) => wc3(
                out,
                i,
                "CORN.emitters",
                Other,
                c.emitters.iter().map(|e| &e.node),
            ),
            Chunk::EventObjects(c) => wc3(
                out,
                i,
                "EVTS.objects",
                Other,
                c.objects.iter().map(|e| &e.node),
            ),
            Chunk::CollisionShapes(c) => wc3(
                out,
                i,
                "CLID.shapes",
                Other,
                c.shapes.iter().map(|s| &s.node),
            ),
            // WoW alpha (v1300-1500): every object is an MDLGENOBJECT; its ids
            // follow the same rules (its tracks have other types: not timed here).
            Chunk::AlphaBones(c) => alpha(
                out,
                i,
                "BONE.bones",
                Bone,
                c.bones.iter().map(|b| &b.object),
            ),
            Chunk::AlphaHelpers(c) => alpha(out, i, "HELP.helpers", Other, c.helpers.iter()),
            Chunk::AlphaAttachments(c) => {
                let objects = c.attachments.iter().map(|a| &a.object);
                alpha(out, i, "ATCH.attachments", Other, objects);
            }
            Chunk::AlphaLights(c) => alpha(
                out,
                i,
                "LITE.lights",
                Other,
                c.lights.iter().map(|l| &l.object),
            ),
            Chunk::AlphaParticleEmitters(c) => {
                let objects = c.emitters.iter().map(|e| &e.object);
                alpha(out, i, "PREM.emitters", Other, objects);
            }
            Chunk::AlphaParticleEmitters2(c) => {
                let objects = c.emitters.iter().map(|e| &e.object);
                alpha(out, i, "PRE2.emitters", Other, objects);
            }
            Chunk::AlphaRibbonEmitters(c) => {
                let objects = c.emitters.iter().map(|e| &e.object);
                alpha(out, i, "RIBB.emitters", Other, objects);
            }
            Chunk::AlphaEvents(c) => alpha(
                out,
                i,
                "EVTS.events",
                Other,
                c.events.iter().map(|e| &e.object),
            ),
            Chunk::AlphaHitTestShapes(c) => {
                let objects = c.hit_test_shapes.iter().map(|h| &h.object);
                alpha(out, i, "HTST.hit_test_shapes", Other, objects);
            }
            _ => {}
        }
    }
    out
}

/// Adds the nodes of one Warcraft III chunk (`list` is `TAG.field`).
fn wc3<'m>(
    out: &mut Vec<NodeAt<'m>>,
    i: usize,
    list: &str,
    kind: NodeKind,
    nodes: impl Iterator<Item = &'m Node>,
) {
    for (n, node) in nodes.enumerate() {
        out.push(NodeAt {
            at: format!("chunks[{i}].{list}[{n}].node"),
            object_id: node.object_id,
            parent_id: node.parent_id,
            kind,
            tracks: Some(&node.tracks),
        });
    }
}

/// Adds the MDLGENOBJECTs of one alpha chunk (`list` is `TAG.field`).
fn alpha<'m>(
    out: &mut Vec<NodeAt<'m>>,
    i: usize,
    list: &str,
    kind: NodeKind,
    objects: impl Iterator<Item = &'m GenObject>,
) {
    for (n, object) in objects.enumerate() {
        out.push(NodeAt {
            at: format!("chunks[{i}].{list}[{n}]"),
            object_id: object.object_id,
            parent_id: object.parent_id,
            kind,
            tracks: None,
        });
    }
}

/// A track seen through its timing: its clock and its keys' frames.
pub(super) struct Timing {
    /// Index into `GLBS`, or -1 for the sequences' clock.
    pub global_sequence_id: i32,
    /// The keys' frames, in file order.
    pub frames: Vec<i32>,
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

/// Calls `visit` with the path and timing of every track of `model`: the
/// objects' own tracks chunk by chunk in file order, then the nodes' tracks
/// (`nodes` is [`nodes`] of the model). The WoW alpha chunks' tracks have
/// other types and are not walked.
pub(super) fn tracks(model: &Model, nodes: &[NodeAt<'_>], visit: &mut dyn FnMut(&str, &Timing)) {
    for (i, chunk) in model.chunks.iter().enumerate() {
        let at = |list: &str, n: usize| format!("chunks[{i}].{list}[{n}]");
        match chunk {
            Chunk::Materials(c) => {
                for (m, material) in c.materials.iter().enumerate() {
                    for (l, layer) in material.layers.iter().enumerate() {
                        let at = format!("{}.layers[{l}]", at("MTLS.materials", m));
                        for (t, entry) in layer.textures.iter().flatten().enumerate() {
                            if let Some(track) = &entry.texture_id_track {
                                let at = format!("{at}.textures[{t}].texture_id_track");
                                visit(&at, &Timing::from(track));
                            }
                        }
                        list(&at, &layer.tracks, visit);
                    }
                }
            }
            Chunk::TextureAnimations(c) => each(
                &c.animations,
                |a| &a.tracks,
                &|n| at("TXAN.animations", n),
                visit,
            ),
            Chunk::GeosetAnimations(c) => each(
                &c.animations,
                |a| &a.tracks,
                &|n| at("GEOA.animations", n),
                visit,
            ),
            Chunk::Lights(c) => {
                for (l, light) in c.lights.iter().enumerate() {
                    let all: Vec<LightTrack> = light.all_tracks().cloned().collect();
                    list(&at("LITE.lights", l), &all, visit);
                }
            }
            Chunk::Attachments(c) => each(
                &c.attachments,
                |a| &a.tracks,
                &|n| at("ATCH.attachments", n),
                visit,
            ),
            Chunk::ParticleEmitters(c) => each(
                &c.emitters,
                |e| &e.tracks,
                &|n| at("PREM.emitters", n),
                visit,
            ),
            Chunk::ParticleEmitters2(c) => each(
                &c.emitters,
                |e| &e.tracks,
                &|n| at("PRE2.emitters", n),
                visit,
            ),
            Chunk::RibbonEmitters(c) => each(
                &c.emitters,
                |e| &e.tracks,
                &|n| at("RIBB.emitters", n),
                visit,
            ),
            Chunk::CornEmitters(c) => each(
                &c.emitters,
                |e| &e.tracks,
                &|n| at("CORN.emitters", n),
                visit,
            ),
            Chunk::Cameras(c) => each(&c.cameras, |k| &k.tracks, &|n| at("CAMS.cameras", n), visit),
            Chunk::EventObjects(c) => {
                for (e, event) in c.objects.iter().enumerate() {
                    if let Some(track) = &event.track {
                        let timing = Timing {
                            global_sequence_id: track.global_sequence_id,
                            frames: track.tracks.iter().map(|t| *t as i32).collect(),
                        };
                        visit(&format!("{}.track", at("EVTS.objects", e)), &timing);
                    }
                }
            }
            _ => {}
        }
    }
    for node in nodes {
        if let Some(tracks) = node.tracks {
            list(&node.at, tracks, visit);
        }
    }
}

/// The tracks of each object of `objects` (`tracks` picks them), at `at(n)`.
fn each<O, T: Timed>(
    objects: &[O],
    tracks: impl Fn(&O) -> &Vec<T>,
    at: &dyn Fn(usize) -> String,
    visit: &mut dyn FnMut(&str, &Timing),
) {
    for (n, object) in objects.iter().enumerate() {
        list(&at(n), tracks(object), visit);
    }
}

/// Each track of `tracks` as `{at}.tracks[t].Name`.
fn list<T: Timed>(at: &str, tracks: &[T], visit: &mut dyn FnMut(&str, &Timing)) {
    for (t, track) in tracks.iter().enumerate() {
        if let Some((name, timing)) = track.timing() {
            visit(&format!("{at}.tracks[{t}].{name}"), &timing);
        }
    }
}
