//! Animation: posing the corpus, measured extents, the keyframe optimizer.

pub(crate) mod bounds;
pub(crate) mod corpus;
pub(crate) mod optimize;
