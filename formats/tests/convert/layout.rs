//! `formats::convert` to classic where a classic model's layout differs:
//! a geoset whose vertices need more matrix groups than a classic geoset
//! holds is cut into geosets that each hold theirs (every vertex keeping
//! its best group, posed as before), and overlapping sequences are laid out
//! one after another with every key of every track (played the same at
//! every frame measured), on a model built for each and on a large
//! converted model from the wild whose sequences overlap.

use crate::common;
use crate::convert::versions::{
    findings, largest_mapped_distance, options, read, rewrite, source_findings, step, validates,
    whole,
};

use std::collections::BTreeMap;

use formats::anim::{Moment, Sampler, Timeline};
use formats::convert::{Options, Report, convert};
use formats::mdx::{
    Bone, EventObject, EventTrack, GeosetAnimation, GeosetAnimationTrack, Interpolation, Key,
    Model, NodeTrack, Track,
};
use formats::optimize::{Animated, TrackVisitor, visit_tracks};
use formats::validate::Rule;

/// The bones of `model` (as many as it has), one pair per vertex pair of a
/// strip: `pairs[k]` binds vertices `2k` and `2k + 1`.
fn bone_pairs(bones: u32) -> Vec<[u32; 2]> {
    (0..bones)
        .flat_map(|a| (a + 1..bones).map(move |b| [a, b]))
        .collect()
}

/// The sample with 25 bones, each turning about an axis of its own during
/// "Stand", and in front of its cube a strip of 600 vertices whose pairs
/// weigh each of the 300 pairs of bones 128/127 in `SKIN`: 300 matrix
/// groups of two bones. Version 1000, with an animation for the strip and
/// one for the cube, and bones 0 and 1 naming them.
fn needs_300_groups() -> Model {
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let first = model.bones()[0].clone();
    let mut bones: Vec<Bone> = vec![first.clone()];
    for i in 1..25u32 {
        let mut bone = first.clone();
        bone.node.name = format!("Bone{i}").as_str().try_into().unwrap();
        bone.node.object_id = i;
        let angle = 0.05 * i as f32;
        let axis = [angle.cos(), angle.sin(), 0.0];
        let half = angle / 2.0;
        let turned = [
            axis[0] * half.sin(),
            axis[1] * half.sin(),
            axis[2] * half.sin(),
            half.cos(),
        ];
        let keys = vec![
            Key::new(0, [0.0, 0.0, 0.0, 1.0]),
            Key::new(500, turned),
            Key::new(1000, [0.0, 0.0, 0.0, 1.0]),
        ];
        bone.node.tracks = vec![NodeTrack::Rotation(Track::new(Interpolation::Linear, keys))];
        bones.push(bone);
    }
    bones[0].geoset_id = 0;
    bones[1].geoset_id = 1;
    *model.bones_mut() = bones;
    *model.pivot_points_mut() = (0..25).map(|i| [0.1 * i as f32, 0.0, 0.0]).collect();
    *model.geoset_animations_mut() = [0, 1]
        .map(|geoset_id| GeosetAnimation {
            alpha: 1.0,
            flags: 0,
            color: [1.0; 3],
            geoset_id,
            tracks: vec![GeosetAnimationTrack::Alpha(Track::new(
                Interpolation::None,
                vec![Key::new(0, 1.0), Key::new(2000, 0.5)],
            ))],
        })
        .to_vec();
    let fast = Options {
        error_step: 0,
        ..Options::default()
    };
    convert(&mut model, 1000, &fast).unwrap();
    let cube = model.geosets()[0].clone();
    let mut strip = cube.clone();
    let pairs = bone_pairs(25);
    assert_eq!(pairs.len(), 300);
    let n = 2 * pairs.len();
    strip.vertex_positions = (0..n)
        .map(|v| [(v / 2) as f32 * 0.01, (v % 2) as f32, 2.0])
        .collect();
    strip.vertex_normals = vec![[0.0, 0.0, 1.0]; n];
    strip.tangents = Some(vec![[1.0, 0.0, 0.0, 1.0]; n]);
    for set in &mut strip.texture_coordinate_sets {
        set.texture_coordinates = (0..n).map(|v| [(v / 2) as f32 / 300.0, 0.0]).collect();
    }
    strip.matrix_groups = vec![1; 25];
    strip.matrix_indices = (0..25).collect();
    strip.vertex_groups = (0..n).map(|v| pairs[v / 2][0] as u8).collect();
    strip.skin = Some(
        (0..n)
            .flat_map(|v| {
                let [a, b] = pairs[v / 2];
                [a as u8, b as u8, 0, 0, 128, 127, 0, 0]
            })
            .collect(),
    );
    strip.faces = (0..pairs.len() as u16 - 1)
        .flat_map(|k| {
            let v = 2 * k;
            [v, v + 1, v + 2, v + 1, v + 3, v + 2]
        })
        .collect();
    strip.face_type_groups = vec![4];
    strip.face_groups = vec![strip.faces.len() as u32];
    *model.geosets_mut() = vec![strip, cube];
    model.recompute_extents();
    model
}

