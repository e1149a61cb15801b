//! `formats::convert` on the corpus: every Reforged model converts to 800,
//! validates as `formats validate` runs (no finding of any severity its
//! source does not have, but those conversion makes by design, each
//! checked against its report), its classic form posed by the sampler stays
//! within the reported skinning error of the Reforged original, and it comes
//! back to its version within the errors reported both ways (what cannot
//! come back is asserted); every Reforged model goes to 900 and back
//! unchanged (900 holds SKIN); every classic model goes to 900, 1000, 1100
//! and 1200 and back unchanged (the two exceptions are named where they are
//! tested; one whose sequences are out of order comes back laid out, playing
//! the same); conversion measures again the extents it leaves stale, and only
//! those.
//!
//! Posing every frame of every sequence takes half a minute on two cores, so
//! by default these tests pose every 40th millisecond (and each sequence's
//! last); CI runs them with `CONVERT_FRAMES=every`, at every frame.

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use formats::anim::{Moment, Sampler, Skeleton, Timeline, meshes};
use formats::convert::{HdMaterials, Options, Report, convert};
use formats::mdx::{Material, Model};
use formats::validate::{self, Finding, Rule};

/// Milliseconds between the frames measured.
pub(crate) fn step() -> u32 {
    match std::env::var("CONVERT_FRAMES") {
        Ok(v) if v == "every" => 1,
        _ => 40,
    }
}

pub(crate) fn read(bytes: &[u8]) -> Model {
    Model::from_bytes_lenient(bytes).unwrap().0
}

/// What `formats validate` finds in a model: [`validate::all`] (the
/// structure, the map makers' rules and the extents), every severity.
pub(crate) fn findings(model: &Model) -> Vec<Finding> {
    validate::all(model)
}

/// Values computed once for all the tests, by corpus file.
type Cache<T> = LazyLock<Mutex<HashMap<String, Arc<OnceLock<Arc<T>>>>>>;

/// The value of `cache` for `key`, `make` making it the first time (a test
/// asking while another makes it waits).
fn cached<T>(cache: &'static Cache<T>, key: &str, make: impl FnOnce() -> T) -> Arc<T> {
    let cell = cache.lock().unwrap().entry(key.into()).or_default().clone();
    cell.get_or_init(|| Arc::new(make())).clone()
}

/// [`findings`] of a corpus model, found once for all the tests (the
/// extents are measured over every sequence: seconds per model unoptimised).
pub(crate) fn source_findings(name: &str, model: &Model) -> Arc<Vec<Finding>> {
    static FOUND: Cache<Vec<Finding>> = LazyLock::new(Default::default);
    cached(&FOUND, name, || findings(model))
}

/// A Reforged corpus model converted to 800 as shipped ([`options`]: large
/// geosets cut, levels of detail dropped, stale extents measured again, the
/// skinning error measured at the test's step), written and read back
/// strictly, with the report; once for all the tests.
fn shipped(name: &str, original: &Model) -> Arc<(Model, Report)> {
    static SHIPPED: Cache<(Model, Report)> = LazyLock::new(Default::default);
    cached(&SHIPPED, name, || {
        let mut classic = original.clone();
        let report =
            convert(&mut classic, 800, &options()).unwrap_or_else(|e| panic!("{name}: {e}"));
        (rewrite(&classic, name), report)
    })
}

/// [`uncut`] without what [`shipped`] measures (the skinning error, measured
/// before any cut, and the extents): geoset `i` of the result is geoset
/// `kept[i]` of the source, vertex for vertex, for posing.
pub(crate) fn whole() -> Options {
    Options {
        error_step: 0,
        recompute_extents: false,
        ..uncut()
    }
}

/// The bone a `bone-without-vertex` finding is on: `bones[i]` (bones keep
/// their places through a conversion; the chunk before may move).
fn bone(path: &str) -> &str {
    &path[path.rfind("bones[").unwrap_or(0)..]
}

