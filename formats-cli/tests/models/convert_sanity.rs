//! An independent reader on the models our tools write: mdx-m3-viewer's MDX
//! parser and its sanity test (the one the Hive Workshop runs; npm
//! `mdx-m3-viewer`, installed by `.ci/run` into `tests/convert_sanity`).
//! Every corpus model of versions 800 to 1200 is converted to the other side
//! (Reforged to 800, classic to 1000), optimized (`formats optimize`) and
//! its extents fixed (`formats fix --extents`), and written as MDL
//! (`formats convert --to mdl`, read by mdx-m3-viewer's MDL parser). Each
//! model written must
//! parse wherever its source does; mdx-m3-viewer must read in it what our
//! reader reads of the parts the tools change ([`Digest`]: global
//! sequences, every track key by key, event tracks, extents, each geoset's
//! counts and skinning); and its sanity test must find nothing (no error,
//! nothing severe) that its source does not have. That the bones `SKIN`
//! names are the ones the matrix groups named is checked here by a reader
//! that takes `SKIN`'s bytes as object ids.
//!
//! Under `CI=true` a missing node or package is a failure; elsewhere the test
//! says loudly that it did not run.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use formats::convert::{Options, convert};
use formats::mdx::{Extent, Model, Track};
use formats::optimize::{Animated, TrackVisitor, visit_tracks};
use formats::validate::{Finding, Rule, Severity};
use serde_json::Value;

/// What the sanity test says of each file, by path.
fn sanity(harness: &Path, files: &[PathBuf]) -> BTreeMap<String, Value> {
    let args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    common::node_results(&harness.join("sanity.js"), &args)
}

fn messages(result: &Value) -> BTreeSet<String> {
    result["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A finding that is the source's own where the source cannot be tested
/// (mdx-m3-viewer 5.12 does not read 1100 or 1200, nor a light track after
/// its `LITE` chunk): sequences the game expects, tracks without a key at a
/// sequence's start, and the vertex count past which classic geosets break
/// (HD materials are exempt, so a Reforged source never shows it).
fn the_sources_own(message: &str) -> bool {
    message.starts_with("severe : Missing \"")
        || message.contains(": Missing opening track for sequence ")
        || message.contains(": Too many vertices in one geoset: ")
}

/// A number as both readers hold it: an `f32` (mdx-m3-viewer's JSON widens
/// it to a double, and writes NaN and infinities as `null`), compared by
/// its bits, zeros of either sign alike; `None` when not finite.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Number(Option<u32>);

impl std::fmt::Debug for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(bits) => write!(f, "{}", f32::from_bits(bits)),
            None => write!(f, "null"),
        }
    }
}

fn number(value: f32) -> Number {
    Number(
        value
            .is_finite()
            .then(|| if value == 0.0 { 0 } else { value.to_bits() }),
    )
}

fn json_number(value: &Value) -> Number {
    value.as_f64().map_or(Number(None), |v| number(v as f32))
}

fn json_numbers(value: &Value) -> Vec<Number> {
    value.as_array().unwrap().iter().map(json_number).collect()
}

fn json_ints<T: TryFrom<i64>>(value: &Value) -> Vec<T> {
    let int = |v: &Value| T::try_from(v.as_i64().unwrap()).ok().unwrap();
    value.as_array().unwrap().iter().map(int).collect()
}

/// One track: tag, interpolation, global sequence id, frames, and key by key
/// its value and (hermite, bezier) tangents.
type TrackDigest = (String, u32, i32, Vec<i32>, Vec<Number>);

/// What a reader reads of the parts of a model the tools change (see
/// `sanity.js`): mdx-m3-viewer's, or ours ([`Digest::of`]).
#[derive(Debug, PartialEq)]
struct Digest {
    global_sequences: Vec<u32>,
    /// Sorted: the readers list objects in different orders.
    tracks: Vec<TrackDigest>,
    /// Each event object's global sequence id and frames (-1 and none
    /// without a `KEVT`).
    events: Vec<(i32, Vec<u32>)>,
    /// `MODL`, `SEQS[s]`, `GEOS[g]` and `GEOS[g][s]`, with radius, minimum
    /// and maximum.
    extents: Vec<(String, Vec<Number>)>,
    /// Each geoset's counts (vertices, face indices, tangents, UV sets),
    /// material, level of detail (-1 where a version has none) and the
    /// FNV-1a hashes of its `GNDX`, `MTGC`, `MATS` and `SKIN`.
    geosets: Vec<[i64; 10]>,
}

/// FNV-1a (32-bit) over the elements of an integer array, as `sanity.js`
/// hashes them.
fn hash(values: impl IntoIterator<Item = u32>) -> i64 {
    let h = values
        .into_iter()
        .fold(0x811c_9dc5u32, |h, x| (h ^ x).wrapping_mul(0x0100_0193));
    i64::from(h)
}

fn extent_numbers(e: &Extent) -> Vec<Number> {
    let corners = e.minimum.iter().chain(&e.maximum).copied();
    std::iter::once(e.bounds_radius)
        .chain(corners)
        .map(number)
        .collect()
}

/// The extents labelled as [`Digest::extents`] has them.
fn labelled_extents(
    model: Vec<Number>,
    sequences: Vec<Vec<Number>>,
    geosets: Vec<Vec<Vec<Number>>>,
) -> Vec<(String, Vec<Number>)> {
    let mut out = vec![("MODL".to_string(), model)];
    for (s, e) in sequences.into_iter().enumerate() {
        out.push((format!("SEQS[{s}]"), e));
    }
    for (g, extents) in geosets.into_iter().enumerate() {
        for (i, e) in extents.into_iter().enumerate() {
            let label = match i {
                0 => format!("GEOS[{g}]"),
                i => format!("GEOS[{g}][{}]", i - 1),
            };
            out.push((label, e));
        }
    }
    out
}

/// Every keyframe track of a model, as [`TrackDigest`]s.
struct Tracks(Vec<TrackDigest>);

