//! glTF import of Reforged's HD materials (1100 and later): the inverse of
//! the export. Every Reforged corpus model exported and imported at its
//! own version (and every 1000 one at 1100) keeps, geoset by geoset, its
//! material's slot layout: HD or SD, filter mode, shading flags, and each
//! slot's texture (path, replaceable id, flags), the paths as the export
//! recorded them, or named for the DDS or BLP file written when the
//! document carries the image; the DDS files are what each slot takes
//! (BC1 or BC3 colour, BC5 normals, BC3 ORM with alpha 0). Files others
//! wrote (Khronos samples, the Blender fixture) import at 1100 and 1200 as
//! HD materials that `validate` finds no error in; their textures read in
//! Pillow (`import.rs`, `imported_textures_read_in_pillow`) and the models
//! in war3-model (`validate/war3_model.rs`).

use formats::dds::{Dds, PixelFormat};
use formats::gltf::{ExportOptions, FlatTextures, TextureFormat, TextureMode, export};
use formats::mdx::Model;

use super::import::{
    import_at, import_with, one_image_document, pillow_reads_as_we_do, read, validation_errors,
};

/// One slot's texture: (slot, path, replaceable id, flags).
type Slot = (u32, String, u32, u32);

/// The shading flags glTF carries: unshaded (`KHR_materials_unlit`) and
/// two-sided (`doubleSided`).
const CARRIED: u32 = 0x1 | 0x10;

/// A material as the export carries it over: whether it is HD, the first
/// layer's filter mode and shading flags ([`CARRIED`]), and the textures of the layer
/// the export takes them from (an HD layer's list, every slot; an SD
/// material's first layer whose texture is a file, its first entry, flags
/// left out as 0: an SD import writes 0).
fn layout(model: &Model, material: usize) -> (bool, u32, u32, Vec<Slot>) {
    let material = &model.materials()[material];
    let first = &material.layers[0];
    let texture = |id: i32| {
        let t = &model.textures()[id as usize];
        (
            t.file_name.to_string_lossy().into_owned(),
            t.replaceable_id,
            t.flags,
        )
    };
    let entries = |layer: &formats::mdx::Layer| layer.textures.clone().unwrap_or_default();
    let hd = first.is_hd();
    let slots = if hd {
        entries(first)
            .iter()
            .map(|e| {
                let (path, id, flags) = texture(e.texture_id);
                (e.slot, path, id, flags)
            })
            .collect()
    } else {
        let is_file = |l: &&formats::mdx::Layer| {
            entries(l).first().is_some_and(|e| {
                let (path, id, _) = texture(e.texture_id);
                id == 0 && !path.is_empty()
            })
        };
        let layer = material.layers.iter().find(is_file).unwrap_or(first);
        let (path, id, _) = texture(entries(layer)[0].texture_id);
        vec![(0, path, id, 0)]
    };
    (
        hd,
        u32::from(first.filter_mode),
        first.shading_flags & CARRIED,
        slots,
    )
}

/// The slot whose texture is `path` in `model` (first found; 0 for an SD
/// layer's).
fn slot_of(model: &Model, path: &str) -> u32 {
    let layers = model.materials().iter().flat_map(|m| &m.layers);
    let entries = layers.flat_map(|l| l.textures.iter().flatten());
    entries
        .filter(|e| {
            model.textures()[e.texture_id as usize]
                .file_name
                .to_string_lossy()
                == path
        })
        .map(|e| e.slot)
        .next()
        .unwrap_or_else(|| panic!("{path} is in no layer"))
}

/// `path` with its extension made `extension`.
fn named(path: &str, extension: &str) -> String {
    let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
    format!("{stem}.{extension}")
}

