//! Property tests of `formats::mdx` (issue 3, "proptest: arbitrary Model
//! values for each version -> bytes -> equal model"): arbitrary models of every
//! version are written, read back strictly and compared; version changes
//! either succeed and write a readable file or change nothing; the light
//! tracks a writer bug puts after `LITE` come back through the lenient reader;
//! NaN bit patterns survive. The strategies, and the rules of the format they
//! follow, are in `mdx_strategies`.

use crate::mdx::strategies;

use format_core::Error;
use formats::mdx::{Chunk, LightChunk, LightTrack, Model, alpha};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::{Index, select};
use proptest::test_runner::TestCaseError;
use strategies::*;

/// A library error as a test failure (keeping its message: offset and path).
fn ok<T>(result: Result<T, Error>, what: &str) -> Result<T, TestCaseError> {
    result.map_err(|e| TestCaseError::fail(format!("{what}: {e}")))
}

/// `model` -> bytes -> an equal model, whose bytes are the same again.
fn check_round_trip(model: &Model) -> Result<Vec<u8>, TestCaseError> {
    let bytes = ok(model.to_bytes(), "to_bytes")?;
    let back = ok(Model::from_bytes(&bytes), "from_bytes")?;
    prop_assert_eq!(&back, model);
    prop_assert_eq!(back.version(), model.version());
    prop_assert!(
        ok(back.to_bytes(), "second to_bytes")? == bytes,
        "the re-read model writes other bytes"
    );
    Ok(bytes)
}

/// A model of any version, with a second strategy's value of the same version.
fn model_with<T: core::fmt::Debug, S: Strategy<Value = T> + 'static>(
    also: fn(u32) -> S,
) -> impl Strategy<Value = (Model, T)> {
    select(&VERSIONS[..])
        .prop_flat_map(move |version| (model(version).boxed(), also(version).boxed()))
}

/// A model with a `LITE` chunk (anywhere after `VERS`) whose last light has
/// tracks after the chunk, and those tracks.
fn model_with_tracks_after_lights() -> impl Strategy<Value = (Model, Vec<LightTrack>)> {
    (
        model_with(|version| vec(light(version), 1..3)),
        vec(light_track(), 1..3),
        any::<Index>(),
    )
        .prop_map(|((mut model, mut lights), after, at)| {
            if let Some(last) = lights.last_mut() {
                last.tracks_after_chunk = after.clone();
            }
            let at = 1 + at.index(model.chunks.len());
            model
                .chunks
                .insert(at, Chunk::Lights(LightChunk { lights }));
            (model, after)
        })
}

/// The bits of a NaN: the quiet one real files store for an animated emissive
/// gain, its negative, or any other payload (signalling ones included).
fn nan_bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0x7fc0_0000u32),
        Just(0xffc0_0000u32),
        (any::<bool>(), 1u32..0x80_0000)
            .prop_map(|(sign, mantissa)| (u32::from(sign) << 31) | 0x7f80_0000 | mantissa),
    ]
}

/// Puts `nan` into f32 fields all over `model`; returns how many.
fn put_nans(model: &mut Model, nan: f32) -> usize {
    let mut count = 0;
    let mut set = |x: &mut f32| {
        *x = nan;
        count += 1;
    };
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::Model(m) => set(&mut m.extent.bounds_radius),
            Chunk::Sequences(s) => s.sequences.iter_mut().for_each(|s| set(&mut s.move_speed)),
            Chunk::Materials(m) => {
                for layer in m.materials.iter_mut().flat_map(|m| &mut m.layers) {
                    set(&mut layer.alpha);
                    if let Some(gain) = &mut layer.emissive_gain {
                        set(gain);
                    }
                    if let Some(fresnel) = &mut layer.fresnel {
                        set(&mut fresnel.opacity);
                    }
                }
            }
            Chunk::Geosets(g) => {
                for geoset in &mut g.geosets {
                    geoset
                        .vertex_positions
                        .iter_mut()
                        .for_each(|v| set(&mut v[1]));
                    set(&mut geoset.extent.maximum[2]);
                }
            }
            Chunk::Lights(l) => {
                for light in &mut l.lights {
                    set(&mut light.intensity);
                    if let Some(shadow) = &mut light.shadow_intensity {
                        set(shadow);
                    }
                }
            }
            Chunk::PivotPoints(p) => p.points.iter_mut().for_each(|p| set(&mut p[0])),
            _ => {}
        }
    }
    count
}

