//! `Materials n { Material { Layer { ... } } }`, with the Reforged layer
//! fields (`EmissiveGain`, the fresnel values, `ShaderTypeId`) and the v1100
//! texture list (`TextureEntries n` and `TextureEntry` blocks; without them,
//! as Retera's tools write v1100, the layer's `TextureID` is its one texture,
//! which is how a list of one diffuse texture is written).

use format_core::{FixedStr, Result};

use super::header::{read_flag, write_flags};
use super::syntax::{Kind, Stmt};
use super::tracks::{
    mdl_tracks, read_into, read_tail, read_track, write_tail, write_track, write_tracks,
};
use super::value::{Cx, Out, items};
use crate::mdx::material::shading_flags as sf;
use crate::mdx::{FilterMode, Fresnel, Layer, LayerTrack, Material, MaterialChunk, TextureEntry};
use format_core::mdl::Said;

const MATERIAL_FLAGS: &[(u32, &str)] = &[
    (0x1, "ConstantColor"),
    (0x2, "TwoSided"),
    (0x8, "SortPrimsNearZ"),
    (0x10, "SortPrimsFarZ"),
    (0x20, "FullResolution"),
];

const SHADING_FLAGS: &[(u32, &str)] = &[
    (sf::UNSHADED, "Unshaded"),
    (sf::SPHERE_ENVIRONMENT_MAP, "SphereEnvMap"),
    (sf::TWO_SIDED, "TwoSided"),
    (sf::UNFOGGED, "Unfogged"),
    (sf::NO_DEPTH_TEST, "NoDepthTest"),
    (sf::NO_DEPTH_SET, "NoDepthSet"),
    (sf::UNLIT, "Unlit"),
];

const FILTER_MODES: &[(FilterMode, &str)] = &[
    (FilterMode::None, "None"),
    (FilterMode::Transparent, "Transparent"),
    (FilterMode::Blend, "Blend"),
    (FilterMode::Additive, "Additive"),
    (FilterMode::AddAlpha, "AddAlpha"),
    (FilterMode::Modulate, "Modulate"),
    (FilterMode::Modulate2x, "Modulate2x"),
];

mdl_tracks!(LayerTrack {
    TextureId => "TextureID",
    Alpha => "Alpha",
    EmissiveGain => "EmissiveGain",
    FresnelColor => "FresnelColor",
    FresnelAlpha => "FresnelOpacity" | "FresnelAlpha",
    FresnelTeamColor => "FresnelTeamColor",
});

/// The fresnel values Reforged files have when nothing sets them.
const DEFAULT_FRESNEL: Fresnel = Fresnel {
    color: [1.0; 3],
    opacity: 0.0,
    team_color: 0.0,
};

/// `Materials n { Material { ... } }`
///
/// Hand-written: a layer's v1100 texture list has three forms in keys (the
/// diffuse `TextureID`, the `*TextureID` slot keys, `TextureEntry` blocks)
/// chosen by what the list holds, `FilterMode` is a word or a number,
/// `RenderMode n` of war3-model reads too, and which keys exist depends on
/// the version (`Shader` in 900 and 1000 only): choices across fields no
/// field attribute says.
pub(crate) fn write_materials(out: &mut Out, chunk: &MaterialChunk) {
    out.open(&format!("Materials {}", chunk.materials.len()));
    for m in &chunk.materials {
        out.open("Material");
        write_flags(out, m.flags, MATERIAL_FLAGS, "ExtFlags", Said::default());
        if m.priority_plane != 0 {
            out.field("PriorityPlane", &m.priority_plane);
        }
        if let Some(shader) = &m.shader {
            out.field("Shader", shader);
        }
        for layer in &m.layers {
            write_layer(out, layer);
        }
        for tail in &m.unknown {
            write_tail(out, tail);
        }
        out.close();
    }
    out.close();
}

/// The MDL keys of texture slots 1 to 5 (normal, ORM, emissive, team
/// colour, environment map), as war3-model writes and reads them.
const SLOT_KEYS: [&str; 5] = [
    "NormalTextureID",
    "ORMTextureID",
    "EmissiveTextureID",
    "TeamColorTextureID",
    "ReflectionsTextureID",
];