/// `model` exported (textures from `textures`: none, or flat images) and
/// imported at `version` in `mode`: the import, and the source geoset of
/// each imported one.
fn trip(
    name: &str,
    model: &Model,
    version: u32,
    textures: Option<&FlatTextures>,
    mode: TextureMode,
) -> (formats::gltf::Imported, Vec<usize>) {
    let mut options = ExportOptions::default();
    if let Some(flat) = textures {
        options.textures = flat;
    }
    let glb = export(model, name, &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .document
        .to_glb()
        .unwrap();
    let order: Vec<usize> = gltf::Gltf::from_slice(&glb)
        .unwrap()
        .nodes()
        .filter_map(|n| n.mesh())
        .filter_map(|m| m.name()?.rsplit_once(" geoset ")?.1.parse().ok())
        .collect();
    let imported = import_with(&read(&glb), version, mode)
        .unwrap_or_else(|e| panic!("{name} at {version}: {e}"));
    (imported, order)
}

/// Each imported geoset's material laid out as its source geoset's,
/// `expected` turning the source's layout into what the import makes of it.
fn compare(
    name: &str,
    source: &Model,
    imported: &Model,
    order: &[usize],
    expected: impl Fn(Vec<Slot>) -> Vec<Slot>,
) -> usize {
    assert_eq!(imported.geosets().len(), order.len(), "{name}: geosets");
    let mut hd = 0;
    for (g, &from) in order.iter().enumerate() {
        let (want_hd, filter, shading, slots) =
            layout(source, source.geosets()[from].material_id as usize);
        let got = layout(imported, imported.geosets()[g].material_id as usize);
        let want = (want_hd, filter, shading, expected(slots));
        assert_eq!(got, want, "{name}: geoset {from}'s material");
        hd += usize::from(want_hd);
    }
    hd
}

/// The corpus's Reforged models: 1100 and 1200 ones at their own version,
/// 1000 ones (whose HD materials are six layers of a
/// `Shader_HD_DefaultUnit` material) at 1100, against the original
/// converted to 1100. `None` without the corpus (which
/// `testkit::corpus_root` says loudly, and under CI fails on).
fn reforged_corpus() -> Option<Vec<(String, Model, Model)>> {
    testkit::corpus_root()?;
    let models = testkit::corpus_models();
    let mut out = Vec::new();
    for (name, model) in models {
        if model.geosets().is_empty() {
            continue;
        }
        match model.version() {
            1100 | 1200 => out.push((name, model.clone(), model)),
            1000 => {
                let mut converted = model.clone();
                formats::convert::convert(&mut converted, 1100, &Default::default()).unwrap();
                out.push((name, model, converted));
            }
            _ => {}
        }
    }
    Some(out)
}

/// Without images (the export finds no texture files), every path comes
/// back as the export recorded it: `Units/…_Diffuse.tif`, `Textures/Black32.blp`,
/// team colour as replaceable id 1, `ReplaceableTextures/EnvironmentMap.blp`.
#[test]
fn reforged_materials_keep_their_slots_and_paths() {
    let Some(corpus) = reforged_corpus() else {
        return;
    };
    let mut hd = 0;
    let mut models = 0;
    for (name, source, expected) in corpus {
        let version = expected.version();
        let (imported, order) = trip(&name, &source, version, None, TextureMode::Blp);
        assert!(imported.textures.is_empty(), "{name}: no image, no file");
        hd += compare(&name, &expected, &imported.model, &order, |slots| slots);
        models += 1;
    }
    eprintln!("{models} Reforged models, {hd} geosets with HD materials");
    // HarvestGolem's 15 geosets, the 1000 models' dozens.
    assert!(models >= 10 && hd >= 40, "{models} models, {hd} HD geosets");
}

/// With images (flat ones, as `FlatTextures` gives for every texture), each
/// image is written and the recorded path named for its file: an HD slot's
/// as DDS (`--textures blp` as `dds`), an SD layer's as BLP (with
/// `TextureMode::Dds`, DDS); replaceable textures and the slots glTF has no
/// texture for (team colour, reflection) stay as recorded. Each DDS is in
/// the format its slot takes.
#[test]
fn reforged_materials_with_images_write_each_slot_as_it_takes_it() {
    let Some(corpus) = reforged_corpus() else {
        return;
    };
    let grey = FlatTextures([128, 128, 128, 255]);
    let mut formats_seen = Vec::new();
    let out = testkit::temp_dir("import-slots-pillow");
    let mut files = Vec::new();
    for (k, (name, source, expected)) in corpus.into_iter().enumerate() {
        let version = expected.version();
        for mode in [TextureMode::Blp, TextureMode::Dds] {
            let (imported, order) = trip(&name, &source, version, Some(&grey), mode);
            files.extend(written(&imported, &out, &format!("{k}-{mode:?}-")));
            compare(&name, &expected, &imported.model, &order, |slots| {
                let hd = slots.len() > 1;
                slots
                    .into_iter()
                    .map(|(slot, path, id, flags)| {
                        // Slots 0 to 3 have glTF textures; a replaceable
                        // one stays replaceable.
                        if id != 0 || path.is_empty() || slot > 3 {
                            return (slot, path, id, flags);
                        }
                        let extension = if hd || mode == TextureMode::Dds {
                            "dds"
                        } else {
                            "blp"
                        };
                        (slot, named(&path, extension), id, flags)
                    })
                    .collect()
            });
            for texture in &imported.textures {
                let at = format!("{name} {mode:?}: {}", texture.path);
                match texture.format {
                    TextureFormat::Blp => {
                        assert!(texture.path.ends_with(".blp"), "{at}");
                        formats::blp::Blp::from_bytes(&texture.bytes).unwrap();
                        continue;
                    }
                    TextureFormat::Dds => assert!(texture.path.ends_with(".dds"), "{at}"),
                }
                let dds = Dds::from_bytes(&texture.bytes).unwrap();
                let format = dds.pixel_format().unwrap();
                let pixels = dds.decode_level(0).unwrap();
                // By the slot the model puts it in (an SD layer's: 0).
                let slot = slot_of(&imported.model, &texture.path);
                let want = match slot {
                    1 => PixelFormat::Bc5,
                    2 => PixelFormat::Bc3,
                    _ => PixelFormat::Bc1,
                };
                assert_eq!(format, want, "{at}");
                // Flat grey: X and Y at the middle (a flat normal); an ORM's
                // alpha 0 (no team colour).
                for p in pixels.data.chunks_exact(4) {
                    match format {
                        PixelFormat::Bc5 => assert_eq!(&p[..2], [128, 128], "{at}"),
                        PixelFormat::Bc3 => assert_eq!(p, [128, 128, 128, 0], "{at}"),
                        _ => assert_eq!(p, [128, 128, 128, 255], "{at}"),
                    }
                }
                if !formats_seen.contains(&format) {
                    formats_seen.push(format);
                }
            }
        }
    }
    for format in [PixelFormat::Bc1, PixelFormat::Bc3, PixelFormat::Bc5] {
        assert!(formats_seen.contains(&format), "no {format:?} written");
    }
    // Pillow reads every file written as ours decodes it.
    pillow_reads_as_we_do(&files);
}

/// `imported`'s textures written into `out`, each as `{prefix}{i}.dds` or
/// `.blp` (`i` its place in the list), for Pillow.
fn written(
    imported: &formats::gltf::Imported,
    out: &std::path::Path,
    prefix: &str,
) -> Vec<std::path::PathBuf> {
    (imported.textures.iter().enumerate())
        .map(|(i, t)| {
            let extension = if t.format == TextureFormat::Dds {
                "dds"
            } else {
                "blp"
            };
            let file = out.join(format!("{prefix}{i}.{extension}"));
            std::fs::write(&file, &t.bytes).unwrap();
            file
        })
        .collect()
}

/// The Khronos samples and the Blender fixture at 1100 and 1200: every
/// material HD, its six slots in order (the base colour's DDS, then
/// Reforged's placeholders: the documents have no other texture), no
/// `validate` error, and every file DDS: CesiumMan's opaque skin BC1, the
/// fixture's alpha-masked scales BC3.
#[test]
fn files_others_wrote_import_as_hd_materials() {
    for file in testkit::third_party_gltf() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let source = formats::gltf::Source::from_path(&file).unwrap();
        for version in [1100, 1200] {
            let imported = import_at(&source, version).unwrap();
            let model = &imported.model;
            let errors = validation_errors(model);
            assert!(errors.is_empty(), "{name} at {version}: {errors:#?}");
            for m in 0..model.materials().len() {
                let (hd, _, _, slots) = layout(model, m);
                assert!(hd, "{name} at {version}: material {m}");
                let placeholders: Vec<Slot> = (1..)
                    .zip(formats::convert::PLACEHOLDERS)
                    .map(|(slot, (id, path))| (slot, path.to_owned(), id, 3))
                    .collect();
                assert_eq!(
                    slots[1..],
                    placeholders,
                    "{name} at {version}: material {m}"
                );
                assert_eq!(slots[0].0, 0);
            }
            for texture in &imported.textures {
                assert_eq!(texture.format, TextureFormat::Dds, "{name}");
                let dds = Dds::from_bytes(&texture.bytes).unwrap();
                let image = &source.images[texture.images[0]].as_ref().unwrap();
                let want = if image.has_alpha() {
                    PixelFormat::Bc3
                } else {
                    PixelFormat::Bc1
                };
                assert_eq!(
                    dds.pixel_format().unwrap(),
                    want,
                    "{name}: {}",
                    texture.path
                );
                assert_eq!(
                    (dds.header.width, dds.header.height),
                    (image.width, image.height)
                );
            }
            let names: Vec<String> = model
                .textures()
                .iter()
                .map(|t| t.file_name.to_string_lossy().into_owned())
                .collect();
            for texture in &imported.textures {
                assert!(names.contains(&texture.path), "{name}: {}", texture.path);
            }
        }
    }
}

