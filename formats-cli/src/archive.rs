//! `formats list ARCHIVE` and `formats extract ARCHIVE OUT/ [PATTERN]`:
//! the entries of an MPQ archive (a Warcraft III map, a game's data), and
//! those entries written out as files.

use std::path::{Component, Path, PathBuf};

use formats::mpq::{Entry, flags};

/// How an entry is stored, in words (`zlib sectors, encrypted`).
fn stored_as(entry: &Entry) -> String {
    let block = &entry.block;
    let mut words = Vec::new();
    if block.has(flags::IMPLODE) {
        words.push("imploded");
    } else if block.has(flags::COMPRESS) {
        words.push("compressed");
    } else {
        words.push("stored");
    }
    if block.has(flags::SINGLE_UNIT) {
        words.push("single unit");
    }
    if block.has(flags::ENCRYPTED) {
        words.push("encrypted");
    }
    words.join(", ")
}

/// `formats list ARCHIVE`: every entry, its size, stored size and how it is
/// stored, and its locale where it has one.
pub fn list(path: &Path) -> Result<(), String> {
    let bytes = crate::input::archive_bytes(path)?;
    let archive = crate::input::opened(path, &bytes)?;
    let entries = archive.entries();
    let mut table = crate::batch::Table::new(&["entry", "size", "stored", "how", "locale"]);
    for entry in &entries {
        let locale = match entry.hash.locale {
            0 => String::new(),
            l => format!("{l:#06x}"),
        };
        table.row([
            entry.name().into_owned(),
            entry.block.file_size.to_string(),
            entry.block.compressed_size.to_string(),
            stored_as(entry),
            locale,
        ]);
    }
    crate::print_out(&table.render())?;
    let unnamed = entries.iter().filter(|e| e.name.is_none()).count();
    let mut summary = match entries.len() {
        1 => "1 entry".to_owned(),
        n => format!("{n} entries"),
    };
    if unnamed > 0 {
        summary += &format!(" ({unnamed} not named by the archive's listfile)");
    }
    crate::print_out(&format!("{summary}\n"))
}

/// Whether `name` matches `pattern`: `*` any run of characters, `?` one,
/// case-insensitive, `/` and `\` the same.
pub fn matches(pattern: &str, name: &str) -> bool {
    let norm = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| {
                if c == '/' {
                    '\\'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    let (p, n) = (norm(pattern), norm(name));
    // Iterative wildcard match with one backtrack point (the last `*`).
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// Where an entry goes under `out`: its name's parts as folders, or `None`
/// for a name that would leave `out` (`..`, a root, a drive).
fn target(out: &Path, name: &str) -> Option<PathBuf> {
    let relative = PathBuf::from(name.replace('\\', "/"));
    relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| out.join(relative))
}

/// `formats extract ARCHIVE OUT/ [PATTERN]`: the entries (those `PATTERN`
/// matches) as files under `OUT`, their names' folders made; what cannot be
/// read is named and the others are still written.
pub fn extract(
    path: &Path,
    out: &Path,
    pattern: Option<&str>,
) -> Result<std::process::ExitCode, String> {
    let bytes = crate::input::archive_bytes(path)?;
    let archive = crate::input::opened(path, &bytes)?;
    let entries: Vec<Entry> = archive
        .entries()
        .into_iter()
        .filter(|e| pattern.is_none_or(|p| matches(p, &e.name())))
        .collect();
    if entries.is_empty() {
        return Err(match pattern {
            Some(p) => format!("{}: no entry matches {p:?}", path.display()),
            None => format!("{}: no entries", path.display()),
        });
    }
    let (mut written, mut failed) = (0, 0);
    for entry in &entries {
        let name = entry.name();
        let Some(file) = target(out, &name) else {
            eprintln!(
                "{name}: not extracted (its name leads out of {})",
                out.display()
            );
            failed += 1;
            continue;
        };
        match archive.read_entry(entry) {
            Ok(data) => {
                crate::write_file(&file, &data)?;
                written += 1;
            }
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                failed += 1;
            }
        }
    }
    let mut summary = format!(
        "{} written to {}",
        crate::plural(written, "file"),
        out.display()
    );
    if failed > 0 {
        summary += &format!(", {failed} not");
    }
    crate::print_out(&format!("{summary}\n"))?;
    Ok(match failed {
        0 => std::process::ExitCode::SUCCESS,
        _ => std::process::ExitCode::FAILURE,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_with_either_slash_and_any_case() {
        assert!(matches("*.mdx", "Units\\Footman.mdx"));
        assert!(matches("units/*.MDX", "Units\\Footman.mdx"));
        assert!(matches("war3map.?", "war3map.j"));
        assert!(!matches("*.blp", "Units\\Footman.mdx"));
        assert!(matches("*a*b*", "xxaxxbxx"));
        assert!(!matches("*a*b", "xxaxxbxx"));
    }

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        let out = Path::new("out");
        assert_eq!(
            target(out, "Units\\Footman.mdx"),
            Some(out.join("Units/Footman.mdx"))
        );
        assert_eq!(target(out, "..\\evil.txt"), None);
        assert_eq!(target(out, "/etc/passwd"), None);
    }
}
