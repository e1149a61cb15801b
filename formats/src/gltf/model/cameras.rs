//! The model's cameras (either version's) as glTF perspective cameras on
//! nodes that look at their targets; the mapping is in the
//! [`gltf`](crate::gltf#cameras) docs.

use gltf_json as json;
use json::Index;
use json::validation::Checked;

use crate::anim::Sampler;
use crate::anim::glam::{Mat3, Quat, Vec3};
use crate::gltf::builder::Builder;
use crate::mdx::{Model, Track, alpha};

/// One camera of the model, either version's.
#[derive(Clone, Debug)]
pub(super) struct ModelCamera<'m> {
    /// As the model names it.
    pub(super) name: String,
    /// Eye position at rest.
    pub(super) position: [f32; 3],
    /// Target position at rest.
    pub(super) target: [f32; 3],
    /// Field of view, radians.
    pub(super) field_of_view: f32,
    /// Near clipping plane.
    pub(super) near: f32,
    /// Far clipping plane.
    pub(super) far: f32,
    /// `KCTR`: the eye's offset.
    pub(super) translation: Option<&'m Track<[f32; 3]>>,
    /// `KTTR`: the target's offset.
    pub(super) target_translation: Option<&'m Track<[f32; 3]>>,
    /// `KCRL`: the roll, radians.
    pub(super) roll: Option<&'m Track<f32>>,
}

impl<'m> ModelCamera<'m> {
    /// A camera at rest, without tracks: `lens` is the field of view
    /// (radians), the near and the far clipping plane.
    fn at_rest(name: String, position: [f32; 3], target: [f32; 3], lens: [f32; 3]) -> Self {
        let [field_of_view, near, far] = lens;
        ModelCamera {
            name,
            position,
            target,
            field_of_view,
            near,
            far,
            translation: None,
            target_translation: None,
            roll: None,
        }
    }

    /// Whether any track moves the camera.
    pub(super) fn moves(&self) -> bool {
        self.translation.is_some() || self.target_translation.is_some() || self.roll.is_some()
    }

    /// The node's translation and rotation when `sampler` plays (at rest
    /// without one); a coordinate that is not finite is 0 (looking along -X
    /// if the line of sight has one).
    pub(super) fn transform(&self, sampler: Option<&Sampler<'_>>) -> ([f32; 3], [f32; 4]) {
        let offset = |track: Option<&Track<[f32; 3]>>| match (sampler, track) {
            (Some(s), Some(t)) => Vec3::from(s.sample(t, &[0.0; 3])),
            _ => Vec3::ZERO,
        };
        let roll = match (sampler, self.roll) {
            (Some(s), Some(t)) => s.sample(t, &0.0),
            _ => 0.0,
        };
        let eye = Vec3::from(self.position) + offset(self.translation);
        let target = Vec3::from(self.target) + offset(self.target_translation);
        // glTF refuses NaN and infinities (JSON has neither).
        let finite = eye.to_array().map(|c| if c.is_finite() { c } else { 0.0 });
        (finite, look_at(eye, target, roll).to_array())
    }
}

/// Every camera of `model` (classic `CAMS`, then WoW alpha's).
pub(super) fn model_cameras(model: &Model) -> Vec<ModelCamera<'_>> {
    use crate::mdx::CameraTrack as C;
    let classic = model.cameras().iter().map(|c| {
        let lens = [c.field_of_view, c.near_clipping_plane, c.far_clipping_plane];
        let mut camera =
            ModelCamera::at_rest(c.name.to_string(), c.position, c.target_position, lens);
        for track in &c.tracks {
            match track {
                C::Translation(t) => camera.translation = Some(t),
                C::TargetTranslation(t) => camera.target_translation = Some(t),
                C::Rotation(t) => camera.roll = Some(t),
                C::Unknown(_) => {}
            }
        }
        camera
    });
    let wow = model.alpha_cameras().iter().map(|c| {
        let lens = [c.field_of_view, c.near_clip, c.far_clip];
        let mut camera = ModelCamera::at_rest(c.name.to_string(), c.pivot, c.target_pivot, lens);
        for track in &c.tracks {
            match track {
                alpha::CameraTrack::Translation(t) => camera.translation = Some(t),
                alpha::CameraTrack::TargetTranslation(t) => camera.target_translation = Some(t),
                alpha::CameraTrack::Roll(t) => camera.roll = Some(t),
                alpha::CameraTrack::Visibility(_) | alpha::CameraTrack::Unknown(_) => {}
            }
        }
        camera
    });
    classic.chain(wow).collect()
}

/// The rotation that turns a glTF camera (looking down -Z, +Y up) to look
/// from `eye` at `target` with +Z (the model's up) up, then by `roll` about
/// the direction looked in. Where eye and target coincide it looks along
/// -X (back at a model facing +X, as portraits do).
pub(super) fn look_at(eye: Vec3, target: Vec3, roll: f32) -> Quat {
    // `try_normalize` refuses zero, NaN and infinite lengths.
    let forward = (target - eye).try_normalize().unwrap_or(Vec3::NEG_X);
    let up = if forward.cross(Vec3::Z).length_squared() > 1e-8 {
        Vec3::Z
    } else {
        Vec3::Y
    };
    let right = forward.cross(up).normalize();
    let up = right.cross(forward);
    let base = Quat::from_mat3(&Mat3::from_cols(right, up, -forward));
    let roll = if roll.is_finite() { roll } else { 0.0 };
    (Quat::from_axis_angle(forward, roll) * base).normalize()
}

