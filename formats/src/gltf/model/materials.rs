//! Materials from the model's layers, and their textures from a
//! [`TextureSource`]; the mapping is in the [`gltf`](crate::gltf#materials)
//! docs.

use std::collections::HashMap;

use gltf_json as json;
use json::Index;
use json::material::{AlphaCutoff, AlphaMode, EmissiveFactor, PbrBaseColorFactor, StrengthFactor};
use json::texture::{Info, WrappingMode};
use json::validation::Checked;

use crate::gltf::builder::Builder;
use crate::gltf::textures::{TextureSource, flat_png};
use crate::mdx::Model;
use crate::mdx::material::shading_flags;

/// What an HD texture is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Diffuse,
    Normal,
    Orm,
    Emissive,
}

impl Role {
    /// The role of slot (or HD layer) `n`: 0 diffuse, 1 normal, 2 ORM,
    /// 3 emissive (4 team colour and 5 environment have none here).
    fn of(n: usize) -> Option<Role> {
        [Role::Diffuse, Role::Normal, Role::Orm, Role::Emissive]
            .get(n)
            .copied()
    }
}

/// One material's layer, whatever the version.
#[derive(Clone, Debug, PartialEq)]
struct LayerInfo {
    filter: u32,
    unshaded: bool,
    two_sided: bool,
    alpha: f32,
    coord: u32,
    /// `TEXS` indices by role.
    textures: Vec<(Role, usize)>,
    /// The texture animation (`TXAN` index) of the layer the textures come
    /// from.
    texture_animation: Option<usize>,
    /// An HD material's textures: `(slot, TEXS index)` in the order the
    /// file has them, every slot (team colour and reflection too); empty
    /// for an SD material.
    slots: Vec<(u32, i32)>,
}

/// The materials of a model as glTF materials.
pub(super) struct Materials<'a> {
    source: &'a dyn TextureSource,
    /// Textures by `TEXS` index, and whether for a normal map.
    textures: HashMap<(usize, bool), Option<Index<json::Texture>>>,
    /// Images by path (or placeholder name), and whether for a normal map
    /// ([`TextureSource::normal_png`]): a path two `TEXS` entries name is
    /// embedded once.
    images: HashMap<(String, bool), Index<json::Image>>,
    samplers: HashMap<u32, Index<json::texture::Sampler>>,
    /// Texture paths the source could not give, with why.
    pub(super) missing: Vec<(String, crate::gltf::textures::TextureError)>,
    /// Texture paths found and embedded.
    pub(super) embedded: Vec<String>,
    /// Replaceable textures (team colour, team glow...) embedded as
    /// flat-colour placeholders, by name (`Replaceable Texture 1`).
    pub(super) placeholders: Vec<String>,
}

impl<'a> Materials<'a> {
    /// Materials whose textures come from `source`.
    pub(super) fn new(source: &'a dyn TextureSource) -> Self {
        Materials {
            source,
            textures: HashMap::new(),
            images: HashMap::new(),
            samplers: HashMap::new(),
            missing: Vec::new(),
            embedded: Vec::new(),
            placeholders: Vec::new(),
        }
    }

    /// Adds every material of `model`; `uv_sets(id)` is the fewest UV sets a
    /// geoset of material `id` has (a layer's UV set past it falls back to
    /// set 0). Returns the glTF material of each model material.
    pub(super) fn add_all(
        &mut self,
        b: &mut Builder,
        model: &Model,
        uv_sets: impl Fn(usize) -> usize,
    ) -> Vec<Index<json::Material>> {
        let layers = first_layers(model);
        let mut out = Vec::with_capacity(layers.len());
        for (i, layer) in layers.into_iter().enumerate() {
            let name = format!("Material {i}");
            let material = match layer {
                Some(layer) => self.material(b, model, name, &layer, uv_sets(i)),
                None => b.push(json::Material {
                    name: Some(name),
                    ..Default::default()
                }),
            };
            out.push(material);
        }
        out
    }

