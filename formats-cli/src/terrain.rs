//! `formats render` for many tiles: a map's WDT (its tiles found beside it)
//! or several tiles, on all cores with a progress bar. Heightmaps share one
//! height range, and neighbours share their edges' heights (the southern or
//! eastern tile's, see [`Seams`]), so that they match at their seams to the
//! bit; a stitched overview shows the whole map; splat maps come with a
//! manifest per tile.
//!
//! Memory stays at a few tiles at a time, the overview's thumbnails and the
//! tiles' edges (about 4 KB a tile): the first pass reads every tile for its
//! range, edges, thumbnail and splat maps; the second reads each again and
//! writes its heightmaps with the edges shared.
//!
//! What is checked on the way (a map folder's companion WDTs, tiles named
//! or placed twice, clamped ranges, ...) is in [`checks`].

pub mod checks;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::adt::Adt;
use formats::render::{self, Color, Image};
use formats::terrain::{
    HeightRange, Heightmap, Seams, Stitched, TerrainTile, TileCoord, TileEdges, TileSplat,
    locate_tiles, with_split_parts,
};
use formats::wdt::Wdt;
use serde::Serialize;

use crate::kind::{self, Document, Kind};
use checks::Clamped;

/// One tile to draw.
pub struct TileInput {
    /// The ADT file.
    pub path: PathBuf,
    /// The name its outputs take (the file's stem).
    pub stem: String,
}

/// What to draw, and where.
pub struct Job {
    /// The tiles found.
    pub tiles: Vec<TileInput>,
    /// Tiles the WDT lists that are not there (file names).
    pub missing: Vec<String>,
    /// The map's `MPHD` flags, if a WDT gave them (otherwise guessed per tile).
    pub mphd_flags: Option<u32>,
    /// Heightmap folder.
    pub heightmap: Option<PathBuf>,
    /// Splat map folder.
    pub splat: Option<PathBuf>,
    /// The height range asked for (otherwise the tiles' common one).
    pub range: Option<HeightRange>,
    /// The longest side of the stitched overview, in pixels.
    pub overview_size: usize,
}

/// The tiles of the map whose WDT is `wdt_path` (an error if none is
/// beside it), those missing, and its `MPHD` flags.
pub fn map_tiles(wdt_path: &Path) -> Result<(Vec<TileInput>, Vec<String>, u32), String> {
    let bytes = std::fs::read(wdt_path).map_err(|e| format!("{}: {e}", wdt_path.display()))?;
    let wdt = Wdt::from_bytes(&bytes).map_err(|e| format!("{}: {e}", wdt_path.display()))?;
    let listed =
        locate_tiles(wdt_path, &wdt).map_err(|e| format!("{}: {e}", wdt_path.display()))?;
    if listed.is_empty() {
        return Err(format!("{}: MAIN lists no tiles", wdt_path.display()));
    }
    let (mut tiles, mut missing) = (Vec::new(), Vec::new());
    for tile in listed {
        match tile.path {
            Some(path) => tiles.push(TileInput {
                stem: crate::file_stem(&path, "tile"),
                path,
            }),
            None => missing.push(tile.file_name),
        }
    }
    if tiles.is_empty() {
        return Err(format!(
            "{}: none of the {} tiles the WDT lists is beside it",
            wdt_path.display(),
            missing.len()
        ));
    }
    Ok((tiles, missing, wdt.mphd_flags()))
}

/// The files `render` was given, each folder replaced by the tiles and
/// maps in it (the WDTs beside a map's that are not maps' left out, see
/// [`checks::without_companions`]); more than one map is refused: one
/// height range and one overview cover one map. A map's WDT is read later,
/// once ([`map_tiles`], then [`only_tiles_of`]).
pub fn expand_folders(files: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let found = crate::batch::collect(files, "tiles or maps (.adt, .wdt)", |kind| {
        matches!(kind, Kind::Adt | Kind::Wdt)
    })?;
    let found = checks::without_companions(found, files)?;
    let maps: Vec<&PathBuf> = found.iter().filter(|file| is_map(file)).collect();
    if let [first, second, ..] = maps[..] {
        return Err(format!(
            "{} maps given ({}, {}, ...): render one map at a time",
            maps.len(),
            first.display(),
            second.display()
        ));
    }
    Ok(found)
}

/// True if `path` names a map's WDT.
pub fn is_map(path: &Path) -> bool {
    Kind::of_path(path) == Some(Kind::Wdt)
}

