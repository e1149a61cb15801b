//! `formats export MODEL.mdx|.mdl OUT.glb|.gltf`: [`formats::gltf::export`]
//! with textures looked up beside the model and in each `--textures` folder.

use std::path::Path;

use formats::gltf::{ArchiveTextures, TextureFolders, TextureSource};
use formats::gltf::{ExportOptions, export as export_model};
use formats::mpq::Archive;

use super::{Options, Written, is_gltf};
use crate::kind::{self, Document, Kind};
use crate::plural;

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
    // A model in an archive finds its textures there first, then in the
    // `--textures` folders (not beside it: it is not in a folder).
    let archive_bytes = crate::input::archive_of(input).transpose()?;
    let archive = match &archive_bytes {
        Some((bytes, path)) => {
            Some(Archive::new(bytes).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };
    let mut folders = Vec::new();
    if archive.is_none() {
        folders.push(input.parent().unwrap_or(Path::new(".")).to_path_buf());
    }
    folders.extend(options.textures.iter().cloned());
    let in_folders = TextureFolders::new(folders);
    let in_archive = archive
        .as_ref()
        .map(|a| ArchiveTextures::new(a, in_folders.clone()));
    let textures: &dyn TextureSource = match &in_archive {
        Some(in_archive) => in_archive,
        None => &in_folders,
    };
    let stem = crate::file_stem(input, "model");
    let exported = export_model(
        model,
        &stem,
        &ExportOptions {
            animations: !options.no_animations,
            sequence: options.sequence.as_deref(),
            lod: options.lod,
            textures,
            geoset_visibility: options.geoset_visibility,
            material_colors: options.material_colors,
            texture_animations: options.texture_animations,
            light_animations: options.light_animations,
            resample_splines: options.resample_splines,
        },
    )
    .map_err(|e| format!("{name}: {e}"))?;
    let out = super::write_document(&exported.document, output)?;
    let mut warnings: Vec<String> = loaded.lenient_note(&name).into_iter().collect();
    warnings.extend(exported.warnings.iter().map(|w| format!("{name}: {w}")));
    if let Some((_, first_why)) = exported.missing_textures.first() {
        let missing = &exported.missing_textures;
        // One reason said once (the usual case: none of them is in the
        // folders looked in), else each texture with its own.
        let first_why = first_why.to_string();
        let (list, why): (Vec<String>, String) =
            if missing.iter().all(|(_, why)| why.to_string() == first_why) {
                let list = missing.iter().map(|(path, _)| path.clone()).collect();
                (list, format!(", {first_why}"))
            } else {
                let list = missing
                    .iter()
                    .map(|(path, why)| format!("{path} ({why})"))
                    .collect();
                (list, String::new())
            };
        warnings.push(format!(
            "{name}: textures left out (materials untextured){why}: {}",
            list.join(", ")
        ));
    }
    Ok(Written {
        heights: None,
        line: format!(
            "{name} -> {out}: {}, {}, {}{}{}, {} {}{}",
            plural(exported.geosets.len(), "primitive"),
            plural(exported.joints, "joint"),
            if_any(exported.cameras.len(), "camera"),
            if_any(exported.lights, "light"),
            plural(exported.animations.len(), "animation"),
            plural(exported.embedded_textures.len(), "texture"),
            // A .gltf has its images beside it, as files of their own.
            if is_gltf(output) {
                "written beside it"
            } else {
                "embedded"
            },
            match exported.placeholder_textures.len() {
                0 => String::new(),
                n => format!(
                    " (and {} as a flat-colour placeholder)",
                    plural(n, "replaceable texture")
                ),
            }
        ),
        warnings,
    })
}

/// `2 cameras, ` for a count that is not 0, nothing for 0.
fn if_any(n: usize, what: &str) -> String {
    if n == 0 {
        String::new()
    } else {
        format!("{}, ", plural(n, what))
    }
}
