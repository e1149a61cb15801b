//! BLP and DDS textures: round trips, pixels, re-encoding, and Pillow as the independent decoder.

pub(crate) mod blp_pillow;
pub(crate) mod blp_pixels;
pub(crate) mod blp_regenerate;
pub(crate) mod blp_roundtrip;
pub(crate) mod blp_views;
pub(crate) mod dds_pillow;
