//! glTF materials to MDX materials: one classic layer each, or (1100 and
//! later) Reforged's HD material of six slots; and their images to BLP and
//! DDS textures (the [`import`](super::import()) docs' "Materials").

use std::collections::{BTreeMap, BTreeSet};

use format_core::FixedStr;

use crate::blp::codec::dxt::Fit;
use crate::blp::{Blp, RgbaImage};
use crate::dds::Dds;
use crate::mdx::material::shading_flags;
use crate::mdx::{FilterMode, Layer, Material, Texture};

use super::report::ImportReport;
use super::scene::mdx_extras;
use super::{ImageProblem, ImportOptions, ImportedTexture, TextureFormat, TextureMode, fixed};

/// The texture a material without a base colour texture gets.
pub(super) const WHITE: &str = "Textures\\white.blp";

/// The version from which glTF materials become HD materials.
pub(super) const HD_FROM: u32 = 1100;

/// `TEXS` flags: wrap width and height (glTF's default sampler repeats;
/// every texture of the corpus's HD materials has them).
const WRAP: u32 = 3;

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

/// `name`, or with as many `_` after it as make `name.extension` a file
/// name not `taken` (ASCII case ignored), which it then is. Past a few, a
/// number goes before the `_`: thousands of images of one name take a few
/// steps each.
fn unique(name: String, extension: &str, taken: &mut BTreeSet<String>) -> String {
    let file = |n: &str| format!("{n}.{extension}").to_ascii_lowercase();
    let free = |n: &str, taken: &BTreeSet<String>| !taken.contains(&file(n));
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
    taken.insert(file(&out));
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

/// What an image is for, and so how its texture is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Use {
    /// A classic layer's texture: BLP1, JPEG when opaque, palette when not.
    Classic,
    /// Colour (an HD diffuse, or a classic layer's with [`TextureMode::Dds`]):
    /// DDS BC1 when opaque, BC3 when not.
    Colour,
    /// A normal map: DDS BC5 (X and Y).
    Normal,
    /// Occlusion, roughness and metallic in red, green and blue, alpha 0:
    /// DDS BC3.
    Orm,
    /// Emissive colour, opaque: DDS BC1.
    Emissive,
}

impl Use {
    fn format(self) -> TextureFormat {
        match self {
            Use::Classic => TextureFormat::Blp,
            _ => TextureFormat::Dds,
        }
    }
}

/// The pixels a slot takes from the document.
#[derive(Clone, Debug, PartialEq)]
struct Wanted {
    kind: Use,
    /// The images: for an ORM the occlusion and the metallic-roughness
    /// image (either may be missing), else the one image (first).
    images: [Option<usize>; 2],
    /// What the pixels are multiplied by: an ORM's occlusion strength,
    /// roughness and metallic factors; an emissive texture's factor; ones
    /// for the others.
    factors: [f32; 3],
    /// `TEXS` flags from its sampler (1 wrap width, 2 wrap height).
    flags: u32,
}

/// A [`Wanted`]'s identity: the same pixels make the same file.
type Key = (Use, [Option<usize>; 2], [u32; 3]);

impl Wanted {
    fn key(&self) -> Key {
        (self.kind, self.images, self.factors.map(f32::to_bits))
    }

    /// The image it is, as it is (which [`TextureMode::Keep`] names by its
    /// file): not an ORM made of two images or scaled by its factors.
    fn as_is(&self) -> Option<usize> {
        let ones = self.factors == [1.0; 3];
        match (self.kind, self.images) {
            (Use::Orm, [Some(a), Some(b)]) if a == b && ones => Some(a),
            (Use::Orm, _) => None,
            (Use::Emissive, [image, _]) if ones => image,
            (Use::Emissive, _) => None,
            (_, [image, _]) => image,
        }
    }

    /// The image its file is named after.
    fn named_after(&self) -> Option<usize> {
        match self.kind {
            Use::Orm => self.images[1].or(self.images[0]),
            _ => self.images[0],
        }
    }

