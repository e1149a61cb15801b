//! The Khronos glTF Validator (npm `gltf-validator`, installed by `.ci/run`
//! into `tests/gltf_validator`) on the export of every corpus model (`mdx/`
//! and `mdl/`, with the corpus textures), as `.glb`, and on a few as `.gltf`
//! with their `.bin` and images beside them: 0 errors and 0 warnings each,
//! and the validator's own counts of primitives, vertices, triangles,
//! animations and images those of the model (images counted here from the
//! model's `TEXS` and the texture folders, and again in the file as the
//! `gltf` crate reads it); on the export of every corpus tile (`adt/` and
//! the map folder), and on what `formats export` writes of the corpus map
//! (as `.glb` and as `.gltf`): 0 errors and 0 warnings each. One node
//! process validates every file of a test.
//!
//! Under `CI=true` a missing node or validator is a failure; elsewhere the
//! test says loudly that it did not run.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use formats::anim::{Skeleton, meshes};
use formats::gltf::{
    Document, Export, ExportOptions, GltfFiles, TextureFolders, export, export_tile,
};
use formats::mdx::alpha::TexLayer;
use formats::mdx::{Chunk, Layer, Model};
use serde_json::json;

use testkit::gltf_validator::{assert_clean, assert_valid, validator};

/// What the validator should count in the export of `model`, its textures
/// looked up in `folders`: the exported geosets' primitives, vertices and
/// triangles, the animations, and the images ([`images`]).
fn expected_counts(model: &Model, exported: &Export, folders: &[PathBuf]) -> serde_json::Value {
    let all = meshes(model, &Skeleton::from_model(model));
    let geosets = exported.geosets.iter().map(|&g| &all[g]);
    json!({
        "primitives": exported.geosets.len(),
        "vertices": geosets.clone().map(|m| m.positions.len()).sum::<usize>(),
        "triangles": geosets.map(|m| m.triangles.len()).sum::<usize>(),
        "animations": exported.animations.len(),
        "images": images(model, folders),
    })
}

/// The validator's counts in `report`, next to [`expected_counts`]'s.
fn counted(report: &serde_json::Value) -> serde_json::Value {
    let counts = &report["counts"];
    json!({
        "primitives": counts["primitives"],
        "vertices": counts["vertices"],
        "triangles": counts["triangles"],
        "animations": counts["animations"],
        "images": counts["images"],
    })
}

/// The file `texs_path` names under one of `folders`, each component
/// matched ASCII case-insensitively, `\` and `/` both separators (written
/// here apart from `TextureFolders::find`, which it checks).
fn find_texture(folders: &[PathBuf], texs_path: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = texs_path
        .split(['\\', '/'])
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() || parts.contains(&"..") {
        return None;
    }
    folders.iter().find_map(|folder| {
        let mut at = folder.clone();
        for part in &parts {
            at = std::fs::read_dir(&at)
                .ok()?
                .map(|e| e.unwrap().path())
                .find(|p| p.file_name().unwrap().eq_ignore_ascii_case(part))?;
        }
        at.is_file().then(|| at.canonicalize().unwrap())
    })
}

