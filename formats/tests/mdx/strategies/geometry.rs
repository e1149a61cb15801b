//! Strategies for the chunks without nodes: header, sequences, textures,
//! materials, geosets.

use format_core::FixedStr;
use formats::mdx::*;
use proptest::collection::vec;
use proptest::prelude::*;

use super::{
    fixed_str, float, track, tracks_with_tail, u32_value, unknown_tails, usually, vec2, vec3, vec4,
};

// ---------------------------------------------------------------- header, sequences, textures

pub fn extent() -> impl Strategy<Value = Extent> {
    (float(), vec3(), vec3()).prop_map(|(bounds_radius, minimum, maximum)| Extent {
        bounds_radius,
        minimum,
        maximum,
    })
}

prop_compose! {
    pub fn model_chunk()(
        name in fixed_str(),
        animation_file_name in fixed_str(),
        extent in extent(),
        blend_time in any::<u32>(),
    ) -> ModelChunk {
        ModelChunk { name, animation_file_name, extent, blend_time }
    }
}

prop_compose! {
    pub fn sequence()(
        name in fixed_str(),
        interval in any::<[u32; 2]>(),
        move_speed in float(),
        flags in any::<u32>(),
        rarity in float(),
        sync_point in any::<u32>(),
        extent in extent(),
    ) -> Sequence {
        Sequence { name, interval, move_speed, flags, rarity, sync_point, extent }
    }
}

prop_compose! {
    pub fn texture()(
        replaceable_id in any::<u32>(),
        file_name in fixed_str(),
        flags in any::<u32>(),
    ) -> Texture {
        Texture { replaceable_id, file_name, flags }
    }
}

prop_compose! {
    pub fn sound_track()(
        file_name in fixed_str(),
        volume in float(),
        pitch in float(),
        flags in any::<u32>(),
    ) -> SoundTrack {
        SoundTrack { file_name, volume, pitch, flags }
    }
}

pub fn texture_animation_track() -> impl Strategy<Value = TextureAnimationTrack> {
    prop_oneof![
        track(vec3).prop_map(TextureAnimationTrack::Translation),
        track(vec4).prop_map(TextureAnimationTrack::Rotation),
        track(vec3).prop_map(TextureAnimationTrack::Scaling),
    ]
}

prop_compose! {
    pub fn texture_animation()(
        tracks in tracks_with_tail(texture_animation_track(), TextureAnimationTrack::Unknown),
    ) -> TextureAnimation {
        TextureAnimation { tracks }
    }
}

// ---------------------------------------------------------------- materials

/// 0-6, or a number no variant names.
pub fn filter_mode() -> impl Strategy<Value = FilterMode> {
    prop_oneof![
        6 => (0u32..7).prop_map(FilterMode::from),
        1 => (7u32..).prop_map(FilterMode::Other),
    ]
}

/// The fresnel block every SD layer of the corpus has.
pub const DEFAULT_FRESNEL: Fresnel = Fresnel {
    color: [1.0, 1.0, 1.0],
    opacity: 0.0,
    team_color: 0.0,
};

pub fn fresnel() -> BoxedStrategy<Fresnel> {
    usually(
        DEFAULT_FRESNEL,
        (vec3(), float(), float()).prop_map(|(color, opacity, team_color)| Fresnel {
            color,
            opacity,
            team_color,
        }),
    )
    .boxed()
}

prop_compose! {
    pub fn texture_entry()(
        texture_id in any::<i32>(),
        slot in prop_oneof![Just(0u32), 0u32..6, any::<u32>()],
        texture_id_track in proptest::option::of(track(u32_value)),
    ) -> TextureEntry {
        TextureEntry { texture_id, slot, texture_id_track }
    }
}

/// The layer tracks `version` has (`KMTE`, `KFC3`, `KFCA`, `KFTC` from 900 on).
/// No `Unknown`: see the module documentation.
pub fn layer_track(version: u32) -> impl Strategy<Value = LayerTrack> {
    let classic = prop_oneof![
        track(u32_value).prop_map(LayerTrack::TextureId),
        track(float).prop_map(LayerTrack::Alpha),
    ];
    if version > 800 {
        prop_oneof![
            4 => classic,
            1 => track(float).prop_map(LayerTrack::EmissiveGain),
            1 => track(vec3).prop_map(LayerTrack::FresnelColor),
            1 => track(float).prop_map(LayerTrack::FresnelAlpha),
            1 => track(float).prop_map(LayerTrack::FresnelTeamColor),
        ]
        .boxed()
    } else {
        classic.boxed()
    }
}

/// The texture list of a 1100+ layer: usually the single diffuse entry
/// `set_version` can turn back into a texture id.
fn texture_entries() -> BoxedStrategy<Vec<TextureEntry>> {
    prop_oneof![
        2 => texture_entry().prop_map(|entry| vec![TextureEntry { slot: 0, ..entry }]),
        1 => vec(texture_entry(), 0..3),
    ]
    .boxed()
}

