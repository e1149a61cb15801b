//! glTF import: every corpus model out to glTF (our export) and back in at
//! its own version, posed by `formats::anim` against the original; the
//! Khronos sample files and a Blender-made file imported at 800 and 1000
//! and checked by `validate`.

use formats::anim::{Sampler, Skeleton, Timeline, meshes};
use formats::gltf::{ExportOptions, ImportOptions, Source, export, import};
use formats::mdx::Model;

/// Each LOD-0 geoset's vertices posed at `ms` into sequence `k` (`None`:
/// as stored).
fn posed(model: &Model, k: Option<usize>, ms: f64) -> Vec<Vec<[f32; 3]>> {
    let skeleton = Skeleton::from_model(model);
    let timeline = Timeline::from_model(model);
    let pose = k
        .and_then(|k| timeline.at(k, ms))
        .map(|moment| skeleton.pose(&Sampler::new(&timeline, moment)));
    meshes(model, &skeleton)
        .iter()
        .map(|mesh| match &pose {
            Some(pose) => mesh.posed_positions(pose),
            None => mesh.positions.clone(),
        })
        .collect()
}

/// The diagonal of the model's vertices as stored.
fn size(model: &Model) -> f32 {
    let mut low = [f32::INFINITY; 3];
    let mut high = [f32::NEG_INFINITY; 3];
    for p in posed(model, None, 0.0).iter().flatten() {
        for c in 0..3 {
            low[c] = low[c].min(p[c]);
            high[c] = high[c].max(p[c]);
        }
    }
    (0..3)
        .map(|c| (high[c] - low[c]).powi(2))
        .sum::<f32>()
        .sqrt()
}

/// The source geoset each mesh node of an export draws, in node order (the
/// order the import makes geosets in).
fn exported_geosets(glb: &[u8]) -> Vec<usize> {
    let gltf = gltf::Gltf::from_slice(glb).unwrap();
    gltf.nodes()
        .filter_map(|n| n.mesh())
        .filter_map(|m| m.name()?.rsplit_once(" geoset ")?.1.parse().ok())
        .collect()
}

struct Trip {
    worst: f32,
    size: f32,
    at: String,
}

/// Exports `model`, imports it at its version, and measures the largest
/// distance between a vertex posed in the original and in the import, at
/// every `step` ms of every sequence.
fn round_trip(name: &str, model: &Model, step: usize) -> Trip {
    let glb = export(model, name, &ExportOptions::default())
        .unwrap_or_else(|e| panic!("{name}: export: {e}"))
        .document
        .to_glb()
        .unwrap();
    let source = Source::from_slice(&glb, |_| Err(std::io::ErrorKind::NotFound.into())).unwrap();
    let version = model.version();
    // Classic models of more than 7432 vertices in a geoset stay whole, so
    // that geosets pair up.
    let conversion = formats::convert::Options {
        split_large_geosets: false,
        ..Default::default()
    };
    let options = ImportOptions {
        version,
        conversion,
        ..Default::default()
    };
    let imported = import(&source, &options).unwrap_or_else(|e| panic!("{name}: import: {e}"));
    let back = &imported.model;
    let order = exported_geosets(&glb);
    let size = size(model);
    let mut trip = Trip {
        worst: 0.0,
        size,
        at: String::new(),
    };
    let sequences = model.sequences();
    assert_eq!(back.sequences().len(), sequences.len(), "{name}: sequences");
    // Sequences out of order are laid out in order at 800 (`convert`).
    let in_order = sequences
        .windows(2)
        .all(|w| w[0].interval[1] < w[1].interval[0]);
    let mut compare = |k: Option<usize>, ms: f64| {
        let a = posed(model, k, ms);
        let b = posed(back, k, ms);
        assert_eq!(b.len(), order.len(), "{name}: geosets");
        for (i, &g) in order.iter().enumerate() {
            assert_eq!(a[g].len(), b[i].len(), "{name}: geoset {g}'s vertices");
            for (v, (p, q)) in a[g].iter().zip(&b[i]).enumerate() {
                let d = (0..3).map(|c| (p[c] - q[c]).powi(2)).sum::<f32>().sqrt();
                if d > trip.worst {
                    trip.worst = d;
                    trip.at = format!("sequence {k:?} at {ms} ms, geoset {g}, vertex {v}");
                }
            }
        }
    };
    compare(None, 0.0);
    for (k, s) in sequences.iter().enumerate() {
        let b = &back.sequences()[k];
        assert_eq!(b.name, s.name, "{name}: sequence {k}'s name");
        assert_eq!(b.flags & 1, s.flags & 1, "{name}: sequence {k}'s looping");
        let length = s.interval[1].saturating_sub(s.interval[0]);
        if in_order || version > 800 {
            assert_eq!(b.interval, s.interval, "{name}: sequence {k}'s interval");
        } else {
            assert_eq!(
                b.interval[1] - b.interval[0],
                length,
                "{name}: sequence {k}'s length"
            );
        }
        // A looping sequence's end is its start (`Timeline::at` wraps).
        let last = if s.flags & 1 == 0 {
            length.saturating_sub(1)
        } else {
            length
        };
        for ms in (0..=last as usize).step_by(step) {
            compare(Some(k), ms as f64);
        }
    }
    trip
}

