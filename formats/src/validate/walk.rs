//! A model's nodes and animation tracks, each with its path, walked in one
//! place for every check that needs them (ids and parents, key timing and
//! values, global-sequence usage, bones).

use format_core::FourCC;

use crate::mdx::alpha::GenObject;
use crate::mdx::{
    AttachmentTrack, CameraTrack, Chunk, CornEmitterTrack, GeosetAnimationTrack, Interpolation,
    Layer, LayerTrack, Light, LightTrack, Model, Node, NodeTrack, ParticleEmitter2Track,
    ParticleEmitterTrack, RibbonEmitterTrack, TextureAnimationTrack, Track,
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
    let mut out = Vec::new();
    for (i, chunk) in model.chunks.iter().enumerate() {
        let kind = match chunk {
            Chunk::Bones(_) | Chunk::AlphaBones(_) => NodeKind::Bone,
            _ => NodeKind::Other,
        };
        let add = ChunkNodes {
            out: &mut out,
            at: format!("chunks[{i}].{}", chunk.tag()),
            kind,
        };
        match chunk {
            Chunk::Bones(c) => add.wc3("bones", &c.bones, |b| &b.node),
            Chunk::Lights(c) => add.wc3("lights", &c.lights, |l| &l.node),
            Chunk::Helpers(c) => add.wc3("helpers", &c.helpers, |h| &h.node),
            Chunk::Attachments(c) => add.wc3("attachments", &c.attachments, |a| &a.node),
            Chunk::ParticleEmitters(c) => add.wc3("emitters", &c.emitters, |e| &e.node),
            Chunk::ParticleEmitters2(c) => add.wc3("emitters", &c.emitters, |e| &e.node),
            Chunk::RibbonEmitters(c) => add.wc3("emitters", &c.emitters, |e| &e.node),
            Chunk::CornEmitters(c) => add.wc3("emitters", &c.emitters, |e| &e.node),
            Chunk::EventObjects(c) => add.wc3("objects", &c.objects, |e| &e.node),
            Chunk::CollisionShapes(c) => add.wc3("shapes", &c.shapes, |s| &s.node),
            // WoW alpha (v1300-1500): every object is an MDLGENOBJECT; its ids
            // follow the same rules (its tracks have other types: not timed here).
            Chunk::AlphaBones(c) => add.alpha("bones", &c.bones, |b| &b.object),
            Chunk::AlphaHelpers(c) => add.alpha("helpers", &c.helpers, |h| h),
            Chunk::AlphaAttachments(c) => add.alpha("attachments", &c.attachments, |a| &a.object),
            Chunk::AlphaLights(c) => add.alpha("lights", &c.lights, |l| &l.object),
            Chunk::AlphaParticleEmitters(c) => add.alpha("emitters", &c.emitters, |e| &e.object),
            Chunk::AlphaParticleEmitters2(c) => add.alpha("emitters", &c.emitters, |e| &e.object),
            Chunk::AlphaRibbonEmitters(c) => add.alpha("emitters", &c.emitters, |e| &e.object),
            Chunk::AlphaEvents(c) => add.alpha("events", &c.events, |e| &e.object),
            Chunk::AlphaHitTestShapes(c) => {
                add.alpha("hit_test_shapes", &c.hit_test_shapes, |h| &h.object);
            }
            _ => {}
        }
    }
    out
}

/// Adds the nodes of one chunk, at `{at}.{list}[n]` (`at` is `chunks[i].TAG`).
struct ChunkNodes<'o, 'm> {
    out: &'o mut Vec<NodeAt<'m>>,
    at: String,
    kind: NodeKind,
}

