//! Attachments and emitters: the models and files they name, and the
//! textures emitters draw with.

use super::has_extension;
use super::textures::drawable;
use crate::mdx::Model;
use crate::validate::{Findings, Rule};

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "ATCH");
    for (a, attachment) in model.attachments().iter().enumerate() {
        let path = attachment.path.to_string_lossy();
        if !path.is_empty() && !has_extension(&path, &["mdl", "mdx"]) {
            f.push(
                Rule::AttachmentPath,
                format!("{at}.attachments[{a}].path"),
                format!("\"{path}\" is not an .mdl or .mdx model"),
            );
        }
    }
    let at = super::chunk_at(model, "PREM");
    for (e, emitter) in model.particle_emitters().iter().enumerate() {
        let path = emitter.spawn_model_file_name.to_string_lossy();
        let why = if path.is_empty() {
            "no model to spawn".to_string()
        } else {
            format!("\"{path}\" is not an .mdl or .mdx model to spawn")
        };
        if !has_extension(&path, &["mdl", "mdx"]) {
            f.push(
                Rule::EmitterPath,
                format!("{at}.emitters[{e}].spawn_model_file_name"),
                why,
            );
        }
    }
    let at = super::chunk_at(model, "CORN");
    for (e, emitter) in model.corn_emitters().iter().enumerate() {
        let path = emitter.path.to_string_lossy();
        if !path.is_empty() && !has_extension(&path, &["pkfx"]) {
            f.push(
                Rule::EmitterPath,
                format!("{at}.emitters[{e}].path"),
                format!("\"{path}\" is not a .pkfx effect"),
            );
        }
    }
    emitter_textures(model, f);
}

/// Particle emitters 2 and ribbon emitters with nothing to draw.
fn emitter_textures(model: &Model, f: &mut Findings) {
    let textures = model.textures();
    let at = super::chunk_at(model, "PRE2");
    for (e, emitter) in model.particle_emitters2().iter().enumerate() {
        let texture = usize::try_from(emitter.texture_id)
            .ok()
            .and_then(|t| textures.get(t));
        // Out of range is `texture-index`; a replaceable id on the emitter is its texture.
        if emitter.replaceable_id == 0 && texture.is_some_and(|t| !drawable(t)) {
            f.push(
                Rule::EmitterMissingTexture,
                format!("{at}.emitters[{e}].texture_id"),
                format!(
                    "texture {} has no path and no replaceable id",
                    emitter.texture_id
                ),
            );
        }
    }
    let at = super::chunk_at(model, "RIBB");
    for (e, emitter) in model.ribbon_emitters().iter().enumerate() {
        let Some(material) = usize::try_from(emitter.material_id)
            .ok()
            .and_then(|m| model.materials().get(m))
        else {
            continue; // `material-index`
        };
        let draws = material.layers.iter().any(|layer| {
            super::layer_textures(layer)
                .filter_map(|t| usize::try_from(t).ok())
                .filter_map(|t| textures.get(t))
                .any(drawable)
        });
        if !draws {
            f.push(
                Rule::EmitterMissingTexture,
                format!("{at}.emitters[{e}].material_id"),
                format!(
                    "material {} has no layer with a texture to draw",
                    emitter.material_id
                ),
            );
        }
    }
}
