//! [`ExportError`]: why a glTF export or the writing of its document failed.

/// Why [`export`](super::export), [`export_tile`](super::export_tile) or
/// the writing of a [`Document`](super::Document) failed.
///
/// A texture that cannot be found or read does not fail an export: its
/// material goes without it, and the [`TextureError`](super::TextureError)
/// is in [`Export::missing_textures`](super::Export::missing_textures).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// [`ExportOptions::sequence`](super::ExportOptions::sequence) names no
    /// sequence of the model (the message lists those it has).
    #[error("{source}")]
    NoSequence {
        /// The name asked for.
        name: String,
        /// The timeline's refusal, naming the model's sequences.
        #[source]
        source: crate::anim::NoSequence,
    },
    /// The animations would hold more values than an export may (see
    /// [the module docs](super#what-an-export-may-hold)): export one
    /// sequence or none.
    #[error(
        "the animations {} {needed} values ({sequences} sequences; at most \
         {limit}): export one sequence (--sequence) or none (--no-animations)",
        if *.counted_ahead { "would need" } else { "need at least" }
    )]
    TooManyKeys {
        /// The values counted.
        needed: u64,
        /// The most an export's animations may hold.
        limit: u64,
        /// How many sequences were to become animations.
        sequences: usize,
        /// Refused before anything was made (`needed` is what the channels
        /// would certainly take), rather than stopped as a channel was
        /// added (`needed` is what they held then).
        counted_ahead: bool,
    },
    /// The tile cannot be exported: it has no MCNK, or lies off the map.
    #[cfg(feature = "terrain")]
    #[error("{0}")]
    Tile(#[source] crate::terrain::TerrainError),
    /// The document's JSON cannot be written.
    #[error("glTF JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// A [`PointerChannel`](super::PointerChannel) names an animation the
    /// document does not have.
    #[error("glTF JSON: no animation {animation}")]
    NoAnimation {
        /// The animation's index.
        animation: usize,
    },
    /// The `.glb` would be larger than the 4 GiB its 32-bit lengths hold.
    #[error("a GLB of {size} bytes is past 4 GiB")]
    TooLarge {
        /// Its size in bytes.
        size: usize,
    },
}
