//! What a node's translation, rotation and scaling tracks become in one
//! sequence: the keys the sequence plays, as `STEP`, `LINEAR` or
//! `CUBICSPLINE` glTF curves where they map exactly, else resampled and
//! fitted ([`Form`]; the table in the [`gltf`](crate::gltf#animations)
//! docs).

use gltf_json::animation::Interpolation as GltfInterpolation;

use super::curve::{Curve, ROTATION_FIT, Span, VECTOR_FIT, key_moments, linear_rotations};
use crate::anim::skeleton::normalized;
use crate::anim::{Sampler, SequenceKeys};
use crate::mdx::{Interpolation, KeyFrame, Track};

/// What node track `track` becomes in `span`'s sequence (`rotation`: a
/// rotation track; see the table in the [`gltf`](crate::gltf#animations)
/// docs).
fn form<'t, T: Copy + PartialEq>(
    span: &Span<'_>,
    track: &'t Track<T>,
    default: &T,
    rotation: bool,
) -> Form<'t, T> {
    let spline = matches!(
        track.interpolation_type,
        Interpolation::Hermite | Interpolation::Bezier
    );
    let global = span
        .timeline
        .global_duration(track.global_sequence_id)
        .is_some();
    if global || (spline && span.resample_splines && !rotation) {
        return Form::Resampled;
    }
    let keys = SequenceKeys::new(track, span.sequence.interval.map(i64::from), false, default);
    if let Some(value) = keys.constant() {
        return Form::Constant(*value);
    }
    let increasing = keys
        .keys()
        .zip(keys.keys().skip(1))
        .all(|(a, b)| a.frame < b.frame);
    // glTF needs times that strictly increase; the quaternion spline
    // is not glTF's.
    if !increasing || (spline && rotation) {
        return Form::Resampled;
    }
    Form::Keys(keys)
}

/// How many values a node track becomes in `span`'s sequence before
/// fitting and slerped cuts add theirs: its keys (three values each as
/// a `CUBICSPLINE`), two for a constant, or the samples a fitted
/// resampling starts from ([`Span::fitting_len`]).
pub(super) fn node_track_len<T: Copy + PartialEq>(
    span: &Span<'_>,
    track: &Track<T>,
    default: &T,
    rotation: bool,
) -> u64 {
    match form(span, track, default, rotation) {
        Form::Resampled => span.fitting_len(span.moments_len(track)),
        Form::Constant(_) => span.constant_len(),
        Form::Keys(keys) => {
            let n = keys.keys().count() as u64;
            let spline = matches!(
                track.interpolation_type,
                Interpolation::Hermite | Interpolation::Bezier
            );
            if spline { 3 * n } else { n }
        }
    }
}

/// What a node track becomes in one sequence, for glTF.
enum Form<'t, T: Clone> {
    /// Resampled `LINEAR` keys, fitted: a global sequence, a spline
    /// rotation (or translation or scaling, asked to), keys glTF cannot
    /// take as they are (repeated or unordered times).
    Resampled,
    /// One value over the whole sequence.
    Constant(T),
    /// The keys the sequence plays, their times strictly increasing.
    Keys(SequenceKeys<'t, T>),
}

/// A translation or scaling track as a curve, plus `offset`.
pub(super) fn vector_curve(
    span: &Span<'_>,
    track: &Track<[f32; 3]>,
    default: [f32; 3],
    offset: [f32; 3],
) -> Curve<[f32; 3]> {
    let add = |v: [f32; 3]| [v[0] + offset[0], v[1] + offset[1], v[2] + offset[2]];
    let keys: Vec<KeyFrame<[f32; 3]>> = match form(span, track, &default, false) {
        Form::Keys(keys) => keys.keys().collect(),
        Form::Constant(value) => return span.constant(add(value)),
        Form::Resampled => {
            let moments = key_moments(span, track);
            return span.resample_fitted(|s| add(s.sample(track, &default)), &VECTOR_FIT, &moments);
        }
    };
    let times: Vec<f32> = keys.iter().map(|k| span.seconds(k.frame)).collect();
    let plain = |interpolation| Curve {
        interpolation,
        times: times.clone(),
        values: keys.iter().map(|k| add(k.value)).collect(),
    };
    match track.interpolation_type {
        Interpolation::Linear => plain(GltfInterpolation::Linear),
        Interpolation::Hermite | Interpolation::Bezier => Curve {
            interpolation: GltfInterpolation::CubicSpline,
            values: cubic(
                &keys,
                &times,
                track.interpolation_type == Interpolation::Bezier,
                add,
            ),
            times,
        },
        Interpolation::None | Interpolation::Other(_) => plain(GltfInterpolation::Step),
    }
}

