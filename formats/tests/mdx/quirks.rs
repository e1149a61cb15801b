//! The real-file quirks of `MDX_MANIFEST.md` and `MDX_VERSIONS.md` §8, each
//! handled on purpose: what the strict reader reports, what the lenient
//! reader fixes, and what is kept byte for byte.

use crate::common;

use common::corpus_file;
use format_core::{ErrorKind, FixedStr, FourCC, UnknownTail};
use formats::chunks::ChunkFile;
use formats::mdx::{
    BindPoseChunk, Chunk, FilterMode, Fresnel, Interpolation, Key, Layer, LayerTrack, Material,
    Model, NodeTrack, Track,
};

/// The size field of the `LITE` chunk of `model`, written as `bytes` (the
/// chunk-level walk cannot cross the quirk, so the offset comes from the model).
fn lite_size(model: &Model, bytes: &[u8]) -> usize {
    let index = model
        .chunks
        .iter()
        .position(|c| matches!(c, Chunk::Lights(_)))
        .unwrap();
    let offset = Model {
        chunks: model.chunks[..index].to_vec(),
    }
    .to_bytes()
    .unwrap()
    .len();
    assert_eq!(&bytes[offset..offset + 4], b"LITE");
    u32::from_le_bytes(bytes[offset + 4..offset + 8].try_into().unwrap()) as usize
}

#[test]
fn light_track_after_the_lite_chunk() {
    for (name, offset, tag, repaired_size) in [
        ("amisd_nwdg32.mdx", 856497, "KLAC", 176),
        ("dbz_FountainOfSouls_rev-294411b2.mdx", 64541, "KLAI", 240),
    ] {
        let Some(data) = corpus_file(&format!("mdx/{name}")) else {
            return;
        };
        // Strict: an error at the track, with the path to it.
        let error = Model::from_bytes(&data).unwrap_err();
        println!("{name}: strict: {error}");
        assert_eq!(error.offset(), offset, "{name}");
        assert!(
            error.to_string().contains(&format!("light track `{tag}`")),
            "{error}"
        );
        assert!(
            error.path_string().ends_with("LITE"),
            "{}",
            error.path_string()
        );
        // Lenient: attached to the last light, one diagnostic saying so.
        let (mut model, diagnostics) = Model::from_bytes_lenient(&data).unwrap();
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].offset, offset);
        assert!(
            diagnostics[0]
                .to_string()
                .contains("attached it to the chunk's last light")
        );
        let light = model.lights().last().unwrap();
        assert_eq!(light.tracks.len(), 0);
        assert_eq!(light.tracks_after_chunk.len(), 1);
        assert_eq!(light.all_tracks().count(), 1);
        // Written back as it was, sizes 144 included...
        assert_eq!(model.to_bytes().unwrap(), data);
        assert_eq!(lite_size(&model, &data), 144);
        // ...unless the sizes are repaired: then the file is in spec.
        assert_eq!(model.repair_sizes(), 1);
        let repaired = model.to_bytes().unwrap();
        assert_eq!(lite_size(&model, &repaired), repaired_size);
        assert_eq!(repaired.len(), data.len());
        let strict = Model::from_bytes(&repaired).unwrap();
        assert_eq!(strict.lights().last().unwrap().tracks.len(), 1);
    }
}

#[test]
fn an_orphan_track_on_a_light_that_is_not_last_is_refused_on_write() {
    let Some(data) = corpus_file("mdx/dbz_FountainOfSouls_rev-294411b2.mdx") else {
        return;
    };
    let (mut model, _) = Model::from_bytes_lenient(&data).unwrap();
    let lights = model.lights_mut();
    let mut first = lights[0].clone();
    first.tracks_after_chunk.clear();
    lights.push(first);
    let error = model.to_bytes().unwrap_err();
    assert!(error.to_string().contains("only the last light"), "{error}");
}

fn bind_pose_model(count_delta: u32) -> Vec<u8> {
    let mut model = Model::new(1000);
    model.chunks.push(Chunk::BindPoses(BindPoseChunk {
        count: Default::default(),
        bind_pose: vec![[1.0; 12], [2.0; 12]],
    }));
    let mut bytes = model.to_bytes().unwrap();
    // BPOS is last: its count sits 4 + 2 * 48 bytes before the end.
    let at = bytes.len() - 4 - 96;
    let count = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(count, 2);
    bytes[at..at + 4].copy_from_slice(&(2 + count_delta).to_le_bytes());
    bytes
}

