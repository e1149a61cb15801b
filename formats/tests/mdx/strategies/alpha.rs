//! Strategies for the WoW alpha chunks (`formats::mdx::alpha`, versions 1300,
//! 1400 and 1500). Rules of the format they follow, besides those of the
//! parent module:
//!
//! - a flipbook track (`KMTF`, `KRTX`) is read in the form whose end lands on
//!   a known tag or the object's end, so in the key form its interpolation is
//!   0 to 3 (a word above 3 rules the key form out) and no unknown track
//!   follows it (an unknown tag hides where it ends);
//! - a hit-test shape carries exactly the payload of its type;
//! - a v1500 geoset header's vertex count is its batch's, and a batch's
//!   padding is `(8 - n % 8) % 8` entries for `n` indices;
//! - a v1300/1400 geoset has `uv_set_count * vertices` coordinates;
//! - an unknown chunk never has an alpha chunk's tag (`HTST`).

use format_core::{Derived, FourCC, UnknownTail};
use formats::mdx::alpha::*;
use formats::mdx::{Chunk, CornEmitterChunk, Model, PivotPointChunk, TextureChunk, VersionChunk};
use proptest::collection::vec;
use proptest::prelude::*;

use super::{
    corn_emitter, extent, fixed_str, float, texture, track, tracks_with_tail, u32_value,
    unknown_chunk, unknown_tail, vec2, vec3,
};

/// The alpha versions.
pub const ALPHA_VERSIONS: [u32; 3] = [1300, 1400, 1500];

/// Any packed quaternion: every 64-bit value decodes (and is kept raw).
pub fn compressed_quaternion() -> impl Strategy<Value = CompressedQuaternion> {
    any::<u64>().prop_map(|m_data| CompressedQuaternion { m_data })
}

pub fn gen_object_track() -> impl Strategy<Value = GenObjectTrack> {
    prop_oneof![
        track(vec3).prop_map(GenObjectTrack::Translation),
        track(compressed_quaternion).prop_map(GenObjectTrack::Rotation),
        track(vec3).prop_map(GenObjectTrack::Scaling),
    ]
}

prop_compose! {
    pub fn gen_object()(
        name in fixed_str(),
        object_id in any::<u32>(),
        parent_id in prop_oneof![Just(u32::MAX), any::<u32>()],
        flags in any::<u32>(),
        tracks in tracks_with_tail(gen_object_track(), GenObjectTrack::Unknown),
    ) -> GenObject {
        GenObject { name, object_id, parent_id, flags, tracks }
    }
}

/// A flipbook track in either form (see the module's rules).
pub fn flip_track() -> BoxedStrategy<FlipTrack> {
    let simple = (
        prop_oneof![Just(-1i32), 0..8i32],
        vec(any::<[u32; 2]>(), 0..4),
    )
        .prop_map(|(global_seq_id, keys)| {
            let keys = keys.into_iter().map(|[time, value]| IntKey { time, value });
            FlipTrack::Simple(SimpleTrack {
                global_seq_id,
                ..SimpleTrack::new(keys.collect())
            })
        });
    let key = track(u32_value)
        .prop_filter("interpolation 0 to 3", |t| t.interpolation().is_some())
        .prop_map(FlipTrack::Key);
    prop_oneof![simple, key].boxed()
}

/// Known tracks, then an unknown one only if the last is not a flipbook.
fn tracks_ending_safely<T: core::fmt::Debug + 'static>(
    known: impl Strategy<Value = T> + 'static,
    unknown: fn(UnknownTail) -> T,
    is_flip: fn(&T) -> bool,
) -> BoxedStrategy<Vec<T>> {
    (
        vec(known, 0..3),
        proptest::option::weighted(0.15, unknown_tail()),
    )
        .prop_map(move |(mut tracks, tail)| {
            if !tracks.last().is_some_and(is_flip) {
                tracks.extend(tail.map(unknown));
            }
            tracks
        })
        .boxed()
}

