//! Changing a model's version: every version-dependent field adapted, and a
//! list of what the target version cannot hold.

use core::fmt;

/// Something a version change would lose (or, when forced, lost).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionLoss {
    /// Where it is (`materials[2].layers[0].fresnel`).
    pub path: String,
    /// What it is and why the target cannot hold it.
    pub what: String,
}

impl fmt::Display for VersionLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}

use format_core::FixedStr;

use super::alpha;
use super::chunk::Chunk;
use super::header::VersionChunk;
use super::material::{Fresnel, LayerTrack, Material, TextureEntry};
use super::model::Model;

/// The versions this module reads and writes.
pub const SUPPORTED_VERSIONS: [u32; 5] = [800, 900, 1000, 1100, 1200];
/// The WoW alpha versions this module reads and writes.
pub const ALPHA_VERSIONS: [u32; 3] = [1300, 1400, 1500];

/// `emissiveGain` when a file has no value for it (every static value in the corpus is 1.0 or NaN).
const DEFAULT_EMISSIVE_GAIN: f32 = 1.0;
/// The fresnel block of every SD layer in the corpus.
const DEFAULT_FRESNEL: Fresnel = Fresnel {
    color: [1.0, 1.0, 1.0],
    opacity: 0.0,
    team_color: 0.0,
};
/// `shadowIntensity` for lights from before 1200 (the value HiveWE, RMS and WOL assume).
const DEFAULT_SHADOW_INTENSITY: f32 = 0.4;

impl Model {
    /// Changes the version to `target` (800, 900, 1000, 1100 or 1200, or
    /// between the alpha versions 1300, 1400 and 1500), adapting
    /// every version-dependent field: fields the target adds get the values
    /// real files carry when unused (emissive gain 1, fresnel white with
    /// opacity 0, LOD 0, shadow intensity 0.4), fields it lacks are dropped when
    /// they hold exactly those values. If anything else would be lost, nothing
    /// changes and the list says what and where.
    ///
    /// ```
    /// # let bytes = formats::sample::sample_mdx();
    /// let mut model = formats::mdx::Model::from_bytes(&bytes)?;
    /// model.set_version(1000).expect("an 800 model fits in 1000");
    /// model.set_version(800).expect("and back, nothing was added");
    /// assert_eq!(model.to_bytes()?, bytes);
    /// # Ok::<(), formats::Error>(())
    /// ```
    pub fn set_version(&mut self, target: u32) -> Result<(), Vec<VersionLoss>> {
        let mut converted = self.clone();
        let losses = converted.force_version(target);
        if losses.is_empty() {
            *self = converted;
            Ok(())
        } else {
            Err(losses)
        }
    }