/// glTF cubic spline triples (in-tangent, value, out-tangent) for hermite
/// or bezier keys: glTF scales tangents by the segment's length in seconds,
/// Warcraft III's hermite tangents are per segment, and a bezier control
/// point `c` after value `v` is the tangent `3 (c - v)`.
fn cubic(
    keys: &[KeyFrame<[f32; 3]>],
    times: &[f32],
    bezier: bool,
    add: impl Fn([f32; 3]) -> [f32; 3],
) -> Vec<[f32; 3]> {
    let span = |a: usize, b: usize| match (times.get(a), times.get(b)) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => 1.0,
    };
    let scale = |v: [f32; 3], s: f32| v.map(|c| c / s);
    let mut out = Vec::with_capacity(keys.len() * 3);
    let last = keys.len().saturating_sub(1);
    for (k, key) in keys.iter().enumerate() {
        let in_tan = key.tangents.map_or(key.value, |t| t.in_tan);
        let out_tan = key.tangents.map_or(key.value, |t| t.out_tan);
        let (incoming, outgoing) = if bezier {
            let from = |c: [f32; 3]| {
                [
                    3.0 * (key.value[0] - c[0]),
                    3.0 * (key.value[1] - c[1]),
                    3.0 * (key.value[2] - c[2]),
                ]
            };
            let to = |c: [f32; 3]| {
                [
                    3.0 * (c[0] - key.value[0]),
                    3.0 * (c[1] - key.value[1]),
                    3.0 * (c[2] - key.value[2]),
                ]
            };
            (from(in_tan), to(out_tan))
        } else {
            (in_tan, out_tan)
        };
        out.push(if k == 0 {
            [0.0; 3]
        } else {
            scale(incoming, span(k - 1, k))
        });
        out.push(add(key.value));
        out.push(if k == last {
            [0.0; 3]
        } else {
            scale(outgoing, span(k, k + 1))
        });
    }
    out
}

/// A rotation track as a curve of unit quaternions, interpolated ones
/// (`LINEAR`) made ready for every player ([`linear_rotations`]). `STEP`
/// keys are the file's as they are.
pub(super) fn rotation_curve(span: &Span<'_>, track: &Track<[f32; 4]>) -> Curve<[f32; 4]> {
    linear_rotations(rotation_keys(span, track))
}