trait KnownInterpolation {
    fn interpolation(&self) -> Option<u32>;
}

impl<T> KnownInterpolation for formats::mdx::Track<T> {
    fn interpolation(&self) -> Option<u32> {
        use formats::mdx::Interpolation::*;
        match self.interpolation_type {
            None => Some(0),
            Linear => Some(1),
            Hermite => Some(2),
            Bezier => Some(3),
            Other(_) => Option::None,
        }
    }
}

// ---------------------------------------------------------------- header, materials

prop_compose! {
    pub fn alpha_model_chunk()(
        name in fixed_str(),
        animation_file in fixed_str(),
        bounds in extent(),
        blend_time in any::<u32>(),
        flags in any::<u8>(),
    ) -> ModelChunk {
        ModelChunk { name, animation_file, bounds, blend_time, flags }
    }
}

prop_compose! {
    pub fn alpha_sequence()(
        name in fixed_str(),
        time in any::<[u32; 2]>(),
        move_speed in float(),
        flags in any::<u32>(),
        bounds in extent(),
        frequency in float(),
        replay in any::<[u32; 2]>(),
        blend_time in any::<u32>(),
    ) -> Sequence {
        Sequence { name, time, move_speed, flags, bounds, frequency, replay, blend_time }
    }
}

pub fn tex_layer_track() -> impl Strategy<Value = TexLayerTrack> {
    prop_oneof![
        track(float).prop_map(TexLayerTrack::Alpha),
        flip_track().prop_map(TexLayerTrack::Flip),
    ]
}

prop_compose! {
    pub fn tex_layer()(
        ids in any::<[u32; 4]>(),
        coord_id in any::<i32>(),
        static_alpha in float(),
        tracks in tracks_ending_safely(tex_layer_track(), TexLayerTrack::Unknown, |t| {
            matches!(t, TexLayerTrack::Flip(_))
        }),
    ) -> TexLayer {
        let [blend_mode, flags, texture_id, transform_id] = ids;
        TexLayer { blend_mode, flags, texture_id, transform_id, coord_id, static_alpha, tracks }
    }
}

prop_compose! {
    pub fn alpha_material()(
        priority_plane in any::<i32>(),
        tex_layers in vec(tex_layer(), 0..3),
    ) -> Material {
        Material { priority_plane, tex_layers }
    }
}

pub fn tex_anim_track() -> impl Strategy<Value = TexAnimTrack> {
    prop_oneof![
        track(vec3).prop_map(TexAnimTrack::Translation),
        track(compressed_quaternion).prop_map(TexAnimTrack::Rotation),
        track(vec3).prop_map(TexAnimTrack::Scaling),
    ]
}

// ---------------------------------------------------------------- geometry

prop_compose! {
    pub fn alpha_geoset()(n in 0..5usize, uv_set_count in 0..3u32)(
        vertices in vec(proptest::array::uniform3(float()), n),
        normals in vec(proptest::array::uniform3(float()), 0..5),
        tex_coords in vec(vec2(), uv_set_count as usize * n),
        uv_set_count in Just(uv_set_count),
        primitive_types in vec(any::<u8>(), 0..3),
        primitive_counts in vec(any::<u32>(), 0..3),
        primitive_vertices in vec(any::<u16>(), 0..7),
        vert_group_indices in vec(any::<u8>(), 0..5),
        group_matrix_counts in vec(any::<u32>(), 0..3),
        matrices in vec(any::<u32>(), 0..3),
        bone_indices in vec(any::<u32>(), 0..5),
        bone_weights in vec(any::<u32>(), 0..5),
        ids in any::<[u32; 3]>(),
        bounds in extent(),
        seq_bounds in vec(extent(), 0..3),
    ) -> Geoset {
        let [material_id, selection_group, flags] = ids;
        Geoset {
            vertices, normals, uv_set_count, tex_coords, primitive_types, primitive_counts,
            primitive_vertices, vert_group_indices, group_matrix_counts, matrices,
            bone_indices, bone_weights, material_id, selection_group, flags, bounds, seq_bounds,
        }
    }
}

