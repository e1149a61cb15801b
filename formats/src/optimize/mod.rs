//! The keyframe optimizer: a model's animation made smaller without
//! changing how it plays beyond a tolerance.
//!
//! [`optimize`] does three things, each of which keeps every sequence and
//! global sequence sampled the same (within the tolerance) at every frame:
//!
//! - drops the keys that interpolation reproduces ([`keys`](self#keys):
//!   linear, hermite and bezier tracks, rotations compared by angle; keys at
//!   the ends of each sequence stay, so each sequence is sampled the same);
//! - removes the tracks whose every key holds the track's rest value (the
//!   value its absence means: a node's identity, a layer's static alpha, ...;
//!   see [`visit_tracks`]), which is exactly what the track gave;
//! - removes the global sequences no track uses, renumbering the tracks'
//!   ids.
//!
//! Keys outside every sequence are left as they are (the sampler never
//! reads them, but editors show them). The tests prove it by sampling: for
//! every corpus model, at every integer frame of every sequence and global
//! sequence, every track of the optimized model is within the tolerance of
//! the original.
//!
//! ```
//! use formats::mdx::{Interpolation, Key, Model, NodeTrack, Track};
//! use formats::optimize::{Options, optimize};
//!
//! let mut model = Model::from_bytes(&formats::sample::sample_mdx())?;
//! // A bone's translation that moves on a straight line through 5 keys.
//! let keys = (0..=4).map(|i| Key::new(i * 250, [0.0, 0.0, i as f32])).collect();
//! model.bones_mut()[0].node.tracks = vec![NodeTrack::Translation(Track::new(Interpolation::Linear, keys))];
//! let report = optimize(&mut model, &Options::default());
//! assert_eq!((report.keys_before, report.keys_after), (5, 2));
//! # Ok::<(), formats::Error>(())
//! ```
//!
//! # Keys
//!
//! The rules for which keys may go are in the docs of the `keys` module
//! (private): in brief, a key goes when the segment joining its neighbours
//! (hermite and bezier tangents stretched to the longer segment) stays
//! within the tolerance of the original curve at every integer frame
//! between them, as [`Sampler`](crate::anim::Sampler) samples both; tracks
//! the game steps (visibility) must fit both stepped and as declared.
//! Neighbours more than [`MAX_SPAN`] ms apart are not joined (a damaged
//! file's gap of billions of frames would take too long to check).

mod global;
mod keys;
mod tracks;
mod value;

pub use keys::MAX_SPAN;
pub use tracks::{TrackVisitor, visit_tracks};
pub use value::{Animated, rotation_angle};

use crate::anim::Timeline;
use crate::mdx::{Model, Track};

/// How close the optimized animation must stay.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The largest change allowed in any sampled value: in each component
    /// (model units for translations, fractions for colours, alpha and
    /// scale), and in radians for rotations.
    pub tolerance: f32,
}

/// The default tolerance: `0.001`, a thousandth of a model unit, of full
/// alpha, or of a radian (0.06°): nothing the game draws shows it.
pub const DEFAULT_TOLERANCE: f32 = 0.001;

impl Default for Options {
    fn default() -> Self {
        Options {
            tolerance: DEFAULT_TOLERANCE,
        }
    }
}

/// What [`optimize`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Keyframe tracks before.
    pub tracks_before: usize,
    /// Keyframe tracks removed (every key at the rest value).
    pub tracks_removed: usize,
    /// Keys in every keyframe track before.
    pub keys_before: usize,
    /// Keys after.
    pub keys_after: usize,
    /// The global sequences removed, by their ids before.
    pub global_sequences_removed: Vec<usize>,
}

/// Thins every track, then removes the constant tracks at rest.
struct Thin<'t> {
    timeline: &'t Timeline,
    tolerance: f32,
    budget: keys::Budget,
    report: Report,
}

/// Frame evaluations one model may cost (about a second): the largest corpus
/// model needs a few million.
const BUDGET: u64 = 1 << 27;

impl TrackVisitor for Thin<'_> {
    fn key_track<T: Animated>(
        &mut self,
        _: &str,
        track: &mut Track<T>,
        rest: Option<&T>,
        stepped: bool,
    ) -> bool {
        self.report.tracks_before += 1;
        self.report.keys_before += track.keys.len();
        keys::thin(
            track,
            stepped,
            self.timeline,
            self.tolerance,
            &mut self.budget,
        );
        let at_rest = rest.is_some_and(|rest| track.keys.iter().all(|k| k.value == *rest));
        if at_rest {
            self.report.tracks_removed += 1;
        } else {
            self.report.keys_after += track.keys.len();
        }
        !at_rest
    }

    fn other_track(&mut self, _: &str, _: &mut i32) {}

    fn unknown_track(&mut self, _: &str) {}
}

/// Optimizes `model`'s animation within `options.tolerance` (see the
/// [module](self) docs).
pub fn optimize(model: &mut Model, options: &Options) -> Report {
    let timeline = Timeline::from_model(model);
    let mut thin = Thin {
        timeline: &timeline,
        tolerance: options.tolerance,
        budget: keys::Budget(BUDGET),
        report: Report::default(),
    };
    visit_tracks(model, &mut thin);
    let mut report = thin.report;
    report.global_sequences_removed = global::remove_unused(model);
    report
}
