//! Cameras (seed 000 `Camera`): `CAMS`.

use format_core::{Codec, FixedStr, Mdl};

use super::track::tracks;

tracks! {
    /// `(KCTR) (KTTR) (KCRL)`
    CameraTrack {
        /// `KCTR: float[3] translation`
        "KCTR" => Translation([f32; 3]),
        /// `KTTR: float[3] targetTranslation`
        "KTTR" => TargetTranslation([f32; 3]),
        /// `KCRL: float rotation` (an angle, not a quaternion)
        "KCRL" => Rotation(f32),
    }
}

/// `Camera { uint32 inclusiveSize; char[80] name; float[3] position; float filedOfView; float farClippingPlane; float nearClippingPlane; float[3] targetPosition; (KCTR) (KTTR) (KCRL) }`
///
/// MDL: `Camera "name" { Position, FieldOfView, FarClip, NearClip, Target {
/// Position }, tracks }`: the target's `Translation` track is written in a
/// `Target { }` block of its own where it comes in the track list, so the
/// order survives.
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(block = "Camera", name = name)]
pub struct Camera {
    /// The camera's name (`Portrait`, ...).
    pub name: FixedStr<80>,
    /// Eye position.
    pub position: [f32; 3],
    /// Field of view (radians).
    pub field_of_view: f32,
    /// Far clipping plane.
    #[mdl(key = "FarClip")]
    pub far_clipping_plane: f32,
    /// Near clipping plane.
    #[mdl(key = "NearClip")]
    pub near_clipping_plane: f32,
    /// Point looked at.
    #[mdl(key = "Position", within = "Target")]
    pub target_position: [f32; 3],
    /// The tracks, in file order.
    #[format(tagged)]
    #[mdl(tracks)]
    pub tracks: Vec<CameraTrack>,
}

/// `CAMS { Camera[?] cameras }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "CAMS")]
pub struct CameraChunk {
    /// The cameras.
    #[format(until_end)]
    pub cameras: Vec<Camera>,
}
