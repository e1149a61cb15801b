//! What shows and how much: geoset animation alpha and colour (`GEOA`:
//! `KGAO`, `KGAC`), layer alpha (`KMTA`), and visibility tracks (`KATV`,
//! `KLAV`, `KPEV`, `KP2V`, `KRVS`, alpha `KVIS`), which the game steps
//! whatever interpolation they declare.

use super::sample::Sampler;
use crate::mdx::alpha::{GeosetAnimTrack, TexLayer, TexLayerTrack};
use crate::mdx::{GeosetAnimationTrack, Interpolation, Layer, LayerTrack, Model, Track};

/// A geoset's animated alpha and colour at a moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeosetState {
    /// Opacity, 0 (hidden) to 1.
    pub alpha: f32,
    /// Colour as red, green, blue (the file stores blue, green, red); white
    /// when the geoset animation does not use colour.
    pub color: [f32; 3],
}

impl GeosetState {
    /// Opaque and white: a geoset without a geoset animation.
    pub const SHOWN: GeosetState = GeosetState {
        alpha: 1.0,
        color: [1.0; 3],
    };
}

/// `GeosetAnimation.flags` bit: the colour applies.
const USE_COLOR: u32 = 0x2;
/// Alpha `MDLGEOSETANIMSECTION.flags` bit: the colour applies.
const ALPHA_USE_COLOR: u32 = 0x1;

/// Geoset `geoset`'s alpha and colour at the sampler's moment, from the
/// first geoset animation that names it (Warcraft III or alpha).
pub fn geoset_state(model: &Model, geoset: usize, sampler: &Sampler<'_>) -> GeosetState {
    let rgb = |[b, g, r]: [f32; 3]| [r, g, b];
    let names = |id: u32| usize::try_from(id).ok() == Some(geoset);
    if let Some(anim) = model
        .geoset_animations()
        .iter()
        .find(|a| names(a.geoset_id))
    {
        let mut state = GeosetState {
            alpha: anim.alpha,
            color: anim.color,
        };
        for track in &anim.tracks {
            match track {
                GeosetAnimationTrack::Alpha(t) => state.alpha = sampler.sample(t, &anim.alpha),
                GeosetAnimationTrack::Color(t) => state.color = sampler.sample(t, &anim.color),
                GeosetAnimationTrack::Unknown(_) => {}
            }
        }
        let use_color = anim.flags & USE_COLOR != 0;
        return GeosetState {
            alpha: state.alpha,
            color: if use_color {
                rgb(state.color)
            } else {
                [1.0; 3]
            },
        };
    }
    if let Some(anim) = model
        .alpha_geoset_animations()
        .iter()
        .find(|a| names(a.geoset_id))
    {
        let (mut alpha, mut color) = (anim.static_alpha, anim.static_color);
        for track in &anim.tracks {
            match track {
                GeosetAnimTrack::Alpha(t) => alpha = sampler.sample(t, &anim.static_alpha),
                GeosetAnimTrack::Color(t) => color = sampler.sample(t, &anim.static_color),
                GeosetAnimTrack::Unknown(_) => {}
            }
        }
        let use_color = anim.flags & ALPHA_USE_COLOR != 0;
        return GeosetState {
            alpha,
            color: if use_color { rgb(color) } else { [1.0; 3] },
        };
    }
    GeosetState::SHOWN
}

/// The alpha track (`KGAO`) of the first geoset animation that names
/// geoset `geoset` (Warcraft III or alpha), the one [`geoset_state`] plays:
/// its keys are where the geoset can appear or vanish.
pub fn geoset_alpha_track(model: &Model, geoset: usize) -> Option<&Track<f32>> {
    geoset_track(
        model,
        geoset,
        |t| match t {
            GeosetAnimationTrack::Alpha(t) => Some(t),
            _ => None,
        },
        |t| match t {
            GeosetAnimTrack::Alpha(t) => Some(t),
            _ => None,
        },
    )
}

/// The colour track (`KGAC`) of the first geoset animation that names
/// geoset `geoset` (Warcraft III or alpha), the one [`geoset_state`] plays.
pub fn geoset_color_track(model: &Model, geoset: usize) -> Option<&Track<[f32; 3]>> {
    geoset_track(
        model,
        geoset,
        |t| match t {
            GeosetAnimationTrack::Color(t) => Some(t),
            _ => None,
        },
        |t| match t {
            GeosetAnimTrack::Color(t) => Some(t),
            _ => None,
        },
    )
}

