//! Shared inputs for the benchmarks: corpus files when `../shared/corpus` is
//! present, generated data otherwise.
#![warn(missing_docs)]

use std::path::{Path, PathBuf};

/// The corpus folder beside the repository, if present.
pub fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    root.is_dir().then_some(root)
}

/// The `n` largest files with `extension` in `folder` of the corpus, as (name, bytes).
pub fn largest_corpus_files(folder: &str, extension: &str, n: usize) -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(extension))
        .filter_map(|e| {
            let data = std::fs::read(e.path()).ok()?;
            Some((e.file_name().to_string_lossy().into_owned(), data))
        })
        .collect();
    files.sort_by_key(|(_, data)| std::cmp::Reverse(data.len()));
    files.truncate(n);
    files
}
