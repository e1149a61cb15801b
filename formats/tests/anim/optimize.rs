//! The keyframe optimizer, proven by sampling: for every corpus model (MDX
//! and MDL), at every integer frame of every sequence and of every global
//! sequence, every track of the optimized model is within the tolerance of
//! the original (a removed track counts as its rest value), and the file is
//! smaller or the same. The sizes saved are printed
//! (`cargo test -p formats --test integration -- anim::optimize:: --nocapture`).
//!
//! The sampling here is the test's own sweep over the keys the sampler
//! plays ([`SequenceKeys`]), checked against the sampler itself at every
//! 97th frame; distances are the test's own (rotations by the angle between
//! them, from `acos` in double precision).

use crate::common;

use std::any::Any;
use std::collections::BTreeMap;

use formats::anim::interpolate::between;
use formats::anim::{SequenceKeys, Timeline};
use formats::mdx::{Interpolation, Key, KeyFrame, Model, Track};
use formats::optimize::{Animated, Options, TrackVisitor, optimize, visit_tracks};

/// A track as found: the track, its rest value, whether it steps.
struct Found<T> {
    track: Track<T>,
    rest: Option<T>,
    stepped: bool,
}

/// Every keyframe track of a model by path (boxed: the value types differ).
#[derive(Default)]
struct Collect(BTreeMap<String, Box<dyn Any>>);

impl TrackVisitor for Collect {
    fn key_track<T: Animated>(
        &mut self,
        at: &str,
        t: &mut Track<T>,
        rest: Option<&T>,
        stepped: bool,
    ) -> bool {
        let found = Found {
            track: t.clone(),
            rest: rest.cloned(),
            stepped,
        };
        assert!(
            self.0.insert(at.to_string(), Box::new(found)).is_none(),
            "two tracks at {at}"
        );
        true
    }
    fn other_track(&mut self, _: &str, _: &mut i32) {}
    fn unknown_track(&mut self, _: &str) {}
}

fn tracks(model: &Model) -> BTreeMap<String, Box<dyn Any>> {
    let mut collect = Collect::default();
    visit_tracks(&mut model.clone(), &mut collect);
    collect.0
}

/// The intervals a track with this global sequence id is sampled in.
fn intervals(timeline: &Timeline, global_sequence_id: i32) -> (Vec<[i64; 2]>, bool) {
    match timeline.global_duration(global_sequence_id) {
        Some(d) => (vec![[0, i64::from(d)]], true),
        None => (
            timeline
                .sequences
                .iter()
                .map(|s| s.interval.map(i64::from))
                .collect(),
            false,
        ),
    }
}

/// The track's value at every integer frame of each of its intervals.
fn sweep<T: Animated>(
    track: &Track<T>,
    timeline: &Timeline,
    rest: &T,
    interpolation: Interpolation,
    samples: &mut usize,
) -> Vec<T::Output> {
    let (intervals, global) = intervals(timeline, track.global_sequence_id);
    let mut out = Vec::new();
    for interval in intervals {
        let played = SequenceKeys::new(track, interval, global, rest);
        let keys: Vec<KeyFrame<T>> = played.keys().collect();
        // Keys out of order (validate reports them; the optimizer leaves
        // such tracks alone) are sampled by the sampler alone.
        let sorted = keys.windows(2).all(|w| w[0].frame <= w[1].frame);
        let mut next = 0;
        for frame in interval[0]..=interval[1] {
            let value = match played.constant() {
                Some(value) => value.output(),
                None if !sorted => played.value_at(interpolation, frame as f64),
                None => {
                    while keys.get(next).is_some_and(|k| i64::from(k.frame) <= frame) {
                        next += 1;
                    }
                    match (
                        next.checked_sub(1).and_then(|i| keys.get(i)),
                        keys.get(next),
                    ) {
                        (Some(a), Some(b)) => between(interpolation, a, b, frame as f64),
                        (Some(last), None) => last.value.output(),
                        (None, Some(first)) => first.value.output(),
                        (None, None) => rest.output(),
                    }
                }
            };
            if frame % 97 == 0 {
                let sampled = played.value_at(interpolation, frame as f64);
                let bits = |v: &T::Output| {
                    T::components(v)
                        .iter()
                        .map(|c| c.to_bits())
                        .collect::<Vec<_>>()
                };
                assert_eq!(bits(&sampled), bits(&value), "the sweep is the sampler");
            }
            out.push(value);
            *samples += 1;
        }
    }
    out
}

