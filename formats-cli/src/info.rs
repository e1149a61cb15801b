//! `formats info`: the chunk table, object counts, geometry and animation
//! totals of a model; textures, doodads, objects, liquids, holes and alpha
//! encodings of a tile; a texture's report is `blp::info`.

use std::fmt::Write;

use formats::adt::Adt;
use formats::adt::mcnk::{flags as mcnk_flags, layer_flags};
use formats::chunks::ChunkEntry;
use formats::core::{Context, FourCC};
use formats::mdx::{Chunk, Model};
use formats::wdt::Wdt;

use crate::kind::{Document, Kind, Loaded};

/// The whole report for one file. The file is parsed once (by
/// `kind::read`); the chunk table comes from the typed document, each row's
/// size from its chunk header.
pub fn report(name: &str, kind: Kind, data: &[u8], loaded: &Loaded) -> String {
    match &loaded.document {
        Document::Blp(blp) => return crate::blp::info(name, data, blp, loaded),
        Document::Dds(dds) => return crate::blp::dds_info(name, data, dds),
        _ => {}
    }
    let mut out = String::new();
    // MDL text has no chunks: the table shows those of the same model as MDX.
    let binary = match (kind, &loaded.document) {
        (Kind::Mdl, Document::Mdx(model)) => Some(model.to_bytes()),
        _ => None,
    };
    // The bytes whose chunks the table lists: none for a model MDX cannot
    // hold (the text is no chunk list).
    let listed: Option<&[u8]> = match &binary {
        Some(Ok(binary)) => Some(binary),
        Some(Err(_)) => None,
        None => Some(data),
    };
    let entries = listed.map_or_else(Vec::new, |bytes| chunk_entries(&loaded.document, bytes));
    let chunk_count = match &loaded.document {
        Document::Mdx(model) if listed.is_none() => model.chunks.len(),
        _ => entries.len(),
    };
    let version = match &loaded.document {
        Document::Mdx(m) => Some(m.version()),
        Document::Adt(a) => a.version(),
        Document::Wdt(w) => w.version(),
        Document::AdtSplit(_) | Document::Blp(_) | Document::Dds(_) => None,
    };
    let assumed = match &loaded.document {
        Document::Mdx(m) if !m.chunks.iter().any(|c| matches!(c, Chunk::Version(_))) => {
            " (no VERS chunk: assumed)"
        }
        _ => "",
    };
    let version = version.map_or(String::new(), |v| format!(" version {v}{assumed},"));
    let _ = writeln!(
        out,
        "{name}: {}{version} {} bytes, {chunk_count} chunks",
        kind.name(),
        data.len()
    );
    out.push_str(&loaded.lenient_lines());
    let objects = match &loaded.document {
        Document::Mdx(model) => mdx_objects(model),
        _ => Vec::new(),
    };
    match &binary {
        Some(Ok(binary)) => {
            let _ = writeln!(out, "the model's chunks, as MDX ({} bytes):", binary.len());
        }
        Some(Err(e)) => {
            let _ = writeln!(
                out,
                "the model's chunks: none, it cannot be written as MDX: {e}"
            );
        }
        None => {}
    }
    if let Some(bytes) = listed {
        chunk_table(&mut out, &entries, bytes.len(), &objects);
    }
    let written = crate::kind::write(kind, &loaded.document).ok();
    let round_trip = match &written {
        Some(bytes) if bytes == data => "byte-exact",
        Some(bytes) if matches!(&binary, Some(Ok(mdx)) if crate::kind::mdl_reads_back_as(bytes, mdx)) => {
            "the same model back (text rewritten in the canonical layout)"
        }
        _ => "DIFFERS",
    };
    let _ = writeln!(out, "round trip: {round_trip}");
    match &loaded.document {
        Document::Mdx(model) => mdx_summary(&mut out, model),
        Document::Adt(adt) => adt_summary(&mut out, adt),
        Document::Wdt(wdt) => wdt_summary(&mut out, wdt),
        Document::AdtSplit(file) => {
            let _ = writeln!(out, "map chunks: {}", file.mcnks().count());
        }
        Document::Blp(_) | Document::Dds(_) => {}
    }
    out
}

