//! `formats::convert` on the corpus: every Reforged model converts to 800 and
//! validates, its classic form posed by the sampler stays within the
//! reported skinning error of the Reforged original, and every classic model
//! goes to 900, 1000, 1100 and 1200 and back unchanged (the two exceptions
//! are named where they are tested).
//!
//! Posing every frame of every sequence is slow in a debug build, so these
//! tests pose every 40th millisecond (and each sequence's last); CI runs
//! them again in release with `CONVERT_FRAMES=every`, at every frame.

mod common;

use std::collections::BTreeSet;

use formats::anim::{Moment, Sampler, Skeleton, Timeline, meshes};
use formats::convert::{HdMaterials, Options, Report, convert};
use formats::mdx::{Material, Model};
use formats::validate::{self, Rule, Severity};

/// Milliseconds between the frames measured.
fn step() -> u32 {
    match std::env::var("CONVERT_FRAMES") {
        Ok(v) if v == "every" => 1,
        _ => 40,
    }
}

fn read(bytes: &[u8]) -> Model {
    Model::from_bytes_lenient(bytes).unwrap().0
}

/// The rules `model` breaks: its structure (`validate::model`) and, at the
/// error severity, the map makers' rules (`validate::sanity`).
fn rules(model: &Model) -> BTreeSet<Rule> {
    let structure = validate::model(model).into_iter().map(|f| f.rule);
    let errors = validate::sanity(model)
        .into_iter()
        .filter(|f| f.severity() == Severity::Error)
        .map(|f| f.rule);
    structure.chain(errors).collect()
}

/// `converted` validates: it breaks no rule its source does not already
/// break (corpus models with keys outside every sequence or normals that are
/// not unit length keep them; a source without errors gives a converted
/// model without errors). Version 900 is no version the game reads: a model
/// converted to it breaks that rule too.
fn validates(original: &Model, converted: &Model, name: &str) {
    let new: Vec<Rule> = rules(converted)
        .difference(&rules(original))
        .copied()
        .filter(|&r| !(r == Rule::UnsupportedVersion && converted.version() == 900))
        .collect();
    assert!(new.is_empty(), "{name}: {new:?}");
}

/// Writes and re-reads strictly: the converted model is a valid file.
fn rewrite(model: &Model, name: &str) -> Model {
    let bytes = model.to_bytes().unwrap_or_else(|e| panic!("{name}: {e}"));
    Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: re-read: {e}"))
}