/// How far apart two sampled values are: the angle between rotations (4
/// numbers) from `acos` in double precision, else the largest difference.
fn distance(a: &[f32], b: &[f32]) -> f64 {
    if a.iter()
        .map(|c| c.to_bits())
        .eq(b.iter().map(|c| c.to_bits()))
    {
        return 0.0;
    }
    if a.len() == 4 {
        let unit = |q: &[f32]| {
            let q: Vec<f64> = q.iter().map(|&c| f64::from(c)).collect();
            let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            q.into_iter().map(move |c| c / n)
        };
        let dot: f64 = unit(a).zip(unit(b)).map(|(x, y)| x * y).sum();
        return 2.0 * dot.abs().min(1.0).acos();
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            if x == y {
                0.0
            } else {
                f64::from((x - y).abs())
            }
        })
        .fold(
            0.0,
            |m, d| if d.is_nan() { f64::INFINITY } else { m.max(d) },
        )
}

/// The largest difference between a track of the original and the same track
/// after (`None`: removed, its rest value throughout), every interval and
/// (for tracks the game steps) both ways of interpolating.
fn compare<T: Animated>(
    before: &Found<T>,
    after: Option<&Found<T>>,
    timelines: (&Timeline, &Timeline),
    samples: &mut usize,
    at: &str,
) -> f64 {
    // Without a known rest value the track cannot have been removed.
    let rest = before.rest.unwrap_or_default();
    let declared = before.track.interpolation_type;
    let mut ways = vec![declared];
    if before.stepped {
        ways.push(Interpolation::None);
    }
    let mut worst = 0.0f64;
    for way in ways {
        let old = sweep(&before.track, timelines.0, &rest, way, samples);
        let new = match after {
            Some(after) => {
                assert_eq!(after.track.interpolation_type, declared, "{at}");
                sweep(&after.track, timelines.1, &rest, way, samples)
            }
            None => {
                assert!(before.rest.is_some(), "{at}: removed without a rest value");
                vec![rest.output(); old.len()]
            }
        };
        assert_eq!(old.len(), new.len(), "{at}: frames sampled");
        for (x, y) in old.iter().zip(&new) {
            // The library's distance is 0 only for equal components: those
            // need no second look (and most values are equal).
            if T::distance(x, y) != 0.0 {
                worst = worst.max(distance(&T::components(x), &T::components(y)));
            }
        }
    }
    worst
}

/// Compares the boxed tracks (of whichever value type they hold).
fn compare_any(
    before: &dyn Any,
    after: Option<&dyn Any>,
    timelines: (&Timeline, &Timeline),
    samples: &mut usize,
    at: &str,
) -> f64 {
    macro_rules! types {
        ($($t:ty),*) => {$(
            if let Some(before) = before.downcast_ref::<Found<$t>>() {
                let after = after.map(|a| a.downcast_ref::<Found<$t>>().expect("same type"));
                return compare(before, after, timelines, samples, at);
            }
        )*};
    }
    types!(
        f32,
        [f32; 2],
        [f32; 3],
        [f32; 4],
        u32,
        formats::mdx::alpha::CompressedQuaternion
    );
    panic!("{at}: a track of a type the test does not know");
}

/// Optimizes `model` and checks every track at every frame; returns the
/// largest difference and the number of values sampled.
fn prove(name: &str, model: &Model, tolerance: f32) -> (f64, usize, usize, usize) {
    let mut optimized = model.clone();
    let report = optimize(&mut optimized, &Options { tolerance });
    let timelines = (
        Timeline::from_model(model),
        Timeline::from_model(&optimized),
    );
    // Only global sequences went from the timeline, and none a track used.
    assert_eq!(timelines.0.sequences, timelines.1.sequences, "{name}");
    let before = tracks(model);
    let mut after = tracks(&optimized);
    let (mut worst, mut samples) = (0.0f64, 0usize);
    for (at, track) in &before {
        let new = after.remove(at);
        let d = compare_any(
            track.as_ref(),
            new.as_deref(),
            (&timelines.0, &timelines.1),
            &mut samples,
            &format!("{name}: {at}"),
        );
        assert!(
            d <= f64::from(tolerance) + 1e-6,
            "{name}: {at} moved {d} (tolerance {tolerance})"
        );
        worst = worst.max(d);
    }
    assert!(
        after.is_empty(),
        "{name}: tracks that were not there: {:?}",
        after.keys()
    );
    assert_eq!(report.tracks_before, before.len(), "{name}");
    let bytes = (
        model.to_bytes().unwrap().len(),
        optimized.to_bytes().unwrap().len(),
    );
    assert!(
        bytes.1 <= bytes.0,
        "{name}: grew from {} to {}",
        bytes.0,
        bytes.1
    );
    // What is written reads back to the same bytes (leniently for the two
    // with a light track after LITE, which the optimizer keeps there; bytes,
    // not `==`: two corpus files hold NaN).
    let written = optimized.to_bytes().unwrap();
    let back = Model::from_bytes_lenient(&written).unwrap().0;
    assert!(
        back.to_bytes().unwrap() == written,
        "{name}: does not read back"
    );
    (worst, samples, bytes.0, bytes.1)
}

