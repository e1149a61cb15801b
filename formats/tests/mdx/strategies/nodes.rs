//! Strategies for the node-based objects (bones, lights, emitters, cameras,
//! events, collision shapes) and the Reforged chunks.

use format_core::Derived;
use formats::mdx::*;
use proptest::collection::vec;
use proptest::prelude::*;

use super::{fixed_str, float, matrix, track, tracks_with_tail, u32_value, usually, vec3, vec4};

// ---------------------------------------------------------------- nodes

pub fn node_track() -> impl Strategy<Value = NodeTrack> {
    prop_oneof![
        track(vec3).prop_map(NodeTrack::Translation),
        track(vec4).prop_map(NodeTrack::Rotation),
        track(vec3).prop_map(NodeTrack::Scaling),
    ]
}

prop_compose! {
    pub fn node()(
        name in fixed_str(),
        object_id in any::<u32>(),
        parent_id in prop_oneof![Just(u32::MAX), any::<u32>()],
        flags in any::<u32>(),
        tracks in tracks_with_tail(node_track(), NodeTrack::Unknown),
    ) -> Node {
        Node { name, object_id, parent_id, flags, tracks }
    }
}

prop_compose! {
    pub fn bone()(node in node().boxed(), ids in any::<[u32; 2]>()) -> Bone {
        Bone { node, geoset_id: ids[0], geoset_animation_id: ids[1] }
    }
}

prop_compose! {
    pub fn helper()(node in node()) -> Helper {
        Helper { node }
    }
}

pub fn attachment_track() -> impl Strategy<Value = AttachmentTrack> {
    track(float).prop_map(AttachmentTrack::Visibility)
}

prop_compose! {
    pub fn attachment()(
        node in node().boxed(),
        path in fixed_str(),
        attachment_id in any::<u32>(),
        tracks in tracks_with_tail(attachment_track(), AttachmentTrack::Unknown),
    ) -> Attachment {
        Attachment { node, path, attachment_id, tracks }
    }
}

// ---------------------------------------------------------------- lights

/// 0-2, or a number no variant names.
pub fn light_type() -> impl Strategy<Value = LightType> {
    prop_oneof![
        Just(LightType::Omni),
        Just(LightType::Directional),
        Just(LightType::Ambient),
        (3u32..).prop_map(LightType::Other),
    ]
}

/// A light track of a tag the spec lists (never `Unknown`).
pub fn light_track() -> impl Strategy<Value = LightTrack> {
    prop_oneof![
        track(float).prop_map(LightTrack::AttenuationStart),
        track(float).prop_map(LightTrack::AttenuationEnd),
        track(vec3).prop_map(LightTrack::Color),
        track(float).prop_map(LightTrack::Intensity),
        track(float).prop_map(LightTrack::AmbientIntensity),
        track(vec3).prop_map(LightTrack::AmbientColor),
        track(float).prop_map(LightTrack::Visibility),
    ]
}

prop_compose! {
    /// A light with no tracks after its chunk (the lenient property adds them).
    pub fn light(version: u32)(
        node in node().boxed(),
        light_type in light_type(),
        attenuation in [float(), float()],
        color in vec3(),
        intensity in float(),
        ambient_color in vec3(),
        ambient_intensity in float(),
        shadow_intensity in usually(0.4f32, float()),
        tracks in tracks_with_tail(light_track(), LightTrack::Unknown),
    ) -> Light {
        Light {
            node,
            light_type,
            attenuation_start: attenuation[0],
            attenuation_end: attenuation[1],
            color,
            intensity,
            ambient_color,
            ambient_intensity,
            shadow_intensity: (version >= 1200).then_some(shadow_intensity),
            tracks,
            tracks_after_chunk: Vec::new(),
        }
    }
}

// ---------------------------------------------------------------- emitters