/// The largest distance between the vertices of `a` and `b` (geoset `i` of
/// `b` is geoset `kept[i]` of `a`) posed at the same moments: the bind pose
/// and every `step` ms of every sequence of `a`.
fn largest_distance(a: &Model, b: &Model, kept: &[usize], step: u32) -> f32 {
    let (sa, sb) = (Skeleton::from_model(a), Skeleton::from_model(b));
    let (ta, tb) = (Timeline::from_model(a), Timeline::from_model(b));
    let (ma, mb) = (meshes(a, &sa), meshes(b, &sb));
    assert_eq!(mb.len(), kept.len());
    let mut moments = vec![(Moment::BIND, Moment::BIND)];
    // Every `step` ms of each sequence and its last frame, global sequences
    // running from its start.
    let moment = |interval: [u32; 2], ms: u32| Moment {
        interval: Some(interval),
        frame: f64::from(interval[0] + ms),
        counter: Some(f64::from(ms)),
    };
    for (sa, sb) in ta.sequences.iter().zip(&tb.sequences) {
        let d = sa.duration();
        for ms in (0..d).step_by(step as usize).chain([d]) {
            moments.push((moment(sa.interval, ms), moment(sb.interval, ms)));
        }
    }
    let mut largest = 0.0f32;
    for (moment_a, moment_b) in moments {
        let pa = sa.pose(&Sampler::new(&ta, moment_a));
        let pb = sb.pose(&Sampler::new(&tb, moment_b));
        for (mesh_b, &k) in mb.iter().zip(kept) {
            let posed_a = ma[k].posed_positions(&pa);
            let posed_b = mesh_b.posed_positions(&pb);
            for (p, q) in posed_a.iter().zip(&posed_b) {
                let d = (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f32>().sqrt();
                largest = largest.max(d);
            }
        }
    }
    largest
}

fn options() -> Options {
    Options {
        error_step: step(),
        ..Options::default()
    }
}

/// [`options`] without cutting large geosets: geoset `i` of the result is
/// geoset `kept[i]` of the source, vertex for vertex.
fn uncut() -> Options {
    Options {
        split_large_geosets: false,
        ..options()
    }
}

#[test]
fn reforged_models_convert_to_classic_within_the_reported_error() {
    let models = common::manifest_models(1000..=1200);
    let mut measured = 0;
    for (file, bytes) in &models {
        let name = &file.path;
        let original = read(bytes);
        // Measured without cutting large geosets (vertex for vertex), then
        // as shipped (cut, not measured again): the same triangles.
        let mut classic = original.clone();
        let report = convert(&mut classic, 800, &uncut()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(classic.version(), 800, "{name}");
        let classic = rewrite(&classic, name);
        let mut shipped = original.clone();
        let fast = Options {
            error_step: 0,
            ..Options::default()
        };
        let cut_report = convert(&mut shipped, 800, &fast).unwrap();
        let shipped = rewrite(&shipped, name);
        validates(&original, &shipped, name);
        assert_eq!(triangles(&shipped), triangles(&classic), "{name}");
        let cut = shipped.geosets().len() - classic.geosets().len();
        if cut > 0 {
            eprintln!("{name}: {cut} geosets more, cut for the classic renderer");
            assert!(
                cut_report
                    .approximated
                    .iter()
                    .any(|n| n.what.contains("cut into"))
            );
            // A part has a copy of the whole's geoset animation, if it had one.
            assert!(shipped.geoset_animations().len() >= classic.geoset_animations().len());
        }
        assert!(
            shipped.geosets().iter().all(|g| g.vertex_count() <= 7432),
            "{name}"
        );
        // Classic files hold no Reforged-only part.
        for geoset in classic.geosets() {
            assert!(geoset.skin.is_none() && geoset.tangents.is_none() && geoset.lod.is_none());
            assert_eq!(geoset.vertex_groups.len(), geoset.vertex_count(), "{name}");
        }
        assert!(classic.corn_emitters().is_empty() && classic.bind_poses().is_empty());
        // An HD material keeps one layer, the diffuse texture of the original.
        for (m, material) in original.materials().iter().enumerate() {
            let hd = material.has_hd_shader()
                || material.layers.iter().any(|l| l.shader_type_id == Some(1));
            if !hd {
                continue;
            }
            let diffuse = match &material.layers[0].textures {
                Some(entries) => entries.iter().find(|e| e.slot == 0).unwrap().texture_id,
                None => material.layers[0].texture_id,
            };
            let layer = &classic.materials()[m].layers;
            assert_eq!(layer.len(), 1, "{name}: material {m}");
            assert_eq!(
                texture(&classic.textures()[layer[0].texture_id as usize]),
                texture(&original.textures()[diffuse as usize]),
                "{name}: material {m}"
            );
            assert_eq!(layer[0].filter_mode, material.layers[0].filter_mode);
            let slots = report
                .dropped
                .iter()
                .filter(|n| n.path.starts_with(&format!("materials[{m}].layers")))
                .count();
            assert!(
                slots >= 4,
                "{name}: material {m}: {slots} slots listed\n{report}"
            );
        }
        // Posed by the sampler, the classic model stays within the reported
        // error at every frame measured, and the report names the largest.
        let kept: Vec<usize> = (0..original.geosets().len())
            .filter(|&g| original.geosets()[g].lod.unwrap_or(0) <= 0)
            .collect();
        let distance = largest_distance(&original, &classic, &kept, step());
        let reported = report.skin_error.as_ref().map_or(0.0, |e| e.distance);
        let tolerance = 1e-3 * reported.max(1.0);
        assert!(
            (distance - reported).abs() <= tolerance,
            "{name}: posed {distance}, reported {reported}\n{report}"
        );
        if let Some(error) = &report.skin_error {
            assert_eq!(error.step, step());
            measured += 1;
            eprintln!("{name}: {error}");
        }
    }
    if !models.is_empty() {
        assert!(
            measured >= 5,
            "only {measured} models had their skinning measured"
        );
    }
}

/// A texture as the game finds it: its replaceable id and its path, a
/// `.tif` (which conversion to 800 names in `.dds`) as `.dds`.
fn texture(t: &formats::mdx::Texture) -> (u32, String) {
    let path = t.file_name.to_string_lossy().to_ascii_lowercase();
    let path = path
        .strip_suffix(".tif")
        .map_or(path.clone(), |stem| format!("{stem}.dds"));
    (t.replaceable_id, path)
}

/// A triangle's corner: its position's bits and its matrix group's bones.
type Corner = (u32, u32, u32, Vec<u32>);

/// Every triangle of a model as the bits of its corners' positions and the
/// bones of their matrix groups, sorted: what draws and animates, whichever
/// geoset holds it.
fn triangles(model: &Model) -> Vec<Vec<Corner>> {
    let mut out = Vec::new();
    for geoset in model.geosets() {
        let mut groups = Vec::new();
        let mut rest = geoset.matrix_indices.as_slice();
        for &size in &geoset.matrix_groups {
            let (group, tail) = rest.split_at(size as usize);
            groups.push(group.to_vec());
            rest = tail;
        }
        for t in geoset.faces.chunks(3) {
            out.push(
                t.iter()
                    .map(|&v| {
                        let [x, y, z] = geoset.vertex_positions[usize::from(v)];
                        let group = usize::from(geoset.vertex_groups[usize::from(v)]);
                        (x.to_bits(), y.to_bits(), z.to_bits(), groups[group].clone())
                    })
                    .collect(),
            );
        }
    }
    out.sort();
    out
}

/// `report` says nothing was lost.
fn lossless(report: &Report, name: &str) {
    assert!(report.dropped.is_empty(), "{name}\n{report}");
}

#[test]
fn classic_models_go_to_reforged_and_back_unchanged() {
    let models = common::manifest_models(800..=800);
    for (file, bytes) in &models {
        let name = &file.path;
        let mut original = read(bytes);
        // A light track after its LITE chunk is put inside (the only repair).
        original.repair_sizes();
        let exact = original.to_bytes().unwrap();
        // From 1100 on a layer's texture-id track (KMTF) belongs to its
        // texture entry, apart from the layer's other tracks: back in a layer
        // it comes first, wherever it was.
        // (Through the chunks: `materials_mut` would add an MTLS chunk.)
        let mut kmtf_first = original.clone();
        for chunk in &mut kmtf_first.chunks {
            let formats::mdx::Chunk::Materials(c) = chunk else {
                continue;
            };
            for layer in c.materials.iter_mut().flat_map(|m| &mut m.layers) {
                layer
                    .tracks
                    .sort_by_key(|t| !matches!(t, formats::mdx::LayerTrack::TextureId(_)));
            }
        }
        let kmtf_first = kmtf_first.to_bytes().unwrap();
        if exact != *bytes {
            eprintln!("{name}: written back after the repair of its light tracks");
        }
        if kmtf_first != exact {
            eprintln!("{name}: from 1100 on, a layer's KMTF comes back first among its tracks");
        }
        for target in [900, 1000, 1100, 1200] {
            let expected = if target < 1100 { &exact } else { &kmtf_first };
            let mut reforged = original.clone();
            let fast = Options {
                error_step: 0,
                ..Options::default()
            };
            let report = convert(&mut reforged, target, &fast).unwrap();
            lossless(&report, name);
            let reforged = rewrite(&reforged, name);
            assert_eq!(reforged.version(), target);
            validates(&original, &reforged, name);
            for geoset in reforged.geosets() {
                let n = geoset.vertex_count();
                assert_eq!(geoset.skin.as_ref().map(Vec::len), Some(8 * n), "{name}");
                assert_eq!(geoset.tangents.as_ref().map(Vec::len), Some(n), "{name}");
                for vertex in geoset.skin.as_ref().unwrap().chunks(8) {
                    let total: u32 = vertex[4..].iter().map(|&w| u32::from(w)).sum();
                    assert!(total == 255 || total == 0, "{name}: {vertex:?}");
                }
            }
            let mut back = reforged.clone();
            let report = convert(&mut back, 800, &fast).unwrap();
            assert_eq!(
                &back.to_bytes().unwrap(),
                expected,
                "{name}: 800 -> {target} -> 800 is not the original\n{report}"
            );
        }
    }
}

#[test]
fn classic_skin_weights_pose_like_the_groups() {
    // Equal shares of 255 differ from equal weights by rounding only.
    let Some(bytes) = common::corpus_file("mdx/rms_PackHorse.mdx") else {
        return;
    };
    let original = read(&bytes);
    let mut reforged = original.clone();
    let report = convert(&mut reforged, 1000, &options()).unwrap();
    let error = report
        .skin_error
        .expect("groups of two bones round to 128/127");
    let kept: Vec<usize> = (0..original.geosets().len()).collect();
    let distance = largest_distance(&original, &reforged, &kept, step());
    assert!(
        (distance - error.distance).abs() <= 1e-3,
        "{distance} vs {error}"
    );
    assert!(error.distance < 0.5, "{error}");
}

/// The Reforged models whose tangents Blizzard's pipeline computed (the
/// others come from third-party exporters that compute them otherwise).
const BLIZZARD_TANGENTS: [&str; 5] = [
    "mdx/pqw3_candle.mdx",
    "mdx/pqw3_Wood-floor-01.mdx",
    "mdx/pqw3_VillagerMaleRich_Portrait.mdx",
    "mdx/pqw3_Dock_Stairs_Small_Steep.mdx",
    "mdx/pqw3_girl2_portrait.mdx",
];

#[test]
fn generated_tangents_agree_with_blizzards() {
    // Dropped (to 800) and generated again (to 1000): the tangents agree in
    // direction (within 18 degrees) and bitangent sign with the files'.
    for (file, bytes) in common::manifest_models(1000..=1200) {
        let original = read(&bytes);
        let mut model = original.clone();
        let fast = Options {
            error_step: 0,
            keep_lods: true,
            split_large_geosets: false,
            ..Options::default()
        };
        convert(&mut model, 800, &fast).unwrap();
        convert(&mut model, 1000, &fast).unwrap();
        let (mut agree, mut total) = (0usize, 0usize);
        for (a, b) in original.geosets().iter().zip(model.geosets()) {
            let (Some(stored), Some(made)) = (&a.tangents, &b.tangents) else {
                continue;
            };
            assert_eq!(stored.len(), made.len(), "{}", file.path);
            for (s, m) in stored.iter().zip(made) {
                let dot = s[0] * m[0] + s[1] * m[1] + s[2] * m[2];
                total += 1;
                agree += usize::from(dot > 0.95 && s[3] == m[3]);
            }
        }
        let share = agree as f64 / total.max(1) as f64;
        eprintln!("{}: {agree} of {total} tangents agree", file.path);
        if BLIZZARD_TANGENTS.contains(&file.path.as_str()) {
            assert!(share > 0.94, "{}: {agree} of {total}", file.path);
        }
    }
}

#[test]
fn hd_materials_move_between_the_reforged_layouts() {
    for (name, there) in [
        ("mdx/pqw3_HarvestGolem.mdx", 1000),
        ("mdx/pqw3_candle.mdx", 1100),
        ("mdx/tm_TM_DruidBear.mdx", 1200),
        ("mdx/pqw3_HarvestGolem.mdx", 900),
    ] {
        let Some(bytes) = common::corpus_file(name) else {
            return;
        };
        let original = read(&bytes);
        let mut model = original.clone();
        let report = convert(&mut model, there, &options()).unwrap();
        let model = rewrite(&model, name);
        for material in model.materials() {
            if there < 1100 {
                assert!(material.has_hd_shader(), "{name}");
                assert_eq!(material.layers.len(), 6);
            } else {
                assert_eq!(material.layers.len(), 1, "{name}");
                assert_eq!(material.layers[0].shader_type_id, Some(1));
                assert_eq!(material.layers[0].textures.as_ref().unwrap().len(), 6);
            }
        }
        assert!(report.skin_error.is_none());
        let mut back = model.clone();
        convert(&mut back, original.version(), &options()).unwrap();
        assert_eq!(
            back.to_bytes().unwrap(),
            original.to_bytes().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn levels_of_detail_above_0_are_dropped_unless_kept() {
    let Some(bytes) = common::corpus_file("mdx/pqw3_girl2_portrait.mdx") else {
        return;
    };
    let mut original = read(&bytes);
    // The corpus has levels 0 and -1 only: make geoset 1 a level 1.
    original.geosets_mut()[1].lod = Some(1);
    let animated = original
        .geoset_animations()
        .iter()
        .filter(|a| a.geoset_id != 1)
        .count();
    // Its material, unless another geoset uses it, goes with it.
    let material = original.geosets()[1].material_id;
    let shared = original
        .geosets()
        .iter()
        .enumerate()
        .any(|(g, geoset)| g != 1 && geoset.material_id == material);
    let mut model = original.clone();
    let report = convert(&mut model, 800, &options()).unwrap();
    assert_eq!(model.geosets().len(), original.geosets().len() - 1);
    assert_eq!(model.geoset_animations().len(), animated);
    assert_eq!(
        model.materials().len(),
        original.materials().len() - usize::from(!shared)
    );
    // The geosets kept (0 and 2) still name their materials: the same
    // diffuse texture.
    let diffuse = |m: &Model, material: u32| {
        let layer = &m.materials()[material as usize].layers[0];
        texture(&m.textures()[layer.texture_id as usize])
    };
    for (kept, source) in model.geosets().iter().zip([0, 2]) {
        assert_eq!(
            diffuse(&model, kept.material_id),
            diffuse(&original, original.geosets()[source].material_id)
        );
    }
    validates(&original, &model, "girl2_portrait with a level of detail 1");
    assert!(
        report
            .dropped
            .iter()
            .any(|n| n.path == "geosets[1]" && n.what.contains("level of detail 1")),
        "{report}"
    );
    let mut kept = original.clone();
    let report = convert(
        &mut kept,
        800,
        &Options {
            keep_lods: true,
            ..options()
        },
    )
    .unwrap();
    assert_eq!(kept.geosets().len(), original.geosets().len());
    assert!(
        report
            .approximated
            .iter()
            .any(|n| n.path == "geosets[1].lod")
    );
}

#[test]
fn multi_layer_materials_stay_sd_unless_asked() {
    let Some(bytes) = common::corpus_file("mdx/risk_HumanBattleship_v800.mdx") else {
        return;
    };
    let original = read(&bytes);
    let layers = |m: &Model| {
        m.materials()
            .iter()
            .map(|m| m.layers.len())
            .collect::<Vec<_>>()
    };
    assert!(layers(&original).iter().any(|&n| n > 1));
    let mut sd = original.clone();
    let report = convert(&mut sd, 1000, &options()).unwrap();
    for (material, count) in sd.materials().iter().zip(layers(&original)) {
        assert_eq!(material.has_hd_shader(), count == 1);
    }
    assert!(
        report
            .approximated
            .iter()
            .any(|n| n.what.contains("kept as an SD material"))
    );
    let mut hd = original.clone();
    let all = Options {
        hd_materials: HdMaterials::All,
        ..options()
    };
    let report = convert(&mut hd, 1000, &all).unwrap();
    assert!(hd.materials().iter().all(Material::has_hd_shader));
    assert!(
        report
            .dropped
            .iter()
            .any(|n| n.what.contains("besides the HD diffuse"))
    );
    // The diffuse is the layer with a texture file, not the team colour.
    for material in hd.materials() {
        let texture = &hd.textures()[material.layers[0].texture_id as usize];
        assert_eq!(texture.replaceable_id, 0);
    }
}