impl TrackVisitor for Tracks {
    fn key_track<T: Animated>(
        &mut self,
        at: &str,
        track: &mut Track<T>,
        _: Option<&T>,
        _: bool,
    ) -> bool {
        let tag = at.rsplit('.').next().unwrap_or(at);
        let tag = tag.split('#').next().unwrap_or(tag);
        let interpolation = u32::from(track.interpolation_type);
        let tangents = track.interpolation_type.has_tangents();
        let mut values = Vec::new();
        for key in track.key_frames() {
            values.extend(T::components(&key.value.output()));
            if tangents {
                let pair = key.tangents.map(|t| [t.in_tan, t.out_tan]);
                for tangent in pair.unwrap_or_default() {
                    values.extend(T::components(&tangent.output()));
                }
            }
        }
        self.0.push((
            tag.to_string(),
            interpolation,
            track.global_sequence_id,
            track.keys.iter().map(|k| k.frame).collect(),
            values.into_iter().map(number).collect(),
        ));
        true
    }

    fn other_track(&mut self, _: &str, _: &mut i32) {}

    fn unknown_track(&mut self, _: &str) {}
}

impl Digest {
    /// What our reader holds of `model`.
    fn of(model: &Model) -> Digest {
        let mut tracks = Tracks(Vec::new());
        visit_tracks(&mut model.clone(), &mut tracks);
        tracks.0.sort();
        let geosets = model.geosets();
        Digest {
            global_sequences: model.global_sequences().to_vec(),
            tracks: tracks.0,
            events: model
                .event_objects()
                .iter()
                .map(|e| match &e.track {
                    Some(t) => (t.global_sequence_id, t.tracks.clone()),
                    None => (-1, Vec::new()),
                })
                .collect(),
            extents: labelled_extents(
                extent_numbers(&model.model_chunk().map(|m| m.extent).unwrap_or_default()),
                model
                    .sequences()
                    .iter()
                    .map(|s| extent_numbers(&s.extent))
                    .collect(),
                geosets
                    .iter()
                    .map(|g| {
                        let all = std::iter::once(&g.extent).chain(&g.sequence_extents);
                        all.map(extent_numbers).collect()
                    })
                    .collect(),
            ),
            geosets: geosets
                .iter()
                .map(|g| {
                    let count = |n: usize| i64::try_from(n).unwrap();
                    [
                        count(g.vertex_count()),
                        count(g.faces.len()),
                        count(g.tangents.as_ref().map_or(0, Vec::len)),
                        count(g.texture_coordinate_sets.len()),
                        i64::from(g.material_id),
                        i64::from(g.lod.unwrap_or(-1)),
                        hash(g.vertex_groups.iter().map(|&v| u32::from(v))),
                        hash(g.matrix_groups.iter().copied()),
                        hash(g.matrix_indices.iter().copied()),
                        hash(g.skin.iter().flatten().map(|&v| u32::from(v))),
                    ]
                })
                .collect(),
        }
    }

    /// What mdx-m3-viewer read (`sanity.js`'s `digest`).
    fn read(json: &Value) -> Digest {
        let mut tracks: Vec<TrackDigest> = json["tracks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["tag"].as_str().unwrap().to_string(),
                    u32::try_from(t["interpolation"].as_u64().unwrap()).unwrap(),
                    i32::try_from(t["global_sequence"].as_i64().unwrap()).unwrap(),
                    json_ints(&t["frames"]),
                    json_numbers(&t["values"]),
                )
            })
            .collect();
        tracks.sort();
        let extents = &json["extents"];
        let list = |v: &Value| v.as_array().unwrap().clone();
        Digest {
            global_sequences: json_ints(&json["global_sequences"]),
            tracks,
            events: list(&json["events"])
                .iter()
                .map(|e| {
                    let id = i32::try_from(e[0].as_i64().unwrap()).unwrap();
                    (id, json_ints(&e[1]))
                })
                .collect(),
            extents: labelled_extents(
                json_numbers(&extents["model"]),
                list(&extents["sequences"])
                    .iter()
                    .map(json_numbers)
                    .collect(),
                list(&extents["geosets"])
                    .iter()
                    .map(|g| list(g).iter().map(json_numbers).collect())
                    .collect(),
            ),
            geosets: list(&json["geosets"])
                .iter()
                .map(|g| json_ints(g).try_into().unwrap())
                .collect(),
        }
    }
}

/// Asserts that mdx-m3-viewer read in a file (`result`) what our reader
/// holds of it (`model`), naming the first parts that differ.
fn same_digest(name: &str, model: &Model, result: &Value) {
    let (ours, theirs) = (Digest::of(model), Digest::read(&result["digest"]));
    if ours == theirs {
        return;
    }
    let first = |what: &str, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
        format!("{what}: ours {a:?}\n  mdx-m3-viewer's {b:?}")
    };
    let mut differences = Vec::new();
    if ours.global_sequences != theirs.global_sequences {
        differences.push(first(
            "global sequences",
            &ours.global_sequences,
            &theirs.global_sequences,
        ));
    }
    let only = |a: &[TrackDigest], b: &[TrackDigest]| -> Vec<TrackDigest> {
        a.iter()
            .filter(|t| !b.contains(t))
            .take(2)
            .cloned()
            .collect()
    };
    if ours.tracks != theirs.tracks {
        differences.push(first(
            &format!("tracks ({} and {})", ours.tracks.len(), theirs.tracks.len()),
            &only(&ours.tracks, &theirs.tracks),
            &only(&theirs.tracks, &ours.tracks),
        ));
    }
    if ours.events != theirs.events {
        differences.push(first("events", &ours.events, &theirs.events));
    }
    if let Some((a, b)) = ours
        .extents
        .iter()
        .zip(&theirs.extents)
        .find(|(a, b)| a != b)
        .or_else(|| {
            (ours.extents.len() != theirs.extents.len())
                .then(|| (ours.extents.last().unwrap(), theirs.extents.last().unwrap()))
        })
    {
        differences.push(first("extents", a, b));
    }
    if ours.geosets != theirs.geosets {
        differences.push(first("geosets", &ours.geosets, &theirs.geosets));
    }
    panic!("{name}: the readers disagree\n{}", differences.join("\n"));
}