/// Proves every model at `tolerance` and prints the sizes; returns the bytes
/// before and after.
fn prove_all(models: &[(String, Model)], tolerance: f32) -> (usize, usize) {
    let (mut total_before, mut total_after, mut total_samples) = (0, 0, 0);
    let mut table = format!(
        "{:<55} {:>9} {:>9} {:>7}\n",
        "model", "MDX bytes", "after", "saved"
    );
    for (name, model) in models {
        let (worst, samples, before, after) = prove(name, model, tolerance);
        table += &format!(
            "{name:<55} {before:>9} {after:>9} {:>6.1}%  ({samples} values, largest change {worst:.2e})\n",
            100.0 * (before - after) as f64 / before as f64
        );
        total_before += before;
        total_after += after;
        total_samples += samples;
    }
    table += &format!(
        "{:<55} {total_before:>9} {total_after:>9}  ({total_samples} values)",
        "total"
    );
    println!("{table}");
    (total_before, total_after)
}

/// Every corpus MDX model, every version (800 to 1300): it plays the same,
/// and it saves something on real models.
#[test]
fn every_corpus_mdx_model_plays_the_same_within_the_tolerance() {
    let models = common::corpus_models();
    if models.is_empty() {
        return;
    }
    assert_eq!(models.len(), 57);
    let (before, after) = prove_all(&models, formats::optimize::DEFAULT_TOLERANCE);
    assert!(after < before - before / 50, "{before} -> {after}");
}

/// The same proof at the coarsest tolerance BENCHMARKS.md quotes savings for
/// (0.1): a larger tolerance removes more keys, so more of the interpolation
/// between the kept ones is trusted, and the bound must still hold at every
/// frame. It must also save more than the default does.
#[test]
fn every_corpus_mdx_model_plays_the_same_within_a_coarse_tolerance() {
    let models = common::corpus_models();
    if models.is_empty() {
        return;
    }
    let (before, coarse) = prove_all(&models, 0.1);
    // The default's size, without proving it again (the test above does).
    let fine: usize = models
        .iter()
        .map(|(_, model)| {
            let mut optimized = model.clone();
            let options = Options {
                tolerance: formats::optimize::DEFAULT_TOLERANCE,
            };
            optimize(&mut optimized, &options);
            optimized.to_bytes().unwrap().len()
        })
        .sum();
    assert!(
        coarse < fine,
        "{before}: {fine} at the default, {coarse} at 0.1"
    );
}

/// Every corpus MDL model (read leniently, as `formats optimize` reads them).
#[test]
fn every_corpus_mdl_model_plays_the_same_within_the_tolerance() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let models: Vec<(String, Model)> = common::files_in(&root, "mdl", ".mdl")
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(root.join(&path)).unwrap();
            let model = formats::mdl::from_str_lenient(&text).map(|(m, _)| m);
            (
                path.clone(),
                model.unwrap_or_else(|e| panic!("{path}: {e}")),
            )
        })
        .collect();
    assert_eq!(models.len(), 36);
    let (before, after) = prove_all(&models, formats::optimize::DEFAULT_TOLERANCE);
    assert!(after < before, "{before} -> {after}");
}

/// The sample model (a bone, "Stand" 0..1000 and "Birth" 2000..3000) with
/// these tracks on its bone and these global sequences.
fn model_with(tracks: Vec<formats::mdx::NodeTrack>, global_sequences: &[u32]) -> Model {
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    model.bones_mut()[0].node.tracks = tracks;
    if !global_sequences.is_empty() {
        *model.global_sequences_mut() = global_sequences.to_vec();
    }
    model
}