    /// Changes the version to `target` like [`set_version`](Model::set_version),
    /// dropping what the target cannot hold; returns what was dropped. An
    /// unsupported target, or a change between the Warcraft III versions and
    /// the WoW alpha ones, changes nothing and is reported as the only loss.
    pub fn force_version(&mut self, target: u32) -> Vec<VersionLoss> {
        let mut losses = Vec::new();
        let source = self.version();
        if source >= alpha::FIRST_VERSION || target >= alpha::FIRST_VERSION {
            return alpha_version_losses(self, source, target);
        }
        if !SUPPORTED_VERSIONS.contains(&target) {
            losses.push(VersionLoss {
                path: "VERS".into(),
                what: format!("version {target} is not one of {SUPPORTED_VERSIONS:?}"),
            });
            return losses;
        }
        let mut lose = |path: String, what: &str| {
            losses.push(VersionLoss {
                path,
                what: format!("{what} (version {target} cannot hold it)"),
            })
        };
        if !self.chunks.iter().any(|c| matches!(c, Chunk::Version(_))) {
            self.chunks
                .insert(0, Chunk::Version(VersionChunk { version: target }));
        }
        let mut kept = Vec::with_capacity(self.chunks.len());
        for (index, mut chunk) in core::mem::take(&mut self.chunks).into_iter().enumerate() {
            let at = format!("chunks[{index}]");
            match &mut chunk {
                Chunk::Version(v) => v.version = target,
                Chunk::Materials(m) => {
                    for (i, material) in m.materials.iter_mut().enumerate() {
                        convert_material(
                            material,
                            target,
                            &format!("{at}.materials[{i}]"),
                            &mut lose,
                        );
                    }
                }
                Chunk::Geosets(g) => {
                    for (i, geoset) in g.geosets.iter_mut().enumerate() {
                        let path = format!("{at}.geosets[{i}]");
                        if target > 800 {
                            geoset.lod.get_or_insert(0);
                            geoset.lod_name.get_or_insert_with(FixedStr::default);
                        } else {
                            if geoset.lod.take().is_some_and(|lod| lod != 0) {
                                lose(format!("{path}.lod"), "a level of detail other than 0");
                            }
                            if geoset
                                .lod_name
                                .take()
                                .is_some_and(|n| n != FixedStr::default())
                            {
                                lose(format!("{path}.lod_name"), "a level-of-detail name");
                            }
                            if geoset.tangents.take().is_some() {
                                lose(format!("{path}.tangents"), "tangents (TANG)");
                            }
                            if geoset.skin.take().is_some() {
                                lose(format!("{path}.skin"), "skin weights (SKIN)");
                            }
                        }
                    }
                }
                Chunk::Lights(l) => {
                    for (i, light) in l.lights.iter_mut().enumerate() {
                        if target >= 1200 {
                            light
                                .shadow_intensity
                                .get_or_insert(DEFAULT_SHADOW_INTENSITY);
                        } else if light
                            .shadow_intensity
                            .take()
                            .is_some_and(|s| s.to_bits() != DEFAULT_SHADOW_INTENSITY.to_bits())
                        {
                            lose(
                                format!("{at}.lights[{i}].shadow_intensity"),
                                "a shadow intensity other than 0.4",
                            );
                        }
                    }
                }
                Chunk::CornEmitters(_) | Chunk::FaceEffects(_) | Chunk::BindPoses(_)
                    if target <= 800 =>
                {
                    lose(
                        at,
                        "a chunk that exists only after version 800 (CORN, FAFX or BPOS)",
                    );
                    continue;
                }
                _ => {}
            }
            kept.push(chunk);
        }
        self.chunks = kept;
        losses
    }
}

/// A version change that involves the WoW alpha versions. Between 1300 and
/// 1400 only `VERS` changes (no source knows a structural difference); a
/// change to or from 1500 is done when the model has no `GEOS` (whose layout
/// 1500 redesigned). Converting between the Warcraft III layouts (800 to 1200)
/// and the alpha ones is not supported: it changes nothing and is reported.
fn alpha_version_losses(model: &mut Model, source: u32, target: u32) -> Vec<VersionLoss> {
    let refuse = |path: String, what: String| vec![VersionLoss { path, what }];
    if !ALPHA_VERSIONS.contains(&target) || source < alpha::FIRST_VERSION {
        return refuse(
            "VERS".into(),
            format!(
                "converting version {source} to {target} is not supported: only within \
                 {SUPPORTED_VERSIONS:?} (Warcraft III) or within {ALPHA_VERSIONS:?} (WoW alpha)"
            ),
        );
    }
    let batched = |v: u32| v >= alpha::BATCHED_GEOSETS_VERSION;
    if batched(source) != batched(target) {
        let geosets = model
            .chunks
            .iter()
            .position(|c| matches!(c, Chunk::AlphaGeosets(_) | Chunk::AlphaBatchedGeosets(_)));
        if let Some(index) = geosets {
            return refuse(
                format!("chunks[{index}]"),
                format!(
                    "geosets: version 1500 redesigned GEOS; converting them between {source} \
                     and {target} is not supported"
                ),
            );
        }
    }
    for chunk in &mut model.chunks {
        if let Chunk::Version(v) = chunk {
            v.version = target;
        }
    }
    Vec::new()
}

