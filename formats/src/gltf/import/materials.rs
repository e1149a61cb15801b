//! glTF materials to MDX materials of one layer, and their base colour
//! images to BLP textures (the [`import`](super::import()) docs'
//! "Materials").

use std::collections::{BTreeMap, BTreeSet};

use format_core::FixedStr;

use crate::blp::{Blp, RgbaImage, Target};
use crate::mdx::material::shading_flags;
use crate::mdx::{FilterMode, Layer, Material, Texture};

use super::report::ImportReport;
use super::scene::mdx_extras;
use super::{ImportOptions, ImportedTexture, TextureMode, fixed};

/// The texture an untextured material gets.
pub(super) const WHITE: &str = "Textures\\white.blp";

/// What the materials became: the MDX materials (glTF material `m` is
/// `by_gltf[m]`, the default material last when a primitive uses it), the
/// textures and the files to write.
pub(super) struct Materials {
    pub materials: Vec<Material>,
    pub textures: Vec<Texture>,
    pub files: Vec<ImportedTexture>,
    pub by_gltf: BTreeMap<Option<usize>, u32>,
}

/// A file name's characters the game's paths take (others become `_`).
fn clean(name: &str) -> String {
    let stem = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
    let out: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_ ".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if out.trim().is_empty() {
        "texture".into()
    } else {
        out
    }
}

/// `name`, or with as many `_` after it as make it a name not `taken`
/// (ASCII case ignored), which it then is. Past a few, a number goes
/// before the `_`: thousands of images of one name take a few steps each.
fn unique(name: String, taken: &mut BTreeSet<String>) -> String {
    let free = |n: &String, taken: &BTreeSet<String>| !taken.contains(&n.to_ascii_lowercase());
    let mut out = name.clone();
    for _ in 0..4 {
        if free(&out, taken) {
            break;
        }
        out.push('_');
    }
    let mut k = taken.len();
    while !free(&out, taken) {
        out = format!("{name}_{k}");
        k += 1;
    }
    taken.insert(out.to_ascii_lowercase());
    out
}

/// An image's name: its `name`, else its URI's file name.
fn image_name(document: &gltf::Document, image: usize) -> String {
    let json = document.as_json().images.get(image);
    json.and_then(|i| i.name.clone())
        .or_else(|| {
            json.and_then(|i| i.uri.clone())
                .filter(|u| !u.starts_with("data:"))
        })
        .map_or_else(|| format!("texture{image}"), |n| clean(&n))
}

