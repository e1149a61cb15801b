//! `KHR_lights_punctual` lights to `LITE` lights, and glTF cameras to
//! `CAMS` cameras (the [`import`](super::import()) docs' "Lights and
//! cameras").

use crate::anim::glam::{DMat4, DVec3};
use crate::mdx::{Camera, Light, LightType, Node};

use super::fixed;
use super::report::ImportReport;
use super::scene::Scene;

/// The light of glTF node `n`, on `node` (its MDX node); `size` the model's
/// size, for a light without a range.
pub(super) fn light(
    document: &gltf::Document,
    n: usize,
    node: Node,
    size: f64,
    report: &mut ImportReport,
) -> Light {
    let at = format!("nodes[{n}]");
    let light = document.nodes().nth(n).and_then(|n| n.light());
    let (kind, [r, g, b], intensity, range) = match &light {
        Some(l) => (l.kind(), l.color(), l.intensity(), l.range()),
        None => (gltf::khr_lights_punctual::Kind::Point, [1.0; 3], 1.0, None),
    };
    let light_type = match kind {
        gltf::khr_lights_punctual::Kind::Directional => LightType::Directional,
        gltf::khr_lights_punctual::Kind::Point => LightType::Omni,
        gltf::khr_lights_punctual::Kind::Spot { .. } => {
            report.approximate(
                at.clone(),
                "a spot light as an omni light (MDX has no spot)",
            );
            LightType::Omni
        }
    };
    let attenuation_end = match range {
        Some(range) if range > 0.0 && range.is_finite() => range,
        _ => {
            let end = (2.0 * size) as f32;
            report.approximate(
                at,
                format!("no range: its light ends {end} away (twice the model's size)"),
            );
            end
        }
    };
    Light {
        node,
        light_type,
        attenuation_start: 0.0,
        attenuation_end,
        color: [b, g, r],
        intensity,
        ambient_color: [1.0; 3],
        ambient_intensity: 0.0,
        shadow_intensity: None,
        tracks: Vec::new(),
        tracks_after_chunk: Vec::new(),
    }
}

/// The camera of each scene node that has a perspective one: its eye and
/// the point it looks at, in the model's space (`c`), at rest.
pub(super) fn cameras(
    document: &gltf::Document,
    scene: &Scene,
    c: DMat4,
    animated: impl Fn(usize) -> bool,
    report: &mut ImportReport,
) -> Vec<Camera> {
    let worlds = scene.worlds(|n| scene.rest_local(n));
    let mut out = Vec::new();
    for node in document.nodes().filter(|n| scene.in_scene(n.index())) {
        let Some(camera) = node.camera() else {
            continue;
        };
        let at = format!("nodes[{}]", node.index());
        let gltf::camera::Projection::Perspective(perspective) = camera.projection() else {
            report.drop(at, "an orthographic camera (MDX cameras are perspective)");
            continue;
        };
        let world = worlds.get(node.index()).copied().unwrap_or(DMat4::IDENTITY);
        let eye = c.transform_point3(world.transform_point3(DVec3::ZERO));
        let ahead = c
            .transform_vector3(world.transform_vector3(DVec3::NEG_Z))
            .try_normalize()
            .unwrap_or(DVec3::X);
        // The target: the point of the line of sight nearest the model's
        // origin, or a hundred units ahead where that is behind the eye.
        let along = (-eye).dot(ahead);
        let target = eye + ahead * if along > 1e-3 { along } else { 100.0 };
        let up = c.transform_vector3(world.transform_vector3(DVec3::Y));
        let level = ahead.cross(DVec3::Z).cross(ahead);
        if up
            .try_normalize()
            .zip(level.try_normalize())
            .is_some_and(|(u, l)| u.dot(l) < 0.9999)
        {
            report.approximate(
                at.clone(),
                "its roll left out (the camera looks with +Z up)",
            );
        }
        if animated(node.index()) || scene.ancestors(node.index()).any(&animated) {
            report.approximate(
                at.clone(),
                "its motion left out (the camera stays where it is at rest)",
            );
        }
        let name = camera
            .name()
            .or(node.name())
            .map_or_else(|| format!("Camera {}", out.len()), str::to_owned);
        out.push(Camera {
            name: fixed::<80>(&name).0,
            position: eye.as_vec3().to_array(),
            field_of_view: perspective.yfov(),
            far_clipping_plane: perspective.zfar().unwrap_or(100_000.0),
            near_clipping_plane: perspective.znear(),
            target_position: target.as_vec3().to_array(),
            tracks: Vec::new(),
        });
    }
    out
}