fn convert_material(
    material: &mut Material,
    target: u32,
    path: &str,
    lose: &mut impl FnMut(String, &str),
) {
    let shader_string = (900..1100).contains(&target);
    match (&material.shader, shader_string) {
        (None, true) => material.shader = Some(FixedStr::default()),
        (Some(shader), false) => {
            if *shader != FixedStr::default() {
                lose(
                    format!("{path}.shader"),
                    "a material shader name (900 and 1000 only)",
                );
            }
            material.shader = None;
        }
        _ => {}
    }
    for (i, layer) in material.layers.iter_mut().enumerate() {
        let path = format!("{path}.layers[{i}]");
        // 900: emissive gain; 1000: the fresnel block; 900 keeps what it has.
        if target >= 900 {
            layer.emissive_gain.get_or_insert(DEFAULT_EMISSIVE_GAIN);
        } else if layer
            .emissive_gain
            .take()
            .is_some_and(|g| g.to_bits() != DEFAULT_EMISSIVE_GAIN.to_bits())
        {
            lose(
                format!("{path}.emissive_gain"),
                "an emissive gain other than 1",
            );
        }
        if target >= 1000 {
            layer.fresnel.get_or_insert(DEFAULT_FRESNEL);
        } else if target < 900
            && layer
                .fresnel
                .take()
                .is_some_and(|f| !same_bits(&f, &DEFAULT_FRESNEL))
        {
            lose(
                format!("{path}.fresnel"),
                "a fresnel block other than the default",
            );
        }
        if target <= 800 {
            let before = layer.tracks.len();
            layer.tracks.retain(|t| {
                !matches!(
                    t,
                    LayerTrack::EmissiveGain(_)
                        | LayerTrack::FresnelColor(_)
                        | LayerTrack::FresnelAlpha(_)
                        | LayerTrack::FresnelTeamColor(_)
                )
            });
            if layer.tracks.len() != before {
                lose(
                    format!("{path}.tracks"),
                    "emissive or fresnel tracks (KMTE, KFC3, KFCA, KFTC)",
                );
            }
        }
        // 1100: the texture list replaces the layer's texture id.
        if target >= 1100 {
            if layer.textures.is_none() {
                let track = layer
                    .tracks
                    .iter()
                    .position(|t| matches!(t, LayerTrack::TextureId(_)))
                    .map(|at| layer.tracks.remove(at));
                layer.textures = Some(vec![TextureEntry {
                    texture_id: layer.texture_id,
                    slot: 0,
                    texture_id_track: match track {
                        Some(LayerTrack::TextureId(track)) => Some(track),
                        _ => None,
                    },
                }]);
                layer.texture_id = 0;
                layer.shader_type_id = Some(0);
            }
        } else {
            if layer.shader_type_id.take().is_some_and(|id| id != 0) {
                lose(
                    format!("{path}.shader_type_id"),
                    "an HD layer (shaderTypeId 1)",
                );
            }
            if let Some(mut textures) = layer.textures.take() {
                if textures.len() != 1 || textures.first().is_some_and(|t| t.slot != 0) {
                    lose(
                        format!("{path}.textures"),
                        "a texture list other than one diffuse texture",
                    );
                }
                if let Some(first) = textures.first_mut() {
                    layer.texture_id = first.texture_id;
                    if let Some(track) = first.texture_id_track.take() {
                        layer.tracks.insert(0, LayerTrack::TextureId(track));
                    }
                }
            }
        }
    }
}

/// Bitwise equality (`-0.0` is not `0.0`, a NaN equals itself).
fn same_bits(a: &Fresnel, b: &Fresnel) -> bool {
    let bits = |f: &Fresnel| {
        let [r, g, b] = f.color;
        [r, g, b, f.opacity, f.team_color].map(f32::to_bits)
    };
    bits(a) == bits(b)
}