#[test]
fn bind_pose_count_larger_than_its_chunk() {
    assert_eq!(
        Model::from_bytes(&bind_pose_model(0))
            .unwrap()
            .bind_poses()
            .len(),
        2
    );
    let bytes = bind_pose_model(1000);
    let error = Model::from_bytes(&bytes).unwrap_err();
    println!("strict: {error}");
    assert!(
        error.path_string().contains("BPOS"),
        "{}",
        error.path_string()
    );
    assert!(error.to_string().contains("1002"), "{error}");
    let (model, diagnostics) = Model::from_bytes_lenient(&bytes).unwrap();
    println!("lenient: {}", diagnostics[0]);
    assert_eq!(diagnostics.len(), 1);
    let message = &diagnostics[0].message;
    assert!(
        message.starts_with("chunks[") && message.contains("].BPOS.bind_pose: "),
        "{message}"
    );
    assert!(message.contains("count 1002") && message.contains("read 2 elements"));
    assert_eq!(model.bind_poses(), [[1.0; 12], [2.0; 12]]);
    // The written count is the number of matrices: the fixed file reads strictly.
    assert_eq!(model.to_bytes().unwrap(), bind_pose_model(0));
}

fn layer(fresnel: Option<Fresnel>, tracks: Vec<LayerTrack>) -> Layer {
    Layer {
        filter_mode: FilterMode::Blend,
        shading_flags: 0,
        texture_id: 0,
        texture_animation_id: -1,
        coord_id: 0,
        alpha: 1.0,
        emissive_gain: Some(1.0),
        fresnel,
        shader_type_id: None,
        textures: None,
        tracks,
    }
}

#[test]
fn version_900_layers_with_and_without_the_fresnel_block() {
    let alpha = || {
        LayerTrack::Alpha(Track::new(
            Interpolation::Linear,
            vec![Key::new(0, 0.5), Key::new(100, 1.0)],
        ))
    };
    let fresnel = Fresnel {
        color: [0.25, 0.5, 0.75],
        opacity: 0.5,
        team_color: 0.0,
    };
    let layers = vec![
        layer(None, vec![]),                 // ends right after emissiveGain
        layer(None, vec![alpha()]),          // a track tag follows emissiveGain
        layer(Some(fresnel), vec![]),        // 20 bytes, no tag
        layer(Some(fresnel), vec![alpha()]), // fresnel, then a track
    ];
    let mut model = Model::new(900);
    model.materials_mut().push(Material {
        priority_plane: 0,
        flags: 0,
        shader: Some(FixedStr::default()),
        layers: layers.clone(),
        unknown: vec![],
    });
    let bytes = model.to_bytes().unwrap();
    let back = Model::from_bytes(&bytes).unwrap();
    assert_eq!(back.materials()[0].layers, layers);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    // In 1000 the block is required, in 800 it cannot be written.
    let mut v1000 = model.clone();
    v1000.chunks[0] = Chunk::Version(formats::mdx::VersionChunk { version: 1000 });
    assert!(
        v1000
            .to_bytes()
            .unwrap_err()
            .to_string()
            .contains("`fresnel` is missing")
    );
    // Version 800 has no shader and no emissive gain either.
    let mut v800 = Model::new(800);
    let mut material = model.materials()[0].clone();
    material.shader = None;
    for layer in &mut material.layers {
        layer.emissive_gain = None;
    }
    v800.materials_mut().push(material);
    let error = v800.to_bytes().unwrap_err();
    assert!(error.path_string().contains("fresnel"), "{error}");
}

#[test]
fn unknown_sub_chunks_stay_where_they_were() {
    let Some(data) = corpus_file("mdx/zf_bone.mdx") else {
        return;
    };
    let mut model = Model::from_bytes(&data).unwrap();
    let tail = UnknownTail {
        tag: FourCC::of("KXYZ"),
        bytes: vec![1, 2, 3, 4, 5],
    };
    model.bones_mut()[0]
        .node
        .tracks
        .push(NodeTrack::Unknown(tail.clone()));
    let bytes = model.to_bytes().unwrap();
    assert_eq!(bytes.len(), data.len() + 9);
    let back = Model::from_bytes(&bytes).unwrap();
    assert_eq!(back, model);
    assert_eq!(
        back.bones()[0].node.tracks.last(),
        Some(&NodeTrack::Unknown(tail))
    );
    // A known track after it would be swallowed: the unknown tail must be last.
    let at = back.bones()[0].node.tracks.len();
    assert_eq!(at, model.bones()[0].node.tracks.len());
}

