//! Materials and their layers (seed 000 `Material`, `Layer`; the Reforged
//! changes from `shared/specs/MDX_VERSIONS.md` §2 and §3).

use format_core::{Codec, FixedStr, Mdl, Reader, Tagged, UnknownTail};

use super::track::Track;

/// `uint32 filterMode // 0: none 1: transparent 2: blend 3: additive 4: add alpha 5: modulate 6: modulate 2x`
///
/// MDL: `FilterMode Additive,`, or `FilterMode n` for a value no word
/// names (in plain MDL `FilterMode None`, noted).
#[derive(Codec, Mdl, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u32)]
pub enum FilterMode {
    /// 0: opaque.
    #[default]
    #[mdl(word = "None")]
    None = 0,
    /// 1: alpha-tested at 0.75.
    #[mdl(word = "Transparent")]
    Transparent = 1,
    /// 2: blended.
    #[mdl(word = "Blend")]
    Blend = 2,
    /// 3: additive.
    #[mdl(word = "Additive")]
    Additive = 3,
    /// 4: add alpha.
    #[mdl(word = "AddAlpha")]
    AddAlpha = 4,
    /// 5: modulate.
    #[mdl(word = "Modulate")]
    Modulate = 5,
    /// 6: modulate 2x.
    #[mdl(word = "Modulate2x")]
    Modulate2x = 6,
    /// A value the spec does not name, kept as read.
    #[format(unknown)]
    Other(u32),
}

/// A layer's tracks: `(KMTF) (KMTA)`, `(KMTE)` for version > 800,
/// `(KFC3) (KFCA) (KFTC)` from 900 on. In 1100 and later `KMTF` belongs to an
/// entry of the texture list; a layer-level one is still read (as other
/// readers do) and written back where it was.
///
/// Written out rather than with `tracks!` because its variants carry version
/// conditions, whose `version` must be spelled where the derive sees it.
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LayerTrack {
    /// `KMTF: uint32 textureId`
    #[format(tag = "KMTF")]
    TextureId(Track<u32>),
    /// `KMTA: float alpha`
    #[format(tag = "KMTA")]
    Alpha(Track<f32>),
    /// `KMTE: float emissiveGain`
    #[format(tag = "KMTE", if = version > 800)]
    EmissiveGain(Track<f32>),
    /// `KFC3: float[3] fresnelColor`
    #[format(tag = "KFC3", if = version > 800)]
    FresnelColor(Track<[f32; 3]>),
    /// `KFCA: float fresnelAlpha`
    #[format(tag = "KFCA", if = version > 800)]
    FresnelAlpha(Track<f32>),
    /// `KFTC: float fresnelTeamColor`
    #[format(tag = "KFTC", if = version > 800)]
    FresnelTeamColor(Track<f32>),
    /// A tag the spec does not list: it and the rest of the layer, verbatim.
    #[format(unknown)]
    Unknown(UnknownTail),
}

/// `float[3] fresnelColor; float fresnelOpacity; float fresnelTeamColor` (20 bytes, version >= 1000;
/// in 900 when the file has it, see [`Layer::fresnel`]).
#[derive(Codec, Clone, Copy, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(plain)]
#[repr(C)]
pub struct Fresnel {
    /// Fresnel colour.
    pub color: [f32; 3],
    /// Fresnel opacity.
    pub opacity: f32,
    /// Fresnel team colour.
    pub team_color: f32,
}

impl Fresnel {
    /// The fresnel values Reforged files have when nothing sets them:
    /// white, opacity 0, team colour 0 (what MDL leaves out reads as).
    pub const DEFAULT: Fresnel = Fresnel {
        color: [1.0; 3],
        opacity: 0.0,
        team_color: 0.0,
    };
}

/// `TextureEntry { int32 textureId; uint32 slot; (KMTF) }` (version >= 1100,
/// `MDX_VERSIONS.md` §3.2): one texture of a layer's list, with its own
/// texture-id track right after it.
#[derive(Codec, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TextureEntry {
    /// Index into `TEXS`.
    pub texture_id: i32,
    /// 0 diffuse, 1 normal, 2 ORM, 3 emissive, 4 team colour, 5 environment map
    /// (every real entry has its position here; kept as read).
    pub slot: u32,
    /// `(KMTF)`: this texture's animated texture id.
    #[format(tag = "KMTF", optional)]
    pub texture_id_track: Option<Track<u32>>,
}