/// Where each top-level chunk of `document` is in `bytes` (the file it was
/// read from, or for MDL text the model written as MDX): tags from the typed
/// chunks, in order, and each size from the chunk's header. Chunks sit end to
/// end, but for the light tracks a writer stored after a `LITE` chunk (kept by
/// a lenient read, written back there). The walk stops where `bytes` do.
fn chunk_entries(document: &Document, bytes: &[u8]) -> Vec<ChunkEntry> {
    let (start, chunks): (usize, Vec<(FourCC, usize)>) = match document {
        Document::Mdx(model) => (
            4,
            model
                .chunks
                .iter()
                .map(|c| (c.tag(), trailing(c)))
                .collect(),
        ),
        Document::Adt(adt) => (0, adt.chunks.iter().map(|c| (c.tag(), 0)).collect()),
        Document::AdtSplit(file) => (0, file.chunks.iter().map(|c| (c.tag(), 0)).collect()),
        Document::Wdt(wdt) => (0, wdt.chunks.iter().map(|c| (c.tag(), 0)).collect()),
        // A texture is a header and placed levels, not a chunk list.
        Document::Blp(_) | Document::Dds(_) => return Vec::new(),
    };
    let mut offset = start;
    let mut entries = Vec::with_capacity(chunks.len());
    for (tag, trailing) in chunks {
        let Some(size) = bytes
            .get(offset + 4..)
            .and_then(<[u8]>::first_chunk::<4>)
            .map(|s| u32::from_le_bytes(*s) as usize)
        else {
            break;
        };
        entries.push(ChunkEntry { tag, offset, size });
        offset += 8 + size + trailing;
    }
    entries
}

/// The bytes a chunk's writer puts after it: the light tracks of the `LITE`
/// quirk (`MDX_VERSIONS.md` §8.3), 0 for every other chunk.
fn trailing(chunk: &Chunk) -> usize {
    let Chunk::Lights(lights) = chunk else {
        return 0;
    };
    lights
        .lights
        .iter()
        .flat_map(|light| &light.tracks_after_chunk)
        .filter_map(|track| formats::core::encode(track, Context::new()).ok())
        .map(|bytes| bytes.len())
        .sum()
}

/// The chunk list of a file of `len` bytes; runs of three or more chunks with
/// one tag (an ADT's 256 MCNKs) are one line. A chunk the file ends inside
/// (a damaged file read leniently) says how many of its bytes are there.
fn chunk_table(out: &mut String, entries: &[ChunkEntry], len: usize, objects: &[(String, String)]) {
    let cut = |e: &ChunkEntry| {
        let there = len.saturating_sub(e.offset + 8);
        (there < e.size).then(|| format!("cut short: {there} bytes there"))
    };
    let _ = writeln!(out, "{:>10}  {:<4}  {:>10}", "offset", "tag", "size");
    let mut i = 0;
    while let Some(e) = entries.get(i) {
        let run = entries[i..].iter().take_while(|x| x.tag == e.tag).count();
        if run >= 3 {
            let total: usize = entries[i..i + run].iter().map(|x| x.size).sum();
            let last = entries[i + run - 1..].first().and_then(cut);
            let last = last.map_or(String::new(), |c| format!(", the last {c}"));
            let _ = writeln!(
                out,
                "{:>#10x}  {:<4}  {:>10}  {run} chunks{last}",
                e.offset,
                e.tag.to_string(),
                total
            );
            i += run;
            continue;
        }
        let tag = e.tag.to_string();
        let cut = cut(e);
        let count = cut
            .as_deref()
            .or_else(|| {
                objects
                    .get(i)
                    .filter(|(t, _)| *t == tag)
                    .map(|(_, c)| c.as_str())
            })
            .unwrap_or("");
        let line = format!("{:>#10x}  {:<4}  {:>10}  {count}", e.offset, tag, e.size);
        let _ = writeln!(out, "{}", line.trim_end());
        i += 1;
    }
}

