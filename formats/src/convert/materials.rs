//! HD materials and classic layers.
//!
//! Reforged draws an HD material from six textures by slot: diffuse,
//! normal, ORM (occlusion, roughness, metallic), emissive, team colour and
//! reflection. Versions 900 and 1000 store them as six layers of a material
//! whose shader is `Shader_HD_DefaultUnit`; from 1100 on, as one layer with
//! `shaderTypeId` 1 and a texture list, each entry naming its slot. The
//! classic client draws layers: an HD material becomes its diffuse layer
//! (filter mode, flags, alpha and tracks carried) and the other slots are
//! dropped; a classic material of one layer becomes an HD material whose
//! other slots hold neutral placeholders named for them (the textures Retera's
//! Model Studio uses: `Textures\normal.dds`, `Textures\orm.dds`,
//! `Textures\Black32.dds`, team colour, `ReplaceableTextures\EnvironmentMap.dds`).

use format_core::FixedStr;

use super::report::Report;
use super::textures::{describe, past_the_end};
use crate::mdx::material::shading_flags;
use crate::mdx::{Layer, LayerTrack, Model, Texture, TextureEntry, Track};

/// What each slot of an HD material holds.
pub const SLOTS: [&str; 6] = [
    "diffuse",
    "normal",
    "ORM",
    "emissive",
    "team colour",
    "reflection",
];

/// The placeholders of slots 1 to 5: `(replaceable id, path)`.
pub const PLACEHOLDERS: [(u32, &str); 5] = [
    (0, "Textures\\normal.dds"),
    (0, "Textures\\orm.dds"),
    (0, "Textures\\Black32.dds"),
    (1, ""),
    (0, "ReplaceableTextures\\EnvironmentMap.dds"),
];

/// The shader of a 900/1000 HD material.
pub const HD_SHADER: &str = "Shader_HD_DefaultUnit";

/// Material flag 0x2: two-sided (version > 800).
const TWO_SIDED: u32 = 0x2;

/// Which classic materials become HD when converting to a Reforged version.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HdMaterials {
    /// Materials of one layer; the others stay SD materials (which Reforged
    /// also draws), so converting back gives the same model.
    #[default]
    SingleLayer,
    /// Every material, from its first layer with a texture file (a unit's
    /// skin over its team colour layer) or else its first layer; the other
    /// layers are dropped.
    All,
    /// None: every material stays SD.
    None,
}

fn slot_name(slot: u32) -> String {
    SLOTS
        .get(slot as usize)
        .map_or_else(|| format!("slot {slot}"), |s| (*s).to_string())
}

fn texture_name(textures: &[Texture], id: i32) -> String {
    usize::try_from(id)
        .ok()
        .and_then(|i| textures.get(i))
        .map_or_else(|| format!("texture {id}"), describe)
}

/// Takes the layer-level `KMTF` track out of a layer.
fn take_texture_track(layer: &mut Layer) -> Option<Track<u32>> {
    let at = layer
        .tracks
        .iter()
        .position(|t| matches!(t, LayerTrack::TextureId(_)))?;
    match layer.tracks.remove(at) {
        LayerTrack::TextureId(track) => Some(track),
        _ => None,
    }
}

/// What makes a slot layer other than the diffuse more than its texture.
fn not_neutral(layer: &Layer) -> Vec<&'static str> {
    let mut out = Vec::new();
    if layer.filter_mode != crate::mdx::FilterMode::None {
        out.push("filter mode");
    }
    if layer.shading_flags != 0 {
        out.push("shading flags");
    }
    if layer.texture_animation_id != -1 {
        out.push("texture animation");
    }
    if layer.coord_id != 0 {
        out.push("UV set");
    }
    if layer.alpha.to_bits() != 1f32.to_bits() {
        out.push("alpha");
    }
    if layer
        .tracks
        .iter()
        .any(|t| !matches!(t, LayerTrack::TextureId(_)))
    {
        out.push("tracks");
    }
    out
}

/// A neutral layer holding `texture_id`, with the version fields of `like`
/// (an HD material's slot layer in the 900/1000 layout).
pub(crate) fn neutral_layer(like: &Layer, texture_id: i32) -> Layer {
    Layer {
        filter_mode: crate::mdx::FilterMode::None,
        shading_flags: 0,
        texture_id,
        texture_animation_id: -1,
        coord_id: 0,
        alpha: 1.0,
        emissive_gain: like.emissive_gain.map(|_| 1.0),
        fresnel: like.fresnel.map(|_| crate::mdx::Fresnel::DEFAULT),
        shader_type_id: None,
        textures: None,
        tracks: Vec::new(),
    }
}

