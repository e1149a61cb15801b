//! `formats export` and `formats render --pose`, driven as a user would: one
//! model to `.glb` and `.gltf`, several into a folder, the options, bad input;
//! a posed wireframe that differs from the bind pose.

use crate::common;

use std::path::PathBuf;

use common::{formats, formats_command, temp_dir};

use predicates::prelude::*;

#[test]
fn one_model_to_glb_and_to_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("one");
    let horse = root.join("mdx/rms_PackHorse.mdx");
    let glb = dir.join("horse.glb");
    formats!["export", &horse, &glb]
        .success()
        .stdout(predicate::str::contains(
            "3 primitives, 76 joints, 14 animations, 0 textures embedded",
        ))
        .stderr(
            predicate::str::contains("textures left out")
                .and(predicate::str::contains("PackHorse.blp")),
        );
    let bytes = std::fs::read(&glb).unwrap();
    let gltf = gltf::Gltf::from_slice(&bytes).unwrap();
    assert_eq!(gltf.document.animations().count(), 14);
    // The horse's hermite and bezier translations are cubic splines, or
    // with --resample-splines linear keys.
    let cubic = |gltf: &gltf::Gltf| {
        gltf.document
            .animations()
            .flat_map(|a| a.samplers().map(|s| s.interpolation()).collect::<Vec<_>>())
            .filter(|i| *i == gltf::animation::Interpolation::CubicSpline)
            .count()
    };
    assert!(cubic(&gltf) > 0);
    let linear = dir.join("linear.glb");
    formats!["export", &horse, &linear, "--resample-splines"].success();
    let resampled = gltf::Gltf::from_slice(&std::fs::read(&linear).unwrap()).unwrap();
    assert_eq!(resampled.document.animations().count(), 14);
    assert_eq!(cubic(&resampled), 0);
    // .gltf: the JSON with its buffer beside it; one sequence; into a
    // folder that is made for it.
    let nested = dir.join("new/folder");
    let out = nested.join("walk.gltf");
    formats!["export", &horse, &out, "--sequence", "Walk"]
        .success()
        .stdout(predicate::str::contains("1 animation,"));
    assert!(nested.join("walk.bin").is_file());
    let gltf = gltf::Gltf::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let names: Vec<_> = gltf
        .document
        .animations()
        .filter_map(|a| a.name())
        .collect();
    assert_eq!(names, ["Walk"]);
    // --geoset-visibility: the geosets' nodes carry KHR_node_visibility and
    // the animations pointer channels (gltf_visibility.rs checks what they
    // say); without it, neither.
    let shown = dir.join("shown.gltf");
    formats!["export", &horse, &shown, "--geoset-visibility"].success();
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&shown).unwrap()).unwrap();
    let used = json["extensionsUsed"].to_string();
    assert!(used.contains("KHR_node_visibility") && used.contains("KHR_animation_pointer"));
    let visible = |name: &str| {
        let nodes = json["nodes"].as_array().unwrap();
        let node = nodes.iter().find(|n| n["name"] == name).unwrap();
        node["extensions"]["KHR_node_visibility"]["visible"].clone()
    };
    assert_eq!(visible("rms_PackHorse geoset 1"), true);
    let decay = json["animations"].as_array().unwrap();
    let decay = decay.iter().find(|a| a["name"] == "Decay Bone").unwrap();
    let pointers = decay["channels"].as_array().unwrap().iter();
    let pointers: Vec<_> = pointers
        .filter(|c| c["target"]["path"] == "pointer")
        .collect();
    assert_eq!(pointers.len(), 3, "{pointers:?}");
    let plain = std::fs::read_to_string(nested.join("walk.gltf")).unwrap();
    assert!(!plain.contains("KHR_node_visibility") && !plain.contains("\"pointer\""));
    // --material-colors: the geosets that fade get materials of their own,
    // animated by pointer channels (gltf_colors.rs checks what they say).
    let tinted = dir.join("tinted.gltf");
    formats!["export", &horse, &tinted, "--material-colors"].success();
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&tinted).unwrap()).unwrap();
    assert!(
        json["extensionsUsed"]
            .to_string()
            .contains("KHR_animation_pointer")
    );
    let own_materials = |json: &serde_json::Value| -> Vec<usize> {
        let materials = json["materials"].as_array().unwrap().iter();
        materials
            .enumerate()
            .filter(|(_, m)| m["name"].as_str().unwrap().contains(" geoset "))
            .map(|(i, _)| i)
            .collect()
    };
    let own = own_materials(&json);
    assert_eq!(own.len(), 3, "{own:?}");
    let decay = json["animations"].as_array().unwrap();
    let decay = decay.iter().find(|a| a["name"] == "Decay Bone").unwrap();
    let pointers: Vec<String> = decay["channels"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["target"]["extensions"]["KHR_animation_pointer"]["pointer"].as_str())
        .map(str::to_string)
        .collect();
    let want: Vec<String> = own
        .iter()
        .map(|m| format!("/materials/{m}/pbrMetallicRoughness/baseColorFactor"))
        .collect();
    assert_eq!(pointers, want);
    let plain: serde_json::Value = serde_json::from_str(&plain).unwrap();
    assert!(own_materials(&plain).is_empty());
    // --pointer-animations: all four options, so the same materials of
    // their own and the visibility of the geosets' nodes.
    let all = dir.join("all.gltf");
    formats!["export", &horse, &all, "--pointer-animations"].success();
    let all: serde_json::Value = serde_json::from_slice(&std::fs::read(&all).unwrap()).unwrap();
    assert_eq!(own_materials(&all), own);
    assert!(
        all["extensionsUsed"]
            .to_string()
            .contains("KHR_node_visibility")
    );
    // MDL in.
    let mdl = root.join("mdl/rms_PackHorse_magos.mdl");
    formats!["export", &mdl, dir.join("magos.glb"), "--no-animations"]
        .success()
        .stdout(predicate::str::contains("0 animations"));
}