    /// The pixels of its texture's level 0: its largest image's.
    fn pixel_count(&self, images: &[Result<RgbaImage, ImageProblem>]) -> u64 {
        (self.images.iter().flatten())
            .filter_map(|&i| images.get(i)?.as_ref().ok())
            .map(|image| u64::from(image.width) * u64::from(image.height))
            .max()
            .unwrap_or(0)
    }

    /// The images it is made of.
    fn sources(&self) -> Vec<usize> {
        let mut out: Vec<usize> = self.images.iter().flatten().copied().collect();
        out.dedup();
        out
    }

    /// Its pixels, from the decoded `images` (each one it names decoded).
    fn pixels(
        &self,
        images: &[Result<RgbaImage, ImageProblem>],
        at: &str,
        report: &mut ImportReport,
    ) -> Option<RgbaImage> {
        let image = |i: Option<usize>| i.and_then(|i| images.get(i)?.as_ref().ok());
        match self.kind {
            Use::Classic | Use::Colour | Use::Normal => image(self.images[0]).cloned(),
            Use::Emissive => {
                let mut out = image(self.images[0])?.clone();
                for pixel in out.data.as_chunks_mut::<4>().0 {
                    for (c, factor) in pixel.iter_mut().zip(self.factors) {
                        *c = scale(*c, factor);
                    }
                    pixel[3] = 255;
                }
                Some(out)
            }
            Use::Orm => {
                let (occlusion, mr) = (image(self.images[0]), image(self.images[1]));
                let size = |i: &RgbaImage| u64::from(i.width) * u64::from(i.height);
                let larger = match (occlusion, mr) {
                    (Some(o), Some(m)) if size(o) > size(m) => o,
                    (_, Some(m)) => m,
                    (Some(o), None) => o,
                    (None, None) => return None,
                };
                let (width, height) = (larger.width, larger.height);
                for other in [occlusion, mr].into_iter().flatten() {
                    if (other.width, other.height) != (width, height) {
                        report.approximate(
                            at.to_owned(),
                            format!(
                                "the occlusion and metallic-roughness images differ in size: the \
                                 ORM texture takes the {}x{} one's nearest pixels at {width}x{height}",
                                other.width, other.height
                            ),
                        );
                    }
                }
                let [strength, roughness, metallic] = self.factors;
                let mut data = Vec::with_capacity(width as usize * height as usize * 4);
                for y in 0..height {
                    for x in 0..width {
                        let o = occlusion.map_or(255, |i| sample(i, x, y, width, height)[0]);
                        let [_, g, b, _] = mr.map_or([255; 4], |i| sample(i, x, y, width, height));
                        // glTF: occlusion = 1 + strength * (sampled - 1).
                        let o = 255.0 - strength.clamp(0.0, 1.0) * (255.0 - f32::from(o));
                        data.extend([
                            o.round().clamp(0.0, 255.0) as u8,
                            scale(g, roughness),
                            scale(b, metallic),
                            // Alpha is the team colour's strength: none.
                            0,
                        ]);
                    }
                }
                Some(RgbaImage {
                    width,
                    height,
                    data,
                })
            }
        }
    }

    /// Whether its texture's blocks fit colours (BC1, BC3: [`Fit`] matters).
    fn fits_colours(&self) -> bool {
        matches!(self.kind, Use::Colour | Use::Orm | Use::Emissive)
    }