/// HD materials to classic layers (for a target of 800): the diffuse layer
/// or texture entry stays, the other slots are dropped, a two-sided
/// material makes its layer two-sided.
pub(super) fn to_classic(model: &mut Model, report: &mut Report) {
    let textures = model.textures().to_vec();
    if model.materials().is_empty() {
        return;
    }
    for (m, material) in model.materials_mut().iter_mut().enumerate() {
        let at = format!("materials[{m}]");
        let hd = material.has_hd_shader();
        if hd {
            for (j, layer) in material.layers.iter().enumerate().skip(1) {
                report.drop(
                    format!("{at}.layers[{j}]"),
                    format!(
                        "the {} slot ({})",
                        slot_name(j as u32),
                        texture_name(&textures, layer.texture_id)
                    ),
                );
            }
            material.layers.truncate(1);
        }
        if let Some(shader) = &material.shader
            && !shader.text().is_empty()
        {
            if !hd {
                report.drop(
                    format!("{at}.shader"),
                    format!("shader `{}`", shader.to_string_lossy()),
                );
            }
            material.shader = Some(FixedStr::default());
        }
        let mut any_hd = hd;
        for (l, layer) in material.layers.iter_mut().enumerate() {
            let layer_hd = layer.is_hd();
            let Some(entries) = &mut layer.textures else {
                continue;
            };
            if !layer_hd && entries.len() <= 1 {
                continue;
            }
            any_hd = true;
            let diffuse = entries.iter().position(|e| e.slot == 0).unwrap_or(0);
            let mut index = 0;
            entries.retain(|entry| {
                let keep = index == diffuse;
                if !keep {
                    report.drop(
                        format!("{at}.layers[{l}].textures[{index}]"),
                        format!(
                            "the {} slot ({})",
                            slot_name(entry.slot),
                            texture_name(&textures, entry.texture_id)
                        ),
                    );
                }
                index += 1;
                keep
            });
            for entry in entries.iter_mut() {
                entry.slot = 0;
            }
            layer.shader_type_id = Some(0);
        }
        if any_hd && material.flags & TWO_SIDED != 0 {
            material.flags &= !TWO_SIDED;
            for layer in &mut material.layers {
                layer.shading_flags |= shading_flags::TWO_SIDED;
            }
            report.approximate(
                format!("{at}.flags"),
                "a two-sided material (flag 0x2): its layer is two-sided (shading flag 0x10)",
            );
        }
    }
}

/// HD materials in the 900/1000 layout (six layers) from the 1100 one (one
/// layer with a texture list).
pub(super) fn to_layer_slots(model: &mut Model, report: &mut Report) {
    let textures = model.textures().to_vec();
    if model.materials().is_empty() {
        return;
    }
    for (m, material) in model.materials_mut().iter_mut().enumerate() {
        let at = format!("materials[{m}]");
        let single_hd = matches!(material.layers.as_slice(), [l] if l.is_hd());
        if !single_hd {
            continue;
        }
        let Some(mut layer) = material.layers.pop() else {
            continue;
        };
        let entries = layer.textures.take().unwrap_or_default();
        layer.shader_type_id = None;
        let mut slots: Vec<Option<TextureEntry>> = vec![None; SLOTS.len()];
        for (e, entry) in entries.into_iter().enumerate() {
            match slots.get_mut(entry.slot as usize) {
                Some(free @ None) => *free = Some(entry),
                _ => report.drop(
                    format!("{at}.layers[0].textures[{e}]"),
                    format!(
                        "a texture in {} ({}), which the layer layout has no place for",
                        slot_name(entry.slot),
                        texture_name(&textures, entry.texture_id)
                    ),
                ),
            }
        }
        let base = layer.clone();
        let mut layers = Vec::with_capacity(SLOTS.len());
        for (slot, entry) in slots.into_iter().enumerate() {
            let (id, track) = entry.map_or((-1, None), |e| (e.texture_id, e.texture_id_track));
            let mut slot_layer = if slot == 0 {
                let mut l = layer.clone();
                l.texture_id = id;
                l
            } else {
                neutral_layer(&base, id)
            };
            if let Some(track) = track {
                slot_layer.tracks.insert(0, LayerTrack::TextureId(track));
            }
            layers.push(slot_layer);
        }
        material.layers = layers;
        material.shader = Some(FixedStr::try_from(HD_SHADER).unwrap_or_default());
    }
}