/// The usual field of view of Warcraft III cameras (π/4).
const USUAL_FIELD_OF_VIEW: f32 = core::f32::consts::FRAC_PI_4;
/// The usual near clipping plane of Warcraft III cameras.
const USUAL_NEAR: f32 = 8.0;

/// Adds a glTF camera and a node for each camera, as children of `root`;
/// returns the nodes, in the order of `cameras`. What glTF cannot take is
/// replaced and said in `warnings`.
pub(super) fn add_cameras(
    b: &mut Builder,
    cameras: &[ModelCamera<'_>],
    root: Index<json::Node>,
    warnings: &mut Vec<String>,
) -> Vec<Index<json::Node>> {
    let mut nodes = Vec::with_capacity(cameras.len());
    for camera in cameras {
        let fov = camera.field_of_view;
        let yfov = if fov > 0.0 && fov < core::f32::consts::PI {
            fov
        } else {
            warnings.push(format!(
                "camera {:?}: field of view {fov} is not above 0 and below π, exported as π/4",
                camera.name
            ));
            USUAL_FIELD_OF_VIEW
        };
        let znear = if camera.near > 0.0 && camera.near.is_finite() {
            camera.near
        } else {
            warnings.push(format!(
                "camera {:?}: near clipping plane {} is not above 0, exported as {USUAL_NEAR}",
                camera.name, camera.near
            ));
            USUAL_NEAR
        };
        let zfar = (camera.far > znear && camera.far.is_finite()).then_some(camera.far);
        let index = b.push(json::Camera {
            name: Some(camera.name.clone()),
            orthographic: None,
            perspective: Some(json::camera::Perspective {
                aspect_ratio: None,
                yfov,
                zfar,
                znear,
                extensions: None,
                extras: Default::default(),
            }),
            type_: Checked::Valid(json::camera::Type::Perspective),
            extensions: None,
            extras: Default::default(),
        });
        let (translation, rotation) = camera.transform(None);
        nodes.push(b.push(json::Node {
            name: Some(camera.name.clone()),
            camera: Some(index),
            translation: Some(translation),
            rotation: Some(json::scene::UnitQuaternion(rotation)),
            ..Default::default()
        }));
    }
    if let Some(node) = b.root_mut().nodes.get_mut(root.value())
        && !nodes.is_empty()
    {
        node.children.get_or_insert_with(Vec::new).extend(&nodes);
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Vec3, b: Vec3) -> bool {
        (a - b).length() < 1e-5
    }

    /// A glTF camera looks down its -Z with +Y up: turned by `look_at`, it
    /// looks at the target, with the model's +Z up, and rolls about its
    /// line of sight.
    #[test]
    fn cameras_look_at_their_target_with_z_up() {
        let eye = Vec3::new(100.0, 0.0, 50.0);
        let q = look_at(eye, Vec3::new(0.0, 0.0, 50.0), 0.0);
        assert!(close(q * Vec3::NEG_Z, Vec3::NEG_X));
        assert!(close(q * Vec3::Y, Vec3::Z));
        assert!(close(q * Vec3::X, Vec3::Y), "{}", q * Vec3::X);
        // Looking down at 45 degrees: up tilts back, right stays level.
        let q = look_at(Vec3::new(1.0, 0.0, 1.0), Vec3::ZERO, 0.0);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert!(close(q * Vec3::NEG_Z, Vec3::new(-h, 0.0, -h)));
        assert!(close(q * Vec3::Y, Vec3::new(-h, 0.0, h)));
        // A quarter roll: up turns to where right was, right-handed about
        // the direction looked in (-X): up goes to +Y.
        let q = look_at(eye, Vec3::new(0.0, 0.0, 50.0), core::f32::consts::FRAC_PI_2);
        assert!(close(q * Vec3::NEG_Z, Vec3::NEG_X));
        assert!(close(q * Vec3::Y, Vec3::Y), "{}", q * Vec3::Y);
        // Straight down, and eye on target: still a unit rotation.
        let q = look_at(Vec3::Z, Vec3::ZERO, 0.0);
        assert!(close(q * Vec3::NEG_Z, Vec3::NEG_Z));
        assert!(close(look_at(eye, eye, 0.0) * Vec3::NEG_Z, Vec3::NEG_X));
    }

    /// What JSON cannot hold (NaN, infinities) never reaches the node.
    #[test]
    fn broken_cameras_get_finite_transforms() {
        let camera = ModelCamera {
            name: "broken".into(),
            position: [f32::NAN, 1.0, f32::INFINITY],
            target: [0.0, f32::NAN, 0.0],
            field_of_view: f32::NAN,
            near: f32::NAN,
            far: f32::INFINITY,
            translation: None,
            target_translation: None,
            roll: None,
        };
        let (at, turn) = camera.transform(None);
        assert_eq!(at, [0.0, 1.0, 0.0]);
        assert!(turn.iter().all(|c| c.is_finite()));
        let mut b = Builder::new("test");
        let root = b.push(json::Node::default());
        let mut warnings = Vec::new();
        add_cameras(&mut b, &[camera], root, &mut warnings);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let perspective = b.root().cameras[0].perspective.as_ref().unwrap();
        assert_eq!(
            (perspective.yfov, perspective.znear, perspective.zfar),
            (USUAL_FIELD_OF_VIEW, USUAL_NEAR, None)
        );
    }
}