    /// `pixels` as the file its use takes, BC1 and BC3 colours by `fit`.
    fn encode(&self, pixels: &RgbaImage, fit: Fit) -> Result<Vec<u8>, String> {
        use crate::dds::Target;
        let dds = |target| {
            Dds::encode_with(pixels, target, fit)
                .map_err(|e| e.to_string())
                .and_then(|dds| dds.to_bytes().map_err(|e| e.to_string()))
        };
        match self.kind {
            Use::Classic => {
                let target = if pixels.has_alpha() {
                    crate::blp::Target::Blp1Palette
                } else {
                    crate::blp::Target::Blp1Jpeg
                };
                Blp::encode(pixels, target)
                    .map_err(|e| e.to_string())
                    .and_then(|blp| blp.to_bytes().map_err(|e| e.to_string()))
            }
            Use::Colour => dds(Target::colour(pixels)),
            Use::Normal => dds(Target::Bc5),
            Use::Orm => dds(Target::Bc3),
            Use::Emissive => dds(Target::Bc1),
        }
    }
}

/// A channel times a factor (0 to 1), rounded; a factor of 1 keeps it.
fn scale(channel: u8, factor: f32) -> u8 {
    let factor = if factor.is_finite() {
        factor.clamp(0.0, 1.0)
    } else {
        1.0
    };
    (f32::from(channel) * factor).round().clamp(0.0, 255.0) as u8
}

/// The pixel of `image` nearest to pixel `(x, y)` of a `width` x `height` one.
fn sample(image: &RgbaImage, x: u32, y: u32, width: u32, height: u32) -> [u8; 4] {
    let at = |v: u32, from: u32, to: u32| {
        u32::try_from(u64::from(v) * u64::from(to) / u64::from(from.max(1))).unwrap_or(0)
    };
    let (sx, sy) = (at(x, width, image.width), at(y, height, image.height));
    let i = (sy as usize * image.width as usize + sx as usize) * 4;
    image
        .data
        .get(i..i + 4)
        .and_then(|p| p.try_into().ok())
        .unwrap_or([255; 4])
}

/// A texture as the export recorded it in `extras.mdx` (a path, or a
/// replaceable id, and its flags).
#[derive(Clone, Debug, Default)]
struct Recorded {
    path: Option<String>,
    replaceable_id: u32,
    flags: Option<u32>,
}

impl Recorded {
    /// From an object with `texture`, `replaceableId` and `flags`.
    fn of(value: &serde_json::Value) -> Recorded {
        let number = |key: &str| {
            value
                .get(key)
                .and_then(serde_json::Value::as_u64)
                .and_then(|v| u32::try_from(v).ok())
        };
        Recorded {
            path: (value.get("texture").and_then(serde_json::Value::as_str))
                .filter(|p| !p.is_empty())
                .map(str::to_owned),
            replaceable_id: number("replaceableId").unwrap_or(0),
            flags: number("flags"),
        }
    }
}

/// The `TEXS` list being made, and the files to write.
struct Textures<'a> {
    document: &'a gltf::Document,
    images: &'a [Result<RgbaImage, ImageProblem>],
    mode: TextureMode,
    folder: &'a str,
    textures: Vec<Texture>,
    files: Vec<ImportedTexture>,
    /// `TEXS` index of each (path, replaceable id).
    texture_of: BTreeMap<(String, u32), i32>,
    /// The path made for each image's use (an image shown by several
    /// materials is one texture), and the file names taken (ASCII
    /// lowercase).
    path_of: BTreeMap<Key, String>,
    names_taken: BTreeSet<String>,
    /// The pixels left to encode ([`MAX_ENCODED_PIXELS`]).
    encode_left: u64,
    /// The pixels left to encode with [`Fit::Cluster`] ([`MAX_CLUSTER_PIXELS`]).
    cluster_left: u64,
}

/// The most pixels whose BC1 and BC3 blocks the import fits with
/// [`Fit::Cluster`] (level 0; a 2048 by 2048 texture, or four of 1024 by
/// 1024): at about 25 us a block of 16 distinct colours, a few seconds at
/// worst; the textures past it are fitted with [`Fit::Range`], some 50 times
/// faster, coarser.
pub(super) const MAX_CLUSTER_PIXELS: u64 = 1 << 22;

