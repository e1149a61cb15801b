//! Materials: each draws with at least one layer.

use crate::mdx::Model;
use crate::validate::{Findings, Rule};

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "MTLS");
    for (m, material) in model.materials().iter().enumerate() {
        if material.layers.is_empty() {
            f.push(
                Rule::MaterialWithoutLayers,
                format!("{at}.materials[{m}]"),
                "no layers: geosets with this material draw nothing",
            );
        }
    }
}