prop_compose! {
    pub fn vertex()(
        position in vec3(),
        bone_weights in any::<[u8; 4]>(),
        bone_indices in any::<[u8; 4]>(),
        normal in vec3(),
        tex_coords in [vec2(), vec2()],
    ) -> Vertex {
        Vertex { position, bone_weights, bone_indices, normal, tex_coords }
    }
}

fn tag() -> impl Strategy<Value = FourCC> {
    prop_oneof![
        Just(FourCC::of("PVTX")),
        Just(FourCC::of("PTYP")),
        any::<[u8; 4]>().prop_map(FourCC::new)
    ]
}

prop_compose! {
    /// One v1500 geoset: its header and its batch, consistent.
    pub fn batched_geoset()(
        vertices in vec(vertex(), 0..4),
        primitive_vertices in vec(any::<u16>(), 0..12),
        words in any::<[u32; 6]>(),
        bounds_centre in vec3(),
        bounds_radius in float(),
        tags in [tag(), tag(), tag()],
        unused in prop_oneof![Just(0u64), any::<u64>()],
        batch_words in any::<[u16; 3]>(),
        padding_value in prop_oneof![Just(0u16), any::<u16>()],
    ) -> (GeosetSection, Batch) {
        let [material_id, selection_group, geoset_index, flags, primitive_types_count, primitive_type] = words;
        let header = GeosetSection {
            material_id,
            bounds_centre,
            bounds_radius,
            selection_group,
            geoset_index,
            flags,
            vertex_tag: tags[0],
            vertex_count: vertices.len() as u32,
            prim_type_tag: tags[1],
            primitive_types_count,
            prim_vertex_tag: tags[2],
            primitive_vertices_count: primitive_vertices.len() as u32,
            unused,
        };
        let padding = vec![padding_value; batch::padding_len(primitive_vertices.len())];
        let batch = Batch {
            vertices,
            primitive_type,
            unknown: 0,
            num_prim_vertices: Derived::default(),
            min_vertex: batch_words[0],
            max_vertex: batch_words[1],
            unused: batch_words[2],
            primitive_vertices,
            padding,
        };
        (header, batch)
    }
}

pub fn geoset_anim_track() -> impl Strategy<Value = GeosetAnimTrack> {
    prop_oneof![
        track(float).prop_map(GeosetAnimTrack::Alpha),
        track(vec3).prop_map(GeosetAnimTrack::Color),
    ]
}

prop_compose! {
    pub fn geoset_anim()(
        geoset_id in any::<u32>(),
        static_alpha in float(),
        static_color in vec3(),
        flags in any::<u32>(),
        tracks in tracks_with_tail(geoset_anim_track(), GeosetAnimTrack::Unknown),
    ) -> GeosetAnim {
        GeosetAnim { geoset_id, static_alpha, static_color, flags, tracks }
    }
}

// ---------------------------------------------------------------- nodes

pub fn visibility_track() -> impl Strategy<Value = VisibilityTrack> {
    track(float).prop_map(VisibilityTrack::Visibility)
}

prop_compose! {
    pub fn alpha_bone()(object in gen_object(), ids in any::<[u32; 2]>()) -> Bone {
        Bone { object, geoset_id: ids[0], geoset_anim_id: ids[1] }
    }
}

prop_compose! {
    pub fn alpha_attachment()(
        object in gen_object(),
        attachment_id in any::<u32>(),
        padding in prop_oneof![Just(0xFFu8), any::<u8>()],
        path in fixed_str(),
        tracks in tracks_with_tail(visibility_track(), VisibilityTrack::Unknown),
    ) -> Attachment {
        Attachment { object, attachment_id, padding, path, tracks }
    }
}

prop_compose! {
    pub fn alpha_event()(
        object in gen_object(),
        keys in proptest::option::of((prop_oneof![Just(-1i32), 0..4i32], vec(any::<i32>(), 0..4))),
    ) -> Event {
        let event_keys = keys.map(|(global_seq_id, keys)| SimpleTrack { global_seq_id, ..SimpleTrack::new(keys) });
        Event { object, event_keys }
    }
}