/// Writes the layer's `TextureID` and, for a v1100 texture list that has
/// one, its form in keys: the diffuse texture (slot 0) as the layer's
/// `TextureID`, as Retera's tools write a list of one, and slots 1 to 5 as
/// `NormalTextureID`... (war3-model's words). Returns the list if it has no
/// such form (entries out of slot order, a slot twice, a slot above 5, a
/// layer-level texture track beside the list), to be written as
/// `TextureEntry` blocks; a plain writer writes its first texture instead.
fn write_textures<'a>(out: &mut Out, layer: &'a Layer) -> Option<&'a Vec<TextureEntry>> {
    let layer_track = layer
        .tracks
        .iter()
        .any(|t| matches!(t, LayerTrack::TextureId(_)));
    let Some(entries) = &layer.textures else {
        out.fixed("TextureID", &layer.texture_id);
        return None;
    };
    let in_slots = entries.first().is_some_and(|e| e.slot == 0)
        && entries.is_sorted_by(|a, b| a.slot < b.slot)
        && entries
            .last()
            .is_some_and(|e| e.slot as usize <= SLOT_KEYS.len())
        && layer.texture_id == 0
        && !layer_track;
    let keyed: &[TextureEntry] = if in_slots {
        entries
    } else if out.is_plain() {
        out.note(format!(
            "a texture list (slots {:?}) with no form in keys: only its first texture written",
            entries.iter().map(|e| e.slot).collect::<Vec<_>>()
        ));
        entries.get(..1).unwrap_or_default()
    } else {
        out.fixed("TextureID", &layer.texture_id);
        return Some(entries);
    };
    let first = keyed.first();
    out.fixed("TextureID", &first.map_or(0, |e| e.texture_id));
    if let Some(track) = first.and_then(|e| e.texture_id_track.as_ref()) {
        write_track(out, "TextureID", track);
    }
    for entry in keyed.iter().skip(1) {
        // In slot order after slot 0, at most 5: `in_slots` checked it.
        let Some(key) = (entry.slot as usize)
            .checked_sub(1)
            .and_then(|i| SLOT_KEYS.get(i))
        else {
            continue;
        };
        out.fixed(key, &entry.texture_id);
        if let Some(track) = &entry.texture_id_track {
            write_track(out, key, track);
        }
    }
    None
}

fn write_layer(out: &mut Out, layer: &Layer) {
    out.open("Layer");
    let word = FILTER_MODES
        .iter()
        .find(|(mode, _)| *mode == layer.filter_mode);
    match (word, layer.filter_mode) {
        (Some((_, word)), _) => out.field("FilterMode", &super::header::Word(word)),
        (None, FilterMode::Other(n)) if out.is_plain() => {
            out.note_unnamed("FilterMode", n, "None");
            out.field("FilterMode", &super::header::Word("None"));
        }
        (None, mode) => out.field("FilterMode", &u32::from(mode)),
    }
    write_flags(
        out,
        layer.shading_flags,
        SHADING_FLAGS,
        "ExtFlags",
        Said::default(),
    );
    let listed = write_textures(out, layer);
    if layer.texture_animation_id != -1 {
        out.field("TVertexAnimId", &layer.texture_animation_id);
    }
    if layer.coord_id != 0 {
        out.field("CoordId", &layer.coord_id);
    }
    out.fixed("Alpha", &layer.alpha);
    if let Some(gain) = &layer.emissive_gain {
        out.fixed("EmissiveGain", gain);
    }
    if let Some(f) = &layer.fresnel {
        out.fixed("FresnelColor", &f.color);
        out.fixed("FresnelOpacity", &f.opacity);
        out.fixed("FresnelTeamColor", &f.team_color);
    }
    if let Some(id) = &layer.shader_type_id {
        out.field("ShaderTypeId", id);
    }
    if let Some(entries) = listed {
        // Says that the texture list is given (even empty), not derived.
        out.field("TextureEntries", &entries.len());
    }
    for entry in listed.into_iter().flatten() {
        out.open("TextureEntry");
        out.fixed("TextureID", &entry.texture_id);
        out.field("TextureSlot", &entry.slot);
        if let Some(track) = &entry.texture_id_track {
            write_track(out, "TextureID", track);
        }
        out.close();
    }
    if out.is_plain() && layer.textures.is_some() {
        // Beside a texture list, a layer-level texture track has no plain
        // form (a reader takes it for the diffuse texture's).
        for track in &layer.tracks {
            match track {
                LayerTrack::TextureId(_) => {
                    out.note("a layer-level TextureID track beside the texture list".into())
                }
                _ => write_tracks(out, std::slice::from_ref(track)),
            }
        }
    } else {
        write_tracks(out, &layer.tracks);
    }
    out.close();
}