/// `Ok` if every file given besides the map's WDT is one of its `tiles` (a
/// map given with its own tiles, or the folder it is in, is the map alone);
/// a tile of another map is refused.
pub fn only_tiles_of(map: &Path, tiles: &[TileInput], files: &[PathBuf]) -> Result<(), String> {
    let listed: HashSet<PathBuf> = tiles
        .iter()
        .map(|tile| crate::batch::identity(&tile.path))
        .collect();
    match files
        .iter()
        .find(|file| *file != map && !listed.contains(&crate::batch::identity(file)))
    {
        Some(stray) => Err(format!(
            "{} is not one of the tiles of {}: render a map or tiles, not both",
            stray.display(),
            map.display()
        )),
        None => Ok(()),
    }
}

/// The tiles named on the command line (or found in the folders named),
/// each file once.
pub fn given_tiles(paths: &[PathBuf]) -> Vec<TileInput> {
    checks::each_once(
        paths
            .iter()
            .map(|path| TileInput {
                path: path.clone(),
                stem: crate::file_stem(path, "tile"),
            })
            .collect(),
    )
}

/// Writes `image` to `path` as PNG.
pub fn write_png(path: &Path, image: &Image) -> Result<(), String> {
    let png = image
        .to_png()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    crate::write_file(path, &png)
}

/// The `tEXt` keywords of a 16-bit heightmap PNG `render` writes for a
/// tile: the heights (yards, as decimal text) drawn as 0 and as 65535.
pub const RANGE_KEYWORDS: [&str; 2] = ["height_min", "height_max"];

/// Writes the 16-bit heightmap `image`, drawn at `range`, to `path` as PNG
/// with the range in `tEXt` chunks ([`RANGE_KEYWORDS`]), so that the file
/// alone says which heights its levels are.
pub fn write_heightmap_png(path: &Path, image: &Image, range: HeightRange) -> Result<(), String> {
    let fail = |e: png::EncodingError| format!("{}: PNG encoding: {e}", path.display());
    let too_big = |_| format!("{}: image too large for PNG", path.display());
    let width = u32::try_from(image.width).map_err(too_big)?;
    let height = u32::try_from(image.height).map_err(too_big)?;
    if image.color != Color::Gray16 {
        return Err(format!("{}: not a 16-bit heightmap", path.display()));
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Sixteen);
    encoder.set_compression(png::Compression::Fast);
    for (keyword, value) in RANGE_KEYWORDS.iter().zip([range.min, range.max]) {
        encoder
            .add_text_chunk(keyword.to_string(), value.to_string())
            .map_err(fail)?;
    }
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&image.data).map_err(fail)?;
    writer.finish().map_err(fail)?;
    crate::write_file(path, &bytes)
}

/// Writes `value` to `path` as indented JSON.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<(), String> {
    let text =
        serde_json::to_string_pretty(value).map_err(|e| format!("{}: {e}", path.display()))?;
    crate::write_file(path, text.as_bytes())
}

/// What a map's overview needs of one tile (not its full heightmap: a map
/// has up to 4096 tiles of 257 x 257 samples).
pub struct TileHeights {
    /// Where the tile is.
    pub coord: TileCoord,
    /// Its lowest and highest height.
    pub range: Option<HeightRange>,
    /// Its heightmap's [thumbnail](Heightmap::thumbnail), every
    /// [`Stitched::thumbnail_step`]-th sample.
    pub thumbnail: Heightmap,
}

impl TileHeights {
    /// What the overview keeps of the tile at `coord` whose heights are `full`.
    pub fn new(coord: TileCoord, full: &Heightmap, thumbnail_step: usize) -> TileHeights {
        TileHeights {
            coord,
            range: full.range(),
            thumbnail: full.thumbnail(thumbnail_step),
        }
    }

    /// The range spanning every tile's (`None` if none has a height).
    pub fn common_range<'a>(
        tiles: impl IntoIterator<Item = &'a TileHeights>,
    ) -> Option<HeightRange> {
        tiles
            .into_iter()
            .filter_map(|t| t.range)
            .reduce(HeightRange::union)
    }
}

/// A tile read: its heights for the range and the overview, its edges for
/// its neighbours, and where to read it again for the second pass.
struct Loaded {
    stem: String,
    path: PathBuf,
    heights: TileHeights,
    /// `None` when no heightmap is drawn (or the tile's is not full size).
    edges: Option<TileEdges>,
    /// What the user should know about the tile (chunks without heights,
    /// a file name that names another tile).
    warnings: Vec<String>,
}

