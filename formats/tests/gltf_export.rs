//! `formats::gltf::export` on every corpus model, read back with the `gltf`
//! crate (an independent reader that also validates the document): counts
//! against the model (primitives, vertices, indices, UV sets, joints and
//! their names, skin weights per vertex, animations and their names), and
//! the skinned mesh posed by evaluating the glTF animations here (glTF's
//! own interpolation rules) against `formats::anim` at the same times.

mod common;

use formats::anim::glam::{Mat4, Quat, Vec3};
use formats::anim::{Moment, Sampler, Skeleton, Timeline, meshes};
use formats::gltf::textures::TextureFolders;
use formats::gltf::{ExportOptions, export};
use formats::mdx::Model;
use gltf::animation::{Interpolation, Property};
use gltf::mesh::Semantic;

fn models() -> Vec<(String, Model)> {
    common::corpus_models()
}

/// One glTF animation channel, read back.
struct Channel {
    node: usize,
    property: Property,
    interpolation: Interpolation,
    times: Vec<f32>,
    values: Vec<Vec<f32>>,
}

fn channels(animation: &gltf::Animation<'_>, blob: &[u8]) -> Vec<Channel> {
    animation
        .channels()
        .map(|channel| {
            let reader = channel.reader(|_| Some(blob));
            let times: Vec<f32> = reader.read_inputs().unwrap().collect();
            let values: Vec<Vec<f32>> = match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::Translations(t) => {
                    t.map(|v| v.to_vec()).collect()
                }
                gltf::animation::util::ReadOutputs::Scales(s) => s.map(|v| v.to_vec()).collect(),
                gltf::animation::util::ReadOutputs::Rotations(r) => {
                    r.into_f32().map(|v| v.to_vec()).collect()
                }
                gltf::animation::util::ReadOutputs::MorphTargetWeights(_) => {
                    panic!("no morph targets")
                }
            };
            Channel {
                node: channel.target().node().index(),
                property: channel.target().property(),
                interpolation: channel.sampler().interpolation(),
                times,
                values,
            }
        })
        .collect()
}

/// The channel's value at `t` seconds, by the glTF 2.0 specification
/// (Appendix C): step, linear (slerp for rotations), cubic Hermite spline
/// with tangents scaled by the segment's duration.
fn evaluate(c: &Channel, t: f32) -> Vec<f32> {
    let cubic = c.interpolation == Interpolation::CubicSpline;
    let value = |k: usize| c.values[if cubic { 3 * k + 1 } else { k }].clone();
    let n = c.times.len();
    if t <= c.times[0] {
        return value(0);
    }
    if t >= c.times[n - 1] {
        return value(n - 1);
    }
    let k = c.times.iter().rposition(|&x| x <= t).unwrap();
    let (t0, t1) = (c.times[k], c.times[k + 1]);
    let d = t1 - t0;
    let s = (t - t0) / d;
    let rotation = c.property == Property::Rotation;
    let out = match c.interpolation {
        Interpolation::Step => value(k),
        Interpolation::Linear if rotation => {
            let q = |v: Vec<f32>| Quat::from_slice(&v);
            q(value(k)).slerp(q(value(k + 1)), s).to_array().to_vec()
        }
        Interpolation::Linear => value(k)
            .iter()
            .zip(value(k + 1))
            .map(|(a, b)| a + (b - a) * s)
            .collect(),
        Interpolation::CubicSpline => {
            let (p0, b0) = (&c.values[3 * k + 1], &c.values[3 * k + 2]);
            let (a1, p1) = (&c.values[3 * (k + 1)], &c.values[3 * (k + 1) + 1]);
            let (s2, s3) = (s * s, s * s * s);
            (0..p0.len())
                .map(|i| {
                    (2.0 * s3 - 3.0 * s2 + 1.0) * p0[i]
                        + d * (s3 - 2.0 * s2 + s) * b0[i]
                        + (-2.0 * s3 + 3.0 * s2) * p1[i]
                        + d * (s3 - s2) * a1[i]
                })
                .collect()
        }
    };
    if rotation {
        Quat::from_slice(&out).normalize().to_array().to_vec()
    } else {
        out
    }
}