fn translation(interpolation: Interpolation, keys: Vec<Key<[f32; 3]>>) -> formats::mdx::NodeTrack {
    formats::mdx::NodeTrack::Translation(Track::new(interpolation, keys))
}

/// A translation track of keys with tangents.
fn spline_translation(
    interpolation: Interpolation,
    keys: Vec<KeyFrame<[f32; 3]>>,
) -> formats::mdx::NodeTrack {
    formats::mdx::NodeTrack::Translation(Track::from_key_frames(interpolation, keys))
}

/// The bone's tracks after optimizing (checked by sampling first).
fn optimized(model: &Model, tolerance: f32) -> (Model, formats::optimize::Report) {
    prove("built", model, tolerance);
    let mut out = model.clone();
    let report = optimize(&mut out, &Options { tolerance });
    (out, report)
}

fn frames(track: &formats::mdx::NodeTrack) -> Vec<i32> {
    match track {
        formats::mdx::NodeTrack::Translation(t) => t.keys.iter().map(|k| k.frame).collect(),
        formats::mdx::NodeTrack::Rotation(t) => t.keys.iter().map(|k| k.frame).collect(),
        formats::mdx::NodeTrack::Scaling(t) => t.keys.iter().map(|k| k.frame).collect(),
        formats::mdx::NodeTrack::Unknown(_) => Vec::new(),
    }
}

/// The keys of the bone's first track, a translation.
fn translation_keys(model: &Model) -> Vec<KeyFrame<[f32; 3]>> {
    match &model.bones()[0].node.tracks[0] {
        formats::mdx::NodeTrack::Translation(t) => t.key_frames().collect(),
        other => panic!("not a translation: {other:?}"),
    }
}

fn bone_frames(model: &Model) -> Vec<Vec<i32>> {
    model.bones()[0].node.tracks.iter().map(frames).collect()
}

/// mdx-m3-viewer's optimizer (pull request 79) broke tracks of two keys:
/// here two keys at a sequence's ends stay, two keys of one value inside a
/// sequence become one (the sampler holds a lone key's value throughout),
/// and two keys at the rest value go with their track.
#[test]
fn two_key_tracks() {
    let ends = translation(
        Interpolation::Linear,
        vec![
            Key::new(0, [0.0, 0.0, 1.0]),
            Key::new(1000, [0.0, 0.0, 2.0]),
        ],
    );
    let same = formats::mdx::NodeTrack::Scaling(Track::new(
        Interpolation::Linear,
        vec![Key::new(2200, [2.0; 3]), Key::new(2800, [2.0; 3])],
    ));
    let rest = formats::mdx::NodeTrack::Rotation(Track::new(
        Interpolation::Linear,
        vec![
            Key::new(0, [0.0, 0.0, 0.0, 1.0]),
            Key::new(1000, [0.0, 0.0, 0.0, 1.0]),
        ],
    ));
    let model = model_with(vec![ends, same, rest], &[]);
    let (out, report) = optimized(&model, 0.001);
    assert_eq!(bone_frames(&out), [vec![0, 1000], vec![2200]]);
    assert_eq!(
        (report.tracks_removed, report.keys_before, report.keys_after),
        (1, 6, 3)
    );
    // Two keys inside "Stand", not at its ends: both stay (the ends the
    // sampler adds lead to and from them).
    let inside = translation(
        Interpolation::Linear,
        vec![
            Key::new(200, [0.0, 0.0, 1.0]),
            Key::new(700, [0.0, 0.0, 1.5]),
        ],
    );
    let (out, _) = optimized(&model_with(vec![inside], &[]), 0.001);
    assert_eq!(bone_frames(&out), [vec![200, 700]]);
}