#[test]
fn several_models_go_into_a_folder() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("many");
    let names = [
        "wowalpha_Boar",
        "pqw3_HarvestGolem",
        "mv_SmileyGW_004",
        "zf_minimal",
    ];
    let mut cmd = formats_command();
    cmd.arg("export");
    for name in names {
        cmd.arg(root.join(format!("mdx/{name}.mdx")));
    }
    cmd.arg(dir.join("out")).args(["--lod", "0"]);
    cmd.assert().success();
    for name in names {
        let path = dir.join(format!("out/{name}.glb"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        gltf::Gltf::from_slice(&bytes).unwrap();
    }
    // --gltf writes .gltf files into the folder.
    formats![
        "export",
        root.join("mdx/zf_minimal.mdx"),
        root.join("mdx/wowalpha_Boar.mdx"),
        dir.join("text"),
        "--gltf"
    ]
    .success();
    assert!(dir.join("text/wowalpha_Boar.gltf").is_file());
    assert!(dir.join("text/wowalpha_Boar.bin").is_file());
}

/// A folder of models is walked: every model in it and below exports, the
/// files that are not models are passed over.
#[test]
fn a_folder_of_models_exports_every_model_in_it() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("folder");
    let units = dir.join("units");
    std::fs::create_dir_all(units.join("nested")).unwrap();
    std::fs::copy(
        root.join("mdx/zf_minimal.mdx"),
        units.join("zf_minimal.mdx"),
    )
    .unwrap();
    std::fs::copy(
        root.join("mdx/wowalpha_Boar.mdx"),
        units.join("nested/wowalpha_Boar.mdx"),
    )
    .unwrap();
    std::fs::write(units.join("notes.txt"), "not a model").unwrap();
    formats!["export", &units, dir.join("out")]
        .success()
        .stdout(predicate::str::contains("zf_minimal.glb"))
        .stdout(predicate::str::contains("wowalpha_Boar.glb"));
    let written = common::listing(&dir.join("out"));
    assert_eq!(written, ["wowalpha_Boar.glb", "zf_minimal.glb"]);
    for name in &written {
        let bytes = std::fs::read(dir.join("out").join(name)).unwrap();
        gltf::Gltf::from_slice(&bytes).unwrap();
    }
}

