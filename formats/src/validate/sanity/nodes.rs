//! Bones that hide their geoset, lights' attenuation, and the `Origin Ref`
//! attachment point.

use crate::mdx::{GeosetAnimationTrack, Model};
use crate::validate::{Findings, Rule};

/// `0xffffffff`: a bone without a geoset or geoset animation.
const NONE: u32 = u32::MAX;

/// A geoset animation's static alpha below which its geoset is taken as
/// hidden (mdx-m3-viewer's threshold).
const HIDDEN_ALPHA: f32 = 0.1;

/// The attenuation the game's lights are made for (mdx-m3-viewer's bounds).
const ATTENUATION: [f32; 2] = [80.0, 200.0];

/// The words (any case) that start the name of the attachment point at a
/// unit's origin: `Origin`, then `Ref` (`Ref 2`, `Ref2`: numbered).
const ORIGIN: [&str; 2] = ["origin", "ref"];

pub(super) fn check(model: &Model, f: &mut Findings) {
    bones(model, f);
    lights(model, f);
    origin(model, f);
}

/// A bone whose geoset animation hides its geoset: a static alpha below
/// [`HIDDEN_ALPHA`] and no alpha track.
fn bones(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "BONE");
    let animations = model.geoset_animations();
    for (b, bone) in model.bones().iter().enumerate() {
        if bone.geoset_id == NONE {
            continue;
        }
        // Out of range is `geoset-animation-index`.
        let Some(animation) = usize::try_from(bone.geoset_animation_id)
            .ok()
            .and_then(|a| animations.get(a))
        else {
            continue;
        };
        let animated = animation
            .tracks
            .iter()
            .any(|t| matches!(t, GeosetAnimationTrack::Alpha(_)));
        if animation.alpha < HIDDEN_ALPHA && !animated {
            f.push(
                Rule::InvisibleBoneGeoset,
                format!("{at}.bones[{b}].geoset_animation_id"),
                format!(
                    "geoset animation {} has alpha {} and no alpha track: geoset {} may be \
                     invisible",
                    bone.geoset_animation_id, animation.alpha, bone.geoset_id
                ),
            );
        }
    }
}

/// Attenuation from at least 80 to at most 200, ending after it starts.
fn lights(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "LITE");
    let [least, most] = ATTENUATION;
    for (l, light) in model.lights().iter().enumerate() {
        let at = format!("{at}.lights[{l}]");
        let (start, end) = (light.attenuation_start, light.attenuation_end);
        if start < least || start.is_nan() {
            f.push(
                Rule::LightAttenuation,
                format!("{at}.attenuation_start"),
                format!("attenuation starts at {start}, below {least}"),
            );
        }
        if end > most || end.is_nan() {
            f.push(
                Rule::LightAttenuation,
                format!("{at}.attenuation_end"),
                format!("attenuation ends at {end}, beyond {most}"),
            );
        }
        // NaN is reported above.
        if end <= start {
            f.push(
                Rule::LightAttenuation,
                format!("{at}.attenuation_end"),
                format!("attenuation ends at {end}, not after it starts at {start}"),
            );
        }
    }
}

/// Whether the game attaches effects to `model`'s origin: a model players
/// select (it has collision shapes: units, buildings, items), or a unit (it
/// has an `Attack` or a `Walk` sequence). Spell effects, missiles and the
/// models they spawn are neither.
fn takes_effects(model: &Model) -> bool {
    let acts = |name: &str| {
        let words = super::names::words(name);
        matches!(super::names::action(&words), Some("attack" | "walk"))
    };
    !model.collision_shapes().is_empty()
        || model
            .sequences()
            .iter()
            .any(|s| acts(&s.name.to_string_lossy()))
}

/// Whether an attachment's name is `Origin Ref` (or `Origin Ref 2`, ...),
/// read word by word as the game reads it (Blizzard's war eagle has
/// `Origin  Ref`, with two spaces).
fn is_origin(name: &[u8]) -> bool {
    let name = String::from_utf8_lossy(name);
    let [origin, reference] = ORIGIN;
    let mut words = name.split_whitespace();
    let first = words.next().is_some_and(|w| w.eq_ignore_ascii_case(origin));
    let second = words.next().is_some_and(|w| {
        w.get(..reference.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(reference))
    });
    first && second
}

/// An attachment named `Origin Ref` (or `Origin Ref 2`, ...) in a model
/// the game attaches effects to.
fn origin(model: &Model, f: &mut Findings) {
    let attachments = model.attachments();
    if !takes_effects(model) {
        return;
    }
    if !attachments.iter().any(|a| is_origin(a.node.name.text())) {
        let message = match attachments.len() {
            0 => "no attachment points, so no \"Origin Ref\"".to_string(),
            n => format!("no \"Origin Ref\" among the {n} attachment points"),
        };
        f.push(
            Rule::MissingOriginRef,
            super::chunk_at(model, "ATCH"),
            message,
        );
    }
}
