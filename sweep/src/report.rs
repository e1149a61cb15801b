//! The sweep's summary: per family of files, a table of each tool's
//! outcomes; the failures grouped by tool and by the first words of their
//! messages (numbers and quoted names blanked, so one cause is one line);
//! the slowest runs; the validation rules and how often they fired; and
//! against an earlier `--json`, what changed.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use crate::discover::Family;
use crate::record::{Budget, FileResult, Outcome, Run, Sweep};
use crate::tools::TOOLS;

/// How many example files a failure group names, and rows the slowest list has.
const EXAMPLES: usize = 2;

/// A message with its numbers and quoted parts blanked and cut after its
/// first words: what failures of one cause have in common.
pub fn cause(message: &str) -> String {
    let mut out = String::new();
    let mut in_quote = false;
    let mut last_digit = false;
    // `0x3c` is one number.
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '0' && !in_quote && chars.peek() == Some(&'x') {
            chars.next();
            while chars.peek().is_some_and(char::is_ascii_hexdigit) {
                chars.next();
            }
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
            continue;
        }
        if c == '"' {
            if !in_quote {
                out.push_str("\"…\"");
            }
            in_quote = !in_quote;
            continue;
        }
        if in_quote {
            continue;
        }
        if c.is_ascii_digit() {
            if !last_digit {
                out.push('N');
            }
            last_digit = true;
            continue;
        }
        last_digit = false;
        out.push(c);
    }
    // The first 12 words.
    let words: Vec<&str> = out.split_whitespace().take(12).collect();
    let mut cut = words.join(" ");
    if out.split_whitespace().count() > 12 {
        cut.push_str(" …");
    }
    cut
}

/// Counts of one tool's outcomes.
#[derive(Default)]
struct Row {
    ok: usize,
    warned: usize,
    refused: usize,
    wrong: usize,
    panic: usize,
    skipped: usize,
    over: usize,
    ms: f64,
}

fn family_of(file: &FileResult) -> Family {
    crate::discover::family(file.kind)
}

/// The whole summary as text.
pub fn summary(sweep: &Sweep) -> String {
    let mut out = String::new();
    let files = sweep.files.len();
    let bytes: u64 = sweep.files.iter().map(|f| f.size).sum();
    let _ = writeln!(
        out,
        "{files} files ({:.1} MB) under {}: {:.1} s on {} workers, {:.1} files/s, {:.1} MB/s",
        bytes as f64 / 1e6,
        sweep.roots.join(", "),
        sweep.seconds,
        sweep.workers,
        files as f64 / sweep.seconds.max(1e-9),
        bytes as f64 / 1e6 / sweep.seconds.max(1e-9),
    );
    let _ = writeln!(
        out,
        "budget: {} s and {} MB per tool and file",
        sweep.budget.seconds,
        sweep.budget.bytes / 1_000_000
    );
    for skipped in &sweep.skipped {
        let _ = writeln!(out, "not followed: {skipped}");
    }
    for (family, tools) in families() {
        let members: Vec<&FileResult> = sweep
            .files
            .iter()
            .filter(|f| family_of(f) == family)
            .collect();
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(out);
        let kinds: BTreeMap<String, usize> =
            members.iter().fold(BTreeMap::new(), |mut kinds, f| {
                *kinds
                    .entry(format!("{:?}", f.kind).to_lowercase())
                    .or_default() += 1;
                kinds
            });
        let kinds: Vec<String> = kinds.iter().map(|(k, n)| format!("{n} {k}")).collect();
        let _ = writeln!(
            out,
            "{} ({}: {})",
            family.name(),
            members.len(),
            kinds.join(", ")
        );
        out.push_str(&outcome_table(&members, tools, sweep.budget));
        out.push_str(&failures(&members, tools));
        out.push_str(&slowest(&members, sweep.budget));
        if family == Family::Models {
            out.push_str(&rules(&members));
        }
    }
    for (name, value) in &sweep.extra {
        let _ = writeln!(out, "{name}: {value}");
    }
    out
}

/// The families and their tools, in `TOOLS`' order.
fn families() -> Vec<(Family, &'static [&'static str])> {
    [Family::Models, Family::Textures, Family::Terrain]
        .into_iter()
        .zip(TOOLS.iter().map(|(_, tools)| *tools))
        .collect()
}