#[test]
fn bad_exports_say_why() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("bad");
    let horse = root.join("mdx/rms_PackHorse.mdx");
    formats!["export", &horse, dir.join("x.glb"), "--sequence", "Fly"]
        .failure()
        .stderr(predicate::str::contains(
            "no sequence \"Fly\"; the model has \"Walk\", \"Stand -1\", \"Stand -2\", ",
        ));
    // Options may stand between the inputs and the output, as anywhere.
    formats![
        "export",
        &horse,
        "--sequence",
        "Walk",
        "--lod",
        "0",
        dir.join("between.glb")
    ]
    .success();
    assert!(dir.join("between.glb").is_file());
    // One path is a usage error (exit code 2), for each IN... OUT command.
    for command in ["export", "convert", "optimize"] {
        formats![command, &horse]
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{command} takes the inputs, then where to write (IN... OUT)"
            )))
            .stderr(predicate::str::contains("Usage:"));
    }
    // Two inputs cannot go into one file (one named twice is one input).
    formats![
        "export",
        &horse,
        root.join("mdl/rms_PackHorse.mdl"),
        dir.join("x.glb")
    ]
    .failure()
    .stderr(predicate::str::contains("go into a folder"));
    // Two inputs with one name would overwrite each other.
    formats![
        "export",
        &horse,
        root.join("mdl/rms_PackHorse.mdl"),
        dir.join("same")
    ]
    .failure()
    .stderr(predicate::str::contains("would both be written to"));
    // A texture has no glTF export; the other inputs (a tile, a model)
    // still export.
    let texture = common::files_in(&root, "blp", ".blp").remove(0);
    let tile = root.join("adt/blizzardry_Azeroth_38_46.adt");
    formats![
        "export",
        root.join(texture),
        &tile,
        &horse,
        dir.join("mixed")
    ]
    .failure()
    .stderr(predicate::str::contains("BLP files have no glTF export"));
    assert!(dir.join("mixed/rms_PackHorse.glb").is_file());
    assert!(dir.join("mixed/blizzardry_Azeroth_38_46.glb").is_file());
    // Options that would be ignored, and an output that is neither a glTF
    // file nor a folder, are refused before anything is written.
    let refused: [(&[&str], &str, &str); 3] = [
        (
            &["--textures", "no/such/dir"],
            "x.glb",
            "--textures no/such/dir: no such folder",
        ),
        (
            &["--gltf"],
            "x.glb",
            "--gltf writes .gltf files into a folder",
        ),
        (
            &[],
            "cube.obj",
            "is neither a file this command writes nor a folder",
        ),
    ];
    for (flags, out, message) in refused {
        formats_command()
            .current_dir(&dir)
            .arg("export")
            .arg(&horse)
            .arg(out)
            .args(flags)
            .assert()
            .failure()
            .stderr(predicate::str::contains(message));
        assert!(!dir.join(out).exists(), "{out}");
    }
}

/// `render --wireframe` takes one model, says when there is nothing to draw
/// and when a pose is past its sequence's end.
#[test]
fn render_says_what_it_cannot_draw() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("render-says");
    let horse = root.join("mdx/rms_PackHorse.mdx");
    formats![
        "render",
        &horse,
        root.join("mdx/zf_cube.mdx"),
        "--wireframe",
        dir.join("w.png")
    ]
    .failure()
    .stderr(predicate::str::contains(
        "--wireframe draws one model (.mdx, .mdl) at a time",
    ));
    formats![
        "render",
        root.join("mdx/zf_bone.mdx"),
        "--wireframe",
        dir.join("bone.png")
    ]
    .success()
    .stderr(predicate::str::contains(
        "the model has no geosets: nothing to draw",
    ));
    formats![
        "render",
        &horse,
        "--pose",
        "Walk@99999",
        "--wireframe",
        dir.join("late.png")
    ]
    .success()
    .stderr(predicate::str::contains(
        "note: --pose \"Walk@99999\": past the end of \"Walk\"",
    ));
}

