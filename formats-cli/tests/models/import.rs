//! `formats convert` on glTF documents: the Khronos samples CesiumMan and
//! RiggedSimple (`../shared/gltf`) and the Blender-made fixture
//! (`testkit::blender_rigged_glb`), as `.glb` and as a `.gltf` with its
//! files beside it, imported to MDX and MDL at 800 and 1000 with their
//! textures, into a folder with a table, as `--json`; `--sequence-names`,
//! `--scale`, `--global-sequences`, `--textures keep` and `dds`, HD materials with DDS textures
//! at 1100 and 1200, and what is refused: a damaged
//! file, a texture path out of the model's folder, two models writing one
//! texture with other pixels. The library's side is formats'
//! tests/gltf/import.rs.

use crate::common;

use common::{formats, listing, read_model as read, stderr, stdout, temp_dir};

use std::path::{Path, PathBuf};

use formats::blp::Blp;
use formats::mdx::Model;
use serde_json::Value;

fn sequence_names(model: &Model) -> Vec<String> {
    model
        .sequences()
        .iter()
        .map(|s| s.name.to_string_lossy().into_owned())
        .collect()
}

/// The width and height of a JPEG or PNG, from its own header (the JPEG's
/// frame header, the PNG's `IHDR`), not through any decoder.
fn image_size(bytes: &[u8]) -> (u32, u32) {
    let be16 = |at: usize| u32::from(u16::from_be_bytes([bytes[at], bytes[at + 1]]));
    if bytes.starts_with(b"\x89PNG") {
        let be32 = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
        return (be32(16), be32(20));
    }
    assert_eq!(&bytes[..2], [0xff, 0xd8], "neither PNG nor JPEG");
    let mut at = 2;
    loop {
        assert_eq!(bytes[at], 0xff, "a JPEG marker at {at}");
        let marker = bytes[at + 1];
        // SOF0..SOF15 but DHT (c4), JPG (c8) and DAC (cc).
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            return (be16(at + 7), be16(at + 5));
        }
        at += 2 + be16(at + 2) as usize;
    }
}

