//! Textures the game can load: their paths and replaceable ids, and a
//! model with none.

use crate::mdx::{Model, Texture};
use crate::validate::{Findings, Rule};

/// The replaceable ids the game knows: 1 team colour, 2 team glow, 11
/// cliff, 21 Lordaeron tree, 31 to 37 the other trees.
pub(super) const REPLACEABLE_IDS: [u32; 11] = [1, 2, 11, 21, 31, 32, 33, 34, 35, 36, 37];

/// The image types every version loads.
const LOADABLE: [&str; 3] = ["blp", "tga", "dds"];

/// Reforged (version > 800) also names its HD textures `.tif`, which the
/// client resolves to its own files.
const LOADABLE_HD: &str = "tif";

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "TEXS");
    let hd = model.version() > 800;
    for (t, texture) in model.textures().iter().enumerate() {
        let at = format!("{at}.textures[{t}]");
        let path = texture.file_name.to_string_lossy();
        if path.is_empty() {
            if texture.replaceable_id == 0 {
                f.push(
                    Rule::EmptyTexture,
                    format!("{at}.file_name"),
                    "no path and no replaceable id: nothing to load",
                );
            }
        } else if !loadable(&path, hd) {
            let also = if hd { ", .dds or .tif" } else { " or .dds" };
            f.push(
                Rule::TexturePath,
                format!("{at}.file_name"),
                format!("\"{path}\": the game loads .blp, .tga{also} images"),
            );
        }
        let id = texture.replaceable_id;
        replaceable_id(&format!("{at}.replaceable_id"), id, f);
        if id != 0 && !path.is_empty() {
            f.push(
                Rule::ReplaceableWithPath,
                format!("{at}.replaceable_id"),
                format!("replaceable id {id} and the path \"{path}\" together"),
            );
        }
    }
    let draws = [
        (model.geosets().len(), "geosets"),
        (model.particle_emitters2().len(), "particle emitters 2"),
        (model.ribbon_emitters().len(), "ribbon emitters"),
    ];
    if model.textures().is_empty() && draws.iter().any(|(n, _)| *n > 0) {
        let what: Vec<String> = draws
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        f.push(
            Rule::NoTextures,
            at,
            format!("no textures for {} to draw with", what.join(", ")),
        );
    }
}

/// `id` (at `path`) must be 0 or a replaceable id the game knows.
pub(super) fn replaceable_id(path: &str, id: u32, f: &mut Findings) {
    if id != 0 && !REPLACEABLE_IDS.contains(&id) {
        f.push(
            Rule::ReplaceableId,
            path,
            format!("{id} is no replaceable id the game knows ({REPLACEABLE_IDS:?})"),
        );
    }
}

/// True when the game can load the image at `path` (by its extension).
fn loadable(path: &str, hd: bool) -> bool {
    super::has_extension(path, &LOADABLE) || (hd && super::has_extension(path, &[LOADABLE_HD]))
}

/// True when a texture gives an image to draw: a path, or a replaceable id.
pub(super) fn drawable(texture: &Texture) -> bool {
    !texture.file_name.text().is_empty() || texture.replaceable_id != 0
}