/// The track `classic` (or, in an alpha model, `alpha`) picks from the
/// first geoset animation that names geoset `geoset`.
fn geoset_track<'m, T>(
    model: &'m Model,
    geoset: usize,
    classic: impl Fn(&'m GeosetAnimationTrack) -> Option<&'m Track<T>>,
    alpha: impl Fn(&'m GeosetAnimTrack) -> Option<&'m Track<T>>,
) -> Option<&'m Track<T>> {
    let names = |id: u32| usize::try_from(id).ok() == Some(geoset);
    if let Some(anim) = model
        .geoset_animations()
        .iter()
        .find(|a| names(a.geoset_id))
    {
        return anim.tracks.iter().find_map(classic);
    }
    let anim = model
        .alpha_geoset_animations()
        .iter()
        .find(|a| names(a.geoset_id))?;
    anim.tracks.iter().find_map(alpha)
}

/// A Warcraft III layer's alpha track (`KMTA`).
pub fn layer_alpha_track(layer: &Layer) -> Option<&Track<f32>> {
    layer.tracks.iter().find_map(|t| match t {
        LayerTrack::Alpha(t) => Some(t),
        _ => None,
    })
}

/// A Warcraft III layer's alpha at the sampler's moment (`KMTA`, or its static alpha).
pub fn layer_alpha(layer: &Layer, sampler: &Sampler<'_>) -> f32 {
    sampler.sample_or(layer_alpha_track(layer), &layer.alpha)
}

/// An alpha layer's alpha track (`KMTA`).
pub fn tex_layer_alpha_track(layer: &TexLayer) -> Option<&Track<f32>> {
    layer.tracks.iter().find_map(|t| match t {
        TexLayerTrack::Alpha(t) => Some(t),
        _ => None,
    })
}

/// An alpha layer's alpha at the sampler's moment.
pub fn tex_layer_alpha(layer: &TexLayer, sampler: &Sampler<'_>) -> f32 {
    sampler.sample_or(tex_layer_alpha_track(layer), &layer.static_alpha)
}

/// A visibility track's value, stepped (the game forces interpolation none
/// on them): visible above 0. Without a track a node is visible (1).
pub fn visibility(track: Option<&Track<f32>>, sampler: &Sampler<'_>) -> f32 {
    match track {
        Some(track) => sampler.sample_as(track, Interpolation::None, &1.0),
        None => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::Timeline;
    use crate::mdx::{GeosetAnimation, Key};

    #[test]
    fn a_geoset_fades_out_and_takes_its_colour_in_rgb() {
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        model.geoset_animations_mut().push(GeosetAnimation {
            alpha: 1.0,
            flags: USE_COLOR,
            color: [0.0, 0.5, 1.0],
            geoset_id: 0,
            tracks: vec![GeosetAnimationTrack::Alpha(Track::new(
                Interpolation::Linear,
                vec![Key::new(0, 1.0), Key::new(1000, 0.0)],
            ))],
        });
        let timeline = Timeline::from_model(&model);
        let at = |ms| Sampler::new(&timeline, timeline.at(0, ms).unwrap());
        let state = geoset_state(&model, 0, &at(250.0));
        assert_eq!(state.alpha, 0.75);
        assert_eq!(state.color, [1.0, 0.5, 0.0]);
        assert_eq!(geoset_state(&model, 1, &at(250.0)), GeosetState::SHOWN);
    }

    #[test]
    fn layer_alpha_follows_its_track_and_else_its_static_value() {
        let model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        let timeline = Timeline::from_model(&model);
        let at = |ms| Sampler::new(&timeline, timeline.at(0, ms).unwrap());
        let mut layer = model.materials()[0].layers[0].clone();
        layer.alpha = 0.5;
        layer.tracks.clear();
        assert_eq!(layer_alpha(&layer, &at(100.0)), 0.5);
        layer.tracks.push(LayerTrack::Alpha(Track::new(
            Interpolation::Linear,
            vec![Key::new(0, 0.0), Key::new(1000, 1.0)],
        )));
        assert_eq!(layer_alpha(&layer, &at(100.0)), 0.1);
        let alpha_layer = TexLayer {
            static_alpha: 0.25,
            tracks: vec![TexLayerTrack::Alpha(Track::new(
                Interpolation::None,
                vec![Key::new(0, 1.0), Key::new(500, 0.0)],
            ))],
            ..Default::default()
        };
        assert_eq!(tex_layer_alpha(&alpha_layer, &at(499.0)), 1.0);
        assert_eq!(tex_layer_alpha(&alpha_layer, &at(500.0)), 0.0);
    }

    #[test]
    fn visibility_steps_even_on_a_linear_track() {
        let timeline =
            Timeline::from_model(&Model::from_bytes(&crate::sample::sample_mdx()).unwrap());
        let track = Track::new(
            Interpolation::Linear,
            vec![Key::new(0, 1.0), Key::new(500, 0.0)],
        );
        let at = |ms| Sampler::new(&timeline, timeline.at(0, ms).unwrap());
        assert_eq!(visibility(Some(&track), &at(499.0)), 1.0);
        assert_eq!(visibility(Some(&track), &at(500.0)), 0.0);
        assert_eq!(visibility(None, &at(0.0)), 1.0);
    }
}