/// Per typed chunk, in file order: its tag and how many objects it holds.
fn mdx_objects(model: &Model) -> Vec<(String, String)> {
    model
        .chunks
        .iter()
        .map(|chunk| {
            if let Chunk::Undecoded(_) = chunk {
                let what = "does not decode: kept as bytes (see the diagnostics)";
                return (chunk.tag().to_string(), what.to_string());
            }
            let (count, what) = match chunk {
                // Nothing to count (a cut chunk is marked by `chunk_table`).
                Chunk::Cut(_)
                | Chunk::Undecoded(_)
                | Chunk::Version(_)
                | Chunk::Model(_)
                | Chunk::AlphaModel(_)
                | Chunk::Unknown(_) => (0, ""),
                Chunk::Sequences(c) => (c.sequences.len(), "sequence"),
                Chunk::GlobalSequences(c) => (c.global_sequences.len(), "global sequence"),
                Chunk::Materials(c) => (c.materials.len(), "material"),
                Chunk::Textures(c) => (c.textures.len(), "texture"),
                Chunk::SoundTracks(c) => (c.sound_tracks.len(), "sound track"),
                Chunk::TextureAnimations(c) => (c.animations.len(), "texture animation"),
                Chunk::Geosets(c) => (c.geosets.len(), "geoset"),
                Chunk::GeosetAnimations(c) => (c.animations.len(), "geoset animation"),
                Chunk::Bones(c) => (c.bones.len(), "bone"),
                Chunk::Lights(c) => (c.lights.len(), "light"),
                Chunk::Helpers(c) => (c.helpers.len(), "helper"),
                Chunk::Attachments(c) => (c.attachments.len(), "attachment"),
                Chunk::PivotPoints(c) => (c.points.len(), "pivot point"),
                Chunk::ParticleEmitters(c) => (c.emitters.len(), "particle emitter"),
                Chunk::ParticleEmitters2(c) => (c.emitters.len(), "type-2 particle emitter"),
                Chunk::RibbonEmitters(c) => (c.emitters.len(), "ribbon emitter"),
                Chunk::CornEmitters(c) => (c.emitters.len(), "popcorn emitter"),
                Chunk::Cameras(c) => (c.cameras.len(), "camera"),
                Chunk::EventObjects(c) => (c.objects.len(), "event object"),
                Chunk::CollisionShapes(c) => (c.shapes.len(), "collision shape"),
                Chunk::FaceEffects(c) => (c.face_effects.len(), "face effect"),
                Chunk::BindPoses(c) => (c.bind_pose.len(), "bind pose"),
                Chunk::AlphaSequences(c) => (c.sequences.len(), "sequence"),
                Chunk::AlphaMaterials(c) => (c.materials.len(), "material"),
                Chunk::AlphaTextureAnimations(c) => (c.texture_anims.len(), "texture animation"),
                Chunk::AlphaGeosets(c) => (c.geosets.len(), "geoset"),
                Chunk::AlphaBatchedGeosets(c) => (c.geosets.len(), "geoset"),
                Chunk::AlphaGeosetAnimations(c) => (c.geoset_anims.len(), "geoset animation"),
                Chunk::AlphaBones(c) => (c.bones.len(), "bone"),
                Chunk::AlphaLights(c) => (c.lights.len(), "light"),
                Chunk::AlphaHelpers(c) => (c.helpers.len(), "helper"),
                Chunk::AlphaAttachments(c) => (c.attachments.len(), "attachment"),
                Chunk::AlphaParticleEmitters(c) => (c.emitters.len(), "particle emitter"),
                Chunk::AlphaParticleEmitters2(c) => (c.emitters.len(), "type-2 particle emitter"),
                Chunk::AlphaRibbonEmitters(c) => (c.emitters.len(), "ribbon emitter"),
                Chunk::AlphaCameras(c) => (c.cameras.len(), "camera"),
                Chunk::AlphaEvents(c) => (c.events.len(), "event object"),
                Chunk::AlphaHitTestShapes(c) => (c.hit_test_shapes.len(), "hit test shape"),
                Chunk::AlphaCollision(c) => (c.tri_indices.len() / 3, "collision triangle"),
            };
            let count = if what.is_empty() {
                String::new()
            } else {
                crate::plural(count, what)
            };
            (chunk.tag().to_string(), count)
        })
        .collect()
}

