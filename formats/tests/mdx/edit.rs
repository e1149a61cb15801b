//! Editing real models: each edit is written, read back with the strict
//! reader (which checks every chunk size, inclusive size and count), and
//! compared with the edited model.

use crate::common;

use common::{corpus_file, corpus_root};
use format_core::FixedStr;
use formats::chunks::ChunkFile;
use formats::mdx::{
    Bone, Chunk, Interpolation, Key, KeyFrame, Model, Node, NodeTrack, Track, node::node_flags,
};

fn corpus_model(name: &str) -> Option<(Vec<u8>, Model)> {
    let data = corpus_file(&format!("mdx/{name}"))?;
    let model = Model::from_bytes(&data).unwrap();
    Some((data, model))
}

/// Writes `model`, reads it back strictly, and checks the two agree (through
/// `Debug`, which also compares NaN floats, and through a second write).
fn write_and_reread(model: &Model) -> (Vec<u8>, Model) {
    let bytes = model.to_bytes().unwrap();
    let back = Model::from_bytes(&bytes).unwrap();
    assert_eq!(
        format!("{back:?}"),
        format!("{model:?}"),
        "re-read differs from the edited model"
    );
    assert_eq!(back.to_bytes().unwrap(), bytes, "second write differs");
    // The chunk-level walk (no typed reader) lands exactly on the end.
    ChunkFile::from_bytes(&bytes).unwrap();
    (bytes, back)
}

fn chunk_size(bytes: &[u8], tag: &str) -> usize {
    let file = ChunkFile::from_bytes(bytes).unwrap();
    file.entries()
        .iter()
        .find(|e| e.tag.to_string() == tag)
        .unwrap()
        .size
}

#[test]
fn add_a_bone_with_tracks() {
    let Some((data, mut model)) = corpus_model("rms_PackHorse.mdx") else {
        return;
    };
    let bones_before = model.bones().len();
    let object_id = model.pivot_points().len() as u32;
    let bone = Bone {
        node: Node {
            name: FixedStr::try_from("Bone_Tail_Tip").unwrap(),
            object_id,
            parent_id: model.bones()[0].node.object_id,
            flags: node_flags::BONE,
            tracks: vec![
                NodeTrack::Translation(Track::new(
                    Interpolation::Linear,
                    vec![
                        Key::new(0, [0.0, 0.0, 0.0]),
                        Key::new(333, [0.0, 0.0, 12.5]),
                    ],
                )),
                NodeTrack::Rotation(Track::from_key_frames(
                    Interpolation::Hermite,
                    vec![KeyFrame::with_tangents(
                        100,
                        [
                            0.0,
                            0.0,
                            std::f32::consts::FRAC_1_SQRT_2,
                            std::f32::consts::FRAC_1_SQRT_2,
                        ],
                        [0.0, 0.0, 0.0, 1.0],
                        [0.0, 0.0, 0.0, 1.0],
                    )],
                )),
            ],
        },
        geoset_id: u32::MAX,
        geoset_animation_id: u32::MAX,
    };
    model.bones_mut().push(bone);
    model.pivot_points_mut().push([1.0, 2.0, 3.0]);
    let (bytes, back) = write_and_reread(&model);
    assert_eq!(back.bones().len(), bones_before + 1);
    assert_eq!(
        back.bones().last().unwrap().node.name.to_string_lossy(),
        "Bone_Tail_Tip"
    );
    // The new bone: node 4 + 80 + 12, KGTR 16 + 2 * 16, KGRT 16 + 1 * 52, then 8.
    let bone_size = (4 + 80 + 12) + (16 + 2 * 16) + (16 + 52) + 8;
    assert_eq!(
        chunk_size(&bytes, "BONE"),
        chunk_size(&data, "BONE") + bone_size
    );
    assert_eq!(chunk_size(&bytes, "PIVT"), chunk_size(&data, "PIVT") + 12);
    assert_eq!(bytes.len(), data.len() + bone_size + 12);
}

#[test]
fn remove_a_geoset() {
    let Some((data, mut model)) = corpus_model("pqw3_candle.mdx") else {
        return;
    };
    let removed = model.geosets_mut().remove(1);
    // Keep the file consistent: geoset animations of it go, later ids shift.
    let animations = model.geoset_animations_mut();
    animations.retain(|a| a.geoset_id != 1);
    for a in animations.iter_mut().filter(|a| a.geoset_id > 1) {
        a.geoset_id -= 1;
    }
    let (bytes, back) = write_and_reread(&model);
    assert_eq!(back.geosets().len(), 2);
    let removed_size = removed.to_bytes_len();
    assert_eq!(
        chunk_size(&bytes, "GEOS"),
        chunk_size(&data, "GEOS") - removed_size
    );
}

trait EncodedLen {
    fn to_bytes_len(&self) -> usize;
}

impl<T: format_core::Encode<Args = ()>> EncodedLen for T {
    fn to_bytes_len(&self) -> usize {
        format_core::encode(self, format_core::Context::new().with_version(1000))
            .unwrap()
            .len()
    }
}