/// The most vertex poses one model's comparison takes (a debug build poses
/// a few million a second).
const POSES: u64 = 4_000_000;

#[test]
fn corpus_models_round_trip_through_gltf_at_their_own_version() {
    let models = testkit::corpus_models();
    if models.is_empty() {
        return testkit::did_not_run("glTF import round trip", "no corpus");
    }
    let mut failures = Vec::new();
    for (name, model) in &models {
        if !(800..=1200).contains(&model.version()) || model.geosets().is_empty() {
            continue;
        }
        // Every frame where posing them all costs at most POSES vertex poses,
        // else every n-th (the step said below).
        let frames: u64 = model
            .sequences()
            .iter()
            .map(|s| u64::from(s.interval[1].saturating_sub(s.interval[0])) + 1)
            .sum();
        let vertices: u64 = model
            .geosets()
            .iter()
            .map(|g| g.vertex_positions.len() as u64)
            .sum();
        let step = (frames * vertices).div_ceil(POSES).max(1) as usize;
        let started = std::time::Instant::now();
        let trip = round_trip(name, model, step);
        eprintln!(
            "{name}: {:.2e} of {} ({}), every {step} ms, {:.1} s",
            trip.worst / trip.size,
            trip.size,
            trip.at,
            started.elapsed().as_secs_f64()
        );
        if trip.worst > 1e-3 * trip.size {
            failures.push(format!("{name}: {} ({})", trip.worst, trip.at));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

// Hostile documents: each was a hang or an allocation of gigabytes from a
// document of a few kilobytes (found by reading the import while its fuzz
// target, `fuzz/fuzz_targets/gltf_import.rs`, was written); each now
// imports in time proportional to its size, or is refused by a budget of
// the import module's "What an import may make".

/// A `.glb` of `json` (its buffer 0 is `bin`, when `bin` is not empty).
fn glb(mut json: serde_json::Value, bin: &[u8]) -> Vec<u8> {
    if !bin.is_empty() {
        json["buffers"] = serde_json::json!([{ "byteLength": bin.len() }]);
    }
    json["asset"] = serde_json::json!({ "version": "2.0" });
    let mut text = serde_json::to_vec(&json).unwrap();
    text.resize(text.len().next_multiple_of(4), b' ');
    let mut bin = bin.to_vec();
    bin.resize(bin.len().next_multiple_of(4), 0);
    let chunks = 8 + text.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let mut out = Vec::new();
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(12 + chunks as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&text);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    out
}

/// A `.glb` of one mesh (accessor 0 its POSITION) on node 0, the scene's
/// root, with `nodes`, the views and accessors, and the fields of `more`
/// (which replace those above).
fn mesh_document(
    bin: &[u8],
    views: serde_json::Value,
    accessors: serde_json::Value,
    nodes: serde_json::Value,
    more: serde_json::Value,
) -> Vec<u8> {
    let mut json = serde_json::json!({
        "bufferViews": views, "accessors": accessors,
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 } }] }],
        "nodes": nodes, "scenes": [{ "nodes": [0] }],
    });
    if let (Some(json), Some(more)) = (json.as_object_mut(), more.as_object()) {
        json.extend(more.clone());
    }
    glb(json, bin)
}