/// What an export leaves out of a model is said: triangles with an index
/// past the vertices, names glTF cannot hold, a model with no geosets.
#[test]
fn exports_say_what_they_leave_out() {
    let dir = temp_dir("left-out");
    let mut model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    model.geosets_mut()[0].faces[4] = 60000;
    let vertices = model.geosets()[0].vertex_positions.len();
    let input = dir.join("cube.mdx");
    std::fs::write(&input, model.to_bytes().unwrap()).unwrap();
    formats!["export", &input, dir.join("cube.glb")]
        .success()
        .stderr(predicate::str::contains(format!(
            "geoset 0: 1 triangle left out (a vertex index past its {vertices} vertices)"
        )));
    let Some(root) = common::corpus_root() else {
        return;
    };
    let cases = [
        (
            "zf_bone",
            "the model has no geosets: only its nodes are exported",
        ),
        (
            "amisd_File00001202_98f1fm0",
            "node names are not UTF-8 (written in another code page, such as GBK)",
        ),
    ];
    for (name, warning) in cases {
        formats![
            "export",
            root.join(format!("mdx/{name}.mdx")),
            dir.join(format!("{name}.glb"))
        ]
        .success()
        .stderr(predicate::str::contains(warning));
    }
}

#[test]
fn a_posed_wireframe_differs_from_the_bind_pose() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("pose");
    let horse = root.join("mdx/rms_PackHorse.mdx");
    let draw = |name: &str, pose: Option<&str>| {
        let out = dir.join(name);
        let mut cmd = formats_command();
        cmd.arg("render")
            .arg(&horse)
            .arg("--wireframe")
            .arg(&out)
            .args(["--size", "128"]);
        if let Some(pose) = pose {
            cmd.args(["--pose", pose]);
        }
        cmd.assert().success();
        std::fs::read(out).unwrap()
    };
    let bind = draw("bind.png", None);
    let walk = draw("walk.png", Some("Walk@500"));
    let again = draw("walk2.png", Some("walk@500"));
    let death = draw("death.png", Some("Death@2500"));
    assert_ne!(bind, walk);
    assert_ne!(walk, death);
    assert_eq!(walk, again);
    // The library draws the same picture.
    let model = formats::mdx::Model::from_bytes(&std::fs::read(&horse).unwrap()).unwrap();
    let timeline = formats::anim::Timeline::from_model(&model);
    let moment = timeline
        .at(timeline.sequence("Walk").unwrap(), 500.0)
        .unwrap();
    let image = formats::render::posed_wireframe(&model, moment, 128);
    assert_eq!(image.to_png().unwrap(), walk);
    formats![
        "render",
        &horse,
        "--wireframe",
        dir.join("x.png"),
        "--pose",
        "Walk"
    ]
    .failure()
    .stderr(predicate::str::contains("expected SEQUENCE@MS"));
    formats![
        "render",
        &horse,
        "--wireframe",
        dir.join("x.png"),
        "--pose",
        "Gallop@10"
    ]
    .failure()
    .stderr(
        predicate::str::contains("no sequence \"Gallop\"")
            .and(predicate::str::contains("Stand Ready")),
    );
}

