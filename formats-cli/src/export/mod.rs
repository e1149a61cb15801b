//! `formats export`: files out to glTF, the exporter chosen by the input's
//! kind (models: [`model`], tiles: [`tile`]). Several inputs, or a map's WDT
//! (its tiles found beside it), go into an output folder, in parallel, with a
//! progress bar. A map also gets, beside its tiles, the stitched heightmap
//! overview of the tiles found (`MAP_overview.png`, 16-bit, and `.tif`, the
//! heights as 32-bit floats) and `MAP.json`: the height range, each tile's
//! coordinates and file, the tiles missing, and the overview's layout.
//!
//! Tiles exported together (a map's, or several given) share their edges'
//! heights to the bit ([`Seams`]: the southern or eastern tile's): a first
//! pass reads every tile for its edges (about 4 KB each), the second
//! exports each with its neighbours' edges. A tile exported alone keeps its
//! own.

mod model;
mod tile;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::terrain::{HeightRange, Heightmap, Seams, Stitched, TerrainTile, TileEdges};
use serde::Serialize;

use crate::kind::{self, Kind};
use crate::terrain::TileHeights;

/// What every input is exported with.
pub struct Options {
    /// Folders to look for textures in (after the model's own folder).
    pub textures: Vec<PathBuf>,
    /// Only this sequence.
    pub sequence: Option<String>,
    /// No animations at all.
    pub no_animations: bool,
    /// The level of detail.
    pub lod: i32,
    /// Geosets shown and hidden by node visibility.
    pub geoset_visibility: bool,
    /// Geoset colour and alpha on materials of their own.
    pub material_colors: bool,
    /// Texture animations as moving texture transforms.
    pub texture_animations: bool,
    /// Lights' colour, intensity and visibility animated.
    pub light_animations: bool,
    /// Spline translations and scalings resampled as linear keys.
    pub resample_splines: bool,
    /// Into a folder: `.gltf` files (with `.bin` and images) instead of `.glb`.
    pub gltf: bool,
    /// The longest side of a map's overview, in pixels.
    pub overview_size: usize,
}

/// What one export wrote, as lines for the user.
pub struct Written {
    /// The summary line.
    pub line: String,
    /// Warnings (missing textures, geosets left out, ...).
    pub warnings: Vec<String>,
    /// A tile's heights, for its map's overview.
    pub heights: Option<TileHeights>,
}

/// A map given as its WDT: the tiles found beside it, those missing.
struct MapInput {
    /// The WDT's stem: what the overview and index are named after.
    name: String,
    tiles: Vec<PathBuf>,
    missing: Vec<String>,
}

/// `MAP.json`: where a map's exported tiles are, and its overview.
#[derive(Serialize)]
struct MapIndex<'a> {
    map: &'a str,
    /// The heights (yards) the overview's PNG draws as 0 and 65535.
    range: HeightRange,
    tiles: Vec<IndexedTile>,
    missing: &'a [String],
    /// Tiles found that could not be exported (file name and error).
    failed: Vec<crate::terrain::FailedTile>,
    overview: Option<crate::terrain::Overview>,
}

#[derive(Serialize)]
struct IndexedTile {
    x: u32,
    y: u32,
    file: String,
}

/// Exports one file to `output` (its extension, `.glb` or `.gltf`, says how);
/// a tile's heights are kept every `thumbnail_step` samples, and its edges
/// shared with the tiles of `seams` (`None`: a tile alone).
fn export_file(
    input: &Path,
    output: &Path,
    options: &Options,
    thumbnail_step: usize,
    seams: Option<&Seams>,
) -> Result<Written, String> {
    let (kind, data) = kind::open(input)?;
    match kind {
        Kind::Mdx | Kind::Mdl => model::export(input, kind, &data, output, options),
        Kind::Adt => tile::export(input, &data, output, thumbnail_step, seams),
        Kind::AdtSplit => Err(crate::terrain::not_a_root(input)),
        other => Err(format!(
            "{}: {} files have no glTF export (models: .mdx, .mdl; tiles: .adt; maps: .wdt)",
            input.display(),
            other.name()
        )),
    }
}

/// Whether `output` is a `.gltf` (JSON, with its buffer and images beside
/// it) rather than a `.glb`.
pub fn is_gltf(output: &Path) -> bool {
    output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"))
}

/// Writes `document` to `output`: one `.glb`, or a `.gltf` with its `.bin`
/// and images beside it (by the extension). Gives `output` for messages.
pub fn write_document(document: &formats::gltf::Document, output: &Path) -> Result<String, String> {
    let out = output.display().to_string();
    if is_gltf(output) {
        let formats::gltf::GltfFiles { json, files } = document
            .to_gltf(&crate::file_stem(output, "export"))
            .map_err(|e| format!("{out}: {e}"))?;
        let folder = output.parent().unwrap_or(Path::new("."));
        for (file, bytes) in files {
            let path = folder.join(file);
            crate::write_file(&path, &bytes)?;
        }
        crate::write_file(output, &json)?;
    } else {
        let glb = document.to_glb().map_err(|e| format!("{out}: {e}"))?;
        crate::write_file(output, &glb)?;
    }
    Ok(out)
}

