//! A layer's texture, the one part of `Materials n { Material { Layer {
//! ... } } }` that is not derived from its definition (`mdx::Material`,
//! `mdx::Layer`): the hook of the `Layer` block.
//!
//! Before 1100 it is the layer's `TextureID`. From 1100 on the layer has a
//! list of textures by slot (`mdx::TextureEntry`), written in the first of
//! three forms that holds it:
//!
//! - the diffuse texture (slot 0) as the layer's `TextureID` and slots 1
//!   to 5 as `NormalTextureID`, `ORMTextureID`, `EmissiveTextureID`,
//!   `TeamColorTextureID` and `ReflectionsTextureID`, static or animated
//!   (a list of one diffuse texture is Retera's tools' v1100 MDL, the slot
//!   keys war3-model's);
//! - `TextureEntries n` and a `TextureEntry { static TextureID, TextureSlot,
//!   TextureID track }` block each, after `ShaderTypeId`: a list with no
//!   form in keys (empty, entries out of slot order, a slot twice or above
//!   5, a layer-level texture track beside it, or a vestigial `texture_id`
//!   other than 0), which other MDL readers do not know. A plain writer
//!   writes its first texture as the diffuse one instead, and notes it.
//!
//! Hand-written because which statements hold the list is chosen by what
//! the list holds, across three fields (`texture_id`, `textures`, and the
//! layer-level texture tracks in `tracks`), and a v1100 layer read without
//! a list takes its `TextureID` and texture track for slot 0: choices no
//! field attribute says.

use format_core::Result;
use format_core::mdl::{Hook, Pos};

use super::syntax::Stmt;
use super::tracks::{mdl_tracks, read_track, write_track};
use super::value::{Cx, Out};
use crate::mdx::{Layer, LayerTrack, TextureEntry};

mdl_tracks!(LayerTrack {
    TextureId => "TextureID",
    Alpha => "Alpha",
    EmissiveGain => "EmissiveGain",
    FresnelColor => "FresnelColor",
    FresnelAlpha => "FresnelOpacity" | "FresnelAlpha",
    FresnelTeamColor => "FresnelTeamColor",
});

/// The MDL keys of texture slots 1 to 5 (normal, ORM, emissive, team
/// colour, environment map), as war3-model writes and reads them.
const SLOT_KEYS: [&str; 5] = [
    "NormalTextureID",
    "ORMTextureID",
    "EmissiveTextureID",
    "TeamColorTextureID",
    "ReflectionsTextureID",
];

/// The hook of the `Layer` block (`#[mdl(hook = ..)]` on `mdx::Layer`).
pub(crate) struct TextureList;

/// What a layer's texture statements said.
#[derive(Default)]
pub(crate) struct Given {
    /// `TextureID n`.
    texture_id: i32,
    /// `TextureEntries n`, where.
    entries: Option<(Pos, usize)>,
    /// The `TextureEntry` blocks (none before 1100: dropped).
    listed: Vec<TextureEntry>,
    /// The textures of the slot keys, static or animated.
    slotted: Vec<TextureEntry>,
    /// The first key of a version from 1100 on, where.
    since_1100: Option<(Pos, String)>,
}

/// Whether the layer's texture list (from 1100 on) has its form in keys:
/// slot 0 first, the others in slot order up to 5, and nothing beside it
/// (the vestigial `texture_id` 0, no layer-level texture track).
fn in_slots(layer: &Layer, entries: &[TextureEntry]) -> bool {
    entries.first().is_some_and(|e| e.slot == 0)
        && entries.is_sorted_by(|a, b| a.slot < b.slot)
        && entries
            .last()
            .is_some_and(|e| e.slot as usize <= SLOT_KEYS.len())
        && layer.texture_id == 0
        && !layer
            .tracks
            .iter()
            .any(|t| matches!(t, LayerTrack::TextureId(_)))
}

