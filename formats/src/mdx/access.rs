//! Typed access to each chunk's objects (`model.geosets()`,
//! `model.geosets_mut()`, ...), and where a chunk added by an edit goes.

use super::alpha;
use super::camera::{Camera, CameraChunk};
use super::chunk::Chunk;
use super::emitter::{
    CornEmitter, CornEmitterChunk, ParticleEmitter, ParticleEmitter2, ParticleEmitter2Chunk,
    ParticleEmitterChunk, RibbonEmitter, RibbonEmitterChunk,
};
use super::geoset::{Geoset, GeosetAnimation, GeosetAnimationChunk, GeosetChunk};
use super::light::{Light, LightChunk};
use super::material::{Material, MaterialChunk};
use super::model::Model;
use super::objects::{
    Attachment, AttachmentChunk, Bone, BoneChunk, CollisionShape, CollisionShapeChunk, EventObject,
    EventObjectChunk, Helper, HelperChunk, PivotPointChunk,
};
use super::reforged::{BindPoseChunk, FaceEffect, FaceEffectChunk};
use super::sequence::{GlobalSequenceChunk, Sequence, SequenceChunk};
use super::texture::{
    SoundTrack, SoundTrackChunk, Texture, TextureAnimation, TextureAnimationChunk, TextureChunk,
};

impl Model {
    /// Where a new chunk of `rank` goes: after the last typed chunk that
    /// comes before it in the order Blizzard's files use.
    fn insert_position(&self, rank: u8) -> usize {
        self.chunks
            .iter()
            .rposition(|c| c.rank().is_some_and(|r| r < rank))
            .map_or(0, |i| i + 1)
    }
}

/// Typed access to each chunk's objects: `model.geosets()` reads (empty when
/// the file has no `GEOS`), `model.geosets_mut()` edits (adding the chunk at
/// its usual place when missing). With several chunks of one kind (no known
/// file has that) both use the first.
macro_rules! accessors {
    ($( $rank:literal $variant:ident($chunk:ty) . $field:ident : $item:ty => $get:ident, $get_mut:ident; )*) => {
        impl Chunk {
            /// The position of this kind of chunk in Blizzard's order; `None` for
            /// `VERS`, `MODL`, unknown chunks and chunks kept as bytes.
            fn rank(&self) -> Option<u8> {
                match self {
                    Chunk::Version(_) => Some(0),
                    Chunk::Model(_) | Chunk::AlphaModel(_) => Some(1),
                    Chunk::AlphaCollision(_) => Some(21),
                    $( Chunk::$variant(_) => Some($rank), )*
                    Chunk::Unknown(_) | Chunk::Cut(_) | Chunk::Undecoded(_) => None,
                }
            }
        }

        impl Model {
            $(
                #[doc = concat!("The `", stringify!($field), "` of the first `", stringify!($variant), "` chunk (empty if none).")]
                #[doc = ""]
                #[doc = "Models of versions 800 to 1200 and WoW alpha models (1300 to 1500: the `alpha_` accessors) keep their objects in different chunks, so one of the two is empty for any model (`formats::anim` reads both)."]
                pub fn $get(&self) -> &[$item] {
                    self.chunks
                        .iter()
                        .find_map(|chunk| match chunk {
                            Chunk::$variant(c) => Some(c.$field.as_slice()),
                            _ => None,
                        })
                        .unwrap_or(&[])
                }

                #[doc = concat!("The `", stringify!($field), "` of the first `", stringify!($variant), "` chunk, to edit; the chunk is added if missing.")]
                pub fn $get_mut(&mut self) -> &mut Vec<$item> {
                    let index = match self.chunks.iter().position(|c| matches!(c, Chunk::$variant(_))) {
                        Some(index) => index,
                        None => {
                            let at = self.insert_position($rank);
                            self.chunks.insert(at, Chunk::$variant(<$chunk>::default()));
                            at
                        }
                    };
                    match self.chunks.get_mut(index) {
                        Some(Chunk::$variant(c)) => &mut c.$field,
                        // The chunk at `index` was just found or inserted.
                        _ => unreachable!("chunk {index} is a {}", stringify!($variant)),
                    }
                }
            )*
        }
    };
}