/// Keys that the interpolation reproduces go, in linear, hermite and bezier
/// tracks; a key off the curve by more than the tolerance stays; the keys
/// at a sequence's ends stay, and keys outside every sequence too.
#[test]
fn keys_on_the_curve_go_and_the_others_stay() {
    // Linear: 0, 1, 2, 3 on a line over "Stand"; the key at 1500 is in no
    // sequence; 2000 and 3000 end "Birth".
    let line = |z: [f32; 4]| {
        translation(
            Interpolation::Linear,
            vec![
                Key::new(0, [0.0, 0.0, z[0]]),
                Key::new(250, [0.0, 0.0, z[1]]),
                Key::new(500, [0.0, 0.0, z[2]]),
                Key::new(1000, [0.0, 0.0, z[3]]),
                Key::new(1500, [0.0, 0.0, 9.0]),
                Key::new(2000, [0.0, 0.0, 1.0]),
                Key::new(3000, [0.0, 0.0, 1.0]),
            ],
        )
    };
    let (out, _) = optimized(&model_with(vec![line([0.0, 1.0, 2.0, 4.0])], &[]), 0.001);
    assert_eq!(bone_frames(&out), [vec![0, 1000, 1500, 2000]]);
    // The key at 250 off the line by 0.01: it stays at tolerance 0.001 (and
    // so does 500, off the line from it to 1000), both go at 0.02.
    let bent = model_with(vec![line([0.0, 1.01, 2.0, 4.0])], &[]);
    assert_eq!(
        bone_frames(&optimized(&bent, 0.001).0),
        [vec![0, 250, 500, 1000, 1500, 2000]]
    );
    assert_eq!(
        bone_frames(&optimized(&bent, 0.02).0),
        [vec![0, 1000, 1500, 2000]]
    );

    // Hermite: p(t) = t³ over 0..1000 split at 500 into two segments, each
    // with its own per-segment tangents (the cubic's derivative times the
    // segment's length): the middle key goes and the ends' tangents are
    // stretched back to the whole segment's (0 and 3).
    let key = |frame, z: f32, tin: f32, tout: f32| {
        KeyFrame::with_tangents(frame, [0.0, 0.0, z], [0.0, 0.0, tin], [0.0, 0.0, tout])
    };
    let cubic = vec![
        key(0, 0.0, 0.0, 0.0),
        key(500, 0.125, 0.375, 0.375),
        key(1000, 1.0, 1.5, 0.0),
    ];
    let (out, _) = optimized(
        &model_with(
            vec![spline_translation(Interpolation::Hermite, cubic.clone())],
            &[],
        ),
        0.001,
    );
    let keys = translation_keys(&out);
    assert_eq!(keys.iter().map(|k| k.frame).collect::<Vec<_>>(), [0, 1000]);
    assert_eq!(keys[1].tangents.map(|t| t.in_tan), Some([0.0, 0.0, 3.0]));
    // The same middle key moved off the cubic stays.
    let mut off = cubic;
    off[1].value[2] = 0.2;
    let (out, _) = optimized(
        &model_with(vec![spline_translation(Interpolation::Hermite, off)], &[]),
        0.001,
    );
    assert_eq!(bone_frames(&out), [vec![0, 500, 1000]]);

    // Bezier: the same cubic, control points at a third of each segment.
    let bezier = vec![
        key(0, 0.0, 0.0, 0.0),
        key(500, 0.125, 0.0, 0.25),
        key(1000, 1.0, 0.5, 1.0),
    ];
    let (out, _) = optimized(
        &model_with(vec![spline_translation(Interpolation::Bezier, bezier)], &[]),
        0.001,
    );
    let keys = translation_keys(&out);
    assert_eq!(keys.iter().map(|k| k.frame).collect::<Vec<_>>(), [0, 1000]);
    assert_eq!(keys[1].tangents.map(|t| t.in_tan), Some([0.0, 0.0, 0.0]));
}

/// Rotations are compared by angle: a turn at constant speed about Z loses
/// its middle key; a middle key 0.01 rad off the arc stays at tolerance
/// 0.001 and goes at 0.02.
#[test]
fn rotations_by_angle() {
    let about_z = |angle: f32| {
        let (s, c) = (angle / 2.0).sin_cos();
        [0.0, 0.0, s, c]
    };
    let turn = |middle: f32| {
        formats::mdx::NodeTrack::Rotation(Track::new(
            Interpolation::Linear,
            vec![
                Key::new(0, about_z(0.0)),
                Key::new(500, about_z(middle)),
                Key::new(1000, about_z(1.0)),
            ],
        ))
    };
    assert_eq!(
        bone_frames(&optimized(&model_with(vec![turn(0.5)], &[]), 0.001).0),
        [vec![0, 1000]]
    );
    let off = model_with(vec![turn(0.51)], &[]);
    assert_eq!(bone_frames(&optimized(&off, 0.001).0), [vec![0, 500, 1000]]);
    assert_eq!(bone_frames(&optimized(&off, 0.02).0), [vec![0, 1000]]);
}

