//! One glTF animation per sequence: the channels of the nodes
//! ([`node_curves`](super::node_curves)), of baked nodes ([`inherit`]),
//! of moving cameras, and what is pointed at through
//! `KHR_animation_pointer` (geoset visibility, material colours, texture
//! transforms, lights), within the values an export may hold, counted
//! before anything is made and as each channel is added. What is exported
//! how is in the [`gltf`](crate::gltf#animations) docs.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use gltf_json as json;
use json::Index;
use json::animation::Property;
use json::validation::Checked;

use super::cameras::ModelCamera;
use super::colors::MaterialColors;
use super::curve::{Curve, Span, linear_rotations};
use super::inherit;
use super::light_animations::LightAnimations;
use super::node_curves::{node_track_len, rotation_curve, vector_curve};
use super::nodes::{ModelNodes, Z_UP_TO_Y_UP, rest_translation};
use super::texture_transforms::TextureTransforms;
use super::visibility::{GeosetVisibility, visible_pointer};
use crate::anim::{Skeleton, Timeline};
use crate::gltf::builder::{Builder, Element};
use crate::gltf::error::ExportError;

/// The most values the animations of one export may hold (see the
/// [`gltf`](crate::gltf#what-an-export-may-hold) docs; the export times of
/// the public models that need the most are in `BENCHMARKS.md`).
pub(super) const MAX_ANIMATION_VALUES: u64 = 1 << 25;

/// What a channel counts beyond its values against
/// [`MAX_ANIMATION_VALUES`], for its JSON: its sampler, channel, two
/// accessors and two buffer views.
pub(super) const CHANNEL_VALUES: u64 = 96;

/// Builds channels of one animation.
struct Channels<'b> {
    builder: &'b mut Builder,
    samplers: Vec<json::animation::Sampler>,
    channels: Vec<json::animation::Channel>,
    /// Channels by JSON pointer (`KHR_animation_pointer`).
    pointers: Vec<(Index<json::animation::Sampler>, String)>,
    /// The values the export's channels hold so far, each channel's
    /// [`CHANNEL_VALUES`] included: the running charge against
    /// [`MAX_ANIMATION_VALUES`].
    spent: &'b mut u64,
    /// How many sequences the export has, for the error.
    sequences: usize,
}

impl Channels<'_> {
    /// A sampler of `curve`, charged; an error past [`MAX_ANIMATION_VALUES`].
    fn sampler<T: Element>(
        &mut self,
        curve: Curve<T>,
    ) -> Result<Index<json::animation::Sampler>, ExportError> {
        let values = (curve.values.len() as u64).saturating_add(CHANNEL_VALUES);
        *self.spent = self.spent.saturating_add(values);
        if *self.spent > MAX_ANIMATION_VALUES {
            return Err(too_many(false, *self.spent, self.sequences));
        }
        let input = self.builder.scalars(&curve.times);
        let output = self.builder.accessor(&curve.values, None, false);
        let sampler = Index::new(u32::try_from(self.samplers.len()).unwrap_or(u32::MAX));
        self.samplers.push(json::animation::Sampler {
            extensions: None,
            extras: Default::default(),
            input,
            interpolation: Checked::Valid(curve.interpolation),
            output,
        });
        Ok(sampler)
    }

    /// `curve` played on the property `pointer` names.
    fn add_pointer<T: Element>(
        &mut self,
        pointer: String,
        curve: Curve<T>,
    ) -> Result<(), ExportError> {
        let sampler = self.sampler(curve)?;
        self.pointers.push((sampler, pointer));
        Ok(())
    }

    fn add<T: Element>(
        &mut self,
        node: Index<json::Node>,
        property: Property,
        curve: Curve<T>,
    ) -> Result<(), ExportError> {
        let sampler = self.sampler(curve)?;
        self.channels.push(json::animation::Channel {
            sampler,
            target: json::animation::Target {
                extensions: None,
                extras: Default::default(),
                node,
                path: Checked::Valid(property),
            },
            extensions: None,
            extras: Default::default(),
        });
        Ok(())
    }
}

