//! Geosets shown and hidden as their geoset animations do
//! ([`ExportOptions::geoset_visibility`](crate::gltf::ExportOptions::geoset_visibility)):
//! each geoset node's `KHR_node_visibility` at rest, and its curve in each
//! sequence for a `KHR_animation_pointer` channel.

use gltf_json as json;
use json::Index;
use json::animation::Interpolation as GltfInterpolation;

use super::curve::{Curve, Span, key_moments};
use crate::anim::{Moment, Sampler, Timeline, geoset_alpha_track, geoset_state};
use crate::gltf::builder::Builder;
use crate::mdx::Model;

/// The extension a geoset node's visibility is in.
const NODE_VISIBILITY: &str = "KHR_node_visibility";

/// A node's `KHR_node_visibility` (recorded as used).
pub(super) fn node_extension(b: &mut Builder, visible: bool) -> json::extensions::scene::Node {
    b.use_extension(NODE_VISIBILITY, false);
    let mut others = serde_json::Map::new();
    others.insert(
        NODE_VISIBILITY.to_string(),
        serde_json::json!({ "visible": visible }),
    );
    json::extensions::scene::Node {
        others,
        ..Default::default()
    }
}

/// The JSON pointer to `node`'s visibility.
pub(super) fn visible_pointer(node: Index<json::Node>) -> String {
    format!(
        "/nodes/{}/extensions/{NODE_VISIBILITY}/visible",
        node.value()
    )
}

/// The geosets whose nodes are shown and hidden as the model's geoset
/// animations do (`KHR_node_visibility`, animated by `KHR_animation_pointer`):
/// a geoset is shown where its alpha is above 0, as
/// `formats::render` draws posed models.
pub(super) struct GeosetVisibility<'a> {
    model: &'a Model,
    /// Each geoset with its node and whether it shows at rest.
    geosets: Vec<(usize, Index<json::Node>, bool)>,
}

impl<'a> GeosetVisibility<'a> {
    /// The geosets of `model` on these nodes, each with whether it shows at
    /// rest ([`at_rest`](Self::at_rest)).
    pub(super) fn new(model: &'a Model, geosets: Vec<(usize, Index<json::Node>, bool)>) -> Self {
        GeosetVisibility { model, geosets }
    }

    /// Whether geoset `geoset` shows when no sequence plays (`None` when its
    /// visibility never changes: no geoset animation alpha, and shown).
    pub(super) fn at_rest(model: &Model, timeline: &Timeline, geoset: usize) -> Option<bool> {
        let shown = geoset_state(model, geoset, &Sampler::new(timeline, Moment::BIND)).alpha > 0.0;
        (!shown || geoset_alpha_track(model, geoset).is_some()).then_some(shown)
    }