/// Global sequences no track uses go, and the ids of the tracks that use the
/// others are renumbered; a track at rest goes first, and its global
/// sequence with it.
#[test]
fn unused_global_sequences_go_and_ids_are_renumbered() {
    let on = |id: i32, z: f32| {
        let mut t = Track::new(
            Interpolation::Linear,
            vec![Key::new(0, [0.0, 0.0, 0.0]), Key::new(100, [0.0, 0.0, z])],
        );
        t.global_sequence_id = id;
        t
    };
    // Global sequences 0 (unused), 1 (a track at rest: all keys 0), 2, 3 (unused).
    let mut model = model_with(
        vec![
            formats::mdx::NodeTrack::Translation(on(2, 5.0)),
            formats::mdx::NodeTrack::Scaling({
                let mut t = Track::new(Interpolation::Linear, vec![Key::new(0, [1.0; 3])]);
                t.global_sequence_id = 1;
                t
            }),
        ],
        &[400, 300, 200, 100],
    );
    // An event object on global sequence 2 as well.
    let mut event = formats::mdx::EventObject {
        node: model.bones()[0].node.clone(),
        track: Some(formats::mdx::objects::EventTrack {
            tracks_count: Default::default(),
            global_sequence_id: 2,
            tracks: vec![50],
        }),
    };
    event.node.tracks.clear();
    event.node.object_id = 1;
    model.event_objects_mut().push(event);
    model.pivot_points_mut().push([0.0; 3]);
    let (out, report) = optimized(&model, 0.001);
    assert_eq!(report.global_sequences_removed, [0, 1, 3]);
    assert_eq!(out.global_sequences(), [200]);
    let formats::mdx::NodeTrack::Translation(t) = &out.bones()[0].node.tracks[0] else {
        panic!("a translation");
    };
    assert_eq!(
        (out.bones()[0].node.tracks.len(), t.global_sequence_id),
        (1, 0)
    );
    assert_eq!(
        out.event_objects()[0]
            .track
            .as_ref()
            .unwrap()
            .global_sequence_id,
        0
    );
    // None used: GLBS goes.
    let mut none = model_with(Vec::new(), &[10, 20]);
    let report = optimize(&mut none, &Options::default());
    assert_eq!(report.global_sequences_removed, [0, 1]);
    assert!(
        !none
            .chunks
            .iter()
            .any(|c| matches!(c, formats::mdx::Chunk::GlobalSequences(_)))
    );
}

/// A visibility track is stepped by the game whatever it says: a key that
/// its linear interpolation reproduces still stays (stepped, it shows).
#[test]
fn visibility_is_stepped() {
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let node = model.bones()[0].node.clone();
    model.attachments_mut().push(formats::mdx::Attachment {
        node: formats::mdx::Node {
            object_id: 1,
            tracks: Vec::new(),
            ..node
        },
        path: Default::default(),
        attachment_id: 0,
        tracks: vec![formats::mdx::AttachmentTrack::Visibility(Track::new(
            Interpolation::Linear,
            vec![Key::new(0, 1.0), Key::new(500, 0.5), Key::new(1000, 0.0)],
        ))],
    });
    model.pivot_points_mut().push([0.0; 3]);
    let (out, report) = optimized(&model, 0.001);
    assert_eq!((report.keys_before, report.keys_after), (6, 6));
    let formats::mdx::AttachmentTrack::Visibility(t) = &out.attachments()[0].tracks[0] else {
        panic!("visibility");
    };
    assert_eq!(t.keys.len(), 3);
}

mod damaged {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever a damaged sample reads as (hostile intervals, frames,
        /// counts and floats), optimizing it, measuring its extents and
        /// validating them neither panics nor hangs, and the optimized
        /// model writes.
        #[test]
        fn damaged_models_optimize_and_fix(
            edits in proptest::collection::vec((any::<proptest::sample::Index>(), any::<u8>()), 1..8)
        ) {
            let mut data = formats::sample::sample_mdx();
            for (at, byte) in edits {
                let i = at.index(data.len());
                data[i] = byte;
            }
            if let Ok((mut model, _)) = Model::from_bytes_lenient(&data) {
                optimize(&mut model, &Options::default());
                model.recompute_extents();
                for finding in formats::validate::extents::model(&model) {
                    prop_assert!(!finding.message.is_empty());
                }
                prop_assert!(model.to_bytes().is_ok());
            }
        }
    }
}
