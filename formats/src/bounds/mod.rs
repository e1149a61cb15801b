//! Bounds from the geometry: the extents a model stores (`MODL`, each
//! sequence's, each geoset's and each geoset's per sequence) measured from
//! its vertices, posed and skinned over every sequence, for every version
//! (800 to 1500; matrix groups, `SKIN`, `BIDX`/`BWGT`).
//!
//! Stale extents make the game cull a model that should show (its box is
//! off screen while its geometry is not). [`Model::recompute_extents`]
//! measures and stores them; `validate::extents`
//! reports the ones that disagree with the geometry.
//!
//! - [`measure`]: the extents the geometry gives ([`Extents`]), sampled as
//!   [`ExtentOptions`] says (a pose every 10 ms and at every key).
//! - [`escapes`]: how far the geometry, posed as Blizzard's exporter posed
//!   it ([`BLIZZARD_STEP`]), reaches beyond the extents a model stores
//!   ([`Escapes`]), what `validate` calls stale.
//! - [`Model::recompute_extents`] and [`Model::store_extents`]: written into
//!   the model, each change listed ([`ExtentChange`]).
//! - [`Aabb`]: a box grown point by point.
//!
//! What is measured, as Blizzard's own models have it: a box holds every
//! vertex of the geosets showing (geoset animation alpha at least 1/255:
//! fainter, 8-bit colour draws nothing) at each posed frame; a bounds radius is the distance from the box's centre to the
//! farthest of those vertices; a geoset hidden throughout a sequence has the
//! empty extent ([`EMPTY_CORNER`] to its negative, radius 0) for it.
//! A geoset's extent covers its sequences (its bind pose when it shows in
//! none or the model has no sequences); the model's covers its geosets'.
//! Vertices a billboarded node turns to the camera count wherever they can
//! turn (the cube about its pivot, as far as they reach), and each sequence
//! is posed until the longest global sequence has run ([`measure`] says
//! how): the game shows both every way.
//!
//! Particles and ribbons reach beyond the vertices, by as far as their
//! emitters throw them, which no vertex says; so in a model with emitters
//! ([`has_emitters`]) the boxes of the model and of its sequences are only
//! grown to hold the geometry, never shrunk (a box made larger for the
//! effects stays), and `validate` does not call them too large. A geoset's
//! box is the geometry's alone, always.
//!
//! [`Model::recompute_extents`]: crate::mdx::Model::recompute_extents
//! [`Model::store_extents`]: crate::mdx::Model::store_extents

mod aabb;
mod apply;
mod escape;
mod measure;
mod pose;

use crate::mdx::Model;

/// Whether `model` has particle, ribbon or popcorn emitters (any version):
/// effects that reach beyond the vertices the extents are measured from.
pub fn has_emitters(model: &Model) -> bool {
    !(model.particle_emitters().is_empty()
        && model.particle_emitters2().is_empty()
        && model.ribbon_emitters().is_empty()
        && model.corn_emitters().is_empty()
        && model.alpha_particle_emitters().is_empty()
        && model.alpha_particle_emitters2().is_empty()
        && model.alpha_ribbon_emitters().is_empty())
}

pub use aabb::{Aabb, EMPTY_CORNER};
pub use apply::ExtentChange;
pub use escape::{BLIZZARD_STEP, Escapes, GeosetEscapes, escapes, is_set};
pub use measure::{ExtentOptions, Extents, GeosetExtents, MAX_POSE_WORK, measure};
pub use pose::MAX_STEPS;