fn outcome_table(files: &[&FileResult], tools: &[&str], budget: Budget) -> String {
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for file in files {
        for run in &file.runs {
            let Some(&tool) = tools.iter().find(|t| **t == run.tool) else {
                continue;
            };
            let row = rows.entry(tool).or_default();
            match run.outcome {
                Outcome::Ok => row.ok += 1,
                Outcome::Warned(_) => row.warned += 1,
                Outcome::Refused(_) => row.refused += 1,
                Outcome::Wrong(_) => row.wrong += 1,
                Outcome::Panic(_) => row.panic += 1,
                Outcome::Skipped(_) => row.skipped += 1,
            }
            row.over += usize::from(budget.exceeded(run));
            row.ms += run.ms;
        }
    }
    let mut table = Table::new(&[
        "tool",
        "ok",
        "warned",
        "refused",
        "wrong",
        "panic",
        "over budget",
        "not run",
        "seconds",
    ]);
    for tool in tools {
        let Some(row) = rows.get(tool) else { continue };
        table.row([
            tool.to_string(),
            row.ok.to_string(),
            row.warned.to_string(),
            row.refused.to_string(),
            row.wrong.to_string(),
            row.panic.to_string(),
            row.over.to_string(),
            row.skipped.to_string(),
            format!("{:.1}", row.ms / 1000.0),
        ]);
    }
    table.render()
}

/// The warnings and failures (warned, refused, wrong, panic) by tool and cause.
fn failures(files: &[&FileResult], tools: &[&str]) -> String {
    // (tool, outcome, cause) -> files
    let mut groups: BTreeMap<(usize, &str, String), Vec<&str>> = BTreeMap::new();
    for file in files {
        for run in &file.runs {
            let Some(tool) = tools.iter().position(|t| *t == run.tool) else {
                continue;
            };
            let (Outcome::Warned(m) | Outcome::Refused(m) | Outcome::Wrong(m) | Outcome::Panic(m)) =
                &run.outcome
            else {
                continue;
            };
            groups
                .entry((tool, run.outcome.name(), cause(m)))
                .or_default()
                .push(&file.path);
        }
    }
    if groups.is_empty() {
        return String::new();
    }
    let mut out = String::from("warnings and failures, by tool and cause:\n");
    let mut sorted: Vec<_> = groups.into_iter().collect();
    sorted.sort_by(|a, b| {
        (a.0.0, std::cmp::Reverse(a.1.len())).cmp(&(b.0.0, std::cmp::Reverse(b.1.len())))
    });
    for ((tool, outcome, cause), paths) in sorted {
        let _ = writeln!(out, "  {} {outcome} {}: {cause}", tools[tool], paths.len());
        for path in paths.iter().take(EXAMPLES) {
            let _ = writeln!(out, "      {path}");
        }
    }
    out
}

/// The slowest runs, and the runs over budget.
fn slowest(files: &[&FileResult], budget: Budget) -> String {
    let mut runs: Vec<(&Run, &str)> = files
        .iter()
        .flat_map(|f| f.runs.iter().map(move |r| (r, f.path.as_str())))
        .collect();
    runs.sort_by(|a, b| b.0.ms.total_cmp(&a.0.ms));
    let mut out = String::from("slowest:\n");
    for (run, path) in runs.iter().take(5) {
        let _ = writeln!(
            out,
            "  {:>8.2} s {:>7.1} MB  {} {path}",
            run.ms / 1000.0,
            run.peak_bytes as f64 / 1e6,
            run.tool
        );
    }
    let mut hungriest = runs.clone();
    hungriest.sort_by_key(|(r, _)| std::cmp::Reverse(r.peak_bytes));
    let _ = writeln!(out, "most memory:");
    for (run, path) in hungriest.iter().take(3) {
        let _ = writeln!(
            out,
            "  {:>7.1} MB {:>8.2} s  {} {path}",
            run.peak_bytes as f64 / 1e6,
            run.ms / 1000.0,
            run.tool
        );
    }
    let over: Vec<_> = runs.iter().filter(|(r, _)| budget.exceeded(r)).collect();
    if !over.is_empty() {
        let _ = writeln!(out, "over budget: {}", over.len());
        for (run, path) in over.iter().take(10) {
            let _ = writeln!(
                out,
                "  {:.2} s {:.1} MB {} {path}",
                run.ms / 1000.0,
                run.peak_bytes as f64 / 1e6,
                run.tool
            );
        }
    }
    out
}

/// `classic` (800), `reforged` (900 to 1200), `other` (WoW alpha 1300+,
/// unknown).
pub fn version_family(version: Option<u32>) -> &'static str {
    match version {
        Some(800) => "classic",
        Some(900..=1200) => "reforged",
        _ => "other",
    }
}