prop_compose! {
    pub fn hit_test_shape()(
        object in gen_object(),
        shape in 0..4u8,
        a in vec3(),
        b in vec3(),
        c in [float(), float()],
    ) -> HitTestShape {
        let mut s = HitTestShape { object, ..Default::default() };
        match shape {
            0 => s.box_ = Some(MdlBox { minimum: a, maximum: b }),
            1 => {
                s.shape_type = GeomShape::Cylinder;
                s.cylinder = Some(MdlCylinder { base: a, height: c[0], radius: c[1] });
            }
            2 => {
                s.shape_type = GeomShape::Sphere;
                s.sphere = Some(MdlSphere { center: a, radius: c[0] });
            }
            _ => {
                s.shape_type = GeomShape::Plane;
                s.plane = Some(MdlPlane { length: c[0], width: c[1] });
            }
        }
        s
    }
}

pub fn alpha_light_track() -> impl Strategy<Value = LightTrack> {
    prop_oneof![
        track(float).prop_map(LightTrack::AttenuationStart),
        track(vec3).prop_map(LightTrack::Color),
        track(float).prop_map(LightTrack::Visibility),
    ]
}

prop_compose! {
    pub fn alpha_light()(
        object in gen_object(),
        light_type in super::light_type(),
        floats in proptest::array::uniform4(float()),
        static_color in vec3(),
        static_amb_color in vec3(),
        tracks in tracks_with_tail(alpha_light_track(), LightTrack::Unknown),
    ) -> Light {
        let [static_atten_start, static_atten_end, static_intensity, static_amb_intensity] = floats;
        Light {
            object, light_type, static_atten_start, static_atten_end, static_color,
            static_intensity, static_amb_color, static_amb_intensity, tracks,
        }
    }
}

pub fn alpha_camera_track() -> impl Strategy<Value = CameraTrack> {
    prop_oneof![
        track(vec3).prop_map(CameraTrack::Translation),
        track(float).prop_map(CameraTrack::Roll),
        track(float).prop_map(CameraTrack::Visibility),
        track(vec3).prop_map(CameraTrack::TargetTranslation),
    ]
}

prop_compose! {
    pub fn alpha_camera()(
        name in fixed_str(),
        pivot in vec3(),
        clip in proptest::array::uniform3(float()),
        target_pivot in vec3(),
        tracks in tracks_with_tail(alpha_camera_track(), CameraTrack::Unknown),
    ) -> Camera {
        let [field_of_view, far_clip, near_clip] = clip;
        Camera { name, pivot, field_of_view, far_clip, near_clip, target_pivot, tracks }
    }
}

prop_compose! {
    pub fn alpha_particle_emitter()(
        object in gen_object(),
        floats in proptest::array::uniform6(float()),
        path in fixed_str(),
        tracks in tracks_with_tail(
            track(float).prop_map(ParticleEmitterTrack::Visibility),
            ParticleEmitterTrack::Unknown,
        ),
    ) -> ParticleEmitter {
        let [static_emission_rate, static_gravity, static_longitude, static_latitude, static_life, static_speed] = floats;
        ParticleEmitter {
            object, static_emission_rate, static_gravity, static_longitude, static_latitude,
            path, static_life, static_speed, tracks,
        }
    }
}

