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

/// The name (its start, any case) of the attachment point at a unit's origin.
const ORIGIN: &str = "origin ref";

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

/// An attachment named `Origin Ref` (or `Origin Ref 2`, ...).
fn origin(model: &Model, f: &mut Findings) {
    let attachments = model.attachments();
    let is_origin = |name: &[u8]| {
        name.get(..ORIGIN.len())
            .is_some_and(|start| start.eq_ignore_ascii_case(ORIGIN.as_bytes()))
    };
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