/// For a line about a tile: the split files read with it (` (with
/// X_tex0.adt, X_obj0.adt)`), nothing for a tile in one file.
pub fn merged_parts(parts: &[PathBuf]) -> String {
    if parts.is_empty() {
        return String::new();
    }
    let names: Vec<String> = parts.iter().map(|p| crate::file_name(p)).collect();
    format!(" (with {})", names.join(", "))
}

/// The error for a part of a split tile (`_tex0.adt`, `_obj0.adt`, ...)
/// given where a tile is wanted: its root file is.
pub fn not_a_root(path: &Path) -> String {
    format!(
        "{}: a part of a split tile, not a tile: give its root file (Map_x_y.adt), \
         whose _tex0 and _obj0 files are read from beside it",
        path.display()
    )
}

/// A tile's bytes, read strictly or, where the strict reader refuses them
/// (a tile cut short, a damaged chunk), leniently with the note that says
/// so: as every command reads a tile, so that a tile `render --heightmap`
/// draws also exports and gives splat maps.
pub fn read_adt(name: &str, bytes: &[u8]) -> Result<(Adt, Option<String>), String> {
    let loaded = kind::read(Kind::Adt, bytes).map_err(|e| format!("{name}: {e}"))?;
    let note = loaded.lenient_note(name);
    match loaded.document {
        Document::Adt(adt) => Ok((adt, note)),
        _ => Err(format!("{name}: not read as a tile")),
    }
}

/// `error`, about a tile read leniently, with the `note` that says so
/// ([`read_adt`]): where the strict reader found the file damaged (a tile
/// cut before its first MCNK "has no MCNK" because it is cut).
pub fn with_note(error: String, note: Option<&str>) -> String {
    match note {
        Some(note) => format!("{error}; {note}"),
        None => error,
    }
}

/// The tile at `path`, its full heightmap, and the note if it was read
/// leniently ([`read_adt`]).
fn read_tile(path: &Path) -> Result<(Adt, TerrainTile, Heightmap, Option<String>), String> {
    if Kind::of_path(path) == Some(Kind::AdtSplit) {
        return Err(not_a_root(path));
    }
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let (adt, note) = read_adt(&name, &bytes)?;
    let terrain = TerrainTile::from_adt(&adt)
        .map_err(|e| with_note(format!("{name}: {e}"), note.as_deref()))?;
    let heights = Heightmap::from_tile(&terrain);
    Ok((adt, terrain, heights, note))
}

/// The warnings about the tile at `path`: chunks without heights, chunks
/// off the grid, a file name that names another tile than its chunks'
/// positions.
pub fn tile_warnings(path: &Path, adt: &Adt, terrain: &TerrainTile) -> Vec<String> {
    let name = path.display().to_string();
    [
        checks::chunks_without_heights(&name, adt, terrain, "NaN in the TIFF, black in the PNG"),
        checks::misplaced_chunks(&name, terrain),
        checks::misnamed(path, terrain.coord),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Writes a tile's heightmap as 32-bit float TIFF and as 16-bit PNG at
/// `range` (the range in its text chunks, see [`write_heightmap_png`]).
fn write_heightmap(
    folder: &Path,
    stem: &str,
    heights: &Heightmap,
    range: HeightRange,
) -> Result<(), String> {
    let side = heights.side;
    let tiff =
        render::float_tiff(side, side, &heights.heights).map_err(|e| format!("{stem}: {e}"))?;
    crate::write_file(&folder.join(format!("{stem}.tif")), &tiff)?;
    write_heightmap_png(
        &folder.join(format!("{stem}.png")),
        &render::heightmap_image(heights, range),
        range,
    )
}

/// Reads one tile; writes its splat maps; keeps what the heightmaps need of
/// it before every tile is read (its range, thumbnail and edges).
fn load(tile: &TileInput, job: &Job, thumbnail_step: usize) -> Result<Loaded, String> {
    let name = tile.path.display();
    let (adt, terrain, heights, lenient) = read_tile(&tile.path)?;
    let warnings = lenient
        .into_iter()
        .chain(tile_warnings(&tile.path, &adt, &terrain))
        .collect();
    if let Some(folder) = &job.splat {
        // A split tile's textures and alpha maps are in its `_tex0`.
        let (adt, _) = with_split_parts(adt, &tile.path).map_err(|e| format!("{name}: {e}"))?;
        let flags = job
            .mphd_flags
            .unwrap_or_else(|| render::guess_mphd_flags(&adt));
        let splat = TileSplat::from_adt(&adt, flags).map_err(|e| format!("{name}: {e}"))?;
        let mut maps = vec![None];
        for (layer, values) in splat.maps.iter().enumerate().skip(1) {
            let file = format!("{}_layer{layer}.png", tile.stem);
            write_png(&folder.join(&file), &render::splat_image(values))?;
            maps.push(Some(file));
        }
        maps.truncate(splat.maps.len());
        write_json(
            &folder.join(format!("{}_splat.json", tile.stem)),
            &SplatIndex {
                manifest: &splat.manifest,
                maps,
            },
        )?;
    }
    // The heightmaps wait for the second pass: a tile's edges are its
    // neighbours' where they own them, and those may not be read yet.
    let edges = job
        .heightmap
        .as_ref()
        .and_then(|_| TileEdges::new(terrain.coord, &heights));
    Ok(Loaded {
        stem: tile.stem.clone(),
        path: tile.path.clone(),
        heights: TileHeights::new(terrain.coord, &heights, thumbnail_step),
        edges,
        warnings,
    })
}

/// A tile's `_splat.json`: the library's manifest, and which file holds
/// each layer index's splat map.
#[derive(Serialize)]
struct SplatIndex<'a> {
    #[serde(flatten)]
    manifest: &'a formats::terrain::SplatManifest,
    /// One entry per layer index (`layer_count` of them): the PNG beside
    /// the manifest, `null` for layer 0 (the base texture, no alpha map).
    maps: Vec<Option<String>>,
}

/// A tile that could not be drawn, for a JSON index: its file name and why.
#[derive(Serialize)]
pub struct FailedTile {
    /// The tile's file name.
    pub file: String,
    /// The error.
    pub error: String,
}

/// What `heightmap.json` says about the images.
#[derive(Serialize)]
struct HeightmapIndex<'a> {
    /// The heights (yards) drawn as 0 and 65535 in the PNGs.
    range: HeightRange,
    /// Yards between neighbouring samples of a tile image.
    yards_per_sample: f64,
    /// Samples per tile side (neighbours share their edge samples).
    tile_side: usize,
    tiles: Vec<IndexedTile>,
    /// Tiles the WDT lists that are not there (file names).
    missing: &'a [String],
    /// Tiles given or found that could not be read (no image of them).
    failed: &'a [FailedTile],
    overview: Option<Overview>,
}

