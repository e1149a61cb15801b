//! Lights' colour, intensity and visibility tracks as curves of their
//! `KHR_lights_punctual` lights' `color` and `intensity` in each sequence.
//! What is exported how is in the docs of
//! [`ExportOptions::light_animations`](crate::gltf::ExportOptions::light_animations).

use gltf_json as json;
use json::Index;
use json::extensions::scene::khr_lights_punctual::Light;

use super::curve::{Curve, Span, key_moments};
use super::lights::{KHR_LIGHTS_PUNCTUAL, ModelLight, gltf_values};
use crate::anim::Sampler;
use crate::anim::visibility::visibility;

/// A light's colour (red, green, blue) and intensity at a moment.
pub(super) type LightState = ([f32; 3], f32);

/// The lights whose tracks the animations play.
#[derive(Default)]
pub(super) struct LightAnimations<'a> {
    lights: Vec<(Index<Light>, ModelLight<'a>)>,
}

/// One sequence's curves of a light.
pub(super) struct LightCurves {
    pub(super) color: Curve<[f32; 3]>,
    pub(super) intensity: Curve<[f32; 1]>,
}

impl<'a> LightAnimations<'a> {
    /// The lights of `added` (each its position in `lights` and its glTF
    /// light) that have a colour, intensity or visibility track.
    pub(super) fn new(lights: &[ModelLight<'a>], added: &[(usize, Index<Light>)]) -> Self {
        let lights = added
            .iter()
            .filter_map(|&(k, index)| {
                let light = lights.get(k)?;
                let t = &light.tracks;
                let animated = t.color.is_some() || t.intensity.is_some() || t.visibility.is_some();
                animated.then(|| (index, light.clone()))
            })
            .collect();
        LightAnimations { lights }
    }

    /// For each light whose colour or intensity changes in a sequence, the
    /// JSON pointer to its light (to which `/color` and `/intensity` are
    /// added) and its curves in each span.
    pub(super) fn curves(&self, spans: &[Span<'_>]) -> Vec<(String, Vec<LightCurves>)> {
        self.lights
            .iter()
            .filter_map(|(index, light)| {
                let curves: Vec<LightCurves> =
                    spans.iter().map(|span| light_curves(span, light)).collect();
                // The JSON light's own values.
                let rest = gltf_values(light.color, light.intensity);
                let changes = curves.iter().any(|c| {
                    c.color.values.iter().any(|v| *v != rest.0)
                        || c.intensity.values.iter().any(|v| *v != [rest.1])
                });
                let pointer = format!("/extensions/{KHR_LIGHTS_PUNCTUAL}/lights/{}", index.value());
                changes.then_some((pointer, curves))
            })
            .collect()
    }

    /// How many values the curves of `span` hold at most (each light's
    /// colour and intensity at the times [`light_curves`] samples), and
    /// how many curves there are.
    pub(super) fn values_needed(&self, span: &Span<'_>) -> (u64, u64) {
        let values = self
            .lights
            .iter()
            .map(|(_, light)| {
                let t = &light.tracks;
                let moments = [t.intensity, t.visibility]
                    .into_iter()
                    .flatten()
                    .map(|track| span.moments_len(track))
                    .fold(
                        t.color.map_or(0, |c| span.moments_len(c)),
                        u64::saturating_add,
                    );
                // Two curves (colour, intensity) at every time.
                span.key_times_len(moments).saturating_mul(2)
            })
            .fold(0u64, u64::saturating_add);
        (values, 2 * self.lights.len() as u64)
    }
}

/// The light's colour and intensity at the sampler's moment.
pub(super) fn light_state(light: &ModelLight<'_>, sampler: &Sampler<'_>) -> LightState {
    let [r, g, b] = light.color;
    let color = match light.tracks.color {
        Some(track) => {
            let [b, g, r] = sampler.sample(track, &[b, g, r]);
            [r, g, b]
        }
        None => light.color,
    };
    let intensity = sampler.sample_or(light.tracks.intensity, &light.intensity);
    let shown = visibility(light.tracks.visibility, sampler) > 0.0;
    let (color, intensity) = gltf_values(color, intensity);
    (color, if shown { intensity } else { 0.0 })
}

/// The light's colour and intensity over `span`.
fn light_curves(span: &Span<'_>, light: &ModelLight<'_>) -> LightCurves {
    let t = &light.tracks;
    let mut moments = Vec::new();
    if let Some(track) = t.color {
        moments.extend(key_moments(span, track));
    }
    for track in [t.intensity, t.visibility].into_iter().flatten() {
        moments.extend(key_moments(span, track));
    }
    let times = span.key_times(moments);
    let states: Vec<LightState> = times
        .iter()
        .map(|&ms| light_state(light, &span.sampler(ms)))
        .collect();
    LightCurves {
        color: span.linear_curve(&times, states.iter().map(|s| s.0).collect()),
        intensity: span.linear_curve(&times, states.iter().map(|s| [s.1]).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gltf::model::fixtures::timeline;
    use crate::gltf::model::lights::LightTracks;
    use crate::mdx::{Interpolation, Key, LightType, Track};

    #[test]
    fn colour_turns_round_visibility_hides_and_values_are_clamped() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        // Walk is 1000 to 1600.
        let color = Track::new(
            Interpolation::Linear,
            vec![
                Key::new(1000, [1.0, 0.5, 0.0]),
                Key::new(1600, [1.0, 0.5, 2.0]),
            ],
        );
        let intensity = Track::new(
            Interpolation::None,
            vec![Key::new(1000, -1.0), Key::new(1200, 3.0)],
        );
        let shown = Track::new(
            Interpolation::Linear,
            vec![Key::new(1000, 1.0), Key::new(1400, 0.0)],
        );
        let light = ModelLight {
            name: "torch".into(),
            object_id: 0,
            light_type: LightType::Omni,
            color: [0.0, 0.5, 1.0],
            intensity: -1.0,
            attenuation_end: 0.0,
            tracks: LightTracks {
                color: Some(&color),
                intensity: Some(&intensity),
                end: None,
                visibility: Some(&shown),
            },
        };
        // Stored blue, green, red: red first here; intensity clamped to 0.
        assert_eq!(
            light_state(&light, &span.sampler(0.0)),
            ([0.0, 0.5, 1.0], 0.0)
        );
        // Stepped: -1 (clamped) until 1200, then 3, shown until the
        // visibility key at 1400.
        assert_eq!(light_state(&light, &span.sampler(199.0)).1, 0.0);
        assert_eq!(light_state(&light, &span.sampler(200.0)).1, 3.0);
        assert_eq!(light_state(&light, &span.sampler(399.0)).1, 3.0);
        assert_eq!(light_state(&light, &span.sampler(400.0)).1, 0.0);
        // The red component passes 1 and is clamped.
        assert_eq!(light_state(&light, &span.sampler(600.0)).0, [1.0, 0.5, 1.0]);
        // The curves: intensity steps to 0 between 1399 and 1400.
        let curves = light_curves(&span, &light);
        let at = |ms: f32| {
            let t = ms / 1000.0;
            let k = curves.intensity.times.iter().position(|&x| x == t).unwrap();
            curves.intensity.values[k][0]
        };
        assert_eq!((at(399.0), at(400.0)), (3.0, 0.0));
    }
}
