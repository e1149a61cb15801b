//! Property tests of `formats::anim` and `formats::gltf` on arbitrary models
//! of every version (the strategies of `mdx_proptest`): whatever a model
//! holds (indices out of range, parent cycles, huge or infinite floats, keys
//! out of order), posing it never panics and exporting it gives a document
//! the `gltf` crate reads and validates, with one animation per sequence.

use crate::mdx::strategies;

use formats::anim::{Sampler, Skeleton, Timeline, meshes};
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;
use proptest::prelude::*;
use proptest::sample::select;
use strategies::*;

fn any_model() -> impl Strategy<Value = Model> {
    let all: Vec<u32> = VERSIONS.iter().chain(&ALPHA_VERSIONS).copied().collect();
    select(all).prop_flat_map(|version| {
        if version >= 1300 {
            alpha_model(version).boxed()
        } else {
            model(version).boxed()
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_model_poses_and_exports(model in any_model(), at in 0.0f64..5000.0) {
        let skeleton = Skeleton::from_model(&model);
        let timeline = Timeline::from_model(&model);
        let meshes = meshes(&model, &skeleton);
        for s in 0..timeline.sequences.len() {
            let moment = timeline.at(s, at).unwrap();
            let pose = skeleton.pose(&Sampler::new(&timeline, moment));
            prop_assert_eq!(pose.world.len(), skeleton.nodes().len());
            for mesh in &meshes {
                prop_assert_eq!(mesh.posed_positions(&pose).len(), mesh.positions.len());
            }
        }
        let out = export(&model, "m", &ExportOptions::default())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(out.animations.len(), timeline.sequences.len());
        let glb = out.document.to_glb().map_err(|e| TestCaseError::fail(e.to_string()))?;
        let gltf = gltf::Gltf::from_slice(&glb).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(gltf.document.animations().count(), timeline.sequences.len());
        prop_assert_eq!(
            gltf.document.meshes().flat_map(|m| m.primitives()).count(),
            out.geosets.len()
        );
    }
}
