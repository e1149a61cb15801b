//! MDL text: the corpus, round trips, the MDL/MDX pairs, plain output, errors and proptest.

pub(crate) mod corpus;
pub(crate) mod errors;
pub(crate) mod pairs;
pub(crate) mod plain;
pub(crate) mod properties;
pub(crate) mod roundtrip;