/// A `width` x `height` image whose pixel `(x, y)` is `pixel(x, y)`.
fn image(width: u32, height: u32, pixel: impl Fn(u32, u32) -> [u8; 4]) -> formats::blp::RgbaImage {
    let data = (0..width * height)
        .flat_map(|i| pixel(i % width, i / width))
        .collect();
    formats::blp::RgbaImage::new(width, height, data).unwrap()
}

/// A document whose one material has every glTF texture, each its own
/// image: a base colour with an alpha ramp, a normal map of unit normals,
/// an 8x8 occlusion image (strength 0.5) and a 16x16 metallic-roughness one
/// (roughness factor 0.5), an emissive image (factor [1, 0.5, 0]),
/// imported at 1100. Four files: the diffuse BC3, the normal map BC5 (X and
/// Y within 4 levels), the ORM BC3 made of both images (the occlusion one
/// sampled at 16x16, reported; red 1 + 0.5 (occlusion - 1), green
/// roughness times 0.5, blue metallic, alpha 0 exactly), the emissive BC1
/// scaled by its factor; each within 5 levels of what it should hold
/// (images of one colour a block), and read by Pillow (DDS plugin, BCn
/// decoder nobody here wrote) as by ours.
#[test]
fn every_gltf_texture_fills_its_slot() {
    use super::import::{glb, triangle_and};
    let side = 16;
    let base = image(side, side, |x, y| {
        [(40 + x * 8) as u8, (60 + y * 6) as u8, 90, (x * 17) as u8]
    });
    let normal = image(side, side, |x, y| {
        let (nx, ny) = ((x as f32 / 15.0 - 0.5) * 0.8, (y as f32 / 15.0 - 0.5) * 0.8);
        let nz = (1.0 - nx * nx - ny * ny).sqrt();
        let byte = |v: f32| ((v + 1.0) / 2.0 * 255.0).round() as u8;
        [byte(nx), byte(ny), byte(nz), 255]
    });
    // One colour a 4x4 block (2x2 in the 8x8 occlusion image, which is
    // sampled at 16x16): a block of one colour is what BC1 and BC3 hold
    // nearly exactly (5 and 6 bits a channel), so what is compared is what
    // the ORM and emissive textures are made of, not the codec's fit.
    let occlusion = image(8, 8, |x, y| {
        [(100 + x / 2 * 40 + y / 2 * 10) as u8, 0, 0, 255]
    });
    let metallic_roughness = image(side, side, |x, y| {
        [0, (60 + x / 4 * 50) as u8, (20 + y / 4 * 60) as u8, 255]
    });
    let emissive = image(side, side, |x, y| {
        [(250 - x / 4 * 40) as u8, (40 + y / 4 * 50) as u8, 250, 255]
    });
    let images = [&base, &normal, &occlusion, &metallic_roughness, &emissive];
    let mut rest = Vec::new();
    let mut views = Vec::new();
    for image in images {
        let png = image.to_png().unwrap();
        views.push((36 + rest.len(), png.len()));
        rest.extend_from_slice(&png);
        rest.resize(rest.len().next_multiple_of(4), 0);
    }
    let (bin, mut view_list, accessors) = triangle_and(&rest);
    let list = view_list.as_array_mut().unwrap();
    list.truncate(1);
    for (offset, length) in &views {
        list.push(serde_json::json!({ "buffer": 0, "byteOffset": offset, "byteLength": length }));
    }
    let document = glb(
        serde_json::json!({
            "bufferViews": view_list, "accessors": accessors,
            "images": (1..=5).map(|v| serde_json::json!({
                "bufferView": v, "mimeType": "image/png", "name": format!("image{v}")
            })).collect::<Vec<_>>(),
            "textures": (0..5).map(|i| serde_json::json!({ "source": i })).collect::<Vec<_>>(),
            "materials": [{
                "pbrMetallicRoughness": {
                    "baseColorTexture": { "index": 0 },
                    "metallicRoughnessTexture": { "index": 3 },
                    "roughnessFactor": 0.5, "metallicFactor": 1.0
                },
                "normalTexture": { "index": 1 },
                "occlusionTexture": { "index": 2, "strength": 0.5 },
                "emissiveTexture": { "index": 4 },
                "emissiveFactor": [1.0, 0.5, 0.0],
                "alphaMode": "BLEND"
            }],
            "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 }, "material": 0 }] }],
            "nodes": [{ "mesh": 0 }], "scenes": [{ "nodes": [0] }],
        }),
        &bin,
    );
    let imported = import_at(&read(&document), 1100).unwrap();
    let model = &imported.model;
    let (hd, filter, _, slots) = layout(model, 0);
    assert!(hd);
    assert_eq!(filter, 2, "blend");
    let paths: Vec<&str> = slots.iter().map(|s| s.1.as_str()).collect();
    assert_eq!(
        paths,
        [
            "image1.dds",
            "image2.dds",
            "image4.dds",
            "image5.dds",
            "",
            "ReplaceableTextures\\EnvironmentMap.dds"
        ]
    );
    assert!(
        (imported.report.approximated.iter())
            .any(|n| n.what.contains("differ in size") && n.what.contains("the 8x8 one's")),
        "{:?}",
        imported.report.approximated
    );
    let texture = |path: &str| {
        let t = imported.textures.iter().find(|t| t.path == path).unwrap();
        assert_eq!(t.format, TextureFormat::Dds);
        let dds = Dds::from_bytes(&t.bytes).unwrap();
        (
            t.images.clone(),
            dds.pixel_format().unwrap(),
            dds.decode_level(0).unwrap(),
        )
    };
    assert_eq!(imported.textures.len(), 4);
    let within = |name: &str,
                  got: &formats::blp::RgbaImage,
                  want: &dyn Fn(u32, u32) -> [u8; 4],
                  channels: &[(usize, u8)]| {
        for (i, px) in got.data.chunks_exact(4).enumerate() {
            let (x, y) = (i as u32 % got.width, i as u32 / got.width);
            let want = want(x, y);
            for &(c, limit) in channels {
                assert!(
                    px[c].abs_diff(want[c]) <= limit,
                    "{name} ({x}, {y}) channel {c}: {} vs {}",
                    px[c],
                    want[c]
                );
            }
        }
    };
    let at = |image: &formats::blp::RgbaImage, x: u32, y: u32| {
        let i = ((y * image.width + x) * 4) as usize;
        [
            image.data[i],
            image.data[i + 1],
            image.data[i + 2],
            image.data[i + 3],
        ]
    };
    let (from, format, diffuse) = texture("image1.dds");
    assert_eq!((from, format), (vec![0], PixelFormat::Bc3));
    within("diffuse", &diffuse, &|x, y| at(&base, x, y), &[(3, 8)]);
    let (from, format, normals) = texture("image2.dds");
    assert_eq!((from, format), (vec![1], PixelFormat::Bc5));
    within(
        "normal",
        &normals,
        &|x, y| at(&normal, x, y),
        &[(0, 4), (1, 4)],
    );
    let (from, format, orm) = texture("image4.dds");
    assert_eq!((from, format), (vec![2, 3], PixelFormat::Bc3));
    let want_orm = |x: u32, y: u32| {
        let o = f32::from(at(&occlusion, x / 2, y / 2)[0]);
        let [_, g, b, _] = at(&metallic_roughness, x, y);
        [
            (255.0 - 0.5 * (255.0 - o)).round() as u8,
            (f32::from(g) * 0.5).round() as u8,
            b,
            0,
        ]
    };
    within("ORM", &orm, &want_orm, &[(0, 5), (1, 5), (2, 5), (3, 0)]);
    let (from, format, glow) = texture("image5.dds");
    assert_eq!((from, format), (vec![4], PixelFormat::Bc1));
    let want_glow = |x: u32, y: u32| {
        let [r, g, _, _] = at(&emissive, x, y);
        [r, (f32::from(g) * 0.5).round() as u8, 0, 255]
    };
    within(
        "emissive",
        &glow,
        &want_glow,
        &[(0, 5), (1, 5), (2, 5), (3, 0)],
    );

    // Pillow reads each file as ours decodes it.
    let out = testkit::temp_dir("import-every-slot");
    pillow_reads_as_we_do(&written(&imported, &out, ""));
}

