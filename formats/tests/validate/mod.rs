//! The validator: its rules, and war3-model as an independent reader.

pub(crate) mod rules;
pub(crate) mod war3_model;