impl Hook<Layer> for TextureList {
    type State = Given;
    const REPEATABLE: &'static [&'static str] = &["TextureEntry"];

    fn read(said: &mut Given, s: &Stmt, cx: &mut Cx) -> Result<bool> {
        let key = s.key().1;
        if let Some(at) = SLOT_KEYS.iter().position(|k| *k == key) {
            // `NormalTextureID`...: a texture of slot 1 to 5, static or animated.
            said.since_1100.get_or_insert((s.pos, key.to_owned()));
            let slot = at as u32 + 1;
            let at = said
                .slotted
                .iter()
                .position(|e| e.slot == slot)
                .unwrap_or_else(|| {
                    said.slotted.push(TextureEntry {
                        texture_id: 0,
                        slot,
                        texture_id_track: None,
                    });
                    said.slotted.len() - 1
                });
            if let Some(entry) = said.slotted.get_mut(at) {
                if s.is_track() {
                    entry.texture_id_track = Some(read_track(s, cx)?);
                } else {
                    entry.texture_id = s.value(cx)?;
                }
            }
            return Ok(true);
        }
        match key {
            "TextureID" => said.texture_id = s.value(cx)?,
            "TextureEntries" => {
                said.since_1100.get_or_insert((s.pos, key.to_owned()));
                said.entries = Some((s.pos, s.value(cx)?));
            }
            "TextureEntry" => {
                let entry = read_entry(s, cx)?;
                if cx.version >= 1100 {
                    said.listed.push(entry);
                } else {
                    let message = format!("version {} layers have no texture list", cx.version);
                    cx.quirk(s.pos, message, "dropped it")?;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish(said: Given, layer: &mut Layer, cx: &mut Cx, _: Pos) -> Result<()> {
        let Given {
            texture_id,
            entries,
            listed,
            mut slotted,
            since_1100,
        } = said;
        layer.texture_id = texture_id;
        layer.textures = None;
        if cx.version >= 1100 {
            if let Some((pos, declared)) = entries {
                cx.count(pos, "texture entries", declared, listed.len())?;
            }
            let mut list = listed;
            if entries.is_none() && list.is_empty() {
                // Retera's Reforged MDL: the layer's `TextureID` is its one
                // texture (slot 0); the binary layer keeps 0 in the old field.
                let at = layer
                    .tracks
                    .iter()
                    .position(|t| matches!(t, LayerTrack::TextureId(_)));
                let texture_id_track = match at.map(|i| layer.tracks.remove(i)) {
                    Some(LayerTrack::TextureId(track)) => Some(track),
                    _ => None,
                };
                list.push(TextureEntry {
                    texture_id: std::mem::take(&mut layer.texture_id),
                    slot: 0,
                    texture_id_track,
                });
            }
            slotted.sort_by_key(|e| e.slot);
            list.append(&mut slotted);
            layer.textures = Some(list);
        }
        cx.not_in_version(since_1100, 1100)
    }

    /// A list with no form in keys becomes its first texture, as the
    /// diffuse one; a layer-level texture track beside the list has no
    /// plain form (a reader takes it for the diffuse texture's).
    fn plain(layer: &Layer, out: &mut Out) -> Option<Layer> {
        let entries = layer.textures.as_ref()?;
        if in_slots(layer, entries) {
            return None;
        }
        out.note(format!(
            "a texture list (slots {:?}) with no form in keys: only its first texture written",
            entries.iter().map(|e| e.slot).collect::<Vec<_>>()
        ));
        let first = entries.first();
        let mut plain = layer.clone();
        plain.texture_id = 0;
        plain.textures = Some(vec![TextureEntry {
            texture_id: first.map_or(0, |e| e.texture_id),
            slot: 0,
            texture_id_track: first.and_then(|e| e.texture_id_track.clone()),
        }]);
        plain.tracks.retain(|t| {
            let layer_level = matches!(t, LayerTrack::TextureId(_));
            if layer_level {
                out.note("a layer-level TextureID track beside the texture list".into());
            }
            !layer_level
        });
        Some(plain)
    }

    fn write(layer: &Layer, out: &mut Out, field: &str) {
        let listed = layer.textures.as_deref();
        let keyed = listed.filter(|entries| in_slots(layer, entries));
        match field {
            "texture_id" => match keyed {
                // Slot 0 as `TextureID`, the others by their keys.
                Some(entries) => {
                    for entry in entries {
                        let Some(key) = (entry.slot as usize)
                            .checked_sub(1)
                            .map_or(Some("TextureID"), |i| SLOT_KEYS.get(i).copied())
                        else {
                            continue;
                        };
                        out.fixed(key, &entry.texture_id);
                        if let Some(track) = &entry.texture_id_track {
                            write_track(out, key, track);
                        }
                    }
                }
                None => out.fixed("TextureID", &layer.texture_id),
            },
            "textures" => {
                if let (Some(entries), None) = (listed, keyed) {
                    // Says that the texture list is given (even empty), not derived.
                    out.field("TextureEntries", &entries.len());
                    for entry in entries {
                        out.open("TextureEntry");
                        out.fixed("TextureID", &entry.texture_id);
                        out.field("TextureSlot", &entry.slot);
                        if let Some(track) = &entry.texture_id_track {
                            write_track(out, "TextureID", track);
                        }
                        out.close();
                    }
                }
            }
            _ => {}
        }
    }
}

/// `TextureEntry { static TextureID n, TextureSlot n, TextureID track }`.
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
