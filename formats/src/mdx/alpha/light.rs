//! `LITE` and `CAMS` (seed 003). No real file has a `LITE`; `CAMS` is verified
//! on the real v1300 file without tracks (`MDX_VERSIONS.md` §6.2).

use format_core::{Codec, FixedStr};

use super::node::GenObject;
use crate::mdx::light::LightType;
use crate::mdx::track::tracks;

tracks! {
    /// `KLAS KLAE KLAC KLAI KLBC KLBI KVIS`
    LightTrack {
        /// `KLAS: MDLKEYTRACK<float> attenstartkeys`
        "KLAS" => AttenuationStart(f32),
        /// `KLAE: MDLKEYTRACK<float> attenendkeys`
        "KLAE" => AttenuationEnd(f32),
        /// `KLAC: MDLKEYTRACK<C3Color> colorkeys`
        "KLAC" => Color([f32; 3]),
        /// `KLAI: MDLKEYTRACK<float> intensitykeys`
        "KLAI" => Intensity(f32),
        /// `KLBC: MDLKEYTRACK<C3Color> ambcolorkeys`
        "KLBC" => AmbientColor([f32; 3]),
        /// `KLBI: MDLKEYTRACK<float> ambintensitykeys`
        "KLBI" => AmbientIntensity(f32),
        /// `KVIS: MDLKEYTRACK<float> visibilityKeys`
        "KVIS" => Visibility(f32),
    }
}

/// `MDLLIGHTSECTION { uint32_t size; MDLGENOBJECT object; LIGHT_TYPE type; float staticAttenStart; float staticAttenEnd; C3Color staticColor; float staticIntensity; C3Color staticAmbColor; float staticAmbIntensity; tracks }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Light {
    /// The node.
    pub object: GenObject,
    /// `LIGHT_TYPE`: 0 omni, 1 direct, 2 ambient (the WC3 values).
    #[cfg_attr(feature = "serde", serde(rename = "type"))]
    pub light_type: LightType,
    /// Attenuation start.
    pub static_atten_start: f32,
    /// Attenuation end.
    pub static_atten_end: f32,
    /// `C3Color` (b, g, r).
    pub static_color: [f32; 3],
    /// Intensity.
    pub static_intensity: f32,
    /// Ambient `C3Color` (b, g, r).
    pub static_amb_color: [f32; 3],
    /// Ambient intensity.
    pub static_amb_intensity: f32,
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<LightTrack>,
}

/// `LITE { uint32_t numLights; MDLLIGHTSECTION lights[numLights]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "LITE")]
pub struct LightChunk {
    /// The lights.
    #[format(count = u32)]
    pub lights: Vec<Light>,
}

tracks! {
    /// `KCTR transkeys; KCRL rollkeys; KVIS visibilityKeys; KTTR targettranskeys;`
    CameraTrack {
        /// `KCTR: MDLKEYTRACK<C3Vector> transkeys`
        "KCTR" => Translation([f32; 3]),
        /// `KCRL: MDLKEYTRACK<float> rollkeys`
        "KCRL" => Roll(f32),
        /// `KVIS: MDLKEYTRACK<float> visibilityKeys`
        "KVIS" => Visibility(f32),
        /// `KTTR: MDLKEYTRACK<C3Vector> targettranskeys`
        "KTTR" => TargetTranslation([f32; 3]),
    }
}

/// `MDLCAMERASECTION { uint32_t size; char name[0x50]; C3Vector pivot; float fieldOfView; float farClip; float nearClip; C3Vector targetPivot; tracks }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
pub struct Camera {
    /// Common names are CameraPortrait, Portrait and Paperdoll.
    pub name: FixedStr<80>,
    /// Position.
    pub pivot: [f32; 3],
    /// Default is 0.9500215.
    pub field_of_view: f32,
    /// Default is 27.7777786.
    pub far_clip: f32,
    /// Default is 0.222222224.
    pub near_clip: f32,
    /// Target position.
    pub target_pivot: [f32; 3],
    /// The tracks, in file order.
    #[format(tagged)]
    pub tracks: Vec<CameraTrack>,
}

/// `CAMS { uint32_t numCameras; MDLCAMERASECTION cameras[numCameras]; }`
#[derive(Codec, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "CAMS")]
pub struct CameraChunk {
    /// The cameras.
    #[format(count = u32)]
    pub cameras: Vec<Camera>,
}