/// Every node's global matrix, with the animation's channels at `t` seconds
/// (no animation: the rest pose).
fn globals(doc: &gltf::Document, channels: &[Channel], t: f32) -> Vec<Mat4> {
    let nodes: Vec<_> = doc.nodes().collect();
    let mut local: Vec<(Vec3, Quat, Vec3)> = nodes
        .iter()
        .map(|n| {
            let (t, r, s) = n.transform().decomposed();
            (Vec3::from(t), Quat::from_array(r), Vec3::from(s))
        })
        .collect();
    for c in channels {
        let v = evaluate(c, t);
        let slot = &mut local[c.node];
        match c.property {
            Property::Translation => slot.0 = Vec3::from_slice(&v),
            Property::Rotation => slot.1 = Quat::from_slice(&v),
            Property::Scale => slot.2 = Vec3::from_slice(&v),
            Property::MorphTargetWeights => unreachable!(),
        }
    }
    let mut parent = vec![None; nodes.len()];
    for n in &nodes {
        for child in n.children() {
            parent[child.index()] = Some(n.index());
        }
    }
    fn global(i: usize, parent: &[Option<usize>], local: &[(Vec3, Quat, Vec3)]) -> Mat4 {
        let (t, r, s) = local[i];
        let m = Mat4::from_scale_rotation_translation(s, r, t);
        match parent[i] {
            Some(p) => global(p, parent, local) * m,
            None => m,
        }
    }
    (0..nodes.len())
        .map(|i| global(i, &parent, &local))
        .collect()
}

/// Positions of every primitive skinned with the joints' global matrices.
fn skinned(doc: &gltf::Document, blob: &[u8], globals: &[Mat4]) -> Vec<Vec<Vec3>> {
    let Some(skin) = doc.skins().next() else {
        return Vec::new();
    };
    let ibm: Vec<Mat4> = skin
        .reader(|_| Some(blob))
        .read_inverse_bind_matrices()
        .unwrap()
        .map(|m| Mat4::from_cols_array_2d(&m))
        .collect();
    let joints: Vec<Mat4> = skin
        .joints()
        .zip(&ibm)
        .map(|(j, ibm)| globals[j.index()] * *ibm)
        .collect();
    let mesh = doc.meshes().next().unwrap();
    mesh.primitives()
        .map(|p| {
            let reader = p.reader(|_| Some(blob));
            let positions: Vec<[f32; 3]> = reader.read_positions().unwrap().collect();
            let mut out = vec![Vec3::ZERO; positions.len()];
            let mut set = 0;
            while let (Some(j), Some(w)) = (reader.read_joints(set), reader.read_weights(set)) {
                for (v, (j, w)) in j.into_u16().zip(w.into_f32()).enumerate() {
                    for (j, w) in j.iter().zip(w) {
                        out[v] +=
                            joints[usize::from(*j)].transform_point3(Vec3::from(positions[v])) * w;
                    }
                }
                set += 1;
            }
            assert!(set > 0);
            out
        })
        .collect()
}

