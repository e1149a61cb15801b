//! Materials: each draws with at least one layer, with a shader and filter
//! modes the game knows.

use crate::mdx::{FilterMode, Model};
use crate::validate::{Findings, Rule};

/// The shaders of versions 900 and 1000 (any case); none is SD too.
const SHADERS: [&str; 2] = ["Shader_SD_FixedFunction", "Shader_HD_DefaultUnit"];

/// A layer's `shaderTypeId` from version 1100: 0 SD, 1 HD.
const SHADER_TYPE_IDS: [u32; 2] = [0, 1];

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "MTLS");
    for (m, material) in model.materials().iter().enumerate() {
        let at = format!("{at}.materials[{m}]");
        if material.layers.is_empty() {
            f.push(
                Rule::MaterialWithoutLayers,
                &at,
                "no layers: geosets with this material draw nothing",
            );
        }
        if let Some(shader) = &material.shader {
            let shader = shader.to_string_lossy();
            let known = SHADERS.iter().any(|s| s.eq_ignore_ascii_case(&shader));
            if !shader.is_empty() && !known {
                f.push(
                    Rule::UnknownShader,
                    format!("{at}.shader"),
                    format!("\"{shader}\": the game knows {SHADERS:?}"),
                );
            }
        }
        for (l, layer) in material.layers.iter().enumerate() {
            let at = format!("{at}.layers[{l}]");
            if let Some(id) = layer.shader_type_id
                && !SHADER_TYPE_IDS.contains(&id)
            {
                f.push(
                    Rule::UnknownShader,
                    format!("{at}.shader_type_id"),
                    format!("shader type {id}: the game knows 0 (SD) and 1 (HD)"),
                );
            }
            if let FilterMode::Other(mode) = layer.filter_mode {
                f.push(
                    Rule::UnknownFilterMode,
                    format!("{at}.filter_mode"),
                    format!("filter mode {mode}: layers have 0 (none) to 6 (modulate 2x)"),
                );
            }
        }
    }
}
