//! What `render` and `export` check about the terrain they are given before
//! and while drawing it, and the warnings they print: the WDTs beside a map
//! that are not maps, tiles whose file names disagree with their chunks or
//! that name several maps, chunks without heights, samples a `--range`
//! clamps, overviews that cannot fit, outputs named like the wrong thing.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use formats::adt::Adt;
use formats::terrain::{CHUNKS, HEIGHTMAP_SIDE, HeightRange, TerrainTile, TileCoord};
use formats::wdt::{Wdt, WdtKind};

use super::TileInput;
use crate::kind::{Document, Kind};

/// The chunks of a tile.
const CHUNKS_PER_TILE: usize = (CHUNKS * CHUNKS) as usize;

/// What a WDT is, by its chunks as `formats info` tells it ([`Wdt::kind`]):
/// a map's (`MPHD` and `MAIN`), a light or occlusion companion, or another
/// (`_fogs`, `_mpv`); read leniently, so that a damaged map is still one.
/// An error for a damaged file that is not a map's by what is left of it
/// (a map's WDT cut before its `MAIN` has the chunks of none): the strict
/// reader's error says where it is damaged, where its kind would not.
pub fn wdt_kind(path: &Path) -> Result<WdtKind, String> {
    let (kind, data) = crate::kind::open(path)?;
    let loaded = crate::kind::read(kind, &data).map_err(|e| format!("{}: {e}", path.display()))?;
    match loaded.document {
        Document::Wdt(wdt) => match (wdt.kind(), loaded.strict_error) {
            (WdtKind::Map, _) | (_, None) => Ok(wdt.kind()),
            (_, Some(error)) => Err(format!("{}: {error}", path.display())),
        },
        _ => Err(format!("{}: not a WDT", path.display())),
    }
}

/// The companion WDT `path` names by its suffix (`_lgt`, `_occ`, `_fogs`,
/// `_mpv`, any case), or a map's: for a WDT too damaged to tell by its
/// chunks ([`wdt_kind`]).
fn kind_by_name(path: &Path) -> WdtKind {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match stem.rsplit_once('_').map(|(_, suffix)| suffix) {
        Some("lgt") => WdtKind::Light,
        Some("occ") => WdtKind::Occlusion,
        Some("fogs" | "mpv") => WdtKind::Other,
        _ => WdtKind::Map,
    }
}

/// A WDT kind for messages.
pub fn describe(kind: WdtKind) -> &'static str {
    match kind {
        WdtKind::Map => "a map's WDT",
        WdtKind::Light => "a light WDT (_lgt.wdt)",
        WdtKind::Occlusion => "an occlusion WDT (_occ.wdt)",
        WdtKind::Other => "a WDT without MPHD and MAIN (such as _fogs.wdt or _mpv.wdt)",
    }
}

/// `found` (the files given and those found in the folders given) without
/// the WDTs that are not maps' (Blizzard's `_lgt`, `_occ`, `_fogs` and
/// `_mpv` companions beside a map's WDT), told apart by their chunks; those
/// found in a folder are left out and named on stderr, one named on its own
/// (`given`) is refused: it has no tiles. A WDT that cannot be read, or is
/// too damaged to tell and not named as a companion ([`kind_by_name`]),
/// stays, for its reader to say why.
pub fn without_companions(found: Vec<PathBuf>, given: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut kept = Vec::with_capacity(found.len());
    let mut skipped = Vec::new();
    for path in found {
        let kind = match Kind::of_path(&path) {
            Some(Kind::Wdt) => wdt_kind(&path).unwrap_or_else(|_| kind_by_name(&path)),
            _ => WdtKind::Map,
        };
        if kind == WdtKind::Map {
            kept.push(path);
        } else if given.contains(&path) {
            return Err(format!(
                "{} is {}, not a map's: give the map's WDT (MPHD and MAIN list its tiles)",
                path.display(),
                describe(kind)
            ));
        } else {
            skipped.push(format!("{} ({})", crate::file_name(&path), describe(kind)));
        }
    }
    if kept.is_empty() && !skipped.is_empty() {
        return Err(format!(
            "no tiles or maps: only WDTs that are not a map's ({})",
            skipped.join(", ")
        ));
    }
    if !skipped.is_empty() {
        eprintln!(
            "skipped {} that {} not a map's: {}",
            crate::plural(skipped.len(), "WDT"),
            if skipped.len() == 1 { "is" } else { "are" },
            skipped.join(", ")
        );
    }
    Ok(kept)
}