#[test]
fn every_export_reads_back_with_the_models_counts_and_skin() {
    let models = models();
    let mut primitives = 0;
    for (path, model) in &models {
        let out = export(model, "m", &ExportOptions::default()).unwrap();
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap_or_else(|e| panic!("{path}: {e}"));
        let doc = &gltf.document;
        let blob = gltf.blob.as_deref().unwrap_or_default();
        let skeleton = Skeleton::from_model(model);
        let timeline = Timeline::from_model(model);
        let all = meshes(model, &skeleton);
        // Animations: one per sequence, in order, named as it.
        let names: Vec<&str> = doc.animations().map(|a| a.name().unwrap()).collect();
        let sequences: Vec<&str> = timeline.sequences.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, sequences, "{path}");
        // Nodes: the root, then every node of the model by name.
        let node_names: Vec<&str> = doc.nodes().filter_map(|n| n.name()).collect();
        for node in skeleton.nodes() {
            assert!(
                node_names.contains(&node.name.as_str()),
                "{path}: {}",
                node.name
            );
        }
        let Some(mesh) = doc.meshes().next() else {
            assert!(out.geosets.is_empty(), "{path}");
            continue;
        };
        let skin = doc.skins().next().unwrap();
        assert_eq!(skin.joints().count(), skeleton.nodes().len() + 1, "{path}");
        let joint_names: Vec<&str> = skin.joints().skip(1).map(|j| j.name().unwrap()).collect();
        let model_names: Vec<&str> = skeleton.nodes().iter().map(|n| n.name.as_str()).collect();
        assert_eq!(joint_names, model_names, "{path}");
        assert_eq!(mesh.primitives().count(), out.geosets.len(), "{path}");
        for (primitive, &geoset) in mesh.primitives().zip(&out.geosets) {
            let source = &all[geoset];
            let count = |s: Semantic| primitive.get(&s).map(|a| a.count());
            assert_eq!(
                count(Semantic::Positions),
                Some(source.positions.len()),
                "{path}"
            );
            assert_eq!(
                primitive.indices().unwrap().count(),
                source.triangles.len() * 3,
                "{path}"
            );
            let uv_sets = (0..)
                .take_while(|&i| count(Semantic::TexCoords(i)).is_some())
                .count();
            assert_eq!(uv_sets, source.uv_sets.len(), "{path}");
            // Each vertex's joints and weights are its skin's influences.
            let reader = primitive.reader(|_| Some(blob));
            let mut per_vertex = vec![Vec::new(); source.positions.len()];
            let mut set = 0;
            while let (Some(j), Some(w)) = (reader.read_joints(set), reader.read_weights(set)) {
                for (v, (j, w)) in j.into_u16().zip(w.into_f32()).enumerate() {
                    per_vertex[v].extend(j.into_iter().zip(w).filter(|(_, w)| *w > 0.0));
                }
                set += 1;
            }
            for (v, got) in per_vertex.iter().enumerate() {
                let want: Vec<(u16, f32)> = match source.skin.vertex(v) {
                    [] => vec![(0, 1.0)],
                    influences => influences
                        .iter()
                        .map(|i| (i.node as u16 + 1, i.weight))
                        .collect(),
                };
                assert_eq!(*got, want, "{path}: geoset {geoset} vertex {v}");
            }
            primitives += 1;
        }
    }
    if !models.is_empty() {
        assert!(primitives >= 150, "{primitives}");
    }
}