#[derive(Serialize)]
struct IndexedTile {
    x: u32,
    y: u32,
    png: String,
    tiff: String,
}

/// A stitched overview as written, for a JSON index.
#[derive(Serialize)]
pub struct Overview {
    png: String,
    tiff: String,
    first_tile: TileCoord,
    width: usize,
    height: usize,
    tile_samples_per_pixel: usize,
}

/// The stitched overview of `tiles` at `range`, at most `size` pixels on its
/// longest side, written to `folder` as `{stem}.png` (16-bit) and
/// `{stem}.tif` (32-bit float heights); `None` without a tile, an error if
/// even its coarsest is larger than `size` ([`checks::overview_fits`]).
pub fn write_overview(
    folder: &Path,
    stem: &str,
    tiles: &[&TileHeights],
    range: HeightRange,
    size: usize,
) -> Result<Option<Overview>, String> {
    let pairs: Vec<(TileCoord, &Heightmap)> =
        tiles.iter().map(|t| (t.coord, &t.thumbnail)).collect();
    let coords: Vec<_> = tiles.iter().map(|t| t.coord).collect();
    checks::overview_fits(&coords, size)?;
    let Some(map) = Stitched::new(&pairs, Stitched::step_for(&coords, size)) else {
        return Ok(None);
    };
    let (png, tiff) = (format!("{stem}.png"), format!("{stem}.tif"));
    write_heightmap_png(
        &folder.join(&png),
        &render::stitched_image(&map, range),
        range,
    )?;
    let bytes = render::float_tiff(map.width, map.height, &map.heights)
        .map_err(|e| format!("{stem}: {e}"))?;
    crate::write_file(&folder.join(&tiff), &bytes)?;
    Ok(Some(Overview {
        png,
        tiff,
        first_tile: map.first,
        width: map.width,
        height: map.height,
        tile_samples_per_pixel: map.step,
    }))
}

/// What is refused before anything is drawn: two tiles whose outputs would
/// have one name. Tiles of several maps are drawn, with a warning.
fn check_job(job: &Job) -> Result<(), String> {
    if let Some(folder) = job.heightmap.as_ref().or(job.splat.as_ref()) {
        checks::distinct_names(&job.tiles, folder)?;
    }
    if job.heightmap.is_some()
        && let Some(warning) = checks::several_maps(&job.tiles)
    {
        eprintln!("warning: {warning}");
    }
    Ok(())
}

