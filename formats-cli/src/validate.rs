//! `formats validate PATH... [--json]`: the library's checks
//! ([`formats::validate`]: the structure and the map makers' rules for
//! models, the references, chunk grid, layers and liquids of tiles) on every
//! model and tile under the paths, in parallel; each file's findings with
//! their rule and severity, then a table per rule, or one JSON document.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::validate::{self, Finding, Rule, Severity};
use serde::Serialize;

use crate::batch::{self, Table};
use crate::kind::{self, Document, Kind};
use crate::plural;

/// The kinds `validate` checks (folders are walked for these).
fn checked(kind: Kind) -> bool {
    matches!(kind, Kind::Mdx | Kind::Mdl | Kind::Adt | Kind::AdtSplit)
}

/// One finding as the tool reports it.
#[derive(Serialize)]
struct Reported {
    rule: Rule,
    severity: Severity,
    path: String,
    message: String,
}

impl From<Finding> for Reported {
    fn from(f: Finding) -> Self {
        Reported {
            rule: f.rule,
            severity: f.severity(),
            path: f.path,
            message: f.message,
        }
    }
}

/// One file's result.
#[derive(Serialize)]
struct FileReport {
    path: String,
    kind: &'static str,
    /// `strict` or `lenient` (only the lenient reader took it).
    read: &'static str,
    /// The lenient reader's diagnostics.
    diagnostics: Vec<String>,
    findings: Vec<Reported>,
    /// Why the file could not be checked (read error, not a model or tile).
    error: Option<String>,
}

impl FileReport {
    fn count(&self, severity: Severity) -> usize {
        self.findings
            .iter()
            .filter(|f| f.severity == severity)
            .count()
    }

    /// True when the file fails the run: unreadable, or an error found.
    fn failed(&self) -> bool {
        self.error.is_some() || self.count(Severity::Error) > 0
    }

    fn text(&self) -> String {
        let mut out = self.path.clone();
        if let Some(error) = &self.error {
            let _ = writeln!(out, ": FAILED: {error}");
            return out;
        }
        let counts = if self.findings.is_empty() {
            "no findings".to_string()
        } else {
            [Severity::Error, Severity::Warning, Severity::Info]
                .map(|s| plural(self.count(s), s.name()))
                .join(", ")
        };
        let _ = write!(out, ": {counts}");
        if !self.diagnostics.is_empty() {
            let n = self.diagnostics.len();
            let _ = write!(out, " (read leniently: {})", plural(n, "diagnostic"));
        }
        out.push('\n');
        let width = self
            .findings
            .iter()
            .map(|f| f.rule.id().len())
            .max()
            .unwrap_or(0);
        for f in &self.findings {
            let (severity, id) = (f.severity.name(), f.rule.id());
            let _ = writeln!(
                out,
                "  {severity:<7}  {id:<width$}  {}: {}",
                f.path, f.message
            );
        }
        out
    }
}

fn validate_file(path: &Path) -> FileReport {
    let mut report = FileReport {
        path: path.display().to_string(),
        kind: "?",
        read: "strict",
        diagnostics: Vec::new(),
        findings: Vec::new(),
        error: None,
    };
    let loaded = kind::open(path).and_then(|(kind, data)| {
        report.kind = kind.name();
        if !checked(kind) {
            return Err(format!(
                "validate checks models and tiles, not {} files",
                kind.name()
            ));
        }
        kind::read(kind, &data).map_err(|e| e.to_string())
    });
    let loaded = match loaded {
        Ok(loaded) => loaded,
        Err(e) => {
            report.error = Some(e);
            return report;
        }
    };
    if loaded.strict_error.is_some() {
        report.read = "lenient";
        report.diagnostics = loaded.diagnostics.iter().map(|d| d.to_string()).collect();
    }
    let findings = match &loaded.document {
        Document::Mdx(model) => validate::all(model),
        Document::Adt(adt) => validate::tile(adt),
        Document::AdtSplit(file) => validate::split_file(file),
        // `checked` lets no other kind through.
        Document::Wdt(_) | Document::Blp(_) | Document::Dds(_) => Vec::new(),
    };
    report.findings = findings.into_iter().map(Reported::from).collect();
    report
}

/// The summary's rows, by severity (errors first), then in the order of the
/// rules' table.
type Rows = BTreeMap<(Reverse<Severity>, Rule), Row>;

/// One row of the summary: a rule found, in how many findings and files.
#[derive(Serialize)]
struct Row {
    rule: Rule,
    severity: Severity,
    findings: usize,
    files: usize,
}

/// A row per rule found.
fn per_rule(reports: &[FileReport]) -> Rows {
    let mut rows = Rows::new();
    for report in reports {
        let mut seen = HashSet::new();
        for f in &report.findings {
            let row = rows.entry((Reverse(f.severity), f.rule)).or_insert(Row {
                rule: f.rule,
                severity: f.severity,
                findings: 0,
                files: 0,
            });
            row.findings += 1;
            row.files += usize::from(seen.insert(f.rule));
        }
    }
    rows
}

/// `formats validate PATH... [--json]`: exit code 1 when any file has an
/// error-severity finding or could not be checked.
pub fn run(paths: &[PathBuf], json: bool) -> Result<ExitCode, String> {
    let files = batch::collect(paths, "models or tiles (.mdx, .mdl, .adt)", checked)?;
    let reports = batch::run(&files, |file| validate_file(file));
    let rows = per_rule(&reports);
    let failed = reports.iter().filter(|r| r.failed()).count();
    let total = |s: Severity| reports.iter().map(|r| r.count(s)).sum::<usize>();
    if json {
        let summary: Vec<&Row> = rows.values().collect();
        let doc = serde_json::json!({
            "files": reports,
            "summary": summary,
            "errors": total(Severity::Error),
            "warnings": total(Severity::Warning),
            "infos": total(Severity::Info),
            "failed": failed,
        });
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        crate::print_out(&format!("{text}\n"))?;
    } else {
        for report in &reports {
            crate::print_out(&report.text())?;
        }
        crate::print_out(&summary(&reports, &rows, failed))?;
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The table per rule and a line on the files.
fn summary(reports: &[FileReport], rows: &Rows, failed: usize) -> String {
    let mut out = String::from("\n");
    if !rows.is_empty() {
        let mut table = Table::new(&["rule", "severity", "findings", "files"]);
        for row in rows.values() {
            table.row([
                row.rule.id().to_string(),
                row.severity.to_string(),
                row.findings.to_string(),
                row.files.to_string(),
            ]);
        }
        let findings: usize = rows.values().map(|r| r.findings).sum();
        table.row(["total".to_string(), String::new(), findings.to_string()]);
        out.push_str(&table.render());
    }
    let unreadable = reports.iter().filter(|r| r.error.is_some()).count();
    let clean = reports
        .iter()
        .filter(|r| r.error.is_none() && r.findings.is_empty())
        .count();
    let _ = writeln!(
        out,
        "{}: {failed} failed ({unreadable} could not be checked), {clean} without findings",
        plural(reports.len(), "file")
    );
    out
}
