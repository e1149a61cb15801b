//! A model as a glTF document: [`export`] puts together the skeleton
//! ([`nodes`]), the skinned meshes ([`meshes`]), the materials
//! ([`materials`]), the cameras ([`cameras`]), the lights ([`lights`]) and
//! the animations ([`animations`]); what each becomes is in the
//! [`gltf`](crate::gltf) docs.

mod animations;
mod cameras;
mod colors;
pub(in crate::gltf) mod curve;
#[cfg(test)]
mod fixtures;
mod inherit;
mod light_animations;
mod lights;
mod materials;
mod meshes;
mod node_curves;
pub(crate) mod nodes;
mod texture_transforms;
mod visibility;

use std::collections::HashMap;

use gltf_json as json;

use crate::anim::{Mesh, Skeleton, Timeline, meshes as model_meshes};
use crate::gltf::builder::{Builder, Document};
use crate::gltf::error::ExportError;
use crate::gltf::textures::{NoTextures, TextureSource};
use crate::mdx::Model;

/// What [`export`] writes.
#[derive(Clone, Copy)]
pub struct ExportOptions<'a> {
    /// One animation per sequence (or none).
    pub animations: bool,
    /// Only the sequence of this name (ASCII case ignored).
    pub sequence: Option<&'a str>,
    /// The Reforged level of detail whose geosets are exported (geosets of
    /// level -1 belong to every level).
    pub lod: i32,
    /// Where texture images come from.
    pub textures: &'a dyn TextureSource,
    /// Geosets shown and hidden as the model's geoset animations do. Each
    /// geoset whose geoset animation hides it somewhere gets
    /// `KHR_node_visibility` on its node (its visibility at rest) and, in
    /// every animation, a `STEP` channel through `KHR_animation_pointer`
    /// (`/nodes/N/extensions/KHR_node_visibility/visible`, 1 or 0): a key
    /// where the sequence starts and one at each change, shown where its
    /// alpha is above 0 (as `formats::render` draws posed models), exact at
    /// every whole millisecond. Its alpha is sampled at each moment a key
    /// of its alpha track plays in the sequence (each loop of a global
    /// sequence too) and 1 ms after (a linear fade up from 0 shows the
    /// geoset from the next frame on), and every 1/30 s between, at whole
    /// milliseconds (where a spline may cross 0).
    ///
    /// Off by default: Babylon.js plays these channels, and loaders that
    /// do not know `KHR_animation_pointer` should skip them, as Blender 3.4
    /// does, but some refuse the file (the `gltf` crate, and so Bevy, wants
    /// a node on every channel).
    pub geoset_visibility: bool,
    /// Geoset colour and alpha as material colour, animated by
    /// `KHR_animation_pointer`. Off by default, for the same readers as
    /// [`geoset_visibility`](Self::geoset_visibility).
    ///
    /// A geoset's layer is drawn as its texture times the geoset
    /// animation's colour (where its flags say the colour applies) and
    /// times the geoset animation's alpha and the layer's alpha (`KGAC`,
    /// `KGAO`, `KMTA`), as mdx-m3-viewer's shaders (the Hive Workshop's
    /// viewer) draw it. glTF multiplies the base colour texture by
    /// `baseColorFactor`, so that factor is `[red, green, blue, geoset
    /// alpha × layer alpha]`, each clamped to 0..1 (a non-finite one: 1),
    /// where the layer is the material's first, whose alpha the shared
    /// material already holds.
    ///
    /// Each geoset whose colour or alpha differs from its material's, or
    /// has a track that may change it, gets a copy of its material of its
    /// own (`Material M geoset G`) with the factor at rest; each animation
    /// then plays that factor through `KHR_animation_pointer`
    /// (`/materials/N/pbrMetallicRoughness/baseColorFactor`), `LINEAR`,
    /// sampled at each moment a key of one of the three tracks plays in the
    /// sequence (each loop of a global sequence too) and 1 ms before (a
    /// stepped track jumps between the two), 1 ms before the sequence's end
    /// (where a track closes on the value it opened with), and every 1/30 s
    /// between; a geoset whose colour is its rest colour throughout every
    /// sequence gets no channel. That is exact at every whole millisecond
    /// for linear and stepped tracks when only one of the two alphas moves
    /// at a time; a spline, two alphas moving together (their product is
    /// not linear), or a global sequence looping too often to list its keys
    /// (more than 9 000 in a sequence) is approximated by the 1/30 s
    /// samples: on the corpus, at most 0.007 from `formats::anim` in any
    /// component at any whole millisecond (`tests/gltf/colors.rs`).
    ///
    /// As in mdx-m3-viewer, alpha only shows where the material blends
    /// (`BLEND`, and `MASK` against its cutoff): an `OPAQUE` material takes
    /// the colour only.
    pub material_colors: bool,
    /// Texture animations (`TXAN`: scrolling water, lava, glows) as
    /// `KHR_texture_transform` on their materials' textures, animated by
    /// `KHR_animation_pointer`. Off by default, for the same readers as
    /// [`geoset_visibility`](Self::geoset_visibility).
    ///
    /// A material whose layer has a texture animation gets
    /// `KHR_texture_transform` on each of its textures, at the animation's
    /// rest ([`UvTransform`](crate::anim::UvTransform), applied as
    /// mdx-m3-viewer applies it, in glTF's terms by
    /// [`UvTransform::offset_rotation_scale`](crate::anim::UvTransform::offset_rotation_scale));
    /// each animation then plays its `offset`, `rotation` and `scale`
    /// through `KHR_animation_pointer`, `LINEAR`, sampled at the moments the
    /// texture animation's keys play and every 1/30 s (as
    /// [material colours](Self::material_colors) are). A translation alone,
    /// linear or stepped, is exact at every whole millisecond; a turn is
    /// exact in its angle (unwrapped, so that a turning texture keeps
    /// turning one way) and approximated in the offset it moves the centre
    /// by: on the corpus (seven models, a placeholder for each texture), no
    /// corner of a texture is more than 1e-4 from where `formats::anim`
    /// takes it at any whole millisecond, and Babylon.js moves the textures
    /// as the export says (`tests/gltf/texture_transforms.rs`). A number
    /// that is not finite is the identity's (an offset or rotation of 0, a
    /// scale of 1).
    pub texture_animations: bool,
    /// Lights' colour, intensity and visibility tracks, animated by
    /// `KHR_animation_pointer`. Off by default, for the same readers as
    /// [`geoset_visibility`](Self::geoset_visibility).
    ///
    /// Each exported light with a colour (`KLAC`), intensity (`KLAI`) or
    /// visibility (`KLAV`, alpha `KVIS`) track gets, in every animation, a
    /// `color` and an `intensity` channel through `KHR_animation_pointer`
    /// (`/extensions/KHR_lights_punctual/lights/N/color`, `.../intensity`),
    /// `LINEAR`, sampled as [material colours](Self::material_colors) are
    /// (at the moments the tracks' keys play, the millisecond before each,
    /// and every 1/30 s): the colour clamped to 0..1 (red, green, blue; the
    /// file stores blue, green, red), the intensity to 0 or more and 0
    /// where the visibility track hides the light (the game steps
    /// visibility tracks). A track's value outside its keys is the light's
    /// exported value (its first key: the game ignores the static value of
    /// a property with a track). Exact at every whole millisecond for
    /// linear and stepped tracks when intensity and visibility do not both
    /// change at once.
    pub light_animations: bool,
    /// Hermite and bezier translation and scaling tracks resampled as
    /// `LINEAR` at 30 keys a second (exact at each key) instead of exact
    /// `CUBICSPLINE` channels: for importers that drop `CUBICSPLINE`
    /// tangents, as Blender's does (its glTF add-on keeps the values and
    /// makes its own handles, so the motion between keys is not the
    /// model's). Off by default.
    pub resample_splines: bool,
}