/// One 2048x2048 image (4 Mi pixels) as the emissive texture of ten
/// materials, each scaling it by its own factor: each is a texture of its
/// own, and the import encodes at most 2^25 pixels (8 of them); the other
/// two are left out, reported, and their slots hold black, as without an
/// image. The first is cluster-fitted (2^22 pixels), the next seven
/// range-fitted, reported. (The image is of one colour, which encodes
/// fast.)
#[test]
fn textures_encoded_are_counted_against_a_budget() {
    let side = 2048;
    let png = image(side, side, |_, _| [200, 100, 50, 255])
        .to_png()
        .unwrap();
    let n = 10;
    let materials = (0..n)
        .map(|m| {
            serde_json::json!({
                "emissiveTexture": { "index": 0 },
                "emissiveFactor": [1.0, 1.0, m as f64 / 10.0],
            })
        })
        .collect();
    let document = one_image_document(&png, "glow", materials);
    let imported = import_at(&read(&document), 1100).unwrap();
    assert_eq!(imported.textures.len(), 8);
    let left_out = (imported.report.dropped.iter())
        .filter(|n| {
            n.what
                .contains("past the 33554432 pixels an import encodes")
        })
        .count();
    assert_eq!(left_out, 2, "{:?}", imported.report.dropped);
    let ranged = (imported.report.approximated.iter())
        .filter(|n| n.what.contains("fitted by range, not cluster"))
        .count();
    assert_eq!(ranged, 7, "{:?}", imported.report.approximated);
    let model = &imported.model;
    let emissive: Vec<String> = (0..n).map(|m| layout(model, m).3[3].1.clone()).collect();
    assert_eq!(
        emissive[8..],
        ["Textures\\Black32.dds", "Textures\\Black32.dds"]
    );
    assert!(
        emissive[..8]
            .iter()
            .all(|p| p.starts_with("glow") && p.ends_with(".dds"))
    );
}
