//! `formats export MODEL.mdx|.mdl OUT.glb|.gltf`: [`formats::gltf::export`]
//! with textures looked up beside the model and in each `--textures` folder.

use std::path::Path;

use formats::gltf::textures::TextureFolders;
use formats::gltf::{ExportOptions, export as export_model};

use super::{Options, Written};
use crate::kind::{self, Document, Kind};

/// Exports the model in `data` (read from `input`) to `output`.
pub fn export(
    input: &Path,
    kind: Kind,
    data: &[u8],
    output: &Path,
    options: &Options,
) -> Result<Written, String> {
    let name = input.display().to_string();
    let loaded = kind::read(kind, data).map_err(|e| format!("{name}: {e}"))?;
    let Document::Mdx(model) = &loaded.document else {
        return Err(format!("{name}: not a model"));
    };
    let mut folders = vec![input.parent().unwrap_or(Path::new(".")).to_path_buf()];
    folders.extend(options.textures.iter().cloned());
    let textures = TextureFolders::new(folders);
    let stem = stem_of(input);
    let exported = export_model(
        model,
        &stem,
        &ExportOptions {
            animations: !options.no_animations,
            sequence: options.sequence.as_deref(),
            lod: options.lod,
            textures: &textures,
        },
    )
    .map_err(|e| format!("{name}: {e}"))?;
    let out = output.display().to_string();
    let is_gltf = output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    if is_gltf {
        let formats::gltf::GltfFiles { json, files } = exported
            .document
            .to_gltf(&stem_of(output))
            .map_err(|e| format!("{out}: {e}"))?;
        let folder = output.parent().unwrap_or(Path::new("."));
        for (file, bytes) in files {
            let path = folder.join(file);
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        std::fs::write(output, json).map_err(|e| format!("{out}: {e}"))?;
    } else {
        let glb = exported
            .document
            .to_glb()
            .map_err(|e| format!("{out}: {e}"))?;
        std::fs::write(output, glb).map_err(|e| format!("{out}: {e}"))?;
    }
    let mut warnings: Vec<String> = exported
        .warnings
        .iter()
        .map(|w| format!("{name}: {w}"))
        .collect();
    if !exported.missing_textures.is_empty() {
        let list: Vec<String> = exported
            .missing_textures
            .iter()
            .map(|(path, why)| format!("{path} ({why})"))
            .collect();
        warnings.push(format!(
            "{name}: textures left out (materials untextured): {}",
            list.join(", ")
        ));
    }
    Ok(Written {
        line: format!(
            "{name} -> {out}: {} primitives, {} joints, {} animations, {} textures embedded",
            exported.geosets.len(),
            exported.joints,
            exported.animations.len(),
            exported.embedded_textures.len()
        ),
        warnings,
    })
}

/// The file name of `path` without its extension.
fn stem_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into())
}