/// `Ok` if the WDT at `path` is a map's, whose `MPHD` flags say how its
/// tiles' alpha maps are stored (`--wdt`); a companion or a file that is not
/// a WDT would give them wrong.
pub fn map_wdt(path: &Path) -> Result<Wdt, String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
    let wdt = Wdt::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))?;
    match wdt.kind() {
        WdtKind::Map => Ok(wdt),
        kind => Err(format!(
            "{name} is {}, not a map's WDT: give the map's NAME.wdt (its MPHD flags say how \
             the alpha maps are stored)",
            describe(kind)
        )),
    }
}

/// The map and tile a file name `Map_x_y.adt` names (the map in lower case,
/// as the client's archives ignore case); `None` for other names.
fn named_tile(path: &Path) -> Option<(String, TileCoord)> {
    let coord = TileCoord::from_file_name(&path.to_string_lossy())?;
    let stem = path.file_stem()?.to_string_lossy();
    let map = stem.rsplitn(3, '_').nth(2)?;
    Some((map.to_lowercase(), coord))
}

/// A warning if the tiles' file names name more than one map: one overview
/// and one height range would span maps whose coordinates have nothing to do
/// with each other.
pub fn several_maps(tiles: &[TileInput]) -> Option<String> {
    let mut maps: BTreeMap<String, &Path> = BTreeMap::new();
    for tile in tiles {
        if let Some((map, _)) = named_tile(&tile.path) {
            maps.entry(map).or_insert(&tile.path);
        }
    }
    if maps.len() < 2 {
        return None;
    }
    let named: Vec<String> = maps
        .iter()
        .map(|(map, path)| format!("{map} ({})", crate::file_name(path)))
        .collect();
    Some(format!(
        "the tiles are of {} maps by their file names: {}; one height range and one \
         overview span them all, placed by their chunks' positions (render one map at a time \
         for a map's overview)",
        maps.len(),
        named.join(", ")
    ))
}

/// A warning if the file name `Map_x_y.adt` of the tile at `path` names
/// another tile than its chunks' positions (`coord`), which place it.
pub fn misnamed(path: &Path, coord: TileCoord) -> Option<String> {
    let (_, named) = named_tile(path)?;
    (named != coord).then(|| {
        format!(
            "{}: the file name says tile {}_{}, its chunks' positions say {}_{}: placed at {}_{}",
            path.display(),
            named.x,
            named.y,
            coord.x,
            coord.y,
            coord.x,
            coord.y
        )
    })
}

/// A warning if chunks of `tile` (`adt`, read from `name`) have no heights,
/// saying how many of them have an MCVT whose heights (or base) are NaN or
/// infinite, and what becomes of them (`left out`; `NaN in the TIFF, black
/// in the PNG`).
pub fn chunks_without_heights(
    name: &str,
    adt: &Adt,
    tile: &TerrainTile,
    becomes: &str,
) -> Option<String> {
    let with = tile.chunks.iter().filter(|c| c.grid.is_some()).count();
    let without = CHUNKS_PER_TILE.saturating_sub(with);
    let not_finite = adt
        .mcnks()
        .zip(&tile.chunks)
        .filter(|(mcnk, chunk)| mcnk.heights().is_some() && chunk.grid.is_none())
        .count();
    let damaged = match not_finite {
        0 => String::new(),
        n => format!(", {n} of them with NaN or infinite heights"),
    };
    (without > 0).then(|| {
        format!(
            "{name}: {without} of {CHUNKS_PER_TILE} chunks have no heights{damaged} ({becomes})"
        )
    })
}

