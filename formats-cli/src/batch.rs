//! Commands over many files (`check`, `export`, and any command that takes
//! several files and folders): the inputs found, the outputs they go to,
//! the work run on all cores behind one progress bar, and the summary table.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::kind::Kind;

/// The files named by `paths`: each named file (whatever its extension) or
/// archive entry (`map.w3x:Units/Footman.mdx`), in each folder,
/// recursively (symbolic links followed) and sorted, the files whose
/// extension is a kind that `wanted` accepts, and in each MPQ archive
/// (`.w3m`, `.w3x`, `.w3n`, `.mpq`) the entries whose names are; each
/// file once however often it is named;
/// an error naming `what` (`models (.mdx,
/// .mdl)`) when paths were given and hold none, so that a folder named by
/// mistake does not pass for a job done.
pub fn collect(
    paths: &[PathBuf],
    what: &str,
    wanted: impl Fn(Kind) -> bool,
) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            // Symbolic links are followed (a folder of links to models is
            // a folder of models); a link back into a folder being walked,
            // a broken link or an unreadable folder is named and skipped.
            for entry in walkdir::WalkDir::new(path).follow_links(true) {
                let entry = match entry {
                    Ok(entry) => entry,
                    Err(e) => {
                        let at = e.path().unwrap_or(path).display().to_string();
                        match e.loop_ancestor() {
                            Some(to) => eprintln!(
                                "{at}: a link back to {} (a loop): not followed",
                                to.display()
                            ),
                            None => eprintln!("{at}: skipped ({e})"),
                        }
                        continue;
                    }
                };
                if entry.file_type().is_file() && Kind::of_path(entry.path()).is_some_and(&wanted) {
                    found.push(entry.into_path());
                }
            }
            found.sort();
            files.extend(found);
        } else if crate::input::is_archive(path) {
            files.extend(crate::input::entries(path, |entry| {
                Kind::of_path(entry).is_some_and(&wanted)
            })?);
        } else if path.exists() || crate::input::is_entry(path) {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    // A file named twice (`models/ models/Footman.mdx`, or two spellings of
    // one path) is taken once: one row in a table, one job (two rewriting
    // one file in parallel would each read what the other half wrote).
    let mut seen = std::collections::HashSet::new();
    files.retain(|f| {
        let first = seen.insert(identity(f));
        if !first {
            eprintln!("{} is given twice: taken once", f.display());
        }
        first
    });
    if files.is_empty() && !paths.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!("no {what} under {}", names.join(", ")));
    }
    Ok(files)
}

/// What tells two spellings of one file apart from two files: the
/// canonical path (symlinks and `..` resolved), or the path as given if the
/// file cannot be resolved.
pub fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Where each input is written: one input to `output` itself when
/// `is_file(output)` says it names a file; otherwise every input into the
/// folder `output` (created), named by its stem and `extension(input)`; an
/// `output` with an extension must then be a folder that exists.
/// Two inputs that would write the same file are refused before anything
/// runs.
pub fn outputs(
    inputs: &[PathBuf],
    output: &Path,
    is_file: impl Fn(&Path) -> bool,
    extension: impl Fn(&Path) -> String,
) -> Result<Vec<(PathBuf, PathBuf)>, String> {
    let jobs: Vec<(PathBuf, PathBuf)> = match inputs {
        [input] if is_file(output) => vec![(input.clone(), output.to_path_buf())],
        _ if is_file(output) => {
            return Err(format!(
                "{} inputs go into a folder, not into {}",
                inputs.len(),
                output.display()
            ));
        }
        _ if !output.is_dir() && output.extension().is_some() => {
            // `cube.obj` is a typo or a format this command does not write
            // far more often than a folder to create.
            return Err(format!(
                "{} is neither a file this command writes nor a folder: name a folder \
                 without an extension (or create it first)",
                output.display()
            ));
        }
        _ => inputs
            .iter()
            .map(|input| {
                let stem = crate::file_stem(input, "output");
                let out = output.join(format!("{stem}.{}", extension(input)));
                (input.clone(), out)
            })
            .collect(),
    };
    let mut seen: HashMap<&Path, &Path> = HashMap::new();
    for (input, out) in &jobs {
        if let Some(other) = seen.insert(out, input) {
            return Err(format!(
                "{} and {} would both be written to {}",
                other.display(),
                input.display(),
                out.display()
            ));
        }
    }
    // The folder is made once nothing is refused.
    if !is_file(output) {
        std::fs::create_dir_all(output).map_err(|e| match output.exists() {
            true => format!(
                "{}: a file is in the way of the folder ({e})",
                output.display()
            ),
            false => format!("{}: {e}", output.display()),
        })?;
    }
    Ok(jobs)
}