/// `Layer`: how one pass of a material draws.
///
/// ```text
/// Layer {
///   uint32 inclusiveSize
///   uint32 filterMode
///   uint32 shadingFlags
///   uint32 textureId
///   uint32 textureAnimationId
///   uint32 coordId
///   float alpha
///   if (version >= 900) float emissiveGain
///   if (version >= 1000) { float[3] fresnelColor; float fresnelOpacity; float fresnelTeamColor }
///   if (version >= 1100) { uint32 shaderTypeId; uint32 textureCount; TextureEntry[textureCount] }
///   (KMTF) (KMTA) (KMTE) (KFC3) (KFCA) (KFTC)
/// }
/// ```
///
/// MDL: `Layer { FilterMode Blend, shading flag words, TextureID (and the
/// texture list), TVertexAnimId, CoordId, static Alpha, static
/// EmissiveGain, static FresnelColor, static FresnelOpacity, static
/// FresnelTeamColor, ShaderTypeId, tracks }`; no texture animation (-1)
/// and `CoordId 0` are left out. Missing keys read as filter mode `None`,
/// alpha 1, emissive gain 1, the fresnel values of [`Fresnel::DEFAULT`]
/// (from 1000 on; in 900 a layer has them only if it gives one) and
/// shader type 0. A key of a version without its field is dropped
/// (strict: an error). The texture list is the block's hook
/// (`mdl::material`, which says its forms).
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(
    block = "Layer",
    hook = crate::mdl::material::TextureList,
    order(
        filter_mode, shading_flags, texture_id, texture_animation_id, coord_id, alpha,
        emissive_gain, fresnel, shader_type_id, textures, tracks
    )
)]
pub struct Layer {
    /// How the layer blends with what is below it.
    #[mdl(worded)]
    pub filter_mode: FilterMode,
    /// See [`shading_flags`].
    #[mdl(flags(
        Unshaded = shading_flags::UNSHADED,
        SphereEnvMap = shading_flags::SPHERE_ENVIRONMENT_MAP,
        TwoSided = shading_flags::TWO_SIDED,
        Unfogged = shading_flags::UNFOGGED,
        NoDepthTest = shading_flags::NO_DEPTH_TEST,
        NoDepthSet = shading_flags::NO_DEPTH_SET,
        Unlit = shading_flags::UNLIT
    ))]
    pub shading_flags: u32,
    /// Index into `TEXS`. Vestigial from 1100 on (the texture list decides;
    /// real files keep 0 here), kept as read.
    #[mdl(hook)]
    pub texture_id: i32,
    /// Index into `TXAN`, or -1 for none.
    #[mdl(key = "TVertexAnimId", unless = -1)]
    pub texture_animation_id: i32,
    /// Which UV set of the geoset.
    #[mdl(nonzero)]
    pub coord_id: u32,
    /// Static alpha.
    #[mdl(static, default = 1.0)]
    pub alpha: f32,
    /// Static emissive gain (version >= 900). Real files store the NaN
    /// `0x7fc00000` when a `KMTE` track drives it; the bits are kept.
    #[format(if = version >= 900)]
    #[mdl(static, since = 900, default = 1.0)]
    pub emissive_gain: Option<f32>,
    /// The fresnel block: always in 1000 and later, never before 900. In 900,
    /// whose layout the sources disagree on, it is present exactly when the file
    /// has it: after `emissiveGain`, if at least 20 bytes are left and they do
    /// not start with a layer track tag (`MDX_VERSIONS.md` §2). Writing keeps
    /// what was read.
    #[format(
        if = version >= 900,
        read_if = version >= 1000 || fresnel_follows(reader),
        write_assert(
            fresnel.is_some() || version < 1000,
            "`fresnel` is missing but versions from 1000 on require it"
        )
    )]
    #[mdl(
        spread(
            color = "FresnelColor",
            opacity = "FresnelOpacity",
            team_color = "FresnelTeamColor"
        ),
        static,
        since = 900,
        default_from = 1000,
        default = Fresnel::DEFAULT
    )]
    pub fresnel: Option<Fresnel>,
    /// 0: SD, 1: HD (version >= 1100).
    #[format(if = version >= 1100)]
    #[mdl(since = 1100)]
    pub shader_type_id: Option<u32>,
    /// The layer's textures by slot (version >= 1100).
    #[format(if = version >= 1100, count = u32)]
    #[mdl(hook)]
    pub textures: Option<Vec<TextureEntry>>,
    /// The tracks, in file order.
    #[format(
        tagged,
        write_assert(
            !kmtf_reads_back_elsewhere(textures, tracks),
            "a layer-level KMTF first after the texture list would read back as the last \
             texture's KMTF; put it in `textures[..].texture_id_track`"
        )
    )]
    #[mdl(tracks)]
    pub tracks: Vec<LayerTrack>,
}

/// In version 900 the fresnel block is there if at least its 20 bytes are
/// left in the layer and they do not start with a layer track's tag.
fn fresnel_follows(reader: &Reader<'_>) -> bool {
    reader.remaining() >= 20
        && !reader
            .peek_tag()
            .is_some_and(|tag| LayerTrack::TAGS.contains(&tag))
}

/// From 1100 on, a layer-level `KMTF` first in the track list would be read
/// back as the `KMTF` of the last texture entry when that entry has none, so
/// such a layer cannot be written faithfully.
fn kmtf_reads_back_elsewhere(textures: &Option<Vec<TextureEntry>>, tracks: &[LayerTrack]) -> bool {
    let last_entry_free = textures
        .as_ref()
        .and_then(|t| t.last())
        .is_some_and(|entry| entry.texture_id_track.is_none());
    last_entry_free && matches!(tracks.first(), Some(LayerTrack::TextureId(_)))
}

