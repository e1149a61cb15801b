//! Geoset colour and alpha as material colour: a material of each
//! geoset's own where its colour differs from its material's or may
//! change, and its factor's curve in each sequence. What is exported how
//! is in the docs of
//! [`ExportOptions::material_colors`](crate::gltf::ExportOptions::material_colors).

use gltf_json as json;
use json::Index;
use json::material::PbrBaseColorFactor;

use super::curve::{Curve, Span, key_moments};
use crate::anim::{
    Moment, Sampler, Timeline, geoset_alpha_track, geoset_color_track, geoset_state, layer_alpha,
    layer_alpha_track, tex_layer_alpha, tex_layer_alpha_track,
};
use crate::gltf::builder::Builder;
use crate::mdx::alpha::TexLayer;
use crate::mdx::{Layer, Model, Track};

/// A material's colour factor: red, green, blue, alpha.
pub(super) type Rgba = [f32; 4];

/// The geosets exported with a material of their own, whose colour the
/// animations play.
#[derive(Default)]
pub(super) struct MaterialColors<'a> {
    model: Option<&'a Model>,
    /// Each geoset with its model material id, its own glTF material and
    /// its colour at rest.
    geosets: Vec<(usize, u32, Index<json::Material>, Rgba)>,
}

impl<'a> MaterialColors<'a> {
    /// For each geoset of `geosets` (each with its model material id) whose
    /// colour is not its material's or may change, a copy of its glTF
    /// material (from `shared`, by model material id) with the geoset's
    /// colour at rest.
    pub(super) fn add(
        b: &mut Builder,
        model: &'a Model,
        timeline: &Timeline,
        geosets: &[(usize, u32)],
        shared: &[Index<json::Material>],
    ) -> Self {
        let at_rest = Sampler::new(timeline, Moment::BIND);
        let mut own = Vec::new();
        for &(geoset, material) in geosets {
            let Some(&index) = shared.get(material as usize) else {
                continue;
            };
            let Some(base) = b.root().materials.get(index.value()).cloned() else {
                continue;
            };
            let rest = color(model, geoset, material, &at_rest);
            let moves = tracks(model, geoset, material).next().is_some();
            if !moves && base.pbr_metallic_roughness.base_color_factor.0 == rest {
                continue;
            }
            let mut copy = base;
            copy.name = Some(format!("Material {material} geoset {geoset}"));
            copy.pbr_metallic_roughness.base_color_factor = PbrBaseColorFactor(rest);
            own.push((geoset, material, b.push(copy), rest));
        }
        MaterialColors {
            model: Some(model),
            geosets: own,
        }
    }

    /// The materials made, each with the model material it copies.
    pub(super) fn materials(&self) -> impl Iterator<Item = (Index<json::Material>, u32)> + '_ {
        self.geosets
            .iter()
            .map(|&(_, material, index, _)| (index, material))
    }

    /// The geoset's own material, if it has one.
    pub(super) fn material(&self, geoset: usize) -> Option<Index<json::Material>> {
        self.geosets
            .iter()
            .find(|(g, ..)| *g == geoset)
            .map(|&(_, _, index, _)| index)
    }

    /// For each geoset whose colour changes in a sequence or differs from its
    /// rest, the JSON pointer to its material's factor and its curve in each
    /// span.
    pub(super) fn curves(&self, spans: &[Span<'_>]) -> Vec<(String, Vec<Curve<Rgba>>)> {
        let Some(model) = self.model else {
            return Vec::new();
        };
        self.geosets
            .iter()
            .filter_map(|&(geoset, material, index, rest)| {
                let curves: Vec<_> = spans
                    .iter()
                    .map(|span| color_curve(span, model, geoset, material))
                    .collect();
                let changes = curves.iter().any(|c| c.values.iter().any(|v| *v != rest));
                let pointer = format!(
                    "/materials/{}/pbrMetallicRoughness/baseColorFactor",
                    index.value()
                );
                changes.then_some((pointer, curves))
            })
            .collect()
    }

    /// How many values the curves of `span` hold at most (the times
    /// [`color_curve`] samples each geoset at), and how many curves there
    /// are.
    pub(super) fn values_needed(&self, span: &Span<'_>) -> (u64, u64) {
        let Some(model) = self.model else {
            return (0, 0);
        };
        let values = self
            .geosets
            .iter()
            .map(|&(geoset, material, ..)| {
                let moments = tracks(model, geoset, material)
                    .map(|track| track.moments_len(span))
                    .fold(0u64, u64::saturating_add);
                span.key_times_len(moments)
            })
            .fold(0u64, u64::saturating_add);
        (values, self.geosets.len() as u64)
    }
}