    fn material(
        &mut self,
        b: &mut Builder,
        model: &Model,
        name: String,
        layer: &LayerInfo,
        uv_sets: usize,
    ) -> Index<json::Material> {
        let tex_coord = if (layer.coord as usize) < uv_sets.max(1) {
            layer.coord
        } else {
            0
        };
        let mut material = json::Material {
            name: Some(name),
            double_sided: layer.two_sided,
            alpha_mode: Checked::Valid(match layer.filter {
                0 => AlphaMode::Opaque,
                1 => AlphaMode::Mask,
                _ => AlphaMode::Blend,
            }),
            alpha_cutoff: (layer.filter == 1).then_some(AlphaCutoff(0.75)),
            ..Default::default()
        };
        // What glTF has no field for, for the import to read back
        // (`gltf::import`): the filter mode and the diffuse texture's path;
        // whether the material is HD, and each of its slots' textures.
        let diffuse = (layer.textures.iter())
            .find(|(role, _)| *role == Role::Diffuse)
            .and_then(|&(_, id)| model.textures().get(id));
        let mut extras = serde_json::json!({
            "filterMode": layer.filter,
            "texture": diffuse.map(|t| t.file_name.to_string_lossy().into_owned()),
            "replaceableId": diffuse.map(|t| t.replaceable_id),
            "hd": !layer.slots.is_empty(),
        });
        if !layer.slots.is_empty() {
            let slots: Vec<serde_json::Value> = (layer.slots.iter())
                .map(|&(slot, id)| {
                    let texture = usize::try_from(id)
                        .ok()
                        .and_then(|i| model.textures().get(i));
                    serde_json::json!({
                        "slot": slot,
                        "texture": texture.map(|t| t.file_name.to_string_lossy().into_owned()),
                        "replaceableId": texture.map(|t| t.replaceable_id),
                        "flags": texture.map(|t| t.flags),
                    })
                })
                .collect();
            if let Some(object) = extras.as_object_mut() {
                object.insert("slots".into(), slots.into());
            }
        }
        material.extras = mdx_extras(extras);
        let alpha = if layer.alpha.is_finite() {
            layer.alpha.clamp(0.0, 1.0)
        } else {
            1.0
        };
        let pbr = &mut material.pbr_metallic_roughness;
        pbr.base_color_factor = PbrBaseColorFactor([1.0, 1.0, 1.0, alpha]);
        pbr.metallic_factor = StrengthFactor(0.0);
        pbr.roughness_factor = StrengthFactor(1.0);
        for &(role, texture_id) in &layer.textures {
            let Some(index) = self.texture(b, model, texture_id, role == Role::Normal) else {
                continue;
            };
            let info = Info {
                index,
                tex_coord,
                extensions: None,
                extras: Default::default(),
            };
            match role {
                Role::Diffuse => material.pbr_metallic_roughness.base_color_texture = Some(info),
                Role::Normal => {
                    material.normal_texture = Some(json::material::NormalTexture {
                        index,
                        scale: 1.0,
                        tex_coord,
                        extensions: None,
                        extras: Default::default(),
                    })
                }
                Role::Orm => {
                    material.occlusion_texture = Some(json::material::OcclusionTexture {
                        index,
                        strength: StrengthFactor(1.0),
                        tex_coord,
                        extensions: None,
                        extras: Default::default(),
                    });
                    let pbr = &mut material.pbr_metallic_roughness;
                    pbr.metallic_roughness_texture = Some(info);
                    pbr.metallic_factor = StrengthFactor(1.0);
                }
                Role::Emissive => {
                    material.emissive_texture = Some(info);
                    material.emissive_factor = EmissiveFactor([1.0; 3]);
                }
            }
        }
        if layer.unshaded {
            b.use_extension("KHR_materials_unlit", false);
            material.extensions = Some(json::extensions::material::Material {
                unlit: Some(json::extensions::material::Unlit {}),
                ..Default::default()
            });
        }
        b.push(material)
    }

