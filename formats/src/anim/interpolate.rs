//! Between two keys: the curves of the four interpolation types, for scalars,
//! vectors, quaternions, compressed quaternions and integers.
//!
//! A segment runs from key `a` to key `b` with `t` in `0..=1`. What each type
//! means is what Warcraft III does, as the two viewers that reproduce the game
//! (mdx-m3-viewer, Warsmash) implement it:
//!
//! | type | scalars and vectors (per component) | rotations |
//! |---|---|---|
//! | none | `a.value` | `a.value` |
//! | linear | `a + (b - a) t` | [`slerp`]`(a, b, t)` |
//! | hermite | cubic Hermite, `a.out_tan` and `b.in_tan` the derivatives over the segment | [`squad`]`(a, a.out_tan, b.in_tan, b, t)` |
//! | bezier | cubic Bézier, `a.out_tan` and `b.in_tan` the inner control points | [`squad`] as for hermite |
//!
//! Hermite tangents are per segment, not per second: a hermite track whose
//! tangents are `b - a` is a straight line at constant speed whatever the
//! length of the segment.

use glam::Quat;

use crate::mdx::alpha::CompressedQuaternion;
use crate::mdx::{Interpolation, KeyFrame};

/// A value a track can hold and how two of its keys blend.
pub trait Interpolate: Copy {
    /// What sampling gives (a compressed quaternion samples to `[f32; 4]`).
    type Output: Clone;

    /// The value of one key, unchanged.
    fn output(&self) -> Self::Output;

    /// The value at `t` (`0..=1`) between keys `a` and `b` under `interpolation`.
    /// Keys without tangents are read as having tangents equal to their value
    /// (what a hermite or bezier track built without tangents would hold).
    fn interpolate(
        interpolation: Interpolation,
        a: &KeyFrame<Self>,
        b: &KeyFrame<Self>,
        t: f32,
    ) -> Self::Output;
}

/// The weights of the four values `a`, `a.out_tan`, `b.in_tan`, `b` for one
/// interpolation type at `t`, or `None` for the step of type none (and of
/// types the format does not name).
///
/// ```
/// use formats::anim::interpolate::basis;
/// use formats::mdx::Interpolation;
///
/// // Linear halfway: half of each end.
/// assert_eq!(basis(Interpolation::Linear, 0.5), Some([0.5, 0.0, 0.0, 0.5]));
/// // Hermite halfway: the ends' average plus an eighth of the tangents' difference.
/// assert_eq!(basis(Interpolation::Hermite, 0.5), Some([0.5, 0.125, -0.125, 0.5]));
/// ```
pub fn basis(interpolation: Interpolation, t: f32) -> Option<[f32; 4]> {
    match interpolation {
        Interpolation::Linear => Some([1.0 - t, 0.0, 0.0, t]),
        Interpolation::Hermite => {
            let t2 = t * t;
            Some([
                t2 * (2.0 * t - 3.0) + 1.0,
                t2 * (t - 2.0) + t,
                t2 * (t - 1.0),
                t2 * (3.0 - 2.0 * t),
            ])
        }
        Interpolation::Bezier => {
            let u = 1.0 - t;
            Some([u * u * u, 3.0 * t * u * u, 3.0 * t * t * u, t * t * t])
        }
        Interpolation::None | Interpolation::Other(_) => None,
    }
}

/// The value at `frame` on the segment from key `a` to key `b` (`t` is
/// where `frame` falls between their frames, clamped to `0..=1`; 0 when they
/// share a frame): what a [`Sampler`](super::Sampler) gives between two keys.
///
/// ```
/// use formats::anim::interpolate::between;
/// use formats::mdx::{Interpolation, KeyFrame};
///
/// let (a, b) = (KeyFrame::new(100, 2.0f32), KeyFrame::new(200, 4.0));
/// assert_eq!(between(Interpolation::Linear, &a, &b, 150.0), 3.0);
/// assert_eq!(between(Interpolation::None, &a, &b, 199.0), 2.0);
/// ```
pub fn between<T: Interpolate>(
    interpolation: Interpolation,
    a: &KeyFrame<T>,
    b: &KeyFrame<T>,
    frame: f64,
) -> T::Output {
    let span = f64::from(b.frame) - f64::from(a.frame);
    let t = if span > 0.0 {
        ((frame - f64::from(a.frame)) / span).clamp(0.0, 1.0)
    } else {
        0.0
    };
    T::interpolate(interpolation, a, b, t as f32)
}

/// Component-wise interpolation of `N` floats.
fn blend<const N: usize>(
    interpolation: Interpolation,
    a: &KeyFrame<[f32; N]>,
    b: &KeyFrame<[f32; N]>,
    t: f32,
) -> [f32; N] {
    let Some([wa, wo, wi, wb]) = basis(interpolation, t) else {
        return a.value;
    };
    let out_tan = a.tangents.map_or(a.value, |t| t.out_tan);
    let in_tan = b.tangents.map_or(b.value, |t| t.in_tan);
    core::array::from_fn(|i| {
        let at = |v: &[f32; N]| v.get(i).copied().unwrap_or(0.0);
        wa * at(&a.value) + wo * at(&out_tan) + wi * at(&in_tan) + wb * at(&b.value)
    })
}

