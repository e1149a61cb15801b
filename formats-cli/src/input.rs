//! Where a command's input comes from: a file, or an entry of an MPQ
//! archive addressed as `map.w3x:Units/Footman.mdx` (the archive's path, a
//! colon, the entry's name with `/` or `\`). A folder or an archive given
//! to a batch command stands for the files in it (`batch::collect`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use formats::mpq::Archive;

/// An archive entry's address split into the archive's path and the
/// entry's name; `None` for a path that is a file or folder itself, or
/// whose part before a colon is not a file.
pub fn entry_of(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let text = path.to_str()?;
    text.match_indices(':').find_map(|(at, _)| {
        let archive = Path::new(&text[..at]);
        let name = &text[at + 1..];
        (archive.is_file() && !name.is_empty()).then(|| (archive.to_path_buf(), name.to_owned()))
    })
}

/// Whether `path` names an entry of an archive rather than a file.
pub fn is_entry(path: &Path) -> bool {
    entry_of(path).is_some()
}

/// Whether the file at `path` is an MPQ archive, by its extension (`.w3m`,
/// `.w3x`, `.w3n`, `.mpq`; a Reforged map saved as a folder is a folder).
pub fn is_archive(path: &Path) -> bool {
    let by_name = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "w3m" | "w3x" | "w3n" | "mpq"
        )
    });
    by_name && path.is_file()
}

/// The archives' bytes, read once per run however many entries are read.
pub fn archive_bytes(path: &Path) -> Result<Arc<[u8]>, String> {
    static READ: OnceLock<Mutex<HashMap<PathBuf, Arc<[u8]>>>> = OnceLock::new();
    let cache = READ.get_or_init(Default::default);
    if let Some(bytes) = cache
        .lock()
        .map_err(|_| "archive cache poisoned")?
        .get(path)
    {
        return Ok(bytes.clone());
    }
    let bytes: Arc<[u8]> = std::fs::read(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .into();
    cache
        .lock()
        .map_err(|_| "archive cache poisoned")?
        .insert(path.to_path_buf(), bytes.clone());
    Ok(bytes)
}

/// An archive's bytes and its path.
pub type ArchiveFile = (Arc<[u8]>, PathBuf);

/// The bytes of the archive an entry's address names, and its path; `None`
/// for a path that is not an entry's.
pub fn archive_of(path: &Path) -> Option<Result<ArchiveFile, String>> {
    let (archive, _) = entry_of(path)?;
    Some(archive_bytes(&archive).map(|bytes| (bytes, archive)))
}

/// The bytes of a file, or of an archive entry.
pub fn read(path: &Path) -> Result<Vec<u8>, String> {
    let Some((archive_path, name)) = entry_of(path) else {
        return std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()));
    };
    let bytes = archive_bytes(&archive_path)?;
    let archive = Archive::new(&bytes).map_err(|e| format!("{}: {e}", archive_path.display()))?;
    archive
        .read(&name)
        .map_err(|e| format!("{}: {e}", archive_path.display()))
}

/// The archive in `bytes` (read from `path`), opened; what it holds out of
/// spec is said on stderr, once per command.
pub fn opened<'a>(path: &Path, bytes: &'a [u8]) -> Result<Archive<'a>, String> {
    let archive = Archive::new(bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    for d in archive.diagnostics() {
        eprintln!("{}: {d}", path.display());
    }
    Ok(archive)
}

/// The entries of the archive at `path` whose names `wanted` accepts, as
/// addresses (`map.w3x:Units/Footman.mdx`), sorted; its diagnostics, and
/// entries it does not name, are said on stderr.
pub fn entries(path: &Path, wanted: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>, String> {
    let bytes = archive_bytes(path)?;
    let archive = opened(path, &bytes)?;
    let mut found: Vec<PathBuf> = archive
        .entries()
        .iter()
        .filter(|e| e.name.is_some())
        .map(|e| {
            let name = e.name().replace('\\', "/");
            PathBuf::from(format!("{}:{name}", path.display()))
        })
        .filter(|address| wanted(address))
        .collect();
    found.sort();
    found.dedup();
    Ok(found)
}