/// A [`mesh_document`] whose mesh node has `children`, each animated (its
/// `path`) by one sampler (accessors 1 and 2) of one animation, "Stand".
fn one_sampler(
    bin: &[u8],
    views: serde_json::Value,
    accessors: serde_json::Value,
    children: Vec<serde_json::Value>,
    path: &str,
) -> Vec<u8> {
    let n = children.len();
    let mut nodes = vec![serde_json::json!({ "mesh": 0, "children": (1..=n).collect::<Vec<_>>() })];
    nodes.extend(children);
    let channels: Vec<serde_json::Value> = (1..=n)
        .map(|node| serde_json::json!({ "sampler": 0, "target": { "node": node, "path": path } }))
        .collect();
    let animation = serde_json::json!({
        "name": "Stand",
        "samplers": [{ "input": 1, "output": 2 }],
        "channels": channels,
    });
    let more = serde_json::json!({ "animations": [animation] });
    mesh_document(bin, views, accessors, nodes.into(), more)
}

/// Little-endian `f32`s.
fn floats(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A buffer of one triangle's positions (view 0, accessor 0), then `rest`
/// (view 1, from byte 36).
fn triangle_and(rest: &[u8]) -> (Vec<u8>, serde_json::Value, serde_json::Value) {
    let mut bin = floats(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
    bin.extend_from_slice(rest);
    let views = serde_json::json!([
        { "buffer": 0, "byteOffset": 0, "byteLength": 36 },
        { "buffer": 0, "byteOffset": 36, "byteLength": rest.len().max(4) },
    ]);
    let accessors = serde_json::json!([{
        "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
        "min": [0, 0, 0], "max": [1, 1, 0]
    }]);
    (bin, views, accessors)
}

fn read(bytes: &[u8]) -> Source {
    Source::from_slice(bytes, |_| Err(std::io::ErrorKind::NotFound.into()))
        .unwrap_or_else(|e| panic!("the document reads: {e}"))
}

fn import_at(source: &Source, version: u32) -> Result<formats::gltf::Imported, String> {
    let options = ImportOptions {
        version,
        ..Default::default()
    };
    import(source, &options).map_err(|e| e.to_string())
}

/// A document whose `children` chain `n` nodes named `a ref` below a mesh:
/// each an attachment, each walked to the root once (it was every node's
/// every ancestor, looked up in lists: hours for 20,000 nodes).
#[test]
fn a_deep_chain_of_attachments_imports() {
    let (bin, views, accessors) = triangle_and(&[]);
    let n = 20_000;
    let mut nodes = vec![serde_json::json!({ "mesh": 0, "children": [1] })];
    for i in 1..n {
        let mut node = serde_json::json!({ "name": "a ref" });
        if i + 1 < n {
            node["children"] = serde_json::json!([i + 1]);
        }
        nodes.push(node);
    }
    let document = mesh_document(&bin, views, accessors, nodes.into(), serde_json::json!({}));
    let imported = import_at(&read(&document), 1000).unwrap();
    assert_eq!(imported.model.attachments().len(), n - 1);
    // Each attachment's parent is the one above it.
    let parents: Vec<u32> = (imported.model.attachments().iter())
        .map(|a| a.node.parent_id)
        .collect();
    assert!(
        parents.windows(2).all(|w| w[1] == w[0] + 1),
        "{:?}",
        &parents[..4]
    );
}

/// A node hierarchy with a cycle at its end: named (it was found by a
/// search of the visited list for every node).
#[test]
fn a_cycle_after_many_nodes_is_named() {
    let (bin, views, accessors) = triangle_and(&[]);
    let n = 20_000;
    let mut nodes: Vec<serde_json::Value> = (0..n - 2)
        .map(|i| serde_json::json!({ "children": [i + 1] }))
        .collect();
    nodes[0]["mesh"] = serde_json::json!(0);
    nodes[n - 3] = serde_json::json!({});
    nodes.push(serde_json::json!({ "children": [n - 1] }));
    nodes.push(serde_json::json!({ "children": [n - 2] }));
    let document = mesh_document(&bin, views, accessors, nodes.into(), serde_json::json!({}));
    let error = import_at(&read(&document), 1000).unwrap_err();
    assert_eq!(
        error,
        format!(
            "nodes[{}] has more than one parent, or is its own ancestor",
            n - 2
        )
    );
}

/// A sparse accessor without a buffer view declares its count freely: one
/// of 16 million matrices (2 GiB as `f64`) was allocated before anything
/// looked at it; now every component read counts against 2^25, before
/// anything is allocated. POSITION of 2 million vertices passes the
/// vertices' budget.
#[test]
fn accessors_without_buffers_count_against_the_budgets() {
    let (bin, views, mut accessors) = triangle_and(&floats(&[1.0; 16]));
    // The sparse index (u32 0) is the value's first 4 bytes: 1.0's bits
    // are not 0, so a second view of 4 zero bytes.
    let mut bin = bin;
    let zero_at = bin.len();
    bin.extend_from_slice(&[0; 4]);
    let mut views = views;
    views
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({ "buffer": 0, "byteOffset": zero_at, "byteLength": 4 }));
    let sparse = |count: usize, kind: &str| {
        serde_json::json!({
            "componentType": 5126, "count": count, "type": kind,
            "sparse": {
                "count": 1,
                "indices": { "bufferView": 2, "componentType": 5125 },
                "values": { "bufferView": 1 },
            },
        })
    };
    let list = accessors.as_array_mut().unwrap();
    list.push(sparse(16_000_000, "MAT4"));
    let mut positions = sparse(2_000_000, "VEC3");
    positions["min"] = serde_json::json!([0, 0, 0]);
    positions["max"] = serde_json::json!([1, 1, 1]);
    list.push(positions);
    let skinned = mesh_document(
        &bin,
        views.clone(),
        accessors.clone(),
        serde_json::json!([{ "mesh": 0, "skin": 0 }, { "name": "joint" }]),
        serde_json::json!({
            "skins": [{ "joints": [1], "inverseBindMatrices": 1 }],
            "scenes": [{ "nodes": [0, 1] }],
        }),
    );
    let error = import_at(&read(&skinned), 1000).unwrap_err();
    assert!(error.contains("accessor components read"), "{error}");
    let large = mesh_document(
        &bin,
        views,
        accessors,
        serde_json::json!([{ "mesh": 0 }]),
        serde_json::json!({
            "meshes": [{ "primitives": [{ "attributes": { "POSITION": 2 } }] }],
        }),
    );
    let error = import_at(&read(&large), 1000).unwrap_err();
    assert!(error.contains("vertices"), "{error}");
}

/// Channels of one animation sharing a sampler: each reads its keys again
/// (3,000 channels of 10,000 keys, a 400 KB document, read 1 GB); now
/// every read counts.
#[test]
fn channels_sharing_a_sampler_count_every_read() {
    let keys = 10_000;
    let times: Vec<f32> = (0..keys).map(|k| k as f32 / 30.0).collect();
    let mut rest = floats(&times);
    rest.extend(floats(&vec![0.5; 3 * keys]));
    let (bin, mut views, mut accessors) = triangle_and(&rest);
    let views_list = views.as_array_mut().unwrap();
    views_list[1] = serde_json::json!({ "buffer": 0, "byteOffset": 36, "byteLength": 4 * keys });
    views_list.push(serde_json::json!({
        "buffer": 0, "byteOffset": 36 + 4 * keys, "byteLength": 12 * keys
    }));
    let list = accessors.as_array_mut().unwrap();
    list.push(serde_json::json!({
        "bufferView": 1, "componentType": 5126, "count": keys, "type": "SCALAR",
        "min": [0], "max": [times[keys - 1]]
    }));
    list.push(serde_json::json!({
        "bufferView": 2, "componentType": 5126, "count": keys, "type": "VEC3"
    }));
    let nodes = (0..1_000).map(|_| serde_json::json!({})).collect();
    let document = one_sampler(&bin, views, accessors, nodes, "translation");
    let error = import_at(&read(&document), 1000).unwrap_err();
    assert!(error.contains("accessor components read"), "{error}");
}

/// A 1-bit PNG of 16384 by 16384 pixels is 45 KB, and decodes to 1 GiB of
/// RGBA; images may share its view. Each image's size is read from its
/// header and counted against 2^24 pixels before it is decoded, and images
/// no material's base colour shows are not decoded.
#[test]
fn images_decode_within_a_pixel_budget() {
    let png = |side: u32| {
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, side, side);
        encoder.set_color(png::ColorType::Grayscale);
        encoder.set_depth(png::BitDepth::One);
        let mut writer = encoder.write_header().unwrap();
        writer
            .write_image_data(&vec![0; side.div_ceil(8) as usize * side as usize])
            .unwrap();
        writer.finish().unwrap();
        out
    };
    let large = png(16384);
    let small = png(2);
    let mut rest = large.clone();
    rest.resize(rest.len().next_multiple_of(4), 0);
    let small_at = 36 + rest.len();
    rest.extend_from_slice(&small);
    let (bin, mut views, accessors) = triangle_and(&rest);
    let list = views.as_array_mut().unwrap();
    list[1] = serde_json::json!({ "buffer": 0, "byteOffset": 36, "byteLength": large.len() });
    list.push(
        serde_json::json!({ "buffer": 0, "byteOffset": small_at, "byteLength": small.len() }),
    );
    let image = |view: usize| serde_json::json!({ "bufferView": view, "mimeType": "image/png" });
    let document = glb(
        serde_json::json!({
            "bufferViews": views, "accessors": accessors,
            // The large image for two materials, the small one for a third,
            // and the large one again as a normal map only.
            "images": [image(1), image(1), image(2), image(1)],
            "textures": [{ "source": 0 }, { "source": 1 }, { "source": 2 }, { "source": 3 }],
            "materials": [
                { "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } } },
                { "pbrMetallicRoughness": { "baseColorTexture": { "index": 1 } } },
                { "pbrMetallicRoughness": { "baseColorTexture": { "index": 2 } },
                  "normalTexture": { "index": 3 } },
            ],
            "meshes": [{ "primitives": [
                { "attributes": { "POSITION": 0 }, "material": 0 },
                { "attributes": { "POSITION": 0 }, "material": 1 },
                { "attributes": { "POSITION": 0 }, "material": 2 },
            ] }],
            "nodes": [{ "mesh": 0 }], "scenes": [{ "nodes": [0] }],
        }),
        &bin,
    );
    let source = read(&document);
    use formats::gltf::ImageProblem;
    let too_large = ImageProblem::TooLarge {
        width: 16384,
        height: 16384,
    };
    assert_eq!(source.images[0], Err(too_large.clone()));
    assert_eq!(source.images[1], Err(too_large));
    assert_eq!(source.images[2].as_ref().map(|i| i.width), Ok(2));
    assert_eq!(source.images[3], Err(ImageProblem::Unused));
    let imported = import_at(&source, 800).unwrap();
    assert_eq!(imported.textures.len(), 1);
}

/// Materials sharing an image: one texture (each was a texture of its
/// own, its name made unique by a search of every name taken, as many
/// times as names were alike: cubic in the materials).
#[test]
fn materials_sharing_an_image_share_its_texture() {
    let mut small = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut small, 1, 1);
        encoder.set_color(png::ColorType::Rgba);
        let mut writer = encoder.write_header().unwrap();
        writer.write_image_data(&[10, 20, 30, 255]).unwrap();
    }
    let (bin, mut views, accessors) = triangle_and(&small);
    views.as_array_mut().unwrap()[1]["byteLength"] = serde_json::json!(small.len());
    let n = 3_000;
    let document = glb(
        serde_json::json!({
            "bufferViews": views, "accessors": accessors,
            "images": [{ "bufferView": 1, "mimeType": "image/png", "name": "skin" }],
            "textures": [{ "source": 0 }],
            "materials": (0..n).map(|_| serde_json::json!({
                "pbrMetallicRoughness": { "baseColorTexture": { "index": 0 } }
            })).collect::<Vec<_>>(),
            "meshes": [{ "primitives": (0..n).map(|m| serde_json::json!({
                "attributes": { "POSITION": 0 }, "material": m
            })).collect::<Vec<_>>() }],
            "nodes": [{ "mesh": 0 }], "scenes": [{ "nodes": [0] }],
        }),
        &bin,
    );
    let imported = import_at(&read(&document), 1000).unwrap();
    assert_eq!(imported.model.materials().len(), n);
    assert_eq!(imported.model.textures().len(), 1);
    assert_eq!(imported.textures.len(), 1);
    assert_eq!(imported.textures[0].path, "skin.blp");
}