/// The most pixels an import encodes as textures, all together (level 0;
/// the smaller levels add a third): every image decoded
/// ([`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS)) twice over. An image
/// is encoded once for each use and factors (a base colour that is its
/// emissive too, an ORM per roughness factor): a document of many
/// materials scaling one large image each by its own factor would
/// otherwise encode it for each.
pub(super) const MAX_ENCODED_PIXELS: u64 = 2 * super::MAX_IMAGE_PIXELS;

impl Textures<'_> {
    /// `i` if its image decoded; else `None`, and the report says why
    /// `at` has no `what`.
    fn decoded(&self, i: usize, at: &str, what: &str, report: &mut ImportReport) -> Option<usize> {
        match self.images.get(i) {
            Some(Ok(_)) => Some(i),
            Some(Err(why)) => {
                report.drop(format!("images[{i}]"), format!("{why}: {at} has no {what}"));
                None
            }
            None => {
                report.drop(
                    format!("images[{i}]"),
                    format!("missing: {at} has no {what}"),
                );
                None
            }
        }
    }

    /// The `TEXS` index of a slot's texture: as the export `recorded` it
    /// (its path named for the file written of `wanted`), else `wanted`
    /// named by its image, else `fallback` (replaceable id, path, flags).
    fn texture(
        &mut self,
        recorded: &Recorded,
        wanted: Option<Wanted>,
        fallback: (u32, &str, u32),
        report: &mut ImportReport,
    ) -> i32 {
        let (path, replaceable_id, file, flags) = if recorded.replaceable_id > 0 {
            let flags = recorded.flags.unwrap_or(fallback.2);
            (String::new(), recorded.replaceable_id, None, flags)
        } else if let Some(path) =
            (recorded.path.clone()).filter(|_| self.mode != TextureMode::Keep || wanted.is_none())
        {
            match wanted {
                Some(wanted) => {
                    // A recorded `.tif` (or `.blp`, `.dds`) path whose image is
                    // written in another format is named so, so that the
                    // file's name says what it holds.
                    let format = wanted.kind.format();
                    let extension = format.extension();
                    let stem = path.rsplit_once('.').map_or(path.as_str(), |(s, _)| s);
                    let named = format!("{stem}.{extension}");
                    let flags = recorded.flags.unwrap_or(wanted.flags);
                    if path
                        .to_ascii_lowercase()
                        .ends_with(&format!(".{extension}"))
                    {
                        (path, 0, Some(wanted), flags)
                    } else {
                        report.rename(
                            path.clone(),
                            format!("{named} (the image is written as {})", format.name()),
                        );
                        (named, 0, Some(wanted), flags)
                    }
                }
                None => (path, 0, None, recorded.flags.unwrap_or(fallback.2)),
            }
        } else if let Some(wanted) = wanted {
            let original = (wanted.as_is())
                .and_then(|i| self.document.as_json().images.get(i)?.uri.clone())
                .filter(|uri| !uri.starts_with("data:"));
            match (self.mode, original) {
                // Named by its file, which stays as it is: nothing to encode.
                (TextureMode::Keep, Some(uri)) => (uri, 0, None, wanted.flags),
                // An image inside the document (or made of two) has no file
                // to name: encoded in either mode.
                _ => {
                    let path = self.path_for(&wanted);
                    let flags = wanted.flags;
                    (path, 0, Some(wanted), flags)
                }
            }
        } else {
            let flags = recorded.flags.unwrap_or(fallback.2);
            (fallback.1.to_owned(), fallback.0, None, flags)
        };
        if let Some(&id) = self.texture_of.get(&(path.clone(), replaceable_id)) {
            return id;
        }
        if let Some(wanted) = &file {
            let pixels = wanted.pixel_count(self.images);
            if pixels > self.encode_left {
                let images: Vec<String> = (wanted.sources().iter())
                    .map(|i| format!("images[{i}]"))
                    .collect();
                report.drop(
                    images.join(", "),
                    format!(
                        "not encoded for `{path}`: past the {MAX_ENCODED_PIXELS} pixels an \
                         import encodes"
                    ),
                );
                return self.texture(recorded, None, fallback, report);
            }
            self.encode_left -= pixels;
        }
        let next = i32::try_from(self.textures.len()).unwrap_or(i32::MAX);
        self.texture_of.insert((path.clone(), replaceable_id), next);
        let (file_name, renamed) = fixed::<260>(&path);
        if renamed {
            report.rename(path.clone(), file_name.to_string_lossy().into_owned());
        }
        if let Some(wanted) = file {
            self.write(&wanted, file_name.to_string_lossy().into_owned(), report);
        }
        self.textures.push(Texture {
            replaceable_id,
            file_name,
            flags,
        });
        next
    }

    /// The path a file of `wanted` gets: `{folder}{image name}.{extension}`.
    fn path_for(&mut self, wanted: &Wanted) -> String {
        if let Some(path) = self.path_of.get(&wanted.key()) {
            return path.clone();
        }
        let extension = wanted.kind.format().extension();
        let name = wanted
            .named_after()
            .map_or_else(|| "texture".to_owned(), |i| image_name(self.document, i));
        let name = unique(name, extension, &mut self.names_taken);
        let path = format!("{}{name}.{extension}", self.folder);
        self.path_of.insert(wanted.key(), path.clone());
        path
    }

    /// The file of `wanted` at `path`, encoded.
    fn write(&mut self, wanted: &Wanted, path: String, report: &mut ImportReport) {
        let Some(pixels) = wanted.pixels(self.images, &path, report) else {
            return;
        };
        let format = wanted.kind.format();
        let count = u64::from(pixels.width) * u64::from(pixels.height);
        let fit = if !wanted.fits_colours() {
            Fit::Cluster
        } else if count <= self.cluster_left {
            self.cluster_left -= count;
            Fit::Cluster
        } else {
            report.approximate(
                path.clone(),
                format!(
                    "its colours fitted by range, not cluster (coarser, faster): past the \
                     {MAX_CLUSTER_PIXELS} pixels an import cluster-fits"
                ),
            );
            Fit::Range
        };
        match wanted.encode(&pixels, fit) {
            Ok(bytes) => self.files.push(ImportedTexture {
                path,
                bytes,
                format,
                images: wanted.sources(),
            }),
            Err(why) => {
                let images: Vec<String> = (wanted.sources().iter())
                    .map(|i| format!("images[{i}]"))
                    .collect();
                report.drop(
                    images.join(", "),
                    format!("not encoded as {}: {why}", format.name()),
                );
            }
        }
    }

    /// `TEXS` flags from a texture's sampler: 1 where it repeats across
    /// its width, 2 its height (no sampler: both, glTF's default).
    fn sampler_flags(texture: &gltf::Texture<'_>) -> u32 {
        use gltf::texture::WrappingMode;
        let sampler = texture.sampler();
        u32::from(sampler.wrap_s() == WrappingMode::Repeat)
            | u32::from(sampler.wrap_t() == WrappingMode::Repeat) << 1
    }
}

