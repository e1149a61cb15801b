//! Prints a model's vertices posed and skinned by `formats::anim` at a time
//! into one of its sequences, as JSON: what an importer of the model's glTF
//! export should show at that time. `testkit/harness/blender/run.sh` compares
//! it with Blender's glTF importer.
//!
//! ```sh
//! cargo run --release -p formats --example posed_vertices -- MODEL.mdx SEQUENCE MS
//! ```
//!
//! Output: `{"sequence": ..., "ms": ..., "geosets": [[[x, y, z], ...], ...],
//! "rest": [...]}`, in the model's space (Z up), one list per geoset the
//! glTF export writes (level of detail 0), of the vertices its triangles
//! use: posed (`geosets`) and as stored (`rest`, what an importer shows in
//! its rest pose).

use formats::anim::{Sampler, Skeleton, Timeline, meshes};

/// One geoset's vertices.
type Geoset = Vec<[f32; 3]>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, path, sequence, ms] = &args[..] else {
        return Err("usage: posed_vertices MODEL SEQUENCE MS".into());
    };
    let bytes = std::fs::read(path)?;
    let (model, _) = formats::mdx::Model::from_bytes_lenient(&bytes)?;
    let skeleton = Skeleton::from_model(&model);
    let timeline = Timeline::from_model(&model);
    let index = timeline
        .sequence(sequence)
        .ok_or_else(|| format!("{path} has no sequence named {sequence:?}"))?;
    let ms: f64 = ms.parse()?;
    let moment = timeline
        .at(index, ms)
        .ok_or_else(|| format!("{ms} ms is not inside {sequence:?}"))?;
    let pose = skeleton.pose(&Sampler::new(&timeline, moment));
    // The geosets the export writes by default (level 0, and those of every
    // level), with the vertices a triangle uses: what an importer shows
    // (Blender's leaves out a vertex no triangle uses); posed, and as stored
    // (the rest pose).
    let (geosets, rest): (Vec<Geoset>, Vec<Geoset>) = meshes(&model, &skeleton)
        .iter()
        .filter(|mesh| mesh.lod <= 0)
        .map(|mesh| {
            let mut used = vec![false; mesh.positions.len()];
            for &v in mesh.triangles.iter().flatten() {
                if let Some(u) = used.get_mut(usize::from(v)) {
                    *u = true;
                }
            }
            let posed = mesh.posed_positions(&pose);
            let pick = |all: &[[f32; 3]]| -> Vec<[f32; 3]> {
                all.iter()
                    .zip(&used)
                    .filter_map(|(p, u)| u.then_some(*p))
                    .collect()
            };
            (pick(&posed), pick(&mesh.positions))
        })
        .unzip();
    let out =
        serde_json::json!({ "sequence": sequence, "ms": ms, "geosets": geosets, "rest": rest });
    println!("{out}");
    Ok(())
}