/// `n` attachments below a mesh, each turning a quarter turn about Y over
/// `seconds` (one sampler, a channel each), as a `.glb`.
fn turning(n: usize, seconds: f32) -> Vec<u8> {
    let half = std::f32::consts::FRAC_1_SQRT_2;
    let mut rest = floats(&[0.0, seconds]);
    rest.extend(floats(&[0.0, 0.0, 0.0, 1.0, 0.0, half, 0.0, half]));
    let (bin, mut views, mut accessors) = triangle_and(&rest);
    let list = views.as_array_mut().unwrap();
    list[1] = serde_json::json!({ "buffer": 0, "byteOffset": 36, "byteLength": 8 });
    list.push(serde_json::json!({ "buffer": 0, "byteOffset": 44, "byteLength": 32 }));
    let list = accessors.as_array_mut().unwrap();
    list.push(serde_json::json!({
        "bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR",
        "min": [0], "max": [seconds]
    }));
    list.push(serde_json::json!({
        "bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC4"
    }));
    let nodes = (0..n)
        .map(|i| serde_json::json!({ "name": format!("turn {i} ref") }))
        .collect();
    one_sampler(&bin, views, accessors, nodes, "rotation")
}

/// Twenty nodes turning steadily for a minute: every sample on the 1/30 s
/// grid plays, so thinning joins them all. The keyframe optimizer, which
/// the import ran, checked every frame a joined key spans, again for each
/// key joined (the square of the track's length: 8 s in a release build
/// for 10 seconds of such a turn, a hang under the fuzzer); the import's
/// own thinning looks at most 64 keys ahead, at the keys.
#[test]
fn steady_motion_thins_in_time_linear_in_its_keys() {
    let imported = import_at(&read(&turning(20, 60.0)), 1000).unwrap();
    let report = &imported.report;
    // 20 nodes, 1,801 samples, three tracks each.
    assert_eq!(report.keys_sampled, 20 * 1801 * 3);
    // A key each 64 samples, or fewer.
    assert!(
        report.keys_kept <= 20 * 3 * (1800 / 64 + 2),
        "{}",
        report.keys_kept
    );
    // Halfway, each attachment has turned an eighth of a turn.
    let timeline = Timeline::from_model(&imported.model);
    let moment = timeline.at(0, 30_000.0).unwrap();
    let rotation = imported.model.attachments()[7]
        .node
        .tracks
        .iter()
        .find_map(|t| match t {
            formats::mdx::NodeTrack::Rotation(track) => Some(track),
            _ => None,
        });
    let rotation = rotation.expect("a rotation track");
    let sampled = Sampler::new(&timeline, moment).sample(rotation, &[0.0, 0.0, 0.0, 1.0]);
    let expected = std::f32::consts::FRAC_PI_4;
    let w = sampled[3].abs().min(1.0);
    assert!((2.0 * w.acos() - expected).abs() < 1e-4, "{sampled:?}");
}