/// The materials `used` (glTF indices; `None`: the default material).
pub(super) fn materials(
    document: &gltf::Document,
    images: &[Result<RgbaImage, ImageProblem>],
    used: &[Option<usize>],
    options: &ImportOptions<'_>,
    report: &mut ImportReport,
) -> Materials {
    let mut textures = Textures {
        document,
        images,
        mode: options.textures,
        folder: options.texture_folder,
        textures: Vec::new(),
        files: Vec::new(),
        texture_of: BTreeMap::new(),
        path_of: BTreeMap::new(),
        names_taken: BTreeSet::new(),
        encode_left: MAX_ENCODED_PIXELS,
        cluster_left: MAX_CLUSTER_PIXELS,
    };
    let mut materials = Vec::new();
    let mut by_gltf = BTreeMap::new();
    for &m in used {
        let material = m.and_then(|m| document.materials().nth(m));
        let at = m.map_or_else(
            || "the default material".to_owned(),
            |m| format!("materials[{m}]"),
        );
        let mdx = material.as_ref().and_then(|m| mdx_extras(m.extras()));
        // HD from 1100 on, unless the export recorded an SD material.
        let hd = options.version >= HD_FROM
            && mdx
                .as_ref()
                .and_then(|m| m.get("hd")?.as_bool())
                .unwrap_or(true);
        let made = match &material {
            Some(material) => one(material, mdx.as_ref(), hd, &at, &mut textures, report),
            None => default_material(hd, &mut textures, report),
        };
        by_gltf.insert(m, u32::try_from(materials.len()).unwrap_or(u32::MAX));
        materials.push(made);
    }
    Materials {
        materials,
        textures: textures.textures,
        files: textures.files,
        by_gltf,
    }
}