    /// The glTF texture of `TEXS` entry `id` (made once), `None` when it has
    /// no image; `normal`: for a normal map.
    fn texture(
        &mut self,
        b: &mut Builder,
        model: &Model,
        id: usize,
        normal: bool,
    ) -> Option<Index<json::Texture>> {
        if let Some(done) = self.textures.get(&(id, normal)) {
            return *done;
        }
        let made = self.make_texture(b, model, id, normal);
        self.textures.insert((id, normal), made);
        made
    }

    fn make_texture(
        &mut self,
        b: &mut Builder,
        model: &Model,
        id: usize,
        normal: bool,
    ) -> Option<Index<json::Texture>> {
        let texture = model.textures().get(id)?;
        let name = if texture.replaceable_id != 0 {
            format!("Replaceable Texture {}", texture.replaceable_id)
        } else {
            texture.file_name.to_string_lossy().into_owned()
        };
        let source = match self.images.get(&(name.clone(), normal)) {
            Some(image) => *image,
            None => {
                let png = if texture.replaceable_id != 0 {
                    let rgba = match texture.replaceable_id {
                        1 | 2 => [255, 3, 3, 255],
                        _ => [128, 128, 128, 255],
                    };
                    let png = flat_png(rgba).ok()?;
                    if !self.placeholders.contains(&name) {
                        self.placeholders.push(name.clone());
                    }
                    png
                } else {
                    let png = if normal {
                        self.source.normal_png(&name)
                    } else {
                        self.source.png(&name)
                    };
                    match png {
                        Ok(png) => {
                            if !self.embedded.contains(&name) {
                                self.embedded.push(name.clone());
                            }
                            png
                        }
                        Err(why) => {
                            if !self.missing.iter().any(|(p, _)| *p == name) {
                                self.missing.push((name, why));
                            }
                            return None;
                        }
                    }
                };
                let image = b.png_image(&name, png);
                self.images.insert((name.clone(), normal), image);
                image
            }
        };
        let sampler = self.sampler(b, texture.flags);
        Some(b.push(json::Texture {
            name: Some(name),
            sampler: Some(sampler),
            source,
            extensions: None,
            extras: Default::default(),
        }))
    }

    /// The sampler for `TEXS` flags (0x1 wrap width, 0x2 wrap height; no flag:
    /// clamp).
    fn sampler(&mut self, b: &mut Builder, flags: u32) -> Index<json::texture::Sampler> {
        let flags = flags & 3;
        *self.samplers.entry(flags).or_insert_with(|| {
            let wrap = |bit: u32| {
                Checked::Valid(if flags & bit != 0 {
                    WrappingMode::Repeat
                } else {
                    WrappingMode::ClampToEdge
                })
            };
            b.push(json::texture::Sampler {
                wrap_s: wrap(1),
                wrap_t: wrap(2),
                ..Default::default()
            })
        })
    }
}