fn mdx_summary(out: &mut String, model: &Model) {
    let name = match (model.model_chunk(), model.alpha_model_chunk()) {
        (Some(modl), _) => Some(modl.name.to_string_lossy()),
        (_, Some(modl)) => Some(modl.name.to_string_lossy()),
        _ => None,
    };
    if let Some(name) = name {
        let _ = writeln!(out, "name: {name}");
    }
    // (geosets, vertices, triangles) of the Warcraft III / Reforged or the
    // WoW alpha layouts (v1300/1400 geosets, v1500 batches).
    let wc3 = model.geosets();
    let alpha = model.alpha_geosets();
    let batched = model.chunks.iter().find_map(|c| match c {
        Chunk::AlphaBatchedGeosets(c) => Some(c),
        _ => None,
    });
    let (count, vertices, triangles) = if let Some(b) = batched {
        let vertices: usize = b.batches.iter().map(|b| b.vertices.len()).sum();
        let triangles: usize = b.batches.iter().map(|b| b.triangle_count()).sum();
        (b.geosets.len(), vertices, triangles)
    } else if !alpha.is_empty() {
        let vertices: usize = alpha.iter().map(|g| g.vertices.len()).sum();
        let triangles: usize = alpha.iter().map(|g| g.triangle_count()).sum();
        (alpha.len(), vertices, triangles)
    } else {
        let vertices: usize = wc3.iter().map(|g| g.vertex_count()).sum();
        let triangles = wc3.iter().map(|g| g.triangle_count()).sum();
        (wc3.len(), vertices, triangles)
    };
    let vertices = if vertices == 1 {
        "1 vertex".to_string()
    } else {
        format!("{vertices} vertices")
    };
    let _ = writeln!(
        out,
        "geometry: {}, {vertices}, {}",
        crate::plural(count, "geoset"),
        crate::plural(triangles, "triangle")
    );
    let sequences: Vec<(std::borrow::Cow<str>, [u32; 2], u32)> = model
        .sequences()
        .iter()
        .map(|s| (s.name.to_string_lossy(), s.interval, s.flags))
        .chain(
            model
                .alpha_sequences()
                .iter()
                .map(|s| (s.name.to_string_lossy(), s.time, s.flags)),
        )
        .collect();
    let _ = writeln!(out, "animations: {}", sequences.len());
    for (name, interval, flags) in sequences {
        let [start, end] = interval;
        let looping = if flags & 1 == 0 {
            "looping"
        } else {
            "non looping"
        };
        let _ = writeln!(
            out,
            "  {name:<24} {start:>7} .. {end:<7} {:>6} ms, {looping}",
            i64::from(end) - i64::from(start)
        );
    }
    let globals = model.global_sequences();
    if !globals.is_empty() {
        let _ = writeln!(out, "global sequences (ms): {globals:?}");
    }
}

fn names(out: &mut String, title: &str, names: &[String]) {
    let _ = writeln!(out, "{title}: {}", names.len());
    for n in names {
        let _ = writeln!(out, "  {n}");
    }
}