/// The object ids that are a node of `model` (bones, helpers, ...).
fn nodes(model: &Model) -> BTreeSet<u32> {
    (0..model.pivot_points().len())
        .filter_map(|i| u32::try_from(i).ok())
        .collect()
}

/// Whether `group` is a matrix group of `geoset` with a bone in it.
fn in_a_group(geoset: &formats::mdx::Geoset, group: u8) -> bool {
    geoset
        .matrix_groups
        .get(usize::from(group))
        .is_some_and(|&size| size > 0)
}

/// The corpus and the mdx-m3-viewer harness (`None`, loudly, without either).
fn corpus_and_harness() -> Option<(PathBuf, PathBuf)> {
    let root = common::corpus_root()?;
    let harness = common::npm_harness(
        "convert_sanity",
        "mdx-m3-viewer",
        "the mdx-m3-viewer sanity test",
    )?;
    Some((root, harness))
}

/// The sources mdx-m3-viewer cannot read: the 1100 and 1200 models, and the
/// two with a light track after `LITE`.
fn untestable(sources: &[String]) {
    eprintln!("sources mdx-m3-viewer cannot read: {sources:?}");
    assert!(sources.len() <= 6, "{sources:?}");
}

#[test]
fn converted_models_pass_mdx_m3_viewers_sanity_test() {
    let Some((root, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("sanity-convert");
    let options = Options {
        error_step: 0,
        ..Options::default()
    };
    let mut pairs = Vec::new();
    for (file, bytes) in common::manifest_models(800..=1200) {
        let source = Model::from_bytes_lenient(&bytes).unwrap().0;
        let target = if source.version() > 800 { 800 } else { 1000 };
        let mut model = source.clone();
        convert(&mut model, target, &options).unwrap();
        let name = Path::new(&file.path).file_name().unwrap().to_owned();
        let written = out.join(name);
        std::fs::write(&written, model.to_bytes().unwrap()).unwrap();
        pairs.push((root.join(&file.path), written, source, model));
    }
    let files: Vec<PathBuf> = pairs
        .iter()
        .flat_map(|(a, b, _, _)| [a.clone(), b.clone()])
        .collect();
    let results = sanity(&harness, &files);
    let result = |path: &Path| &results[path.to_str().unwrap()];
    let mut untestable_sources = Vec::new();
    for (source_path, converted_path, source, converted) in &pairs {
        let name = converted_path.file_name().unwrap().to_string_lossy();
        let (before, after) = (result(source_path), result(converted_path));
        let target = converted.version();
        assert!(after["unreadable"].is_null(), "{name}: {after}");
        assert_eq!(after["version"], target, "{name}");
        same_digest(&name, converted, after);
        let found = messages(after);
        if before["unreadable"].is_string() {
            untestable_sources.push(name.to_string());
            assert_eq!(after["errors"], 0, "{name}: {after}");
            for message in &found {
                assert!(the_sources_own(message), "{name}: {message}");
            }
            continue;
        }
        // What the sanity test checks of SKIN but not of matrix groups:
        // groups naming objects that do not exist, vertices in no group
        // (a test model without bones has both).
        let mut sources_defects: Vec<String> = source
            .geosets()
            .iter()
            .flat_map(|g| g.matrix_indices.iter().copied())
            .filter(|id| !nodes(source).contains(id))
            .map(|id| format!(": Attached to object {id} which does not exist"))
            .collect();
        for (g, geoset) in source.geosets().iter().enumerate() {
            for (v, &group) in geoset.vertex_groups.iter().enumerate() {
                if !in_a_group(geoset, group) {
                    sources_defects.push(format!(
                        "severe /Geoset {g}: Vertex {v}: Not attached to anything"
                    ));
                }
            }
        }
        let had = messages(before);
        for message in found.difference(&had) {
            assert!(
                sources_defects
                    .iter()
                    .any(|m| message.ends_with(m.as_str())),
                "{name} ({} -> {target}): {message}",
                source.version()
            );
        }
    }
    untestable(&untestable_sources);
}

/// Models imported from glTF files others wrote (the Khronos samples and
/// the Blender fixture), at 800 and 1000: mdx-m3-viewer's parser reads
/// each as ours does, and its sanity test finds no error.
#[test]
fn imported_models_pass_mdx_m3_viewers_sanity_test() {
    let Some((_, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir("sanity-import");
    let (written, _) = testkit::imported_third_party(&out, &[800, 1000]);
    let files: Vec<PathBuf> = written.iter().map(|(p, _)| p.clone()).collect();
    let results = sanity(&harness, &files);
    for (path, model) in &written {
        let name = path.file_name().unwrap().to_string_lossy();
        let result = &results[path.to_str().unwrap()];
        assert!(result["unreadable"].is_null(), "{name}: {result}");
        assert_eq!(result["version"], model.version(), "{name}");
        same_digest(&name, model, result);
        assert_eq!(result["errors"], 0, "{name}: {result}");
        eprintln!(
            "{name}: mdx-m3-viewer's sanity test: {:?}",
            messages(result)
        );
    }
}

/// Runs `formats ARGS SOURCES... OUT`; the files it wrote into `out`, one
/// per source, with the extension `ext`.
fn run_formats(args: &[&str], sources: &[PathBuf], out: &Path, ext: &str) -> Vec<PathBuf> {
    common::formats_command()
        .args(args)
        .args(sources)
        .arg(out)
        .assert()
        .success();
    sources
        .iter()
        .map(|s| out.join(s.file_name().unwrap()).with_extension(ext))
        .collect()
}

/// `formats ARGS SOURCES... OUT` on every corpus model of versions 800 to
/// 1200 (MDX): each model written reads in mdx-m3-viewer wherever its
/// source does, as our reader reads it, and its sanity test finds nothing
/// its source does not have.
fn tool_outputs_pass_mdx_m3_viewers_sanity_test(what: &str, args: &[&str]) {
    let Some((root, harness)) = corpus_and_harness() else {
        return;
    };
    let out = common::temp_dir(&format!("sanity-{what}"));
    let sources: Vec<PathBuf> = common::manifest_models(800..=1200)
        .into_iter()
        .map(|(file, _)| root.join(file.path))
        .collect();
    let written = run_formats(args, &sources, &out, "mdx");
    let results = sanity(&harness, &[sources.clone(), written.clone()].concat());
    let result = |path: &Path| &results[path.to_str().unwrap()];
    let mut untestable_sources = Vec::new();
    for (source, written) in sources.iter().zip(&written) {
        let name = written.file_name().unwrap().to_string_lossy();
        let (before, after) = (result(source), result(written));
        if before["unreadable"].is_string() {
            untestable_sources.push(name.to_string());
        }
        if after["unreadable"].is_string() {
            assert!(before["unreadable"].is_string(), "{name}: {after}");
            continue;
        }
        let bytes = std::fs::read(written).unwrap();
        let model = Model::from_bytes_lenient(&bytes).unwrap().0;
        assert_eq!(after["version"], model.version(), "{name}");
        same_digest(&name, &model, after);
        let had = match before["unreadable"].is_null() {
            true => messages(before),
            false => BTreeSet::new(),
        };
        for message in messages(after).difference(&had) {
            assert!(
                before["unreadable"].is_string() && the_sources_own(message),
                "{name}: {message}"
            );
        }
    }
    untestable(&untestable_sources);
}

#[test]
fn optimized_models_pass_mdx_m3_viewers_sanity_test() {
    tool_outputs_pass_mdx_m3_viewers_sanity_test("optimize", &["optimize"]);
}

#[test]
fn fixed_models_pass_mdx_m3_viewers_sanity_test() {
    tool_outputs_pass_mdx_m3_viewers_sanity_test("fix", &["fix", "--extents"]);
}

/// Undoes the two places where mdx-m3-viewer's MDL words differ from the
/// seeds' and the corpus writers': it reads a colour track's values in the
/// order written (red, green, blue, see the `mdl` module's docs; its statics
/// it reverses), and it takes `Width` for `KP2N` and `Length` for `KP2W`
/// (seed 000: `KP2N: float length`, `KP2W: float width`).
fn as_mdx_m3_viewer_means_mdl(result: &mut Value) {
    for track in result["digest"]["tracks"].as_array_mut().unwrap() {
        match track["tag"].as_str() {
            Some("KGAC" | "KLAC" | "KLBC" | "KRCO") => {
                for colour in track["values"].as_array_mut().unwrap().chunks_mut(3) {
                    colour.reverse();
                }
            }
            Some("KP2N") => track["tag"] = "KP2W".into(),
            Some("KP2W") => track["tag"] = "KP2N".into(),
            _ => {}
        }
    }
}

/// A sanity message with its numbers as MDX and MDL both mean them: an id
/// stored as u32 (`-99`) is an int32 from MDX and a u32 from our MDL
/// (`4294967197`); a float from MDX is printed widened (`11.229999542236328`),
/// from MDL as written (`11.23`).
fn same_numbers(message: &str) -> String {
    let mut out = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        match token.parse::<f64>() {
            Ok(mut x) => {
                if x.fract() == 0.0 && (2_147_483_648.0..4_294_967_296.0).contains(&x) {
                    x -= 4_294_967_296.0;
                }
                out.push_str(&(x as f32).to_string());
            }
            Err(_) => out.push_str(token),
        }
        token.clear();
    };
    for c in message.chars() {
        if c.is_ascii_digit() || c == '.' || (c == '-' && token.is_empty()) {
            token.push(c);
        } else {
            flush(&mut token, &mut out);
            out.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// Whether MDL text carries what only this crate's reader knows: the `Ext`
/// keywords and `#"hex"` literals of the lossless extension, or the v1100
/// layer's `ShaderTypeId` (real MDL, which mdx-m3-viewer 5.12 does not read).
fn beyond_mdx_m3_viewer(text: &str) -> bool {
    text.contains("#\"")
        || text.contains("ShaderTypeId")
        || text.lines().any(|l| l.trim_start().starts_with("Ext"))
}

/// `formats convert --to mdl` on every corpus model of versions 800 to 1200:
/// mdx-m3-viewer reads each MDL without an extension wherever it reads the
/// source; what it reads there is what our reader holds of the source (so the
/// MDL carries the model to another reader), and its sanity test finds in the
/// MDL what it finds in the MDX.
#[test]
fn mdl_outputs_read_in_mdx_m3_viewer_as_their_source() {
    let extended = mdl_outputs_in_mdx_m3_viewer("mdl", &[]);
    assert!(extended.len() <= 30, "{extended:?}");
}

/// `formats convert --to mdl --plain`: mdx-m3-viewer reads every MDL
/// wherever it reads the source, but for the v1100 layers' `ShaderTypeId`
/// (real Reforged MDL, which it does not know), and reads there what our
/// reader reads of the plain MDL.
#[test]
fn plain_mdl_outputs_read_in_mdx_m3_viewer() {
    let extended = mdl_outputs_in_mdx_m3_viewer("mdl-plain", &["--plain"]);
    for (name, text) in &extended {
        assert!(
            text.contains("ShaderTypeId"),
            "{name} is plain MDL it does not read"
        );
    }
}

/// `formats convert --to mdl ARGS` on every corpus model of versions 800 to
/// 1200, and mdx-m3-viewer's reading of each MDL where it reads the source:
/// it reads what our reader reads of the MDL, and its sanity test finds in
/// the MDL what it finds in the MDX. Returns the MDL it does not read (name
/// and text), each using the extension or a Reforged keyword.
fn mdl_outputs_in_mdx_m3_viewer(what: &str, args: &[&str]) -> Vec<(String, String)> {
    let Some((root, harness)) = corpus_and_harness() else {
        return Vec::new();
    };
    let out = common::temp_dir(&format!("sanity-{what}"));
    let models = common::manifest_models(800..=1200);
    let sources: Vec<PathBuf> = models.iter().map(|(f, _)| root.join(&f.path)).collect();
    let command = [&["convert", "--to", "mdl"], args].concat();
    let written = run_formats(&command, &sources, &out, "mdl");
    let mut results = sanity(&harness, &[sources.clone(), written.clone()].concat());
    let (mut read, mut extended, mut untestable_sources) = (0, Vec::new(), Vec::new());
    for (source, written) in sources.iter().zip(&written) {
        let name = written.file_name().unwrap().to_string_lossy();
        let before = results[source.to_str().unwrap()].clone();
        let after = results.get_mut(written.to_str().unwrap()).unwrap();
        if before["unreadable"].is_string() {
            untestable_sources.push(name.to_string());
            continue;
        }
        let text = std::fs::read_to_string(written).unwrap();
        if after["unreadable"].is_string() {
            assert!(beyond_mdx_m3_viewer(&text), "{name}: {after}");
            extended.push((name.to_string(), text));
            continue;
        }
        read += 1;
        // What our reader holds of the MDL: the source itself, or (plain)
        // the source less what plain MDL left out.
        let model = formats::mdl::from_str(&text).unwrap();
        assert_eq!(after["version"], model.version(), "{name}");
        as_mdx_m3_viewer_means_mdl(after);
        same_digest(&name, &model, after);
        let numbers = |result: &Value| -> BTreeSet<String> {
            messages(result).iter().map(|m| same_numbers(m)).collect()
        };
        assert_eq!(numbers(after), numbers(&before), "{name}");
    }
    let names: Vec<&String> = extended.iter().map(|(name, _)| name).collect();
    eprintln!(
        "{what}: {read} MDL read by mdx-m3-viewer as by ours; {} carry an extension \
         or a Reforged keyword it does not read: {names:?}",
        extended.len()
    );
    assert!(read >= 20, "only {read} MDL files were compared");
    untestable(&untestable_sources);
    extended
}

/// The corpus MDL files (written by Blizzard's converter, Magos, Retera's
/// tools, War3ModelView, war3mdlx...): wherever mdx-m3-viewer's MDL parser
/// reads one, it reads what ours does.
#[test]
fn corpus_mdl_read_by_mdx_m3_viewer_as_by_ours() {
    let Some((root, harness)) = corpus_and_harness() else {
        return;
    };
    let files: Vec<PathBuf> = common::manifest_files(&root, "MDX_MANIFEST.md", "mdl", ".mdl")
        .into_iter()
        .map(|f| root.join(f.path))
        .collect();
    let mut results = sanity(&harness, &files);
    let mut unreadable = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy();
        let result = results.get_mut(file.to_str().unwrap()).unwrap();
        if let Some(error) = result["unreadable"].as_str() {
            unreadable.push(format!("{name}: {error}"));
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let model = formats::mdl::from_str_lenient(&text).unwrap().0;
        as_mdx_m3_viewer_means_mdl(result);
        // A Reforged geoset without `LevelOfDetail`: level 0 here (the one
        // the game draws first), -1 (none) in mdx-m3-viewer.
        if model.version() > 800 && !text.contains("LevelOfDetail") {
            for geoset in result["digest"]["geosets"].as_array_mut().unwrap() {
                assert_eq!(geoset[5], -1, "{name}");
                geoset[5] = 0.into();
            }
        }
        same_digest(&name, &model, result);
    }
    eprintln!("mdx-m3-viewer cannot read: {unreadable:#?}");
    assert!(files.len() - unreadable.len() >= 20, "{unreadable:?}");
}

/// The top-level object of mdx-m3-viewer's sanity tree that a finding's path
/// is in (`chunks[5].GEOS.geosets[1].material_id` is `Geoset 1`); `""` (the
/// root) for the rest.
fn viewer_object(path: &str) -> String {
    const LISTS: [(&str, &str); 19] = [
        ("SEQS.sequences", "Sequence"),
        ("GLBS.global_sequences", "GlobalSequence"),
        ("TEXS.textures", "Texture"),
        ("MTLS.materials", "Material"),
        ("TXAN.animations", "TextureAnimation"),
        ("GEOS.geosets", "Geoset"),
        ("GEOA.animations", "GeosetAnimation"),
        ("BONE.bones", "Bone"),
        ("LITE.lights", "Light"),
        ("HELP.helpers", "Helper"),
        ("ATCH.attachments", "Attachment"),
        ("PREM.emitters", "ParticleEmitter"),
        ("PRE2.emitters", "ParticleEmitter2"),
        ("CORN.emitters", "ParticleEmitterPopcorn"),
        ("RIBB.emitters", "RibbonEmitter"),
        ("EVTS.objects", "EventObject"),
        ("CAMS.cameras", "Camera"),
        ("CLID.shapes", "CollisionShape"),
        ("FAFX.face_effects", "FaceEffect"),
    ];
    for (list, name) in LISTS {
        if let Some((_, rest)) = path.split_once(&format!("{list}[")) {
            let index = rest.split(']').next().unwrap_or_default();
            return format!("{name} {index}");
        }
    }
    String::new()
}

/// A message of `sanity.js` split into its type, the top-level object of its
/// path (as [`viewer_object`] names them), its path and its text:
/// `severe /Geoset 4: Too many vertices in one geoset: 10185`.
fn viewer_finding(line: &str) -> (&str, String, &str, &str) {
    let (kind, rest) = line.split_once(' ').unwrap();
    let (path, text) = rest.split_once(": ").unwrap();
    let top = path.split('/').nth(1).unwrap_or_default();
    // `Bone 1 - "child"` is `Bone 1`.
    let object = top.split(" - ").next().unwrap_or_default().to_string();
    (kind, object, path, text)
}

/// The rule of ours that a message of mdx-m3-viewer's sanity test is, its
/// `object` being the top-level object of its tree it is under (as
/// [`viewer_object`] names them; `""` the model), or `None` for the checks
/// no rule here makes: negative extents, the per-sequence extent count
/// (both left out, see the `validate` docs), skin and vertex groups
/// together, negative frames (a frame is unsigned here).
fn viewer_rule(object: &str, text: &str) -> Option<Rule> {
    let has = |words: &str| text.contains(words);
    let on = |kind: &str| object.split(' ').next() == Some(kind);
    let rule = if has("Unknown version") || has("Version 900 is not supported") {
        Rule::UnsupportedVersion
    } else if has("The animation file should") {
        Rule::AnimationFile
    } else if has("Missing \"Stand\" sequence") || has("No sequences") {
        Rule::MissingStandSequence
    } else if has("Missing \"Death\" sequence") {
        Rule::MissingDeathSequence
    } else if has("This sequence starts ") {
        Rule::SequenceOrder
    } else if has("is not a standard name") {
        Rule::SequenceName
    } else if has("Zero length") && on("Sequence") {
        Rule::ZeroLengthSequence
    } else if has("Zero length") && on("GlobalSequence") {
        Rule::ZeroLengthGlobalSequence
    } else if has("Negative length") && on("Sequence") {
        Rule::NegativeLengthSequence
    } else if has("No textures") {
        Rule::NoTextures
    } else if has("Corrupted path") {
        Rule::TexturePath
    } else if has("replaceable ID: ") {
        Rule::ReplaceableId
    } else if has("used together") {
        Rule::ReplaceableWithPath
    } else if has("Unknown shader") {
        Rule::UnknownShader
    } else if has("No layers") {
        Rule::MaterialWithoutLayers
    } else if has("Invalid filter mode") {
        Rule::UnknownFilterMode
    } else if has("Invalid texture animation ") {
        Rule::TextureAnimationIndex
    } else if has("Invalid texture ") {
        Rule::TextureIndex
    } else if has("Invalid material ") {
        Rule::MaterialIndex
    } else if has("Invalid geoset animation ") {
        Rule::GeosetAnimationIndex
    } else if has("Invalid geoset ") {
        Rule::GeosetIndex
    } else if has("Invalid global sequence ") {
        Rule::GlobalSequenceIndex
    } else if has("Invalid parent ") || has("Same object and parent") {
        Rule::ParentIndex
    } else if has("Too many vertices in one geoset") {
        Rule::GeosetVertexLimit
    } else if text.starts_with("Vertex ") {
        Rule::VertexSkinning
    } else if has("geoset animations: ") {
        Rule::GeosetAnimatedTwice
    } else if has("Zero faces") {
        Rule::GeosetWithoutFaces
    } else if has("with a 0 alpha") {
        Rule::InvisibleBoneGeoset
    } else if has("no vertices attached to this bone") {
        Rule::BoneWithoutVertex
    } else if has(" attenuation ") {
        Rule::LightAttenuation
    } else if has("Invalid path") && on("ParticleEmitter") {
        Rule::EmitterPath
    } else if has("Invalid path") {
        Rule::AttachmentPath
    } else if has("Missing the Origin") {
        Rule::MissingOriginRef
    } else if let Some((expected, got)) = text
        .strip_prefix("Expected ")
        .and_then(|t| t.split_once(" pivot points, got "))
    {
        let number = |n: &str| n.trim().parse::<usize>().unwrap();
        match number(got) < number(expected) {
            true => Rule::PivotCount,
            false => Rule::ExtraPivotPoints,
        }
    } else if has("XY Quad emitters must have") {
        Rule::XyQuadWithoutSpeed
    } else if has("time middle") {
        Rule::EmitterTimeMiddle
    } else if has("Using squirt without") {
        Rule::SquirtWithoutTrack
    } else if has("No animation visibility guide") {
        Rule::PopcornWithoutGuide
    } else if has("Corrupted face effect path") {
        Rule::FaceEffectPath
    } else if has(" matrices, got ") {
        Rule::BindPoseCount
    } else if has("Zero tracks") && on("EventObject") {
        Rule::EventWithoutKeys
    } else if has("Zero tracks") {
        Rule::EmptyTrack
    } else if has("but the model has no sequences") {
        Rule::TrackWithoutSequence
    } else if has("has the same frame") {
        Rule::DuplicateKeyFrame
    } else if has("is lower than the track before it") {
        Rule::KeyOrder
    } else if has("is not in any sequence") || has("is not in global sequence") {
        Rule::KeyOutsideSequence
    } else if has("Missing opening track") {
        Rule::MissingOpeningKey
    } else if has("the same value as tracks") {
        Rule::RedundantKey
    } else if has("Using a variation animation") || has("Using a gravity animation") {
        Rule::MagosEmitterTrack
    } else if has("not set to None") {
        Rule::VisibilityInterpolation
    } else {
        return None;
    };
    Some(rule)
}

/// What mdx-m3-viewer's sanity test says of a model: each message (its
/// errors and severe findings, then its warnings and unused ones) split as
/// [`viewer_finding`] splits it.
fn viewer_lines(result: &Value) -> Vec<String> {
    let notes = result["notes"].as_array().unwrap().iter();
    let notes = notes.map(|m| m.as_str().unwrap().to_string());
    messages(result).into_iter().chain(notes).collect()
}

/// The corpus models of versions 800 to 1200 that mdx-m3-viewer reads, read
/// by ours, each with what its sanity test says of it: the sources, then
/// each converted to the other family by `formats::convert` (Reforged to
/// 800, classic to 1000, named `<source> as <version>`), so that each rule
/// is compared in both. Read once for all the tests.
fn viewer_read_models() -> &'static [(String, Model, Value)] {
    static READ: std::sync::OnceLock<Vec<(String, Model, Value)>> = std::sync::OnceLock::new();
    READ.get_or_init(|| {
        let Some((root, harness)) = corpus_and_harness() else {
            return Vec::new();
        };
        let models = common::manifest_models(800..=1200);
        let out = common::temp_dir("sanity-families");
        let options = Options {
            error_step: 0,
            ..Options::default()
        };
        let mut files = Vec::new();
        let mut read = Vec::new();
        for (file, bytes) in models {
            let source = Model::from_bytes_lenient(&bytes).unwrap().0;
            let target = if source.version() > 800 { 800 } else { 1000 };
            let mut converted = source.clone();
            convert(&mut converted, target, &options).unwrap();
            let name = Path::new(&file.path).file_name().unwrap().to_owned();
            let written = out.join(&name);
            std::fs::write(&written, converted.to_bytes().unwrap()).unwrap();
            let name = name.to_string_lossy().to_string();
            files.extend([root.join(&file.path), written]);
            read.push((file.path, source));
            read.push((format!("{name} as {target}"), converted));
        }
        let results = sanity(&harness, &files);
        std::fs::remove_dir_all(&out).ok();
        let mut unreadable = Vec::new();
        let mut readable = Vec::new();
        // The sources where it reads them, each conversion where it reads
        // its source.
        for (pair, files) in read.chunks(2).zip(files.chunks(2)) {
            let result = |path: &PathBuf| results[path.to_str().unwrap()].clone();
            let (source, converted) = (result(&files[0]), result(&files[1]));
            if source["unreadable"].is_string() {
                unreadable.push(pair[0].0.clone());
                continue;
            }
            assert!(
                converted["unreadable"].is_null(),
                "{}: {converted}",
                pair[1].0
            );
            readable.push((pair[0].0.clone(), pair[0].1.clone(), source));
            readable.push((pair[1].0.clone(), pair[1].1.clone(), converted));
        }
        untestable(&unreadable);
        assert!(readable.len() >= 80, "only {} models read", readable.len());
        readable
    })
}

/// The models of [`viewer_read_models`] with their version's family;
/// `None` without the corpus or the viewer (said loudly, a failure under
/// CI), so that the tests' counts are not asserted of nothing.
fn both_families() -> Option<impl Iterator<Item = (&'static str, &'static Model, &'static Value)>> {
    let models = viewer_read_models();
    (!models.is_empty()).then(|| {
        models
            .iter()
            .map(|(name, model, result)| (name.as_str(), model, result))
    })
}

/// `formats validate`'s errors (structure and sanity rules) on the corpus
/// and its conversions are findings of mdx-m3-viewer's sanity test, of the
/// same rule and object (or the model, where it reports at the root), in
/// both families (overlapping sequences in a Reforged model are neither):
/// no rule makes an error of what the Hive Workshop's test does not see.
/// The rules it does not check are `—` in the rule table;
/// [`the_viewer_grades_as_the_rule_table_says`] compares the grades.
#[test]
fn validate_errors_are_findings_of_mdx_m3_viewers_sanity_test() {
    let Some(families) = both_families() else {
        return;
    };
    let mut compared = [0; 2];
    for (name, model, result) in families {
        let theirs: Vec<(String, Option<Rule>)> = viewer_lines(result)
            .iter()
            .map(|line| {
                let (_, object, _, text) = viewer_finding(line);
                let rule = viewer_rule(&object, text);
                (object, rule)
            })
            .collect();
        let ours = formats::validate::model(model)
            .into_iter()
            .chain(formats::validate::sanity(model));
        for finding in ours.filter(|f| f.severity() == Severity::Error) {
            if common::rule_table::viewer_grades(finding.rule, model.version()).is_none() {
                continue; // a rule it does not check
            }
            let object = viewer_object(&finding.path);
            let said = theirs
                .iter()
                .any(|(o, rule)| (o == &object || o.is_empty()) && *rule == Some(finding.rule));
            assert!(
                said,
                "{name}: {} {finding}: not a finding of mdx-m3-viewer's (it says {:?})",
                finding.rule,
                viewer_lines(result)
            );
            compared[usize::from(model.version() > 800)] += 1;
        }
    }
    assert!(compared[0] >= 30, "only {compared:?} errors compared");
}

/// mdx-m3-viewer's sanity test grades each of its findings, on the corpus
/// and its conversions, as the rule table's mdx-m3-viewer column says for
/// the model's version (which `validate.rs` compares with the severities):
/// severe overlapping sequences in classic models, none in Reforged ones.
#[test]
fn the_viewer_grades_as_the_rule_table_says() {
    let Some(families) = both_families() else {
        return;
    };
    let mut graded = BTreeMap::<(Rule, u32), usize>::new();
    let mut otherwise = BTreeSet::new();
    for (name, model, result) in families {
        let version = model.version();
        for line in viewer_lines(result) {
            let (grade, object, _, text) = viewer_finding(&line);
            let Some(rule) = viewer_rule(&object, text) else {
                continue;
            };
            let grades = common::rule_table::viewer_grades(rule, version);
            if !grades.is_some_and(|g| g.iter().any(|g| g == grade)) {
                otherwise.insert(format!(
                    "{rule} in {version}: {grade}, not as the rule table says ({name}: {text})"
                ));
            }
            *graded.entry((rule, version)).or_default() += 1;
        }
    }
    assert!(otherwise.is_empty(), "{otherwise:#?}");
    // Both families are there, and the sequences in order or not.
    let versions: BTreeSet<u32> = graded.keys().map(|(_, v)| *v).collect();
    assert!(
        versions.contains(&800) && versions.contains(&1000),
        "{versions:?}"
    );
    assert!(
        graded.contains_key(&(Rule::SequenceOrder, 800)),
        "{graded:?}"
    );
}

/// How a mirrored rule's findings are counted against mdx-m3-viewer's
/// messages: one per message, or one per node of its tree (its track checks
/// say it once per key, ours once per track; it names each earlier sequence
/// a sequence overlaps, we the nearest).
#[derive(Clone, Copy, PartialEq)]
enum Count {
    Messages,
    Nodes,
}

/// The rules that mirror a check of mdx-m3-viewer's sanity test (its
/// messages are [`viewer_rule`]'s), and how findings are counted.
const MIRRORED: &[(Rule, Count)] = &[
    (Rule::SequenceOrder, Count::Nodes),
    (Rule::NegativeLengthSequence, Count::Messages),
    (Rule::ReplaceableWithPath, Count::Messages),
    (Rule::NoTextures, Count::Messages),
    (Rule::UnknownShader, Count::Messages),
    (Rule::UnknownFilterMode, Count::Messages),
    (Rule::GeosetAnimatedTwice, Count::Messages),
    (Rule::InvisibleBoneGeoset, Count::Messages),
    (Rule::LightAttenuation, Count::Messages),
    (Rule::MissingOriginRef, Count::Messages),
    (Rule::XyQuadWithoutSpeed, Count::Messages),
    (Rule::EmitterTimeMiddle, Count::Messages),
    (Rule::SquirtWithoutTrack, Count::Messages),
    (Rule::PopcornWithoutGuide, Count::Messages),
    (Rule::FaceEffectPath, Count::Messages),
    (Rule::BindPoseCount, Count::Messages),
    (Rule::EmptyTrack, Count::Nodes),
    (Rule::TrackWithoutSequence, Count::Nodes),
    (Rule::DuplicateKeyFrame, Count::Nodes),
    (Rule::VisibilityInterpolation, Count::Nodes),
    (Rule::MagosEmitterTrack, Count::Nodes),
    (Rule::MissingOpeningKey, Count::Nodes),
    (Rule::RedundantKey, Count::Nodes),
];

/// Where a mirrored rule finds otherwise than mdx-m3-viewer, by design
/// (source model, and its conversion; rule): it does not check attachments' tracks; a bezier key
/// between equal keys bends the curve with its tangents; `BPOS` has one
/// matrix per node and camera (Blizzard's portraits), where it wants one
/// more than the nodes; models with nothing to draw need no textures.
const BY_DESIGN: &[(&str, Rule)] = &[
    ("zf_attachment.mdx", Rule::TrackWithoutSequence),
    ("zf_attachment.mdx", Rule::VisibilityInterpolation),
    ("zf_all.mdx", Rule::VisibilityInterpolation),
    ("zf_all.mdx", Rule::RedundantKey),
    ("tm_blob.mdx", Rule::BindPoseCount),
    ("tm_TM_DruidBear.mdx", Rule::BindPoseCount),
];

/// Each rule mirroring a check of mdx-m3-viewer's sanity test finds, on
/// every corpus model it reads and its conversion to the other family, what
/// that check finds there: as many findings (per message or per node, see
/// [`MIRRORED`]), but where they differ by design ([`BY_DESIGN`], models
/// with nothing to draw for `no-textures`, and models no effect is attached
/// to for `missing-origin-ref`).
#[test]
fn mirrored_rules_find_what_mdx_m3_viewers_sanity_test_finds() {
    let Some(families) = both_families() else {
        return;
    };
    let mut found = BTreeMap::<Rule, usize>::new();
    let mut differences = Vec::new();
    let mut by_design = [false; BY_DESIGN.len()];
    for (path, model, result) in families {
        let name = Path::new(path).file_name().unwrap().to_string_lossy();
        // A conversion differs where its source does.
        let source = name.split(" as ").next().unwrap();
        let lines = viewer_lines(result);
        let ours: Vec<Finding> = formats::validate::model(model)
            .into_iter()
            .chain(formats::validate::sanity(model))
            .collect();
        let draws = !(model.geosets().is_empty()
            && model.particle_emitters2().is_empty()
            && model.ribbon_emitters().is_empty());
        // What the game attaches effects to (collision shapes: selectable;
        // an Attack or Walk sequence: a unit) needs an Origin Ref; the
        // viewer asks it of every model.
        let acts = |name: &str| {
            let name = name
                .split('-')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            let words: Vec<&str> = name.split_whitespace().collect();
            matches!(
                words.as_slice(),
                ["attack" | "walk", ..] | ["alternate", "attack" | "walk", ..]
            )
        };
        let attached = !model.collision_shapes().is_empty()
            || model
                .sequences()
                .iter()
                .any(|s| acts(&s.name.to_string_lossy()));
        for &(rule, count) in MIRRORED {
            let theirs: BTreeSet<(&str, &str)> = lines
                .iter()
                .map(|line| viewer_finding(line))
                .filter(|(_, object, _, text)| viewer_rule(object, text) == Some(rule))
                .map(|(_, _, node, text)| match count {
                    Count::Messages => (node, text),
                    Count::Nodes => (node, ""),
                })
                .collect();
            let mine = ours.iter().filter(|f| f.rule == rule).count();
            *found.entry(rule).or_default() += mine;
            let expected = match rule {
                Rule::NoTextures if !draws => 0,
                Rule::MissingOriginRef if !attached => 0,
                _ => theirs.len(),
            };
            if mine == expected {
                continue;
            }
            match BY_DESIGN.iter().position(|d| *d == (source, rule)) {
                Some(d) => by_design[d] = true,
                None => differences.push(format!(
                    "{name}: {rule}: {mine} findings, mdx-m3-viewer {expected}: {theirs:?}"
                )),
            }
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
    // Each difference by design is still one.
    for (difference, seen) in BY_DESIGN.iter().zip(by_design) {
        assert!(seen, "{difference:?} no longer differs");
    }
    // The corpus exercises most of them (no corpus model has a sequence
    // ending before it starts: `validate.rs` builds one).
    let silent: Vec<&Rule> = MIRRORED
        .iter()
        .map(|(rule, _)| rule)
        .filter(|rule| found.get(rule).copied().unwrap_or(0) == 0)
        .collect();
    assert!(silent.len() <= 8, "never found in the corpus: {silent:?}");
}
