//! Texture references: which textures are used, adding placeholders, and
//! removing the textures a conversion stopped using (with every index after
//! them moved down).

use super::removal::Removal;
use super::report::Report;
use crate::mdx::{Chunk, LayerTrack, Model, Texture, Track};

/// Every texture index a model uses, through `f` (to read or to change):
/// layer textures (the texture list from 1100 on, the vestigial
/// `textureId` beside it left alone), `KMTF` keys, and `PRE2` textures.
fn for_each_reference(model: &mut Model, mut f: impl FnMut(&mut u32)) {
    for chunk in &mut model.chunks {
        match chunk {
            Chunk::Materials(c) => {
                for layer in c.materials.iter_mut().flat_map(|m| m.layers.iter_mut()) {
                    match &mut layer.textures {
                        Some(entries) => {
                            for entry in entries {
                                signed(&mut entry.texture_id, &mut f);
                                if let Some(track) = &mut entry.texture_id_track {
                                    keys(track, &mut f);
                                }
                            }
                        }
                        None => signed(&mut layer.texture_id, &mut f),
                    }
                    for track in &mut layer.tracks {
                        if let LayerTrack::TextureId(track) = track {
                            keys(track, &mut f);
                        }
                    }
                }
            }
            Chunk::ParticleEmitters2(c) => {
                for emitter in &mut c.emitters {
                    f(&mut emitter.texture_id);
                }
            }
            _ => {}
        }
    }
}

/// Each key of a texture-id track.
fn keys(track: &mut Track<u32>, f: &mut dyn FnMut(&mut u32)) {
    for key in &mut track.keys {
        f(&mut key.value);
    }
}

/// A signed texture id (-1: none) as the unsigned index `f` sees.
fn signed(id: &mut i32, f: &mut dyn FnMut(&mut u32)) {
    if let Ok(mut value) = u32::try_from(*id) {
        f(&mut value);
        *id = i32::try_from(value).unwrap_or(-1);
    }
}

/// Which textures `model` uses, by index.
pub(super) fn used(model: &mut Model) -> Vec<bool> {
    let mut used = vec![false; model.textures().len()];
    for_each_reference(model, |id| {
        if let Some(u) = used.get_mut(*id as usize) {
            *u = true;
        }
    });
    used
}

/// The largest texture index `model` uses that is past its `TEXS`, if any
/// (textures appended to `TEXS` would take its meaning).
pub(super) fn past_the_end(model: &mut Model) -> Option<u32> {
    let len = model.textures().len();
    let mut largest = None;
    for_each_reference(model, |id| {
        if *id as usize >= len {
            largest = largest.max(Some(*id));
        }
    });
    largest
}

/// Removes the textures that were used (`before`) and no longer are,
/// moving the indices after them down.
pub(super) fn drop_unused(model: &mut Model, before: &[bool], report: &mut Report) {
    let now = used(model);
    let Some(removal) = Removal::unused(before, &now) else {
        return;
    };
    removal.apply(model.textures_mut(), |i, texture| {
        report.drop(
            format!("textures[{i}]"),
            format!("{}, no longer used", describe(texture)),
        );
    });
    for_each_reference(model, |id| removal.renumber(id));
}

/// Texture paths version 800 cannot load: a Reforged `.tif` name (the
/// game keeps those textures as `.dds`, which every version loads) of a
/// texture still used becomes the same path in `.dds`.
pub(super) fn classic_paths(model: &mut Model, report: &mut Report) {
    if model.textures().iter().all(|t| !is_tif(t)) {
        return;
    }
    let used = used(model);
    for (i, texture) in model.textures_mut().iter_mut().enumerate() {
        if !is_tif(texture) || used.get(i) != Some(&true) {
            continue;
        }
        let path = texture.file_name.to_string_lossy().into_owned();
        let (stem, ext) = path.split_at(path.len().saturating_sub(3));
        let dds = if ext == "TIF" { "DDS" } else { "dds" };
        let renamed = format!("{stem}{dds}");
        if texture.file_name.set(&renamed).is_ok() {
            report.approximate(
                format!("textures[{i}]"),
                format!(
                    "`{path}` named `{renamed}`: version 800 loads .blp, .tga and .dds (Reforged \
                     keeps its .tif textures as .dds)"
                ),
            );
        }
    }
}

/// Whether a texture's path ends in `.tif`.
fn is_tif(texture: &Texture) -> bool {
    texture
        .file_name
        .text()
        .to_ascii_lowercase()
        .ends_with(b".tif")
}

/// A texture as a report names it.
pub(super) fn describe(texture: &Texture) -> String {
    match (texture.replaceable_id, texture.file_name.to_string_lossy()) {
        (0, path) => format!("`{path}`"),
        (1, _) => "team colour (replaceable id 1)".to_string(),
        (2, _) => "team glow (replaceable id 2)".to_string(),
        (id, path) if path.is_empty() => format!("replaceable id {id}"),
        (id, path) => format!("`{path}` (replaceable id {id})"),
    }
}