/// The materials `used` (glTF indices; `None`: the default material).
pub(super) fn materials(
    document: &gltf::Document,
    images: &[Result<RgbaImage, super::ImageProblem>],
    used: &[Option<usize>],
    options: &ImportOptions<'_>,
    report: &mut ImportReport,
) -> Materials {
    let mut out = Materials {
        materials: Vec::new(),
        textures: Vec::new(),
        files: Vec::new(),
        by_gltf: BTreeMap::new(),
    };
    // TEXS index of each (path, replaceable id).
    let mut texture_of: BTreeMap<(String, u32), i32> = BTreeMap::new();
    // The path of each image named so far (an image used by several
    // materials is one texture), and the names taken (ASCII lowercase).
    let mut path_of: BTreeMap<usize, String> = BTreeMap::new();
    let mut names_taken: BTreeSet<String> = BTreeSet::new();
    for &m in used {
        let material = m.and_then(|m| document.materials().nth(m));
        let at = m.map_or_else(
            || "the default material".to_owned(),
            |m| format!("materials[{m}]"),
        );
        let mdx = material.as_ref().and_then(|m| mdx_extras(m.extras()));
        let pbr = material.as_ref().map(|m| m.pbr_metallic_roughness());
        let base = pbr.as_ref().and_then(|p| p.base_color_texture());
        let image = base.as_ref().map(|info| info.texture().source().index());
        let image = match image.map(|i| (i, images.get(i))) {
            Some((i, Some(Ok(_)))) => Some(i),
            Some((i, Some(Err(why)))) => {
                report.drop(format!("images[{i}]"), format!("{why}: {at} has no image"));
                None
            }
            Some((i, None)) => {
                report.drop(
                    format!("images[{i}]"),
                    format!("missing: {at} has no image"),
                );
                None
            }
            None => None,
        };
        // The path and replaceable id: as an export of this workspace
        // recorded them, else from the image's name, else the white texture.
        let recorded_id = mdx
            .as_ref()
            .and_then(|m| m.get("replaceableId")?.as_u64())
            .and_then(|id| u32::try_from(id).ok())
            .unwrap_or(0);
        let recorded_path = mdx
            .as_ref()
            .and_then(|m| m.get("texture")?.as_str().map(str::to_owned))
            .filter(|p| !p.is_empty());
        let (path, replaceable_id, image) = match (recorded_id, recorded_path, image) {
            (1.., _, _) => (String::new(), recorded_id, None),
            (0, Some(path), image) if options.textures == TextureMode::Blp || image.is_none() => {
                // A recorded `.dds` or `.tif` path whose image is written as
                // BLP is named `.blp`, so the file's name says what it holds.
                let stem = path
                    .rsplit_once('.')
                    .map_or(path.as_str(), |(stem, _)| stem);
                let blp = format!("{stem}.blp");
                if image.is_some() && !path.to_ascii_lowercase().ends_with(".blp") {
                    report.rename(path.clone(), format!("{blp} (the image is written as BLP)"));
                    (blp, 0, image)
                } else {
                    (path, 0, image)
                }
            }
            (0, _, Some(i)) => {
                let original = document.as_json().images.get(i).and_then(|j| j.uri.clone());
                match (options.textures, original) {
                    // Named by its file, which stays as it is: nothing to encode.
                    (TextureMode::Keep, Some(uri)) if !uri.starts_with("data:") => (uri, 0, None),
                    // An image inside the document has no file to name: a
                    // BLP of it, in either mode (one for every material
                    // showing it).
                    _ => {
                        let path = path_of.entry(i).or_insert_with(|| {
                            let name = unique(image_name(document, i), &mut names_taken);
                            format!("{}{name}.blp", options.texture_folder)
                        });
                        (path.clone(), 0, Some(i))
                    }
                }
            }
            (0, _, None) => (WHITE.to_owned(), 0, None),
        };
        let next = out.textures.len() as i32;
        let texture_id = match texture_of.get(&(path.clone(), replaceable_id)) {
            Some(&id) => id,
            None => {
                texture_of.insert((path.clone(), replaceable_id), next);
                let (file_name, renamed) = fixed::<260>(&path);
                if renamed {
                    report.rename(path.clone(), file_name.to_string_lossy().into_owned());
                }
                if let Some(i) = image
                    && let Some(Ok(pixels)) = images.get(i)
                {
                    let target = if pixels.has_alpha() {
                        Target::Blp1Palette
                    } else {
                        Target::Blp1Jpeg
                    };
                    let bytes = Blp::encode(pixels, target)
                        .map_err(|e| e.to_string())
                        .and_then(|blp| blp.to_bytes().map_err(|e| e.to_string()));
                    match bytes {
                        Ok(blp) => out.files.push(ImportedTexture {
                            path: file_name.to_string_lossy().into_owned(),
                            blp,
                            image: i,
                        }),
                        Err(why) => report
                            .drop(format!("images[{i}]"), format!("not encoded as BLP: {why}")),
                    }
                }
                out.textures.push(Texture {
                    replaceable_id,
                    file_name,
                    flags: 0,
                });
                next
            }
        };
        let (mut filter_mode, two_sided, unlit, uv_set) = match &material {
            Some(mat) => (
                match mat.alpha_mode() {
                    gltf::material::AlphaMode::Opaque => FilterMode::None,
                    gltf::material::AlphaMode::Mask => FilterMode::Transparent,
                    gltf::material::AlphaMode::Blend => FilterMode::Blend,
                },
                mat.double_sided(),
                mat.unlit(),
                base.as_ref().map_or(0, |b| b.tex_coord()),
            ),
            None => (FilterMode::None, false, false, 0),
        };
        // The filter modes glTF has no alpha mode for (additive, modulate),
        // as an export of this workspace recorded them.
        if let Some(mode) = (mdx.as_ref())
            .and_then(|m| m.get("filterMode")?.as_u64())
            .and_then(|m| u32::try_from(m).ok())
            .filter(|&m| m <= 6)
        {
            filter_mode = FilterMode::from(mode);
        }
        let mut alpha = 1.0;
        if let Some(pbr) = &pbr {
            let [r, g, b, a] = pbr.base_color_factor();
            alpha = if a.is_finite() {
                a.clamp(0.0, 1.0)
            } else {
                1.0
            };
            if [r, g, b] != [1.0; 3] {
                report.approximate(
                    at.clone(),
                    format!("baseColorFactor's colour [{r}, {g}, {b}] left out (a layer has alpha, not colour)"),
                );
            }
        }
        if let Some(mat) = &material {
            for (slot, present) in [
                ("normalTexture", mat.normal_texture().is_some()),
                ("occlusionTexture", mat.occlusion_texture().is_some()),
                ("emissiveTexture", mat.emissive_texture().is_some()),
                (
                    "metallicRoughnessTexture",
                    pbr.as_ref()
                        .is_some_and(|p| p.metallic_roughness_texture().is_some()),
                ),
            ] {
                if present {
                    report.drop(
                        at.clone(),
                        format!("{slot} (a classic layer draws the base colour only)"),
                    );
                }
            }
        }
        let mut shading_flags = 0;
        if two_sided {
            shading_flags |= shading_flags::TWO_SIDED;
        }
        if unlit {
            shading_flags |= shading_flags::UNSHADED;
        }
        let layer = Layer {
            filter_mode,
            shading_flags,
            texture_id,
            texture_animation_id: -1,
            coord_id: uv_set,
            alpha,
            emissive_gain: Some(1.0),
            fresnel: Some(crate::mdx::Fresnel::DEFAULT),
            shader_type_id: None,
            textures: None,
            tracks: Vec::new(),
        };
        out.by_gltf.insert(m, out.materials.len() as u32);
        out.materials.push(Material {
            priority_plane: 0,
            flags: 0,
            shader: Some(FixedStr::default()),
            layers: vec![layer],
            unknown: Vec::new(),
        });
    }
    out
}