/// The inputs with every map's WDT replaced by the tiles found beside it
/// (a tile also given on its own, or found in a folder, goes with its map
/// and is not exported twice), and the maps; the tiles a WDT lists that are
/// missing are reported on stderr.
fn expand_maps(inputs: &[PathBuf]) -> Result<(Vec<PathBuf>, Vec<MapInput>), String> {
    let mut maps = Vec::new();
    for input in inputs {
        if Kind::of_path(input) != Some(Kind::Wdt) {
            continue;
        }
        let (tiles, missing, _) = crate::terrain::map_tiles(input)?;
        if !missing.is_empty() {
            eprintln!(
                "{}: {} of {} tiles the WDT lists are missing: {}",
                input.display(),
                missing.len(),
                missing.len() + tiles.len(),
                missing.join(", ")
            );
        }
        maps.push(MapInput {
            name: crate::file_stem(input, "map"),
            tiles: tiles.into_iter().map(|t| t.path).collect(),
            missing,
        });
    }
    let of_a_map: HashSet<PathBuf> = maps
        .iter()
        .flat_map(|map| map.tiles.iter().map(|tile| crate::batch::identity(tile)))
        .collect();
    let mut maps_left = maps.iter();
    let mut files = Vec::new();
    for input in inputs {
        if Kind::of_path(input) == Some(Kind::Wdt) {
            files.extend(maps_left.next().into_iter().flat_map(|m| m.tiles.clone()));
        } else if !of_a_map.contains(&crate::batch::identity(input)) {
            files.push(input.clone());
        }
    }
    Ok((files, maps))
}

/// Writes `map`'s overview and index into `folder`, from the tiles exported
/// (`written`: each input with the output it went to and its heightmap) and
/// those that failed (`failed`: each input with its error).
fn write_map(
    folder: &Path,
    map: &MapInput,
    written: &[(&Path, &Path, &TileHeights)],
    failed: &[(&Path, &str)],
    overview_size: usize,
) -> Result<(), String> {
    let tiles: Vec<_> = written
        .iter()
        .filter(|(input, _, _)| map.tiles.iter().any(|t| t == input))
        .collect();
    let heights: Vec<&TileHeights> = tiles.iter().map(|(_, _, h)| *h).collect();
    let Some(range) = TileHeights::common_range(heights.iter().copied()) else {
        return Err(format!("{}: no tile has heights for an overview", map.name));
    };
    let stem = format!("{}_overview", map.name);
    let overview = crate::terrain::write_overview(folder, &stem, &heights, range, overview_size)?;
    let mut indexed: Vec<IndexedTile> = tiles
        .iter()
        .map(|(_, out, h)| IndexedTile {
            x: h.coord.x,
            y: h.coord.y,
            file: crate::file_name(out),
        })
        .collect();
    indexed.sort_by_key(|t| (t.y, t.x));
    let failed = failed
        .iter()
        .filter(|(input, _)| map.tiles.iter().any(|t| t == input))
        .map(|(input, error)| crate::terrain::FailedTile {
            file: crate::file_name(input),
            error: error.to_string(),
        })
        .collect();
    let index = MapIndex {
        map: &map.name,
        range,
        tiles: indexed,
        missing: &map.missing,
        failed,
        overview,
    };
    let path = folder.join(format!("{}.json", map.name));
    crate::terrain::write_json(&path, &index)?;
    eprintln!(
        "{}: overview of {} ({}..{} yards) and index in {}",
        map.name,
        crate::plural(heights.len(), "tile"),
        range.min,
        range.max,
        path.display()
    );
    Ok(())
}

/// The edges of the tile at `input` (`None` for a file that is not a tile,
/// or that cannot be read: its export says why), read as its export reads
/// it (leniently where the strict reader refuses it): a damaged tile that
/// exports gives its neighbours the edges it owns, as `render` does.
fn tile_edges(input: &Path) -> Option<TileEdges> {
    let (kind, data) = kind::open(input).ok()?;
    if kind != Kind::Adt {
        return None;
    }
    let (adt, _) = crate::terrain::read_adt(&input.display().to_string(), &data).ok()?;
    let terrain = TerrainTile::from_adt(&adt).ok()?;
    TileEdges::new(terrain.coord, &Heightmap::from_tile(&terrain))
}