/// The material a primitive without one gets: untextured, opaque.
fn default_material(hd: bool, textures: &mut Textures<'_>, report: &mut ImportReport) -> Material {
    let flags = if hd { WRAP } else { 0 };
    let diffuse = textures.texture(&Recorded::default(), None, (0, WHITE, flags), report);
    let layer = diffuse_layer(FilterMode::None, 0, diffuse, 0, 1.0);
    let others = hd.then(|| slots(Default::default(), &BTreeMap::new(), textures, report));
    finish(layer, others)
}

/// The diffuse (or classic) layer.
fn diffuse_layer(
    filter_mode: FilterMode,
    shading_flags: u32,
    texture_id: i32,
    coord_id: u32,
    alpha: f32,
) -> Layer {
    Layer {
        filter_mode,
        shading_flags,
        texture_id,
        texture_animation_id: -1,
        coord_id,
        alpha,
        emissive_gain: Some(1.0),
        fresnel: Some(crate::mdx::Fresnel::DEFAULT),
        shader_type_id: None,
        textures: None,
        tracks: Vec::new(),
    }
}

/// A material of `layer`, and for an HD one the `TEXS` indices of slots 1
/// to 5: in the 900/1000 layout (a `Shader_HD_DefaultUnit` material of six
/// layers), which converting to 1100 and later makes one layer with a
/// texture list.
fn finish(layer: Layer, hd: Option<[i32; 5]>) -> Material {
    let Some(others) = hd else {
        return Material {
            priority_plane: 0,
            flags: 0,
            shader: Some(FixedStr::default()),
            layers: vec![layer],
            unknown: Vec::new(),
        };
    };
    let mut layers = vec![layer.clone()];
    layers.extend(
        others
            .iter()
            .map(|&id| crate::convert::neutral_layer(&layer, id)),
    );
    Material {
        priority_plane: 0,
        flags: 0,
        shader: Some(FixedStr::try_from(crate::convert::HD_SHADER).unwrap_or_default()),
        layers,
        unknown: Vec::new(),
    }
}

/// The `TEXS` indices of HD slots 1 to 5 (normal, ORM, emissive, team
/// colour, reflection), whose document textures are `wanted`: each as
/// `recorded` (`extras.mdx.slots`, by slot), else made of its images, else
/// Reforged's placeholder ([`PLACEHOLDERS`](crate::convert::PLACEHOLDERS)).
fn slots(
    wanted: [Option<Wanted>; 5],
    recorded: &BTreeMap<u32, Recorded>,
    textures: &mut Textures<'_>,
    report: &mut ImportReport,
) -> [i32; 5] {
    let mut out = [0; 5];
    let placeholders = crate::convert::PLACEHOLDERS.iter();
    for ((slot, wanted), (&(id, path), out)) in (1u32..).zip(wanted).zip(placeholders.zip(&mut out))
    {
        let recorded = recorded.get(&slot).cloned().unwrap_or_default();
        *out = textures.texture(&recorded, wanted, (id, path, WRAP), report);
    }
    out
}