/// The bytes of the image `i` a `.glb` holds in a buffer view.
fn glb_image(glb: &[u8], i: usize) -> Vec<u8> {
    let (json, bin) = testkit::glb_parts(glb);
    let view = &json["bufferViews"][json["images"][i]["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    bin[start..start + view["byteLength"].as_u64().unwrap() as usize].to_vec()
}

/// The Blender fixture as a `.gltf` named `stem`, its `.bin` and PNG beside
/// it in `folder`, its JSON changed by `edit` first.
fn fixture_as_gltf(folder: &Path, stem: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let glb = std::fs::read(testkit::blender_rigged_glb()).unwrap();
    let (json, files) = testkit::glb_as_gltf(&glb, stem);
    let mut json: Value = serde_json::from_str(&json).unwrap();
    edit(&mut json);
    std::fs::create_dir_all(folder).unwrap();
    for (name, bytes) in files {
        std::fs::write(folder.join(name), bytes).unwrap();
    }
    let path = folder.join(format!("{stem}.gltf"));
    std::fs::write(&path, serde_json::to_string(&json).unwrap()).unwrap();
    path
}

/// Each texture `model` (written to `output`) names but the white texture
/// every game has: the BLP file at that path beside it, decoded.
fn textures_beside(model: &Model, output: &Path) -> Vec<(String, formats::blp::RgbaImage)> {
    model
        .textures()
        .iter()
        .map(|t| t.file_name.to_string_lossy().into_owned())
        .filter(|path| !path.is_empty() && path != "Textures\\white.blp")
        .map(|path| {
            let file = output.parent().unwrap().join(path.replace('\\', "/"));
            let bytes = std::fs::read(&file)
                .unwrap_or_else(|e| panic!("{path}, named by the model: {}: {e}", file.display()));
            let blp = Blp::from_bytes(&bytes).expect("the texture reads strictly");
            (path, blp.decode_level(0).expect("the texture decodes"))
        })
        .collect()
}

#[test]
fn the_khronos_samples_import_at_800_and_1000_with_their_textures() {
    let (Some(cesium), Some(simple)) = (
        common::shared_gltf("CesiumMan.glb"),
        common::shared_gltf("RiggedSimple.glb"),
    ) else {
        return;
    };
    for (input, animation, images) in [(&cesium, "Anim_0", 1), (&simple, "Anim_0_Armature", 0)] {
        let glb = std::fs::read(input).unwrap();
        for version in [800, 1000] {
            let dir = temp_dir("import-samples");
            let stem = input.file_stem().unwrap().to_str().unwrap();
            let output = dir.join(format!("{stem}.mdx"));
            let done =
                formats!["convert", input, &output, "--version", version.to_string()].success();
            let text = stderr(&done);
            let model = read(&output);
            assert_eq!(model.version(), version, "{stem}");
            let name = model.model_chunk().unwrap().name.to_string_lossy();
            assert_eq!(name, stem, "the model is named as its file");
            assert_eq!(sequence_names(&model), [animation]);
            assert!(
                text.starts_with(&format!("version {version}: 1 geosets, ")),
                "{text}"
            );
            assert!(text.contains(", 1 sequences\n"), "{text}");
            assert!(
                text.contains(&format!("  \"{animation}\" from \"{animation}\": 0..")),
                "{text}"
            );
            // At 800 the weights become matrix groups, and the report says
            // how far that moves the vertices.
            let skinning = "skinning: ";
            assert_eq!(text.contains(skinning), version == 800, "{text}");
            if version == 800 {
                assert!(
                    text.contains("to version 800: version 1000 -> 800\n"),
                    "{text}"
                );
                assert!(text.contains("largest position error "), "{text}");
            }
            assert!(
                text.ends_with(&format!(
                    "wrote {} (MDX, version {version}, {} bytes)\n",
                    output.display(),
                    std::fs::metadata(&output).unwrap().len()
                )),
                "{text}"
            );
            // The embedded image, at the path TEXS names, as big as it is in the GLB.
            let textures = textures_beside(&model, &output);
            assert_eq!(textures.len(), images, "{stem}: {textures:?}");
            for (path, pixels) in &textures {
                assert_eq!(
                    (pixels.width, pixels.height),
                    image_size(&glb_image(&glb, 0)),
                    "{path}"
                );
                let file = dir.join(path.replace('\\', "/"));
                assert!(
                    text.contains(&format!("wrote {} (BLP, ", file.display())),
                    "{text}"
                );
            }
            assert_eq!(listing(&dir).len(), 1 + images, "{:?}", listing(&dir));
        }
    }
}

#[test]
fn the_blender_fixture_imports_as_mdl() {
    let input = common::blender_rigged_glb();
    let dir = temp_dir("import-mdl");
    let output = dir.join("lizard.mdl");
    let done = formats!["convert", &input, &output].success();
    let text = stderr(&done);
    let model = formats::mdl::from_str(&std::fs::read_to_string(&output).unwrap())
        .expect("the MDL reads back");
    // 800 without --version.
    assert_eq!(model.version(), 800);
    assert_eq!(sequence_names(&model), ["Attack", "Stand"]);
    assert!(
        text.contains("  \"Attack\" from \"Attack\": 0..1000 ms, non-looping\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "wrote {} (MDL text, version 800, ",
            output.display()
        )),
        "{text}"
    );
    // The alpha-masked scales, a PNG in the GLB, as a BLP with its alpha.
    let glb = std::fs::read(&input).unwrap();
    let textures = textures_beside(&model, &output);
    let [(path, pixels)] = &textures[..] else {
        panic!("{textures:?}");
    };
    assert_eq!(path, "scales.blp");
    assert_eq!(
        (pixels.width, pixels.height),
        image_size(&glb_image(&glb, 0))
    );
    assert!(pixels.has_alpha());
}

#[test]
fn a_folder_of_gltf_files_becomes_a_folder_of_models() {
    let dir = temp_dir("import-folder");
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(common::blender_rigged_glb(), inputs.join("lizard.glb")).unwrap();
    // The same document as .gltf, its .bin and PNG beside it, a folder down.
    fixture_as_gltf(&inputs.join("more"), "newt", |_| {});
    std::fs::write(inputs.join("notes.txt"), "not a model").unwrap();
    let out = dir.join("out");
    let done = formats!["convert", &inputs, &out, "--version", "1000"].success();
    let table = stdout(&done);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("model "), "{table}");
    assert!(lines[0].contains(" version "), "{table}");
    assert!(lines[0].ends_with(" result"), "{table}");
    for (line, input) in lines[1..3].iter().zip(["lizard.glb", "more/newt.gltf"]) {
        let input = inputs.join(input).display().to_string();
        assert!(line.starts_with(&input), "{line}");
        assert!(line.contains(" glTF -> 1000 "), "{line}");
        assert!(line.ends_with(" bytes, 1 texture"), "{line}");
    }
    assert!(
        table.ends_with("2 models written, no failures\n"),
        "{table}"
    );
    // One model per input, and the one texture both name (the same pixels).
    assert_eq!(
        listing(&out),
        ["lizard.mdx", "newt.mdx", "scales.blp"],
        "{table}"
    );
    for name in ["lizard", "newt"] {
        let model = read(&out.join(format!("{name}.mdx")));
        assert_eq!(model.version(), 1000);
        assert_eq!(sequence_names(&model), ["Attack", "Stand"]);
        assert_eq!(textures_beside(&model, &out.join("x.mdx")).len(), 1);
    }
}

#[test]
fn two_models_writing_one_texture_with_other_pixels_is_refused() {
    let dir = temp_dir("import-clash");
    let inputs = dir.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    std::fs::copy(common::blender_rigged_glb(), inputs.join("lizard.glb")).unwrap();
    // Its image, also named `scales`, now a red square.
    let newt = fixture_as_gltf(&inputs, "newt", |_| {});
    let red = formats::blp::RgbaImage::new(4, 4, [255, 0, 0, 255].repeat(16)).unwrap();
    std::fs::write(inputs.join("newt_image0.png"), red.to_png().unwrap()).unwrap();
    let out = dir.join("out");
    let done = formats!["convert", &inputs, &out, "--version", "1000"].failure();
    let table = stdout(&done);
    assert!(table.contains("1 failed:\n"), "{table}");
    // Which of the two runs first decides which fails; the other is whole.
    let written = listing(&out);
    let (failed, other) = match written.contains(&"lizard.mdx".to_string()) {
        true => (&newt, inputs.join("lizard.glb")),
        false => (&inputs.join("lizard.glb"), newt.clone()),
    };
    assert!(
        table.contains(&format!(
            "  {}: its texture {} is written by {} too, with other pixels",
            failed.display(),
            out.join("scales.blp").display(),
            other.display()
        )),
        "{table}"
    );
    assert_eq!(written.len(), 2, "{written:?}");
}

#[test]
fn json_gives_the_import_report() {
    let dir = temp_dir("import-json");
    let output = dir.join("lizard.mdx");
    let done = formats!["convert", common::blender_rigged_glb(), &output, "--json"].success();
    let doc: Value = serde_json::from_str(&stdout(&done)).expect("--json prints JSON");
    assert_eq!(doc["failed"], 0);
    let file = &doc["files"][0];
    assert_eq!(file["output"], output.display().to_string());
    assert_eq!(file["to"], 800);
    assert_eq!(file["from"], Value::Null);
    let bytes = std::fs::metadata(&output).unwrap().len();
    assert_eq!(file["bytes"], bytes);
    let import = &file["import"];
    assert_eq!(import["version"], 800);
    assert_eq!(import["geosets"], 2);
    // 8 joints: 7 weighted become bones, the root no vertex follows a helper
    // (with the armature above it).
    assert_eq!(import["bones"], 7);
    assert_eq!(import["helpers"], 2);
    let sequences: Vec<(&str, bool)> = import["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["looping"].as_bool().unwrap()))
        .collect();
    assert_eq!(sequences, [("Attack", false), ("Stand", true)]);
    let (sampled, kept) = (
        import["keys_sampled"].as_u64(),
        import["keys_kept"].as_u64(),
    );
    assert!(kept.unwrap() > 0 && kept < sampled, "{import}");
    for list in ["approximated", "dropped", "renamed"] {
        assert!(import[list].is_array(), "{list}");
    }
    assert_eq!(import["conversion"]["from"], 1000);
    assert_eq!(import["conversion"]["to"], 800);
    assert!(
        import["conversion"]["skin_error"]["distance"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    let texture = &file["textures"][0];
    assert_eq!(
        texture["file"],
        dir.join("scales.blp").display().to_string()
    );
    assert_eq!(texture["format"], "BLP");
    assert_eq!(
        texture["bytes"],
        std::fs::metadata(dir.join("scales.blp")).unwrap().len()
    );
}

#[test]
fn sequence_names_rename_and_a_bad_line_is_named() {
    let dir = temp_dir("import-names");
    let names = dir.join("names.txt");
    std::fs::write(
        &names,
        "# the lizard's\nAttack = Attack Slam\n\nStand = Stand Ready\nFly = Fly\n",
    )
    .unwrap();
    let output = dir.join("lizard.mdx");
    let input = common::blender_rigged_glb();
    let done = formats![
        "convert",
        &input,
        &output,
        "--version",
        "1000",
        "--sequence-names",
        &names
    ]
    .success();
    let model = read(&output);
    assert_eq!(sequence_names(&model), ["Attack Slam", "Stand Ready"]);
    // Looping by the new name's first word.
    let flags: Vec<u32> = model.sequences().iter().map(|s| s.flags).collect();
    assert_eq!(flags, [1, 0]);
    let text = stderr(&done);
    assert!(
        text.contains("  \"Attack Slam\" from \"Attack\": 0..1000 ms, non-looping\n"),
        "{text}"
    );
    assert!(
        text.starts_with(&format!(
            "warning: {} line 5: no input has an animation named \"Fly\"\n",
            names.display()
        )),
        "{text}"
    );

    std::fs::write(&names, "Attack = Attack Slam\nStand Ready\n").unwrap();
    let other = dir.join("other.mdx");
    let failed = formats!["convert", &input, &other, "--sequence-names", &names].failure();
    assert_eq!(
        stderr(&failed),
        format!(
            "error: {} line 2: `Stand Ready` is not `Animation Name = Sequence Name`\n",
            names.display()
        )
    );
    assert!(!other.exists());
}

#[test]
fn scale_2_doubles_the_model() {
    let dir = temp_dir("import-scale");
    let input = common::blender_rigged_glb();
    let extent = |scale: &str| {
        let output = dir.join(format!("x{scale}.mdx"));
        formats![
            "convert",
            &input,
            &output,
            "--version",
            "1000",
            "--scale",
            scale
        ]
        .success();
        read(&output).model_chunk().unwrap().extent
    };
    let (one, two) = (extent("1"), extent("2"));
    let close = |a: f32, b: f32| (a - b).abs() <= 1e-4 * b.abs().max(1.0);
    for c in 0..3 {
        assert!(
            close(2.0 * one.minimum[c], two.minimum[c]),
            "{one:?} {two:?}"
        );
        assert!(
            close(2.0 * one.maximum[c], two.maximum[c]),
            "{one:?} {two:?}"
        );
    }
    assert!(close(2.0 * one.bounds_radius, two.bounds_radius));
    assert!(one.maximum[2] - one.minimum[2] > 0.0);
    for bad in ["0", "-2", "inf"] {
        let refused = formats!["convert", &input, dir.join("bad.mdx"), "--scale", bad].failure();
        assert!(
            stderr(&refused).contains("the scale must be a number above 0"),
            "{bad}: {}",
            stderr(&refused)
        );
    }
}

/// `--global-sequences 5` with the Blender fixture's "Stand" renamed
/// "Tail Sway", a name the game does not play: "Attack" moves the same
/// bones, so it stays a sequence, and the report says why; without
/// "Attack" it becomes a global sequence of 2 s that every bone's tracks
/// follow. A length of 0 is refused, and so is the option for an MDX
/// input.
#[test]
fn global_sequences_pack_short_loops_the_game_does_not_name() {
    let dir = temp_dir("import-global");
    let names = dir.join("names.txt");
    std::fs::write(&names, "Stand = Tail Sway\n").unwrap();
    let convert = |input: &Path, output: &Path| {
        formats![
            "convert",
            input,
            output,
            "--global-sequences",
            "5",
            "--sequence-names",
            &names
        ]
        .success()
    };
    let both = dir.join("both.mdx");
    let text = stderr(&convert(&common::blender_rigged_glb(), &both));
    assert!(text.contains("kept as sequences (1):\n"), "{text}");
    assert!(text.contains("\"Tail Sway\" moves node \""), "{text}");
    let model = read(&both);
    assert!(model.global_sequences().is_empty());
    assert_eq!(sequence_names(&model), ["Attack", "Tail Sway"]);

    let gltf = fixture_as_gltf(&dir.join("in"), "swaying", |json| {
        let stand = json["animations"][1].clone();
        json["animations"] = serde_json::json!([stand]);
    });
    let alone = dir.join("alone.mdx");
    let text = stderr(&convert(&gltf, &alone));
    assert!(
        text.contains("global sequence 0 from \"Stand\": 2000 ms"),
        "{text}"
    );
    let model = read(&alone);
    assert_eq!(model.global_sequences(), [2000]);
    assert!(model.sequences().is_empty());
    for bone in model.bones() {
        for track in &bone.node.tracks {
            let id = match track {
                formats::mdx::NodeTrack::Translation(t) | formats::mdx::NodeTrack::Scaling(t) => {
                    t.global_sequence_id
                }
                formats::mdx::NodeTrack::Rotation(t) => t.global_sequence_id,
                _ => continue,
            };
            assert_eq!(id, 0, "{:?}", bone.node.name);
        }
    }

    let refused = formats![
        "convert",
        &gltf,
        dir.join("no.mdx"),
        "--global-sequences",
        "0"
    ];
    let text = stderr(&refused.failure());
    assert!(
        text.contains("the length must be a number of seconds above 0"),
        "{text}"
    );
    let mdx = dir.join("sample.mdx");
    std::fs::write(&mdx, formats::sample::sample_mdx()).unwrap();
    let refused = formats![
        "convert",
        &mdx,
        dir.join("out.mdx"),
        "--global-sequences",
        "1"
    ];
    let text = stderr(&refused.failure());
    assert!(text.contains("are for glTF inputs (.glb, .gltf)"), "{text}");
}

#[test]
fn a_damaged_glb_is_an_error_naming_the_file() {
    let dir = temp_dir("import-damaged");
    let glb = std::fs::read(common::blender_rigged_glb()).unwrap();
    let cut = dir.join("cut.glb");
    std::fs::write(&cut, &glb[..glb.len() / 2]).unwrap();
    let junk = dir.join("junk.gltf");
    std::fs::write(&junk, "{ not json").unwrap();
    for input in [&cut, &junk] {
        let output = dir.join("out.mdx");
        let failed = formats!["convert", input, &output].failure();
        let text = stderr(&failed);
        assert!(
            text.starts_with(&format!(
                "error: {}: not a valid glTF document: ",
                input.display()
            )),
            "{text}"
        );
        assert!(!text.contains("panicked"), "{text}");
        assert!(!output.exists());
    }
    // In a batch, its row fails and the others are written.
    let out = dir.join("out");
    let batch = formats!["convert", &cut, common::blender_rigged_glb(), &out].failure();
    let table = stdout(&batch);
    assert!(table.contains(" FAILED\n"), "{table}");
    assert!(
        table.contains(&format!("1 failed:\n  {}: ", cut.display())),
        "{table}"
    );
    assert_eq!(listing(&out), ["rigged.mdx", "scales.blp"]);
}

#[test]
fn kept_textures_are_not_written() {
    let dir = temp_dir("import-keep");
    let gltf = fixture_as_gltf(&dir.join("in"), "newt", |_| {});
    let out = dir.join("out");
    let output = out.join("newt.mdx");
    formats![
        "convert",
        &gltf,
        &output,
        "--version",
        "1000",
        "--textures",
        "keep"
    ]
    .success();
    // Named as the .gltf names its PNG; no BLP.
    assert_eq!(listing(&out), ["newt.mdx"]);
    let model = read(&output);
    let named: Vec<_> = model
        .textures()
        .iter()
        .map(|t| t.file_name.to_string_lossy())
        .collect();
    assert_eq!(named, ["newt_image0.png", "Textures\\white.blp"]);
    // A GLB's image has no file to name: it is still written as BLP.
    let output = out.join("lizard.mdx");
    let input = common::blender_rigged_glb();
    formats!["convert", &input, &output, "--textures", "keep"].success();
    assert_eq!(listing(&out), ["lizard.mdx", "newt.mdx", "scales.blp"]);
}

/// The DDS beside `output` at `path` (as the model names it): read
/// strictly, in `format`, every mip level down to 1x1.
fn dds_beside(output: &Path, path: &str, format: formats::dds::PixelFormat) -> formats::dds::Dds {
    let file = output.parent().unwrap().join(path.replace('\\', "/"));
    let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let dds = formats::dds::Dds::from_bytes(&bytes).expect("the texture reads strictly");
    assert_eq!(dds.pixel_format().unwrap(), format, "{path}");
    let last = dds.level_size(dds.level_count() - 1);
    assert_eq!(last, (1, 1), "{path}: mips down to 1x1");
    dds
}

/// At 1100 and 1200 the Blender fixture's materials are HD: its
/// alpha-masked scales in the diffuse slot as `scales.dds` (BC3), the
/// other slots Reforged's placeholders, which are not written; the report
/// says DDS. `--textures dds` at 800 writes the classic layer's image as
/// DDS too; `blp` at 800 writes BLP as before.
#[test]
fn hd_materials_at_1100_and_1200_write_dds_and_dds_is_accepted_at_800() {
    use formats::dds::PixelFormat;
    let input = common::blender_rigged_glb();
    for version in ["1100", "1200"] {
        let dir = temp_dir("import-hd");
        let output = dir.join("lizard.mdx");
        let done = formats!["convert", &input, &output, "--version", version].success();
        let text = stderr(&done);
        let written = output.parent().unwrap().join("scales.dds");
        assert!(
            text.contains(&format!("wrote {} (DDS, ", written.display())),
            "{text}"
        );
        assert_eq!(listing(&dir), ["lizard.mdx", "scales.dds"]);
        let model = read(&output);
        assert_eq!(model.version().to_string(), version);
        let material = &model.materials()[0];
        assert_eq!(material.layers.len(), 1);
        let layer = &material.layers[0];
        assert!(layer.is_hd());
        let paths: Vec<(u32, String)> = layer
            .textures
            .as_ref()
            .unwrap()
            .iter()
            .map(|e| {
                let t = &model.textures()[e.texture_id as usize];
                (e.slot, t.file_name.to_string_lossy().into_owned())
            })
            .collect();
        assert_eq!(
            paths,
            [
                (0, "scales.dds".to_string()),
                (1, "Textures\\normal.dds".into()),
                (2, "Textures\\orm.dds".into()),
                (3, "Textures\\Black32.dds".into()),
                (4, String::new()),
                (5, "ReplaceableTextures\\EnvironmentMap.dds".into()),
            ]
        );
        let dds = dds_beside(&output, "scales.dds", PixelFormat::Bc3);
        let glb = std::fs::read(&input).unwrap();
        let png = formats::blp::RgbaImage::from_png(&glb_image(&glb, 0)).unwrap();
        assert_eq!(
            (dds.header.width, dds.header.height),
            (png.width, png.height)
        );
        // The alpha-masked cut-outs keep their alpha: within BC3's error.
        let ours = dds.decode_level(0).unwrap();
        let farthest = (ours.data.chunks_exact(4).zip(png.data.chunks_exact(4)))
            .map(|(a, b)| a[3].abs_diff(b[3]))
            .max()
            .unwrap();
        assert!(farthest <= 8, "alpha {farthest} off");
    }
    // 800: BLP by default, DDS when asked.
    let dir = temp_dir("import-dds-800");
    let blp = dir.join("blp/lizard.mdx");
    formats!["convert", &input, &blp].success();
    assert_eq!(listing(&dir.join("blp")), ["lizard.mdx", "scales.blp"]);
    let dds = dir.join("dds/lizard.mdx");
    let done = formats!["convert", &input, &dds, "--textures", "dds"].success();
    assert!(stderr(&done).contains("(DDS, "));
    assert_eq!(listing(&dir.join("dds")), ["lizard.mdx", "scales.dds"]);
    let model = read(&dds);
    assert_eq!(model.version(), 800);
    assert_eq!(
        model.textures()[0].file_name.to_string_lossy(),
        "scales.dds"
    );
    dds_beside(&dds, "scales.dds", PixelFormat::Bc3);
}

#[test]
fn a_texture_path_out_of_the_model_folder_is_refused() {
    let dir = temp_dir("import-escape");
    let evil = format!("evil-{}.blp", std::process::id());
    let gltf = fixture_as_gltf(&dir.join("in"), "newt", |json| {
        json["materials"][0]["extras"] =
            serde_json::json!({"mdx": {"texture": format!("..\\..\\{evil}")}});
    });
    let output = dir.join("out/newt.mdx");
    let failed = formats!["convert", &gltf, &output].failure();
    let text = stderr(&failed);
    assert!(
        text.contains(&format!(
            "the texture path `..\\..\\{evil}` the model names leads out of the model's folder"
        )),
        "{text}"
    );
    assert!(!output.exists());
    assert!(!dir.join(&evil).exists() && !dir.parent().unwrap().join(&evil).exists());
}

#[test]
fn gltf_options_without_a_gltf_input_and_exact_are_refused() {
    let dir = temp_dir("import-options");
    let mdx = dir.join("sample.mdx");
    std::fs::write(&mdx, formats::sample::sample_mdx()).unwrap();
    let text = stderr(&formats!["convert", &mdx, dir.join("out.mdx"), "--scale", "2"].failure());
    assert!(text.contains("are for glTF inputs (.glb, .gltf)"), "{text}");
    let glb = common::blender_rigged_glb();
    let exact = formats![
        "convert",
        &glb,
        dir.join("out.mdx"),
        "--version",
        "800",
        "--exact"
    ];
    let text = stderr(&exact.failure());
    assert!(
        text.contains("--exact is for models read from MDX or MDL"),
        "{text}"
    );
    // glTF is written by `export`, not `convert`.
    let text = stderr(&formats!["convert", &mdx, dir.join("out.glb")].failure());
    assert!(text.contains("(`formats export` writes glTF)"), "{text}");
}
