//! Texture animations in glTF (`ExportOptions::texture_animations`:
//! `KHR_texture_transform` on the textures of each material whose layer has
//! a texture animation, its offset, rotation and scale animated through
//! `KHR_animation_pointer`), on every corpus model with one (their textures
//! are not in the corpus: a flat placeholder stands in for each, so that
//! every material has its texture):
//!
//! - the export's own keys, read from the `.glb` here: at every whole
//!   millisecond of every sequence, the corners (0, 0), (1, 0) and (0, 1)
//!   of each moving texture go where `formats::anim::UvTransform` takes
//!   them, within the bound the test states and prints;
//! - Babylon.js's own glTF loader: with each animation group sent to times
//!   around every key and every 100 ms, each geoset mesh's base colour
//!   texture matrix takes those corners where the export does;
//! - the Khronos glTF Validator: 0 errors, 0 warnings.

use crate::common;
use crate::common::babylon::geoset_named;

use std::collections::BTreeMap;
use std::path::PathBuf;

use formats::anim::{Timeline, UvTransform};
use formats::gltf::{ExportOptions, FlatTextures, export};
use formats::mdx::{
    Interpolation, Key, Layer, Model, TextureAnimation, TextureAnimationTrack, Track,
};
use serde_json::Value;

/// The largest distance allowed, in texture coordinates, between where the
/// export and `formats::anim` take a corner at any whole millisecond (what
/// the 1/30 s samples of a turning texture's offset leave: 9.2e-5 measured).
const BOUND: f64 = 5e-4;

/// The corners followed.
const CORNERS: [[f32; 2]; 3] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];

/// A grey placeholder for every texture.
const PLACEHOLDERS: FlatTextures = FlatTextures([128, 128, 128, 255]);

/// One channel's times and flattened values.
type Keys = (Vec<f64>, Vec<f64>);

/// A moving texture of an export: its model material, its transform at
/// rest (offset, rotation, scale), and per animation its three channels.
struct Moving {
    material: usize,
    rest: [f64; 5],
    channels: Vec<[Option<Keys>; 3]>,
}

/// `[offset x, offset y, rotation, scale x, scale y]` applied to `uv`, as
/// `KHR_texture_transform` says (its GLSL: translation · rotation · scale,
/// the rotation `mat3(cos, sin, 0, -sin, cos, 0, 0, 0, 1)` read row by row,
/// as Babylon.js reads it).
fn apply(t: [f64; 5], uv: [f32; 2]) -> [f64; 2] {
    let (sin, cos) = t[2].sin_cos();
    let (x, y) = (t[3] * f64::from(uv[0]), t[4] * f64::from(uv[1]));
    [t[0] + cos * x + sin * y, t[1] - sin * x + cos * y]
}