/// A key of one float seen as a key of `[f32; 1]`.
fn as_array(key: &KeyFrame<f32>) -> KeyFrame<[f32; 1]> {
    key.map(|&v| [v])
}

impl Interpolate for f32 {
    type Output = f32;

    fn output(&self) -> f32 {
        *self
    }

    fn interpolate(
        interpolation: Interpolation,
        a: &KeyFrame<f32>,
        b: &KeyFrame<f32>,
        t: f32,
    ) -> f32 {
        let [v] = blend(interpolation, &as_array(a), &as_array(b), t);
        v
    }
}

macro_rules! vectors {
    ($($n:literal)*) => {$(
        impl Interpolate for [f32; $n] {
            type Output = [f32; $n];

            fn output(&self) -> [f32; $n] {
                *self
            }

            fn interpolate(
                interpolation: Interpolation,
                a: &KeyFrame<[f32; $n]>,
                b: &KeyFrame<[f32; $n]>,
                t: f32,
            ) -> [f32; $n] {
                blend(interpolation, a, b, t)
            }
        }
    )*};
}
vectors!(2 3);

/// Rotations: every `[f32; 4]` track of the format (`KGRT`, `KTAR`) is a
/// quaternion `[x, y, z, w]`.
impl Interpolate for [f32; 4] {
    type Output = [f32; 4];

    fn output(&self) -> [f32; 4] {
        *self
    }

    fn interpolate(
        interpolation: Interpolation,
        a: &KeyFrame<[f32; 4]>,
        b: &KeyFrame<[f32; 4]>,
        t: f32,
    ) -> [f32; 4] {
        match interpolation {
            Interpolation::Linear => slerp(a.value, b.value, t),
            Interpolation::Hermite | Interpolation::Bezier => squad(
                a.value,
                a.tangents.map_or(a.value, |t| t.out_tan),
                b.tangents.map_or(b.value, |t| t.in_tan),
                b.value,
                t,
            ),
            Interpolation::None | Interpolation::Other(_) => a.value,
        }
    }
}

/// WoW alpha rotations: decompressed ([`CompressedQuaternion::to_quaternion`]),
/// then interpolated as `[f32; 4]`.
impl Interpolate for CompressedQuaternion {
    type Output = [f32; 4];

    fn output(&self) -> [f32; 4] {
        self.to_quaternion()
    }

    fn interpolate(
        interpolation: Interpolation,
        a: &KeyFrame<CompressedQuaternion>,
        b: &KeyFrame<CompressedQuaternion>,
        t: f32,
    ) -> [f32; 4] {
        let unpack = |key: &KeyFrame<CompressedQuaternion>| key.map(|q| q.to_quaternion());
        <[f32; 4]>::interpolate(interpolation, &unpack(a), &unpack(b), t)
    }
}

/// Integers (`KMTF` texture ids, `KRTX` slots) never blend: the value of the
/// key before, whatever the type says (as the game does).
impl Interpolate for u32 {
    type Output = u32;

    fn output(&self) -> u32 {
        *self
    }

    fn interpolate(_: Interpolation, a: &KeyFrame<u32>, _: &KeyFrame<u32>, _: f32) -> u32 {
        a.value
    }
}

/// Spherical linear interpolation along the shorter arc (the quaternion `b`
/// or `-b`, whichever is nearer `a`); nearly equal quaternions blend linearly.
///
/// ```
/// use formats::anim::interpolate::slerp;
///
/// // Halfway between no rotation and 90° about Z is 45° about Z.
/// let half = core::f32::consts::FRAC_1_SQRT_2;
/// let q = slerp([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, half, half], 0.5);
/// let eighth = (core::f32::consts::PI / 8.0).sin_cos();
/// assert!((q[2] - eighth.0).abs() < 1e-6 && (q[3] - eighth.1).abs() < 1e-6);
/// ```
pub fn slerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    Quat::from_array(a).slerp(Quat::from_array(b), t).to_array()
}

