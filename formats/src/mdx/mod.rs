//! MDX models for Warcraft III and Reforged (versions 800 to 1200) and the WoW
//! alpha client (1300 to 1500, the chunks of [`alpha`]), read and written
//! byte-exact.
//!
//! Every chunk is a definition mirroring the spec (`shared/seeds/000_*`, with
//! the Reforged layouts of `shared/specs/MDX_VERSIONS.md`), one module per
//! section. A [`Model`] keeps its chunks in file order, unknown ones included,
//! so writing an unedited model gives back the file's exact bytes.
//!
//! ```
//! use formats::mdx::{Model, Sequence};
//!
//! let bytes = formats::sample::sample_mdx();
//! let mut model = Model::from_bytes(&bytes)?;
//! assert_eq!(model.version(), 800);
//! assert_eq!(model.to_bytes()?, bytes); // byte-exact
//!
//! // Edit: rename the first sequence and write a consistent file.
//! model.sequences_mut()[0].name.set("Stand Victory")?;
//! let edited = Model::from_bytes(&model.to_bytes()?)?;
//! assert_eq!(edited.sequences()[0].name.to_string_lossy(), "Stand Victory");
//! # Ok::<(), formats::Error>(())
//! ```
//!
//! # Real-file quirks, handled on purpose
//!
//! | quirk (`MDX_VERSIONS.md` §8) | strict ([`Model::from_bytes`]) | lenient ([`Model::from_bytes_lenient`]) |
//! |---|---|---|
//! | a light track stored after the `LITE` chunk, outside every size | error at the track, path `chunks[i].LITE` | attached to the chunk's last light ([`Light::tracks_after_chunk`]), written back in place; [`Model::repair_sizes`] moves it inside |
//! | a `BPOS` count larger than the chunk | error | the matrices that are there, count rewritten |
//! | bytes after the NUL of a `char[N]`, or no NUL | kept ([`format_core::FixedStr`]) | same |
//! | NaN static values (`emissiveGain` under a `KMTE` track) | bits kept | same |
//! | unknown chunks (`MDVI`, `INFO` before `VERS`), empty chunks, any chunk order | kept in place | same |
//! | unknown sub-chunk tags inside an object | kept with the rest of the object ([`format_core::UnknownTail`]) | same |
//! | v900 layers with or without the fresnel block | decided from the data, kept | same |
//! | alpha (≥ 1300): the ignored `unused` word after the `MTLS` and `ATCH` counts, the `ATCH` padding byte | kept as read | same |
//! | alpha: `KMTF`/`KRTX` as a simple or a key track (the sources disagree, §6.4) | decided from the data ([`alpha::FlipTrack`]), kept | same |
//! | a damaged file that ends inside its last chunk (a download or a copy cut short) | error at the chunk's size | that chunk kept as its bytes ([`Chunk::Cut`], [`format_core::CutChunk`]) with a diagnostic naming it and its offset; the chunks before it read; written back byte for byte |
//! | a known chunk whose size fits the file but whose content does not decode, anywhere in the file (the public `Glow.mdx`, 1,580 bytes: its last chunk, `CLID`, ends at the end of the file, but its collision shape, a cylinder, has 8 bytes where 2 vertices and a radius need 28) | the error inside the chunk, at its offset and path (`chunks[9].CLID.shapes[0].vertices`) | that chunk kept as its bytes in its place ([`Chunk::Undecoded`], [`UndecodedChunk`]) with a diagnostic giving the strict error's offset and path; the chunks around it read; written back byte for byte |
//!
//! A chunk kept as bytes is kept wherever it is, not only last: its declared
//! size says where the next chunk starts, so the chunks after it are read as
//! they would be without it, and what it holds is not lost but written back;
//! the model lacks only what is inside it (its collision shapes), as a
//! tile's lenient reader lacks an MCNK sub-chunk it keeps as bytes. (Were
//! the size itself wrong, the bytes after it would read as chunks of
//! unknown tags or a cut chunk: still written back exactly, and the
//! diagnostic names the chunk where it started.)
//! `validate` reports both kinds (`cut-chunk`), `convert` keeps them as they
//! are and says so, and `export` and `render` say when the geosets are in
//! one ([`Model::cut_geosets`]).
//!
//! # Serde
//!
//! With the default `serde` feature every type here is `Serialize` and
//! `Deserialize`. Counts computed on write (`Derived` fields) are not
//! serialized. JSON cannot hold NaN: `serde_json` writes a NaN float as `null`,
//! so the two corpus files with NaN emissive gains do not survive a trip
//! through JSON (a binary serde format keeps them).

mod access;
pub mod alpha;
pub mod camera;
mod chunk;
pub mod emitter;
pub mod geoset;
pub mod header;
pub mod light;
pub mod material;
mod model;
pub mod node;
pub mod objects;
pub mod reforged;
pub mod sequence;
pub mod texture;
pub mod track;
mod version;
mod view;

pub use camera::{Camera, CameraChunk, CameraTrack};
pub use chunk::{Chunk, ChunkView};
pub use emitter::{
    CornEmitter, CornEmitterChunk, CornEmitterTrack, ParticleEmitter, ParticleEmitter2,
    ParticleEmitter2Chunk, ParticleEmitter2Track, ParticleEmitterChunk, ParticleEmitterTrack,
    RibbonEmitter, RibbonEmitterChunk, RibbonEmitterTrack,
};
pub use format_core::UndecodedChunk;
pub use geoset::{
    Geoset, GeosetAnimation, GeosetAnimationChunk, GeosetAnimationTrack, GeosetChunk,
    TextureCoordinateSet,
};
pub use header::{Extent, ModelChunk, VersionChunk};
pub use light::{Light, LightChunk, LightTrack, LightType};
pub use material::{FilterMode, Fresnel, Layer, LayerTrack, Material, MaterialChunk, TextureEntry};
pub use model::{Model, ModelView};
pub use node::{Node, NodeTrack};
pub use objects::{
    Attachment, AttachmentChunk, AttachmentTrack, Bone, BoneChunk, CollisionShape,
    CollisionShapeChunk, EventObject, EventObjectChunk, EventTrack, Helper, HelperChunk,
    PivotPointChunk, ShapeType,
};
pub use reforged::{BindPoseChunk, FaceEffect, FaceEffectChunk};
pub use sequence::{GlobalSequenceChunk, Sequence, SequenceChunk};
pub use texture::{
    SoundTrack, SoundTrackChunk, Texture, TextureAnimation, TextureAnimationChunk,
    TextureAnimationTrack, TextureChunk,
};
pub use track::{Interpolation, Key, KeyFrame, Tangents, Track};
pub use version::VersionLoss;