/// One glTF material.
fn one(
    material: &gltf::Material<'_>,
    mdx: Option<&serde_json::Value>,
    hd: bool,
    at: &str,
    textures: &mut Textures<'_>,
    report: &mut ImportReport,
) -> Material {
    let pbr = material.pbr_metallic_roughness();
    let base = pbr.base_color_texture();
    // The recorded slots (an HD material's export), by slot.
    let mut recorded: BTreeMap<u32, Recorded> = BTreeMap::new();
    if hd && let Some(list) = mdx.and_then(|m| m.get("slots")?.as_array()) {
        for entry in list {
            if let Some(slot) = (entry.get("slot").and_then(serde_json::Value::as_u64))
                .and_then(|s| u32::try_from(s).ok())
            {
                recorded.entry(slot).or_insert_with(|| Recorded::of(entry));
            }
        }
    }
    // The diffuse: as an export of this workspace recorded it, else from
    // the image, else the white texture.
    let recorded_diffuse = recorded
        .get(&0)
        .cloned()
        .or_else(|| mdx.map(Recorded::of))
        .unwrap_or_default();
    let diffuse_kind = match (hd, textures.mode) {
        (false, TextureMode::Dds) | (true, _) => Use::Colour,
        (false, _) => Use::Classic,
    };
    let wanted_diffuse = base.as_ref().and_then(|info| {
        let texture = info.texture();
        let image = textures.decoded(texture.source().index(), at, "image", report)?;
        Some(Wanted {
            kind: diffuse_kind,
            images: [Some(image), None],
            factors: [1.0; 3],
            flags: if hd {
                Textures::sampler_flags(&texture)
            } else {
                0
            },
        })
    });
    let diffuse = textures.texture(
        &recorded_diffuse,
        wanted_diffuse,
        (0, WHITE, if hd { WRAP } else { 0 }),
        report,
    );
    let mut filter_mode = match material.alpha_mode() {
        gltf::material::AlphaMode::Opaque => FilterMode::None,
        gltf::material::AlphaMode::Mask => FilterMode::Transparent,
        gltf::material::AlphaMode::Blend => FilterMode::Blend,
    };
    let uv_set = base.as_ref().map_or(0, |b| b.tex_coord());
    // The filter modes glTF has no alpha mode for (additive, modulate),
    // as an export of this workspace recorded them.
    if let Some(mode) = mdx
        .and_then(|m| m.get("filterMode")?.as_u64())
        .and_then(|m| u32::try_from(m).ok())
        .filter(|&m| m <= 6)
    {
        filter_mode = FilterMode::from(mode);
    }
    let [r, g, b, a] = pbr.base_color_factor();
    let alpha = if a.is_finite() {
        a.clamp(0.0, 1.0)
    } else {
        1.0
    };
    if [r, g, b] != [1.0; 3] {
        report.approximate(
            at.to_owned(),
            format!(
                "baseColorFactor's colour [{r}, {g}, {b}] left out (a layer has alpha, not colour)"
            ),
        );
    }
    let mut shading_flags = 0;
    if material.double_sided() {
        shading_flags |= shading_flags::TWO_SIDED;
    }
    if material.unlit() {
        shading_flags |= shading_flags::UNSHADED;
    }
    let layer = diffuse_layer(filter_mode, shading_flags, diffuse, uv_set, alpha);
    if !hd {
        for (slot, present) in [
            ("normalTexture", material.normal_texture().is_some()),
            ("occlusionTexture", material.occlusion_texture().is_some()),
            ("emissiveTexture", material.emissive_texture().is_some()),
            (
                "metallicRoughnessTexture",
                pbr.metallic_roughness_texture().is_some(),
            ),
        ] {
            if present {
                report.drop(
                    at.to_owned(),
                    format!("{slot} (a classic layer draws the base colour only)"),
                );
            }
        }
        return finish(layer, None);
    }
    let [normal, orm, emissive] = hd_slots(material, uv_set, at, textures, report);
    let wanted = [normal, orm, emissive, None, None];
    let others = slots(wanted, &recorded, textures, report);
    finish(layer, Some(others))
}