/// For each geoset of `cut` (converted from `source`, whose geosets `kept`
/// it holds in order, each whole or cut in parts that follow each other and
/// hold its triangles in file order): the source geoset, and for each
/// vertex the source vertex, found by the triangles alone.
fn vertex_origins(source: &Model, kept: &[usize], cut: &Model) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    let mut parts = cut.geosets().iter();
    for &k in kept {
        let whole = &source.geosets()[k];
        if let Some(same) = parts.clone().next().filter(|g| g.faces == whole.faces) {
            // Not cut: vertex for vertex (those no triangle uses included).
            parts.next();
            out.push((k, (0..same.vertex_count()).collect()));
            continue;
        }
        let mut done = 0;
        while done < whole.faces.len() {
            let part = parts.next().expect("a part for every triangle");
            let mut map = vec![usize::MAX; part.vertex_count()];
            for (i, &f) in part.faces.iter().enumerate() {
                map[usize::from(f)] = usize::from(whole.faces[done + i]);
            }
            done += part.faces.len();
            for (v, &from) in map.iter().enumerate() {
                assert_ne!(from, usize::MAX, "a vertex no triangle uses in a part");
                assert_eq!(part.vertex_positions[v], whole.vertex_positions[from]);
                assert_eq!(part.vertex_normals[v], whole.vertex_normals[from]);
            }
            out.push((k, map));
        }
        assert_eq!(done, whole.faces.len());
    }
    assert!(parts.next().is_none());
    out
}

/// The bones of each matrix group of `geoset`.
fn groups(geoset: &formats::mdx::Geoset) -> Vec<Vec<u32>> {
    let mut rest = geoset.matrix_indices.as_slice();
    geoset
        .matrix_groups
        .iter()
        .map(|&size| {
            let (group, tail) = rest.split_at(size as usize);
            rest = tail;
            group.to_vec()
        })
        .collect()
}