#[test]
fn rename_a_material_shader_and_a_bone() {
    let Some((data, mut model)) = corpus_model("pqw3_girl2_portrait.mdx") else {
        return;
    };
    let material = &mut model.materials_mut()[0];
    let old = material.shader.unwrap();
    assert_eq!(old.to_string_lossy(), "Shader_HD_DefaultUnit");
    material
        .shader
        .as_mut()
        .unwrap()
        .set("Shader_HD_Crystal")
        .unwrap();
    model.bones_mut()[0].node.name.set("Renamed bone").unwrap();
    let (bytes, back) = write_and_reread(&model);
    assert_eq!(
        back.materials()[0].shader.unwrap().to_string_lossy(),
        "Shader_HD_Crystal"
    );
    assert_eq!(back.bones()[0].node.name.to_string_lossy(), "Renamed bone");
    assert_eq!(bytes.len(), data.len(), "fixed strings keep their size");
    // A name longer than the field is refused, not truncated.
    assert!(model.bones_mut()[0].node.name.set(&"x".repeat(81)).is_err());
}

#[test]
fn version_1000_to_800_where_possible() {
    let Some(root) = corpus_root() else { return };
    // An 800 model goes to 1000 and back unchanged: nothing was added that 800 lacks.
    let data = std::fs::read(root.join("mdx/rms_PackHorse.mdx")).unwrap();
    let mut model = Model::from_bytes(&data).unwrap();
    model.set_version(1000).unwrap();
    let (_, mut v1000) = write_and_reread(&model);
    assert_eq!(v1000.version(), 1000);
    assert!(v1000.materials()[0].layers[0].fresnel.is_some());
    assert!(v1000.geosets()[0].lod_name.is_some());
    v1000.set_version(800).unwrap();
    assert_eq!(v1000.to_bytes().unwrap(), data);

    // The real v1000 files: each refusal names real content; forcing drops it
    // and gives a consistent v800 file.
    let mut refused = 0;
    for name in [
        "pqw3_Dock_Stairs_Small_Steep.mdx",
        "pqw3_VillagerMaleRich_Portrait.mdx",
        "pqw3_Wood-floor-01.mdx",
        "pqw3_candle.mdx",
        "pqw3_girl2_portrait.mdx",
        "pqw3_icecrownraid_arthas_precipice_phase0_set0.mdx",
        "tm_TM_DruidBear.mdx",
        "tm_blob.mdx",
        "wowconv_5-high-overlord-saurfang-37192.mdx",
    ] {
        let data = std::fs::read(root.join("mdx").join(name)).unwrap();
        let mut model = Model::from_bytes(&data).unwrap();
        let before = format!("{model:?}");
        match model.set_version(800) {
            Ok(()) => {
                let (_, back) = write_and_reread(&model);
                assert_eq!(back.version(), 800);
            }
            Err(losses) => {
                refused += 1;
                assert_eq!(
                    format!("{model:?}"),
                    before,
                    "{name}: a refused change changed the model"
                );
                let has_tangents = model.geosets().iter().any(|g| g.tangents.is_some());
                let has_hd_shader = model
                    .materials()
                    .iter()
                    .any(|m| m.shader.is_some_and(|s| !s.text().is_empty()));
                assert!(
                    has_tangents
                        || has_hd_shader
                        || losses.iter().any(|l| l.path.contains("layers")),
                    "{name}: refused without cause: {losses:?}"
                );
                let dropped = model.force_version(800);
                assert_eq!(
                    dropped, losses,
                    "{name}: forcing drops exactly what was listed"
                );
                let (_, back) = write_and_reread(&model);
                assert_eq!(back.version(), 800);
                assert!(
                    back.geosets()
                        .iter()
                        .all(|g| g.tangents.is_none() && g.lod.is_none())
                );
                println!(
                    "{name}: refused ({} losses, first: {}), forced",
                    losses.len(),
                    losses[0]
                );
            }
        }
    }
    assert!(refused > 0);
}

#[test]
fn a_model_built_from_nothing() {
    let mut model = Model::new(800);
    model.sequences_mut();
    model.bones_mut().push(Bone {
        node: Node {
            name: FixedStr::try_from("Root").unwrap(),
            object_id: 0,
            parent_id: u32::MAX,
            flags: node_flags::BONE,
            tracks: Vec::new(),
        },
        geoset_id: u32::MAX,
        geoset_animation_id: u32::MAX,
    });
    model.pivot_points_mut().push([0.0; 3]);
    let tags: Vec<&str> = model
        .chunks
        .iter()
        .map(|c| match c {
            Chunk::Version(_) => "VERS",
            Chunk::Model(_) => "MODL",
            Chunk::Sequences(_) => "SEQS",
            Chunk::Bones(_) => "BONE",
            Chunk::PivotPoints(_) => "PIVT",
            _ => "?",
        })
        .collect();
    assert_eq!(
        tags,
        ["VERS", "MODL", "SEQS", "BONE", "PIVT"],
        "chunks added in Blizzard's order"
    );
    write_and_reread(&model);
}