/// [`rotation_curve`] before its keys are turned to one side.
fn rotation_keys(span: &Span<'_>, track: &Track<[f32; 4]>) -> Curve<[f32; 4]> {
    let identity = [0.0, 0.0, 0.0, 1.0];
    let unit = |q: [f32; 4]| normalized(q).to_array();
    let keys: Vec<KeyFrame<[f32; 4]>> = match form(span, track, &identity, true) {
        Form::Keys(keys) => keys.keys().collect(),
        Form::Constant(value) => return span.constant(unit(value)),
        Form::Resampled => {
            let moments = key_moments(span, track);
            let value = |s: &Sampler<'_>| unit(s.sample(track, &identity));
            return span.resample_fitted(value, &ROTATION_FIT, &moments);
        }
    };
    let interpolation = match track.interpolation_type {
        Interpolation::Linear => GltfInterpolation::Linear,
        _ => GltfInterpolation::Step,
    };
    Curve {
        interpolation,
        times: keys.iter().map(|k| span.seconds(k.frame)).collect(),
        values: keys.iter().map(|k| unit(k.value)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicU64;

    use super::*;
    use crate::gltf::model::curve::{
        Fit, MAX_FITTED_KEYS, REFINED_KEYS_FACTOR, RESAMPLE_TURN_TOLERANCE,
    };
    use crate::gltf::model::fixtures::timeline;
    use crate::mdx::Key;

    /// glTF's cubic spline at `t` seconds (spec, Appendix C).
    fn gltf_cubic(curve: &Curve<[f32; 3]>, t: f32) -> [f32; 3] {
        let k = curve
            .times
            .iter()
            .rposition(|&x| x <= t)
            .unwrap()
            .min(curve.times.len() - 2);
        let (t0, t1) = (curve.times[k], curve.times[k + 1]);
        let d = t1 - t0;
        let s = (t - t0) / d;
        let (p0, b0) = (curve.values[3 * k + 1], curve.values[3 * k + 2]);
        let (a1, p1) = (curve.values[3 * (k + 1)], curve.values[3 * (k + 1) + 1]);
        let (s2, s3) = (s * s, s * s * s);
        core::array::from_fn(|i| {
            (2.0 * s3 - 3.0 * s2 + 1.0) * p0[i]
                + d * (s3 - 2.0 * s2 + s) * b0[i]
                + (-2.0 * s3 + 3.0 * s2) * p1[i]
                + d * (s3 - s2) * a1[i]
        })
    }

    #[test]
    fn hermite_and_bezier_translations_map_exactly_to_cubic_splines() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        for interpolation in [Interpolation::Hermite, Interpolation::Bezier] {
            let key = |frame, v: f32, i: f32, o: f32| {
                KeyFrame::with_tangents(frame, [v, -v, 2.0 * v], [i, 0.5 * i, -i], [o, 0.25 * o, o])
            };
            // Unequal segments (100 ms then 400 ms), and an added closing key.
            let track = Track::from_key_frames(
                interpolation,
                vec![
                    key(1000, 0.0, 1.0, 2.0),
                    key(1100, 3.0, -1.0, 4.0),
                    key(1500, 1.0, 2.0, -3.0),
                ],
            );
            let offset = [10.0, 20.0, 30.0];
            let curve = vector_curve(&span, &track, [0.0; 3], offset);
            assert_eq!(curve.times, [0.0, 0.1, 0.5, 0.6]);
            for ms in [0.0, 30.0, 99.0, 150.0, 333.0, 499.0, 550.0, 600.0] {
                let want = span.sampler(ms).sample(&track, &[0.0; 3]);
                let got = gltf_cubic(&curve, (ms / 1000.0) as f32);
                for i in 0..3 {
                    assert!(
                        (got[i] - (want[i] + offset[i])).abs() < 1e-4,
                        "{interpolation:?} at {ms}: {got:?} vs {want:?}"
                    );
                }
            }
        }
    }

    /// Every 1/30 s time of `span` is a time of `curve`.
    fn has_the_grid<T>(span: &Span<'_>, curve: &Curve<T>) {
        for ms in span.resample_times() {
            let t = (ms / 1000.0) as f32;
            assert!(curve.times.contains(&t), "{t} not in {:?}", curve.times);
        }
    }

    /// `curve`'s `LINEAR` value at `t` seconds, as glTF plays it.
    fn play<T: Copy>(curve: &Curve<T>, fit: &Fit<T>, t: f32) -> T {
        let k = curve.times.iter().rposition(|&x| x <= t).unwrap_or(0);
        match (curve.times.get(k + 1), curve.values.get(k + 1)) {
            (Some(&t1), Some(&b)) => {
                let t0 = curve.times[k];
                (fit.lerp)(curve.values[k], b, f64::from((t - t0) / (t1 - t0)))
            }
            _ => curve.values[k],
        }
    }

    #[test]
    fn spline_rotations_and_global_sequences_are_resampled_and_fitted() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let q = |frame, v: [f32; 4]| KeyFrame::with_tangents(frame, v, v, v);
        // A quarter turn eased in and out: 30 keys a second leave a linear
        // player up to 1.5e-3 rad off between them, so keys are added.
        let track = Track::from_key_frames(
            Interpolation::Hermite,
            vec![q(1000, [0.0, 0.0, 0.0, 1.0]), q(1600, [0.0, 0.0, h, h])],
        );
        let curve = rotation_keys(&span, &track);
        assert_eq!(curve.interpolation, GltfInterpolation::Linear);
        has_the_grid(&span, &curve);
        assert!(curve.times.len() > 19, "{}", curve.times.len());
        assert!(curve.times.len() as u64 <= 19 * REFINED_KEYS_FACTOR);
        assert_eq!(*curve.times.last().unwrap(), 0.6);
        // With the export's budget spent, the 1/30 s keys alone.
        let spent = Span {
            fitted: Arc::new(AtomicU64::new(MAX_FITTED_KEYS)),
            ..Span::first(&timeline)
        };
        assert_eq!(rotation_keys(&spent, &track).times.len(), 19);
        let identity = [0.0, 0.0, 0.0, 1.0];
        for ms in 0..=600 {
            let want = normalized(span.sampler(f64::from(ms)).sample(&track, &identity));
            let got = play(&curve, &ROTATION_FIT, ms as f32 / 1000.0);
            let off = (ROTATION_FIT.distance)(got, want.to_array());
            assert!(off <= 2.0 * RESAMPLE_TURN_TOLERANCE, "{ms} ms: {off} rad");
        }
        let mut global = Track::new(
            Interpolation::Linear,
            vec![Key::new(0, [0.0; 3]), Key::new(250, [1.0, 0.0, 0.0])],
        );
        global.global_sequence_id = 0;
        let curve = vector_curve(&span, &global, [0.0; 3], [0.0; 3]);
        has_the_grid(&span, &curve);
        // 300 ms into the sequence the global sequence is 50 ms into its
        // loop; where it restarts (250 ms), the jump back to its first key
        // is cut down to the millisecond.
        let at = |t: f32| curve.values[curve.times.iter().position(|&x| x == t).unwrap()];
        assert!((at(0.3)[0] - 0.2).abs() < 1e-5, "{:?}", at(0.3));
        assert!((at(0.249)[0] - 0.996).abs() < 1e-5, "{:?}", at(0.249));
        assert_eq!(at(0.25), [0.0; 3]);
    }

    #[test]
    fn keys_with_repeated_times_are_resampled() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        let track = Track::new(
            Interpolation::Linear,
            vec![
                Key::new(1000, [0.0; 3]),
                Key::new(1300, [1.0; 3]),
                Key::new(1300, [2.0; 3]),
                Key::new(1600, [0.0; 3]),
            ],
        );
        let curve = vector_curve(&span, &track, [0.0; 3], [0.0; 3]);
        has_the_grid(&span, &curve);
        assert!(curve.times.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            curve.values[3],
            span.sampler(100.0).sample(&track, &[0.0; 3])
        );
        // The jump at 300 ms is cut down to the millisecond: keys at 299
        // and 300 ms, each the sampler's.
        for ms in [299.0, 300.0] {
            let k = curve.times.iter().position(|&t| t == ms as f32 / 1000.0);
            let want = span.sampler(ms).sample(&track, &[0.0; 3]);
            assert_eq!(k.map(|k| curve.values[k]), Some(want), "{ms}");
        }
    }

    #[test]
    fn a_constant_track_spans_the_sequence() {
        let timeline = timeline();
        let span = Span::first(&timeline);
        let track = Track::new(Interpolation::Linear, vec![Key::new(1200, [1.0, 2.0, 3.0])]);
        let curve = vector_curve(&span, &track, [0.0; 3], [1.0, 1.0, 1.0]);
        assert_eq!(curve.times, [0.0, 0.6]);
        assert_eq!(curve.values, [[2.0, 3.0, 4.0]; 2]);
    }
    /// The first count takes each track as it will be made in this
    /// sequence: the keys it plays there (not the track's keys in other
    /// sequences; the opening and closing keys added), three values a
    /// `CUBICSPLINE` key, two for a constant; a resampled track the grid
    /// and its key moments, which fitting starts from and adds to.
    #[test]
    fn the_first_count_is_what_each_track_becomes_in_its_sequence() {
        let timeline = timeline();
        // Walk is 1000 to 1600; 200 keys before it, in other sequences.
        let elsewhere = (0..200).map(|k| Key::new(4 * k, [k as f32; 3]));
        let walk = [1100, 1250, 1400].map(|f| Key::new(f, [f as f32, 0.0, 1.0]));
        let keys: Vec<_> = elsewhere.chain(walk).collect();
        let linear = Track::new(Interpolation::Linear, keys.clone());
        let hermite = Track::new(Interpolation::Hermite, keys.clone());
        let constant = Track::new(Interpolation::Linear, vec![Key::new(1200, [1.0; 3])]);
        let mut repeated = Track::new(Interpolation::Linear, keys.clone());
        repeated.keys.push(Key::new(1400, [0.0; 3]));
        let mut global = linear.clone();
        global.global_sequence_id = 0;
        let span = Span::first(&timeline);
        for (track, made) in [(&linear, 5), (&hermite, 15), (&constant, 2)] {
            let curve = vector_curve(&span, track, [0.0; 3], [0.0; 3]);
            assert_eq!(curve.values.len(), made);
            assert_eq!(node_track_len(&span, track, &[0.0; 3], false), made as u64);
        }
        // Resampled (keys at one time, a global sequence, a spline asked
        // to be): the grid and the moments; fitting adds to that, so with
        // the export's fitting spent the curve holds no more.
        let spent = Span {
            fitted: Arc::new(AtomicU64::new(MAX_FITTED_KEYS)),
            resample_splines: true,
            ..Span::first(&timeline)
        };
        for track in [&repeated, &global, &hermite] {
            let counted = node_track_len(&spent, track, &[0.0; 3], false);
            let made = vector_curve(&spent, track, [0.0; 3], [0.0; 3]).values.len() as u64;
            assert!(made <= counted, "{made} {counted}");
            assert!(counted <= spent.resample_len() + 2 * track.keys.len() as u64);
            assert!(made >= spent.resample_len() - 1, "{made}");
        }
        // A hermite rotation is resampled, spline translations asked or not.
        let h = core::f32::consts::FRAC_1_SQRT_2;
        let turn = Track::new(
            Interpolation::Hermite,
            vec![
                Key::new(1000, [0.0, 0.0, 0.0, 1.0]),
                Key::new(1600, [0.0, 0.0, h, h]),
            ],
        );
        let identity = [0.0, 0.0, 0.0, 1.0];
        let counted = node_track_len(&spent, &turn, &identity, true);
        assert_eq!(counted, node_track_len(&span, &turn, &identity, true));
        // Its keys at the sequence's ends are on the grid already.
        let made = rotation_keys(&spent, &turn).values.len() as u64;
        assert_eq!(made, spent.resample_len());
        assert!(made <= counted && counted <= made + 2, "{made} {counted}");
    }
}
