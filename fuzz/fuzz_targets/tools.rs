//! Any bytes a lenient reader accepts as a model -> the tools users run on
//! models they did not write: `validate`, extents, glTF export, posing and
//! drawing, classic <-> Reforged conversion and the keyframe optimizer. None
//! may panic, hang or allocate without bound, whatever the tracks, sequences,
//! hierarchy or indices say; the glTF a model exports serializes.
#![no_main]

use formats::anim::{Sampler, Skeleton, Timeline, meshes};
use formats::mdx::Model;
use libfuzzer_sys::fuzz_target;

/// Samples the model at the start and the middle of every sequence (at most
/// 8 of them), and draws the pose of the first.
fn pose(model: &Model) {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let geometry = meshes(model, &skeleton);
    for (index, sequence) in timeline.sequences.iter().enumerate().take(8) {
        let duration = f64::from(sequence.duration());
        for ms in [0.0, duration / 2.0] {
            let Some(moment) = timeline.at(index, ms) else {
                continue;
            };
            let sampler = Sampler::new(&timeline, moment);
            let pose = skeleton.pose(&sampler);
            for mesh in &geometry {
                let _ = mesh.posed_positions(&pose);
            }
            if index == 0 && ms == 0.0 {
                let _ = formats::render::posed_wireframe(model, moment, 64);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok((model, _)) = Model::from_bytes_lenient(data) else {
        return;
    };
    let _ = formats::validate::all(&model);
    let _ = formats::bounds::measure(&model, &Default::default());
    pose(&model);
    // With every pointer option (geoset visibility, material colours,
    // texture and light animations): the superset, every geoset, texture
    // and light sampled over every sequence; a placeholder for every
    // texture, so that each material has its texture to move.
    // Spline tracks as exact cubic splines or, for every other input (by
    // its length: the mutations reach both), resampled as for Blender.
    let options = formats::gltf::ExportOptions {
        textures: &formats::gltf::FlatTextures([128, 128, 128, 255]),
        resample_splines: data.len() % 2 == 1,
        ..Default::default()
    }
    .with_pointer_animations();
    if let Ok(out) = formats::gltf::export(&model, "fuzz", &options) {
        out.document
            .to_glb()
            .expect("an exported document serializes");
    }
    let mut optimized = model.clone();
    let _ = formats::optimize::optimize(&mut optimized, &Default::default());
    let _ = optimized.to_bytes();
    for target in [800, 1000] {
        let mut converted = model.clone();
        let options = formats::convert::Options {
            // Measured at a coarse step: the fuzzer's time goes to the
            // conversion, not to the error report (which `tests` cover).
            error_step: 1000,
            ..Default::default()
        };
        if formats::convert::convert(&mut converted, target, &options).is_ok() {
            let _ = converted.to_bytes();
        }
    }
    let mut fixed = model;
    let _ = fixed.recompute_extents();
});