/// Textures by the path the model names: under a `--textures` folder, beside
/// the model in other letter cases, with either slash, as DDS for a
/// Reforged `.tif` path; missing ones warned of.
#[test]
fn textures_are_found_beside_the_model_and_in_texture_folders() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("textures");
    let smiley = root.join("mdx/mv_SmileyGW_004.mdx");
    // --textures: the path the model names (Textures\SmileyGW.blp) under it.
    formats![
        "export",
        &smiley,
        dir.join("a.glb"),
        "--textures",
        root.join("textures")
    ]
    .success()
    .stdout(predicate::str::contains("1 texture embedded"))
    .stderr(predicate::str::is_empty());
    // A .gltf has its image beside it, and says so.
    formats![
        "export",
        &smiley,
        dir.join("a.gltf"),
        "--textures",
        root.join("textures")
    ]
    .success()
    .stdout(predicate::str::contains("1 texture written beside it"));
    assert!(dir.join("a_0.png").is_file());
    // Beside the model, in other letter cases: found without --textures.
    let beside = dir.join("beside");
    std::fs::create_dir_all(beside.join("TEXTURES")).unwrap();
    std::fs::copy(&smiley, beside.join("smiley.mdx")).unwrap();
    std::fs::copy(
        root.join("textures/Textures/SmileyGW.blp"),
        beside.join("TEXTURES/smileygw.BLP"),
    )
    .unwrap();
    formats!["export", beside.join("smiley.mdx"), dir.join("b.glb")]
        .success()
        .stdout(predicate::str::contains("1 texture embedded"));
    // A TEXS path with forward slashes, in other letter cases than the
    // file's (textures/smileygw.BLP): found in a --textures folder and beside
    // the model.
    let mut model = formats::mdx::Model::from_bytes(&std::fs::read(&smiley).unwrap()).unwrap();
    model.textures_mut()[0].file_name = "textures/smileygw.BLP".try_into().unwrap();
    let slash = dir.join("slash");
    std::fs::create_dir_all(slash.join("Textures")).unwrap();
    std::fs::write(slash.join("smiley.mdx"), model.to_bytes().unwrap()).unwrap();
    formats![
        "export",
        slash.join("smiley.mdx"),
        dir.join("d.glb"),
        "--textures",
        root.join("textures")
    ]
    .success()
    .stdout(predicate::str::contains("1 texture embedded"))
    .stderr(predicate::str::is_empty());
    std::fs::copy(
        root.join("textures/Textures/SmileyGW.blp"),
        slash.join("Textures/SmileyGW.blp"),
    )
    .unwrap();
    formats!["export", slash.join("smiley.mdx"), dir.join("e.glb")]
        .success()
        .stdout(predicate::str::contains("1 texture embedded"))
        .stderr(predicate::str::is_empty());
    // Reforged: the game loads `X.dds` for a TEXS path `X.tif`.
    let reforged = dir.join("reforged/Buildings/Other/CityBuildingSmall0_0");
    std::fs::create_dir_all(&reforged).unwrap();
    std::fs::write(
        reforged.join("CS_CityBuildingSmall_V1_Diffuse_Red.dds"),
        formats::dds::tiny_dds_rgba(),
    )
    .unwrap();
    formats![
        "export",
        root.join("mdx/pqw3_Wood-floor-01.mdx"),
        dir.join("f.glb"),
        "--textures",
        dir.join("reforged")
    ]
    .success()
    .stdout(predicate::str::contains("1 texture embedded"))
    .stderr(predicate::str::contains("V1_Normal.tif"))
    .stderr(predicate::str::contains(format!(
        ", not found in {} or {}: ",
        root.join("mdx").display(),
        dir.join("reforged").display()
    )))
    .stderr(predicate::str::contains("Diffuse_Red").not());
    // Nowhere: a warning names it, the export still succeeds.
    formats!["export", &smiley, dir.join("c.glb")]
        .success()
        .stdout(predicate::str::contains("0 textures embedded"))
        .stderr(predicate::str::contains(format!(
            r"textures left out (materials untextured), not found in {}: Textures\SmileyGW.blp",
            root.join("mdx").display()
        )));
}

