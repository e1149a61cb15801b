//! `formats export` and `formats render --pose`, driven as a user would: one
//! model to `.glb` and `.gltf`, several into a folder, the options, bad input;
//! a posed wireframe that differs from the bind pose.

mod common;

use common::{formats, temp_dir};

use predicates::prelude::*;

#[test]
fn one_model_to_glb_and_to_gltf() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("one");
    let horse = root.join("mdx/rms_PackHorse.mdx");
    let glb = dir.join("horse.glb");
    formats()
        .arg("export")
        .arg(&horse)
        .arg(&glb)
        .assert()
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
    // .gltf: the JSON with its buffer beside it; one sequence.
    let out = dir.join("walk.gltf");
    formats()
        .arg("export")
        .arg(&horse)
        .arg(&out)
        .args(["--sequence", "Walk"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1 animations"));
    assert!(dir.join("walk.bin").is_file());
    let gltf = gltf::Gltf::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let names: Vec<_> = gltf
        .document
        .animations()
        .filter_map(|a| a.name())
        .collect();
    assert_eq!(names, ["Walk"]);
    // MDL in.
    let mdl = root.join("mdl/rms_PackHorse_magos.mdl");
    formats()
        .arg("export")
        .arg(&mdl)
        .arg(dir.join("magos.glb"))
        .arg("--no-animations")
        .assert()
        .success()
        .stdout(predicate::str::contains("0 animations"));
    std::fs::remove_dir_all(&dir).ok();
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
    let mut cmd = formats();
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
    formats()
        .arg("export")
        .arg(root.join("mdx/zf_minimal.mdx"))
        .arg(root.join("mdx/wowalpha_Boar.mdx"))
        .arg(dir.join("text"))
        .arg("--gltf")
        .assert()
        .success();
    assert!(dir.join("text/wowalpha_Boar.gltf").is_file());
    assert!(dir.join("text/wowalpha_Boar.bin").is_file());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_exports_say_why() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("bad");
    let horse = root.join("mdx/rms_PackHorse.mdx");
    formats()
        .arg("export")
        .arg(&horse)
        .arg(dir.join("x.glb"))
        .args(["--sequence", "Fly"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no sequence \"Fly\""));
    // Two inputs cannot go into one file.
    formats()
        .arg("export")
        .arg(&horse)
        .arg(&horse)
        .arg(dir.join("x.glb"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("go into a folder"));
    // Two inputs with one name would overwrite each other.
    formats()
        .arg("export")
        .arg(&horse)
        .arg(root.join("mdl/rms_PackHorse.mdl"))
        .arg(dir.join("same"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("would both be written to"));
    // A texture has no glTF export; the other inputs (a tile, a model)
    // still export.
    let texture = common::files_in(&root, "blp", ".blp").remove(0);
    let tile = root.join("adt/blizzardry_Azeroth_38_46.adt");
    formats()
        .arg("export")
        .arg(root.join(texture))
        .arg(&tile)
        .arg(&horse)
        .arg(dir.join("mixed"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("BLP files have no glTF export"));
    assert!(dir.join("mixed/rms_PackHorse.glb").is_file());
    assert!(dir.join("mixed/blizzardry_Azeroth_38_46.glb").is_file());
    std::fs::remove_dir_all(&dir).ok();
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
        let mut cmd = formats();
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
    formats()
        .arg("render")
        .arg(&horse)
        .arg("--wireframe")
        .arg(dir.join("x.png"))
        .args(["--pose", "Walk"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("expected SEQUENCE@MS"));
    formats()
        .arg("render")
        .arg(&horse)
        .arg("--wireframe")
        .arg(dir.join("x.png"))
        .args(["--pose", "Gallop@10"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("no sequence \"Gallop\"")
                .and(predicate::str::contains("Stand Ready")),
        );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn textures_are_found_beside_the_model_and_in_texture_folders() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    let dir = temp_dir("textures");
    let smiley = root.join("mdx/mv_SmileyGW_004.mdx");
    // --textures: the path the model names (Textures\SmileyGW.blp) under it.
    formats()
        .arg("export")
        .arg(&smiley)
        .arg(dir.join("a.glb"))
        .arg("--textures")
        .arg(root.join("textures"))
        .assert()
        .success()
        .stdout(predicate::str::contains("1 textures embedded"))
        .stderr(predicate::str::is_empty());
    // Beside the model, in other letter cases: found without --textures.
    let beside = dir.join("beside");
    std::fs::create_dir_all(beside.join("TEXTURES")).unwrap();
    std::fs::copy(&smiley, beside.join("smiley.mdx")).unwrap();
    std::fs::copy(
        root.join("textures/Textures/SmileyGW.blp"),
        beside.join("TEXTURES/smileygw.BLP"),
    )
    .unwrap();
    formats()
        .arg("export")
        .arg(beside.join("smiley.mdx"))
        .arg(dir.join("b.glb"))
        .assert()
        .success()
        .stdout(predicate::str::contains("1 textures embedded"));
    // Nowhere: a warning names it, the export still succeeds.
    formats()
        .arg("export")
        .arg(&smiley)
        .arg(dir.join("c.glb"))
        .assert()
        .success()
        .stdout(predicate::str::contains("0 textures embedded"))
        .stderr(predicate::str::contains(
            r"Textures\SmileyGW.blp (not found",
        ));
    std::fs::remove_dir_all(&dir).ok();
}
