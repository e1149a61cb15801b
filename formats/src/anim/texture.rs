//! Texture animations (`TXAN`: `KTAT`, `KTAR`, `KTAS`): how a layer's
//! texture coordinates move at a moment.
//!
//! Applied as mdx-m3-viewer's shaders apply them (the reference the Hive
//! Workshop's viewer uses): the translation is added, then the coordinates
//! are turned by the rotation's Z and W components about the texture's
//! centre (0.5, 0.5), then scaled by the scaling's X about the centre:
//!
//! ```text
//! uv' = s · M · (uv + t − c) + c,   c = (0.5, 0.5),
//! M = [[1 − 2z², −2wz], [2wz, 1 − 2z²]]   (a turn by 2 atan2(z, w) for a unit rotation)
//! ```

use super::sample::Sampler;
use crate::mdx::{TextureAnimation, TextureAnimationTrack};

/// A texture animation at a moment: its translation, rotation and scaling
/// (each its track's value, or none: 0, the identity, 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvTransform {
    /// `KTAT` (X and Y move the coordinates).
    pub translation: [f32; 3],
    /// `KTAR`, a quaternion (its Z and W turn the coordinates).
    pub rotation: [f32; 4],
    /// `KTAS` (its X scales both coordinates).
    pub scaling: [f32; 3],
}

/// The same transform as [`UvTransform`], in the terms of glTF's
/// `KHR_texture_transform`: `uv' = offset + R(rotation) · scale · uv`, with
/// `R(a) = [[cos a, sin a], [−sin a, cos a]]`: a positive rotation turns
/// the coordinates counter-clockwise as seen with V pointing down, which is
/// how Babylon.js reads it (`tests/gltf/texture_transforms.rs` checks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OffsetRotationScale {
    /// `offset`.
    pub offset: [f32; 2],
    /// `rotation`, in radians.
    pub rotation: f32,
    /// `scale`.
    pub scale: [f32; 2],
}

impl UvTransform {
    /// No movement.
    pub const IDENTITY: UvTransform = UvTransform {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
        scaling: [1.0; 3],
    };

    /// `animation` at the sampler's moment.
    pub fn of(animation: &TextureAnimation, sampler: &Sampler<'_>) -> UvTransform {
        let mut out = UvTransform::IDENTITY;
        for track in &animation.tracks {
            match track {
                TextureAnimationTrack::Translation(t) => {
                    out.translation = sampler.sample(t, &UvTransform::IDENTITY.translation);
                }
                TextureAnimationTrack::Rotation(t) => {
                    out.rotation = sampler.sample(t, &UvTransform::IDENTITY.rotation);
                }
                TextureAnimationTrack::Scaling(t) => {
                    out.scaling = sampler.sample(t, &UvTransform::IDENTITY.scaling);
                }
                TextureAnimationTrack::Unknown(_) => {}
            }
        }
        out
    }

    /// The texture coordinates `uv` moved (see the [module](self) docs).
    pub fn apply(&self, uv: [f32; 2]) -> [f32; 2] {
        let [tx, ty, _] = self.translation;
        let [a, b] = self.turn();
        let s = self.scaling[0];
        let (x, y) = (uv[0] + tx - 0.5, uv[1] + ty - 0.5);
        [s * (a * x - b * y) + 0.5, s * (b * x + a * y) + 0.5]
    }

    /// The first column of M: `[1 − 2z², 2wz]`.
    fn turn(&self) -> [f32; 2] {
        let [_, _, z, w] = self.rotation;
        [1.0 - 2.0 * z * z, 2.0 * w * z]
    }

    /// The same transform in glTF's terms: M is a turn by `atan2(2wz, 1 −
    /// 2z²)` (glTF's rotation is its negative, see [`OffsetRotationScale`])
    /// times its length, which joins the scale (uniform, as the one this
    /// applies); the offset is where (0, 0) goes.
    pub fn offset_rotation_scale(&self) -> OffsetRotationScale {
        let [a, b] = self.turn();
        let scale = self.scaling[0] * a.hypot(b);
        OffsetRotationScale {
            offset: self.apply([0.0, 0.0]),
            rotation: -b.atan2(a),
            scale: [scale, scale],
        }
    }
}

impl OffsetRotationScale {
    /// The texture coordinates `uv` moved, as `KHR_texture_transform` moves
    /// them.
    pub fn apply(&self, uv: [f32; 2]) -> [f32; 2] {
        let (sin, cos) = self.rotation.sin_cos();
        let (x, y) = (self.scale[0] * uv[0], self.scale[1] * uv[1]);
        [
            self.offset[0] + cos * x + sin * y,
            self.offset[1] - sin * x + cos * y,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: [f32; 2], b: [f32; 2]) -> bool {
        (0..2).all(|i| (a[i] - b[i]).abs() <= 1e-5 * (1.0 + a[i].abs()))
    }

    #[test]
    fn a_translation_alone_moves_the_coordinates() {
        let moved = UvTransform {
            translation: [0.25, -1.5, 7.0],
            ..UvTransform::IDENTITY
        };
        assert!(close(moved.apply([0.5, 0.5]), [0.75, -1.0]));
        let gltf = moved.offset_rotation_scale();
        assert_eq!(gltf.rotation, 0.0);
        assert_eq!(gltf.scale, [1.0, 1.0]);
        assert!(close(gltf.offset, [0.25, -1.5]));
    }

    #[test]
    fn a_quarter_turn_about_z_turns_about_the_centre() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let turned = UvTransform {
            rotation: [0.0, 0.0, h, h],
            ..UvTransform::IDENTITY
        };
        // The centre stays; (1, 0.5) goes a quarter turn round it.
        assert!(close(turned.apply([0.5, 0.5]), [0.5, 0.5]));
        assert!(close(turned.apply([1.0, 0.5]), [0.5, 1.0]));
        let gltf = turned.offset_rotation_scale();
        assert!((gltf.rotation + std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    }

    /// glTF's offset, rotation and scale move every point as the texture
    /// animation does, for translations, turns (unit and not) and scales
    /// together.
    #[test]
    fn offset_rotation_and_scale_reproduce_the_transform() {
        let points = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.3, 0.7], [-2.0, 5.0]];
        for k in 0..50 {
            let f = k as f32;
            let transform = UvTransform {
                translation: [0.1 * f - 2.0, (0.37 * f).sin(), 0.0],
                rotation: [0.3, -0.2, (0.7 * f).sin(), (0.7 * f).cos() * 1.1],
                scaling: [0.5 + 0.05 * f, 9.0, 9.0],
            };
            let gltf = transform.offset_rotation_scale();
            for uv in points {
                assert!(
                    close(transform.apply(uv), gltf.apply(uv)),
                    "{transform:?} at {uv:?}"
                );
            }
        }
    }
}
