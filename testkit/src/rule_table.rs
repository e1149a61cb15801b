//! The rule table of `formats::validate`'s module docs, read as data: the
//! tests check it against the rules, and grade mdx-m3-viewer's findings by
//! its mdx-m3-viewer column.

use formats::validate::Rule;

/// The rows `| \`id\` | a | b | ...` of the rule tables in `text`: id and
/// the next two cells, as written. In the module docs those are the severity
/// and mdx-m3-viewer's grade; in `docs/sweeps.md`, how often the rule fires.
pub fn documented_rules(text: &str) -> Vec<(String, String, String)> {
    text.lines()
        .map(|l| l.trim_start_matches("//!").trim())
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let id = cells.first()?.strip_prefix('`')?.strip_suffix('`')?;
            let cell = |i: usize| cells.get(i).map(|c| c.to_string());
            Some((id.to_string(), cell(1)?, cell(2)?))
        })
        // A rule id, or what looks like one (a typo must not slip through).
        .filter(|(id, _, _)| {
            id.contains('-') && id.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        })
        .collect()
}

/// The module docs, which hold the rule table.
pub const DOCS: &str = include_str!("../../formats/src/validate/mod.rs");

/// How mdx-m3-viewer's sanity test grades a finding of `rule` in a model of
/// `version`, as the module docs' table says (its mdx-m3-viewer column):
/// `None` where it has no such check; else its grades (`error`, `severe`,
/// `warning`, `unused`; both of `error/severe`), none where it reports
/// nothing in that version. A cell is one grade, or entries `grades
/// (version)` separated by `; `, the last `(others)`.
pub fn viewer_grades(rule: Rule, version: u32) -> Option<Vec<String>> {
    let rows = documented_rules(DOCS);
    let (_, _, cell) = rows.iter().find(|(id, _, _)| id == rule.id()).unwrap();
    if cell == "—" {
        return None;
    }
    for entry in cell.split("; ") {
        let (grades, scope) = match entry.split_once(" (") {
            Some((grades, scope)) => (grades, scope.strip_suffix(')').unwrap()),
            None => (entry, "others"),
        };
        if scope == "others" || scope.parse::<u32>().unwrap() == version {
            let grades = grades.split('/').filter(|g| *g != "none");
            return Some(grades.map(str::to_string).collect());
        }
    }
    Some(Vec::new())
}