/// Runs `work` on every item on all cores (rayon) behind one progress bar
/// (drawn on a terminal only); the results come back in the items' order.
pub fn run<I: Sync, T: Send>(items: &[I], work: impl Fn(&I) -> T + Sync) -> Vec<T> {
    let bar = crate::progress::bar(items.len());
    let results = items
        .par_iter()
        .map(|item| {
            let result = work(item);
            bar.inc(1);
            result
        })
        .collect();
    bar.finish_and_clear();
    results
}

/// A summary table: a header row, then rows, each column as wide as its
/// widest cell, two spaces apart; the first column left-aligned, the
/// others right-aligned.
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new(columns: &[&str]) -> Self {
        Table {
            rows: vec![columns.iter().map(|c| c.to_string()).collect()],
        }
    }

    /// Appends a row (cells beyond the columns are kept, missing ones blank).
    pub fn row(&mut self, cells: impl IntoIterator<Item = impl ToString>) {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
    }

    /// The table as lines of text.
    pub fn render(&self) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                self.rows
                    .iter()
                    .filter_map(|row| row.get(c))
                    .map(|cell| cell.chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::new();
            for (c, width) in widths.iter().enumerate() {
                let cell = row.get(c).map_or("", String::as_str);
                let _ = if c == 0 {
                    write!(line, "{cell:<width$}")
                } else {
                    write!(line, "  {cell:>width$}")
                };
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_aligns_its_columns() {
        let mut table = Table::new(&["kind", "files"]);
        table.row(["mdx", "12"]);
        table.row(["blp", "7"]);
        assert_eq!(table.render(), "kind  files\nmdx      12\nblp       7\n");
    }

    #[test]
    fn two_inputs_writing_one_file_are_refused() {
        let dir = std::env::temp_dir().join(format!("formats-batch-{}", std::process::id()));
        let inputs = [PathBuf::from("a/x.mdx"), PathBuf::from("b/x.mdx")];
        let error = outputs(&inputs, &dir, |_| false, |_| "glb".into()).unwrap_err();
        assert!(error.contains("would both be written to"), "{error}");
        let one = outputs(&inputs[..1], Path::new("y.glb"), |_| true, |_| "glb".into()).unwrap();
        assert_eq!(one, vec![(inputs[0].clone(), PathBuf::from("y.glb"))]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_stem_with_dots_keeps_them() {
        let dir = std::env::temp_dir().join(format!("formats-batch-dots-{}", std::process::id()));
        let inputs = [PathBuf::from("a/zf.bone.mdx"), PathBuf::from("a/zf.mdx")];
        let jobs = outputs(&inputs, &dir, |_| false, |_| "glb".into()).unwrap();
        assert_eq!(jobs[0].1, dir.join("zf.bone.glb"));
        assert_eq!(jobs[1].1, dir.join("zf.glb"));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn results_come_back_in_order() {
        let items: Vec<u32> = (0..100).collect();
        assert_eq!(
            run(&items, |i| i * 2),
            (0..100).map(|i| i * 2).collect::<Vec<_>>()
        );
    }
}
