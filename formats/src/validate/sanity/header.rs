//! The header: `VERS` and `MODL` present, the version Warcraft III reads,
//! and `MODL`'s animation file.

use crate::mdx::{Chunk, Model};
use crate::validate::{Findings, Rule};

/// The versions Warcraft III reads: 800 (classic), 1000, 1100 and 1200
/// (Reforged). Reforged never read 900.
pub(super) const GAME_VERSIONS: [u32; 4] = [800, 1000, 1100, 1200];

pub(super) fn check(model: &Model, f: &mut Findings) {
    for (tag, present) in [
        (
            "VERS",
            model.chunks.iter().any(|c| matches!(c, Chunk::Version(_))),
        ),
        ("MODL", model.model_chunk().is_some()),
    ] {
        if !present {
            f.push(
                Rule::MissingHeader,
                "chunks".to_string(),
                format!("no {tag} chunk"),
            );
        }
    }
    let version = model.version();
    if !GAME_VERSIONS.contains(&version) {
        f.push(
            Rule::UnsupportedVersion,
            format!("{}.version", super::chunk_at(model, "VERS")),
            format!("version {version}: Warcraft III reads {GAME_VERSIONS:?}"),
        );
    }
    if let Some(modl) = model.model_chunk() {
        let file = modl.animation_file_name.to_string_lossy();
        if !file.is_empty() {
            f.push(
                Rule::AnimationFile,
                format!("{}.animation_file_name", super::chunk_at(model, "MODL")),
                format!("\"{file}\": the game does not use an animation file"),
            );
        }
    }
}