/// Reads each moving texture (by glTF material) of an export.
fn moving_of(glb: &[u8], path: &str) -> BTreeMap<usize, Moving> {
    let (json, bin) = common::glb_parts(glb);
    let mut out = BTreeMap::new();
    let materials = json["materials"].as_array().cloned().unwrap_or_default();
    for (m, material) in materials.iter().enumerate() {
        let transform = &material["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]["KHR_texture_transform"];
        if transform.is_null() {
            continue;
        }
        let number = |v: &Value| v.as_f64().unwrap();
        let rest = [
            number(&transform["offset"][0]),
            number(&transform["offset"][1]),
            number(&transform["rotation"]),
            number(&transform["scale"][0]),
            number(&transform["scale"][1]),
        ];
        let name = material["name"].as_str().unwrap();
        let model_material = name["Material ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let prefix = format!(
            "/materials/{m}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/"
        );
        let channels = common::babylon::animations(&json)
            .iter()
            .map(|animation| {
                [("offset", 2), ("rotation", 1), ("scale", 2)].map(|(property, n)| {
                    let pointer = format!("{prefix}{property}");
                    common::babylon::pointer_channel((&json, bin), animation, &pointer, n, path)
                })
            })
            .collect();
        let moving = Moving {
            material: model_material,
            rest,
            channels,
        };
        out.insert(m, moving);
    }
    out
}

/// The export's transform of a moving texture `ms` into animation `s`.
fn exported_at(moving: &Moving, s: usize, ms: u32) -> [f64; 5] {
    let t = common::babylon::gltf_seconds(ms);
    let mut out = moving.rest;
    if let Some([offset, rotation, scale]) = moving.channels.get(s) {
        if let Some(keys) = offset {
            let v = common::babylon::linear_at(keys, 2, t);
            out[0..2].copy_from_slice(&v);
        }
        if let Some(keys) = rotation {
            out[2] = common::babylon::linear_at(keys, 1, t)[0];
        }
        if let Some(keys) = scale {
            let v = common::babylon::linear_at(keys, 2, t);
            out[3..5].copy_from_slice(&v);
        }
    }
    out
}

/// The texture animation (`TXAN` index) of model material `material`'s
/// texture (Warcraft III materials, then WoW alpha ones), as the `gltf`
/// docs say the export takes the texture: from the material's first layer
/// whose texture is a file (not a replaceable one), else its first layer.
fn texture_animation_of(model: &Model, material: usize) -> Option<usize> {
    let is_file = |id: i64| {
        let texture = usize::try_from(id)
            .ok()
            .and_then(|t| model.textures().get(t));
        texture.is_some_and(|t| t.replaceable_id == 0)
    };
    let Some(classic) = model.materials().get(material) else {
        let alpha = model
            .alpha_materials()
            .get(material - model.materials().len())?;
        let layers = &alpha.tex_layers;
        let textured = layers
            .iter()
            .find(|l| l.texture_id != u32::MAX && is_file(i64::from(l.texture_id)));
        let layer = textured.or(layers.first())?;
        return (layer.transform_id != u32::MAX).then_some(layer.transform_id as usize);
    };
    // 1100 and later: a layer's texture is the first of its list.
    let texture = |l: &&Layer| match &l.textures {
        Some(entries) => entries.first().map(|e| i64::from(e.texture_id)),
        None => Some(i64::from(l.texture_id)),
    };
    let textured = classic
        .layers
        .iter()
        .find(|l| texture(l).is_some_and(is_file));
    let layer = textured.or(classic.layers.first())?;
    usize::try_from(layer.texture_animation_id).ok()
}

/// Where `formats::anim` takes the corners of model material `material`'s
/// texture `ms` into sequence `s` (`None`: the material's texture does not
/// move).
fn expected(
    model: &Model,
    timeline: &Timeline,
    material: usize,
    s: usize,
    ms: u32,
) -> [[f64; 2]; 3] {
    let animation = texture_animation_of(model, material)
        .and_then(|a| model.texture_animations().get(a))
        .unwrap();
    let sampler = common::babylon::sampler_at(timeline, s, f64::from(ms));
    let transform = UvTransform::of(animation, &sampler);
    CORNERS.map(|uv| transform.apply(uv).map(f64::from))
}

fn distance(a: [[f64; 2]; 3], b: [[f64; 2]; 3]) -> f64 {
    (0..3)
        .flat_map(|k| (0..2).map(move |i| (k, i)))
        .map(|(k, i)| (a[k][i] - b[k][i]).abs())
        .fold(0.0, f64::max)
}

#[test]
fn texture_animations_move_the_textures_in_babylon() {
    let dir = common::temp_dir("gltf-texture-transforms");
    let mut exported = Vec::new();
    let (mut frames, mut worst, mut worst_at) = (0usize, 0.0f64, String::new());
    for (path, model) in common::corpus_models() {
        if model.texture_animations().is_empty() {
            continue;
        }
        let timeline = Timeline::from_model(&model);
        let options = ExportOptions {
            texture_animations: true,
            material_colors: true,
            textures: &PLACEHOLDERS,
            ..Default::default()
        };
        let glb = common::babylon::export_glb(&model, &options);
        let moving = moving_of(&glb, &path);
        // Without the option, no transform.
        let plain = ExportOptions {
            textures: &PLACEHOLDERS,
            ..Default::default()
        };
        let plain = export(&model, "m", &plain)
            .unwrap()
            .document
            .to_glb()
            .unwrap();
        assert!(moving_of(&plain, &path).is_empty(), "{path}");
        for (m, texture) in &moving {
            assert_eq!(
                texture.rest,
                [0.0, 0.0, 0.0, 1.0, 1.0],
                "{path}: material {m} at rest"
            );
            for (s, sequence) in timeline.sequences.iter().enumerate() {
                for ms in 0..=sequence.duration() {
                    let want = expected(&model, &timeline, texture.material, s, ms);
                    let got = CORNERS.map(|uv| apply(exported_at(texture, s, ms), uv));
                    let d = distance(got, want);
                    if d > worst {
                        worst = d;
                        worst_at = format!("{path}: material {m} in {} at {ms} ms", sequence.name);
                    }
                    frames += 1;
                }
            }
        }
        if !moving.is_empty() {
            let file = dir.join(format!("{}.glb", path.replace('/', "_")));
            std::fs::write(&file, &glb).unwrap();
            exported.push((file, model, timeline, moving));
        }
    }
    if exported.is_empty() {
        return; // No corpus (said loudly by `corpus_models`).
    }
    eprintln!(
        "texture transforms: {} models, {frames} texture frames, the largest distance {worst:.2e} ({worst_at})",
        exported.len()
    );
    assert!(worst <= BOUND, "{worst} at {worst_at}");
    // Scrolling (translation) and turning (rotation) textures are in the corpus.
    assert!(exported.len() >= 5, "{}", exported.len());

    let files: Vec<PathBuf> = exported.iter().map(|(file, ..)| file.clone()).collect();
    testkit::gltf_validator::assert_all_clean(&files);

    let files = exported.iter().map(|(file, _, timeline, moving)| {
        let keys = (0..timeline.sequences.len()).map(|s| {
            let channels = moving.values().filter_map(|m| m.channels.get(s));
            let keys = channels.flatten().flatten().flat_map(|(times, _)| times);
            keys.copied().collect()
        });
        (file.clone(), timeline, keys.collect())
    });
    let Some((results, probes_of)) = common::babylon::probe_around_keys(&dir, files) else {
        return;
    };
    let mut compared = 0usize;
    for ((file, _, timeline, moving), probes) in exported.iter().zip(&probes_of) {
        let result = &results[file];
        let (json, _) = common::glb_parts(&std::fs::read(file).unwrap());
        // Each geoset mesh's glTF material.
        let material_of = |geoset: usize| -> Option<usize> {
            let meshes = json["meshes"].as_array().unwrap();
            let mesh = meshes
                .iter()
                .find(|m| m["name"].as_str().and_then(geoset_named) == Some(geoset))?;
            mesh["primitives"][0]["material"]
                .as_u64()
                .map(|m| m as usize)
        };
        let file = file.display();
        for (s, ms) in probes.iter().enumerate() {
            for (&ms, frame) in ms.iter().zip(&result.animations[s]) {
                for (&geoset, state) in result.geosets.iter().zip(&frame.meshes) {
                    let Some(texture) = material_of(geoset).and_then(|m| moving.get(&m)) else {
                        continue;
                    };
                    let ours = CORNERS.map(|uv| apply(exported_at(texture, s, ms), uv));
                    let name = &timeline.sequences[s].name;
                    assert!(
                        distance(state.corners, ours) < 1e-4,
                        "{file}: geoset {geoset} in {name} at {ms} ms in Babylon.js: \
                         {:?}, exported {ours:?}",
                        state.corners
                    );
                    compared += 1;
                }
            }
        }
    }
    eprintln!("texture transforms: {compared} geoset probes in Babylon.js");
    assert!(compared > 1_000, "{compared}");
}

/// A texture animation of these tracks on the sample model's first
/// material's layer, exported as the option does, as JSON.
fn sample_exported(tracks: Vec<TextureAnimationTrack>) -> Value {
    let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    model
        .texture_animations_mut()
        .push(TextureAnimation { tracks });
    for material in model.materials_mut() {
        for layer in &mut material.layers {
            layer.texture_animation_id = 0;
        }
    }
    let options = ExportOptions {
        texture_animations: true,
        textures: &FlatTextures([1, 2, 3, 255]),
        ..Default::default()
    };
    let out = export(&model, "m", &options).unwrap();
    serde_json::from_slice(&out.document.to_gltf("m").unwrap().json).unwrap()
}

#[test]
fn a_scrolling_texture_gets_a_transform_at_rest_and_channels() {
    let scroll = Track::new(
        Interpolation::Linear,
        vec![Key::new(0, [0.0; 3]), Key::new(1000, [1.0, 0.0, 0.0])],
    );
    let json = sample_exported(vec![TextureAnimationTrack::Translation(scroll)]);
    let info = &json["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"];
    let transform = &info["extensions"]["KHR_texture_transform"];
    assert_eq!(transform["offset"], serde_json::json!([0.0, 0.0]));
    assert!(
        json["extensionsUsed"]
            .to_string()
            .contains("KHR_texture_transform")
    );
    assert!(
        json["animations"]
            .to_string()
            .contains("KHR_texture_transform/offset")
    );
}

/// NaN and infinite offsets are written as the identity's, never as the
/// `null` JSON makes of them.
#[test]
fn non_finite_texture_transforms_leave_no_null() {
    let odd = Track::new(
        Interpolation::Linear,
        vec![
            Key::new(0, [f32::NAN, 0.5, 0.0]),
            Key::new(1000, [f32::INFINITY; 3]),
        ],
    );
    let json = sample_exported(vec![TextureAnimationTrack::Translation(odd)]);
    assert!(!json.to_string().contains("null"), "{json}");
}
