//! `formats::bounds` on real models: Blizzard's stored extents are what the
//! measurement gives, a stale model is reported and fixed, and the extents
//! written for every version hold the geometry at frames the measurement
//! did not pose.

use crate::common;

use formats::anim::{Sampler, Skeleton, Timeline, geoset_state, meshes};
use formats::bounds::{Aabb, ExtentOptions, escapes, measure};
use formats::mdx::{Extent, Model};
use formats::validate::{self, Rule};

fn corpus(name: &str) -> Option<Model> {
    let data = common::corpus_file(&format!("mdx/{name}"))?;
    Some(Model::from_bytes_lenient(&data).unwrap().0)
}

/// The largest difference of a corner coordinate or of the radius.
fn difference(a: &Extent, b: &Extent) -> f32 {
    let corners = a.minimum.iter().zip(&b.minimum);
    let corners = corners.chain(a.maximum.iter().zip(&b.maximum));
    corners
        .chain([(&a.bounds_radius, &b.bounds_radius)])
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// `wc3lib_Orc_Exp.mdx` is a Blizzard game file (the orc experience bar):
/// the extents its exporter stored (`MODL`'s, the 2 sequences', the 28
/// geosets', the 32 per-sequence ones) hold the geometry posed every 100 ms
/// from each sequence's start (`bounds::escapes`, `BLIZZARD_STEP`), to
/// 0.01 units on a model 58,000 units wide; and most are what the
/// measurement (every 10 ms and key) gives: 45 of 63 within 0.1, all
/// within 20 units but the two billboarded planes, stored flat with the
/// radius of their turn (656 and 1348 units), measured as the cube that
/// radius sweeps. (A radius of 0, which it left in 2 geosets and in `MODL`,
/// is not set, not compared.) So validate finds nothing stale in it.
#[test]
fn blizzard_extents_are_what_the_geometry_gives() {
    let Some(model) = corpus("wc3lib_Orc_Exp.mdx") else {
        return;
    };
    let measured = measure(&model, &ExtentOptions::default()).unwrap();
    let mut stored = measured.clone();
    stored.model = model.model_chunk().unwrap().extent;
    for (s, sequence) in stored.sequences.iter_mut().zip(model.sequences()) {
        *s = sequence.extent;
    }
    for (g, geoset) in stored.geosets.iter_mut().zip(model.geosets()) {
        g.extent = geoset.extent;
        g.sequences.clone_from(&geoset.sequence_extents);
    }
    let escapes = escapes(&model, &stored).unwrap();
    let all = [escapes.model]
        .into_iter()
        .chain(escapes.sequences.iter().copied())
        .chain(escapes.geosets.iter().map(|g| g.extent))
        .chain(
            escapes
                .geosets
                .iter()
                .flat_map(|g| g.sequences.iter().copied()),
        );
    let worst = all.fold(f32::NEG_INFINITY, f32::max);
    assert!((0.0..0.01).contains(&worst), "{worst}");

    let mut differences: Vec<(String, f32)> = Vec::new();
    let mut compare = |what: String, stored: &Extent, measured: &Extent| {
        let unset = stored.bounds_radius == 0.0;
        let radius = if unset {
            measured.bounds_radius
        } else {
            stored.bounds_radius
        };
        let stored = Extent {
            bounds_radius: radius,
            ..*stored
        };
        differences.push((what, difference(&stored, measured)));
    };
    for (s, (sequence, m)) in model
        .sequences()
        .iter()
        .zip(&measured.sequences)
        .enumerate()
    {
        compare(format!("sequence {s}"), &sequence.extent, m);
    }
    for (g, (geoset, m)) in model.geosets().iter().zip(&measured.geosets).enumerate() {
        compare(format!("geoset {g}"), &geoset.extent, &m.extent);
        for (s, (stored, m)) in geoset.sequence_extents.iter().zip(&m.sequences).enumerate() {
            compare(format!("geoset {g} in {s}"), stored, m);
        }
    }
    let modl = model.model_chunk().unwrap().extent;
    compare("MODL".into(), &modl, &measured.model);
    assert_eq!(differences.len(), 2 + 28 + 32 + 1);
    let close = differences.iter().filter(|(_, d)| *d < 0.1).count();
    let far: Vec<&str> = differences
        .iter()
        .filter(|(_, d)| *d >= 20.0)
        .map(|(what, _)| what.as_str())
        .collect();
    assert!(
        close >= 45 && far == ["geoset 19", "geoset 22"],
        "{close} close, far {far:?}"
    );
    for (g, radius) in [(19, 656.186), (22, 1347.71)] {
        let (stored, measured) = (model.geosets()[g].extent, measured.geosets[g].extent);
        // Flat across x, where the cube is twice the radius wide.
        assert_eq!(stored.minimum[0], stored.maximum[0], "{g}");
        assert_eq!(stored.bounds_radius, radius);
        let width = measured.maximum[0] - measured.minimum[0];
        assert!((width - 2.0 * radius).abs() < 0.1, "{g}: {width}");
    }
    assert_eq!(validate::extents::against(&model, &measured), []);
}

/// `zf_cube.mdx` moves its cube 200 units to either side in "Stand" while
/// every extent it stores is the cube at rest, and its geoset lists 3
/// per-sequence extents for its 1 sequence: validate reports the sequence's
/// extent (the cube swings out of its box and its sphere) and the list's
/// length; `MODL`'s stands for no sequence (the sequence's is set) and the
/// geoset's holds the geoset at rest, as Blizzard's may. `recompute_extents`
/// makes every one the geometry's, for good.
#[test]
fn a_stale_model_is_reported_and_fixed() {
    let Some(mut model) = corpus("zf_cube.mdx") else {
        return;
    };
    let findings = validate::extents::model(&model);
    let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "chunks[2].SEQS.sequences[0].extent",
            "chunks[5].GEOS.geosets[0].sequence_extents"
        ]
    );
    assert!(findings.iter().all(|f| f.rule == Rule::StaleExtent));
    // The far corner (220, 20, 0) is 221.811 from the box's centre (0, 0,
    // 20), whose sphere is 41.699 wide.
    assert!(
        findings[0]
            .message
            .starts_with("the geometry reaches 180.112 beyond the box and its bounds sphere"),
        "{}",
        findings[0]
    );
    assert_eq!(findings[1].message, "3 extents for 1 sequence");

    let changes = model.recompute_extents();
    let removed: Vec<&str> = changes
        .iter()
        .filter(|c| c.after.is_none())
        .map(|c| c.path.as_str())
        .collect();
    assert_eq!(
        removed,
        [
            "chunks[5].GEOS.geosets[0].sequence_extents[1]",
            "chunks[5].GEOS.geosets[0].sequence_extents[2]"
        ]
    );
    let modl = model.model_chunk().unwrap().extent;
    assert_eq!(
        (modl.minimum, modl.maximum),
        ([-220.0, -20.0, 0.0], [220.0, 20.0, 40.0])
    );
    // The farthest vertex from the box's centre (0, 0, 20): a corner at 220, 20, 0.
    assert_eq!(
        modl.bounds_radius,
        (220.0f32 * 220.0 + 400.0 + 400.0).sqrt()
    );
    assert_eq!(validate::extents::model(&model), []);
    // Written and read back, nothing is left to change.
    let mut back = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
    assert_eq!(back, model);
    assert_eq!(back.recompute_extents(), []);
}