/// What the document gives HD slots 1 to 3 (normal, ORM, emissive);
/// texture coordinates other than the base colour's (`uv_set`), which one
/// layer cannot have, and factors an untextured slot cannot hold are
/// reported.
fn hd_slots(
    material: &gltf::Material<'_>,
    uv_set: u32,
    at: &str,
    textures: &mut Textures<'_>,
    report: &mut ImportReport,
) -> [Option<Wanted>; 3] {
    let pbr = material.pbr_metallic_roughness();
    let uv = |slot: &str, set: u32, report: &mut ImportReport| {
        if set != uv_set {
            report.approximate(
                at.to_owned(),
                format!(
                    "{slot} on TEXCOORD_{set}: drawn with the base colour's TEXCOORD_{uv_set} (an \
                     HD layer has one UV set)"
                ),
            );
        }
    };
    let normal = material.normal_texture().and_then(|info| {
        uv("normalTexture", info.tex_coord(), report);
        if info.scale() != 1.0 {
            report.approximate(
                at.to_owned(),
                format!("normalTexture's scale {} left out", info.scale()),
            );
        }
        let texture = info.texture();
        let image = textures.decoded(texture.source().index(), at, "normal map", report)?;
        Some(Wanted {
            kind: Use::Normal,
            images: [Some(image), None],
            factors: [1.0; 3],
            flags: Textures::sampler_flags(&texture),
        })
    });
    let occlusion = material.occlusion_texture().and_then(|info| {
        uv("occlusionTexture", info.tex_coord(), report);
        let texture = info.texture();
        let image = textures.decoded(texture.source().index(), at, "occlusion", report)?;
        Some((image, info.strength(), Textures::sampler_flags(&texture)))
    });
    let metallic_roughness = pbr.metallic_roughness_texture().and_then(|info| {
        uv("metallicRoughnessTexture", info.tex_coord(), report);
        let texture = info.texture();
        let image = textures.decoded(texture.source().index(), at, "metallic-roughness", report)?;
        Some((image, Textures::sampler_flags(&texture)))
    });
    let (metallic, roughness) = (pbr.metallic_factor(), pbr.roughness_factor());
    let orm = match (occlusion, metallic_roughness) {
        (None, None) => {
            if (metallic, roughness) != (0.0, 1.0) {
                report.approximate(
                    at.to_owned(),
                    format!(
                        "metallicFactor {metallic} and roughnessFactor {roughness} left out (no \
                         texture: the ORM slot holds the neutral one)"
                    ),
                );
            }
            None
        }
        (occlusion, mr) => Some(Wanted {
            kind: Use::Orm,
            images: [occlusion.map(|o| o.0), mr.map(|m| m.0)],
            factors: [occlusion.map_or(1.0, |o| o.1), roughness, metallic],
            flags: mr.map_or_else(|| occlusion.map_or(WRAP, |o| o.2), |m| m.1),
        }),
    };
    let emissive_factor = material.emissive_factor();
    let emissive = material.emissive_texture().and_then(|info| {
        uv("emissiveTexture", info.tex_coord(), report);
        let texture = info.texture();
        let image = textures.decoded(texture.source().index(), at, "emissive", report)?;
        Some(Wanted {
            kind: Use::Emissive,
            images: [Some(image), None],
            factors: emissive_factor,
            flags: Textures::sampler_flags(&texture),
        })
    });
    if material.emissive_texture().is_none() && emissive_factor != [0.0; 3] {
        report.approximate(
            at.to_owned(),
            format!(
                "emissiveFactor {emissive_factor:?} left out (no texture: the emissive slot holds \
                 black)"
            ),
        );
    }
    [normal, orm, emissive]
}