/// The `TEXS` entries the export's materials show, by the rules
/// the `formats::gltf` docs describe (materials): a classic (SD) material
/// shows the diffuse texture of its first layer whose texture is a file,
/// else of its first layer (so a unit's skin rather than the team colour
/// under it); an HD one its diffuse, normal, ORM and emissive slots (1100
/// and later: the first four entries of that layer's texture list; the
/// `Shader_HD_DefaultUnit` materials of 900 and 1000: their first four
/// layers), not team colour or the environment map; a WoW alpha material
/// the texture of its first layer with a file texture, else its first.
fn shown_textures(model: &Model) -> BTreeSet<usize> {
    /// The first layer whose diffuse texture is a file, else the first.
    fn first_textured<L>(layers: &[L], is_file: impl Fn(&L) -> bool) -> Option<&L> {
        layers.iter().find(|l| is_file(l)).or(layers.first())
    }

    let index = |id: i64| {
        usize::try_from(id)
            .ok()
            .filter(|&i| i < model.textures().len())
    };
    let is_file = |id: Option<usize>| id.is_some_and(|i| model.textures()[i].replaceable_id == 0);
    let mut shown = BTreeSet::new();
    for material in model.materials() {
        let diffuse = |layer: &Layer| match &layer.textures {
            Some(entries) => entries.first().and_then(|e| index(e.texture_id.into())),
            None => index(layer.texture_id.into()),
        };
        let Some(textured) = first_textured(&material.layers, |l| is_file(diffuse(l))) else {
            continue;
        };
        match &textured.textures {
            Some(entries) if textured.is_hd() => shown.extend(
                entries
                    .iter()
                    .take(4)
                    .filter_map(|e| index(e.texture_id.into())),
            ),
            None if material.has_hd_shader() => shown.extend(
                material
                    .layers
                    .iter()
                    .take(4)
                    .filter_map(|l| index(l.texture_id.into())),
            ),
            _ => shown.extend(diffuse(textured)),
        }
    }
    for material in model.alpha_materials() {
        let diffuse = |layer: &TexLayer| {
            (layer.texture_id != u32::MAX)
                .then(|| index(layer.texture_id.into()))
                .flatten()
        };
        let Some(textured) = first_textured(&material.tex_layers, |l| is_file(diffuse(l))) else {
            continue;
        };
        shown.extend(diffuse(textured));
    }
    shown
}

/// How many images the export of `model` should embed, its textures
/// looked up in `folders`: one per distinct file that a texture it shows
/// ([`shown_textures`]) names and [`find_texture`] finds, and one
/// flat-colour placeholder per replaceable id it shows (the exporter
/// documents both). Every corpus texture file found is also one a material
/// shows, so this is also the number of the model's `TEXS` paths found in
/// the folders, plus the placeholders: asserted too.
fn images(model: &Model, folders: &[PathBuf]) -> usize {
    let textures = model.textures();
    let shown = shown_textures(model);
    let files = |ids: &mut dyn Iterator<Item = usize>| -> BTreeSet<PathBuf> {
        ids.filter(|&i| textures[i].replaceable_id == 0)
            .filter_map(|i| find_texture(folders, &textures[i].file_name.to_string_lossy()))
            .collect()
    };
    let shown_files = files(&mut shown.iter().copied());
    assert_eq!(
        shown_files,
        files(&mut (0..textures.len())),
        "a texture file found that no material shows"
    );
    let placeholders: BTreeSet<u32> = shown
        .iter()
        .map(|&i| textures[i].replaceable_id)
        .filter(|&id| id != 0)
        .collect();
    shown_files.len() + placeholders.len()
}

/// The images of the `.glb` or `.gltf` at `file` as the `gltf` crate reads
/// them, each checked to be where the file says: in the `.glb`'s binary
/// chunk, or a file beside the `.gltf`.
fn images_read_back(file: &Path) -> usize {
    let gltf = gltf::Gltf::open(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let blob = gltf.blob.as_deref().unwrap_or_default();
    for image in gltf.document.images() {
        match image.source() {
            gltf::image::Source::View { view, mime_type } => {
                assert_eq!(mime_type, "image/png");
                assert!(view.offset() + view.length() <= blob.len());
            }
            gltf::image::Source::Uri { uri, .. } => {
                assert!(
                    file.with_file_name(uri).is_file(),
                    "{}: {uri}",
                    file.display()
                );
            }
        }
    }
    gltf.document.images().count()
}

/// Writes `document` into `out` as `stem.glb`, and if `as_gltf` also as
/// `stem.gltf` with its files beside it; gives the documents' paths.
fn write(out: &Path, stem: &str, document: &Document, as_gltf: bool) -> Vec<PathBuf> {
    let glb = out.join(format!("{stem}.glb"));
    std::fs::write(&glb, document.to_glb().unwrap()).unwrap();
    let mut paths = vec![glb];
    if as_gltf {
        let GltfFiles {
            json,
            files: beside,
        } = document.to_gltf(stem).unwrap();
        for (name, bytes) in beside {
            std::fs::write(out.join(name), bytes).unwrap();
        }
        let gltf = out.join(format!("{stem}.gltf"));
        std::fs::write(&gltf, json).unwrap();
        paths.push(gltf);
    }
    paths
}

#[test]
fn every_corpus_export_is_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-validate");
    let texture_folders = vec![root.join("mdx"), root.join("textures")];
    let folders = TextureFolders::new(texture_folders.clone());
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let mut embedded = 0;
    for path in common::files_in(&root, "mdx", ".mdx") {
        let bytes = std::fs::read(root.join(&path)).unwrap();
        let (model, _) = Model::from_bytes_lenient(&bytes).unwrap();
        let stem = Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let exported = export(&model, &stem, &options).unwrap();
        embedded += exported.embedded_textures.len();
        let as_gltf = [
            "rms_PackHorse",
            "wowalpha_Boar",
            "pqw3_HarvestGolem",
            "mv_SmileyGW_004",
        ]
        .contains(&stem.as_str());
        let written = write(&out, &stem, &exported.document, as_gltf);
        let counts = expected_counts(&model, &exported, &texture_folders);
        expected.extend(written.iter().map(|f| (f.clone(), counts.clone())));
        files.extend(written);
    }
    let reports = assert_valid(&validator, &files);
    assert_eq!(reports.len(), 57 + 4);
    let mut images = 0;
    for (report, (file, counts)) in reports.iter().zip(&expected) {
        assert_eq!(report["warnings"], 0, "{report}");
        assert_eq!(counted(report), *counts, "{}", file.display());
        assert_eq!(
            images_read_back(file),
            counts["images"],
            "{}",
            file.display()
        );
        if file.extension().is_some_and(|e| e == "glb") {
            images += counts["images"].as_u64().unwrap();
        }
    }
    // The six corpus textures of five models went in (and were validated),
    // with six placeholders for replaceable textures.
    assert_eq!(embedded, 6);
    assert_eq!(images, 6 + 6);
}