pub fn particle_emitter_track() -> impl Strategy<Value = ParticleEmitterTrack> {
    prop_oneof![
        track(float).prop_map(ParticleEmitterTrack::EmissionRate),
        track(float).prop_map(ParticleEmitterTrack::Gravity),
        track(float).prop_map(ParticleEmitterTrack::Longitude),
        track(float).prop_map(ParticleEmitterTrack::Latitude),
        track(float).prop_map(ParticleEmitterTrack::Lifespan),
        track(float).prop_map(ParticleEmitterTrack::Speed),
        track(float).prop_map(ParticleEmitterTrack::Visibility),
    ]
}

prop_compose! {
    pub fn particle_emitter()(
        node in node().boxed(),
        values in [float(), float(), float(), float(), float(), float()],
        spawn_model_file_name in fixed_str(),
        tracks in tracks_with_tail(particle_emitter_track(), ParticleEmitterTrack::Unknown),
    ) -> ParticleEmitter {
        let [emission_rate, gravity, longitude, latitude, lifespan, initial_velocity] = values;
        ParticleEmitter {
            node,
            emission_rate,
            gravity,
            longitude,
            latitude,
            spawn_model_file_name,
            lifespan,
            initial_velocity,
            tracks,
        }
    }
}

pub fn particle_emitter2_track() -> impl Strategy<Value = ParticleEmitter2Track> {
    prop_oneof![
        track(float).prop_map(ParticleEmitter2Track::Speed),
        track(float).prop_map(ParticleEmitter2Track::Variation),
        track(float).prop_map(ParticleEmitter2Track::Latitude),
        track(float).prop_map(ParticleEmitter2Track::Gravity),
        track(float).prop_map(ParticleEmitter2Track::EmissionRate),
        track(float).prop_map(ParticleEmitter2Track::Length),
        track(float).prop_map(ParticleEmitter2Track::Width),
        track(float).prop_map(ParticleEmitter2Track::Visibility),
    ]
}

prop_compose! {
    pub fn particle_emitter2()(
        node in node().boxed(),
        values in proptest::array::uniform::<_, 10>(float()),
        ints in any::<[u32; 4]>(),
        segment_color in [vec3(), vec3(), vec3()],
        segment_alpha in any::<[u8; 3]>(),
        segment_scaling in vec3(),
        intervals in any::<[[u32; 3]; 4]>(),
        ids in any::<[u32; 3]>(),
        priority_plane in any::<i32>(),
        tracks in tracks_with_tail(particle_emitter2_track(), ParticleEmitter2Track::Unknown),
    ) -> ParticleEmitter2 {
        let [speed, variation, latitude, gravity, lifespan, emission_rate, length, width,
            tail_length, time] = values;
        let [filter_mode, rows, columns, head_or_tail] = ints;
        let [head_interval, head_decay_interval, tail_interval, tail_decay_interval] = intervals;
        let [texture_id, squirt, replaceable_id] = ids;
        ParticleEmitter2 {
            node,
            speed,
            variation,
            latitude,
            gravity,
            lifespan,
            emission_rate,
            length,
            width,
            filter_mode,
            rows,
            columns,
            head_or_tail,
            tail_length,
            time,
            segment_color,
            segment_alpha,
            segment_scaling,
            head_interval,
            head_decay_interval,
            tail_interval,
            tail_decay_interval,
            texture_id,
            squirt,
            priority_plane,
            replaceable_id,
            tracks,
        }
    }
}

pub fn ribbon_emitter_track() -> impl Strategy<Value = RibbonEmitterTrack> {
    prop_oneof![
        track(float).prop_map(RibbonEmitterTrack::HeightAbove),
        track(float).prop_map(RibbonEmitterTrack::HeightBelow),
        track(float).prop_map(RibbonEmitterTrack::Alpha),
        track(vec3).prop_map(RibbonEmitterTrack::Color),
        track(u32_value).prop_map(RibbonEmitterTrack::TextureSlot),
        track(float).prop_map(RibbonEmitterTrack::Visibility),
    ]
}

prop_compose! {
    pub fn ribbon_emitter()(
        node in node().boxed(),
        values in [float(), float(), float(), float(), float()],
        color in vec3(),
        ints in any::<[u32; 5]>(),
        tracks in tracks_with_tail(ribbon_emitter_track(), RibbonEmitterTrack::Unknown),
    ) -> RibbonEmitter {
        let [height_above, height_below, alpha, lifespan, gravity] = values;
        let [texture_slot, emission_rate, rows, columns, material_id] = ints;
        RibbonEmitter {
            node,
            height_above,
            height_below,
            alpha,
            color,
            lifespan,
            texture_slot,
            emission_rate,
            rows,
            columns,
            material_id,
            gravity,
            tracks,
        }
    }
}

