//! A whole map: the tiles a WDT's `MAIN` lists, their file names, and the
//! files found beside the WDT.
//!
//! The client loads `World/Maps/<Map>/<Map>_<x>_<y>.adt` for every `MAIN`
//! entry with `Flag_HasADT`, `<Map>` being the WDT's own name (see the
//! [module](super) docs for `x` and `y`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::coords::{TILES, TileCoord};
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