/// A warning if chunks of `tile` (read from `name`) are off the grid: their
/// `MCNK.position` is more than a centimetre from the corner their indices
/// give. The exports put them where the indices say (so that chunks meet);
/// the game draws them where the position says.
pub fn misplaced_chunks(name: &str, tile: &TerrainTile) -> Option<String> {
    let misplaced = tile.misplaced_chunks();
    let first = misplaced.first()?;
    let count = match misplaced.len() {
        1 => "1 chunk is".to_string(),
        n => format!("{n} chunks are"),
    };
    Some(format!(
        "{name}: {count} off the grid (chunk ({}, {}) first): placed where their indices \
         say, not where their positions do (`formats validate` names each)",
        first.x, first.y
    ))
}

/// A warning if liquids of `adt` (tile `coord`, read from `name`) have NaN
/// or infinite heights: they are left out of the export.
pub fn liquids_not_finite(name: &str, adt: &Adt, coord: TileCoord) -> Option<String> {
    let grids = formats::terrain::liquids(adt, coord);
    let bad = grids.iter().filter(|g| !g.is_finite()).count();
    (bad > 0).then(|| {
        format!(
            "{name}: {bad} of {} liquid instances have NaN or infinite heights (left out)",
            grids.len()
        )
    })
}

/// An error if two of `tiles` (file and tile, by their chunks' positions)
/// are the same tile: their heightmaps would both claim its place in the
/// overview and at its seams.
pub fn one_file_per_tile<'a>(
    tiles: impl IntoIterator<Item = (&'a Path, TileCoord)>,
) -> Result<(), String> {
    let mut seen: HashMap<TileCoord, &Path> = HashMap::new();
    for (path, coord) in tiles {
        if let Some(first) = seen.insert(coord, path) {
            return Err(format!(
                "{} and {} are both tile {}_{} (by their chunks' positions): give one of them",
                first.display(),
                path.display(),
                coord.x,
                coord.y
            ));
        }
    }
    Ok(())
}

/// `tiles` with each file given more than once kept once, said on stderr.
pub fn each_once(tiles: Vec<TileInput>) -> Vec<TileInput> {
    let mut seen = HashSet::new();
    tiles
        .into_iter()
        .filter(|tile| {
            let first = seen.insert(crate::batch::identity(&tile.path));
            if !first {
                eprintln!("{} is given twice: drawn once", tile.path.display());
            }
            first
        })
        .collect()
}

/// An error if two tiles would write files of one name into `folder`
/// (`{stem}.png`, `{stem}_splat.json`): tiles of one name from two folders.
pub fn distinct_names(tiles: &[TileInput], folder: &Path) -> Result<(), String> {
    let mut seen: HashMap<&str, &Path> = HashMap::new();
    for tile in tiles {
        if let Some(other) = seen.insert(&tile.stem, &tile.path) {
            return Err(format!(
                "{} and {} would both be written to {}",
                other.display(),
                tile.path.display(),
                folder.join(format!("{}.*", tile.stem)).display()
            ));
        }
    }
    Ok(())
}

/// Samples a height range clamps: below its `min`, above its `max`, of the
/// samples with a height.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clamped {
    /// Samples below the range (drawn as 0).
    pub below: usize,
    /// Samples above the range (drawn as 65535).
    pub above: usize,
    /// Samples with a height.
    pub samples: usize,
}

impl Clamped {
    /// The samples of `heights` that `range` clamps.
    pub fn count(heights: &[f32], range: HeightRange) -> Clamped {
        let finite = heights.iter().filter(|h| h.is_finite());
        Clamped {
            below: finite.clone().filter(|h| **h < range.min).count(),
            above: finite.clone().filter(|h| **h > range.max).count(),
            samples: finite.count(),
        }
    }

    /// Both counts together.
    pub fn add(self, other: Clamped) -> Clamped {
        Clamped {
            below: self.below + other.below,
            above: self.above + other.above,
            samples: self.samples + other.samples,
        }
    }