/// The first pass over the job's tiles: those read (row by row), and those
/// that could not be, each error said on stderr.
fn load_all(job: &Job, thumbnail_step: usize) -> (Vec<Loaded>, Vec<FailedTile>) {
    let results = crate::batch::run(&job.tiles, |tile| load(tile, job, thumbnail_step));
    let (mut loaded, mut failed) = (Vec::new(), Vec::new());
    for (tile, result) in job.tiles.iter().zip(results) {
        match result {
            Ok(tile) => loaded.push(tile),
            Err(error) => {
                eprintln!("error: {error}");
                failed.push(FailedTile {
                    file: crate::file_name(&tile.path),
                    error,
                });
            }
        }
    }
    for warning in loaded.iter().flat_map(|t| &t.warnings) {
        eprintln!("warning: {warning}");
    }
    loaded.sort_by_key(|t| (t.heights.coord.y, t.heights.coord.x));
    (loaded, failed)
}

/// Draws the job; the exit code is 1 if any tile could not be read.
pub fn run(job: &Job) -> Result<ExitCode, String> {
    check_job(job)?;
    for folder in [&job.heightmap, &job.splat].into_iter().flatten() {
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    let thumbnail_step = Stitched::thumbnail_step(job.tiles.len(), job.overview_size);
    let (mut loaded, failed) = load_all(job, thumbnail_step);
    if !job.missing.is_empty() {
        eprintln!(
            "{} of {} tiles the WDT lists are missing: {}",
            job.missing.len(),
            job.missing.len() + job.tiles.len(),
            job.missing.join(", ")
        );
    }
    if let Some(folder) = &job.heightmap {
        write_heightmaps(folder, job, &mut loaded, &failed)?;
    }
    if let Some(folder) = job.splat.as_ref().filter(|_| !loaded.is_empty()) {
        eprintln!(
            "wrote splat maps and manifests of {} to {}",
            crate::plural(loaded.len(), "tile"),
            folder.display()
        );
    }
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The tiles' heightmaps (each read a second time, its edges shared with
/// the others') at one range, the stitched overview and `heightmap.json`;
/// refused before any is written if two files are one tile or the overview
/// cannot fit its size.
fn write_heightmaps(
    folder: &Path,
    job: &Job,
    loaded: &mut [Loaded],
    failed: &[FailedTile],
) -> Result<(), String> {
    checks::one_file_per_tile(loaded.iter().map(|t| (t.path.as_path(), t.heights.coord)))?;
    let coords: Vec<TileCoord> = loaded.iter().map(|t| t.heights.coord).collect();
    checks::overview_fits(&coords, job.overview_size)?;
    let range = match job.range {
        Some(range) => range,
        None => TileHeights::common_range(loaded.iter().map(|t| &t.heights))
            .ok_or("no tile has heights to draw")?,
    };
    let seams = Seams::new(loaded.iter_mut().filter_map(|t| t.edges.take()));
    let drawn: Vec<Result<(usize, Clamped), String>> = crate::batch::run(loaded, |tile| {
        let (_, _, mut heights, _) = read_tile(&tile.path)?;
        let shared = seams.share(tile.heights.coord, &mut heights);
        write_heightmap(folder, &tile.stem, &heights, range)?;
        Ok((shared, Clamped::count(&heights.heights, range)))
    });
    let (mut shared, mut clamped) = (0, Clamped::default());
    for result in drawn {
        let (s, c) = result?;
        shared += s;
        clamped = clamped.add(c);
    }
    if let Some(warning) = job.range.and_then(|range| clamped.warning(range)) {
        eprintln!("warning: {warning}");
    }
    let tiles: Vec<&TileHeights> = loaded.iter().map(|t| &t.heights).collect();
    let overview = write_overview(folder, "overview", &tiles, range, job.overview_size)?;
    let index = HeightmapIndex {
        range,
        yards_per_sample: formats::terrain::UNIT_SIZE / 2.0,
        tile_side: formats::terrain::HEIGHTMAP_SIDE,
        tiles: loaded
            .iter()
            .map(|t| IndexedTile {
                x: t.heights.coord.x,
                y: t.heights.coord.y,
                png: format!("{}.png", t.stem),
                tiff: format!("{}.tif", t.stem),
            })
            .collect(),
        missing: &job.missing,
        failed,
        overview,
    };
    write_json(&folder.join("heightmap.json"), &index)?;
    eprintln!(
        "wrote {} (16-bit PNG at {}..{} yards, 32-bit float TIFF; {shared} edge \
         samples taken from the neighbour that owns them) and the overview to {}",
        crate::plural(loaded.len(), "heightmap"),
        range.min,
        range.max,
        folder.display()
    );
    Ok(())
}