#[test]
fn a_geoset_needing_300_matrix_groups_is_cut_and_poses_as_before() {
    // Before, this failed: "every group its bones could form is new, and the
    // geoset already has 256 matrix groups (GNDX is a byte)".
    let source = needs_300_groups();
    let mut classic = source.clone();
    let report = convert(&mut classic, 800, &options()).unwrap();
    let classic = rewrite(&classic, "the strip of 300 groups");
    // The strip in two parts, then the cube; each part within 256 groups.
    assert_eq!(classic.geosets().len(), 3, "{report}");
    let sizes: Vec<usize> = classic
        .geosets()
        .iter()
        .map(|g| g.matrix_groups.len())
        .collect();
    assert!(sizes[..2].iter().all(|&n| n <= 256), "{sizes:?}");
    assert!(sizes[0] + sizes[1] >= 300, "{sizes:?}");
    let note = report
        .approximated
        .iter()
        .find(|n| n.path == "geosets[0]")
        .unwrap_or_else(|| panic!("the cut is not reported\n{report}"));
    assert!(
        note.what.contains("number 300") && note.what.contains("cut into 2 geosets"),
        "{note}"
    );
    // Every vertex keeps its best group: the two bones SKIN weighs 128/127.
    let map = vertex_origins(&source, &[0, 1], &classic);
    let pairs = bone_pairs(25);
    for (g, (k, vertices)) in map.iter().enumerate().take(2) {
        assert_eq!(*k, 0);
        let part = &classic.geosets()[g];
        let groups = groups(part);
        for (v, &from) in vertices.iter().enumerate() {
            let mut bones = groups[usize::from(part.vertex_groups[v])].clone();
            bones.sort_unstable();
            assert_eq!(bones, pairs[from / 2], "part {g}, vertex {v}");
        }
        // Each part holds only the groups its vertices use.
        let mut used: Vec<u8> = part.vertex_groups.clone();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len(), groups.len());
    }
    // The part's geoset animation: a copy of the strip's, appended; the
    // cube's (and bone 1, which named it) follow it to geoset 2.
    let animated: Vec<u32> = classic
        .geoset_animations()
        .iter()
        .map(|a| a.geoset_id)
        .collect();
    assert_eq!(animated, [0, 2, 1]);
    assert_eq!(
        classic.geoset_animations()[2].tracks,
        source.geoset_animations()[0].tracks
    );
    assert_eq!(classic.bones()[0].geoset_id, 0);
    assert_eq!(classic.bones()[1].geoset_id, 2);
    // Posed as the source at every frame measured, within the reported
    // skinning error (128/127 as equal weights), which is the largest.
    let error = report.skin_error.as_ref().expect("the error is measured");
    let distance = largest_mapped_distance(&source, &classic, &map, step());
    assert!(error.distance > 0.0, "{error}");
    assert!(
        (distance - error.distance).abs() <= 1e-3 * error.distance.max(1.0),
        "posed {distance}, reported {error}"
    );
    // A vertex along the cut counts once.
    assert_eq!(error.vertices, 600, "{error}");
    validates(
        &findings(&source),
        &classic,
        &[&report],
        "the strip of 300 groups",
    );
    // The same without cutting large geosets: this cut is not optional.
    let mut uncut = source.clone();
    convert(&mut uncut, 800, &whole()).unwrap();
    assert_eq!(uncut.geosets().len(), 3);
}

/// What a model plays: every track that follows the sequences (by its
/// path), sampled every `step` ms of each sequence and at its end, in
/// sequence order; an event track as its frames in each sequence, from the
/// sequence's start.
#[derive(Default)]
struct Played {
    timeline: Option<Timeline>,
    step: u32,
    tracks: BTreeMap<String, Vec<Vec<u32>>>,
}

impl Played {
    fn of(model: &Model, step: u32) -> Played {
        let mut played = Played {
            timeline: Some(Timeline::from_model(model)),
            step,
            ..Played::default()
        };
        visit_tracks(&mut model.clone(), &mut played);
        played
    }
}

impl TrackVisitor for Played {
    fn key_track<T: Animated>(
        &mut self,
        at: &str,
        track: &mut Track<T>,
        rest: Option<&T>,
        _: bool,
    ) -> bool {
        let timeline = self.timeline.as_ref().unwrap();
        if timeline.global_duration(track.global_sequence_id).is_some() {
            return true;
        }
        let default = rest.copied().unwrap_or_default();
        let mut values = Vec::new();
        for sequence in &timeline.sequences {
            let d = sequence.duration();
            for ms in (0..d).step_by(self.step as usize).chain([d]) {
                let moment = Moment {
                    interval: Some(sequence.interval),
                    frame: f64::from(sequence.interval[0] + ms),
                    counter: Some(f64::from(ms)),
                };
                let value = Sampler::new(timeline, moment).sample(track, &default);
                values.push(T::components(&value).iter().map(|c| c.to_bits()).collect());
            }
        }
        self.tracks.insert(at.to_string(), values);
        true
    }

