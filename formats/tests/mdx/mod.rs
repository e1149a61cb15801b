//! MDX models: the corpus, round trips, edits, quirks, damaged and cut files, WoW alpha models, user chunks, and the proptest strategies of arbitrary models.

pub(crate) mod alpha;
pub(crate) mod corpus;
pub(crate) mod custom_chunks;
pub(crate) mod damaged;
pub(crate) mod edit;
pub(crate) mod properties;
pub(crate) mod quirks;
pub(crate) mod semantics;
pub(crate) mod strategies;
pub(crate) mod truncation;
pub(crate) mod views;