/// `formats export --lod N` on a Reforged model with levels 0, 1, 2 and -1
/// (a corpus model's 9 geosets, all at level 0 as stored, given the levels
/// below and written as a file): without `--lod` the geosets of level 0,
/// with `--lod 1` and `--lod 2` those of that level, each with those of
/// level -1; the primitives hold exactly those geosets' vertices.
#[test]
fn lod_exports_the_geosets_of_the_level_asked_for() {
    let Some(data) = common::corpus_file("mdx/pqw3_Wood-floor-01.mdx") else {
        return;
    };
    const LODS: [i32; 9] = [0, 1, 2, -1, 0, 1, 2, -1, 1];
    let mut model = formats::mdx::Model::from_bytes(&data).unwrap();
    for (geoset, lod) in model.geosets_mut().iter_mut().zip(LODS) {
        geoset.lod = Some(lod);
    }
    let dir = temp_dir("lod");
    let input = dir.join("floor.mdx");
    std::fs::write(&input, model.to_bytes().unwrap()).unwrap();
    let positions: Vec<Vec<[f32; 3]>> = model
        .geosets()
        .iter()
        .map(|g| g.vertex_positions.clone())
        .collect();
    let cases: [(&[&str], &[usize]); 3] = [
        (&[], &[0, 3, 4, 7]),
        (&["--lod", "1"], &[1, 3, 5, 7, 8]),
        (&["--lod", "2"], &[2, 3, 6, 7]),
    ];
    for (flags, want) in cases {
        let out = dir.join("floor.glb");
        formats_command()
            .arg("export")
            .arg(&input)
            .arg(&out)
            .args(flags)
            .assert()
            .success()
            .stdout(predicate::str::contains(format!(
                "{} primitives,",
                want.len()
            )));
        let gltf = gltf::Gltf::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let blob = gltf.blob.as_deref().unwrap();
        let primitives: Vec<Vec<[f32; 3]>> = gltf
            .document
            .meshes()
            .flat_map(|m| m.primitives())
            .map(|p| p.reader(|_| Some(blob)).read_positions().unwrap().collect())
            .collect();
        // Written Y up, as the root node turns the skeleton.
        let want: Vec<Vec<[f32; 3]>> = want
            .iter()
            .map(|&g| {
                positions[g]
                    .iter()
                    .copied()
                    .map(common::z_up_to_y_up)
                    .collect()
            })
            .collect();
        assert_eq!(primitives, want, "{flags:?}");
    }
    // Levels are 0 and up: -1 marks the geosets of every level, and
    // `--lod=-1` exported those alone, said to be "no geoset at level of
    // detail -1", with success. It is a usage error.
    formats!["export", &input, dir.join("minus.glb"), "--lod=-1"]
        .code(2)
        .stderr(predicate::str::contains("--lod <N>"));
    assert!(!dir.join("minus.glb").exists());
    // A level the model does not have is said, with the levels it has.
    formats!["export", &input, dir.join("none.glb"), "--lod", "3"]
        .success()
        .stdout(predicate::str::contains("2 primitives,"))
        .stderr(predicate::str::contains(
            "no geoset at level of detail 3 (the model's levels: 0, 1, 2): \
             only the 2 of every level (-1) are exported",
        ));
    formats![
        "export",
        common::corpus_root().unwrap().join("mdx/zf_cube.mdx"),
        dir.join("cube.glb"),
        "--lod",
        "1"
    ]
    .success()
    .stdout(predicate::str::contains("0 primitives,"))
    .stderr(predicate::str::contains(
        "no geoset at level of detail 1 (the model's levels: 0): no geoset is exported",
    ));
}

/// `--texture-animations` on a model whose textures are found (BLP files
/// written here for the paths its `TEXS` names): the scrolling texture's
/// material gets `KHR_texture_transform` and pointer channels on it
/// (gltf_texture_transforms.rs checks what they say); without its textures
/// a material has nothing to move, and without the option nothing moves.
#[test]
fn texture_animations_move_the_textures_found() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("texture-animations");
    let fountain = root.join("mdx/dbz_FountainOfSouls_rev-294411b2.mdx");
    // Read leniently, as the tool reads it: its LITE has the light-track quirk.
    let data = std::fs::read(&fountain).unwrap();
    let (model, _) = formats::mdx::Model::from_bytes_lenient(&data).unwrap();
    let textures = dir.join("textures");
    let image = formats::blp::RgbaImage::new(2, 2, [90, 120, 200, 255].repeat(4)).unwrap();
    let blp = formats::blp::Blp::encode(&image, formats::blp::Target::Bgra)
        .unwrap()
        .to_bytes()
        .unwrap();
    for texture in model.textures().iter().filter(|t| t.replaceable_id == 0) {
        let path = texture.file_name.to_string_lossy().replace('\\', "/");
        let file = textures.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, &blp).unwrap();
    }
    let export = |name: &str, args: &[&str]| -> serde_json::Value {
        let out = dir.join(name);
        formats_command()
            .arg("export")
            .arg(&fountain)
            .arg(&out)
            .args(args)
            .assert()
            .success();
        serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap()
    };
    let transform = "KHR_texture_transform";
    let moving = export(
        "moving.gltf",
        &[
            "--texture-animations",
            "--textures",
            textures.to_str().unwrap(),
        ],
    );
    assert!(moving["extensionsUsed"].to_string().contains(transform));
    let materials = moving["materials"].as_array().unwrap();
    let moved: Vec<usize> = (0..materials.len())
        .filter(|&m| {
            !materials[m]["pbrMetallicRoughness"]["baseColorTexture"]["extensions"][transform]
                .is_null()
        })
        .collect();
    assert_eq!(moved.len(), 1, "{materials:?}");
    let pointers = moving["animations"].to_string();
    let offset = format!(
        "/materials/{}/pbrMetallicRoughness/baseColorTexture/extensions/{transform}/offset",
        moved[0]
    );
    assert!(pointers.contains(&offset), "{pointers}");
    // Without its textures, or without the option: nothing moves.
    let untextured = export("untextured.gltf", &["--texture-animations"]);
    assert!(!untextured.to_string().contains(transform));
    let plain = export("plain.gltf", &["--textures", textures.to_str().unwrap()]);
    assert!(!plain.to_string().contains(transform));
}