/// How often each validation rule fired: files and findings, by severity
/// and version family, and the share of the family's validated files.
fn rules(files: &[&FileResult]) -> String {
    // (rule, severity, family) -> (files, findings)
    let mut counts: BTreeMap<(String, String, &str), (usize, u64)> = BTreeMap::new();
    let mut validated: BTreeMap<&str, usize> = BTreeMap::new();
    for file in files {
        if !file
            .run("validate")
            .is_some_and(|r| r.outcome == Outcome::Ok)
        {
            continue;
        }
        let family = version_family(file.version);
        *validated.entry(family).or_default() += 1;
        for count in &file.rules {
            let entry = counts
                .entry((count.rule.clone(), count.severity.clone(), family))
                .or_default();
            entry.0 += 1;
            entry.1 += u64::from(count.findings);
        }
    }
    if counts.is_empty() {
        return String::new();
    }
    let families: Vec<&str> = validated.keys().copied().collect();
    let header: Vec<String> = ["rule".to_string(), "severity".to_string()]
        .into_iter()
        .chain(
            families
                .iter()
                .map(|f| format!("{f} files ({} validated)", validated[f])),
        )
        .chain(families.iter().map(|f| format!("{f} findings")))
        .collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut table = Table::new(&header);
    let rules: BTreeSet<(String, String)> = counts
        .keys()
        .map(|(rule, severity, _)| (rule.clone(), severity.clone()))
        .collect();
    for (rule, severity) in rules {
        let cell = |family: &'static str| counts.get(&(rule.clone(), severity.clone(), family));
        let mut row = vec![rule.clone(), severity.clone()];
        for family in &families {
            let (files, _) = cell(family).copied().unwrap_or_default();
            let share = 100.0 * files as f64 / validated[family].max(1) as f64;
            row.push(format!("{files} ({share:.0} %)"));
        }
        for family in &families {
            row.push(cell(family).map_or(0, |c| c.1).to_string());
        }
        table.row(row);
    }
    format!("validation findings:\n{}", table.render())
}

/// What changed since `before`: per tool, the outcome counts before and
/// after, and the files whose outcome changed.
pub fn compare(before: &Sweep, after: &Sweep) -> String {
    let index = |sweep: &Sweep| -> BTreeMap<(String, String), String> {
        sweep
            .files
            .iter()
            .flat_map(|f| {
                f.runs.iter().map(move |r| {
                    (
                        (f.path.clone(), r.tool.clone()),
                        r.outcome.name().to_string(),
                    )
                })
            })
            .collect()
    };
    let (old, new) = (index(before), index(after));
    let mut out = String::from("compared with the earlier sweep:\n");
    let mut changes: BTreeMap<(String, String, String), Vec<String>> = BTreeMap::new();
    for ((path, tool), outcome) in &new {
        let was = old
            .get(&(path.clone(), tool.clone()))
            .cloned()
            .unwrap_or_else(|| "absent".into());
        if &was != outcome {
            changes
                .entry((tool.clone(), was, outcome.clone()))
                .or_default()
                .push(path.clone());
        }
    }
    for ((path, tool), was) in &old {
        if !new.contains_key(&(path.clone(), tool.clone())) {
            changes
                .entry((tool.clone(), was.clone(), "absent".into()))
                .or_default()
                .push(path.clone());
        }
    }
    if changes.is_empty() {
        out.push_str("  no outcome changed\n");
    }
    for ((tool, was, now), paths) in &changes {
        let _ = writeln!(out, "  {tool}: {was} -> {now}: {} files", paths.len());
        for path in paths.iter().take(EXAMPLES) {
            let _ = writeln!(out, "      {path}");
        }
    }
    out
}

/// A text table: columns as wide as their widest cell, the first
/// left-aligned, the others right-aligned.
pub struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new(columns: &[&str]) -> Table {
        Table {
            rows: vec![columns.iter().map(|c| c.to_string()).collect()],
        }
    }

    /// Appends a row.
    pub fn row(&mut self, cells: impl IntoIterator<Item = String>) {
        self.rows.push(cells.into_iter().collect());
    }

    /// The table as lines.
    pub fn render(&self) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let width = |c: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::new();
            for (c, w) in widths.iter().enumerate() {
                let cell = row.get(c).map_or("", String::as_str);
                let _ = match c {
                    0 => write!(line, "{cell:<w$}"),
                    _ => write!(line, "  {cell:>w$}"),
                };
            }
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_cause_is_one_line() {
        assert_eq!(
            cause("the animations would need 138804100 keys (20 sequences; at most 134217728)"),
            "the animations would need N keys (N sequences; at most N)"
        );
        assert_eq!(
            cause("texture \"Textures\\Foo.blp\" at offset 12 (0x0c)"),
            "texture \"…\" at offset N (N)"
        );
        let long = "a b c d e f g h i j k l m n";
        assert_eq!(cause(long), "a b c d e f g h i j k l …");
    }

    #[test]
    fn a_table_aligns_its_columns() {
        let mut table = Table::new(&["tool", "ok"]);
        table.row(["read".to_string(), "12".to_string()]);
        assert_eq!(table.render(), "tool  ok\nread  12\n");
    }
}