impl Default for ExportOptions<'_> {
    fn default() -> Self {
        ExportOptions {
            animations: true,
            sequence: None,
            lod: 0,
            textures: &NoTextures,
            geoset_visibility: false,
            material_colors: false,
            texture_animations: false,
            light_animations: false,
            resample_splines: false,
        }
    }
}

impl ExportOptions<'_> {
    /// These options with everything that animates through
    /// `KHR_animation_pointer` on: geoset visibility, material colours,
    /// texture and light animations.
    ///
    /// ```
    /// use formats::gltf::{ExportOptions, export};
    ///
    /// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
    /// let options = ExportOptions::default().with_pointer_animations();
    /// assert!(options.geoset_visibility && options.light_animations);
    /// let out = export(&model, "cube", &options)?;
    /// assert_eq!(out.animations, ["Stand", "Birth"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_pointer_animations(self) -> Self {
        ExportOptions {
            geoset_visibility: true,
            material_colors: true,
            texture_animations: true,
            light_animations: true,
            ..self
        }
    }
}

/// An exported model and what the export left out.
#[derive(Debug)]
pub struct Export {
    /// The glTF document, to write as `.glb` or `.gltf`.
    pub document: Document,
    /// The geosets that became meshes (one primitive each, on a node each),
    /// in order.
    pub geosets: Vec<usize>,
    /// The number of joints (the root and one per node).
    pub joints: usize,
    /// The names of the cameras that became glTF cameras, in order.
    pub cameras: Vec<String>,
    /// How many lights became `KHR_lights_punctual` lights.
    pub lights: usize,
    /// The names of the sequences that became animations, in order.
    pub animations: Vec<String>,
    /// Texture paths embedded.
    pub embedded_textures: Vec<String>,
    /// Replaceable textures embedded as flat-colour placeholders
    /// (`Replaceable Texture 1`, team colour, in red; the others in grey).
    pub placeholder_textures: Vec<String>,
    /// Texture paths not found, with why (their materials have no texture).
    pub missing_textures: Vec<(String, crate::gltf::textures::TextureError)>,
    /// Anything else left out, one line each.
    pub warnings: Vec<String>,
}