/// Every Reforged corpus model (900 to 1200) with each texture file it
/// names given as DDS, as the game ships them (`X.dds` for a `TEXS` path
/// `X.tif` or `X.blp`; a 2 x 1 texture here, `formats::dds` is checked
/// against Pillow in `dds_pillow.rs`): no texture is missing, so every HD
/// slot (diffuse, normal, ORM, emissive) is textured, and every primitive
/// whose material has a normal texture carries `TANGENT` (the model's
/// `TANG`); 0 errors and 0 warnings each.
#[test]
fn reforged_models_with_their_dds_textures_export_clean() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-dds");
    let folder = out.join("textures");
    let folders = TextureFolders::new(vec![folder.clone()]);
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let dds = formats::dds::tiny_dds_rgba();
    let (mut files, mut normal_mapped) = (Vec::new(), 0);
    for path in common::files_in(&root, "mdx", ".mdx") {
        let bytes = std::fs::read(root.join(&path)).unwrap();
        let (model, _) = Model::from_bytes_lenient(&bytes).unwrap();
        if !(900..=1200).contains(&model.version()) {
            continue;
        }
        for texture in model.textures() {
            let name = texture.file_name.to_string_lossy().replace('\\', "/");
            if texture.replaceable_id == 0 && !name.is_empty() {
                let file = folder.join(Path::new(&name).with_extension("dds"));
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(file, &dds).unwrap();
            }
        }
        let stem = Path::new(&path).file_stem().unwrap().to_string_lossy();
        let exported = export(&model, &stem, &options).unwrap();
        assert!(
            exported.missing_textures.is_empty(),
            "{path}: {:?}",
            exported.missing_textures
        );
        let glb = write(&out, &stem, &exported.document, false);
        let gltf = gltf::Gltf::open(&glb[0]).unwrap();
        for primitive in gltf.meshes().flat_map(|m| m.primitives()) {
            if primitive.material().normal_texture().is_some() {
                normal_mapped += 1;
                assert!(
                    primitive.get(&gltf::Semantic::Tangents).is_some(),
                    "{path}: a normal-mapped primitive without tangents"
                );
            }
        }
        files.extend(glb);
    }
    assert_eq!(files.len(), 13, "the Reforged corpus models (1000 to 1200)");
    assert!(normal_mapped > 0);
    assert_clean(&validator, &files);
}

