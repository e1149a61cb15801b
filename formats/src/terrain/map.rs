//! A whole map: the tiles a WDT's `MAIN` lists, their file names, and the
//! files found beside the WDT.
//!
//! The client loads `World/Maps/<Map>/<Map>_<x>_<y>.adt` for every `MAIN`
//! entry with `Flag_HasADT`, `<Map>` being the WDT's own name (see the
//! [module](super) docs for `x` and `y`). From Cataclysm on, a tile is split
//! in files beside each other: the root `<Map>_<x>_<y>.adt` (heights,
//! normals, liquids), `_tex0.adt` (textures and alpha maps) and `_obj0.adt`
//! (doodads and map objects); [`with_split_parts`] reads a root with them.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::TerrainError;

use super::coords::{TILES, TileCoord};
use crate::adt::split::Part;
use crate::adt::{Adt, SplitAdt, SplitFile};
use crate::wdt::Wdt;

/// The tiles `MAIN` marks as having an ADT, row by row.
pub fn map_tiles(wdt: &Wdt) -> Vec<TileCoord> {
    let Some(main) = wdt.main() else {
        return Vec::new();
    };
    (0..TILES)
        .flat_map(|y| (0..TILES).map(move |x| (x, y)))
        .filter(|&(x, y)| main.has_adt(x as usize, y as usize))
        .filter_map(|(x, y)| TileCoord::new(x, y))
        .collect()
}

/// One tile of a map and the file found for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapTile {
    /// The tile.
    pub coord: TileCoord,
    /// `<Map>_<x>_<y>.adt`.
    pub file_name: String,
    /// The file beside the WDT (any letter case), `None` if missing.
    pub path: Option<PathBuf>,
}

/// The map's name from its WDT's path: the file stem (`cataclysmctf` for
/// `…/cataclysmctf.wdt`).
pub fn map_name(wdt_path: &Path) -> Option<String> {
    Some(wdt_path.file_stem()?.to_string_lossy().into_owned())
}

/// Every tile `wdt` lists, with the file beside `wdt_path` that holds it
/// (looked up without regard to letter case, as the client's archives are).
/// Missing tiles are listed with `path: None`, not an error; an error only if
/// the folder cannot be read.
pub fn locate_tiles(wdt_path: &Path, wdt: &Wdt) -> std::io::Result<Vec<MapTile>> {
    let name = map_name(wdt_path).unwrap_or_default();
    let folder = match wdt_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut files = HashMap::new();
    for entry in std::fs::read_dir(&folder)? {
        let entry = entry?;
        let file = entry.file_name().to_string_lossy().to_lowercase();
        files.insert(file, entry.path());
    }
    Ok(map_tiles(wdt)
        .into_iter()
        .map(|coord| {
            let file_name = coord.file_name(&name);
            let path = files.get(&file_name.to_lowercase()).cloned();
            MapTile {
                coord,
                file_name,
                path,
            }
        })
        .collect())
}

/// The suffixes of the split files [`with_split_parts`] reads with a root.
pub const SPLIT_PARTS: [&str; 2] = ["_tex0", "_obj0"];

/// The `_tex0` and `_obj0` files beside the tile file `root_path`
/// (`Map_x_y.adt`: `Map_x_y_tex0.adt`, `Map_x_y_obj0.adt`, the suffix in
/// lower or upper case), in the order of [`SPLIT_PARTS`], `None` where
/// there is none.
pub fn split_parts(root_path: &Path) -> [Option<PathBuf>; 2] {
    let stem = root_path.file_stem().map(|s| s.to_string_lossy());
    let extension = root_path.extension().map(|e| e.to_string_lossy());
    SPLIT_PARTS.map(|suffix| {
        let (stem, extension) = (stem.as_ref()?, extension.as_ref()?);
        [suffix.to_string(), suffix.to_ascii_uppercase()]
            .iter()
            .map(|suffix| root_path.with_file_name(format!("{stem}{suffix}.{extension}")))
            .find(|path| path.is_file())
    })
}

/// `root`, read from `root_path`, with the `_tex0` and `_obj0` files
/// beside it ([`split_parts`]) merged in: the whole tile as one monolithic
/// [`Adt`], and the part files read. A Cataclysm+ root alone has heights
/// but no textures, alpha maps, doodads or map objects; merged, it has them
/// as a monolithic tile has. A part is only merged into a root that does not
/// hold its chunks itself (a monolithic tile keeps its own); a tile without
/// parts beside it comes back as it is.
pub fn with_split_parts(root: Adt, root_path: &Path) -> Result<(Adt, Vec<PathBuf>), TerrainError> {
    let holds = |part: Part| {
        root.chunks
            .iter()
            .any(|chunk| Part::of_chunk(chunk.tag()) == part)
    };
    let [tex0, obj0] = split_parts(root_path);
    let tex0 = tex0.filter(|_| !holds(Part::Tex));
    let obj0 = obj0.filter(|_| !holds(Part::Obj));
    if tex0.is_none() && obj0.is_none() {
        return Ok((root, Vec::new()));
    }
    let read = |path: &Option<PathBuf>| -> Result<SplitFile, TerrainError> {
        let Some(path) = path else {
            return Ok(SplitFile::default());
        };
        let bytes = std::fs::read(path).map_err(|source| TerrainError::Io {
            path: path.clone(),
            source,
        })?;
        SplitFile::from_bytes(&bytes).map_err(|source| TerrainError::Part {
            path: path.clone(),
            source,
        })
    };
    let split = SplitAdt {
        tex0: read(&tex0)?,
        obj0: read(&obj0)?,
        root,
        ..SplitAdt::default()
    };
    let tile = split.to_monolithic()?;
    Ok((tile, [tex0, obj0].into_iter().flatten().collect()))
}
