//! Particle emitters 2 and popcorn emitters that cannot emit as meant: XY
//! quads without motion, a time middle outside the particle's life, a
//! squirt without emission keys, filter modes and replaceable ids the game
//! does not know, a popcorn effect without its visibility guide.

use super::textures::replaceable_id;
use crate::mdx::node::node_flags::XY_QUAD;
use crate::mdx::{Model, ParticleEmitter2Track};
use crate::validate::{Findings, Rule};

/// The last filter mode of particle emitters 2: 0 blend, 1 additive, 2
/// modulate, 3 modulate 2x, 4 alpha key.
const LAST_FILTER_MODE: u32 = 4;

pub(super) fn check(model: &Model, f: &mut Findings) {
    let at = super::chunk_at(model, "PRE2");
    for (e, emitter) in model.particle_emitters2().iter().enumerate() {
        let at = format!("{at}.emitters[{e}]");
        if emitter.filter_mode > LAST_FILTER_MODE {
            f.push(
                Rule::UnknownFilterMode,
                format!("{at}.filter_mode"),
                format!(
                    "filter mode {}: particle emitters 2 have 0 (blend) to 4 (alpha key)",
                    emitter.filter_mode
                ),
            );
        }
        replaceable_id(&format!("{at}.replaceable_id"), emitter.replaceable_id, f);
        if emitter.node.flags & XY_QUAD != 0 && (emitter.speed == 0.0 || emitter.latitude == 0.0) {
            f.push(
                Rule::XyQuadWithoutSpeed,
                format!("{at}.node.flags"),
                format!(
                    "an XY quad emitter with speed {} and latitude {}: both must be other than 0",
                    emitter.speed, emitter.latitude
                ),
            );
        }
        if !(0.0..=1.0).contains(&emitter.time) {
            f.push(
                Rule::EmitterTimeMiddle,
                format!("{at}.time"),
                format!(
                    "time middle {}: a fraction of the life, 0 to 1",
                    emitter.time
                ),
            );
        }
        let rate_track = emitter
            .tracks
            .iter()
            .any(|t| matches!(t, ParticleEmitter2Track::EmissionRate(_)));
        if emitter.squirt != 0 && !rate_track {
            f.push(
                Rule::SquirtWithoutTrack,
                format!("{at}.squirt"),
                "squirts, but has no emission rate track (KP2E) to squirt at",
            );
        }
    }
    let at = super::chunk_at(model, "CORN");
    for (e, emitter) in model.corn_emitters().iter().enumerate() {
        if emitter.flags.text().iter().all(u8::is_ascii_whitespace) {
            f.push(
                Rule::PopcornWithoutGuide,
                format!("{at}.emitters[{e}].flags"),
                "no animation visibility guide (\"Always=on, Death=off\")",
            );
        }
    }
}