/// The layer each material is exported from (`None` for a material without layers).
fn first_layers(model: &Model) -> Vec<Option<LayerInfo>> {
    let index = |id: i64| usize::try_from(id).ok();
    // A texture that is a file (not team colour, team glow, ...).
    let is_file = |id: Option<usize>| {
        id.and_then(|t| model.textures().get(t))
            .is_some_and(|t| t.replaceable_id == 0)
    };
    let mut out: Vec<Option<LayerInfo>> = model
        .materials()
        .iter()
        .map(|material| {
            let first = material.layers.first()?;
            let hd_shader = material.has_hd_shader();
            // The diffuse texture of a layer: its own, or (1100 and later)
            // the first of its list.
            let diffuse = |layer: &crate::mdx::Layer| match &layer.textures {
                Some(entries) => entries.first().and_then(|e| index(i64::from(e.texture_id))),
                None => index(i64::from(layer.texture_id)),
            };
            // The layer the textures come from: the first whose diffuse
            // texture is a file (a unit's team colour layer is under it).
            let textured = material
                .layers
                .iter()
                .find(|l| is_file(diffuse(l)))
                .unwrap_or(first);
            let textures: Vec<(Role, usize)> = match &textured.textures {
                // 1100 and later: the layer's texture list, by slot (an SD
                // layer: its first texture only).
                Some(entries) => entries
                    .iter()
                    .enumerate()
                    .filter(|(n, _)| textured.is_hd() || *n == 0)
                    .filter_map(|(n, e)| Some((Role::of(n)?, index(i64::from(e.texture_id))?)))
                    .collect(),
                // 900 and 1000 HD: one layer per role.
                None if hd_shader => material
                    .layers
                    .iter()
                    .enumerate()
                    .filter_map(|(n, l)| Some((Role::of(n)?, index(i64::from(l.texture_id))?)))
                    .collect(),
                None => diffuse(textured)
                    .map(|t| (Role::Diffuse, t))
                    .into_iter()
                    .collect(),
            };
            let slots: Vec<(u32, i32)> = match &textured.textures {
                Some(entries) if textured.is_hd() => {
                    entries.iter().map(|e| (e.slot, e.texture_id)).collect()
                }
                None if hd_shader => (0u32..)
                    .zip(&material.layers)
                    .map(|(slot, l)| (slot, l.texture_id))
                    .collect(),
                _ => Vec::new(),
            };
            Some(LayerInfo {
                filter: u32::from(first.filter_mode),
                unshaded: first.shading_flags & shading_flags::UNSHADED != 0,
                two_sided: first.shading_flags & shading_flags::TWO_SIDED != 0,
                alpha: first.alpha,
                coord: textured.coord_id,
                textures,
                texture_animation: usize::try_from(textured.texture_animation_id).ok(),
                slots,
            })
        })
        .collect();
    out.extend(model.alpha_materials().iter().map(|material| {
        use crate::mdx::alpha::material::layer_flags;
        let first = material.tex_layers.first()?;
        let diffuse = |layer: &crate::mdx::alpha::TexLayer| {
            (layer.texture_id != u32::MAX)
                .then(|| index(i64::from(layer.texture_id)))
                .flatten()
        };
        let textured = material
            .tex_layers
            .iter()
            .find(|l| is_file(diffuse(l)))
            .unwrap_or(first);
        Some(LayerInfo {
            filter: first.blend_mode,
            unshaded: first.flags & layer_flags::MODEL_GEO_UNSHADED != 0,
            two_sided: first.flags & layer_flags::MODEL_GEO_TWOSIDED != 0,
            alpha: first.static_alpha,
            coord: u32::try_from(textured.coord_id).unwrap_or(0),
            textures: diffuse(textured)
                .map(|t| (Role::Diffuse, t))
                .into_iter()
                .collect(),
            texture_animation: (textured.transform_id != u32::MAX)
                .then(|| usize::try_from(textured.transform_id).ok())
                .flatten(),
            slots: Vec::new(),
        })
    }));
    out
}

/// The texture animation (`TXAN` index) each model material's textures
/// move by, by material id (Warcraft III materials, then alpha ones), as
/// [`Materials::add_all`] exports them: that of the layer whose textures
/// the material takes.
pub(super) fn texture_animations(model: &Model) -> Vec<Option<usize>> {
    first_layers(model)
        .into_iter()
        .map(|layer| layer?.texture_animation)
        .collect()
}

/// `{"mdx": value}` as a glTF object's `extras`: what an MDX field holds
/// that glTF has no field for, read back by [`import`](crate::gltf::import).
pub(super) fn mdx_extras(value: serde_json::Value) -> json::extras::Extras {
    serde_json::value::to_raw_value(&serde_json::json!({ "mdx": value })).ok()
}
