//! The top-level chunk of a model ([`Chunk`]): one variant per chunk the
//! spec defines, dispatched on its tag and gated on the `VERS` version, and
//! [`UnknownChunk`] for the rest, kept in place.

use format_core::{Codec, CutChunk, UndecodedChunk, UnknownChunk};

use super::alpha;
use super::camera::CameraChunk;
use super::emitter::{
    CornEmitterChunk, ParticleEmitter2Chunk, ParticleEmitterChunk, RibbonEmitterChunk,
};
use super::geoset::{GeosetAnimationChunk, GeosetChunk};
use super::header::{ModelChunk, VersionChunk};
use super::light::LightChunk;
use super::material::MaterialChunk;
use super::objects::{
    AttachmentChunk, BoneChunk, CollisionShapeChunk, EventObjectChunk, HelperChunk, PivotPointChunk,
};
use super::reforged::{BindPoseChunk, FaceEffectChunk};
use super::sequence::{GlobalSequenceChunk, SequenceChunk};
use super::texture::{SoundTrackChunk, TextureAnimationChunk, TextureChunk};

/// One top-level chunk, dispatched on its tag. Chunks have "no predefined
/// order" (seed 000); unknown ones (`MDVI`, `INFO`, ...) are kept verbatim,
/// and so, by a lenient read, are a last chunk the file ends inside and a
/// chunk whose content does not decode (the module docs' quirks table).
///
/// The list of them, [`Model::chunks`](super::Model::chunks), is read and
/// written by the derived chunk list (`#[format(chunk_list)]`), with the
/// light tracks a writer stored after a `LITE` chunk (`after_chunk`, see
/// [`LightChunk`]).
#[derive(Codec, Clone, Debug, PartialEq)]
#[format(chunk_list)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// `MODL` (372 bytes inline) is the largest; a file has a few dozen chunks at
// most, so boxing it would only add an indirection.
#[allow(clippy::large_enum_variant)]
pub enum Chunk {
    /// `VERS`
    Version(VersionChunk),
    /// `MODL`
    #[format(if = version < 1300)]
    Model(ModelChunk),
    /// `SEQS`
    #[format(if = version < 1300)]
    Sequences(SequenceChunk),
    /// `GLBS`
    GlobalSequences(GlobalSequenceChunk),
    /// `MTLS`
    #[format(if = version < 1300)]
    Materials(MaterialChunk),
    /// `TEXS`
    Textures(TextureChunk),
    /// `SNDS` (Warcraft III only: in an alpha file it is an unknown chunk)
    #[format(if = version < 1300)]
    SoundTracks(SoundTrackChunk),
    /// `TXAN`
    #[format(if = version < 1300)]
    TextureAnimations(TextureAnimationChunk),
    /// `GEOS`
    #[format(if = version < 1300)]
    Geosets(GeosetChunk),
    /// `GEOA`
    #[format(if = version < 1300)]
    GeosetAnimations(GeosetAnimationChunk),
    /// `BONE`
    #[format(if = version < 1300)]
    Bones(BoneChunk),
    /// `LITE` (with the light tracks a writer stored after it, outside
    /// every size: `MDX_VERSIONS.md` §8.3)
    #[format(if = version < 1300, after_chunk)]
    Lights(LightChunk),
    /// `HELP`
    #[format(if = version < 1300)]
    Helpers(HelperChunk),
    /// `ATCH`
    #[format(if = version < 1300)]
    Attachments(AttachmentChunk),
    /// `PIVT`
    PivotPoints(PivotPointChunk),
    /// `PREM`
    #[format(if = version < 1300)]
    ParticleEmitters(ParticleEmitterChunk),
    /// `PRE2`
    #[format(if = version < 1300)]
    ParticleEmitters2(ParticleEmitter2Chunk),
    /// `RIBB`
    #[format(if = version < 1300)]
    RibbonEmitters(RibbonEmitterChunk),
    /// `CORN` (version > 800)
    #[format(if = version > 800)]
    CornEmitters(CornEmitterChunk),
    /// `CAMS`
    #[format(if = version < 1300)]
    Cameras(CameraChunk),
    /// `EVTS`
    #[format(if = version < 1300)]
    EventObjects(EventObjectChunk),
    /// `CLID`
    #[format(if = version < 1300)]
    CollisionShapes(CollisionShapeChunk),
    /// `FAFX` (version > 800)
    #[format(if = version > 800 && version < 1300)]
    FaceEffects(FaceEffectChunk),
    /// `BPOS` (version > 800)
    #[format(if = version > 800 && version < 1300)]
    BindPoses(BindPoseChunk),
    /// `MODL` (alpha, version ≥ 1300)
    #[format(if = version >= 1300)]
    AlphaModel(alpha::ModelChunk),
    /// `SEQS` (alpha)
    #[format(if = version >= 1300)]
    AlphaSequences(alpha::SequenceChunk),
    /// `MTLS` (alpha)
    #[format(if = version >= 1300)]
    AlphaMaterials(alpha::MaterialChunk),
    /// `TXAN` (alpha)
    #[format(if = version >= 1300)]
    AlphaTextureAnimations(alpha::TexAnimChunk),
    /// `GEOS` (alpha, versions 1300 and 1400)
    #[format(if = version >= 1300 && version < 1500)]
    AlphaGeosets(alpha::GeosetChunk),
    /// `GEOS` (alpha, version ≥ 1500: headers, then batches)
    #[format(if = version >= 1500)]
    AlphaBatchedGeosets(alpha::BatchedGeosetChunk),
    /// `GEOA` (alpha)
    #[format(if = version >= 1300)]
    AlphaGeosetAnimations(alpha::GeosetAnimChunk),
    /// `BONE` (alpha)
    #[format(if = version >= 1300)]
    AlphaBones(alpha::BoneChunk),
    /// `LITE` (alpha)
    #[format(if = version >= 1300)]
    AlphaLights(alpha::LightChunk),
    /// `HELP` (alpha)
    #[format(if = version >= 1300)]
    AlphaHelpers(alpha::HelperChunk),
    /// `ATCH` (alpha)
    #[format(if = version >= 1300)]
    AlphaAttachments(alpha::AttachmentChunk),
    /// `PREM` (alpha)
    #[format(if = version >= 1300)]
    AlphaParticleEmitters(alpha::ParticleEmitterChunk),
    /// `PRE2` (alpha)
    #[format(if = version >= 1300)]
    AlphaParticleEmitters2(alpha::ParticleEmitter2Chunk),
    /// `RIBB` (alpha)
    #[format(if = version >= 1300)]
    AlphaRibbonEmitters(alpha::RibbonEmitterChunk),
    /// `CAMS` (alpha)
    #[format(if = version >= 1300)]
    AlphaCameras(alpha::CameraChunk),
    /// `EVTS` (alpha)
    #[format(if = version >= 1300)]
    AlphaEvents(alpha::EventChunk),
    /// `HTST` (alpha: hit-test shapes)
    #[format(if = version >= 1300)]
    AlphaHitTestShapes(alpha::HitTestShapeChunk),
    /// `CLID` (alpha: one collision mesh)
    #[format(if = version >= 1300)]
    AlphaCollision(alpha::CollisionChunk),
    /// The last chunk of a file that ends inside it, kept as its bytes: only
    /// a lenient read makes one (see [`Model::from_bytes_lenient`]), and
    /// writing gives the cut bytes back.
    ///
    /// [`Model::from_bytes_lenient`]: super::Model::from_bytes_lenient
    #[format(cut)]
    Cut(CutChunk),
    /// A known chunk whose size fits the file but whose content does not
    /// decode, kept as its bytes in its place: only a lenient read makes one
    /// (see [`Model::from_bytes_lenient`]), and writing gives its bytes back.
    /// The model lacks what the chunk holds (its `CLID` shapes, say): the
    /// accessors see no such chunk. The MDL reader in lenient mode makes one
    /// from an `ExtChunk` that does not decode.
    ///
    /// ```
    /// use formats::mdx::{Chunk, Model};
    ///
    /// let mut data = formats::sample::sample_mdx();
    /// // The sample's last chunk is PIVT, one point (12 bytes): declare 11.
    /// let size_at = data.len() - 16;
    /// data[size_at] = 11;
    /// data.pop();
    /// let strict = Model::from_bytes(&data).unwrap_err();
    /// let (model, diagnostics) = Model::from_bytes_lenient(&data)?;
    /// let Some(Chunk::Undecoded(kept)) = model.chunks.last() else { panic!() };
    /// assert_eq!((kept.tag.to_string(), kept.bytes.len()), ("PIVT".to_string(), 11));
    /// assert_eq!(kept.error, strict.to_string()); // why, as the strict reader said
    /// assert_eq!(diagnostics[0].offset, strict.offset());
    /// assert_eq!(model.to_bytes()?, data); // written back as read
    /// # Ok::<(), formats::Error>(())
    /// ```
    ///
    /// [`Model::from_bytes_lenient`]: super::Model::from_bytes_lenient
    #[format(undecoded)]
    Undecoded(UndecodedChunk),
    /// Any other chunk, kept verbatim at its position.
    #[format(unknown)]
    Unknown(UnknownChunk),
}
