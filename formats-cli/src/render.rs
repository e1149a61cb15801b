//! `formats render`: a tile's heightmap (16-bit PNG or 32-bit float TIFF),
//! alpha and splat maps, a whole map's heightmaps and overview (see
//! [`crate::terrain`]), or a model's wireframe, drawn by [`formats::render`].

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::anim::{Moment, Timeline};
use formats::render::Image;
use formats::terrain::{HeightRange, Heightmap, TerrainTile};

use crate::kind::{self, Document, Kind};
use crate::terrain::checks::{self, Clamped};
use crate::terrain::{self, Job};

/// The images asked for.
pub struct Outputs {
    /// ADT heightmap: a file for one tile, a folder for a map or several tiles.
    pub heightmap: Option<PathBuf>,
    /// The height range of 16-bit heightmaps.
    pub range: Option<HeightRange>,
    /// ADT splat maps and manifests: a folder.
    pub splat: Option<PathBuf>,
    /// ADT alpha maps.
    pub alpha: Option<PathBuf>,
    /// The WDT whose MPHD flags give the alpha maps' bit depth.
    pub wdt: Option<PathBuf>,
    /// MDX wireframe.
    pub wireframe: Option<PathBuf>,
    /// MDX: `SEQUENCE@MS`, the moment the wireframe is posed at.
    pub pose: Option<String>,
    /// Wireframe side in pixels.
    pub size: usize,
    /// The longest side of a map's stitched overview.
    pub overview_size: usize,
}

/// Writes `image` to `path` as PNG and says so.
fn save(image: &Image, path: &Path) -> Result<(), String> {
    terrain::write_png(path, image)?;
    eprintln!(
        "wrote {} ({}x{})",
        path.display(),
        image.width,
        image.height
    );
    Ok(())
}

/// The map's `MPHD` flags from `--wdt`, if given: a map's WDT, not one of
/// its companions (nor another file), whose flags would be wrong.
fn wdt_flags(out: &Outputs) -> Result<Option<u32>, String> {
    let Some(wdt) = &out.wdt else { return Ok(None) };
    let wdt = checks::map_wdt(wdt).map_err(|e| format!("--wdt: {e}"))?;
    Ok(Some(wdt.mphd_flags()))
}

/// An error unless `path` (the output of `option`) ends in one of
/// `accepted` (`.png`, ...): an image of another format would be PNG bytes
/// under its name.
fn image_name(option: &str, path: &Path, accepted: &[&str]) -> Result<(), String> {
    if accepted.contains(&checks::extension(path).as_str()) {
        return Ok(());
    }
    let names: Vec<String> = accepted.iter().map(|e| format!(".{e}")).collect();
    Err(format!(
        "{option} {}: the file name must end in {}",
        path.display(),
        names.join(", ")
    ))
}

/// For one file: each output named as an image of a format it is written in
/// (`--heightmap`: `.png` 16-bit or `.tif`/`.tiff` 32-bit float; `--alpha`,
/// `--wireframe`: `.png`), the splat maps' folder not named as an image.
fn check_file_outputs(out: &Outputs) -> Result<(), String> {
    if let Some(path) = &out.heightmap {
        image_name("--heightmap", path, &["png", "tif", "tiff"])
            .map_err(|e| format!("{e} (or give a folder, ending in /, for several tiles)"))?;
    }
    for (option, path) in [("--alpha", &out.alpha), ("--wireframe", &out.wireframe)] {
        if let Some(path) = path {
            image_name(option, path, &["png"])?;
        }
    }
    match &out.splat {
        Some(path) => checks::folder_output("--splat", path),
        None => Ok(()),
    }
}

/// For a map or several tiles: `--heightmap` and `--splat` are folders, not
/// named as image files.
fn check_folder_outputs(out: &Outputs) -> Result<(), String> {
    for (option, path) in [("--heightmap", &out.heightmap), ("--splat", &out.splat)] {
        if let Some(path) = path {
            checks::folder_output(option, path)?;
        }
    }
    Ok(())
}

/// True if `path` names a folder: one that exists, or ends with a separator.
fn is_folder(path: &Path) -> bool {
    path.is_dir() || path.to_string_lossy().ends_with(['/', '\\'])
}

