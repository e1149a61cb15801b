//! MDX of the WoW alpha client: versions 1300, 1400 and 1500 (seed 003, with
//! seed 001 for context and `shared/specs/MDX_VERSIONS.md` §6 and §7), one
//! module per section of the seed.
//!
//! These chunks are variants of the one [`Chunk`](super::Chunk) enum, chosen
//! by the `VERS` version (≥ 1300), so [`Model::from_bytes`](super::Model::from_bytes)
//! and [`Model::to_bytes`](super::Model::to_bytes) read and write every version
//! from 800 to 1500. `VERS`, `GLBS`, `TEXS`, `PIVT` and `CORN` keep their WC3
//! layouts; every other chunk has an alpha type here, reached through the
//! `alpha_*` accessors of [`Model`](super::Model) (`alpha_bones()`, ...). The
//! Warcraft III variants of those chunks cannot be written in an alpha model
//! (and the reverse): the writer says which variant and which version.
//! Chunks seed 003 does not list (`SNDS`, `FAFX`, `BPOS`, ...) are kept
//! verbatim as unknown chunks.
//!
//! ```
//! use formats::mdx::{Model, alpha};
//!
//! let mut model = Model::new(1300);
//! model.alpha_sequences_mut().push(alpha::Sequence {
//!     name: "Stand".try_into()?,
//!     time: [0, 1000],
//!     frequency: 1.0,
//!     ..Default::default()
//! });
//! let bytes = model.to_bytes()?;
//! let read = Model::from_bytes(&bytes)?;
//! assert_eq!(read, model);
//! assert_eq!(read.alpha_sequences()[0].name.to_string_lossy(), "Stand");
//! # Ok::<(), formats::Error>(())
//! ```
//!
//! # What real data verifies
//!
//! The only real alpha file, `wowalpha_Boar.mdx` (v1300), is read and written
//! byte-exact by the tests, which verifies the layouts of `VERS MODL SEQS MTLS
//! TEXS GEOS BONE HELP ATCH PIVT CAMS EVTS HTST CLID` (a box shape; no layer,
//! camera or attachment tracks; `KGTR` linear and bezier, `KGRT` linear,
//! `KEVT`). Everything else rests on the sources alone (seed 003, WMV, WEX,
//! GMP): `GLBS`, `TXAN`/`KTAR`, `GEOA`, `LITE`, `PREM`, `PRE2`, `RIBB`, `KVIS`,
//! `KMTA`, the `KMTF`/`KRTX` form ([`FlipTrack`]), the cylinder, sphere and
//! plane shapes, `CORN` in an alpha file, all of v1400 (read as v1300, as
//! every source does) and the v1500 `GEOS` ([`BatchedGeosetChunk`]).

pub mod batch;
pub mod emitter;
pub mod geoset;
pub mod header;
pub mod light;
pub mod material;
pub mod node;
pub mod objects;
pub mod track;

pub use batch::{Batch, BatchedGeosetChunk, GeosetSection, Vertex};
pub use emitter::{
    ParticleEmitter, ParticleEmitter2, ParticleEmitter2Chunk, ParticleEmitter2Track,
    ParticleEmitterChunk, ParticleEmitterTrack, RibbonEmitter, RibbonEmitterChunk,
    RibbonEmitterTrack,
};
pub use geoset::{Geoset, GeosetAnim, GeosetAnimChunk, GeosetAnimTrack, GeosetChunk};
pub use header::{ModelChunk, Sequence, SequenceChunk};
pub use light::{Camera, CameraChunk, CameraTrack, Light, LightChunk, LightTrack};
pub use material::{
    Material, MaterialChunk, TexAnim, TexAnimChunk, TexAnimTrack, TexLayer, TexLayerTrack,
};
pub use node::{GenObject, GenObjectTrack};
pub use objects::{
    Attachment, AttachmentChunk, Bone, BoneChunk, CollisionChunk, Event, EventChunk, GeomShape,
    HelperChunk, HitTestShape, HitTestShapeChunk, MdlBox, MdlCylinder, MdlPlane, MdlSphere,
    VisibilityTrack,
};
pub use track::{CompressedQuaternion, FlipTrack, IntKey, SimpleTrack};

/// The first version with the alpha layouts.
pub const FIRST_VERSION: u32 = 1300;
/// The first version with the batched `GEOS` layout.
pub const BATCHED_GEOSETS_VERSION: u32 = 1500;
