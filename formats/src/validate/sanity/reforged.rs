//! What Reforged added: face effects (`FAFX`) and the bind pose (`BPOS`).

use super::has_extension;
use crate::mdx::Model;
use crate::validate::walk;
use crate::validate::{Findings, Rule};

/// The files a face effect names.
const FACE_EFFECTS: [&str; 2] = ["facefx", "facefx_ingame"];

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "FAFX");
    for (e, effect) in model.face_effects().iter().enumerate() {
        let path = effect.path.to_string_lossy();
        if !path.is_empty() && !has_extension(&path, &FACE_EFFECTS) {
            f.push(
                Rule::FaceEffectPath,
                format!("{at}.face_effects[{e}].path"),
                format!("\"{path}\" is not a .facefx or .facefx_ingame file"),
            );
        }
    }
    // One matrix per node, then per camera (Blizzard's portraits: 154 nodes,
    // 1 camera, 155 matrices). An empty or missing chunk is not checked.
    let matrices = model.bind_poses().len();
    let nodes = walk::nodes(model).len();
    let cameras = model.cameras().len();
    if matrices > 0 && nodes > 0 && matrices != nodes + cameras {
        f.push(
            Rule::BindPoseCount,
            format!("{}.bind_pose", super::chunk_at(model, "BPOS")),
            format!(
                "{} for {} and {} (one each)",
                crate::validate::count(matrices, "matrix", "matrices"),
                crate::validate::count(nodes, "node", "nodes"),
                crate::validate::count(cameras, "camera", "cameras")
            ),
        );
    }
}