/// `converted` validates as `formats validate` runs: it has no finding, of
/// any severity, under a rule its source (whose findings are `source`) has
/// none under, and no more stale extents than the source (conversion
/// measures again those it leaves stale; a source's own stale extents stay).
/// Corpus models with keys outside every sequence or normals that are not
/// unit length keep them. What conversion causes by design, each checked
/// against the report that says why:
///
/// - `unsupported-version` on a 900 model: no released game reads version
///   900 (a report says so under `VERS`).
/// - `bone-without-vertex` on a bone the source binds vertices to: one of
///   `reports` names it (`bones[i]`) as approximated, as it only weighed
///   little in `SKIN` (a group weighs its bones equally, which leaves it
///   out) or only dropped levels of detail used it.
pub(crate) fn validates(source: &[Finding], converted: &Model, reports: &[&Report], name: &str) {
    let found = findings(converted);
    let approximated = |path: &str, what: &str| {
        reports
            .iter()
            .flat_map(|r| &r.approximated)
            .any(|n| n.path == path && n.what.contains(what))
    };
    for finding in &found {
        let rule = finding.rule;
        let fine = match rule {
            Rule::BoneWithoutVertex => {
                let at = bone(&finding.path);
                source.iter().any(|f| f.rule == rule && bone(&f.path) == at)
                    || approximated(at, "binds no vertex any more")
            }
            Rule::UnsupportedVersion if converted.version() == 900 => {
                approximated("VERS", "no released game reads it")
            }
            _ => source.iter().any(|f| f.rule == rule),
        };
        assert!(fine, "{name}: new finding {}: {finding}", rule.id());
    }
    let stale = |f: &[Finding]| f.iter().filter(|f| f.rule == Rule::StaleExtent).count();
    assert!(
        stale(&found) <= stale(source),
        "{name}: {} stale extents, {} in the source",
        stale(&found),
        stale(source)
    );
}

/// Writes and re-reads strictly: the converted model is a valid file.
pub(crate) fn rewrite(model: &Model, name: &str) -> Model {
    let bytes = model.to_bytes().unwrap_or_else(|e| panic!("{name}: {e}"));
    Model::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: re-read: {e}"))
}

/// The largest distance between the vertices of `a` and `b` (geoset `i` of
/// `b` is geoset `kept[i]` of `a`) posed at the same moments: the bind pose
/// and every `step` ms of every sequence of `a`.
fn largest_distance(a: &Model, b: &Model, kept: &[usize], step: u32) -> f32 {
    let whole: Vec<(usize, Vec<usize>)> = kept
        .iter()
        .zip(b.geosets())
        .map(|(&k, geoset)| (k, (0..geoset.vertex_count()).collect()))
        .collect();
    largest_mapped_distance(a, b, &whole, step)
}

/// [`largest_distance`] where vertex `v` of geoset `i` of `b` is vertex
/// `map[i].1[v]` of geoset `map[i].0` of `a`; sequence `s` of `b` plays
/// what sequence `s` of `a` does, wherever it is on the timeline.
pub(crate) fn largest_mapped_distance(
    a: &Model,
    b: &Model,
    map: &[(usize, Vec<usize>)],
    step: u32,
) -> f32 {
    let (sa, sb) = (Skeleton::from_model(a), Skeleton::from_model(b));
    let (ta, tb) = (Timeline::from_model(a), Timeline::from_model(b));
    let (ma, mb) = (meshes(a, &sa), meshes(b, &sb));
    assert_eq!(mb.len(), map.len());
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
        for (mesh_b, (k, vertices)) in mb.iter().zip(map) {
            let posed_a = ma[*k].posed_positions(&pa);
            let posed_b = mesh_b.posed_positions(&pb);
            for (q, &v) in posed_b.iter().zip(vertices) {
                let p = posed_a[v];
                let d = (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f32>().sqrt();
                largest = largest.max(d);
            }
        }
    }
    largest
}

