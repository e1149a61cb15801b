//! Texture animations as `KHR_texture_transform`: the transform at rest on
//! each moving material's textures, and its offset, rotation and scale
//! curves in each sequence. What is exported how is in the docs of
//! [`ExportOptions::texture_animations`](crate::gltf::ExportOptions::texture_animations).

use gltf_json as json;
use json::Index;
use serde_json::json as value;

use super::curve::{Curve, Span, key_moments};
use crate::anim::{Moment, OffsetRotationScale, Sampler, Timeline, UvTransform};
use crate::gltf::builder::Builder;
use crate::mdx::{Model, TextureAnimation, TextureAnimationTrack};

/// The extension the transforms are in.
pub(super) const TEXTURE_TRANSFORM: &str = "KHR_texture_transform";

/// The materials whose textures move, with what moves them.
#[derive(Default)]
pub(super) struct TextureTransforms<'a> {
    materials: Vec<Transformed<'a>>,
}

/// A material whose textures move.
struct Transformed<'a> {
    index: Index<json::Material>,
    animation: &'a TextureAnimation,
    /// The JSON paths of its textures, below the material.
    paths: Vec<&'static str>,
    rest: OffsetRotationScale,
}

/// One sequence's curves of a moving texture.
pub(super) struct Moving {
    pub(super) offset: Curve<[f32; 2]>,
    pub(super) rotation: Curve<[f32; 1]>,
    pub(super) scale: Curve<[f32; 2]>,
}

impl<'a> TextureTransforms<'a> {
    /// Puts `KHR_texture_transform` at rest on the textures of each of
    /// `materials` (a glTF material with the model material it was made
    /// from) whose model material's layer has a texture animation.
    pub(super) fn add(
        b: &mut Builder,
        model: &'a Model,
        timeline: &Timeline,
        materials: &[(Index<json::Material>, u32)],
    ) -> Self {
        let animations = super::materials::texture_animations(model);
        let at_rest = Sampler::new(timeline, Moment::BIND);
        let mut moving = Vec::new();
        for &(index, material) in materials {
            let Some(animation) = animations
                .get(material as usize)
                .copied()
                .flatten()
                .and_then(|a| model.texture_animations().get(a))
            else {
                continue;
            };
            if animation.tracks.is_empty() {
                continue;
            }
            let rest = finite(UvTransform::of(animation, &at_rest).offset_rotation_scale());
            let Some(json) = b.root_mut().materials.get_mut(index.value()) else {
                continue;
            };
            let paths = set_transform(json, &rest);
            if !paths.is_empty() {
                moving.push(Transformed {
                    index,
                    animation,
                    paths,
                    rest,
                });
            }
        }
        if !moving.is_empty() {
            b.use_extension(TEXTURE_TRANSFORM, false);
        }
        TextureTransforms { materials: moving }
    }