accessors! {
    2 Sequences(SequenceChunk).sequences: Sequence => sequences, sequences_mut;
    3 GlobalSequences(GlobalSequenceChunk).global_sequences: u32 => global_sequences, global_sequences_mut;
    4 Materials(MaterialChunk).materials: Material => materials, materials_mut;
    5 Textures(TextureChunk).textures: Texture => textures, textures_mut;
    6 SoundTracks(SoundTrackChunk).sound_tracks: SoundTrack => sound_tracks, sound_tracks_mut;
    7 TextureAnimations(TextureAnimationChunk).animations: TextureAnimation => texture_animations, texture_animations_mut;
    8 Geosets(GeosetChunk).geosets: Geoset => geosets, geosets_mut;
    9 GeosetAnimations(GeosetAnimationChunk).animations: GeosetAnimation => geoset_animations, geoset_animations_mut;
    10 Bones(BoneChunk).bones: Bone => bones, bones_mut;
    11 Lights(LightChunk).lights: Light => lights, lights_mut;
    12 Helpers(HelperChunk).helpers: Helper => helpers, helpers_mut;
    13 Attachments(AttachmentChunk).attachments: Attachment => attachments, attachments_mut;
    14 PivotPoints(PivotPointChunk).points: [f32; 3] => pivot_points, pivot_points_mut;
    15 ParticleEmitters(ParticleEmitterChunk).emitters: ParticleEmitter => particle_emitters, particle_emitters_mut;
    16 ParticleEmitters2(ParticleEmitter2Chunk).emitters: ParticleEmitter2 => particle_emitters2, particle_emitters2_mut;
    17 RibbonEmitters(RibbonEmitterChunk).emitters: RibbonEmitter => ribbon_emitters, ribbon_emitters_mut;
    18 CornEmitters(CornEmitterChunk).emitters: CornEmitter => corn_emitters, corn_emitters_mut;
    19 Cameras(CameraChunk).cameras: Camera => cameras, cameras_mut;
    20 EventObjects(EventObjectChunk).objects: EventObject => event_objects, event_objects_mut;
    21 CollisionShapes(CollisionShapeChunk).shapes: CollisionShape => collision_shapes, collision_shapes_mut;
    22 FaceEffects(FaceEffectChunk).face_effects: FaceEffect => face_effects, face_effects_mut;
    23 BindPoses(BindPoseChunk).bind_pose: [f32; 12] => bind_poses, bind_poses_mut;
    2 AlphaSequences(alpha::SequenceChunk).sequences: alpha::Sequence => alpha_sequences, alpha_sequences_mut;
    4 AlphaMaterials(alpha::MaterialChunk).materials: alpha::Material => alpha_materials, alpha_materials_mut;
    7 AlphaTextureAnimations(alpha::TexAnimChunk).texture_anims: alpha::TexAnim => alpha_texture_animations, alpha_texture_animations_mut;
    8 AlphaGeosets(alpha::GeosetChunk).geosets: alpha::Geoset => alpha_geosets, alpha_geosets_mut;
    8 AlphaBatchedGeosets(alpha::BatchedGeosetChunk).geosets: alpha::GeosetSection => alpha_batched_geosets, alpha_batched_geosets_mut;
    9 AlphaGeosetAnimations(alpha::GeosetAnimChunk).geoset_anims: alpha::GeosetAnim => alpha_geoset_animations, alpha_geoset_animations_mut;
    10 AlphaBones(alpha::BoneChunk).bones: alpha::Bone => alpha_bones, alpha_bones_mut;
    11 AlphaLights(alpha::LightChunk).lights: alpha::Light => alpha_lights, alpha_lights_mut;
    12 AlphaHelpers(alpha::HelperChunk).helpers: alpha::GenObject => alpha_helpers, alpha_helpers_mut;
    13 AlphaAttachments(alpha::AttachmentChunk).attachments: alpha::Attachment => alpha_attachments, alpha_attachments_mut;
    15 AlphaParticleEmitters(alpha::ParticleEmitterChunk).emitters: alpha::ParticleEmitter => alpha_particle_emitters, alpha_particle_emitters_mut;
    16 AlphaParticleEmitters2(alpha::ParticleEmitter2Chunk).emitters: alpha::ParticleEmitter2 => alpha_particle_emitters2, alpha_particle_emitters2_mut;
    17 AlphaRibbonEmitters(alpha::RibbonEmitterChunk).emitters: alpha::RibbonEmitter => alpha_ribbon_emitters, alpha_ribbon_emitters_mut;
    19 AlphaCameras(alpha::CameraChunk).cameras: alpha::Camera => alpha_cameras, alpha_cameras_mut;
    20 AlphaEvents(alpha::EventChunk).events: alpha::Event => alpha_events, alpha_events_mut;
    21 AlphaHitTestShapes(alpha::HitTestShapeChunk).hit_test_shapes: alpha::HitTestShape => alpha_hit_test_shapes, alpha_hit_test_shapes_mut;
}