pub(crate) fn options() -> Options {
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
        // As shipped (cut), and uncut (vertex for vertex, for posing): the
        // same triangles, and the skinning error (measured before the cut)
        // is the one of both.
        let shipped = shipped(name, &original);
        let (shipped, report) = (&shipped.0, &shipped.1);
        assert_eq!(shipped.version(), 800, "{name}");
        let mut classic = original.clone();
        convert(&mut classic, 800, &whole()).unwrap();
        let classic = rewrite(&classic, name);
        let source = source_findings(name, &original);
        validates(&source, shipped, &[report], name);
        if !report.recomputed.is_empty() {
            eprintln!("{name}: {} extents measured again", report.recomputed.len());
        }
        assert_eq!(triangles(shipped), triangles(&classic), "{name}");
        let cut = shipped.geosets().len() - classic.geosets().len();
        if cut > 0 {
            eprintln!("{name}: {cut} geosets more, cut for the classic renderer");
            assert!(
                report
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

/// The six slots of HD material `m` (diffuse, normal, ORM, emissive, team
/// colour, reflection) as the game finds their textures; `None` for an SD
/// material.
fn hd_slots(model: &Model, m: usize) -> Option<Vec<(u32, String)>> {
    let material = &model.materials()[m];
    let ids: Vec<i32> = if material.has_hd_shader() {
        material.layers.iter().map(|l| l.texture_id).collect()
    } else if material.layers.first()?.shader_type_id == Some(1) {
        let mut entries = material.layers[0].textures.clone()?;
        entries.sort_by_key(|e| e.slot);
        entries.iter().map(|e| e.texture_id).collect()
    } else {
        return None;
    };
    Some(
        ids.iter()
            .map(|&t| texture(&model.textures()[t as usize]))
            .collect(),
    )
}

#[test]
fn reforged_models_go_to_classic_and_back() {
    // Every Reforged model to 800 and back to its own version (as shipped:
    // large geosets cut, levels of detail above 0 dropped, what is measured
    // measured at the test's step). What comes back: every vertex (position,
    // normal, UVs, faces), bound to the bones of its classic group, posed
    // within the errors the two conversions report; the sequences and the
    // nodes. What cannot, asserted below: SKIN's unequal weights (equal
    // shares of the classic groups, summing to 255), the HD slots but the
    // diffuse (placeholders), levels of detail (dropped above 0, -1 comes
    // back 0, names empty), tangents (generated again), `.tif` names
    // (`.dds`), CORN, FAFX and BPOS; SD materials of one layer come back HD.
    let models = common::manifest_models(1000..=1200);
    let (mut skinned, mut placeholders) = (0, 0);
    for (file, bytes) in &models {
        let name = &file.path;
        let original = read(bytes);
        let version = original.version();
        let shipped = shipped(name, &original);
        let (classic, down) = (&shipped.0, &shipped.1);
        let mut back = classic.clone();
        let up = convert(&mut back, version, &options())
            .unwrap_or_else(|e| panic!("{name}: back to {version}: {e}"));
        let back = rewrite(&back, name);
        assert_eq!(back.version(), version, "{name}");
        let source = source_findings(name, &original);
        validates(&source, &back, &[down, &up], name);
        // Nothing is lost on the way back.
        assert!(up.dropped.is_empty(), "{name}\n{up}");

        let kept: Vec<usize> = (0..original.geosets().len())
            .filter(|&g| original.geosets()[g].lod.unwrap_or(0) <= 0)
            .collect();
        // A cut geoset stays cut (its parts are geosets of their own in
        // Reforged too): the whole, vertex for vertex, is converted uncut.
        let cut = classic.geosets().len() - kept.len();
        let whole = if cut > 0 {
            let mut whole_model = original.clone();
            convert(&mut whole_model, 800, &whole()).unwrap();
            convert(&mut whole_model, version, &options()).unwrap();
            assert_eq!(back.geosets().len(), kept.len() + cut, "{name}");
            whole_model
        } else {
            back.clone()
        };
        assert_eq!(whole.geosets().len(), kept.len(), "{name}");
        for (geoset, &k) in whole.geosets().iter().zip(&kept) {
            let before = &original.geosets()[k];
            assert_eq!(geoset.vertex_positions, before.vertex_positions, "{name}");
            assert_eq!(geoset.vertex_normals, before.vertex_normals, "{name}");
            assert_eq!(geoset.faces, before.faces, "{name}");
            assert_eq!(
                geoset.texture_coordinate_sets, before.texture_coordinate_sets,
                "{name}"
            );
            assert_eq!(geoset.material_id, before.material_id, "{name}");
        }
        let sequences = |m: &Model| -> Vec<_> {
            m.sequences()
                .iter()
                .map(|s| (s.name, s.interval, s.flags))
                .collect()
        };
        assert_eq!(sequences(&back), sequences(&original), "{name}");
        assert_eq!(back.bones().len(), original.bones().len(), "{name}");
        for (b, o) in back.bones().iter().zip(original.bones()) {
            assert_eq!(
                (b.node.name, b.node.object_id),
                (o.node.name, o.node.object_id)
            );
        }

        // SKIN: equal shares of the classic groups, 255 in all.
        for (g, geoset) in back.geosets().iter().enumerate() {
            let skin = geoset
                .skin
                .as_ref()
                .unwrap_or_else(|| panic!("{name}: {g}"));
            assert_eq!(skin.len(), 8 * geoset.vertex_count(), "{name}");
            for vertex in skin.chunks(8) {
                let weights: Vec<u32> = vertex[4..]
                    .iter()
                    .map(|&w| u32::from(w))
                    .filter(|&w| w > 0)
                    .collect();
                assert_eq!(weights.iter().sum::<u32>(), 255, "{name}: {vertex:?}");
                let (lo, hi) = (weights.iter().min(), weights.iter().max());
                assert!(hi.unwrap() - lo.unwrap() <= 1, "{name}: {vertex:?}");
            }
            // Levels of detail: all 0 and unnamed (-1 and names do not come back).
            assert_eq!(geoset.lod, Some(0), "{name}");
            assert!(
                geoset
                    .lod_name
                    .unwrap_or_default()
                    .to_string_lossy()
                    .is_empty()
            );
            // Tangents generated again, for every geoset (with or without
            // tangents in the original).
            let tangents = geoset.tangents.as_ref().unwrap();
            assert_eq!(tangents.len(), geoset.vertex_count(), "{name}");
            assert!(tangents.iter().all(|t| t[3].abs() == 1.0), "{name}");
            assert!(
                up.added
                    .iter()
                    .any(|n| n.path == format!("geosets[{g}].tangents")),
                "{name}: {g}"
            );
        }
        if original.geosets().iter().any(|g| g.skin.is_some()) {
            skinned += 1;
        }

        // Posed, the round trip stays within the errors reported: the way
        // down's (SKIN weights as equal weights) plus the way back's (equal
        // weights as shares of 255, rounded).
        let distance = largest_distance(&original, &whole, &kept, step());
        let error = |r: &Report| r.skin_error.as_ref().map_or(0.0, |e| e.distance);
        let bound = error(down) + error(&up);
        assert!(
            distance <= bound + 1e-3 * bound.max(1.0),
            "{name}: posed {distance}, reported {} + {}",
            error(down),
            error(&up)
        );
        eprintln!(
            "{name}: round trip posed within {distance} (reported {} down, {} back)",
            error(down),
            error(&up)
        );

        // Materials: an HD material keeps its diffuse texture, its other
        // slots hold placeholders; an SD material of one layer comes back
        // HD (the default `HdMaterials::SingleLayer`), others stay SD.
        assert_eq!(back.materials().len(), original.materials().len(), "{name}");
        for m in 0..original.materials().len() {
            let layers = original.materials()[m].layers.len();
            let slots = hd_slots(&back, m);
            let Some(before) = hd_slots(&original, m) else {
                assert_eq!(slots.is_some(), layers == 1, "{name}: material {m}");
                continue;
            };
            let slots = slots.unwrap_or_else(|| panic!("{name}: material {m} is not HD"));
            assert_eq!(slots[0], before[0], "{name}: material {m}: the diffuse");
            for (slot, (placeholder, was)) in slots[1..].iter().zip(&before[1..]).enumerate() {
                let (id, path) = formats::convert::PLACEHOLDERS[slot];
                assert_eq!(*placeholder, (id, path.to_ascii_lowercase()), "{name}");
                if placeholder != was {
                    placeholders += 1;
                    // The slot as a layer (900, 1000) or a texture entry (1100 on).
                    let k = slot + 1;
                    let at = [
                        format!("materials[{m}].layers[{k}]"),
                        format!("materials[{m}].layers[0].textures[{k}]"),
                    ];
                    assert!(
                        down.dropped.iter().any(|n| at.contains(&n.path)),
                        "{name}: {at:?}\n{down}"
                    );
                }
            }
        }
        // `.tif` textures come back named `.dds`; CORN, FAFX and BPOS not at all.
        assert!(
            back.textures().iter().all(|t| !t
                .file_name
                .to_string_lossy()
                .to_ascii_lowercase()
                .ends_with(".tif")),
            "{name}"
        );
        assert!(back.corn_emitters().is_empty() && back.face_effects().is_empty());
        assert!(back.bind_poses().is_empty(), "{name}");
    }
    if !models.is_empty() {
        assert!(skinned >= 5, "only {skinned} models with SKIN");
        assert!(placeholders > 0, "no HD slot was replaced by a placeholder");
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
    let mut laid_out = 0;
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
        let source = source_findings(&format!("{name} (light tracks repaired)"), &original);
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
            validates(&source, &reforged, &[&report], name);
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
            if source.iter().any(|f| f.rule == Rule::SequenceOrder) {
                // Sequences out of order (which the classic game plays
                // wrongly) are laid out on the way back: they play the
                // same, and the chunks without tracks are the original's.
                let back = rewrite(&back, name);
                crate::convert::layout::plays_the_same(&original, &back, &report, name);
                assert!(!report.moved.is_empty(), "{name}\n{report}");
                let untimed = |m: &Model| -> Vec<formats::mdx::Chunk> {
                    (m.chunks.iter())
                        .filter(|c| {
                            ["VERS", "MODL", "GLBS", "TEXS", "GEOS", "PIVT", "CLID"]
                                .contains(&c.tag().to_string().as_str())
                        })
                        .cloned()
                        .collect()
                };
                assert_eq!(untimed(&back), untimed(&original), "{name}");
                laid_out += 1;
                continue;
            }
            assert_eq!(
                &back.to_bytes().unwrap(),
                expected,
                "{name}: 800 -> {target} -> 800 is not the original\n{report}"
            );
        }
    }
    if !models.is_empty() {
        // amisd_File00001202 and three zf_ models, to each Reforged version.
        assert!(laid_out >= 4 * 4, "{laid_out}");
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
            recompute_extents: false,
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
    validates(
        &findings(&original),
        &model,
        &[&report],
        "girl2_portrait with a level of detail 1",
    );
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
    // Back to 1000, the dropped level of detail does not come back, and the
    // others are level 0 (-1 included).
    let fast = Options {
        error_step: 0,
        ..Options::default()
    };
    convert(&mut model, 1000, &fast).unwrap();
    assert_eq!(model.geosets().len(), original.geosets().len() - 1);
    assert!(model.geosets().iter().all(|g| g.lod == Some(0)));
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

#[test]
fn reforged_models_go_to_900_with_their_skin_tangents_and_hd_materials() {
    // Version 900 (the Reforged beta's) has the Reforged geoset (SKIN, TANG,
    // levels of detail) and 1000's HD materials (a shader string, six
    // layers): the geosets stay as they are, byte for byte, no skinning is
    // approximated, and the model comes back to its version unchanged.
    let fast = Options {
        error_step: 0,
        ..Options::default()
    };
    let models = common::manifest_models(1000..=1200);
    let mut skinned = 0;
    for (file, bytes) in &models {
        let name = &file.path;
        let original = read(bytes);
        let mut beta = original.clone();
        let report = convert(&mut beta, 900, &fast).unwrap_or_else(|e| panic!("{name}: {e}"));
        let beta = rewrite(&beta, name);
        assert_eq!(beta.version(), 900, "{name}");
        assert_eq!(beta.geosets(), original.geosets(), "{name}");
        skinned += usize::from(beta.geosets().iter().any(|g| g.skin.is_some()));
        assert!(
            report.skin_error.is_none() && report.recomputed.is_empty(),
            "{name}"
        );
        assert!(report.dropped.is_empty(), "{name}\n{report}");
        // The only approximation: no released game reads 900.
        let paths: Vec<&str> = report
            .approximated
            .iter()
            .map(|n| n.path.as_str())
            .collect();
        assert_eq!(paths, ["VERS"], "{name}\n{report}");
        for m in 0..original.materials().len() {
            assert_eq!(hd_slots(&beta, m), hd_slots(&original, m), "{name}: {m}");
        }
        validates(&source_findings(name, &original), &beta, &[&report], name);
        let mut back = beta.clone();
        convert(&mut back, original.version(), &fast).unwrap();
        assert_eq!(
            back.to_bytes().unwrap(),
            original.to_bytes().unwrap(),
            "{name}: {} -> 900 -> {}",
            original.version(),
            original.version()
        );
    }
    if !models.is_empty() {
        assert!(skinned >= 5, "only {skinned} models with SKIN");
    }
    // From 900 a model goes to 800 as from its own version: SKIN to matrix
    // groups, HD materials to their diffuse layer.
    for name in ["mdx/pqw3_girl2_portrait.mdx", "mdx/pqw3_HarvestGolem.mdx"] {
        let Some(bytes) = common::corpus_file(name) else {
            return;
        };
        let original = read(&bytes);
        let mut direct = original.clone();
        let report = convert(&mut direct, 800, &fast).unwrap();
        let mut beta = original.clone();
        convert(&mut beta, 900, &fast).unwrap();
        let from_beta = convert(&mut beta, 800, &fast).unwrap();
        assert_eq!(
            beta.to_bytes().unwrap(),
            direct.to_bytes().unwrap(),
            "{name}"
        );
        assert!(beta.geosets().iter().all(|g| g.skin.is_none()));
        assert!(
            from_beta
                .approximated
                .iter()
                .any(|n| n.what.contains("matrix groups of equal weights")),
            "{name}\n{from_beta}"
        );
        assert_eq!(from_beta.dropped.len(), report.dropped.len(), "{name}");
    }
}

#[test]
fn conversion_measures_again_the_extents_it_leaves_stale_and_only_those() {
    let Some(bytes) = common::corpus_file("mdx/pqw3_girl2_portrait.mdx") else {
        return;
    };
    // girl2_portrait with geoset 1 a level of detail 1 moved far off, its
    // extents measured: the source's extents all hold, and MODL's and the
    // sequences' reach out to the level of detail.
    let mut original = read(&bytes);
    let lod = &mut original.geosets_mut()[1];
    lod.lod = Some(1);
    for p in &mut lod.vertex_positions {
        p[0] += 500.0;
    }
    original.recompute_extents();
    assert!(validate::extents::model(&original).is_empty());
    let mut classic = original.clone();
    let report = convert(&mut classic, 800, &options()).unwrap();
    // Dropping it left MODL and every sequence's extent 500 too wide: they
    // are measured again, and nothing is stale any more.
    assert!(validate::extents::model(&classic).is_empty(), "{report}");
    let modl = "chunks[1].MODL.extent";
    let recomputed: Vec<&str> = report.recomputed.iter().map(|n| n.path.as_str()).collect();
    assert!(recomputed.contains(&modl), "{report}");
    let sequences = original.sequences().len();
    let seqs = recomputed
        .iter()
        .filter(|p| p.contains(".SEQS.sequences["))
        .count();
    assert_eq!(seqs, sequences, "{report}");
    assert!(
        report.recomputed[0]
            .what
            .contains("larger than the geometry")
    );
    let measured = formats::bounds::measure(&classic, &Default::default()).unwrap();
    assert_eq!(
        classic.chunks.iter().find_map(|c| match c {
            formats::mdx::Chunk::Model(m) => Some(m.extent),
            _ => None,
        }),
        Some(measured.model)
    );
    // The geosets kept (0 and 2) keep their extents, bit for bit: their
    // vertices move by less than the tolerance with matrix groups.
    for (kept, source) in classic.geosets().iter().zip([0, 2]) {
        let before = &original.geosets()[source];
        assert_eq!(kept.extent, before.extent);
        assert_eq!(kept.sequence_extents, before.sequence_extents);
    }
    assert!(recomputed.iter().all(|p| !p.contains(".GEOS.")), "{report}");

    // A cut geoset's parts get per-sequence extents of their own (their
    // extent, the whole's, holds each part: its sphere does); the extents
    // HarvestGolem stores stale (copies of one box) stay as they were.
    let Some(bytes) = common::corpus_file("mdx/pqw3_HarvestGolem.mdx") else {
        return;
    };
    let original = read(&bytes);
    let mut classic = original.clone();
    let fast = Options {
        error_step: 0,
        ..Options::default()
    };
    let report = convert(&mut classic, 800, &fast).unwrap();
    let parts = ["geosets[3]", "geosets[4]"];
    let mut recomputed: Vec<&str> = report.recomputed.iter().map(|n| n.path.as_str()).collect();
    recomputed.sort_unstable();
    assert_eq!(
        recomputed,
        [
            "chunks[5].GEOS.geosets[3].sequence_extents",
            "chunks[5].GEOS.geosets[4].sequence_extents",
        ],
        "{report}"
    );
    let stale: Vec<String> = validate::extents::model(&classic)
        .into_iter()
        .map(|f| f.path)
        .collect();
    assert!(
        stale
            .iter()
            .all(|p| parts.iter().all(|part| !p.contains(part)))
    );
    // Every other extent is the source's: geoset 3 of the source was cut in
    // two (3 and 4), the later ones moved up by one.
    let box_of = |m: &Model| m.sequences().iter().map(|s| s.extent).collect::<Vec<_>>();
    assert_eq!(box_of(&classic), box_of(&original));
    for (g, geoset) in classic.geosets().iter().enumerate() {
        let source = match g {
            3 | 4 => continue,
            g if g < 3 => g,
            g => g - 1,
        };
        assert_eq!(geoset.extent, original.geosets()[source].extent, "{g}");
    }
}

/// A skinning the target cannot hold is refused with the geoset and what is
/// wrong with it, the model unchanged: a Reforged `SKIN` short of 8 bytes a
/// vertex, a classic `GNDX` short of a vertex, a classic group naming an
/// object id past 255.
#[test]
fn refused_skinnings_name_the_geoset_and_the_problem() {
    use formats::convert::{ConvertError, SkinProblem};
    let skinned = |(_, bytes): &(common::ManifestFile, Vec<u8>)| {
        read(bytes).geosets().iter().any(|g| g.skin.is_some())
    };
    let (Some((_, reforged)), Some((_, classic))) = (
        common::manifest_models(900..=1200)
            .into_iter()
            .find(skinned),
        common::manifest_models(800..=800).into_iter().next(),
    ) else {
        return;
    };
    let refusal = |mut model: Model, target: u32| {
        let before = model.clone();
        let error = convert(&mut model, target, &Options::default()).unwrap_err();
        assert_eq!(model, before, "a refusal changes nothing");
        error
    };
    let mut short_skin = read(&reforged);
    let (g, geoset) = (short_skin.geosets_mut().iter_mut().enumerate())
        .find(|(_, g)| g.skin.is_some())
        .unwrap();
    let vertices = geoset.vertex_count();
    geoset.skin.as_mut().unwrap().truncate(8 * vertices - 1);
    match refusal(short_skin, 800) {
        ConvertError::Skin {
            geoset,
            source: SkinProblem::SkinSize { bytes, vertices: v },
        } => assert_eq!((geoset, bytes, v), (g, 8 * vertices - 1, vertices)),
        other => panic!("{other:?}"),
    }
    let mut short_groups = read(&classic);
    let vertices = short_groups.geosets_mut()[0].vertex_count();
    short_groups.geosets_mut()[0].vertex_groups.pop();
    assert!(matches!(
        refusal(short_groups, 900),
        ConvertError::Skin {
            geoset: 0,
            source: SkinProblem::GroupCount { groups, vertices: v },
        } if (groups, v) == (vertices - 1, vertices)
    ));
    let mut far_bone = read(&classic);
    far_bone.geosets_mut()[0].matrix_indices[0] = 300;
    let error = refusal(far_bone, 900);
    assert!(matches!(
        error,
        ConvertError::Skin {
            geoset: 0,
            source: SkinProblem::ObjectId { id: 300 }
        }
    ));
    assert!(std::error::Error::source(&error).is_some());
}