    /// For each moving texture, the JSON pointer to its transform (to which
    /// `/offset`, `/rotation` and `/scale` are added) and its curves in
    /// each span; none for a material whose textures stand still in every
    /// span.
    pub(super) fn curves(&self, spans: &[Span<'_>]) -> Vec<(Vec<String>, Vec<Moving>)> {
        self.materials
            .iter()
            .filter_map(
                |Transformed {
                     index,
                     animation,
                     paths,
                     rest,
                 }| {
                    let curves: Vec<Moving> =
                        spans.iter().map(|span| moving(span, animation)).collect();
                    let moves = curves.iter().any(|c| {
                        c.offset.values.iter().any(|v| *v != rest.offset)
                            || c.rotation.values.iter().any(|v| *v != [rest.rotation])
                            || c.scale.values.iter().any(|v| *v != rest.scale)
                    });
                    let pointers = paths
                        .iter()
                        .map(|path| {
                            format!(
                                "/materials/{}/{path}/extensions/{TEXTURE_TRANSFORM}",
                                index.value()
                            )
                        })
                        .collect();
                    moves.then_some((pointers, curves))
                },
            )
            .collect()
    }

    /// How many values the curves of `span` hold at most (each moving
    /// texture's offset, rotation and scale at the times [`moving`]
    /// samples, for each of its textures), and how many curves there are.
    pub(super) fn values_needed(&self, span: &Span<'_>) -> (u64, u64) {
        let mut values = 0u64;
        let mut curves = 0u64;
        for Transformed {
            animation, paths, ..
        } in &self.materials
        {
            let moments = animation
                .tracks
                .iter()
                .map(|track| match track {
                    TextureAnimationTrack::Translation(t) => span.moments_len(t),
                    TextureAnimationTrack::Rotation(t) => span.moments_len(t),
                    TextureAnimationTrack::Scaling(t) => span.moments_len(t),
                    TextureAnimationTrack::Unknown(_) => 0,
                })
                .fold(0u64, u64::saturating_add);
            let channels = 3 * paths.len() as u64;
            values = values.saturating_add(span.key_times_len(moments).saturating_mul(channels));
            curves = curves.saturating_add(channels);
        }
        (values, curves)
    }
}

/// Sets `KHR_texture_transform` on every texture of `material`; gives the
/// JSON paths of those textures below the material.
fn set_transform(material: &mut json::Material, rest: &OffsetRotationScale) -> Vec<&'static str> {
    let transform = value!({
        "offset": rest.offset,
        "rotation": rest.rotation,
        "scale": rest.scale,
    });
    let mut paths = Vec::new();
    let mut put = |others: &mut serde_json::Map<String, serde_json::Value>, path| {
        others.insert(TEXTURE_TRANSFORM.to_string(), transform.clone());
        paths.push(path);
    };
    let pbr = &mut material.pbr_metallic_roughness;
    for (info, path) in [
        (
            &mut pbr.base_color_texture,
            "pbrMetallicRoughness/baseColorTexture",
        ),
        (
            &mut pbr.metallic_roughness_texture,
            "pbrMetallicRoughness/metallicRoughnessTexture",
        ),
        (&mut material.emissive_texture, "emissiveTexture"),
    ] {
        if let Some(info) = info {
            put(
                &mut info.extensions.get_or_insert_with(Default::default).others,
                path,
            );
        }
    }
    // Normal and occlusion textures have types (and extension types) of
    // their own, each with the same `others`.
    if let Some(normal) = &mut material.normal_texture {
        let extensions = normal.extensions.get_or_insert_with(Default::default);
        put(&mut extensions.others, "normalTexture");
    }
    if let Some(occlusion) = &mut material.occlusion_texture {
        let extensions = occlusion.extensions.get_or_insert_with(Default::default);
        put(&mut extensions.others, "occlusionTexture");
    }
    paths
}

/// `t` with each non-finite number (glTF has none) as the identity's: an
/// offset or rotation of 0, a scale of 1.
fn finite(t: OffsetRotationScale) -> OffsetRotationScale {
    let or = |v: f32, identity: f32| if v.is_finite() { v } else { identity };
    OffsetRotationScale {
        offset: t.offset.map(|v| or(v, 0.0)),
        rotation: or(t.rotation, 0.0),
        scale: t.scale.map(|v| or(v, 1.0)),
    }
}

/// The texture animation's offset, rotation and scale over `span`.
fn moving(span: &Span<'_>, animation: &TextureAnimation) -> Moving {
    let moments = animation.tracks.iter().flat_map(|track| match track {
        TextureAnimationTrack::Translation(t) => key_moments(span, t),
        TextureAnimationTrack::Rotation(t) => key_moments(span, t),
        TextureAnimationTrack::Scaling(t) => key_moments(span, t),
        TextureAnimationTrack::Unknown(_) => Vec::new(),
    });
    let times = span.key_times(moments);
    let values: Vec<OffsetRotationScale> = times
        .iter()
        .map(|&ms| finite(UvTransform::of(animation, &span.sampler(ms)).offset_rotation_scale()))
        .collect();
    // The angle unwrapped: each within half a turn of the one before.
    let mut rotations: Vec<[f32; 1]> = Vec::with_capacity(values.len());
    for v in &values {
        let angle = match rotations.last() {
            Some([before]) => {
                let turns = ((before - v.rotation) / std::f32::consts::TAU).round();
                v.rotation + turns * std::f32::consts::TAU
            }
            None => v.rotation,
        };
        rotations.push([angle]);
    }
    Moving {
        offset: span.linear_curve(&times, values.iter().map(|v| v.offset).collect()),
        rotation: span.linear_curve(&times, rotations),
        scale: span.linear_curve(&times, values.iter().map(|v| v.scale).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_values_become_the_identity() {
        let t = finite(OffsetRotationScale {
            offset: [f32::NAN, 2.0],
            rotation: f32::NEG_INFINITY,
            scale: [f32::NAN, 3.0],
        });
        assert_eq!(
            t,
            OffsetRotationScale {
                offset: [0.0, 2.0],
                rotation: 0.0,
                scale: [1.0, 3.0]
            }
        );
    }
}