pub(crate) fn read_materials(stmt: &Stmt, cx: &mut Cx) -> Result<MaterialChunk> {
    let what = ("Materials", "Material", "materials");
    let materials = items(stmt, cx, what, read_material)?;
    Ok(MaterialChunk { materials })
}

fn read_material(stmt: &Stmt, cx: &mut Cx) -> Result<Material> {
    let version = cx.version;
    let mut material = Material {
        priority_plane: 0,
        flags: 0,
        shader: (version > 800 && version < 1100).then(FixedStr::default),
        layers: Vec::new(),
        unknown: Vec::new(),
    };
    let (_, body) = stmt.block(cx)?;
    cx.once_each(body, &["Layer"])?;
    for s in body {
        match s.key().1 {
            "PriorityPlane" => material.priority_plane = s.value(cx)?,
            // war3-model's words for every flag bit at once (its `RenderMode`).
            "RenderMode" => material.flags = s.value(cx)?,
            "Shader" => {
                let shader = s.value(cx)?;
                match &mut material.shader {
                    Some(slot) => *slot = shader,
                    None => cx.quirk(
                        s.pos,
                        format!("version {version} has no material shader"),
                        "dropped it",
                    )?,
                }
            }
            "Layer" => {
                let name = format!("Layer {}", material.layers.len());
                let layer = cx.within(name, |cx| read_layer(s, cx))?;
                material.layers.push(layer);
            }
            "ExtTail" => material.unknown.push(read_tail(s, cx)?),
            _ if read_flag(s, cx, &mut material.flags, MATERIAL_FLAGS, "ExtFlags")? => {}
            _ => cx.unknown(s)?,
        }
    }
    Ok(material)
}