    /// For each geoset whose visibility changes in a sequence or differs
    /// from its rest, its node and its curve in each span (a geoset shown
    /// throughout every span and at rest gets none).
    pub(super) fn curves(&self, spans: &[Span<'_>]) -> Vec<(Index<json::Node>, Vec<Shown>)> {
        self.geosets
            .iter()
            .filter_map(|&(geoset, node, at_rest)| {
                let at_rest = u8::from(at_rest);
                let curves: Vec<_> = spans
                    .iter()
                    .map(|span| visibility_curve(span, self.model, geoset))
                    .collect();
                let changes = curves
                    .iter()
                    .any(|c| c.values.iter().any(|v| v[0] != at_rest));
                changes.then_some((node, curves))
            })
            .collect()
    }

    /// How many values the curves of `span` hold at most (the times
    /// [`visibility_curve`] samples each geoset at), and how many curves
    /// there are.
    pub(super) fn values_needed(&self, span: &Span<'_>) -> (u64, u64) {
        let grid = span.resample_len();
        let values = self
            .geosets
            .iter()
            .map(|&(geoset, ..)| {
                let moments =
                    geoset_alpha_track(self.model, geoset).map_or(0, |t| span.moments_len(t));
                grid.saturating_add(moments.saturating_mul(2))
            })
            .fold(0u64, u64::saturating_add);
        (values, self.geosets.len() as u64)
    }
}

/// A geoset's visibility keys over one sequence: 1 shown, 0 hidden.
type Shown = Curve<[u8; 1]>;

/// Geoset `geoset`'s visibility over `span` as `STEP` keys (1 shown, 0
/// hidden), sampled as
/// [`ExportOptions::geoset_visibility`](crate::gltf::ExportOptions::geoset_visibility)
/// says.
fn visibility_curve(span: &Span<'_>, model: &Model, geoset: usize) -> Shown {
    let duration = span.duration_ms();
    // At whole milliseconds, the game's frames: a 1/30 s sample a float
    // past a key's millisecond would otherwise be a second sample at one
    // `f32` time, or overrule the key's own state there.
    let mut times: Vec<f64> = span.resample_times().iter().map(|t| t.round()).collect();
    if let Some(track) = geoset_alpha_track(model, geoset) {
        let keys = key_moments(span, track);
        times.extend(
            keys.into_iter()
                .flat_map(|at| [at, at + 1.0])
                .filter(|t| (0.0..=duration).contains(t)),
        );
        times.sort_by(f64::total_cmp);
        times.dedup();
    }
    let mut curve = Curve {
        interpolation: GltfInterpolation::Step,
        times: Vec::new(),
        values: Vec::new(),
    };
    for ms in times {
        let shown = [u8::from(
            geoset_state(model, geoset, &span.sampler(ms)).alpha > 0.0,
        )];
        let seconds = (ms / 1000.0) as f32;
        // Hours into a sequence, milliseconds apart can be one `f32`, and
        // glTF wants times that increase: the later state holds there.
        if curve.times.last() == Some(&seconds) {
            curve.times.pop();
            curve.values.pop();
        }
        if curve.values.last() != Some(&shown) {
            curve.times.push(seconds);
            curve.values.push(shown);
        }
    }
    curve
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gltf::model::fixtures::timeline;
    use crate::mdx::{Interpolation, Key, Track};

    /// The sample model with geoset 0 animated by `alpha`.
    fn model_with_alpha(alpha: Track<f32>) -> Model {
        let mut model = Model::from_bytes(&crate::sample::sample_mdx()).unwrap();
        model
            .geoset_animations_mut()
            .push(crate::mdx::GeosetAnimation {
                alpha: 1.0,
                geoset_id: 0,
                tracks: vec![crate::mdx::GeosetAnimationTrack::Alpha(alpha)],
                ..Default::default()
            });
        model
    }

    #[test]
    fn a_geoset_is_hidden_from_the_frame_its_alpha_reaches_0_to_the_last_it_is_0() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        // Walk is 1000 to 1600: fades out by 1300, stays out, fades in from 1400.
        let model = model_with_alpha(Track::new(
            Interpolation::Linear,
            vec![
                Key::new(1000, 1.0),
                Key::new(1300, 0.0),
                Key::new(1400, 0.0),
                Key::new(1500, 1.0),
            ],
        ));
        let curve = visibility_curve(&span, &model, 0);
        assert_eq!(curve.interpolation, GltfInterpolation::Step);
        assert_eq!(curve.times, [0.0, 0.3, 0.401]);
        assert_eq!(curve.values, [[1], [0], [1]]);
        // Another geoset, not animated: shown throughout.
        let other = visibility_curve(&span, &model, 1);
        assert_eq!((other.times, other.values), (vec![0.0], vec![[1]]));
    }

    #[test]
    fn a_global_sequence_hides_a_geoset_in_each_of_its_loops() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        // A 250 ms loop, shown for its first 100 ms, over a 600 ms sequence.
        let mut alpha = Track::new(
            Interpolation::None,
            vec![Key::new(0, 1.0), Key::new(100, 0.0)],
        );
        alpha.global_sequence_id = 0;
        assert_eq!(
            key_moments(&span, &alpha),
            [0.0, 0.0, 100.0, 250.0, 250.0, 350.0, 500.0, 500.0, 600.0]
        );
        let curve = visibility_curve(&span, &model_with_alpha(alpha), 0);
        // The sequence's last frame, 600, is 100 ms into the third loop.
        assert_eq!(curve.times, [0.0, 0.1, 0.25, 0.35, 0.5, 0.6]);
        assert_eq!(curve.values, [[1], [0], [1], [0], [1], [0]]);
    }
}
