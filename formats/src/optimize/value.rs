//! The values of tracks as the optimizer sees them: how far apart two
//! sampled values are, and how a tangent stretches when a segment grows.

use crate::anim::Interpolate;
use crate::mdx::Interpolation;
use crate::mdx::alpha::CompressedQuaternion;

/// A value a keyframe track holds, with what the optimizer needs of it.
pub trait Animated: Interpolate + PartialEq + Default + 'static {
    /// How far apart two sampled values are: the largest difference of a
    /// component; for rotations the angle between them, in radians; for
    /// integers 0 or infinity. Infinity when either is NaN (so nothing with a
    /// NaN is ever thought close), 0 for identical values.
    fn distance(a: &Self::Output, b: &Self::Output) -> f32;

    /// The numbers of a sampled value (a texture id as a float): what
    /// reports and independent checks compare.
    fn components(value: &Self::Output) -> Vec<f32>;

    /// The tangent `tangent` of a key whose value is `value`, for a segment
    /// `factor` times as long as the one it was made for, so that the curve
    /// leaves (or reaches) the key at the same rate per millisecond: hermite
    /// tangents are per segment (scaled), bezier ones control points (moved
    /// away from the value). `None` where it cannot be done in the value's
    /// space (rotations, integers): their tangents are kept as they are.
    fn stretch(
        interpolation: Interpolation,
        value: &Self,
        tangent: &Self,
        factor: f32,
    ) -> Option<Self>;
}

/// The largest component difference of two float lists (see [`Animated::distance`]).
fn largest_difference(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).fold(0.0, |worst, (x, y)| {
        if x == y {
            worst
        } else {
            let d = (x - y).abs();
            if d.is_nan() {
                f32::INFINITY
            } else {
                worst.max(d)
            }
        }
    })
}

/// One component of a stretched tangent.
fn stretched(interpolation: Interpolation, value: f32, tangent: f32, factor: f32) -> Option<f32> {
    match interpolation {
        Interpolation::Hermite => Some(tangent * factor),
        Interpolation::Bezier => Some(value + (tangent - value) * factor),
        _ => None,
    }
}

impl Animated for f32 {
    fn distance(a: &f32, b: &f32) -> f32 {
        largest_difference(&[*a], &[*b])
    }

    fn components(value: &f32) -> Vec<f32> {
        vec![*value]
    }

    fn stretch(
        interpolation: Interpolation,
        value: &f32,
        tangent: &f32,
        factor: f32,
    ) -> Option<f32> {
        stretched(interpolation, *value, *tangent, factor)
    }
}

macro_rules! vectors {
    ($($n:literal)*) => {$(
        impl Animated for [f32; $n] {
            fn distance(a: &[f32; $n], b: &[f32; $n]) -> f32 {
                largest_difference(a, b)
            }

            fn components(value: &[f32; $n]) -> Vec<f32> {
                value.to_vec()
            }

            fn stretch(
                interpolation: Interpolation,
                value: &[f32; $n],
                tangent: &[f32; $n],
                factor: f32,
            ) -> Option<[f32; $n]> {
                let mut out = *tangent;
                for (o, (v, t)) in out.iter_mut().zip(value.iter().zip(tangent)) {
                    *o = stretched(interpolation, *v, *t, factor)?;
                }
                Some(out)
            }
        }
    )*};
}
vectors!(2 3);