impl<'m> ChunkNodes<'_, 'm> {
    /// Warcraft III / Reforged objects: their `Node`, with its tracks.
    fn wc3<T>(self, list: &str, objects: &'m [T], node: impl Fn(&'m T) -> &'m Node) {
        for (n, node) in objects.iter().map(node).enumerate() {
            self.out.push(NodeAt {
                at: format!("{}.{list}[{n}].node", self.at),
                object_id: node.object_id,
                parent_id: node.parent_id,
                kind: self.kind,
                tracks: Some(&node.tracks),
            });
        }
    }

    /// WoW alpha objects: their MDLGENOBJECT.
    fn alpha<T>(self, list: &str, objects: &'m [T], object: impl Fn(&'m T) -> &'m GenObject) {
        for (n, object) in objects.iter().map(object).enumerate() {
            self.out.push(NodeAt {
                at: format!("{}.{list}[{n}]", self.at),
                object_id: object.object_id,
                parent_id: object.parent_id,
                kind: self.kind,
                tracks: None,
            });
        }
    }
}

/// A track seen through its timing and values: its clock, its keys'
/// frames, and the numbers of each key's value (and tangents).
pub(super) struct Timing {
    /// The track's tag (`KGTR`, `KMTF`, ...; `KEVT` for an event object's).
    pub tag: FourCC,
    /// Index into `GLBS`, or -1 for the sequences' clock.
    pub global_sequence_id: i32,
    /// How values between keys are found (`None` for event tracks).
    pub interpolation: Interpolation,
    /// The keys' frames, in file order.
    pub frames: Vec<i32>,
    /// How many numbers a value has (1, 3 or 4; 0 for event tracks).
    pub width: usize,
    /// The keys' values, `width` numbers each, in file order.
    pub values: Vec<f32>,
    /// Hermite and bezier tracks: each key's in and out tangents, `2 *
    /// width` numbers each (empty otherwise, or when they are missing).
    pub tangents: Vec<f32>,
}

impl Timing {
    /// Key `k`'s value (empty for event tracks and keys out of range).
    pub fn value(&self, k: usize) -> &[f32] {
        self.values
            .get(k * self.width..(k + 1) * self.width)
            .unwrap_or(&[])
    }

    /// Key `k`'s in and out tangents, if the track has them.
    pub fn tangents(&self, k: usize) -> Option<(&[f32], &[f32])> {
        let w = self.width;
        let both = self.tangents.get(2 * k * w..2 * (k + 1) * w)?;
        Some(both.split_at(w))
    }

    /// An event object's track: frames only.
    fn events(global_sequence_id: i32, frames: &[u32]) -> Timing {
        Timing {
            tag: FourCC::of("KEVT"),
            global_sequence_id,
            interpolation: Interpolation::None,
            // Frames past i32::MAX read as negative, as the game reads them.
            frames: frames.iter().map(|f| *f as i32).collect(),
            width: 0,
            values: Vec::new(),
            tangents: Vec::new(),
        }
    }

    /// A keyframe track with its tag.
    fn of<T: Numbers>(tag: FourCC, t: &Track<T>) -> Timing {
        let mut values = Vec::with_capacity(t.keys.len() * T::WIDTH);
        for key in &t.keys {
            key.value.push_to(&mut values);
        }
        let mut tangents = Vec::new();
        if t.interpolation_type.has_tangents() && t.tangents.len() == t.keys.len() {
            tangents.reserve(t.keys.len() * 2 * T::WIDTH);
            for pair in &t.tangents {
                pair.in_tan.push_to(&mut tangents);
                pair.out_tan.push_to(&mut tangents);
            }
        }
        Timing {
            tag,
            global_sequence_id: t.global_sequence_id,
            interpolation: t.interpolation_type,
            frames: t.keys.iter().map(|k| k.frame).collect(),
            width: T::WIDTH,
            values,
            tangents,
        }
    }
}

/// A track value as numbers (a texture id as a float).
trait Numbers {
    /// How many.
    const WIDTH: usize;
    /// Appends them to `out`.
    fn push_to(&self, out: &mut Vec<f32>);
}

impl Numbers for f32 {
    const WIDTH: usize = 1;
    fn push_to(&self, out: &mut Vec<f32>) {
        out.push(*self);
    }
}

impl Numbers for u32 {
    const WIDTH: usize = 1;
    fn push_to(&self, out: &mut Vec<f32>) {
        out.push(*self as f32);
    }
}

