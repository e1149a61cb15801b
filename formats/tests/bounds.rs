//! `formats::bounds` on real models: Blizzard's stored extents are what the
//! measurement gives, a stale model is reported and fixed, and the extents
//! written for every version hold the geometry at frames the measurement
//! did not pose.

use crate::common;

use formats::anim::{Sampler, Skeleton, Timeline, geoset_state, meshes};
use formats::bounds::{Aabb, ExtentOptions, measure};
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
/// the extents its exporter stored (the 2 sequences', the 28 geosets', the
/// 32 per-sequence ones it wrote) are what the posed geometry gives: 45 of
/// 62 within 0.1, every one within 20 units, on a model 40000 units wide
/// (Blizzard's exporter posed other frames). So boxes over the shown geosets
/// posed through each sequence, and radii from the box centre to the
/// farthest vertex, are what the game's files hold. (A radius of 0, which
/// it left in 2 geosets and in `MODL`, is not set, not compared.)
#[test]
fn blizzard_extents_are_what_the_geometry_gives() {
    let Some(model) = corpus("wc3lib_Orc_Exp.mdx") else {
        return;
    };
    let measured = measure(&model, &ExtentOptions::default()).unwrap();
    let mut differences = Vec::new();
    let mut compare = |stored: &Extent, measured: &Extent| {
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
        differences.push(difference(&stored, measured));
    };
    for (sequence, m) in model.sequences().iter().zip(&measured.sequences) {
        compare(&sequence.extent, m);
    }
    for (geoset, m) in model.geosets().iter().zip(&measured.geosets) {
        compare(&geoset.extent, &m.extent);
        for (stored, m) in geoset.sequence_extents.iter().zip(&m.sequences) {
            compare(stored, m);
        }
    }
    compare(&model.model_chunk().unwrap().extent, &measured.model);
    assert_eq!(differences.len(), 2 + 28 + 32 + 1);
    let close = differences.iter().filter(|&&d| d < 0.1).count();
    let worst = differences.iter().copied().fold(0.0, f32::max);
    assert!(close >= 46 && worst < 20.0, "{close} close, worst {worst}");
    // So validate finds nothing to say about its extents (1 % tolerance).
    assert_eq!(validate::extents::against(&model, &measured), []);
}

/// `zf_cube.mdx` moves its cube 200 units to either side in "Stand" while
/// every extent it stores is the cube at rest, and its geoset lists 3
/// per-sequence extents for its 1 sequence: validate says so, and
/// `recompute_extents` fixes it for good.
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
            "chunks[1].MODL.extent",
            "chunks[2].SEQS.sequences[0].extent",
            "chunks[5].GEOS.geosets[0].extent",
            "chunks[5].GEOS.geosets[0].sequence_extents"
        ]
    );
    assert!(findings.iter().all(|f| f.rule == Rule::StaleExtent));
    assert!(
        findings[0]
            .message
            .starts_with("the geometry reaches 200.000 beyond the box"),
        "{}",
        findings[0]
    );
    assert!(
        findings[3]
            .message
            .starts_with("3 extents for 1 sequence; 1 of 1 disagree")
    );

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
