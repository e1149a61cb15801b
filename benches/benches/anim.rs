//! Animation and glTF export (`formats::anim`, `formats::gltf`) on animated
//! corpus models (the built-in sample without the corpus):
//!
//! - `anim_pose`: every sequence sampled at 30 frames a second, the skeleton
//!   posed and every vertex skinned, per model (frames per second is
//!   frames / time);
//! - `gltf_export`: the whole model to `.glb` bytes (skeleton, mesh, all
//!   animations, no textures).
//!
//! `cargo bench -p benches --bench anim` (add `-- --quick` for a fast pass).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use formats::anim::{Sampler, Skeleton, Timeline, meshes};
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;

/// The models measured: named corpus models with skeletons and sequences.
fn models() -> Vec<(String, Model)> {
    let wanted = [
        "rms_PackHorse.mdx",
        "tm_TM_DruidBear.mdx",
        "pqw3_HarvestGolem.mdx",
    ];
    let mut models: Vec<(String, Model)> = benches::corpus_files("mdx", ".mdx")
        .into_iter()
        .filter(|(name, _)| wanted.contains(&name.as_str()))
        .filter_map(|(name, data)| Some((name, Model::from_bytes(&data).ok()?)))
        .collect();
    if models.is_empty() {
        let sample = Model::from_bytes(&formats::sample::sample_mdx()).ok();
        models.extend(sample.map(|m| ("sample".to_string(), m)));
    }
    models
}

/// Every sequence at 30 frames a second: (sequence, milliseconds).
fn frames(timeline: &Timeline) -> Vec<(usize, f64)> {
    let mut out = Vec::new();
    for (s, sequence) in timeline.sequences.iter().enumerate() {
        let count = u64::from(sequence.duration()) * 30 / 1000 + 1;
        out.extend((0..count).map(|k| (s, k as f64 * 1000.0 / 30.0)));
    }
    out
}

fn pose(c: &mut Criterion) {
    let mut group = c.benchmark_group("anim_pose");
    for (name, model) in models() {
        let skeleton = Skeleton::from_model(&model);
        let timeline = Timeline::from_model(&model);
        let meshes = meshes(&model, &skeleton);
        let frames = frames(&timeline);
        group.throughput(Throughput::Elements(frames.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for &(s, ms) in &frames {
                    let Some(moment) = timeline.at(s, ms) else {
                        continue;
                    };
                    let pose = skeleton.pose(&Sampler::new(&timeline, moment));
                    for mesh in &meshes {
                        black_box(mesh.posed_positions(&pose));
                    }
                }
            })
        });
    }
    group.finish();
}

fn gltf(c: &mut Criterion) {
    let mut group = c.benchmark_group("gltf_export");
    for (name, model) in models() {
        group.bench_function(name, |b| {
            b.iter(|| {
                let out = export(&model, "m", &ExportOptions::default()).ok()?;
                black_box(out.document.to_glb().ok())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, pose, gltf);
criterion_main!(benches);