/// Every corpus `.mdl` (36: the only v900 model, one without a `Version`
/// block, models found only as text), read as `formats export` reads it
/// (strictly, else leniently) and exported with its textures looked up
/// beside it and in the corpus textures: 0 errors and 0 warnings each, one
/// report per file, the validator's counts those of the model, the totals
/// pinned.
#[test]
fn every_corpus_mdl_export_is_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-validate-mdl");
    let texture_folders = vec![root.join("mdl"), root.join("textures")];
    let folders = TextureFolders::new(texture_folders.clone());
    let options = ExportOptions {
        textures: &folders,
        ..Default::default()
    };
    let mut files = Vec::new();
    let mut expected = Vec::new();
    let mut versions = std::collections::BTreeMap::new();
    let mut embedded = Vec::new();
    for path in common::files_in(&root, "mdl", ".mdl") {
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        let model = formats::mdl::from_str(&text)
            .or_else(|_| formats::mdl::from_str_lenient(&text).map(|(m, _)| m))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let version = model.chunks.iter().find_map(|c| match c {
            Chunk::Version(v) => Some(v.version),
            _ => None,
        });
        *versions.entry(version).or_insert(0) += 1;
        let stem = Path::new(&path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let exported = export(&model, &stem, &options).unwrap_or_else(|e| panic!("{path}: {e}"));
        embedded.extend(
            exported
                .embedded_textures
                .iter()
                .map(|t| format!("{stem}: {t}")),
        );
        // The v900 model and the one without a version also as .gltf.
        let as_gltf =
            ["pqw3_icecrown_precipicerunes_01", "zf_particle_emitter"].contains(&stem.as_str());
        let written = write(&out, &stem, &exported.document, as_gltf);
        let counts = expected_counts(&model, &exported, &texture_folders);
        expected.extend(written.iter().map(|f| (f.clone(), counts.clone())));
        files.extend(written);
    }
    assert_eq!(
        versions,
        [
            (None, 1),
            (Some(800), 32),
            (Some(900), 1),
            (Some(1000), 1),
            (Some(1100), 1)
        ]
        .into()
    );
    let reports = assert_valid(&validator, &files);
    assert_eq!(reports.len(), 36 + 2);
    let mut total =
        json!({"primitives": 0, "vertices": 0, "triangles": 0, "animations": 0, "images": 0});
    for (report, (file, counts)) in reports.iter().zip(&expected) {
        assert_eq!(report["warnings"], 0, "{report}");
        assert_eq!(counted(report), *counts, "{}", file.display());
        assert_eq!(
            images_read_back(file),
            counts["images"],
            "{}",
            file.display()
        );
        if file.extension().is_some_and(|e| e == "glb") {
            for (key, value) in total.as_object_mut().unwrap() {
                *value = json!(value.as_u64().unwrap() + counts[key].as_u64().unwrap());
            }
        }
    }
    assert_eq!(
        total,
        json!({"primitives": 65, "vertices": 41277, "triangles": 42588, "animations": 70, "images": 9})
    );
    // The corpus textures of two models went in (and were validated); the
    // other 6 images of the total are placeholders for replaceable textures.
    assert_eq!(
        embedded,
        [
            r"pqw3_BlueUnsummon: Models\BlueUnsummon\BlueUnsummon.blp",
            r"pqw3_icecrownraid_arthas_precipice_phase0_set0: Models\FrozenThrone\ce_arthas_side.blp",
            r"pqw3_icecrownraid_arthas_precipice_phase0_set0: Models\FrozenThrone\ce_artahs_stairs.blp",
        ]
    );
}

#[test]
fn every_corpus_tile_exports_valid_gltf() {
    if common::corpus_root().is_none() {
        return;
    }
    let Some(validator) = validator() else {
        return;
    };
    let out = common::temp_dir("gltf-tiles");
    let mut files = Vec::new();
    let mut placements = 0;
    for (path, adt) in common::corpus_tiles() {
        let stem = Path::new(&path).file_stem().unwrap().to_string_lossy();
        let exported = export_tile(&adt, &stem).unwrap();
        placements += exported.doodads + exported.map_objects;
        // One as .gltf with its .bin beside it.
        let as_gltf = stem == "cataclysmctf_31_27";
        files.extend(write(&out, &stem, &exported.document, as_gltf));
    }
    assert_eq!(assert_clean(&validator, &files), 12 + 1);
    // Placements went in (Northrend alone has 2294 doodads).
    assert!(placements > 3000, "{placements}");
}