/// The colour factor of geoset `geoset` (of model material `material`) at
/// the sampler's moment.
pub(super) fn color(model: &Model, geoset: usize, material: u32, sampler: &Sampler<'_>) -> Rgba {
    let state = geoset_state(model, geoset, sampler);
    let layer = FirstLayer::of(model, material).map_or(1.0, |l| l.alpha(sampler));
    let unit = |c: f32| {
        if c.is_finite() {
            c.clamp(0.0, 1.0)
        } else {
            1.0
        }
    };
    let [r, g, b] = state.color.map(unit);
    [r, g, b, unit(state.alpha) * unit(layer)]
}

/// The first layer of a model material, either version's.
enum FirstLayer<'m> {
    Classic(&'m Layer),
    Alpha(&'m TexLayer),
}

impl<'m> FirstLayer<'m> {
    /// The first layer of model material `material` (Warcraft III
    /// materials first, then alpha ones, as the materials are exported).
    fn of(model: &'m Model, material: u32) -> Option<Self> {
        let m = material as usize;
        match model.materials().get(m) {
            Some(material) => material.layers.first().map(FirstLayer::Classic),
            None => model
                .alpha_materials()
                .get(m.wrapping_sub(model.materials().len()))?
                .tex_layers
                .first()
                .map(FirstLayer::Alpha),
        }
    }

    fn alpha(&self, sampler: &Sampler<'_>) -> f32 {
        match self {
            FirstLayer::Classic(layer) => layer_alpha(layer, sampler),
            FirstLayer::Alpha(layer) => tex_layer_alpha(layer, sampler),
        }
    }

    fn alpha_track(&self) -> Option<&'m Track<f32>> {
        match self {
            FirstLayer::Classic(layer) => layer_alpha_track(layer),
            FirstLayer::Alpha(layer) => tex_layer_alpha_track(layer),
        }
    }
}

/// A track the colour of a geoset follows.
enum AnyTrack<'m> {
    Alpha(&'m Track<f32>),
    Color(&'m Track<[f32; 3]>),
}

impl AnyTrack<'_> {
    fn moments_len(&self, span: &Span<'_>) -> u64 {
        match self {
            AnyTrack::Alpha(t) => span.moments_len(t),
            AnyTrack::Color(t) => span.moments_len(t),
        }
    }

    fn moments(&self, span: &Span<'_>) -> Vec<f64> {
        match self {
            AnyTrack::Alpha(t) => key_moments(span, t),
            AnyTrack::Color(t) => key_moments(span, t),
        }
    }
}

/// The tracks the colour of geoset `geoset` follows, those there are: the
/// geoset animation's alpha and colour, its material's first layer's alpha.
fn tracks<'m>(
    model: &'m Model,
    geoset: usize,
    material: u32,
) -> impl Iterator<Item = AnyTrack<'m>> + 'm {
    let layer = FirstLayer::of(model, material).and_then(|l| l.alpha_track());
    [
        geoset_alpha_track(model, geoset).map(AnyTrack::Alpha),
        geoset_color_track(model, geoset).map(AnyTrack::Color),
        layer.map(AnyTrack::Alpha),
    ]
    .into_iter()
    .flatten()
}