/// Which set of tiles exported together each input is in (`None`: not a
/// tile, or a tile alone), and each set's edges. A map's tiles are a set;
/// the tiles given outside a map are one more, as `render` takes them. The
/// first pass over the tiles: each is read for its edges only. An error if
/// two files of a set are one tile (by their chunks' positions), as `render`
/// refuses them: both would claim its place in the map and at its seams.
fn seam_sets(
    inputs: &[&Path],
    maps: &[MapInput],
) -> Result<(Vec<Option<usize>>, Vec<Seams>), String> {
    let loose = maps.len();
    let map_of: HashMap<&Path, usize> = maps
        .iter()
        .enumerate()
        .flat_map(|(i, map)| map.tiles.iter().map(move |t| (t.as_path(), i)))
        .collect();
    let set_of: Vec<Option<usize>> = inputs
        .iter()
        .map(|input| match map_of.get(input) {
            Some(map) => Some(*map),
            // By name: a model is not read to find it is not a tile.
            None => Kind::of_path(input)
                .is_none_or(|k| k == Kind::Adt)
                .then_some(loose),
        })
        .collect();
    let mut sizes = vec![0; loose + 1];
    for set in set_of.iter().flatten() {
        sizes[*set] += 1;
    }
    // A set of one tile has no seams: it is exported alone, unread here.
    let set_of: Vec<Option<usize>> = set_of
        .into_iter()
        .map(|set| set.filter(|s| sizes[*s] > 1))
        .collect();
    let pairs: Vec<(Option<usize>, &Path)> =
        set_of.iter().copied().zip(inputs.iter().copied()).collect();
    let edges = crate::batch::run(&pairs, |(set, input)| set.and_then(|_| tile_edges(input)));
    for set in 0..=loose {
        crate::terrain::checks::one_file_per_tile(
            pairs
                .iter()
                .zip(&edges)
                .filter(|((s, _), _)| *s == Some(set))
                .filter_map(|((_, input), edges)| Some((*input, edges.as_ref()?.coord))),
        )?;
    }
    let mut seams = vec![Seams::default(); loose + 1];
    for (set, edges) in set_of.iter().zip(edges) {
        if let (Some(set), Some(edges)) = (set, edges) {
            seams[*set].insert(edges);
        }
    }
    Ok((set_of, seams))
}

/// Whether `path` names a glTF file (`.glb` or `.gltf`).
fn is_gltf_file(path: &Path) -> bool {
    Kind::of_path(path) == Some(Kind::Gltf)
}

/// Refuses options that would be ignored: a `--textures` folder that is not
/// one (a typo would only show as textures not found), `--gltf` with one
/// `.glb` file out.
fn check_options(output: &Path, options: &Options) -> Result<(), String> {
    if let Some(missing) = options.textures.iter().find(|dir| !dir.is_dir()) {
        return Err(format!("--textures {}: no such folder", missing.display()));
    }
    let is_glb = output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    if options.gltf && is_glb {
        return Err(format!(
            "--gltf writes .gltf files into a folder, not into {}: for one file, name it .gltf",
            output.display()
        ));
    }
    Ok(())
}

/// `formats export IN... OUT`: one input to a `.glb`/`.gltf` file, or
/// inputs (a map's WDT: its tiles) into the folder `OUT`.
pub fn run(inputs: &[PathBuf], output: &Path, options: &Options) -> Result<ExitCode, String> {
    check_options(output, options)?;
    let found = crate::batch::collect(
        inputs,
        "models, tiles or maps (.mdx, .mdl, .adt, .wdt)",
        |kind| matches!(kind, Kind::Mdx | Kind::Mdl | Kind::Adt | Kind::Wdt),
    )?;
    // A map's folder may hold its `_lgt`, `_occ`, ... WDTs: not maps.
    let inputs = &crate::terrain::checks::without_companions(found, inputs)?;
    if is_gltf_file(output) && inputs.iter().any(|i| Kind::of_path(i) == Some(Kind::Wdt)) {
        return Err(format!(
            "a map's tiles go into a folder, not into {}",
            output.display()
        ));
    }
    let (files, maps) = expand_maps(inputs)?;
    let extension = if options.gltf { "gltf" } else { "glb" };
    let jobs = crate::batch::outputs(&files, output, is_gltf_file, |_| extension.into())?;
    // Fine enough for every map's overview (see `Stitched::thumbnail_step`).
    let thumbnail_step = maps
        .iter()
        .map(|map| Stitched::thumbnail_step(map.tiles.len(), options.overview_size))
        .min()
        .unwrap_or(256);
    let inputs: Vec<&Path> = jobs.iter().map(|(input, _)| input.as_path()).collect();
    let (set_of, seams) = seam_sets(&inputs, &maps)?;
    let work: Vec<_> = jobs.iter().zip(&set_of).collect();
    let results = crate::batch::run(&work, |((input, out), set)| {
        let seams = set.and_then(|s| seams.get(s));
        export_file(input, out, options, thumbnail_step, seams)
    });
    let mut failed = 0;
    let mut heights = Vec::new();
    let mut errors = Vec::new();
    for ((input, out), result) in jobs.iter().zip(&results) {
        match result {
            Ok(written) => {
                crate::print_out(&format!("{}\n", written.line))?;
                for warning in &written.warnings {
                    eprintln!("warning: {warning}");
                }
                if let Some(h) = &written.heights {
                    heights.push((input.as_path(), out.as_path(), h));
                }
            }
            Err(message) => {
                failed += 1;
                eprintln!("error: {message}");
                errors.push((input.as_path(), message.as_str()));
            }
        }
    }
    for map in &maps {
        if let Err(message) = write_map(output, map, &heights, &errors, options.overview_size) {
            failed += 1;
            eprintln!("error: {message}");
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