/// A WDT, several tiles, or one tile drawn into folders: the heightmaps
/// into `heightmap` (`None`: none), the splat maps into `out.splat`.
fn run_map(
    files: &[PathBuf],
    out: &Outputs,
    heightmap: Option<PathBuf>,
) -> Result<ExitCode, String> {
    let (tiles, missing, mphd_flags) = match files.iter().find(|f| terrain::is_map(f)) {
        Some(map) => {
            let (tiles, missing, flags) = terrain::map_tiles(map)?;
            terrain::only_tiles_of(map, &tiles, files)?;
            (tiles, missing, Some(flags))
        }
        None => (terrain::given_tiles(files), Vec::new(), wdt_flags(out)?),
    };
    terrain::run(&Job {
        tiles,
        missing,
        mphd_flags,
        heightmap,
        splat: out.splat.clone(),
        range: out.range,
        overview_size: out.overview_size,
    })
}

/// One tile's heightmap into `path`: float TIFF for `.tif`/`.tiff`, 16-bit
/// PNG otherwise (at `--range`, or the tile's own, said in the file's text
/// chunks and on stderr), with a warning for chunks without heights, a file
/// name that names another tile, and samples `--range` clamps.
fn tile_heightmap(
    name: &str,
    adt: &formats::adt::Adt,
    path: &Path,
    out: &Outputs,
) -> Result<(), String> {
    let tile = TerrainTile::from_adt(adt).map_err(|e| format!("{name}: {e}"))?;
    for warning in terrain::tile_warnings(Path::new(name), adt, &tile) {
        eprintln!("warning: {warning}");
    }
    let map = Heightmap::from_tile(&tile);
    let side = map.side;
    if matches!(checks::extension(path).as_str(), "tif" | "tiff") {
        if let Some(range) = out.range {
            eprintln!(
                "warning: --range {}:{} is not used for {}: a 32-bit float TIFF holds the \
                 heights themselves (the range draws 16-bit PNGs)",
                range.min,
                range.max,
                path.display()
            );
        }
        let tiff = formats::render::float_tiff(side, side, &map.heights)
            .map_err(|e| format!("{name}: {e}"))?;
        crate::write_file(path, &tiff)?;
        eprintln!("wrote {} ({side}x{side} 32-bit float)", path.display());
        return Ok(());
    }
    let range = out
        .range
        .or_else(|| map.range())
        .ok_or_else(|| format!("{name}: the tile has no MCVT heights to draw"))?;
    if let Some(warning) = out
        .range
        .and_then(|range| Clamped::count(&map.heights, range).warning(range))
    {
        eprintln!("warning: {warning}");
    }
    let image = formats::render::heightmap_image(&map, range);
    terrain::write_heightmap_png(path, &image, range)?;
    eprintln!(
        "wrote {} ({side}x{side} 16-bit: 0 is {} yards, 65535 is {} yards; in its tEXt {} and {})",
        path.display(),
        range.min,
        range.max,
        terrain::RANGE_KEYWORDS[0],
        terrain::RANGE_KEYWORDS[1]
    );
    Ok(())
}