#[test]
fn gltf_animations_pose_the_mesh_as_the_sampler_does() {
    let rest_rotation =
        Mat4::from_quat(Quat::from_array(formats::gltf::model::nodes::Z_UP_TO_Y_UP));
    let mut checked = 0;
    for (path, model) in &models() {
        let skeleton = Skeleton::from_model(model);
        let animated = |i: Option<usize>| {
            i.map(|i| &skeleton.nodes()[i]).is_some_and(|p| {
                p.translation.is_some() || p.rotation.is_some() || p.scaling.is_some()
            })
        };
        if skeleton
            .nodes()
            .iter()
            .any(|n| !n.inherit.all() && animated(n.parent))
        {
            // glTF nodes always inherit (documented): a node that does not,
            // under a moving parent, moves differently. (The corpus's
            // non-inheriting nodes all have still parents.)
            continue;
        }
        let out = export(model, "m", &ExportOptions::default()).unwrap();
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let (doc, blob) = (&gltf.document, gltf.blob.as_deref().unwrap_or_default());
        if doc.meshes().next().is_none() {
            continue;
        }
        let timeline = Timeline::from_model(model);
        let all = meshes(model, &skeleton);
        // The rest pose: the mesh as stored, turned Y-up.
        let mut moments = vec![(None, 0.0)];
        for (s, animation) in doc.animations().enumerate().take(4) {
            let duration = timeline.sequences[s].duration();
            // Times on the 1/30 s grid, where resampled keys are exact.
            let frames = (f64::from(duration) * 30.0 / 1000.0).floor() as u64;
            for k in [frames / 3, frames / 2, frames] {
                moments.push((Some((s, animation.index())), k as f64 * (1000.0 / 30.0)));
            }
        }
        for (which, ms) in moments {
            let (channels, moment) = match which {
                None => (Vec::new(), Moment::BIND),
                Some((s, a)) => {
                    let interval = timeline.sequences[s].interval;
                    let ms = ms.min(f64::from(timeline.sequences[s].duration()));
                    let moment = Moment {
                        interval: Some(interval),
                        frame: f64::from(interval[0]) + ms,
                        counter: Some(ms),
                    };
                    (channels(&doc.animations().nth(a).unwrap(), blob), moment)
                }
            };
            let t = (ms / 1000.0) as f32;
            let posed = skinned(doc, blob, &globals(doc, &channels, t));
            let pose = skeleton.pose(&Sampler::new(&timeline, moment));
            for (got, &geoset) in posed.iter().zip(&out.geosets) {
                let want = all[geoset].posed_positions(&pose);
                for (v, (g, w)) in got.iter().zip(&want).enumerate() {
                    let w = rest_rotation.transform_point3(Vec3::from(*w));
                    let scale = w.abs().max_element().max(1.0);
                    assert!(
                        g.distance(w) <= 2e-3 * scale,
                        "{path}: {which:?} at {ms} ms, geoset {geoset} vertex {v}: glTF {g}, sampler {w}"
                    );
                }
            }
        }
        checked += 1;
    }
    if common::corpus_root().is_some() {
        assert!(checked >= 30, "{checked}");
    }
}

#[test]
fn gltf_files_name_their_buffer_and_read_back() {
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let options = ExportOptions {
        sequence: Some("walk"),
        ..Default::default()
    };
    let out = export(&model, "horse", &options).unwrap();
    assert_eq!(out.animations, ["Walk"]);
    let files = out.document.to_gltf("horse").unwrap();
    let gltf = gltf::Gltf::from_slice(&files.json).unwrap();
    let buffer = gltf.document.buffers().next().unwrap();
    let gltf::buffer::Source::Uri(uri) = buffer.source() else {
        panic!("a .gltf names its buffer");
    };
    assert_eq!(uri, "horse.bin");
    assert_eq!(files.files[0].0, "horse.bin");
    assert_eq!(files.files[0].1.len(), buffer.length());
    // Unknown sequences are refused with the names there are.
    let options = ExportOptions {
        sequence: Some("Fly"),
        ..Default::default()
    };
    let err = export(&model, "horse", &options).unwrap_err().to_string();
    assert!(
        err.contains("no sequence \"Fly\"") && err.contains("Walk"),
        "{err}"
    );
    // No animations, no animation.
    let options = ExportOptions {
        animations: false,
        ..Default::default()
    };
    let out = export(&model, "horse", &options).unwrap();
    assert!(out.animations.is_empty());
}

#[test]
fn lod_selects_the_reforged_geosets_of_one_level() {
    for (path, model) in &models() {
        let skeleton = Skeleton::from_model(model);
        let all = meshes(model, &skeleton);
        let with_triangles = |lod: i32| -> Vec<usize> {
            all.iter()
                .filter(|m| (m.lod == lod || m.lod < 0) && !m.triangles.is_empty())
                .map(|m| m.geoset)
                .collect()
        };
        for lod in [0, 1, 2] {
            let options = ExportOptions {
                lod,
                animations: false,
                ..Default::default()
            };
            let out = export(model, "m", &options).unwrap();
            assert_eq!(out.geosets, with_triangles(lod), "{path} lod {lod}");
        }
    }
}