prop_compose! {
    pub fn alpha_particle_emitter2()(
        object in gen_object(),
        words in any::<[u32; 6]>(),
        floats in proptest::array::uniform16(float()),
        alphas in any::<[u8; 3]>(),
        uv in any::<[[u32; 3]; 4]>(),
        models in (fixed_str(), fixed_str()),
        tumble in proptest::array::uniform6(float()),
        wind_vector in vec3(),
        spline in vec(vec3(), 0..3),
        squirts in any::<u32>(),
        tracks in tracks_with_tail(
            prop_oneof![
                track(float).prop_map(ParticleEmitter2Track::Visibility),
                track(float).prop_map(ParticleEmitter2Track::ZSource),
            ],
            ParticleEmitter2Track::Unknown,
        ),
    ) -> ParticleEmitter2 {
        let f = floats;
        ParticleEmitter2 {
            object,
            emitter_size: words[0],
            emitter_type: words[1],
            static_speed: f[0], static_variation: f[1], static_latitude: f[2],
            static_longitude: f[3], static_gravity: f[4], static_zsource: f[5],
            static_life: f[6], static_emission_rate: f[7], static_length: f[8],
            static_width: f[9],
            rows: words[2], cols: words[3], particle_type: words[4],
            tail_length: f[10], middle_time: f[11],
            start_color: [f[12], f[13], f[14]], middle_color: [f[15], f[0], f[1]],
            end_color: [f[2], f[3], f[4]],
            start_alpha: alphas[0], middle_alpha: alphas[1], end_alpha: alphas[2],
            start_scale: f[5], middle_scale: f[6], end_scale: f[7],
            lifespan_uv_anim: uv[0], decay_uv_anim: uv[1], tail_uv_anim: uv[2],
            tail_decay_uv_anim: uv[3],
            blend_mode: words[5], texture_id: words[0], priority_plane: words[1] as i32,
            replaceable_id: words[2],
            geometry_mdl: models.0, recursion_mdl: models.1,
            twinkle_fps: f[8], twinkle_on_off: f[9], twinkle_scale_min: f[10],
            twinkle_scale_max: f[11], ivel_scale: f[12], tumble, drag: f[13], spin: f[14],
            wind_vector, wind_time: f[15], follow_speed1: f[0], follow_scale1: f[1],
            follow_speed2: f[2], follow_scale2: f[3], spline, squirts, tracks,
        }
    }
}

pub fn alpha_ribbon_emitter_track() -> impl Strategy<Value = RibbonEmitterTrack> {
    prop_oneof![
        track(float).prop_map(RibbonEmitterTrack::HeightAbove),
        track(vec3).prop_map(RibbonEmitterTrack::Color),
        flip_track().prop_map(RibbonEmitterTrack::TextureSlot),
        track(float).prop_map(RibbonEmitterTrack::Visibility),
    ]
}

prop_compose! {
    pub fn alpha_ribbon_emitter()(
        object in gen_object(),
        floats in proptest::array::uniform6(float()),
        static_color in vec3(),
        words in any::<[u32; 6]>(),
        tracks in tracks_ending_safely(
            alpha_ribbon_emitter_track(),
            RibbonEmitterTrack::Unknown,
            |t| matches!(t, RibbonEmitterTrack::TextureSlot(_)),
        ),
    ) -> RibbonEmitter {
        let [static_height_above, static_height_below, static_alpha, edge_lifetime, gravity, _] = floats;
        RibbonEmitter {
            object, emitter_size: words[0], static_height_above, static_height_below,
            static_alpha, static_color, edge_lifetime, static_texture_slot: words[1],
            edges_per_second: words[2], texture_rows: words[3], texture_cols: words[4],
            material_id: words[5], gravity, tracks,
        }
    }
}

// ---------------------------------------------------------------- chunks and models