/// HD materials in the 1100 layout (one layer with a texture list) from the
/// 900/1000 one (six layers of a `Shader_HD_*` material).
pub(super) fn to_texture_list(model: &mut Model, report: &mut Report) {
    if model.materials().is_empty() {
        return;
    }
    for (m, material) in model.materials_mut().iter_mut().enumerate() {
        if !material.has_hd_shader() {
            continue;
        }
        let at = format!("materials[{m}]");
        material.shader = None;
        let mut layers = core::mem::take(&mut material.layers).into_iter();
        let Some(mut hd) = layers.next() else {
            continue;
        };
        let mut entries = vec![TextureEntry {
            texture_id: hd.texture_id,
            slot: 0,
            texture_id_track: take_texture_track(&mut hd),
        }];
        for (j, mut layer) in layers.enumerate() {
            let slot = j + 1;
            let lost = not_neutral(&layer);
            if !lost.is_empty() {
                report.drop(
                    format!("{at}.layers[{slot}]"),
                    format!(
                        "the {} slot's {} (a texture entry holds its texture only)",
                        slot_name(slot as u32),
                        lost.join(", ")
                    ),
                );
            }
            entries.push(TextureEntry {
                texture_id: layer.texture_id,
                slot: u32::try_from(slot).unwrap_or(u32::MAX),
                texture_id_track: take_texture_track(&mut layer),
            });
        }
        hd.texture_id = 0;
        hd.shader_type_id = Some(1);
        hd.textures = Some(entries);
        material.layers = vec![hd];
    }
}

/// Classic materials made HD (after the layers were brought to `target`'s
/// layout): the chosen layer is the diffuse, the other slots placeholders
/// appended to `TEXS` once.
pub(super) fn promote(model: &mut Model, target: u32, which: HdMaterials, report: &mut Report) {
    if which == HdMaterials::None || model.materials().is_empty() {
        return;
    }
    if let Some(id) = past_the_end(model) {
        report.approximate(
            "materials",
            format!(
                "kept as SD materials: texture {id} is named but TEXS has {} textures, so \
                 placeholders appended to TEXS would take its place",
                model.textures().len()
            ),
        );
        return;
    }
    let textures = model.textures().to_vec();
    let mut placeholders: Option<[i32; 5]> = None;
    let mut make_placeholders = |model: &mut Model, report: &mut Report| -> [i32; 5] {
        *placeholders.get_or_insert_with(|| {
            PLACEHOLDERS.map(|(replaceable_id, path)| {
                let list = model.textures_mut();
                let index = list.len();
                list.push(Texture {
                    replaceable_id,
                    file_name: FixedStr::try_from(path).unwrap_or_default(),
                    flags: 3,
                });
                let id = i32::try_from(index).unwrap_or(i32::MAX);
                let texture = list.get(index).map(describe).unwrap_or_default();
                report.add(
                    format!("textures[{index}]"),
                    format!("placeholder {texture}"),
                );
                id
            })
        })
    };
    let count = model.materials().len();
    for m in 0..count {
        let at = format!("materials[{m}]");
        let Some(material) = model.materials().get(m) else {
            continue;
        };
        let layers = material.layers.len();
        let chosen = match (which, layers) {
            (_, 0) => continue,
            (_, 1) => 0,
            (HdMaterials::All, _) => material
                .layers
                .iter()
                .position(|l| {
                    let id = l
                        .textures
                        .as_ref()
                        .and_then(|t| t.first())
                        .map_or(l.texture_id, |e| e.texture_id);
                    usize::try_from(id)
                        .ok()
                        .and_then(|i| textures.get(i))
                        .is_some_and(|t| t.replaceable_id == 0 && !t.file_name.text().is_empty())
                })
                .unwrap_or(0),
            _ => {
                report.approximate(
                    at,
                    format!(
                        "kept as an SD material ({layers} layers; the HD shader draws one \
                         diffuse texture)"
                    ),
                );
                continue;
            }
        };
        let ids = make_placeholders(model, report);
        let Some(material) = model.materials_mut().get_mut(m) else {
            continue;
        };
        for l in 0..layers {
            if l != chosen {
                report.drop(
                    format!("{at}.layers[{l}]"),
                    "a layer besides the HD diffuse",
                );
            }
        }
        let mut kept = material.layers.swap_remove(chosen);
        material.layers.clear();
        if target >= 1100 {
            kept.shader_type_id = Some(1);
            let entries = kept.textures.get_or_insert_with(Vec::new);
            for (slot, id) in (1u32..).zip(ids) {
                entries.push(TextureEntry {
                    texture_id: id,
                    slot,
                    texture_id_track: None,
                });
            }
            material.layers.push(kept);
        } else {
            material.shader = Some(FixedStr::try_from(HD_SHADER).unwrap_or_default());
            let base = kept.clone();
            material.layers.push(kept);
            material
                .layers
                .extend(ids.iter().map(|&id| neutral_layer(&base, id)));
        }
        report.add(
            at,
            "HD: the classic layer is the diffuse; normal, ORM, emissive, team colour and \
             reflection hold placeholders",
        );
    }
}