    fn other_track(&mut self, _: &str, _: &mut i32) {}

    fn event_track(&mut self, at: &str, track: &mut EventTrack) {
        let timeline = self.timeline.as_ref().unwrap();
        if timeline.global_duration(track.global_sequence_id).is_some() {
            return;
        }
        let frames = timeline
            .sequences
            .iter()
            .map(|s| {
                let [start, end] = s.interval;
                (track.tracks.iter())
                    .filter(|&&f| start <= f && f <= end)
                    .map(|&f| f - start)
                    .collect()
            })
            .collect();
        self.tracks.insert(at.to_string(), frames);
    }

    fn unknown_track(&mut self, _: &str) {}
}

/// `converted` (from `source`) has its sequences in order, each as long as
/// before, and plays what `source` played in each ([`Played`]: every track
/// in both, but for the materials, whose HD layers are merged into one);
/// returns how many tracks were compared.
pub(crate) fn plays_the_same(
    source: &Model,
    converted: &Model,
    report: &Report,
    name: &str,
) -> usize {
    let (before, after) = (source.sequences(), converted.sequences());
    assert_eq!(before.len(), after.len(), "{name}");
    for (s, (b, a)) in before.iter().zip(after).enumerate() {
        assert_eq!((a.name, a.flags), (b.name, b.flags), "{name}");
        let length = |i: [u32; 2]| i[1].saturating_sub(i[0]);
        assert_eq!(length(a.interval), length(b.interval), "{name}: {s}");
        if s > 0 {
            assert!(a.interval[0] > after[s - 1].interval[1], "{name}: {s}");
        }
        let moved = report
            .moved
            .iter()
            .any(|n| n.path == format!("sequences[{s}]"));
        assert_eq!(moved, a.interval != b.interval, "{name}: {s}\n{report}");
    }
    assert!(
        findings(converted)
            .iter()
            .all(|f| f.rule != Rule::SequenceOrder),
        "{name}"
    );
    let (before, after) = (Played::of(source, step()), Played::of(converted, step()));
    let mut compared = 0;
    for (path, played) in &before.tracks {
        if path.starts_with("MTLS.") {
            continue;
        }
        let now = after
            .tracks
            .get(path)
            .unwrap_or_else(|| panic!("{name}: {path} is gone"));
        assert_eq!(now, played, "{name}: {path}");
        compared += 1;
    }
    compared
}