/// The quaternion spline of hermite and bezier rotations ("sqlerp"):
/// `slerp(slerp(a, d, t), slerp(b, c, t), 2t(1 - t))`, with `a`, `d` the keys'
/// values and `b`, `c` the out tangent of `a` and the in tangent of `d`.
/// It passes through `a` at 0 and `d` at 1.
pub fn squad(a: [f32; 4], b: [f32; 4], c: [f32; 4], d: [f32; 4], t: f32) -> [f32; 4] {
    slerp(slerp(a, d, t), slerp(b, c, t), 2.0 * t * (1.0 - t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key<T>(frame: i32, value: T, in_tan: T, out_tan: T) -> KeyFrame<T> {
        KeyFrame::with_tangents(frame, value, in_tan, out_tan)
    }

    #[test]
    fn linear_midpoint_is_the_average() {
        let (a, b) = (
            KeyFrame::new(0, [0.0, 2.0, -4.0]),
            KeyFrame::new(100, [1.0, 4.0, 4.0]),
        );
        assert_eq!(
            <[f32; 3]>::interpolate(Interpolation::Linear, &a, &b, 0.5),
            [0.5, 3.0, 0.0]
        );
        assert_eq!(
            <[f32; 3]>::interpolate(Interpolation::None, &a, &b, 0.99),
            [0.0, 2.0, -4.0]
        );
    }

    #[test]
    fn hermite_with_known_tangents() {
        // From 0 to 1, leaving with slope 0 and arriving with slope 3:
        // p(t) = h01(t)·1 + h11(t)·3 = (3t² - 2t³) + 3(t³ - t²).
        let a = key(0, 0.0f32, 0.0, 0.0);
        let b = key(1000, 1.0f32, 3.0, 0.0);
        for t in [0.0f32, 0.25, 0.5, 0.75, 1.0] {
            let expected = 3.0 * (t * t * t - t * t) + (3.0 * t * t - 2.0 * t * t * t);
            let got = f32::interpolate(Interpolation::Hermite, &a, &b, t);
            assert!((got - expected).abs() < 1e-6, "t={t}: {got} vs {expected}");
        }
        // Tangents equal to the difference make a straight line.
        let a = key(0, 2.0f32, 4.0, 4.0);
        let b = key(10, 6.0f32, 4.0, 4.0);
        assert!((f32::interpolate(Interpolation::Hermite, &a, &b, 0.25) - 3.0).abs() < 1e-6);
    }

    #[test]
    fn bezier_control_points_pull_the_curve() {
        // Control points at the ends' values: the curve is the smoothstep-like
        // cubic 3t² - 2t³ between 0 and 1.
        let a = key(0, 0.0f32, 0.0, 0.0);
        let b = key(1, 1.0f32, 1.0, 1.0);
        let got = f32::interpolate(Interpolation::Bezier, &a, &b, 0.25);
        assert!((got - (3.0 * 0.0625 - 2.0 * 0.015625)).abs() < 1e-6);
        // Control points on the line thirds: a straight line.
        let a = key(0, 0.0f32, 0.0, 1.0);
        let b = key(1, 3.0f32, 2.0, 0.0);
        assert!((f32::interpolate(Interpolation::Bezier, &a, &b, 0.5) - 1.5).abs() < 1e-6);
    }

    #[test]
    fn slerp_of_90_degrees_at_one_half_is_45_degrees() {
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let (a, b) = (
            KeyFrame::new(0, [0.0, 0.0, 0.0, 1.0]),
            KeyFrame::new(10, [h, 0.0, 0.0, h]),
        );
        let q = <[f32; 4]>::interpolate(Interpolation::Linear, &a, &b, 0.5);
        let (s, c) = (core::f32::consts::PI / 8.0).sin_cos();
        for (got, want) in q.iter().zip([s, 0.0, 0.0, c]) {
            assert!((got - want).abs() < 1e-6, "{q:?}");
        }
        // The shorter arc: -b is the same rotation and gives the same result.
        let q2 = slerp(a.value, b.value.map(|v| -v), 0.5);
        for (x, y) in q.iter().zip(q2) {
            assert!((x - y).abs() < 1e-6);
        }
    }

    #[test]
    fn squad_passes_through_its_keys_and_equals_slerp_with_flat_tangents() {
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let (a, d) = ([0.0, 0.0, 0.0, 1.0], [0.0, h, 0.0, h]);
        assert_eq!(
            squad(a, [0.3, 0.1, 0.0, 0.9], [0.0, 0.2, 0.3, 0.9], d, 0.0),
            a
        );
        let end = squad(a, [0.3, 0.1, 0.0, 0.9], [0.0, 0.2, 0.3, 0.9], d, 1.0);
        for (x, y) in end.iter().zip(d) {
            assert!((x - y).abs() < 1e-6);
        }
        // Tangents on the arc's ends: slerp(b, c, t) = slerp(a, d, t).
        let s = squad(a, a, d, d, 0.3);
        for (x, y) in s.iter().zip(slerp(a, d, 0.3)) {
            assert!((x - y).abs() < 1e-6);
        }
    }

    #[test]
    fn compressed_quaternions_interpolate_as_their_values() {
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let a = KeyFrame::new(
            0,
            CompressedQuaternion::from_quaternion([0.0, 0.0, 0.0, 1.0]),
        );
        let b = KeyFrame::new(10, CompressedQuaternion::from_quaternion([0.0, 0.0, h, h]));
        let q = CompressedQuaternion::interpolate(Interpolation::Linear, &a, &b, 0.5);
        let (s, c) = (core::f32::consts::PI / 8.0).sin_cos();
        assert!((q[2] - s).abs() < 1e-5 && (q[3] - c).abs() < 1e-5, "{q:?}");
    }

    #[test]
    fn integers_step() {
        let (a, b) = (KeyFrame::new(0, 3u32), KeyFrame::new(10, 7u32));
        assert_eq!(u32::interpolate(Interpolation::Linear, &a, &b, 0.9), 3);
    }
}