/// Every posed vertex of every shown geoset, at frames 7 ms apart (the
/// measurement poses every 10 ms and at keys), lies inside the sequence's
/// extent and its geoset's per-sequence extent, within 1 % of the model's
/// size: for a model of each version the corpus has (800, 1000 with `SKIN`,
/// 1100, 1200, and the WoW alpha 1300, which skins by matrix groups).
#[test]
fn extents_written_for_every_version_hold_the_geometry() {
    for (name, version) in [
        ("mv_SmileyGW_004.mdx", 800),
        ("pqw3_candle.mdx", 1000),
        ("pqw3_BossMinimapIcon.mdx", 1100),
        ("risk_HumanBattleship_v1200.mdx", 1200),
        ("wowalpha_Boar.mdx", 1300),
    ] {
        let Some(mut model) = corpus(name) else {
            return;
        };
        assert_eq!(model.version(), version);
        assert!(
            !model.recompute_extents().is_empty(),
            "{name}: nothing changed"
        );
        assert_eq!(validate::extents::model(&model), [], "{name}");
        let back = Model::from_bytes(&model.to_bytes().unwrap()).unwrap();
        assert_eq!(back, model, "{name}");

        let (sequences, geosets): (Vec<Extent>, Vec<Vec<Extent>>) = if version >= 1300 {
            (
                model.alpha_sequences().iter().map(|s| s.bounds).collect(),
                model
                    .alpha_geosets()
                    .iter()
                    .map(|g| g.seq_bounds.clone())
                    .collect(),
            )
        } else {
            (
                model.sequences().iter().map(|s| s.extent).collect(),
                model
                    .geosets()
                    .iter()
                    .map(|g| g.sequence_extents.clone())
                    .collect(),
            )
        };
        let modl = match model.model_chunk() {
            Some(m) => m.extent,
            None => model.alpha_model_chunk().unwrap().bounds,
        };
        let size = Aabb::of(&modl).diagonal();
        let tolerance = 0.01 * size;
        let inside = |p: [f32; 3], e: &Extent| {
            (0..3).all(|i| p[i] >= e.minimum[i] - tolerance && p[i] <= e.maximum[i] + tolerance)
        };
        let skeleton = Skeleton::from_model(&model);
        let timeline = Timeline::from_model(&model);
        let meshes = meshes(&model, &skeleton);
        let mut checked = 0usize;
        for (s, sequence) in timeline.sequences.iter().enumerate() {
            // (Frame 0 too: "Stand" of the 1100 model is 0 ms long.)
            for ms in std::iter::once(0).chain((3..sequence.duration()).step_by(7)) {
                let sampler = Sampler::new(&timeline, timeline.at(s, f64::from(ms)).unwrap());
                let pose = skeleton.pose(&sampler);
                for mesh in &meshes {
                    if geoset_state(&model, mesh.geoset, &sampler).alpha <= 0.0 {
                        continue;
                    }
                    for p in mesh.posed_positions(&pose) {
                        assert!(inside(p, &sequences[s]), "{name} {s} {ms}: {p:?}");
                        assert!(
                            inside(p, &geosets[mesh.geoset][s]),
                            "{name} geoset {}",
                            mesh.geoset
                        );
                        assert!(inside(p, &modl), "{name}: {p:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked >= 4, "{name}: {checked} vertices checked");
    }
}

/// A geoset hidden throughout a sequence (its geoset animation's alpha 0)
/// has the empty extent for it, as Blizzard's files have; a model without
/// vertices keeps its extents.
#[test]
fn hidden_geosets_and_models_without_geometry() {
    let Some(mut battleship) = corpus("risk_HumanBattleship_v800.mdx") else {
        return;
    };
    // Blizzard's file: geoset 2 is hidden in "Birth" and stored empty.
    let stored = battleship.geosets()[2].sequence_extents[0];
    let empty = formats::bounds::EMPTY_CORNER;
    assert_eq!((stored.minimum, stored.maximum), ([empty; 3], [-empty; 3]));
    battleship.recompute_extents();
    assert_eq!(battleship.geosets()[2].sequence_extents[0], stored);

    let Some(mut emitter) = corpus("rms_DustEmitter.mdx") else {
        return;
    };
    let before = emitter.clone();
    assert_eq!(emitter.recompute_extents(), []);
    assert_eq!(emitter, before);
    assert_eq!(measure(&emitter, &ExtentOptions::EVERY_FRAME), None);
}

/// A model whose sequences would need billions of vertex poses (20 000
/// sequences of 49 days): measured within `MAX_POSE_WORK`, at a longer
/// step and every n-th frame, said by `Extents::coarse` and by `validate`'s
/// findings; every corpus model is measured in full.
#[test]
fn sequences_too_long_to_pose_in_full_are_measured_coarsely_and_say_so() {
    let mut model = common::sample_with_long_sequences(20_000);
    let measured = measure(&model, &ExtentOptions::default()).unwrap();
    assert!(
        measured.stretch > 1 && measured.every > 1,
        "{} {}",
        measured.stretch,
        measured.every
    );
    assert!(measured.coarse().unwrap().contains("too long"));
    // The stored extents (the sample's, for "Stand") disagree with 49 days
    // of "Stand": the findings say how they were measured.
    model.sequences_mut()[0].extent.maximum[2] = 0.25;
    let findings = formats::validate::extents::against(&model, &measured);
    assert!(!findings.is_empty());
    assert!(
        findings
            .iter()
            .all(|f| f.message.contains("measured coarsely")),
        "{findings:?}"
    );
    for (path, model) in common::corpus_models() {
        if let Some(measured) = measure(&model, &ExtentOptions::default()) {
            assert_eq!((measured.stretch, measured.every), (1, 1), "{path}");
            assert_eq!(measured.coarse(), None, "{path}");
        }
    }
}

/// A box that holds `inner` (both boxes as extents; an empty `inner` is held).
fn holds(outer: &Extent, inner: &Extent) -> bool {
    let inner = Aabb::of(inner);
    inner.is_empty()
        || (0..3)
            .all(|i| outer.minimum[i] <= inner.minimum[i] && inner.maximum[i] <= outer.maximum[i])
}

/// In every corpus model with emitters (particles reach past the vertices),
/// recomputing grows the model's and the sequences' boxes to hold the
/// geometry and never shrinks them (risk_Tank-Shell-Silver's missile keeps
/// its ±20 for its particle trail, which its vertices reach only ±9 of);
/// geoset boxes are the geometry's; `validate` then finds nothing stale.
#[test]
fn boxes_of_models_with_emitters_only_grow() {
    let mut seen = 0;
    for (path, mut model) in common::corpus_models() {
        if !formats::bounds::has_emitters(&model) || model.version() >= 1300 {
            continue;
        }
        let Some(measured) = measure(&model, &ExtentOptions::default()) else {
            continue;
        };
        let before = model.clone();
        model.recompute_extents();
        let (old, new) = (before.model_chunk().unwrap(), model.model_chunk().unwrap());
        let finite = |e: &Extent| e.minimum.iter().chain(&e.maximum).all(|v| v.is_finite());
        if finite(&old.extent) {
            assert!(holds(&new.extent, &old.extent), "{path}: MODL shrank");
        }
        assert!(holds(&new.extent, &measured.model), "{path}: MODL");
        for (s, (old, new)) in before.sequences().iter().zip(model.sequences()).enumerate() {
            if finite(&old.extent) {
                assert!(
                    holds(&new.extent, &old.extent),
                    "{path}: sequence {s} shrank"
                );
            }
            assert!(
                holds(&new.extent, &measured.sequences[s]),
                "{path}: sequence {s}"
            );
        }
        for (g, geoset) in model.geosets().iter().enumerate() {
            assert_eq!(
                geoset.extent, measured.geosets[g].extent,
                "{path}: geoset {g}"
            );
        }
        let stale: Vec<_> = validate::extents::model(&model);
        assert!(stale.is_empty(), "{path}: {stale:?}");
        seen += 1;
    }
    if !common::corpus_models().is_empty() {
        assert!(seen >= 10, "{seen}");
    }
    let Some(mut shell) = corpus("risk_Tank-Shell-Silver.mdx") else {
        return;
    };
    let before = shell.model_chunk().unwrap().extent;
    shell.recompute_extents();
    assert_eq!(
        shell.model_chunk().unwrap().extent.maximum[1],
        before.maximum[1]
    );
}

/// The extents of `model` as `measure` shapes them: what it stores.
fn stored(model: &Model) -> formats::bounds::Extents {
    let mut stored = measure(model, &ExtentOptions::default()).unwrap();
    stored.model = model.model_chunk().unwrap().extent;
    for (s, sequence) in stored.sequences.iter_mut().zip(model.sequences()) {
        *s = sequence.extent;
    }
    for (g, geoset) in stored.geosets.iter_mut().zip(model.geosets()) {
        g.extent = geoset.extent;
        g.sequences.clone_from(&geoset.sequence_extents);
    }
    stored
}

/// Blizzard's headhunter (`../shared/wild`): none of its extents is stale,
/// though the measurement (every 10 ms, every key, and the ends) reaches
/// beyond many. Between the exporter's poses 100 ms apart its geometry
/// sweeps past their boxes (by a tenth of the model's size); at the end of
/// `Morph` the sampler shows geoset 4 again (a `DontInterp` track hid it
/// 234 ms in; `anim` closes the loop there with the first key), 74 units
/// from where the stored extent holds it, which the exporter never posed.
#[test]
fn blizzards_headhunter_holds_its_geometry_where_its_exporter_posed_it() {
    let Some(bytes) = common::wild_file("runi95_headhunter_v1.mdx") else {
        return;
    };
    let model = Model::from_bytes_lenient(&bytes).unwrap().0;
    assert_eq!(validate::extents::model(&model), []);
    let measured = measure(&model, &ExtentOptions::default()).unwrap();
    let size = Aabb::of(&measured.model).diagonal();
    let beyond = |stored: &Extent, measured: &Extent| {
        let lows = stored
            .minimum
            .iter()
            .zip(&measured.minimum)
            .map(|(s, m)| s - m);
        let highs = measured
            .maximum
            .iter()
            .zip(&stored.maximum)
            .map(|(m, s)| m - s);
        lows.chain(highs).fold(f32::NEG_INFINITY, f32::max)
    };
    let swept = model
        .sequences()
        .iter()
        .zip(&measured.sequences)
        .map(|(s, m)| beyond(&s.extent, m))
        .fold(f32::NEG_INFINITY, f32::max);
    assert!(swept > 0.1 * size, "{swept} of {size}");
    let morph = model
        .sequences()
        .iter()
        .position(|s| s.name.to_string_lossy() == "Morph")
        .unwrap();
    let stored_morph = model.geosets()[4].sequence_extents[morph];
    let measured_morph = measured.geosets[4].sequences[morph];
    assert!(beyond(&stored_morph, &measured_morph) > 74.0);
    let escapes = escapes(&model, &stored(&model)).unwrap();
    assert!(escapes.geosets[4].sequences[morph] < 0.01 * size);
}

/// A model edited after its extents were measured: Blizzard's orc
/// experience bar (clean; 58,000 units wide) with one geoset moved 60,000
/// units up (the sequences' and its own extents no longer hold it), and
/// another's box grown by 20,000 units (larger than anything it does).
/// Validate says so and no more; `recompute_extents` makes it clean.
#[test]
fn an_edited_blizzard_model_is_stale_where_it_was_edited() {
    let Some(mut model) = corpus("wc3lib_Orc_Exp.mdx") else {
        return;
    };
    for p in &mut model.geosets_mut()[2].vertex_positions {
        p[2] += 60_000.0;
    }
    model.geosets_mut()[3].extent.maximum[0] += 20_000.0;
    let findings = validate::extents::model(&model);
    let paths: Vec<&str> = findings.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "chunks[2].SEQS.sequences[0].extent",
            "chunks[2].SEQS.sequences[1].extent",
            "chunks[7].GEOS.geosets[2].extent",
            "chunks[7].GEOS.geosets[3].extent",
            "chunks[7].GEOS.geosets[2].sequence_extents",
        ],
        "{findings:#?}"
    );
    assert!(
        findings[2]
            .message
            .starts_with("the geometry reaches 59900.758 beyond the box"),
        "{}",
        findings[2]
    );
    // Turned every way, its geometry reaches 794 units past its stored box
    // along x: grown by 20,000, the box is 19,206 larger.
    assert!(
        findings[3]
            .message
            .starts_with("the box is 19205.869 larger than the geometry"),
        "{}",
        findings[3]
    );
    model.recompute_extents();
    assert_eq!(validate::extents::model(&model), []);
}

/// The sample's cube (its pivot at the origin) on a billboarded bone: it
/// turns to the camera any way, so its box is the cube its corners sweep
/// (0.866 from the pivot), rising with "Stand"; a global sequence of 8 s
/// turning it half round about z, on a "Stand" of 1 s: every phase of it
/// shows while "Stand" plays on, so its corners reach 0.707 across at 45
/// degrees, not 0.653 at the 22.5 of the first second.
#[test]
fn billboards_and_global_sequences_are_measured_every_way_they_turn() {
    use formats::mdx::node::node_flags;
    use formats::mdx::{Interpolation, Key, NodeTrack, Track};
    let sample = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let mut billboarded = sample.clone();
    billboarded.bones_mut()[0].node.flags |= node_flags::BILLBOARDED;
    let measured = measure(&billboarded, &ExtentOptions::default()).unwrap();
    let reach = 0.75f32.sqrt();
    let stand = measured.sequences[0];
    assert!((stand.minimum[0] + reach).abs() < 1e-5, "{stand:?}");
    assert!((stand.maximum[2] - (0.5 + reach)).abs() < 1e-5, "{stand:?}");
    // The stored extents (the cube as it stands) hold it as the tracks
    // pose it, and are no larger: not stale.
    assert_eq!(validate::extents::model(&billboarded), []);

    let mut turning = sample;
    turning.global_sequences_mut().push(8000);
    let mut track = Track::new(
        Interpolation::Linear,
        vec![
            Key::new(0, [0.0, 0.0, 0.0, 1.0]),
            Key::new(8000, [0.0, 0.0, 1.0, 0.0]),
        ],
    );
    track.global_sequence_id = 0;
    turning.bones_mut()[0]
        .node
        .tracks
        .push(NodeTrack::Rotation(track));
    let measured = measure(&turning, &ExtentOptions::default()).unwrap();
    let across = measured.sequences[0].maximum[0];
    assert!((across - 0.5f32.sqrt()).abs() < 1e-3, "{across}");
}

/// A geoset fainter than 1/255 draws nothing (8-bit colour): the sample's
/// cube, at alpha 0.002 from 401 to 599 ms of "Stand", while it rises
/// highest (its top to 1 at 500), is measured as it shows, up to 0.9 (at
/// 400 and 600), and a box that stops there is not stale.
#[test]
fn geosets_fainter_than_one_in_255_draw_nothing() {
    use formats::mdx::{GeosetAnimation, GeosetAnimationTrack, Interpolation, Key, Track};
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let keys = [(0, 1.0), (401, 0.002), (600, 1.0)];
    let keys = keys.map(|(frame, alpha)| Key::new(frame, alpha)).to_vec();
    model.geoset_animations_mut().push(GeosetAnimation {
        alpha: 1.0,
        geoset_id: 0,
        tracks: vec![GeosetAnimationTrack::Alpha(Track::new(
            Interpolation::None,
            keys,
        ))],
        ..GeosetAnimation::default()
    });
    let measured = measure(&model, &ExtentOptions::EVERY_FRAME).unwrap();
    assert_eq!(measured.sequences[0].maximum[2], 0.9);
    model.sequences_mut()[0].extent = measured.sequences[0];
    assert_eq!(validate::extents::model(&model), []);
}