/// `Layer.shadingFlags` bits (seed 000, and 0x100 from `MDX_VERSIONS.md` §3.2).
pub mod shading_flags {
    /// 0x1: unshaded
    pub const UNSHADED: u32 = 0x1;
    /// 0x2: sphere environment map
    pub const SPHERE_ENVIRONMENT_MAP: u32 = 0x2;
    /// 0x10: two sided
    pub const TWO_SIDED: u32 = 0x10;
    /// 0x20: unfogged
    pub const UNFOGGED: u32 = 0x20;
    /// 0x40: no depth test
    pub const NO_DEPTH_TEST: u32 = 0x40;
    /// 0x80: no depth set
    pub const NO_DEPTH_SET: u32 = 0x80;
    /// 0x100: unlit (version > 800)
    pub const UNLIT: u32 = 0x100;
}

/// `Material`: an ordered group of layers.
///
/// ```text
/// Material {
///   uint32 inclusiveSize
///   uint32 priorityPlane
///   uint32 flags
///   if (version == 900 || version == 1000) char[80] shader
///   char[4] "LAYS"
///   uint32 layersCount
///   Layer[layersCount] layers
/// }
/// ```
/// The seed puts `shader` in every version > 800; real files have it in 900 and
/// 1000 only (`MDX_VERSIONS.md` §3.1, verified both ways).
///
/// MDL: `Material { flag words, PriorityPlane, Shader, Layer { } ... }`;
/// war3-model's `RenderMode n` (every flag bit at once) reads as
/// `ExtFlags n`. Left out: priority plane 0; `Shader` outside 900 and 1000
/// is dropped (strict: an error).
#[derive(Codec, Mdl, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(inclusive_size)]
#[mdl(
    block = "Material",
    order(flags, priority_plane, shader, layers, unknown)
)]
pub struct Material {
    /// Draw order (-1 seen).
    #[mdl(nonzero)]
    pub priority_plane: i32,
    /// 0x1 constant colour, 0x2 two-sided, 0x8 sort near z, 0x10 sort far z, 0x20 full resolution.
    #[mdl(
        flags(
            ConstantColor = 0x1,
            TwoSided = 0x2,
            SortPrimsNearZ = 0x8,
            SortPrimsFarZ = 0x10,
            FullResolution = 0x20
        ),
        alias = "RenderMode"
    )]
    pub flags: u32,
    /// `Shader_HD_DefaultUnit` or empty (900 and 1000).
    #[format(if = version > 800 && version < 1100)]
    #[mdl(since = 801, until = 1100)]
    pub shader: Option<FixedStr<80>>,
    /// The layers, drawn in order.
    #[format(tag = "LAYS", count = u32)]
    #[mdl(nested)]
    pub layers: Vec<Layer>,
    /// Sub-chunks the spec does not list, verbatim (none in known files).
    #[format(tagged)]
    #[mdl(tracks)]
    pub unknown: Vec<UnknownTail>,
}

impl Material {
    /// Whether `shader` (versions 900 and 1000) names an HD shader
    /// (`Shader_HD_DefaultUnit`, any case): the material's layers are then
    /// its texture slots, in order diffuse, normal, ORM, emissive, team
    /// colour, environment.
    pub fn has_hd_shader(&self) -> bool {
        self.shader.as_ref().is_some_and(|s| {
            s.text()
                .get(..9)
                .is_some_and(|p| p.eq_ignore_ascii_case(b"Shader_HD"))
        })
    }

    /// Whether Reforged's HD renderer draws the material: an HD shader (900,
    /// 1000) or a first layer that is HD (1100 and later, see
    /// [`Layer::is_hd`]).
    ///
    /// ```
    /// use formats::mdx::Model;
    ///
    /// let model = Model::from_bytes(&formats::sample::sample_mdx())?;
    /// assert!(model.materials().iter().all(|m| !m.is_hd()));
    /// let mut hd = model.materials()[0].clone();
    /// hd.shader = Some("Shader_HD_DefaultUnit".try_into()?);
    /// assert!(hd.has_hd_shader() && hd.is_hd());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_hd(&self) -> bool {
        self.has_hd_shader() || self.layers.first().is_some_and(Layer::is_hd)
    }
}

impl Layer {
    /// Whether the layer is drawn by the HD shader (`shaderTypeId` 1, 1100
    /// and later): its texture list is then its slots, as
    /// [`Material::has_hd_shader`] layers are.
    pub fn is_hd(&self) -> bool {
        self.shader_type_id == Some(1)
    }
}

/// `MTLS { Material[?] materials }`
#[derive(Codec, Mdl, Clone, Debug, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[format(chunk = "MTLS")]
#[mdl(block = "Materials")]
pub struct MaterialChunk {
    /// The materials; geosets refer to them by index.
    #[format(until_end)]
    #[mdl(items)]
    pub materials: Vec<Material>,
}
