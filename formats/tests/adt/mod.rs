//! ADT tiles and WDT maps: round trips, offsets, alpha maps, liquids, split files, damaged and lenient reads.

pub(crate) mod alpha;
pub(crate) mod damaged;
pub(crate) mod lenient;
pub(crate) mod mh2o;
pub(crate) mod offsets;
pub(crate) mod props;
pub(crate) mod roundtrip;
pub(crate) mod split;
pub(crate) mod views;
pub(crate) mod wdt;
