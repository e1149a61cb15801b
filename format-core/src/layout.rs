//! The on-disk layout of a derived type, as data (the rustdoc table is made from it).

/// One row of a derived type's on-disk layout.
///
/// `#[derive(Codec)]` puts the rows in an inherent constant `LAYOUT` and renders
/// them as a table in that constant's documentation, so the docs of a chunk read
/// like the spec it was written from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayoutRow {
    /// The field (or a framing element such as the chunk header).
    pub field: &'static str,
    /// How it is stored.
    pub ty: &'static str,
    /// Its size in bytes, or how the size is found.
    pub size: &'static str,
    /// When it is present, or how many there are.
    pub condition: &'static str,
}
