//! The files under the folders given, and the models, textures and tiles
//! inside the MPQ archives (maps) among them: walked with symbolic links followed
//! (a link that leads back into a folder being walked is reported and not
//! followed), each file once however many links lead to it, sorted by its
//! kind then its path.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use formats::FileKind as Kind;

/// The family of tools that run on a kind of file (glTF, which the sweep
/// does not walk for ([`swept`]), with the models it imports to).
pub fn family(kind: Kind) -> Family {
    match kind {
        Kind::Mdx | Kind::Mdl | Kind::Gltf => Family::Models,
        Kind::Blp | Kind::Dds => Family::Textures,
        Kind::Adt | Kind::AdtSplit | Kind::Wdt => Family::Terrain,
    }
}

/// Files whose tools are reported in one table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// MDX and MDL.
    Models,
    /// BLP and DDS.
    Textures,
    /// ADT and WDT.
    Terrain,
}

impl Family {
    /// Its name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Family::Models => "models",
            Family::Textures => "textures",
            Family::Terrain => "tiles and maps",
        }
    }
}

/// The kind of a file the sweep runs its tools on: the game's formats by
/// their extension, not glTF documents (the import's input, which no tool
/// here reads back).
fn swept(path: &std::path::Path) -> Option<Kind> {
    Kind::of_path(path).filter(|kind| *kind != Kind::Gltf)
}

/// One file to sweep.
#[derive(Debug, Clone)]
pub struct Found {
    /// The path as walked (through links, as the user sees it).
    pub path: PathBuf,
    /// Its kind.
    pub kind: Kind,
    /// Its size in bytes.
    pub size: u64,
    /// For an entry of an MPQ archive (a map), the archive's bytes (shared
    /// by its entries, read once) and the entry's name; its `path` is
    /// `ARCHIVE:NAME`, as the `formats` tool addresses it.
    pub entry: Option<(Arc<[u8]>, String)>,
}

impl Found {
    /// The file's bytes, or its entry's, read from its archive.
    pub fn read(&self) -> Result<Vec<u8>, String> {
        match &self.entry {
            None => std::fs::read(&self.path).map_err(|e| e.to_string()),
            Some((bytes, name)) => formats::mpq::Archive::new(bytes)
                .and_then(|archive| archive.read(name))
                .map_err(|e| e.to_string()),
        }
    }
}

/// Whether `path` names an MPQ archive, by its extension (as `formats`
/// takes one: `.w3m`, `.w3x`, `.w3n`, `.mpq`).
fn is_archive(path: &std::path::Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        matches!(
            e.to_ascii_lowercase().as_str(),
            "w3m" | "w3x" | "w3n" | "mpq"
        )
    })
}

/// The entries of the archive at `path` whose names are a kind the tools
/// run on (the archive's listfile names them); an archive that does not
/// open is a line of `skipped`.
fn archive_entries(path: &std::path::Path, files: &mut Vec<Found>, skipped: &mut Vec<String>) {
    let bytes: Arc<[u8]> = match std::fs::read(path) {
        Ok(bytes) => bytes.into(),
        Err(e) => return skipped.push(format!("{}: {e}", path.display())),
    };
    let archive = match formats::mpq::Archive::new(&bytes) {
        Ok(archive) => archive,
        Err(e) => return skipped.push(format!("{}: {e}", path.display())),
    };
    for entry in archive.entries() {
        if entry.name.is_none() {
            continue;
        }
        let name = entry.name().into_owned();
        let address = PathBuf::from(format!("{}:{}", path.display(), name.replace('\\', "/")));
        let Some(kind) = swept(&address) else {
            continue;
        };
        files.push(Found {
            path: address,
            kind,
            size: u64::from(entry.block.file_size),
            entry: Some((bytes.clone(), name)),
        });
    }
}

/// What walking found: the files, and the links and folders it could not
/// follow (loops, broken links, unreadable folders), one line each.
pub struct Walk {
    /// The files, each once.
    pub files: Vec<Found>,
    /// What was skipped, and why.
    pub skipped: Vec<String>,
}

/// Walks `roots` (folders or files), following symbolic links.
pub fn walk(roots: &[PathBuf]) -> Walk {
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let mut seen = HashSet::new();
    for root in roots {
        for entry in walkdir::WalkDir::new(root).follow_links(true) {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let why = match e.loop_ancestor() {
                        Some(ancestor) => {
                            format!(
                                "a link back to {} (a loop: not followed)",
                                ancestor.display()
                            )
                        }
                        None => e.to_string(),
                    };
                    let at = e
                        .path()
                        .map_or(String::new(), |p| format!("{}: ", p.display()));
                    skipped.push(format!("{at}{why}"));
                    continue;
                }
            };
            if !entry.file_type().is_file() {
                continue;
            }
            if is_archive(entry.path()) {
                archive_entries(entry.path(), &mut files, &mut skipped);
                continue;
            }
            let Some(kind) = swept(entry.path()) else {
                continue;
            };
            // Two links to one file are one file.
            let identity =
                std::fs::canonicalize(entry.path()).unwrap_or_else(|_| entry.path().to_path_buf());
            if !seen.insert(identity) {
                continue;
            }
            let size = entry.metadata().map_or(0, |m| m.len());
            files.push(Found {
                path: entry.into_path(),
                kind,
                size,
                entry: None,
            });
        }
    }
    files.sort_by(|a, b| (a.kind, &a.path).cmp(&(b.kind, &b.path)));
    Walk { files, skipped }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_loops_reported() {
        let root = std::env::temp_dir().join(format!("sweep-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let models = root.join("models");
        std::fs::create_dir_all(&models).unwrap();
        std::fs::write(models.join("a.mdx"), b"MDLX").unwrap();
        let links = root.join("links");
        std::fs::create_dir_all(&links).unwrap();
        // A folder of links: one to a file, one to a folder, one back up.
        std::os::unix::fs::symlink(models.join("a.mdx"), links.join("b.mdx")).unwrap();
        std::os::unix::fs::symlink(&models, links.join("more")).unwrap();
        std::os::unix::fs::symlink(&links, links.join("loop")).unwrap();
        let walked = walk(std::slice::from_ref(&links));
        let _ = std::fs::remove_dir_all(&root);
        // a.mdx reached twice (b.mdx, more/a.mdx) is one file.
        assert_eq!(walked.files.len(), 1, "{:?}", walked.files);
        assert_eq!(walked.skipped.len(), 1, "{:?}", walked.skipped);
        assert!(walked.skipped[0].contains("loop"), "{:?}", walked.skipped);
    }

    #[test]
    fn an_archive_stands_for_the_files_in_it() {
        let root = std::env::temp_dir().join(format!("sweep-archive-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("sample.w3x"), formats::sample::sample_mpq()).unwrap();
        let walked = walk(std::slice::from_ref(&root));
        let _ = std::fs::remove_dir_all(&root);
        let paths: Vec<String> = walked
            .files
            .iter()
            .map(|f| f.path.display().to_string())
            .collect();
        let archive = root.join("sample.w3x").display().to_string();
        // Its model and texture (its script and listfile are no kind of ours).
        assert_eq!(
            paths,
            [
                format!("{archive}:Units/Footman.mdx"),
                format!("{archive}:Textures/Sample.blp")
            ]
        );
        assert_eq!(
            walked.files[0].read().unwrap(),
            formats::sample::sample_mdx()
        );
        assert_eq!(
            walked.files[1].read().unwrap(),
            formats::sample::sample_blp()
        );
    }
}