/// What the geosets exported at level of detail `lod` lack, if anything:
/// the model has no geosets (or they are in the chunk a damaged file ends
/// inside, read leniently), or none at that level (the levels it has are
/// said; geosets of level -1 go in every level).
fn no_geometry(model: &Model, all: &[Mesh], lod: i32) -> Option<String> {
    if all.is_empty() {
        return Some(match model.cut_geosets() {
            Some(why) => format!("{why}: only its nodes are exported"),
            None => "the model has no geosets: only its nodes are exported".to_string(),
        });
    }
    let mut levels: Vec<i32> = all.iter().map(|m| m.lod).filter(|&l| l >= 0).collect();
    levels.sort_unstable();
    levels.dedup();
    if levels.is_empty() || levels.contains(&lod) {
        return None;
    }
    let levels: Vec<String> = levels.iter().map(i32::to_string).collect();
    let every = all.iter().filter(|m| m.lod < 0).count();
    let exported = match every {
        0 => "no geoset is exported".to_string(),
        n => format!("only the {n} of every level (-1) are exported"),
    };
    Some(format!(
        "no geoset at level of detail {lod} (the model's levels: {}): {exported}",
        levels.join(", ")
    ))
}

/// Exports `model` (named `name` in the document) as glTF 2.0.
///
/// ```
/// use formats::gltf::{ExportOptions, export};
///
/// let model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx())?;
/// let out = export(&model, "cube", &ExportOptions::default())?;
/// assert_eq!(out.geosets, [0]);
/// assert_eq!(out.animations, ["Stand", "Birth"]);
/// let glb = out.document.to_glb()?;
/// assert_eq!(&glb[..4], b"glTF");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn export(
    model: &Model,
    name: &str,
    options: &ExportOptions<'_>,
) -> Result<Export, ExportError> {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let sequences: Vec<usize> = match options.sequence {
        _ if !options.animations => Vec::new(),
        Some(wanted) => {
            vec![
                timeline
                    .sequence_named(wanted)
                    .map_err(|source| ExportError::NoSequence {
                        name: wanted.to_string(),
                        source,
                    })?,
            ]
        }
        None => (0..timeline.sequences.len()).collect(),
    };
    let all = model_meshes(model, &skeleton);
    let meshes: Vec<&Mesh> = all
        .iter()
        .filter(|m| m.lod == options.lod || m.lod < 0)
        .collect();
    let mut warnings = nodes::not_carried(&skeleton);
    warnings.extend(no_geometry(model, &all, options.lod));
    let mut b = Builder::new(concat!("formats ", env!("CARGO_PKG_VERSION")));
    let nodes = nodes::add_nodes(&mut b, &skeleton, name);
    let mut uv_sets: HashMap<usize, usize> = HashMap::new();
    for mesh in &meshes {
        let count = uv_sets
            .entry(mesh.material_id as usize)
            .or_insert(usize::MAX);
        *count = (*count).min(mesh.uv_sets.len());
    }
    let mut materials = materials::Materials::new(options.textures);
    let material_indices =
        materials.add_all(&mut b, model, |id| uv_sets.get(&id).copied().unwrap_or(0));
    let colors = match options.material_colors {
        true => {
            let geosets: Vec<(usize, u32)> =
                meshes.iter().map(|m| (m.geoset, m.material_id)).collect();
            colors::MaterialColors::add(&mut b, model, &timeline, &geosets, &material_indices)
        }
        false => colors::MaterialColors::default(),
    };
    let textures = match options.texture_animations {
        true => {
            let shared = (0..).zip(material_indices.iter()).map(|(m, &i)| (i, m));
            let all: Vec<_> = shared.chain(colors.materials()).collect();
            texture_transforms::TextureTransforms::add(&mut b, model, &timeline, &all)
        }
        false => texture_transforms::TextureTransforms::default(),
    };
    let joints = skeleton.nodes().len() + 1;
    let geoset_meshes = meshes::add_meshes(
        &mut b,
        name,
        &meshes,
        joints,
        |mesh| {
            let shared = || material_indices.get(mesh.material_id as usize).copied();
            colors.material(mesh.geoset).or_else(shared)
        },
        &mut warnings,
    );
    let mut scene = vec![nodes.root];
    let mut shown = Vec::new();
    if !geoset_meshes.is_empty() {
        let skin = nodes::add_skin(&mut b, &skeleton, &nodes);
        for &(geoset, mesh) in &geoset_meshes {
            let at_rest = options
                .geoset_visibility
                .then(|| visibility::GeosetVisibility::at_rest(model, &timeline, geoset))
                .flatten();
            let extensions = at_rest.map(|visible| visibility::node_extension(&mut b, visible));
            let node = b.push(json::Node {
                name: Some(meshes::geoset_name(name, geoset)),
                mesh: Some(mesh),
                skin: Some(skin),
                extensions,
                ..Default::default()
            });
            scene.push(node);
            if let Some(visible) = at_rest {
                shown.push((geoset, node, visible));
            }
        }
    }
    let geosets = geoset_meshes.iter().map(|&(geoset, _)| geoset).collect();
    let model_lights = lights::model_lights(model);
    let added_lights = lights::add_lights(&mut b, &model_lights, &skeleton, &nodes, &mut warnings);
    let light_animations = match options.light_animations {
        true => light_animations::LightAnimations::new(&model_lights, &added_lights),
        false => light_animations::LightAnimations::default(),
    };
    let model_cameras = cameras::model_cameras(model);
    let camera_nodes = cameras::add_cameras(&mut b, &model_cameras, nodes.root, &mut warnings);
    let cameras: Vec<_> = model_cameras.into_iter().zip(camera_nodes).collect();
    let pointed = animations::Pointed {
        visibility: visibility::GeosetVisibility::new(model, shown),
        colors,
        textures,
        lights: light_animations,
    };
    let playback = animations::Playback {
        sequences: &sequences,
        resample_splines: options.resample_splines,
    };
    animations::add_animations(
        &mut b, &timeline, &skeleton, &nodes, &cameras, &pointed, &playback,
    )?;
    Ok(Export {
        document: b.finish(scene),
        geosets,
        joints,
        cameras: cameras.into_iter().map(|(c, _)| c.name).collect(),
        lights: added_lights.len(),
        animations: sequences
            .iter()
            .filter_map(|&s| timeline.sequences.get(s).map(|s| s.name.clone()))
            .collect(),
        embedded_textures: materials.embedded,
        placeholder_textures: materials.placeholders,
        missing_textures: materials.missing,
        warnings,
    })
}