fn read_layer(stmt: &Stmt, cx: &mut Cx) -> Result<Layer> {
    let version = cx.version;
    let mut layer = Layer {
        filter_mode: FilterMode::None,
        shading_flags: 0,
        texture_id: 0,
        texture_animation_id: -1,
        coord_id: 0,
        alpha: 1.0,
        emissive_gain: (version >= 900).then_some(1.0),
        fresnel: (version >= 1000).then_some(DEFAULT_FRESNEL),
        shader_type_id: (version >= 1100).then_some(0),
        textures: (version >= 1100).then(Vec::new),
        tracks: Vec::new(),
    };
    let (_, body) = stmt.block(cx)?;
    cx.once_each(body, &["TextureEntry"])?;
    let mut entries = None;
    let mut slotted: Vec<TextureEntry> = Vec::new();
    let (mut since_900, mut since_1100) = (None, None);
    for s in body {
        let key = s.key().1;
        if let Some(at) = SLOT_KEYS.iter().position(|k| *k == key) {
            // `NormalTextureID`...: a texture of slot 1 to 5, static or animated.
            since_1100.get_or_insert((s.pos, key.to_owned()));
            let slot = at as u32 + 1;
            let at = slotted
                .iter()
                .position(|e| e.slot == slot)
                .unwrap_or_else(|| {
                    slotted.push(TextureEntry {
                        texture_id: 0,
                        slot,
                        texture_id_track: None,
                    });
                    slotted.len() - 1
                });
            if let Some(entry) = slotted.get_mut(at) {
                if s.is_track() {
                    entry.texture_id_track = Some(read_track(s, cx)?);
                } else {
                    entry.texture_id = s.value(cx)?;
                }
            }
            continue;
        }
        if read_into(s, cx, &mut layer.tracks)? {
            continue;
        }
        if key == "EmissiveGain" || key.starts_with("Fresnel") {
            since_900.get_or_insert((s.pos, key.to_owned()));
        }
        if key == "ShaderTypeId" || key == "TextureEntries" {
            since_1100.get_or_insert((s.pos, key.to_owned()));
        }
        match s.key().1 {
            "TextureEntries" => entries = Some((s.pos, s.value::<usize>(cx)?)),
            "FilterMode" => layer.filter_mode = filter_mode(s, cx)?,
            "TextureID" => layer.texture_id = s.value(cx)?,
            "TVertexAnimId" => layer.texture_animation_id = s.value(cx)?,
            "CoordId" => layer.coord_id = s.value(cx)?,
            "Alpha" => layer.alpha = s.value(cx)?,
            "EmissiveGain" => layer.emissive_gain = Some(s.value(cx)?),
            "FresnelColor" => layer.fresnel.get_or_insert(DEFAULT_FRESNEL).color = s.value(cx)?,
            "FresnelOpacity" => {
                layer.fresnel.get_or_insert(DEFAULT_FRESNEL).opacity = s.value(cx)?
            }
            "FresnelTeamColor" => {
                layer.fresnel.get_or_insert(DEFAULT_FRESNEL).team_color = s.value(cx)?
            }
            "ShaderTypeId" => layer.shader_type_id = Some(s.value(cx)?),
            "TextureEntry" => {
                let entry = read_entry(s, cx)?;
                match &mut layer.textures {
                    Some(list) => list.push(entry),
                    None => cx.quirk(
                        s.pos,
                        format!("version {version} layers have no texture list"),
                        "dropped it",
                    )?,
                }
            }
            _ if read_flag(s, cx, &mut layer.shading_flags, SHADING_FLAGS, "ExtFlags")? => {}
            _ => cx.unknown(s)?,
        }
    }
    if let (Some(list), Some((pos, declared))) = (&layer.textures, entries) {
        cx.count(pos, "texture entries", declared, list.len())?;
    }
    let listed = entries.is_some() || layer.textures.as_ref().is_some_and(|l| !l.is_empty());
    if version >= 1100 && !listed {
        // Retera's Reforged MDL: the layer's `TextureID` is its one texture
        // (slot 0); the binary layer keeps 0 in the old field.
        let at = layer
            .tracks
            .iter()
            .position(|t| matches!(t, LayerTrack::TextureId(_)));
        let texture_id_track = match at.map(|i| layer.tracks.remove(i)) {
            Some(LayerTrack::TextureId(track)) => Some(track),
            _ => None,
        };
        layer.textures = Some(vec![TextureEntry {
            texture_id: std::mem::take(&mut layer.texture_id),
            slot: 0,
            texture_id_track,
        }]);
    }
    if let Some(list) = &mut layer.textures {
        slotted.sort_by_key(|e| e.slot);
        list.append(&mut slotted);
    }
    // The fields the version does not have.
    cx.not_in_version(since_900, 900)?;
    cx.not_in_version(since_1100, 1100)?;
    if version < 900 {
        layer.emissive_gain = None;
        layer.fresnel = None;
    }
    if version < 1100 {
        layer.shader_type_id = None;
    }
    Ok(layer)
}

fn filter_mode(stmt: &Stmt, cx: &Cx) -> Result<FilterMode> {
    let item = stmt.single(cx)?;
    match &item.kind {
        Kind::Word(w) => FILTER_MODES
            .iter()
            .find(|(_, word)| word == w)
            .map(|(mode, _)| *mode)
            .ok_or_else(|| cx.error(item.pos, format!("unknown filter mode `{w}`"))),
        _ => Ok(stmt.value::<u32>(cx)?.into()),
    }
}

fn read_entry(stmt: &Stmt, cx: &mut Cx) -> Result<TextureEntry> {
    let mut entry = TextureEntry {
        texture_id: 0,
        slot: 0,
        texture_id_track: None,
    };
    let (_, body) = stmt.block(cx)?;
    cx.within("TextureEntry".into(), |cx| {
        cx.once_each(body, &[])?;
        for s in body {
            match s.key() {
                (false, "TextureID") if s.is_track() => {
                    entry.texture_id_track = Some(read_track(s, cx)?)
                }
                (_, "TextureID") => entry.texture_id = s.value(cx)?,
                (_, "TextureSlot") => entry.slot = s.value(cx)?,
                _ => cx.unknown(s)?,
            }
        }
        Ok(entry)
    })
}