/// What the animations play through `KHR_animation_pointer` (each empty
/// unless asked for).
pub(super) struct Pointed<'a> {
    /// Geosets shown and hidden.
    pub(super) visibility: GeosetVisibility<'a>,
    /// Geosets' material colours.
    pub(super) colors: MaterialColors<'a>,
    /// Materials' texture transforms.
    pub(super) textures: TextureTransforms<'a>,
    /// Lights' colour and intensity.
    pub(super) lights: LightAnimations<'a>,
}

/// Which sequences become animations, and how their spline tracks do.
pub(super) struct Playback<'a> {
    /// Indices into the timeline's sequences.
    pub(super) sequences: &'a [usize],
    /// Hermite and bezier translations and scalings as resampled `LINEAR`
    /// keys rather than `CUBICSPLINE`
    /// ([`ExportOptions::resample_splines`](crate::gltf::ExportOptions::resample_splines)).
    pub(super) resample_splines: bool,
}

/// One animation for each sequence `playback` names, moving the skeleton's nodes and the nodes of the
/// cameras that move (`cameras`: each with its node), and what is
/// `pointed` at (geoset visibility, material colours, texture transforms,
/// lights); returns how many were added, or an
/// error when they would hold more than [`MAX_ANIMATION_VALUES`].
pub(super) fn add_animations(
    b: &mut Builder,
    timeline: &Timeline,
    skeleton: &Skeleton,
    nodes: &ModelNodes,
    cameras: &[(ModelCamera<'_>, Index<json::Node>)],
    pointed: &Pointed<'_>,
    playback: &Playback<'_>,
) -> Result<usize, ExportError> {
    let Pointed {
        visibility,
        colors,
        textures,
        lights,
    } = pointed;
    let fitted = Arc::new(AtomicU64::new(0));
    let spans: Vec<Span<'_>> = playback
        .sequences
        .iter()
        .filter_map(|&s| timeline.sequences.get(s))
        .map(|sequence| Span {
            resample_splines: playback.resample_splines,
            fitted: Arc::clone(&fitted),
            ..Span::new(timeline, sequence)
        })
        .collect();
    let baked = inherit::baked_nodes(skeleton);
    let needed = spans
        .iter()
        .map(|span| span_values(span, skeleton, cameras, pointed, &baked))
        .fold(0u64, u64::saturating_add);
    if needed > MAX_ANIMATION_VALUES {
        return Err(too_many(true, needed, spans.len()));
    }
    let mut spent = 0u64;
    let shown = visibility.curves(&spans);
    let tinted = colors.curves(&spans);
    let moving = textures.curves(&spans);
    let lit = lights.curves(&spans);
    let mut added = 0;
    for (k, span) in spans.iter().enumerate() {
        let sequence = span.sequence;
        let mut channels = Channels {
            builder: b,
            samplers: Vec::new(),
            channels: Vec::new(),
            pointers: Vec::new(),
            spent: &mut spent,
            sequences: spans.len(),
        };
        channels.add(nodes.root, Property::Rotation, span.constant(Z_UP_TO_Y_UP))?;
        for (node, curves) in &shown {
            if let Some(curve) = curves.get(k) {
                channels.add_pointer(visible_pointer(*node), curve.clone())?;
            }
        }
        for (pointer, curves) in &tinted {
            if let Some(curve) = curves.get(k) {
                channels.add_pointer(pointer.clone(), curve.clone())?;
            }
        }
        for (pointers, curves) in &moving {
            let Some(curve) = curves.get(k) else { continue };
            for pointer in pointers {
                channels.add_pointer(format!("{pointer}/offset"), curve.offset.clone())?;
                channels.add_pointer(format!("{pointer}/rotation"), curve.rotation.clone())?;
                channels.add_pointer(format!("{pointer}/scale"), curve.scale.clone())?;
            }
        }
        for (pointer, curves) in &lit {
            let Some(curve) = curves.get(k) else { continue };
            channels.add_pointer(format!("{pointer}/color"), curve.color.clone())?;
            channels.add_pointer(format!("{pointer}/intensity"), curve.intensity.clone())?;
        }
        for (i, curves) in inherit::curves(span, skeleton, &baked) {
            let Some(&target) = nodes.nodes.get(i) else {
                continue;
            };
            channels.add(target, Property::Translation, curves.translation)?;
            channels.add(target, Property::Rotation, curves.rotation)?;
            channels.add(target, Property::Scale, curves.scale)?;
        }
        for (i, (node, &target)) in skeleton.nodes().iter().zip(&nodes.nodes).enumerate() {
            if baked.get(i) == Some(&true) {
                continue;
            }
            if let Some(track) = &node.translation {
                let curve = vector_curve(span, track, [0.0; 3], rest_translation(skeleton, i));
                channels.add(target, Property::Translation, curve)?;
            }
            if let Some(track) = &node.rotation {
                channels.add(target, Property::Rotation, rotation_curve(span, track))?;
            }
            if let Some(track) = &node.scaling {
                channels.add(
                    target,
                    Property::Scale,
                    vector_curve(span, track, [1.0; 3], [0.0; 3]),
                )?;
            }
        }
        for (camera, node) in cameras.iter().filter(|(c, _)| c.moves()) {
            let Curve {
                interpolation,
                times,
                values,
            } = span.resample(|s| camera.transform(Some(s)));
            let (translations, rotations): (Vec<[f32; 3]>, Vec<[f32; 4]>) =
                values.into_iter().unzip();
            let translation = Curve {
                interpolation,
                times: times.clone(),
                values: translations,
            };
            channels.add(*node, Property::Translation, translation)?;
            let rotation = linear_rotations(Curve {
                interpolation,
                times,
                values: rotations,
            });
            channels.add(*node, Property::Rotation, rotation)?;
        }
        let Channels {
            samplers,
            channels,
            pointers,
            ..
        } = channels;
        let animation = json::Animation {
            extensions: None,
            extras: super::materials::mdx_extras(serde_json::json!({
                "interval": sequence.interval,
                "looping": sequence.looping,
            })),
            channels,
            name: Some(sequence.name.clone()),
            samplers,
        };
        b.push_animation(animation, pointers);
        added += 1;
    }
    Ok(added)
}

/// The values the animation of `span` will certainly take, counted as
/// the [`gltf`](crate::gltf#what-an-export-may-hold) docs say, before any
/// is made.
fn span_values(
    span: &Span<'_>,
    skeleton: &Skeleton,
    cameras: &[(ModelCamera<'_>, Index<json::Node>)],
    pointed: &Pointed<'_>,
    baked: &[bool],
) -> u64 {
    let mut values = 0u64;
    let mut channel = |n: u64| values = values.saturating_add(n).saturating_add(CHANNEL_VALUES);
    // The root's constant rotation.
    channel(span.constant_len());
    for (i, node) in skeleton.nodes().iter().enumerate() {
        if baked.get(i) == Some(&true) {
            continue;
        }
        if let Some(track) = &node.translation {
            channel(node_track_len(span, track, &[0.0; 3], false));
        }
        if let Some(track) = &node.rotation {
            channel(node_track_len(span, track, &[0.0, 0.0, 0.0, 1.0], true));
        }
        if let Some(track) = &node.scaling {
            channel(node_track_len(span, track, &[1.0; 3], false));
        }
    }
    let grid = span.resample_len();
    let baked_nodes = baked.iter().filter(|&&b| b).count();
    for _ in 0..3 * baked_nodes {
        channel(grid);
    }
    for _ in cameras.iter().filter(|(c, _)| c.moves()) {
        channel(grid);
        channel(grid);
    }
    let poses = match baked_nodes {
        0 => 0,
        _ => grid.saturating_mul(skeleton.nodes().len() as u64),
    };
    let pointers = [
        pointed.visibility.values_needed(span),
        pointed.colors.values_needed(span),
        pointed.textures.values_needed(span),
        pointed.lights.values_needed(span),
    ];
    pointers
        .into_iter()
        .fold(values.saturating_add(poses), |all, (values, channels)| {
            all.saturating_add(values)
                .saturating_add(channels.saturating_mul(CHANNEL_VALUES))
        })
}

/// The refusal of animations over [`MAX_ANIMATION_VALUES`] that need
/// `needed` values, `counted_ahead` (before anything was made) or as the
/// channels were added.
fn too_many(counted_ahead: bool, needed: u64, sequences: usize) -> ExportError {
    ExportError::TooManyKeys {
        needed,
        limit: MAX_ANIMATION_VALUES,
        sequences,
        counted_ahead,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::glam::Quat;
    use crate::gltf::model::curve::keep_on_one_side;
    use crate::gltf::model::fixtures::timeline;
    use crate::mdx::{Interpolation, Key, Track};

    /// A camera going round its target in one sequence: its resampled
    /// rotations (each made from a look-at matrix) cross to -q somewhere,
    /// and `keep_on_one_side` turns them back, every key on the side of the
    /// one before, each still the same rotation.
    #[test]
    fn a_camera_going_round_keeps_its_rotation_keys_on_one_side() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        let around = [
            [100.0, 0.0, 0.0],
            [0.0, 100.0, 0.0],
            [-100.0, 0.0, 0.0],
            [0.0, -100.0, 0.0],
        ];
        let keys = (0..5)
            .map(|k| Key::new(1000 + 150 * k as i32, around[k % 4]))
            .collect();
        let eye = Track::new(Interpolation::Linear, keys);
        let camera = ModelCamera {
            name: "going round".into(),
            position: [0.0, 0.0, 50.0],
            target: [0.0, 0.0, 50.0],
            field_of_view: 0.8,
            near: 8.0,
            far: 1000.0,
            translation: Some(&eye),
            target_translation: None,
            roll: None,
        };
        let dot = |a: &[f32; 4], b: &[f32; 4]| Quat::from_array(*a).dot(Quat::from_array(*b));
        let curve = span.resample(|s| camera.transform(Some(s)).1);
        let mut rotations = curve.values.clone();
        assert!(rotations.windows(2).any(|w| dot(&w[0], &w[1]) < 0.0));
        keep_on_one_side(&mut rotations);
        assert!(rotations.windows(2).all(|w| dot(&w[0], &w[1]) >= 0.0));
        for (was, now) in curve.values.iter().zip(&rotations) {
            assert!((dot(was, now).abs() - 1.0).abs() < 1e-5);
        }
    }

    /// As each channel is added its values are charged: past
    /// [`MAX_ANIMATION_VALUES`], the export stops with the advice.
    #[test]
    fn channels_past_the_limit_stop_the_export() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        let mut builder = Builder::new("test");
        let mut spent = MAX_ANIMATION_VALUES - CHANNEL_VALUES - 2;
        let mut channels = Channels {
            builder: &mut builder,
            samplers: Vec::new(),
            channels: Vec::new(),
            pointers: Vec::new(),
            spent: &mut spent,
            sequences: 1,
        };
        let node = Index::new(0);
        channels
            .add(node, Property::Scale, span.constant([1.0f32; 3]))
            .unwrap();
        let Err(e) = channels.add(node, Property::Scale, span.constant([1.0f32; 3])) else {
            panic!("charged past the limit");
        };
        assert_eq!(channels.samplers.len(), 1);
        let ExportError::TooManyKeys {
            needed,
            limit,
            sequences,
            counted_ahead,
        } = e
        else {
            panic!("{e}");
        };
        let stopped = MAX_ANIMATION_VALUES + CHANNEL_VALUES + 2;
        assert_eq!(
            (needed, limit, sequences),
            (stopped, MAX_ANIMATION_VALUES, 1)
        );
        assert!(!counted_ahead);
        let e = e.to_string();
        assert!(
            e.starts_with(&format!("the animations need at least {stopped} values")),
            "{e}"
        );
        assert!(
            e.contains("--sequence") && e.contains("--no-animations"),
            "{e}"
        );
        assert_eq!(spent, stopped);
    }
}