/// `formats render [FILE...] --heightmap/--splat/--alpha/--wireframe OUT`.
pub fn run(files: &[PathBuf], out: &Outputs) -> Result<ExitCode, String> {
    let files = &terrain::expand_folders(files)?[..];
    let folder_heightmap = out.heightmap.as_deref().is_some_and(is_folder);
    let map_input = files.iter().any(|f| terrain::is_map(f));
    if files.len() > 1 || map_input || (folder_heightmap && files.len() == 1) {
        for (option, what) in [
            (&out.wireframe, "--wireframe draws one model (.mdx, .mdl)"),
            (&out.alpha, "--alpha draws one tile"),
        ] {
            if option.is_some() {
                return Err(format!(
                    "{what} at a time; for a map or several tiles give --heightmap DIR and/or --splat DIR"
                ));
            }
        }
        if out.heightmap.is_none() && out.splat.is_none() {
            return Err("nothing to draw: give --heightmap DIR and/or --splat DIR".into());
        }
        check_folder_outputs(out)?;
        return run_map(files, out, out.heightmap.clone());
    }
    let (name, kind, data) = match files.first() {
        Some(path) => {
            let (kind, data) = kind::open(path)?;
            (path.display().to_string(), kind, data)
        }
        None => (
            "built-in sample".to_string(),
            Kind::Mdx,
            formats::sample::sample_mdx(),
        ),
    };
    if [&out.heightmap, &out.alpha, &out.wireframe, &out.splat]
        .iter()
        .all(|o| o.is_none())
    {
        return Err(
            "nothing to draw: give --heightmap, --alpha, --splat (ADT, WDT) or --wireframe (MDX)"
                .into(),
        );
    }
    check_file_outputs(out)?;
    let loaded = kind::read(kind, &data).map_err(|e| format!("{name}: {e}"))?;
    // With --splat, the tile is read again with the map's tiles, which say
    // so themselves.
    if let Some(note) = loaded.lenient_note(&name)
        && out.splat.is_none()
    {
        eprintln!("warning: {note}");
    }
    match &loaded.document {
        Document::Adt(adt) => {
            if out.wireframe.is_some() || out.pose.is_some() {
                return Err(format!("{name}: --wireframe draws models; this is a tile"));
            }
            if let Some(path) = &out.heightmap {
                tile_heightmap(&name, adt, path, out)?;
            }
            if let Some(path) = &out.alpha {
                // A split tile's alpha maps are in its `_tex0`.
                let (adt, _) = formats::terrain::with_split_parts(adt.clone(), Path::new(&name))
                    .map_err(|e| format!("{name}: {e}"))?;
                let flags = match wdt_flags(out)? {
                    Some(flags) => flags,
                    None => formats::render::guess_mphd_flags(&adt),
                };
                let image =
                    formats::render::alpha_maps(&adt, flags).map_err(|e| format!("{name}: {e}"))?;
                save(&image, path)?;
            }
            if out.splat.is_some() {
                // The heightmap, if asked for, is the file written above.
                return run_map(files, out, None);
            }
        }
        Document::Mdx(model) => {
            if out.heightmap.is_some() || out.alpha.is_some() || out.splat.is_some() {
                return Err(format!(
                    "{name}: --heightmap, --alpha and --splat draw tiles; this is a model"
                ));
            }
            if let Some(path) = &out.wireframe {
                if model.geosets().is_empty() && model.alpha_geosets().is_empty() {
                    let why = model
                        .cut_geosets()
                        .unwrap_or_else(|| "the model has no geosets".to_string());
                    eprintln!("warning: {name}: {why}: nothing to draw");
                }
                let image = match &out.pose {
                    Some(pose) => {
                        let moment = moment(model, pose).map_err(|e| format!("{name}: {e}"))?;
                        formats::render::posed_wireframe(model, moment, out.size)
                    }
                    None => formats::render::wireframe(model, out.size),
                };
                save(&image, path)?;
            }
        }
        Document::AdtSplit(_) => return Err(terrain::not_a_root(Path::new(&name))),
        _ => {
            return Err(format!(
                "{name}: render draws .adt tiles, .wdt maps and .mdx models"
            ));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The moment `SEQUENCE@MS` names: `MS` milliseconds into the sequence of
/// that name (the last `@` separates them, so names may hold one).
fn moment(model: &formats::mdx::Model, pose: &str) -> Result<Moment, String> {
    let (sequence, ms) = pose
        .rsplit_once('@')
        .ok_or_else(|| format!("--pose {pose:?}: expected SEQUENCE@MS, as Walk@500"))?;
    let ms: f64 = ms
        .trim()
        .parse()
        .ok()
        .filter(|ms: &f64| ms.is_finite() && *ms >= 0.0)
        .ok_or_else(|| format!("--pose {pose:?}: {ms:?} is not a time in milliseconds"))?;
    let timeline = Timeline::from_model(model);
    let index = timeline
        .sequence_named(sequence.trim())
        .map_err(|e| format!("--pose: {e}"))?;
    if let Some(s) = timeline.sequences.get(index)
        && ms > f64::from(s.duration())
    {
        let drawn = match s.looping {
            true => "it loops: drawn that far into its loop",
            false => "drawn at its end, as the game holds it",
        };
        eprintln!(
            "note: --pose {pose:?}: past the end of {:?} ({} ms); {drawn}",
            s.name,
            s.duration()
        );
    }
    timeline
        .at(index, ms)
        .ok_or_else(|| format!("--pose: no sequence {sequence:?}"))
}
