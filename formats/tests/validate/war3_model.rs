//! A second reader nobody here wrote, for the versions mdx-m3-viewer 5.12
//! does not read: npm `war3-model` (4eb0da's parser, which reads MDX and MDL
//! from 800 to 1200). It reads the corpus models as ours does, and what our
//! tools write: models converted between classic and Reforged (800 <-> 1100
//! and 1200), and MDL (plain and lossless). The harness is
//! `tests/war3_model/read.js`; `.ci/run` installs it.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use formats::mdx::{Layer, LayerTrack, Model, Node, RibbonEmitterTrack};
use serde_json::{Value, json};

/// war3-model's digest of each file (see read.js), by path.
fn war3_model(harness: &Path, files: &[PathBuf]) -> BTreeMap<String, Value> {
    let args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    common::node_results(&harness.join("read.js"), &args)
}

/// FNV-1a (32-bit), as read.js computes it.
fn hash(values: impl IntoIterator<Item = u32>) -> u32 {
    values
        .into_iter()
        .fold(0x811c_9dc5, |h: u32, x| (h ^ x).wrapping_mul(0x0100_0193))
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn utf8(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every node of the model, kind by kind.
fn nodes(model: &Model) -> impl Iterator<Item = &Node> {
    let bones = model.bones().iter().map(|b| &b.node);
    let lights = model.lights().iter().map(|l| &l.node);
    let helpers = model.helpers().iter().map(|h| &h.node);
    let attachments = model.attachments().iter().map(|a| &a.node);
    let emitters = model.particle_emitters().iter().map(|e| &e.node);
    let emitters2 = model.particle_emitters2().iter().map(|e| &e.node);
    let ribbons = model.ribbon_emitters().iter().map(|e| &e.node);
    let popcorns = model.corn_emitters().iter().map(|e| &e.node);
    let events = model.event_objects().iter().map(|e| &e.node);
    let shapes = model.collision_shapes().iter().map(|c| &c.node);
    bones
        .chain(lights)
        .chain(helpers)
        .chain(attachments)
        .chain(emitters)
        .chain(emitters2)
        .chain(ribbons)
        .chain(popcorns)
        .chain(events)
        .chain(shapes)
}

/// A layer's texture as war3-model gives it: in 1100 and later the first of
/// the list (`TextureID`, the diffuse slot); `None` where it is animated
/// (war3-model holds the track there).
fn texture_id(layer: &Layer) -> Option<i32> {
    if let Some(entries) = &layer.textures {
        let first = entries.first()?;
        return first.texture_id_track.is_none().then_some(first.texture_id);
    }
    let animated = layer
        .tracks
        .iter()
        .any(|t| matches!(t, LayerTrack::TextureId(_)));
    (!animated).then_some(layer.texture_id)
}

/// A layer's texture list entries 1 to 5 (normal, ORM, emissive, team
/// colour, reflection: war3-model names them by position), each `None`
/// where there is none or it is animated.
fn other_slots(layer: &Layer) -> Vec<Option<i32>> {
    let entries = layer.textures.as_deref().unwrap_or_default();
    (1..6)
        .map(|j| {
            let entry = entries.get(j)?;
            entry.texture_id_track.is_none().then_some(entry.texture_id)
        })
        .collect()
}

/// Our reading of what read.js's `digest` holds. Names: war3-model reads
/// MDX names byte by byte, as Latin-1 (so the bytes up to the NUL compare,
/// whatever their encoding), MDL as UTF-8 text.
fn digest(model: &Model, text: fn(&[u8]) -> String) -> Value {
    let name = |s: &format_core::FixedStr<80>| text(s.text());
    // war3-model reads object and parent ids as int32 (none: -1).
    let mut nodes: Vec<(String, i32, i32)> = nodes(model)
        .map(|n| (name(&n.name), n.object_id as i32, n.parent_id as i32))
        .collect();
    nodes.sort_by_key(|n| n.1);
    let version = model.version();
    json!({
        "version": version,
        "sequences": model.sequences().iter().map(|s| json!([
            text(s.name.text()), s.interval[0], s.interval[1], s.flags & 1,
        ])).collect::<Vec<_>>(),
        "global_sequences": model.global_sequences(),
        "textures": model.textures().iter().map(|t| json!([
            text(t.file_name.text()), t.replaceable_id,
        ])).collect::<Vec<_>>(),
        "layers": model.materials().iter().map(|m| m.layers.iter().map(|l| json!([
            u32::from(l.filter_mode),
            texture_id(l),
            other_slots(l),
        ])).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "geosets": model.geosets().iter().map(|g| json!({
            "vertices": g.vertex_positions.len(),
            "faces": g.faces.len(),
            "uv_sets": g.texture_coordinate_sets.len(),
            "groups": g.matrix_groups.len(),
            "tangents": g.tangents.as_ref().map_or(0, Vec::len),
            "material": g.material_id,
            "lod": g.lod,
            "skin": g.skin.as_ref().filter(|s| !s.is_empty()).map(|s| hash(s.iter().map(|&b| u32::from(b)))),
        })).collect::<Vec<_>>(),
        "nodes": nodes,
        "positions": hash(model.geosets().iter().flat_map(|g| g.vertex_positions.iter().flatten().map(|f| f.to_bits()))),
        "position_sum": model.geosets().iter().flat_map(|g| g.vertex_positions.iter().flatten()).fold(0.0, |sum, &x| sum + f64::from(x)),
    })
}

/// The corpus and the harness (`None`, loudly, without either).
fn corpus_and_harness() -> Option<(PathBuf, PathBuf)> {
    let root = common::corpus_root()?;
    let harness = common::npm_harness("war3_model", "war3-model", "war3-model's parsers")?;
    Some((root, harness))
}

/// The file name of `path` without its extension.
fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Every corpus model of versions 800 to 1200, read leniently, with its
/// file name's stem.
fn corpus_models() -> Vec<(String, Model)> {
    common::manifest_models(800..=1200)
        .into_iter()
        .map(|(file, bytes)| {
            let model = Model::from_bytes_lenient(&bytes).unwrap().0;
            (stem(Path::new(&file.path)), model)
        })
        .collect()
}

/// Compares war3-model's reading of each `(file, model)` with ours, says how
/// many of `what` agree, and returns the files it cannot read, with its
/// message: each must be a refusal `known` allows (for our output, one of
/// its known gaps: [`refuses`]).
fn agree(
    harness: &Path,
    what: &str,
    files: &[(PathBuf, Model)],
    known: fn(&str, &Model, &str) -> bool,
) -> Vec<String> {
    let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
    let results = war3_model(harness, &paths);
    let mut unreadable = Vec::new();
    for (path, model) in files {
        let name = path.file_name().unwrap().to_string_lossy();
        let result = &results[path.to_str().unwrap()];
        if let Some(error) = result["unreadable"].as_str() {
            assert!(
                known(&name, model, error),
                "war3-model refuses {name}: {error}"
            );
            unreadable.push(format!("{name}: {error}"));
            continue;
        }
        let mdl = path.extension().is_some_and(|e| e == "mdl");
        let ours = digest(model, if mdl { utf8 } else { latin1 });
        let theirs = &result["digest"];
        for key in ours.as_object().unwrap().keys() {
            if theirs[key] == ours[key] || same_sum(key, &theirs[key], &ours[key]) {
                continue;
            }
            // The first element that differs, not the whole list.
            let (a, b) = (&theirs[key], &ours[key]);
            let len = a
                .as_array()
                .map_or(0, Vec::len)
                .max(b.as_array().map_or(0, Vec::len));
            let at = (0..len).find(|&i| a.get(i) != b.get(i)).unwrap_or(0);
            panic!(
                "{name}: {key}[{at}]: war3-model {} ours {} (lengths {:?} {:?})",
                a.get(at).unwrap_or(a),
                b.get(at).unwrap_or(b),
                a.as_array().map(Vec::len),
                b.as_array().map(Vec::len)
            );
        }
    }
    eprintln!(
        "war3-model reads {} of {} {what} as ours; not: {unreadable:?}",
        files.len() - unreadable.len(),
        files.len()
    );
    unreadable
}

/// The same sum of positions (summed in one order in both, so equal but
/// for serde_json's parsing of the last digit).
fn same_sum(key: &str, a: &Value, b: &Value) -> bool {
    let (Some(a), Some(b)) = (a.as_f64(), b.as_f64()) else {
        return false;
    };
    key == "position_sum" && (a - b).abs() <= 1e-12 * a.abs().max(1.0)
}

/// What war3-model 4.0.1 is known not to read: a v1200 light (it has no
/// `shadowIntensity`, which HWE, Retera's Model Studio and WOL read after
/// `ambientIntensity`: `MDX_VERSIONS.md` §4.1; no corpus file settles it),
/// the `KRCO` ribbon colour tracks of three war3mdlx files (which
/// mdx-m3-viewer and ours read), in MDX or as a ribbon's `Color` track in
/// MDL (its MDL parser has no such track either: a syntax error there), and
/// in MDL a node whose object id has no pivot point (war3mdlx's test files
/// number nodes -321 and 666: its MDL parser sets the pivot of a node it
/// does not have), and the material flags `TwoSided` (2) and
/// `SortPrimsNearZ` (8), which its MDL parser does not know (mdx-m3-viewer's
/// does), and in MDL `SkinWeights` as the corpus's Reforged MDL and
/// mdx-m3-viewer write them (a vertex's 8 bytes bare: it wants them in
/// braces; its error says "extected ,").
fn refuses(name: &str, model: &Model, error: &str) -> bool {
    let skin = model.geosets().iter().any(|g| g.skin.is_some());
    if error.contains("extected ,") && skin {
        return true;
    }
    let flag = |bit: u32| model.materials().iter().any(|m| m.flags & bit != 0);
    if (error.ends_with("Unknown material property TwoSided") && flag(2))
        || (error.ends_with("Unknown material property SortPrimsNearZ") && flag(8))
    {
        return true;
    }
    let pivots = model.pivot_points().len();
    let unpivoted = nodes(model).any(|n| n.object_id as usize >= pivots);
    if error.contains("setting 'PivotPoint'") && unpivoted {
        return true;
    }
    let krco = ["zf_all", "zf_bang-RibbonEmitter", "zf_ribbon_emitter"];
    let colour_track = model.ribbon_emitters().iter().any(|r| {
        r.tracks
            .iter()
            .any(|t| matches!(t, RibbonEmitterTrack::Color(_)))
    });
    (error.contains("Incorrect light chunk data")
        && model.version() == 1200
        && !model.lights().is_empty())
        || ((error.contains("Incorrect ribbon emitter chunk data KRCO")
            || error.starts_with("SyntaxError"))
            && colour_track
            && krco.iter().any(|k| name.starts_with(k)))
}

/// Every corpus model of versions 800 to 1200, 1100 and 1200 included.
#[test]
fn corpus_models_read_in_war3_model_as_in_ours() {
    let Some((root, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("war3-model-corpus");
    let mut repaired = Vec::new();
    let files: Vec<(PathBuf, Model)> = common::manifest_models(800..=1200)
        .into_iter()
        .map(|(f, bytes)| {
            let mut model = Model::from_bytes_lenient(&bytes).unwrap().0;
            // A light track after `LITE` (a writer's bug, kept by our
            // reader): war3-model takes it for a chunk and silently drops
            // every chunk after it. It reads the model as repaired.
            if model.repair_sizes() == 0 {
                return (root.join(&f.path), model);
            }
            let path = out.join(Path::new(&f.path).file_name().unwrap());
            std::fs::write(&path, model.to_bytes().unwrap()).unwrap();
            repaired.push(f.path);
            (path, model)
        })
        .collect();
    eprintln!("repaired first: {repaired:?}");
    let unreadable = agree(&harness, "corpus models", &files, refuses);
    assert_eq!(unreadable.len(), 3, "{unreadable:?}");
    assert_eq!(repaired.len(), 2, "{repaired:?}");
}

/// Models our conversion wrote (`formats convert --version`): every
/// Reforged corpus model to 800, every classic one to 1000, 1100 and 1200
/// (with `SKIN`, tangents and HD materials). war3-model reads each at its
/// new version as our reader reads it.
#[test]
fn converted_models_read_in_war3_model_as_in_ours() {
    let Some((_, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("war3-model-converted");
    let options = formats::convert::Options {
        error_step: 0,
        ..formats::convert::Options::default()
    };
    let mut files = Vec::new();
    for (stem, source) in corpus_models() {
        let from = source.version();
        let targets: &[u32] = if from == 800 {
            &[1000, 1100, 1200]
        } else {
            &[800]
        };
        for &target in targets {
            let mut model = source.clone();
            formats::convert::convert(&mut model, target, &options).unwrap();
            let written = model.to_bytes().unwrap();
            let path = out.join(format!("{stem}_{target}.mdx"));
            std::fs::write(&path, &written).unwrap();
            let back = Model::from_bytes(&written).unwrap();
            assert_eq!(back.version(), target);
            files.push((path, back));
        }
    }
    let unreadable = agree(&harness, "converted models", &files, refuses);
    assert!(files.len() - unreadable.len() >= 100, "{unreadable:?}");
}

/// Models imported from glTF files others wrote (the Khronos samples and
/// the Blender fixture), at 800, 1000, 1100 and 1200 (HD materials: every
/// slot of the texture list read alike): war3-model reads each as ours.
#[test]
fn imported_models_read_in_war3_model_as_in_ours() {
    let Some((_, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("war3-model-imported");
    let (files, _) = testkit::imported_third_party(&out, &[800, 1000, 1100, 1200]);
    let unreadable = agree(&harness, "imported models", &files, |_, _, _| false);
    assert!(unreadable.is_empty(), "{unreadable:?}");
}

/// Our plain MDL of every corpus model, read by war3-model's MDL parser as
/// by ours. (The lossless MDL's extension it refuses, as other readers do;
/// where the lossless MDL needs none, it is the plain text.)
#[test]
fn plain_mdl_reads_in_war3_model_as_in_ours() {
    let Some((_, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("war3-model-mdl");
    let mut plain = Vec::new();
    for (stem, model) in corpus_models() {
        let text = formats::mdl::to_string_plain(&model).unwrap().text;
        let path = out.join(format!("{stem}.mdl"));
        std::fs::write(&path, &text).unwrap();
        plain.push((path, formats::mdl::from_str(&text).unwrap()));
    }
    let unreadable = agree(&harness, "plain MDL files", &plain, refuses);
    assert!(plain.len() - unreadable.len() >= 40, "{unreadable:?}");
}

/// The other way: war3-model writes MDL (`generateMDL`) of every corpus
/// model it reads, and our MDL reader reads each as war3-model's own MDL
/// parser does (its `NormalTextureID`... slot keys, `RenderMode` and braced
/// `SkinWeights` included).
#[test]
fn war3_model_mdl_reads_in_ours() {
    let Some((root, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("war3-model-writes");
    let sources: Vec<PathBuf> = common::manifest_models(800..=1200)
        .into_iter()
        .map(|(f, _)| root.join(f.path))
        .collect();
    let mut args = vec!["--write-mdl".as_ref(), out.as_os_str()];
    args.extend(sources.iter().map(|s| s.as_os_str()));
    let written = common::node_results(&harness.join("read.js"), &args);
    let (mut files, mut nulls) = (Vec::new(), Vec::new());
    for result in written.values() {
        if result["unreadable"].is_string() {
            continue;
        }
        let source = Path::new(result["file"].as_str().unwrap());
        let name = stem(source);
        let path = out.join(format!("{name}.mdl"));
        let text = std::fs::read_to_string(&path).unwrap();
        // Strictly, but for the names war3-model writes longer than their
        // field (the NULs and the bytes after them; a name that fills its
        // field runs on into the next): see `mdl`'s lenient quirks.
        let model = match formats::mdl::from_str(&text) {
            Ok(model) => model,
            Err(e) => match formats::mdl::from_str_lenient(&text) {
                Ok((model, notes)) => {
                    let cut = |m: &str| m.contains("kept its first");
                    assert!(
                        notes.iter().all(|n| cut(&n.message)),
                        "{name}: {e}: {notes:?}"
                    );
                    model
                }
                // war3-model writes an id of -1 as JavaScript's `null`
                // (`GeosetId null`), which no MDL reader takes.
                Err(e) if e.to_string().ends_with("found `null`") => {
                    nulls.push(name);
                    continue;
                }
                Err(e) => panic!("{name}: {e}"),
            },
        };
        files.push((path, model));
    }
    // Its parser does not read all it writes: those are left out.
    eprintln!("war3-model wrote `null` for an id in {nulls:?}");
    let unreadable = agree(&harness, "of its own MDL files", &files, |_, _, _| true);
    assert!(
        files.len() - unreadable.len() >= 40 && nulls.len() <= 5,
        "{nulls:?}"
    );
}

/// Every corpus MDL (text written by other tools) as the MDX we write from
/// it, read by war3-model's MDX parser as by ours: an event object whose
/// empty `EventTrack` the text leaves out, for one, must still get the
/// `KEVT` war3-model needs.
#[test]
fn mdx_written_from_corpus_mdl_reads_in_war3_model_as_in_ours() {
    let Some((_, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("war3-model-from-mdl");
    let mut files = Vec::new();
    for (path, model) in common::corpus_mdl_models() {
        if !(800..=1200).contains(&model.version()) {
            continue;
        }
        let written = model.to_bytes().unwrap();
        let file = out.join(format!("{}.mdx", stem(Path::new(&path))));
        std::fs::write(&file, &written).unwrap();
        files.push((file, Model::from_bytes_lenient(&written).unwrap().0));
    }
    let unreadable = agree(&harness, "MDX from corpus MDL", &files, refuses);
    assert!(files.len() >= 30, "{}", files.len());
    // The four with ribbon colour tracks (`KRCO`), which war3-model lacks
    // (see `refuses`); every other one reads as ours.
    assert_eq!(unreadable.len(), 4, "{unreadable:?}");
}
