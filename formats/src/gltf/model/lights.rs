//! The model's lights (either version's) as `KHR_lights_punctual` lights
//! on their nodes; the mapping is in the [`gltf`](crate::gltf#lights)
//! docs.

use gltf_json as json;
use json::Index;
use json::extensions::scene::khr_lights_punctual::{KhrLightsPunctual, Light, Type};
use json::validation::Checked;

use super::nodes::ModelNodes;
use crate::anim::{NodeKind, Skeleton};
use crate::gltf::builder::Builder;
use crate::mdx::{LightType, Model, Track, alpha};

/// The extension's name.
pub(super) const KHR_LIGHTS_PUNCTUAL: &str = "KHR_lights_punctual";

/// One light of the model, either version's, as exported.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ModelLight<'m> {
    /// As the model names it.
    pub(super) name: String,
    /// Its object id (its node's).
    pub(super) object_id: u32,
    /// Omni, directional or ambient.
    pub(super) light_type: LightType,
    /// Red, green, blue (the file's blue, green, red turned round).
    pub(super) color: [f32; 3],
    /// The intensity.
    pub(super) intensity: f32,
    /// The attenuation end.
    pub(super) attenuation_end: f32,
    /// Its tracks, for the animations.
    pub(super) tracks: LightTracks<'m>,
}

/// The value of a property with an optional track: the track's first key,
/// else the static value.
fn value<T: Copy>(track: Option<&Track<T>>, fixed: T) -> T {
    track
        .and_then(|t| t.keys.first())
        .map_or(fixed, |key| key.value)
}

/// A light's first colour, intensity, attenuation-end and visibility
/// tracks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct LightTracks<'m> {
    /// Colour (blue, green, red).
    pub(super) color: Option<&'m Track<[f32; 3]>>,
    /// Intensity.
    pub(super) intensity: Option<&'m Track<f32>>,
    /// Attenuation end.
    pub(super) end: Option<&'m Track<f32>>,
    /// Visibility (shown above 0).
    pub(super) visibility: Option<&'m Track<f32>>,
}

impl<'m> ModelLight<'m> {
    /// A light from its static colour (blue, green, red), intensity and
    /// attenuation end, each overridden by its track where it has one.
    fn new(
        (name, object_id, light_type): (String, u32, LightType),
        (color, intensity, end): ([f32; 3], f32, f32),
        tracks: LightTracks<'m>,
    ) -> ModelLight<'m> {
        let [b, g, r] = value(tracks.color, color);
        ModelLight {
            name,
            object_id,
            light_type,
            color: [r, g, b],
            intensity: value(tracks.intensity, intensity),
            attenuation_end: value(tracks.end, end),
            tracks,
        }
    }
}

/// Every light of `model` (classic `LITE`, then WoW alpha's).
pub(super) fn model_lights(model: &Model) -> Vec<ModelLight<'_>> {
    use crate::mdx::LightTrack as L;
    let classic = model.lights().iter().map(|l| {
        let mut t = LightTracks::default();
        for track in l.all_tracks() {
            match track {
                L::Color(c) => t.color = t.color.or(Some(c)),
                L::Intensity(i) => t.intensity = t.intensity.or(Some(i)),
                L::AttenuationEnd(e) => t.end = t.end.or(Some(e)),
                L::Visibility(v) => t.visibility = t.visibility.or(Some(v)),
                _ => {}
            }
        }
        let id = (l.node.name.to_string(), l.node.object_id, l.light_type);
        ModelLight::new(id, (l.color, l.intensity, l.attenuation_end), t)
    });
    let wow = model.alpha_lights().iter().map(|l| {
        let mut t = LightTracks::default();
        for track in &l.tracks {
            match track {
                alpha::LightTrack::Color(c) => t.color = t.color.or(Some(c)),
                alpha::LightTrack::Intensity(i) => t.intensity = t.intensity.or(Some(i)),
                alpha::LightTrack::AttenuationEnd(e) => t.end = t.end.or(Some(e)),
                alpha::LightTrack::Visibility(v) => t.visibility = t.visibility.or(Some(v)),
                _ => {}
            }
        }
        let id = (l.object.name.to_string(), l.object.object_id, l.light_type);
        let fixed = (l.static_color, l.static_intensity, l.static_atten_end);
        ModelLight::new(id, fixed, t)
    });
    classic.chain(wow).collect()
}

/// A colour (red, green, blue) and intensity as glTF takes them: each
/// colour component clamped to 0..1, the intensity to 0 or more, a
/// non-finite number as 0.
pub(super) fn gltf_values(color: [f32; 3], intensity: f32) -> ([f32; 3], f32) {
    let finite = |v: f32| if v.is_finite() { v } else { 0.0 };
    (
        color.map(|c| finite(c).clamp(0.0, 1.0)),
        finite(intensity).max(0.0),
    )
}

/// Adds a `KHR_lights_punctual` light for each omni and directional light
/// of `lights` and attaches it to the light's node (the first light node of
/// the skeleton with its object id not yet taken); ambient lights and
/// lights without a node are said in `warnings`. Returns the lights added,
/// each as its position in `lights` and its glTF light.
pub(super) fn add_lights(
    b: &mut Builder,
    lights: &[ModelLight<'_>],
    skeleton: &Skeleton,
    nodes: &ModelNodes,
    warnings: &mut Vec<String>,
) -> Vec<(usize, Index<Light>)> {
    let mut taken = std::collections::HashSet::new();
    let mut added = Vec::new();
    for (k, light) in lights.iter().enumerate() {
        let type_ = match light.light_type {
            LightType::Omni => Type::Point,
            LightType::Directional => Type::Directional,
            LightType::Ambient => {
                warnings.push(format!(
                    "light {:?}: an ambient light (glTF has none), left out",
                    light.name
                ));
                continue;
            }
            LightType::Other(n) => {
                warnings.push(format!(
                    "light {:?}: light type {n} is none of omni, directional, ambient, left out",
                    light.name
                ));
                continue;
            }
        };
        let found = skeleton.nodes().iter().enumerate().position(|(i, n)| {
            n.kind == NodeKind::Light && n.object_id == light.object_id && !taken.contains(&i)
        });
        let Some((i, &node)) = found.and_then(|i| Some((i, nodes.nodes.get(i)?))) else {
            warnings.push(format!("light {:?}: no node, left out", light.name));
            continue;
        };
        taken.insert(i);
        let end = light.attenuation_end;
        let (color, intensity) = gltf_values(light.color, light.intensity);
        let index = b.push(Light {
            color,
            extensions: None,
            extras: Default::default(),
            intensity,
            name: Some(light.name.clone()),
            range: (end > 0.0 && end.is_finite()).then_some(end),
            spot: None,
            type_: Checked::Valid(type_),
        });
        if let Some(node) = b.root_mut().nodes.get_mut(node.value()) {
            node.extensions
                .get_or_insert_with(Default::default)
                .khr_lights_punctual = Some(KhrLightsPunctual { light: index });
        }
        added.push((k, index));
    }
    if !added.is_empty() {
        b.use_extension(KHR_LIGHTS_PUNCTUAL, false);
    }
    added
}