pub fn corn_emitter_track() -> impl Strategy<Value = CornEmitterTrack> {
    prop_oneof![
        track(float).prop_map(CornEmitterTrack::Alpha),
        track(vec3).prop_map(CornEmitterTrack::Color),
        track(float).prop_map(CornEmitterTrack::EmissionRate),
        track(float).prop_map(CornEmitterTrack::Lifespan),
        track(float).prop_map(CornEmitterTrack::Speed),
        track(float).prop_map(CornEmitterTrack::Visibility),
    ]
}

prop_compose! {
    pub fn corn_emitter()(
        node in node().boxed(),
        values in [float(), float(), float(), float()],
        color in vec3(),
        replaceable_id in any::<u32>(),
        path in fixed_str(),
        flags in fixed_str(),
        tracks in tracks_with_tail(corn_emitter_track(), CornEmitterTrack::Unknown),
    ) -> CornEmitter {
        let [life_span, emission_rate, speed, alpha] = values;
        CornEmitter {
            node,
            life_span,
            emission_rate,
            speed,
            color,
            alpha,
            replaceable_id,
            path,
            flags,
            tracks,
        }
    }
}

// ---------------------------------------------------------------- cameras, events, collision

pub fn camera_track() -> impl Strategy<Value = CameraTrack> {
    prop_oneof![
        track(vec3).prop_map(CameraTrack::Translation),
        track(vec3).prop_map(CameraTrack::TargetTranslation),
        track(float).prop_map(CameraTrack::Rotation),
    ]
}

prop_compose! {
    pub fn camera()(
        name in fixed_str(),
        position in vec3(),
        planes in [float(), float(), float()],
        target_position in vec3(),
        tracks in tracks_with_tail(camera_track(), CameraTrack::Unknown),
    ) -> Camera {
        let [field_of_view, far_clipping_plane, near_clipping_plane] = planes;
        Camera {
            name,
            position,
            field_of_view,
            far_clipping_plane,
            near_clipping_plane,
            target_position,
            tracks,
        }
    }
}

prop_compose! {
    pub fn event_track()(
        global_sequence_id in prop_oneof![Just(-1i32), any::<i32>()],
        tracks in vec(any::<u32>(), 0..4),
    ) -> EventTrack {
        EventTrack { tracks_count: Derived::default(), global_sequence_id, tracks }
    }
}

prop_compose! {
    pub fn event_object()(node in node().boxed(), track in proptest::option::of(event_track())) -> EventObject {
        EventObject { node, track }
    }
}

pub fn shape_type() -> impl Strategy<Value = ShapeType> {
    prop_oneof![
        Just(ShapeType::Cube),
        Just(ShapeType::Plane),
        Just(ShapeType::Sphere),
        Just(ShapeType::Cylinder),
    ]
}

prop_compose! {
    /// As many vertices as the type has, and a radius exactly when it has one.
    pub fn collision_shape()(
        node in node().boxed(),
        shape_type in shape_type(),
        vertices in [vec3(), vec3()],
        radius in float(),
    ) -> CollisionShape {
        let mut vertices = vertices.to_vec();
        vertices.truncate(shape_type.vertex_count() as usize);
        CollisionShape {
            node,
            shape_type,
            vertices,
            radius: shape_type.has_radius().then_some(radius),
        }
    }
}

// ---------------------------------------------------------------- Reforged chunks

prop_compose! {
    pub fn face_effect()(target in fixed_str(), path in fixed_str()) -> FaceEffect {
        FaceEffect { target, path }
    }
}

prop_compose! {
    pub fn bind_pose_chunk()(bind_pose in vec(matrix(), 0..4)) -> BindPoseChunk {
        BindPoseChunk { count: Derived::default(), bind_pose }
    }
}