    /// A warning if `range` (`--range`) clamped any sample.
    pub fn warning(self, range: HeightRange) -> Option<String> {
        let clamped = self.below + self.above;
        (clamped > 0).then(|| {
            format!(
                "--range {}:{} clamps {clamped} of {} samples ({} below {}, drawn as 0; {} above \
                 {}, drawn as 65535)",
                range.min, range.max, self.samples, self.below, range.min, self.above, range.max
            )
        })
    }
}

/// An error if the overview of `tiles` cannot be kept within `size` pixels:
/// at its coarsest, one sample per tile corner, it is one pixel more than
/// the tiles across.
pub fn overview_fits(tiles: &[TileCoord], size: usize) -> Result<(), String> {
    let span = |f: fn(&TileCoord) -> u32| {
        let lo = tiles.iter().map(f).min().unwrap_or(0);
        let hi = tiles.iter().map(f).max().unwrap_or(0);
        (hi - lo + 1) as usize
    };
    let step = formats::terrain::Stitched::step_for(tiles, size);
    let per_tile = (HEIGHTMAP_SIDE - 1) / step;
    let (width, height) = (span(|t| t.x) * per_tile + 1, span(|t| t.y) * per_tile + 1);
    if width.max(height) <= size {
        return Ok(());
    }
    Err(format!(
        "--overview-size {size}: the smallest overview of these tiles is {width}x{height} \
         pixels (one sample per tile corner); give at least {}",
        width.max(height)
    ))
}

/// The file name extensions of images: an output named so is a file, not
/// the folder a map's images go into.
const IMAGE_EXTENSIONS: [&str; 12] = [
    "png", "tif", "tiff", "jpg", "jpeg", "bmp", "gif", "webp", "exr", "tga", "dds", "blp",
];

/// An error if `path`, given as `option` for the folder a map's or several
/// tiles' images go into, is named like an image file (and is no folder
/// yet, nor ends in a separator).
pub fn folder_output(option: &str, path: &Path) -> Result<(), String> {
    let ext = extension(path);
    let slash = path.to_string_lossy().ends_with(['/', '\\']);
    if slash || path.is_dir() || !IMAGE_EXTENSIONS.contains(&ext.as_str()) {
        return Ok(());
    }
    Err(format!(
        "{option} {}: a map or several tiles are drawn into a folder, and this names an image \
         file (give a folder, such as {}/)",
        path.display(),
        path.with_extension("").display()
    ))
}

/// The extension of `path`, in lower case (empty if none).
pub fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_name_maps_and_tiles() {
        let named = |name: &str| named_tile(Path::new(name));
        let tile = |x, y| TileCoord::new(x, y).unwrap();
        assert_eq!(
            named("a/Azeroth_32_48.adt"),
            Some(("azeroth".into(), tile(32, 48)))
        );
        assert_eq!(
            named("Gilneas_BG_2_28_31.ADT"),
            Some(("gilneas_bg_2".into(), tile(28, 31)))
        );
        assert_eq!(named("continent4229.adt"), None);
        assert_eq!(named("Azeroth_32_48_obj0.adt"), None);
    }

    #[test]
    fn clamped_samples_are_counted() {
        let range = HeightRange {
            min: 0.0,
            max: 10.0,
        };
        let clamped = Clamped::count(&[-1.0, 0.0, 5.0, 10.0, 11.0, 12.0, f32::NAN], range);
        assert_eq!(
            clamped,
            Clamped {
                below: 1,
                above: 2,
                samples: 6
            }
        );
        assert_eq!(Clamped::count(&[1.0], range).warning(range), None);
        let warning = clamped.warning(range).unwrap();
        assert!(
            warning.starts_with("--range 0:10 clamps 3 of 6 samples"),
            "{warning}"
        );
    }

    #[test]
    fn an_overview_fits_or_says_how_small_it_can_be() {
        let row: Vec<TileCoord> = (0..3).map(|x| TileCoord { x, y: 0 }).collect();
        assert!(overview_fits(&row, 4).is_ok());
        let error = overview_fits(&row, 3).unwrap_err();
        assert!(error.contains("4x2 pixels"), "{error}");
    }
}