fn adt_summary(out: &mut String, adt: &Adt) {
    names(
        out,
        "textures",
        &adt.mtex().map(|n| n.names()).unwrap_or_default(),
    );
    let models = adt.mmdx().map(|n| n.names()).unwrap_or_default();
    let doodads = adt.mddf().map_or(0, |m| m.doodad_defs.len());
    names(out, &format!("doodads: {doodads} placed, models"), &models);
    let wmos = adt.mwmo().map(|n| n.names()).unwrap_or_default();
    let objects = adt.modf().map_or(0, |m| m.map_obj_defs.len());
    names(
        out,
        &format!("map objects: {objects} placed, models"),
        &wmos,
    );
    let mcnks: Vec<_> = adt.mcnks().collect();
    let (mut mh2o_chunks, mut instances) = (0, 0);
    if let Some(mh2o) = adt.mh2o() {
        for chunk in &mh2o.chunks {
            mh2o_chunks += usize::from(!chunk.instances.is_empty());
            instances += chunk.instances.len();
        }
    }
    let mclq = mcnks
        .iter()
        .filter(|m| m.liquid().is_some_and(|l| !l.layers.is_empty()))
        .count();
    let _ = writeln!(
        out,
        "liquids: MH2O {instances} instances in {mh2o_chunks} map chunks; MCLQ in {mclq} map chunks"
    );
    let low = mcnks
        .iter()
        .filter(|m| !m.has_flags(mcnk_flags::HIGH_RES_HOLES) && m.holes_low_res != 0)
        .count();
    let high = mcnks
        .iter()
        .filter(|m| m.holes_high_res.is_some_and(|h| h != 0))
        .count();
    let _ = writeln!(
        out,
        "holes: {} of {} map chunks ({low} low-res, {high} high-res)",
        low + high,
        mcnks.len()
    );
    let (mut layers, mut alpha, mut compressed) = (0, 0, 0);
    for layer in mcnks
        .iter()
        .filter_map(|m| m.layers())
        .flat_map(|l| &l.layers)
    {
        layers += 1;
        if layer.flags & layer_flags::USE_ALPHA_MAP != 0 {
            alpha += 1;
            compressed += usize::from(layer.flags & layer_flags::ALPHA_MAP_COMPRESSED != 0);
        }
    }
    let uncompressed = alpha - compressed;
    // The bit depth is in the map's WDT; the tile's MCAL sizes tell it too.
    let bits = match formats::render::guess_mphd_flags(adt) {
        _ if uncompressed == 0 => "",
        0 => " (4-bit, from their size)",
        _ => " (8-bit, from their size)",
    };
    let _ = writeln!(
        out,
        "alpha maps: {layers} texture layers, {alpha} with alpha maps: {compressed} compressed, \
         {uncompressed} uncompressed{bits}"
    );
}

fn wdt_summary(out: &mut String, wdt: &Wdt) {
    let _ = writeln!(out, "kind: {:?}", wdt.kind());
    if wdt.mphd().is_some() {
        let _ = writeln!(out, "MPHD flags: {:#x}", wdt.mphd_flags());
    }
    if let Some(main) = wdt.main() {
        let _ = writeln!(out, "tiles: {}", main.tile_count());
    }
}

/// `formats info [FILE]`.
pub fn run(file: Option<&std::path::Path>) -> Result<std::process::ExitCode, String> {
    let (name, kind, data) = match file {
        Some(path) => {
            let (kind, data) = crate::kind::open(path)?;
            (path.display().to_string(), kind, data)
        }
        None => (
            "built-in sample".to_string(),
            Kind::Mdx,
            formats::sample::sample_mdx(),
        ),
    };
    let loaded = crate::kind::read(kind, &data).map_err(|e| format!("{name}: {e}"))?;
    crate::print_out(&report(&name, kind, &data, &loaded))?;
    Ok(std::process::ExitCode::SUCCESS)
}