/// A replaceable texture (team colour, team glow) is embedded as a
/// flat-colour placeholder, and the summary line counts it as one rather
/// than saying no texture went in.
#[test]
fn replaceable_textures_are_counted_as_placeholders() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("placeholders");
    let glb = dir.join("glow.glb");
    formats!["export", root.join("mdx/w3mt_Hero_Glow.mdx"), &glb]
        .success()
        .stdout(predicate::str::contains(
            "0 textures embedded (and 1 replaceable texture as a flat-colour placeholder)",
        ));
    let gltf = gltf::Gltf::from_slice(&std::fs::read(&glb).unwrap()).unwrap();
    let names: Vec<_> = gltf.images().filter_map(|i| i.name()).collect();
    assert_eq!(names, ["Replaceable Texture 2"]);
}

/// A model cut short inside its geosets (read leniently: the chunk is kept
/// as bytes) says where its geometry went, rather than that it has none.
#[test]
fn a_model_cut_inside_its_geosets_says_so() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("cut-geosets");
    let bytes = std::fs::read(root.join("mdx/rms_PackHorse.mdx")).unwrap();
    let geos = bytes.windows(4).position(|w| w == b"GEOS").unwrap();
    let cut = dir.join("cut.mdx");
    std::fs::write(&cut, &bytes[..geos + 5000]).unwrap();
    formats!["export", &cut, dir.join("cut.glb")]
        .success()
        .stdout(predicate::str::contains("0 primitives"))
        .stderr(
            predicate::str::contains(
                "the model's geosets are in the GEOS chunk the file ends inside \
                 (4992 of its 15960 bytes), kept as bytes: only its nodes are exported",
            )
            .and(predicate::str::contains("the model has no geosets").not()),
        );
    formats!["render", &cut, "--wireframe", dir.join("cut.png")]
        .success()
        .stderr(predicate::str::contains(
            "the model's geosets are in the GEOS chunk the file ends inside \
             (4992 of its 15960 bytes), kept as bytes: nothing to draw",
        ));
}

/// `formats export MAP.wdt DIR`, and with `--gltf`: every tile written
/// (four of the corpus map's nine are there) is valid.
#[test]
fn the_map_export_writes_valid_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let Some(validator) = common::gltf_validator::validator() else {
        return;
    };
    let out = common::temp_dir("gltf-map");
    let wdt = root.join("maps/cataclysmctf/cataclysmctf.wdt");
    let mut files = Vec::new();
    for (folder, flags, extension) in [("glb", &[][..], "glb"), ("gltf", &["--gltf"][..], "gltf")] {
        let folder = out.join(folder);
        common::formats_command()
            .arg("export")
            .arg(&wdt)
            .arg(&folder)
            .args(flags)
            .assert()
            .success();
        let mut written: Vec<PathBuf> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == extension))
            .collect();
        assert_eq!(written.len(), 4, "{}", folder.display());
        written.sort();
        files.extend(written);
    }
    assert_eq!(
        common::gltf_validator::assert_clean(&validator, &files),
        2 * 4
    );
}