/// Any chunk but `VERS` of the alpha `version`.
pub fn alpha_chunk(version: u32) -> BoxedStrategy<Chunk> {
    let geosets = if version >= BATCHED_GEOSETS_VERSION {
        vec(batched_geoset(), 0..3)
            .prop_map(|pairs| {
                let (geosets, batches) = pairs.into_iter().unzip();
                Chunk::AlphaBatchedGeosets(BatchedGeosetChunk {
                    num_geosets: Derived::default(),
                    geosets,
                    batches,
                })
            })
            .boxed()
    } else {
        vec(alpha_geoset(), 0..3)
            .prop_map(|geosets| Chunk::AlphaGeosets(GeosetChunk { geosets }))
            .boxed()
    };
    prop_oneof![
        alpha_model_chunk().prop_map(Chunk::AlphaModel),
        vec(alpha_sequence(), 0..3)
            .prop_map(|sequences| Chunk::AlphaSequences(SequenceChunk { sequences })),
        (any::<u32>(), vec(alpha_material(), 0..3)).prop_map(|(unused, materials)| {
            Chunk::AlphaMaterials(MaterialChunk {
                num_materials: Derived::default(),
                unused,
                materials,
            })
        }),
        vec(texture(), 0..3).prop_map(|textures| Chunk::Textures(TextureChunk { textures })),
        vec(
            tracks_with_tail(tex_anim_track(), TexAnimTrack::Unknown),
            0..3
        )
        .prop_map(|anims| {
            let texture_anims = anims.into_iter().map(|tracks| TexAnim { tracks }).collect();
            Chunk::AlphaTextureAnimations(TexAnimChunk { texture_anims })
        }),
        geosets,
        vec(geoset_anim(), 0..3).prop_map(|geoset_anims| Chunk::AlphaGeosetAnimations(
            GeosetAnimChunk { geoset_anims }
        )),
        vec(alpha_bone(), 0..3).prop_map(|bones| Chunk::AlphaBones(BoneChunk { bones })),
        vec(alpha_light(), 0..3).prop_map(|lights| Chunk::AlphaLights(LightChunk { lights })),
        vec(gen_object(), 0..3).prop_map(|helpers| Chunk::AlphaHelpers(HelperChunk { helpers })),
        (any::<u32>(), vec(alpha_attachment(), 0..3)).prop_map(|(unused, attachments)| {
            Chunk::AlphaAttachments(AttachmentChunk {
                num_attachments: Derived::default(),
                unused,
                attachments,
            })
        }),
        vec(vec3(), 0..4).prop_map(|points| Chunk::PivotPoints(PivotPointChunk { points })),
        vec(alpha_particle_emitter(), 0..3)
            .prop_map(|emitters| Chunk::AlphaParticleEmitters(ParticleEmitterChunk { emitters })),
        vec(alpha_particle_emitter2(), 0..2)
            .prop_map(|emitters| Chunk::AlphaParticleEmitters2(ParticleEmitter2Chunk { emitters })),
        vec(alpha_ribbon_emitter(), 0..3)
            .prop_map(|emitters| Chunk::AlphaRibbonEmitters(RibbonEmitterChunk { emitters })),
        vec(alpha_camera(), 0..3).prop_map(|cameras| Chunk::AlphaCameras(CameraChunk { cameras })),
        vec(alpha_event(), 0..3).prop_map(|events| Chunk::AlphaEvents(EventChunk { events })),
        vec(hit_test_shape(), 0..3).prop_map(|hit_test_shapes| Chunk::AlphaHitTestShapes(
            HitTestShapeChunk { hit_test_shapes }
        )),
        (
            vec(vec3(), 0..4),
            vec(any::<u16>(), 0..6),
            vec(vec3(), 0..3)
        )
            .prop_map(|(vertices, tri_indices, facet_normals)| {
                Chunk::AlphaCollision(CollisionChunk {
                    vertices,
                    tri_indices,
                    facet_normals,
                })
            }),
        vec(corn_emitter(), 0..2)
            .prop_map(|emitters| Chunk::CornEmitters(CornEmitterChunk { emitters })),
        unknown_chunk()
            .prop_filter("not an alpha chunk", |c| c.tag != FourCC::of("HTST"))
            .prop_map(Chunk::Unknown),
    ]
    .boxed()
}

prop_compose! {
    /// An alpha model of `version`: `VERS` first, then up to 7 chunks in any order.
    pub fn alpha_model(version: u32)(rest in vec(alpha_chunk(version), 0..8)) -> Model {
        let mut chunks = vec![Chunk::Version(VersionChunk { version })];
        chunks.extend(rest);
        Model { chunks }
    }
}