#[test]
fn missing_textures_are_listed_and_leave_materials_untextured() {
    let Some(data) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let folders = TextureFolders::new(vec![std::env::temp_dir().join("formats-no-such-folder")]);
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let out = export(&model, "horse", &options).unwrap();
    let missing: Vec<&str> = out
        .missing_textures
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    assert_eq!(
        missing,
        [
            r"Textures\gutz.blp",
            r"units\Critters\PackHorse\PackHorse.blp"
        ]
    );
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    assert_eq!(gltf.document.images().count(), 0);
    // Its skin, not the team colour layer under it, would be the base colour.
    for material in gltf.document.materials() {
        assert!(
            material
                .pbr_metallic_roughness()
                .base_color_texture()
                .is_none()
        );
    }
    // Team glow (replaceable id 2) is a flat-colour placeholder image.
    let Some(data) = common::corpus_file("mdx/w3mt_Hero_Glow.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let out = export(&model, "glow", &options).unwrap();
    let glb = out.document.to_glb().unwrap();
    let gltf = gltf::Gltf::from_slice(&glb).unwrap();
    let images: Vec<&str> = gltf.document.images().filter_map(|i| i.name()).collect();
    assert_eq!(images, ["Replaceable Texture 2"]);
    let material = gltf.document.materials().next().unwrap();
    assert!(
        material
            .pbr_metallic_roughness()
            .base_color_texture()
            .is_some()
    );
}

/// Every texture path is found, as a 4x4 PNG of one colour.
struct EveryTexture;

impl formats::gltf::TextureSource for EveryTexture {
    fn png(&self, _: &str) -> Result<Vec<u8>, String> {
        formats::gltf::textures::flat_png([10, 20, 30, 255]).map_err(|e| e.to_string())
    }
}

#[test]
fn materials_follow_the_first_layer_and_hd_textures_their_roles() {
    use formats::mdx::FilterMode;
    use gltf::material::AlphaMode;
    let mut hd_materials = 0;
    for (path, model) in &models() {
        let out = export(
            model,
            "m",
            &ExportOptions {
                textures: &EveryTexture,
                animations: false,
                ..Default::default()
            },
        )
        .unwrap();
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let materials: Vec<_> = gltf.document.materials().collect();
        assert_eq!(
            materials.len(),
            model.materials().len() + model.alpha_materials().len(),
            "{path}"
        );
        for (material, source) in materials.iter().zip(model.materials()) {
            let Some(layer) = source.layers.first() else {
                continue;
            };
            let mode = match layer.filter_mode {
                FilterMode::None => AlphaMode::Opaque,
                FilterMode::Transparent => AlphaMode::Mask,
                _ => AlphaMode::Blend,
            };
            assert_eq!(material.alpha_mode(), mode, "{path}");
            assert_eq!(
                material.double_sided(),
                layer.shading_flags & 0x10 != 0,
                "{path}"
            );
            assert_eq!(material.unlit(), layer.shading_flags & 0x1 != 0, "{path}");
            let hd = layer.shader_type_id == Some(1)
                || source
                    .shader
                    .as_ref()
                    .is_some_and(|s| s.to_string_lossy() == "Shader_HD_DefaultUnit");
            if hd {
                hd_materials += 1;
                assert!(material.normal_texture().is_some(), "{path}: HD normal map");
                assert!(material.occlusion_texture().is_some(), "{path}: HD ORM");
                assert!(
                    material
                        .pbr_metallic_roughness()
                        .metallic_roughness_texture()
                        .is_some(),
                    "{path}"
                );
            }
            let diffuse = |layer: &formats::mdx::Layer| match &layer.textures {
                Some(entries) => entries.first().map_or(-1, |e| e.texture_id),
                None => layer.texture_id,
            };
            let texture = |layer| {
                usize::try_from(diffuse(layer))
                    .ok()
                    .and_then(|d| model.textures().get(d))
            };
            // The first layer with a file texture, else the first layer.
            let textured = source
                .layers
                .iter()
                .find(|l| texture(l).is_some_and(|t| t.replaceable_id == 0))
                .unwrap_or(layer);
            let exists = texture(textured).is_some();
            let textured = material
                .pbr_metallic_roughness()
                .base_color_texture()
                .is_some();
            assert_eq!(
                textured, exists,
                "{path}: every texture is found, so each that exists"
            );
        }
        // Every image is a PNG the png crate decodes.
        for image in gltf.document.images() {
            let gltf::image::Source::View { view, mime_type } = image.source() else {
                panic!("{path}: a .glb embeds its images");
            };
            assert_eq!(mime_type, "image/png");
            let blob = gltf.blob.as_deref().unwrap();
            let bytes = &blob[view.offset()..view.offset() + view.length()];
            png::Decoder::new(std::io::Cursor::new(bytes))
                .read_info()
                .unwrap();
        }
    }
    if common::corpus_root().is_some() {
        assert!(hd_materials >= 40, "{hd_materials}");
    }
}

#[test]
fn the_five_textured_corpus_models_embed_their_textures() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let folders = TextureFolders::new(vec![root.join("mdx"), root.join("textures")]);
    let options = ExportOptions {
        textures: &folders,
        animations: false,
        ..Default::default()
    };
    let expected: [(&str, &[&str]); 5] = [
        ("edem_Basket02", &["Goods01_D.blp"]),
        ("mv_SmileyGW_004", &[r"Textures\SmileyGW.blp"]),
        ("risk_HumanBattleship_v800", &["BoatTC.blp"]),
        (
            "pqw3_icecrownraid_arthas_precipice_phase0_set0",
            &[
                r"Models\FrozenThrone\ce_arthas_side.blp",
                r"Models\FrozenThrone\ce_artahs_stairs.blp",
            ],
        ),
        (
            "pqw3_BlueUnsummon",
            &[r"Models\BlueUnsummon\BlueUnsummon.blp"],
        ),
    ];
    for (name, textures) in expected {
        let bytes = std::fs::read(root.join(format!("mdx/{name}.mdx"))).unwrap();
        let model = Model::from_bytes(&bytes).unwrap();
        let out = export(&model, name, &options).unwrap();
        assert_eq!(out.embedded_textures, textures, "{name}");
        let glb = out.document.to_glb().unwrap();
        let gltf = gltf::Gltf::from_slice(&glb).unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        for path in textures {
            // The embedded PNG holds the BLP's level 0, pixel for pixel.
            let image = gltf
                .document
                .images()
                .find(|i| i.name() == Some(path))
                .unwrap_or_else(|| panic!("{name}: no image {path}"));
            let gltf::image::Source::View { view, .. } = image.source() else {
                panic!("{name}: not embedded");
            };
            let png = &blob[view.offset()..view.offset() + view.length()];
            let mut reader = png::Decoder::new(std::io::Cursor::new(png))
                .read_info()
                .unwrap();
            let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
            let info = reader.next_frame(&mut pixels).unwrap();
            let file = folders.find(path).unwrap();
            let blp = formats::blp::Blp::from_bytes(&std::fs::read(file).unwrap()).unwrap();
            let level0 = blp.decode_level(0).unwrap();
            assert_eq!(
                (info.width, info.height),
                (level0.width, level0.height),
                "{path}"
            );
            assert_eq!(pixels, level0.data, "{path}");
            // And a material shows it.
            let shown = gltf.document.materials().any(|m| {
                m.pbr_metallic_roughness()
                    .base_color_texture()
                    .is_some_and(|t| t.texture().source().index() == image.index())
            });
            assert!(shown, "{name}: {path} on no material");
        }
    }
}