/// The colour of geoset `geoset` over `span` (see
/// [`ExportOptions::material_colors`](crate::gltf::ExportOptions::material_colors)).
pub(super) fn color_curve(
    span: &Span<'_>,
    model: &Model,
    geoset: usize,
    material: u32,
) -> Curve<Rgba> {
    let moments = tracks(model, geoset, material).flat_map(|track| track.moments(span));
    let times = span.key_times(moments);
    let values = times
        .iter()
        .map(|&ms| color(model, geoset, material, &span.sampler(ms)))
        .collect();
    span.linear_curve(&times, values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gltf::model::fixtures::timeline;
    use crate::mdx::{GeosetAnimation, GeosetAnimationTrack, Interpolation, Key, LayerTrack};

    /// The sample model, geoset 0 with these geoset animation tracks (colour
    /// applied) and its material's first layer with these.
    fn model(geoset: Vec<GeosetAnimationTrack>, layer: Vec<LayerTrack>) -> Model {
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        model.geoset_animations_mut().push(GeosetAnimation {
            alpha: 1.0,
            flags: 2,
            color: [1.0; 3],
            geoset_id: 0,
            tracks: geoset,
        });
        let material = model.geosets()[0].material_id as usize;
        model.materials_mut()[material].layers[0].tracks = layer;
        model
    }

    /// The curve's value at `ms`, as glTF interpolates it.
    fn played(curve: &Curve<Rgba>, ms: u32) -> Rgba {
        let t = (f64::from(ms) / 1000.0) as f32;
        let next = curve.times.partition_point(|&x| x <= t);
        if next == 0 || next == curve.times.len() {
            return curve.values[next.saturating_sub(1)];
        }
        let (t0, t1) = (curve.times[next - 1], curve.times[next]);
        let s = (t - t0) / (t1 - t0);
        let (a, b) = (curve.values[next - 1], curve.values[next]);
        std::array::from_fn(|i| a[i] + s * (b[i] - a[i]))
    }

    /// The largest difference between the curve and the sampler over every
    /// whole millisecond of the sequence.
    fn worst(model: &Model, timeline: &Timeline) -> f32 {
        let span = Span::first(timeline);
        let material = model.geosets()[0].material_id;
        let curve = color_curve(&span, model, 0, material);
        assert_eq!(curve.interpolation, json::animation::Interpolation::Linear);
        assert!(curve.times.windows(2).all(|w| w[0] < w[1]));
        (0..=600)
            .map(|ms| {
                let want = color(model, 0, material, &span.sampler(f64::from(ms)));
                let got = played(&curve, ms);
                (0..4).map(|i| (got[i] - want[i]).abs()).fold(0.0, f32::max)
            })
            .fold(0.0, f32::max)
    }

    #[test]
    fn a_linear_fade_and_a_stepped_colour_are_exact_at_every_millisecond() {
        let fade = Track::new(
            Interpolation::Linear,
            vec![
                Key::new(1000, 1.0),
                Key::new(1250, 0.0),
                Key::new(1500, 0.5),
            ],
        );
        let tint = Track::new(
            Interpolation::None,
            vec![
                Key::new(1100, [0.0, 0.5, 1.0]),
                Key::new(1317, [1.0, 1.0, 0.0]),
            ],
        );
        let model = model(
            vec![
                GeosetAnimationTrack::Alpha(fade),
                GeosetAnimationTrack::Color(tint),
            ],
            vec![],
        );
        assert!(worst(&model, &timeline()) < 1e-6);
        // The colour is stored blue, green, red; the factor is red first.
        let timeline = timeline();
        let span = Span::first(&timeline);
        let at = color(
            &model,
            0,
            model.geosets()[0].material_id,
            &span.sampler(200.0),
        );
        let want = [1.0, 0.5, 0.0, 0.2];
        assert!((0..4).all(|i| (at[i] - want[i]).abs() < 1e-6), "{at:?}");
    }

    #[test]
    fn a_stepped_layer_alpha_is_exact_and_closes_on_its_opening_value() {
        let blink = Track::new(
            Interpolation::None,
            vec![
                Key::new(1000, 1.0),
                Key::new(1200, 0.25),
                Key::new(1400, 0.0),
            ],
        );
        let model = model(vec![], vec![LayerTrack::Alpha(blink)]);
        assert!(worst(&model, &timeline()) < 1e-6);
    }

    #[test]
    fn two_alphas_moving_together_stay_within_the_resampling_error() {
        let fade = |from: f32| {
            Track::new(
                Interpolation::Linear,
                vec![Key::new(1000, from), Key::new(1600, 1.0 - from)],
            )
        };
        let model = model(
            vec![GeosetAnimationTrack::Alpha(fade(1.0))],
            vec![LayerTrack::Alpha(fade(0.0))],
        );
        // Their product t (1 - t), t = s / 0.6 s, is a parabola: a line
        // through samples h = 1/30 s apart is at most h^2 |f''| / 8 =
        // (1/30)^2 (2 / 0.6^2) / 8 = 7.7e-4 off (a little more where a
        // sample moved to a whole millisecond).
        let error = worst(&model, &timeline());
        assert!(error > 5e-4 && error < 9e-4, "{error}");
    }

    #[test]
    fn a_geoset_that_never_changes_gets_no_material_of_its_own() {
        let mut b = Builder::new("test");
        let model = model(vec![], vec![]);
        let timeline = timeline();
        let shared = vec![b.push(json::Material {
            pbr_metallic_roughness: json::material::PbrMetallicRoughness {
                base_color_factor: PbrBaseColorFactor([1.0; 4]),
                ..Default::default()
            },
            ..Default::default()
        })];
        let material = model.geosets()[0].material_id;
        let colors = MaterialColors::add(&mut b, &model, &timeline, &[(0, material)], &shared);
        assert_eq!(colors.material(0), None);
        let tinted = self::model(
            vec![GeosetAnimationTrack::Color(Track::new(
                Interpolation::Linear,
                vec![Key::new(1000, [0.0; 3])],
            ))],
            vec![],
        );
        let colors = MaterialColors::add(&mut b, &tinted, &timeline, &[(0, material)], &shared);
        assert!(colors.material(0).is_some());
    }
}