prop_compose! {
    pub fn layer(version: u32)(
        filter_mode in filter_mode(),
        shading_flags in any::<u32>(),
        texture_id in any::<i32>(),
        texture_animation_id in prop_oneof![Just(-1i32), any::<i32>()],
        coord_id in any::<u32>(),
        alpha in float(),
        emissive_gain in usually(1.0, float()),
        fresnel in fresnel(),
        // 900: the file may have the block or not.
        fresnel_in_900 in any::<bool>(),
        shader_type_id in usually(0u32, any::<u32>()),
        textures in texture_entries(),
        tracks in vec(layer_track(version), 0..3),
    ) -> Layer {
        let mut layer = Layer {
            filter_mode,
            shading_flags,
            texture_id,
            texture_animation_id,
            coord_id,
            alpha,
            emissive_gain: (version >= 900).then_some(emissive_gain),
            fresnel: match version {
                ..900 => None,
                900..1000 => fresnel_in_900.then_some(fresnel),
                _ => Some(fresnel),
            },
            shader_type_id: (version >= 1100).then_some(shader_type_id),
            textures: (version >= 1100).then_some(textures),
            tracks,
        };
        settle_texture_id_track(&mut layer);
        layer
    }
}

/// 1100+: a layer-level `KMTF` right after a texture entry without one is
/// that entry's track (`TextureEntry.texture_id_track` is an optional `KMTF`
/// at the entry's end), so the bytes cannot tell the two apart; give it to the
/// entry, as the reader does.
fn settle_texture_id_track(layer: &mut Layer) {
    let Some(entry) = layer.textures.as_mut().and_then(|t| t.last_mut()) else {
        return;
    };
    if entry.texture_id_track.is_none()
        && matches!(layer.tracks.first(), Some(LayerTrack::TextureId(_)))
        && let LayerTrack::TextureId(track) = layer.tracks.remove(0)
    {
        entry.texture_id_track = Some(track);
    }
}

prop_compose! {
    pub fn material(version: u32)(
        priority_plane in any::<i32>(),
        flags in any::<u32>(),
        shader in usually(FixedStr::default(), fixed_str()),
        layers in vec(layer(version).boxed(), 0..3),
        unknown in unknown_tails(),
    ) -> Material {
        Material {
            priority_plane,
            flags,
            shader: (version == 900 || version == 1000).then_some(shader),
            layers,
            unknown,
        }
    }
}

// ---------------------------------------------------------------- geosets

prop_compose! {
    pub fn texture_coordinate_set()(texture_coordinates in vec(vec2(), 0..8)) -> TextureCoordinateSet {
        TextureCoordinateSet { texture_coordinates }
    }
}

prop_compose! {
    pub fn geoset(version: u32)(
        // Grouped and boxed to keep the value tree (and the debug-build stack
        // frames that build it) small.
        (vertex_positions, vertex_normals, vertex_groups) in
            (vec(vec3(), 0..8), vec(vec3(), 0..8), vec(any::<u8>(), 0..8)).boxed(),
        (face_type_groups, face_groups, faces) in
            (vec(any::<u32>(), 0..3), vec(any::<u32>(), 0..3), vec(any::<u16>(), 0..12)).boxed(),
        (matrix_groups, matrix_indices, ids) in
            (vec(any::<u32>(), 0..3), vec(any::<u32>(), 0..4), any::<[u32; 3]>()).boxed(),
        (lod, lod_name, tangents, skin) in (
            usually(0i32, prop_oneof![Just(-1), any::<i32>()]),
            usually(FixedStr::default(), fixed_str()),
            proptest::option::of(vec(vec4(), 0..8)),
            proptest::option::of(vec(any::<u8>(), 0..32)),
        ).boxed(),
        extent in extent(),
        sequence_extents in vec(extent(), 0..3),
        texture_coordinate_sets in vec(texture_coordinate_set(), 0..3),
        unknown in unknown_tails(),
    ) -> Geoset {
        let reforged = version > 800;
        Geoset {
            vertex_positions,
            vertex_normals,
            face_type_groups,
            face_groups,
            faces,
            vertex_groups,
            matrix_groups,
            matrix_indices,
            material_id: ids[0],
            selection_group: ids[1],
            selection_flags: ids[2],
            lod: reforged.then_some(lod),
            lod_name: reforged.then_some(lod_name),
            extent,
            sequence_extents,
            tangents: tangents.filter(|_| reforged),
            skin: skin.filter(|_| reforged),
            texture_coordinate_sets,
            unknown,
        }
    }
}

pub fn geoset_animation_track() -> impl Strategy<Value = GeosetAnimationTrack> {
    prop_oneof![
        track(float).prop_map(GeosetAnimationTrack::Alpha),
        track(vec3).prop_map(GeosetAnimationTrack::Color),
    ]
}

prop_compose! {
    pub fn geoset_animation()(
        alpha in float(),
        flags in any::<u32>(),
        color in vec3(),
        geoset_id in any::<u32>(),
        tracks in tracks_with_tail(geoset_animation_track(), GeosetAnimationTrack::Unknown),
    ) -> GeosetAnimation {
        GeosetAnimation { alpha, flags, color, geoset_id, tracks }
    }
}