macro_rules! round_trip {
    ($($name:ident: $version:literal,)*) => {
        proptest! {
            $(
                /// An arbitrary model of this version -> bytes -> an equal model
                /// (and the same bytes again).
                #[test]
                fn $name(model in model($version)) {
                    prop_assert_eq!(model.version(), $version);
                    check_round_trip(&model)?;
                }
            )*
        }
    };
}

round_trip! {
    round_trip_800: 800,
    round_trip_900: 900,
    round_trip_1000: 1000,
    round_trip_1100: 1100,
    round_trip_1200: 1200,
}

proptest! {
    /// `set_version` from each version to each version either succeeds, and the
    /// model then has the target version and round-trips, or lists what it
    /// would lose and changes nothing; `force_version` then drops exactly that
    /// and also gives a model that round-trips. Changing to the model's own
    /// version always succeeds and changes nothing.
    #[test]
    fn set_version_converts_or_changes_nothing(
        model in any_model(),
        target in select(&VERSIONS[..]),
    ) {
        let original = model.clone();
        let mut model = model;
        match model.set_version(target) {
            Ok(()) => {
                prop_assert_eq!(model.version(), target);
                if target == original.version() {
                    prop_assert_eq!(&model, &original);
                }
                check_round_trip(&model)?;
                // Converted once, it is a model of `target` like any other.
                let converted = model.clone();
                prop_assert!(model.set_version(target).is_ok());
                prop_assert_eq!(&model, &converted);
            }
            Err(losses) => {
                prop_assert!(target != original.version(), "no-op change lost {:?}", losses);
                prop_assert!(!losses.is_empty());
                prop_assert_eq!(&model, &original);
                let forced = model.force_version(target);
                prop_assert_eq!(forced, losses);
                prop_assert_eq!(model.version(), target);
                check_round_trip(&model)?;
            }
        }
    }

    /// Light tracks written after a `LITE` chunk (the writer bug of two corpus
    /// files): a strict read fails, a lenient one gives the model back with one
    /// diagnostic per track, and writes the same bytes again.
    #[test]
    fn light_tracks_after_the_chunk_need_a_lenient_read(
        (model, after) in model_with_tracks_after_lights(),
    ) {
        let bytes = ok(model.to_bytes(), "to_bytes")?;

        let error = Model::from_bytes(&bytes).expect_err("a strict read must fail");
        prop_assert!(error.to_string().contains("follows the LITE chunk"), "{}", error);

        let (back, diagnostics) = ok(Model::from_bytes_lenient(&bytes), "lenient read")?;
        prop_assert_eq!(&back, &model);
        prop_assert_eq!(diagnostics.len(), after.len(), "{:?}", diagnostics);
        for diagnostic in &diagnostics {
            prop_assert!(diagnostic.to_string().contains("light track"), "{}", diagnostic);
        }
        prop_assert!(ok(back.to_bytes(), "second to_bytes")? == bytes);
    }

    /// `repair_sizes` moves the light tracks stored after `LITE` into their
    /// light, which gives a file the strict reader takes and reads back equal.
    #[test]
    fn repaired_tracks_after_the_chunk_round_trip(
        (model, after) in model_with_tracks_after_lights(),
    ) {
        let mut repaired = model;
        prop_assert_eq!(repaired.repair_sizes(), after.len());
        prop_assert!(repaired.lights().iter().all(|l| l.tracks_after_chunk.is_empty()));
        check_round_trip(&repaired)?;
    }

    /// NaN floats (which `PartialEq` cannot compare) keep their exact bits:
    /// writing the re-read model gives the same bytes.
    #[test]
    fn nan_bits_survive(
        (mut model, (mut material, layer)) in
            model_with(|version| (material(version), layer(version))),
        bits in nan_bits(),
    ) {
        let nan = f32::from_bits(bits);
        material.layers.push(layer);
        model.materials_mut().push(material);
        prop_assert!(put_nans(&mut model, nan) > 0);

        let bytes = ok(model.to_bytes(), "to_bytes")?;
        let back = ok(Model::from_bytes(&bytes), "from_bytes")?;
        prop_assert_eq!(format!("{back:?}"), format!("{model:?}"));
        prop_assert!(ok(back.to_bytes(), "second to_bytes")? == bytes, "NaN bits changed");
        let material = back.materials().last().expect("the material put in");
        let layer = material.layers.last().expect("the layer put in");
        prop_assert_eq!(layer.alpha.to_bits(), bits);
        if let Some(gain) = layer.emissive_gain {
            prop_assert_eq!(gain.to_bits(), bits);
        }
    }
}