/// The angle between two rotations, in radians: `4 atan2(|a - b|, |a + b|)`
/// on the unit quaternions with `b` on `a`'s side (stable for small angles,
/// where `acos` of the dot product is not), in double precision.
pub fn rotation_angle(a: &[f32; 4], b: &[f32; 4]) -> f32 {
    if a == b {
        return 0.0;
    }
    let unit = |q: &[f32; 4]| {
        let q = q.map(f64::from);
        let length = q.iter().map(|c| c * c).sum::<f64>().sqrt();
        (length.is_finite() && length > 0.0).then(|| q.map(|c| c / length))
    };
    let (Some(a), Some(mut b)) = (unit(a), unit(b)) else {
        return f32::INFINITY;
    };
    if a.iter().zip(&b).map(|(x, y)| x * y).sum::<f64>() < 0.0 {
        b = b.map(|c| -c);
    }
    let norm = |sign: f64| {
        a.iter()
            .zip(&b)
            .map(|(x, y)| (x + sign * y) * (x + sign * y))
            .sum::<f64>()
            .sqrt()
    };
    (4.0 * norm(-1.0).atan2(norm(1.0))) as f32
}

/// Rotations (`KGRT`, `KTAR`): compared by angle.
impl Animated for [f32; 4] {
    fn distance(a: &[f32; 4], b: &[f32; 4]) -> f32 {
        rotation_angle(a, b)
    }

    fn components(value: &[f32; 4]) -> Vec<f32> {
        value.to_vec()
    }

    fn stretch(_: Interpolation, _: &[f32; 4], _: &[f32; 4], _: f32) -> Option<[f32; 4]> {
        None
    }
}

/// WoW alpha rotations: compared by the angle of their quaternions.
impl Animated for CompressedQuaternion {
    fn distance(a: &[f32; 4], b: &[f32; 4]) -> f32 {
        rotation_angle(a, b)
    }

    fn components(value: &[f32; 4]) -> Vec<f32> {
        value.to_vec()
    }

    fn stretch(_: Interpolation, _: &Self, _: &Self, _: f32) -> Option<Self> {
        None
    }
}

/// Texture ids and slots: equal or not.
impl Animated for u32 {
    fn distance(a: &u32, b: &u32) -> f32 {
        if a == b { 0.0 } else { f32::INFINITY }
    }

    fn components(value: &u32) -> Vec<f32> {
        vec![*value as f32]
    }

    fn stretch(_: Interpolation, _: &u32, _: &u32, _: f32) -> Option<u32> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_are_apart_by_their_angle() {
        let (s, c) = (0.05f32).sin_cos(); // 0.1 rad about Z
        let q = [0.0, 0.0, s, c];
        let angle = rotation_angle(&[0.0, 0.0, 0.0, 1.0], &q);
        assert!((angle - 0.1).abs() < 1e-6, "{angle}");
        // -q is the same rotation; a scaled quaternion too.
        assert!(rotation_angle(&q, &q.map(|v| -v)) < 1e-7);
        assert!(rotation_angle(&q, &q.map(|v| 3.0 * v)) < 1e-7);
        // A tiny angle is measured, not lost in acos's rounding.
        let (s, c) = (1e-5f32).sin_cos();
        let tiny = rotation_angle(&[0.0, 0.0, 0.0, 1.0], &[s, 0.0, 0.0, c]);
        assert!((tiny - 2e-5).abs() < 1e-7, "{tiny}");
        assert_eq!(rotation_angle(&[0.0; 4], &q), f32::INFINITY);
    }

    #[test]
    fn components_and_integers() {
        assert_eq!(
            <[f32; 3]>::distance(&[1.0, 2.0, 3.0], &[1.5, 2.0, 2.0]),
            1.0
        );
        assert_eq!(f32::distance(&f32::NAN, &0.0), f32::INFINITY);
        assert_eq!(f32::distance(&f32::INFINITY, &f32::INFINITY), 0.0);
        assert_eq!(u32::distance(&3, &4), f32::INFINITY);
        // A hermite tangent scales; a bezier control point moves away from its value.
        assert_eq!(
            f32::stretch(Interpolation::Hermite, &1.0, &2.0, 3.0),
            Some(6.0)
        );
        assert_eq!(
            f32::stretch(Interpolation::Bezier, &1.0, &2.0, 3.0),
            Some(4.0)
        );
        assert_eq!(f32::stretch(Interpolation::Linear, &1.0, &2.0, 3.0), None);
    }
}