#[test]
fn overlapping_sequences_are_laid_out_with_every_key() {
    // The sample with "Birth" over "Stand" (0..1000, as Reforged doodads
    // have them), and "Death" inside it (250..750), after both.
    let mut source = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let mut death = source.sequences()[1];
    death.name = "Death".try_into().unwrap();
    death.interval = [250, 750];
    source.sequences_mut()[1].interval = [0, 1000];
    source.sequences_mut().push(death);
    // The bone's translation (keys at 0, 500, 1000) gets a key outside every
    // sequence; an event fires at 100 and 600, a second one runs on a
    // global sequence.
    let NodeTrack::Translation(track) = &mut source.bones_mut()[0].node.tracks[0] else {
        panic!("the sample's bone moves");
    };
    let keys: Vec<i32> = track.keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 500, 1000]);
    track.keys.push(Key::new(5000, [9.0; 3]));
    *source.global_sequences_mut() = vec![800];
    let event = |name: &str, global_sequence_id: i32, frames: Vec<u32>| {
        let mut node = source.bones()[0].node.clone();
        node.name = name.try_into().unwrap();
        node.object_id = 1;
        node.parent_id = u32::MAX;
        node.tracks.clear();
        EventObject {
            node,
            track: Some(EventTrack {
                tracks_count: Default::default(),
                global_sequence_id,
                tracks: frames,
            }),
        }
    };
    let sound = event("SNDxSTEP", -1, vec![100, 600]);
    let mut footprint = event("FTPxLEFT", 0, vec![100, 600]);
    footprint.node.object_id = 2;
    *source.event_objects_mut() = vec![sound, footprint];
    source.pivot_points_mut().extend([[0.0; 3], [0.0; 3]]);
    let mut reforged = source.clone();
    let fast = Options {
        error_step: 0,
        ..Options::default()
    };
    convert(&mut reforged, 1000, &fast).unwrap();
    let mut classic = reforged.clone();
    let report = convert(&mut classic, 800, &options()).unwrap();
    let classic = rewrite(&classic, "the sample with overlapping sequences");
    let intervals: Vec<[u32; 2]> = classic.sequences().iter().map(|s| s.interval).collect();
    assert_eq!(intervals, [[0, 1000], [1001, 2001], [2002, 2502]]);
    // Each sequence holds its own copy of the keys it played; the key
    // outside every sequence is gone.
    let NodeTrack::Translation(track) = &classic.bones()[0].node.tracks[0] else {
        panic!("the bone still moves");
    };
    let keys: Vec<i32> = track.keys.iter().map(|k| k.frame).collect();
    assert_eq!(keys, [0, 500, 1000, 1001, 1501, 2001, 2252]);
    let objects = classic.event_objects();
    assert_eq!(
        objects[0].track.as_ref().unwrap().tracks,
        [100, 600, 1101, 1601, 2352]
    );
    assert_eq!(objects[1].track.as_ref().unwrap().tracks, [100, 600]);
    let said = |notes: &[formats::convert::Note], what: &str| {
        notes
            .iter()
            .any(|n| n.path == "sequences" && n.what.contains(what))
    };
    assert!(said(&report.moved, "7 keys that several"), "{report}");
    assert!(
        said(&report.dropped, "1 keys outside every sequence"),
        "{report}"
    );
    assert_eq!(report.moved.len(), 3, "{report}");
    let compared = plays_the_same(&reforged, &classic, &report, "the sample");
    assert_eq!(compared, 2);
    validates(&findings(&reforged), &classic, &[&report], "the sample");
    // In order already, a model keeps its frames: the sample.
    let mut again = classic.clone();
    convert(&mut again, 1000, &fast).unwrap();
    let report = convert(&mut again, 800, &fast).unwrap();
    assert!(report.moved.is_empty(), "{report}");
    assert_eq!(again.to_bytes().unwrap(), classic.to_bytes().unwrap());
}

#[test]
fn a_wild_model_with_overlapping_sequences_converts_to_classic() {
    // 21 sequences, 9 starting before the one before ends: before, they
    // stayed so in the classic model (`sequence-order` errors).
    let name = "wowconverter_7-the-lich-king-36597.mdx";
    let Some(bytes) = common::wild_file(name) else {
        return;
    };
    let source = read(&bytes);
    let mut classic = source.clone();
    let report = convert(&mut classic, 800, &options()).unwrap_or_else(|e| panic!("{e}"));
    let classic = rewrite(&classic, name);
    let compared = plays_the_same(&source, &classic, &report, name);
    eprintln!("{name}: {compared} tracks play the same\n{report}");
    assert!(compared >= 150, "{compared}");
    assert!(report.moved.len() >= 9, "{report}");
    validates(&source_findings(name, &source), &classic, &[&report], name);
    // The largest skinning error is reported, and it is what posing finds.
    let kept: Vec<usize> = (0..source.geosets().len()).collect();
    assert_eq!(classic.geosets().len(), kept.len());
    let map = vertex_origins(&source, &kept, &classic);
    let distance = largest_mapped_distance(&source, &classic, &map, step());
    let error = report.skin_error.as_ref().expect("SKIN to groups");
    assert!(
        (distance - error.distance).abs() <= 1e-3 * error.distance.max(1.0),
        "posed {distance}, reported {error}"
    );
}
