//! Derived readers and writers at scale: a generated MDX-like model (1M
//! vertices, bones with long tracks) built from the format-core test types,
//! next to a copy of the same bytes.
//!
//! `cargo bench -p benches --bench derive` (add `-- --quick` for a fast pass).

#[path = "../../format-core/tests/support/mod.rs"]
#[allow(dead_code, clippy::all)]
mod support;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use format_core::{Context, Derived, FixedStr, decode, encode};
use std::hint::black_box;
use support::*;

fn large_model() -> Model {
    let n = 1_000_000usize;
    let geoset = Geoset {
        vertex_positions: (0..n).map(|i| [i as f32, 1.0, 2.0]).collect(),
        vertex_normals: vec![[0.0, 0.0, 1.0]; n],
        faces: (0..n as u32 * 3).map(|i| (i % 65_536) as u16).collect(),
        vertex_groups: vec![0; n],
        material_id: 0,
        extent: Extent {
            bounds_radius: 1.0,
            minimum: [0.0; 3],
            maximum: [1.0; 3],
        },
        sequence_extents: vec![],
        tangents: None,
        texture_coordinate_sets: vec![TextureCoordinateSet {
            texture_coordinates: vec![[0.5, 0.5]; n],
        }],
    };
    let track = |len: usize| Track {
        tracks_count: Derived::new(),
        interpolation_type: Interpolation::Hermite,
        global_sequence_id: -1,
        keys: (0..len)
            .map(|i| Key {
                frame: i as i32,
                value: [1.0f32; 3],
                in_tan: Some([0.0; 3]),
                out_tan: Some([0.0; 3]),
            })
            .collect(),
    };
    let bones = (0..100)
        .map(|i| Bone {
            node: Node {
                name: FixedStr::try_from(format!("Bone_{i}").as_str()).unwrap_or_default(),
                object_id: i,
                parent_id: i.wrapping_sub(1),
                flags: 0x100,
                tracks: vec![
                    NodeTrack::Translation(track(2000)),
                    NodeTrack::Scaling(track(2000)),
                ],
            },
            geoset_id: 0,
            geoset_animation_id: u32::MAX,
        })
        .collect();
    Model {
        chunks: vec![
            Chunk::Version(VersionChunk { version: 800 }),
            Chunk::Geosets(GeosetList {
                geosets: vec![geoset],
            }),
            Chunk::Bones(BoneList { bones }),
        ],
    }
}

fn generated_model(c: &mut Criterion) {
    let model = large_model();
    let bytes = encode(&model, Context::new()).unwrap_or_default();
    let mut g = c.benchmark_group("derived_model_1M_vertices");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("copy (to_vec)", |b| {
        b.iter(|| black_box(black_box(&bytes[..]).to_vec()))
    });
    g.bench_function("parse", |b| {
        b.iter(|| black_box(decode::<Model>(black_box(&bytes), Context::new()).ok()))
    });
    g.bench_function("write", |b| {
        b.iter(|| black_box(encode(black_box(&model), Context::new()).ok()))
    });
    g.finish();
}

criterion_group!(benches, generated_model);
criterion_main!(benches);