#[test]
fn nan_emissive_gain_and_string_residue_are_kept_bit_for_bit() {
    let Some(data) = corpus_file("mdx/pqw3_Wood-floor-01.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let nan_layers: Vec<&Layer> = model
        .materials()
        .iter()
        .flat_map(|m| &m.layers)
        .filter(|l| {
            l.tracks
                .iter()
                .any(|t| matches!(t, LayerTrack::EmissiveGain(_)))
        })
        .collect();
    assert_eq!(
        nan_layers.len(),
        9,
        "MDX_VERSIONS.md §8.2: 9 layers with KMTE"
    );
    assert!(
        nan_layers
            .iter()
            .all(|l| l.emissive_gain.unwrap().to_bits() == 0x7fc0_0000)
    );

    let Some(data) = corpus_file("mdx/mv_SmileyGW_004.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let name = model.model_chunk().unwrap().animation_file_name;
    assert_eq!(name.text(), b"");
    assert!(
        name.residue().windows(3).any(|w| w == b"PDR"),
        "§8.1: bytes after the NUL"
    );
    assert_eq!(model.to_bytes().unwrap(), data);

    let Some(data) = corpus_file("mdx/wowconv_5-high-overlord-saurfang-37192.mdx") else {
        return;
    };
    let model = Model::from_bytes(&data).unwrap();
    let name = model.model_chunk().unwrap().name;
    assert_eq!(name.text().len(), 80, "§8.1: a name with no NUL at all");
}

#[test]
fn a_strict_error_names_the_offset_and_the_path() {
    let Some(data) = corpus_file("mdx/zf_geoset.mdx") else {
        return;
    };
    // Cut the file inside the geoset's vertex array, keeping every size as is.
    let file = ChunkFile::from_bytes(&data).unwrap();
    let geos = file
        .entries()
        .into_iter()
        .find(|e| e.tag.to_string() == "GEOS")
        .unwrap();
    let mut bytes = data.clone();
    // Make the VRTX count larger than the geoset can hold.
    let vrtx = geos.offset + 8 + 4; // chunk header, inclusive size
    assert_eq!(&bytes[vrtx..vrtx + 4], b"VRTX");
    bytes[vrtx + 4..vrtx + 8].copy_from_slice(&1_000_000u32.to_le_bytes());
    let error = Model::from_bytes(&bytes).unwrap_err();
    println!("{error}");
    assert!(
        matches!(error.kind(), ErrorKind::CountTooLarge { .. }),
        "{error:?}"
    );
    assert_eq!(
        error.path_string(),
        "chunks[2].GEOS.geosets[0].vertex_positions"
    );
    assert_eq!(error.offset(), vrtx + 8, "where the vertices would start");
    assert_eq!(
        error.to_string(),
        "chunks[2].GEOS.geosets[0].vertex_positions: count 1000000 needs at least 12000000 \
         bytes (12 each) at 0x1a0, 171 left"
    );
}

#[test]
fn a_layer_level_kmtf_that_would_read_back_elsewhere_is_refused() {
    use formats::mdx::TextureEntry;
    let kmtf = || LayerTrack::TextureId(Track::new(Interpolation::None, vec![Key::new(0, 1u32)]));
    let mut layer = layer(Some(Fresnel::default()), vec![kmtf()]);
    layer.shader_type_id = Some(0);
    layer.textures = Some(vec![TextureEntry {
        texture_id: 0,
        slot: 0,
        texture_id_track: None,
    }]);
    let mut model = Model::new(1100);
    model.materials_mut().push(Material {
        priority_plane: 0,
        flags: 0,
        shader: None,
        layers: vec![layer.clone()],
        unknown: vec![],
    });
    let error = model.to_bytes().unwrap_err();
    assert!(
        error
            .to_string()
            .contains("would read back as the last texture's KMTF"),
        "{error}"
    );
    // Where the sources put it, it round-trips.
    let textures = layer.textures.as_mut().unwrap();
    let LayerTrack::TextureId(track) = layer.tracks.remove(0) else {
        unreachable!()
    };
    textures[0].texture_id_track = Some(track);
    model.materials_mut()[0].layers = vec![layer];
    let bytes = model.to_bytes().unwrap();
    assert_eq!(Model::from_bytes(&bytes).unwrap(), model);
}