/// Nodes times the grid past 2^19 samples: refused before sampling.
#[test]
fn node_samples_past_the_budget_are_refused() {
    let error = import_at(&read(&turning(60, 3600.0)), 1000).unwrap_err();
    assert!(error.contains("node samples"), "{error}");
}

/// A primitive whose POSITION names an accessor the document does not have
/// (found by the fuzz target: a `.gltf` seed with its `accessors` key
/// mangled): the glTF reader's validation looked it up without a check and
/// panicked; it is refused first.
#[test]
fn a_position_past_the_accessors_is_refused() {
    let document = serde_json::json!({
        "asset": { "version": "2.0" },
        "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 } }] }],
        "nodes": [{ "mesh": 0 }], "scenes": [{ "nodes": [0] }],
    });
    let bytes = serde_json::to_vec(&document).unwrap();
    let error = Source::from_slice(&bytes, |_| Err(std::io::ErrorKind::NotFound.into()))
        .err()
        .expect("refused")
        .to_string();
    assert!(
        error.contains("meshes[0].primitives[0].attributes"),
        "{error}"
    );
    assert!(error.contains("POSITION"), "{error}");
}

/// An animation channel whose target names a node the document does not
/// have, or a path glTF does not define (found by the fuzz target: a
/// mutated export of `risk_HumanBattleship_v800`): the glTF reader does not
/// validate channel targets, and its `Channel::target().node()` and
/// `property()` unwrap them; such a document is refused first.
#[test]
fn a_channel_past_the_nodes_is_refused() {
    let document = turning(1, 1.0);
    let parsed = gltf::Glb::from_slice(&document).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&parsed.json).unwrap();
    let bin = parsed.bin.unwrap().into_owned();
    for (field, value, problem) in [
        ("node", serde_json::json!(2), "target.node"),
        ("path", serde_json::json!("sideways"), "target.path"),
    ] {
        let mut json = json.clone();
        json["animations"][0]["channels"][0]["target"][field] = value;
        let error = Source::from_slice(&glb(json, &bin), |_| {
            Err(std::io::ErrorKind::NotFound.into())
        })
        .err()
        .expect("refused")
        .to_string();
        assert!(
            error.contains(&format!("animations[0].channels[0].{problem}")),
            "{error}"
        );
    }
}

/// A GLB whose header gives a length shorter than the header (found by the
/// fuzz target): the glTF reader subtracted the header's 12 bytes from it
/// unchecked, an overflow that panics where overflow is checked (the fuzz
/// target's build, a debug build); such a file is refused first.
#[test]
fn a_glb_shorter_than_its_header_is_refused() {
    for length in [0u32, 11] {
        let mut document = glb(serde_json::json!({}), &[]);
        document[8..12].copy_from_slice(&length.to_le_bytes());
        let error = Source::from_slice(&document, |_| Err(std::io::ErrorKind::NotFound.into()));
        assert!(error.is_err(), "a GLB of length {length} is refused");
    }
}