impl<const N: usize> Numbers for [f32; N] {
    const WIDTH: usize = N;
    fn push_to(&self, out: &mut Vec<f32>) {
        out.extend_from_slice(self);
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
                    $( $enum::$variant(t) => Some((stringify!($variant), Timing::of(self.tag(), t))), )*
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
        let at = format!("chunks[{i}].{}", chunk.tag());
        match chunk {
            Chunk::Materials(c) => {
                for (m, material) in c.materials.iter().enumerate() {
                    for (l, layer) in material.layers.iter().enumerate() {
                        let at = format!("{at}.materials[{m}].layers[{l}]");
                        for (t, entry) in layer.textures.iter().flatten().enumerate() {
                            if let Some(track) = &entry.texture_id_track {
                                let at = format!("{at}.textures[{t}].texture_id_track");
                                visit(&at, &Timing::of(FourCC::of("KMTF"), track));
                            }
                        }
                        list(&at, &layer.tracks, visit);
                    }
                }
            }
            Chunk::TextureAnimations(c) => {
                each(&at, "animations", &c.animations, |a| &a.tracks, visit)
            }
            Chunk::GeosetAnimations(c) => {
                each(&at, "animations", &c.animations, |a| &a.tracks, visit)
            }
            Chunk::Lights(c) => each(&at, "lights", &c.lights, Light::all_tracks, visit),
            Chunk::Attachments(c) => each(&at, "attachments", &c.attachments, |a| &a.tracks, visit),
            Chunk::ParticleEmitters(c) => each(&at, "emitters", &c.emitters, |e| &e.tracks, visit),
            Chunk::ParticleEmitters2(c) => each(&at, "emitters", &c.emitters, |e| &e.tracks, visit),
            Chunk::RibbonEmitters(c) => each(&at, "emitters", &c.emitters, |e| &e.tracks, visit),
            Chunk::CornEmitters(c) => each(&at, "emitters", &c.emitters, |e| &e.tracks, visit),
            Chunk::Cameras(c) => each(&at, "cameras", &c.cameras, |k| &k.tracks, visit),
            Chunk::EventObjects(c) => {
                for (e, event) in c.objects.iter().enumerate() {
                    if let Some(track) = &event.track {
                        let timing = Timing::events(track.global_sequence_id, &track.tracks);
                        visit(&format!("{at}.objects[{e}].track"), &timing);
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

/// The tracks of each object of `objects` (`tracks` picks them), at
/// `{at}.{objects_list}[n]`.
fn each<'m, O, T: Timed + 'm, I: IntoIterator<Item = &'m T>>(
    at: &str,
    objects_list: &str,
    objects: &'m [O],
    tracks: impl Fn(&'m O) -> I,
    visit: &mut dyn FnMut(&str, &Timing),
) {
    for (n, object) in objects.iter().enumerate() {
        list(&format!("{at}.{objects_list}[{n}]"), tracks(object), visit);
    }
}

/// Each track of `tracks` as `{at}.tracks[t].Name`.
fn list<'m, T: Timed + 'm>(
    at: &str,
    tracks: impl IntoIterator<Item = &'m T>,
    visit: &mut dyn FnMut(&str, &Timing),
) {
    for (t, track) in tracks.into_iter().enumerate() {
        if let Some((name, timing)) = track.timing() {
            visit(&format!("{at}.tracks[{t}].{name}"), &timing);
        }
    }
}

/// A layer's texture-id tracks (`KMTF`), with their paths under the layer's
/// `at`: its texture entries' (from version 1100), then its own.
pub(super) fn texture_id_tracks<'l>(
    at: &str,
    layer: &'l Layer,
) -> impl Iterator<Item = (String, &'l Track<u32>)> {
    let entries = layer.textures.iter().flatten().enumerate();
    let entries = entries.filter_map(move |(t, entry)| {
        let track = entry.texture_id_track.as_ref()?;
        Some((format!("{at}.textures[{t}].texture_id_track"), track))
    });
    let own = layer
        .tracks
        .iter()
        .enumerate()
        .filter_map(move |(t, track)| match track {
            LayerTrack::TextureId(track) => Some((format!("{at}.tracks[{t}].TextureId"), track)),
            _ => None,
        });
    entries.chain(own)
}