// ---------------------------------------------------------------- WoW alpha (issue 8)

proptest! {
    /// An arbitrary alpha model of each version -> bytes -> an equal model
    /// (and the same bytes again).
    #[test]
    fn round_trip_1300(model in alpha_model(1300)) {
        check_round_trip(&model)?;
    }

    #[test]
    fn round_trip_1400(model in alpha_model(1400)) {
        check_round_trip(&model)?;
    }

    #[test]
    fn round_trip_1500(model in alpha_model(1500)) {
        check_round_trip(&model)?;
    }
}

/// A unit quaternion from any direction (not normalisable ones rejected).
fn unit_quaternion() -> impl Strategy<Value = [f32; 4]> {
    proptest::array::uniform4(-1.0f32..1.0).prop_filter_map("a direction", |q| {
        let norm = q.iter().map(|c| c * c).sum::<f32>().sqrt();
        (norm > 1e-3).then(|| q.map(|c| c / norm))
    })
}

proptest! {
    /// Packing a unit quaternion keeps x to 2⁻²¹ and y, z to 2⁻²⁰ (truncated
    /// toward zero), after negating the quaternion when w < 0 (the same
    /// rotation); w, recomputed from them, is within 2e-3 (it is 0 when
    /// 1 - x² - y² - z² is below 2⁻²⁰, i.e. w < 2⁻¹⁰).
    #[test]
    fn compressed_quaternion_keeps_unit_quaternions(q in unit_quaternion()) {
        let packed = alpha::CompressedQuaternion::from_quaternion(q);
        let sign = if q[3] >= 0.0 { 1.0 } else { -1.0 };
        let expected = q.map(|c| sign * c);
        let decoded = packed.to_quaternion();
        let steps = [2f32.powi(-21), 2f32.powi(-20), 2f32.powi(-20)];
        for axis in 0..3 {
            let error = (decoded[axis] - expected[axis]).abs();
            // One step of truncation, and a clamped 1.0 (the largest value
            // packable is one step below it).
            prop_assert!(error <= steps[axis] * 1.01, "axis {}: {:?} vs {:?}", axis, decoded, expected);
        }
        prop_assert!(decoded[3] >= 0.0);
        prop_assert!((decoded[3] - expected[3]).abs() <= 2e-3, "{:?} vs {:?}", decoded, expected);
    }

    /// Every raw value packs back to itself after decoding: the decode is
    /// exact (x, y and z are integers times powers of two) and w ≥ 0.
    #[test]
    fn compressed_quaternion_raw_values_survive_decode_and_encode(m_data in any::<u64>()) {
        let raw = alpha::CompressedQuaternion { m_data };
        prop_assert_eq!(alpha::CompressedQuaternion::from_quaternion(raw.to_quaternion()), raw);
    }

    /// Alpha models refuse every Warcraft III version (and back): a
    /// conversion would write invalid files, so nothing changes.
    #[test]
    fn alpha_models_do_not_convert_to_wc3(
        model in select(&ALPHA_VERSIONS[..]).prop_flat_map(alpha_model),
        target in select(&VERSIONS[..]),
    ) {
        let mut converted = model.clone();
        prop_assert!(converted.set_version(target).is_err());
        prop_assert_eq!(&converted, &model);
    }

    /// Between alpha versions only `VERS` changes, unless the `GEOS` layout
    /// would (to or from 1500): then nothing changes and the loss names the
    /// geoset chunk.
    #[test]
    fn alpha_versions_convert_or_change_nothing(
        model in select(&ALPHA_VERSIONS[..]).prop_flat_map(alpha_model),
        target in select(&ALPHA_VERSIONS[..]),
    ) {
        let mut converted = model.clone();
        let geosets = model.chunks.iter().any(|c| {
            matches!(c, Chunk::AlphaGeosets(_) | Chunk::AlphaBatchedGeosets(_))
        });
        let relayout = (model.version() >= 1500) != (target >= 1500);
        match converted.set_version(target) {
            Ok(()) => {
                prop_assert!(!(geosets && relayout));
                prop_assert_eq!(converted.version(), target);
                check_round_trip(&converted)?;
            }
            Err(losses) => {
                prop_assert!(geosets && relayout, "{:?}", losses);
                prop_assert!(losses[0].what.contains("GEOS"), "{:?}", losses);
                prop_assert_eq!(&converted, &model);
            }
        }
    }
}
