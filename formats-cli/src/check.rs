//! `formats check`: every supported file under the paths read, written back
//! and compared (textures also decoded, every level); a line per file, a
//! summary table, or JSON.
//!
//! A texture fails when its level 0 does not decode: that is what viewers
//! (Pillow, the World Editor) and the game show. A smaller level that does
//! not decode (a JPEG 1 x 1 level whose frame header is cut short) is a
//! warning, named on the file's line and counted under the table; `--strict`
//! counts it as a failure, as it does a file only the lenient reader takes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use crate::kind::{self, Kind};

/// How reading went.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
enum Parse {
    /// The strict reader took it.
    Strict,
    /// Only the lenient reader took it.
    Lenient,
    /// Neither did (or writing failed).
    Failed,
}

/// One file's result.
#[derive(Serialize)]
struct FileReport {
    path: String,
    kind: &'static str,
    parse: Parse,
    /// Lenient diagnostics.
    diagnostics: usize,
    /// Why the strict reader refused the file, when only the lenient reader
    /// took it (offset and path).
    strict_error: Option<String>,
    /// `Some(true)` when writing gave back the file's bytes.
    byte_exact: Option<bool>,
    /// Where written and read bytes first differ.
    first_difference: Option<usize>,
    /// MDL only: the text written reads back to the same model. Text from
    /// other tools is not byte-exact (the writer has one canonical layout),
    /// so for MDL this is the round trip that must hold.
    same_model: Option<bool>,
    /// Textures only: every mip level decodes to pixels.
    decodes: Option<bool>,
    /// Textures only: the levels that do not decode, each with its error.
    /// Level 0 among them fails the file; smaller ones alone are a warning
    /// (a failure with `--strict`).
    undecodable_levels: Vec<LevelError>,
    /// The error (with offset and path).
    message: Option<String>,
}

/// A mip level of a texture that does not decode.
#[derive(Serialize)]
struct LevelError {
    level: usize,
    error: String,
}

impl FileReport {
    /// Whether the file failed; with `strict`, a file only the lenient
    /// reader took fails too, and so does a texture with any level that does
    /// not decode (level 0 fails it in any case).
    fn failed(&self, strict: bool) -> bool {
        self.parse == Parse::Failed
            || (strict && self.parse == Parse::Lenient)
            || self.same_model == Some(false)
            || self.undecodable_levels.iter().any(|l| l.level == 0)
            || (strict && self.decodes == Some(false))
            || (self.same_model.is_none() && self.byte_exact == Some(false))
    }

    /// A texture whose level 0 decodes but a smaller level does not: a
    /// warning (unless `--strict` made it a failure).
    fn level_warning(&self) -> bool {
        self.decodes == Some(false) && !self.undecodable_levels.iter().any(|l| l.level == 0)
    }

    fn line(&self) -> String {
        let what = match self.parse {
            Parse::Strict => "parsed".to_string(),
            Parse::Lenient => format!(
                "parsed leniently ({}; strictly: {})",
                crate::plural(self.diagnostics, "diagnostic"),
                self.strict_error.as_deref().unwrap_or("?")
            ),
            Parse::Failed => "FAILED".to_string(),
        };
        let exact = match (self.byte_exact, self.first_difference) {
            (Some(true), _) => ", byte-exact".to_string(),
            (Some(false), _) if self.same_model == Some(true) => {
                ", the same model back (text rewritten in the canonical layout)".to_string()
            }
            // MDL text is not expected to come back byte for byte: what
            // failed is the model.
            (Some(false), _) if self.same_model == Some(false) => {
                ", NOT the same model back".to_string()
            }
            (Some(false), Some(at)) => format!(", NOT byte-exact (first difference at {at:#x})"),
            (Some(false), None) => ", NOT byte-exact".to_string(),
            (None, _) => String::new(),
        };
        let errors: Vec<(usize, String)> = self
            .undecodable_levels
            .iter()
            .map(|l| (l.level, l.error.clone()))
            .collect();
        let decodes = match (self.decodes, crate::blp::undecodable(&errors)) {
            (Some(true), _) => ", every level decodes".to_string(),
            (Some(false), Some(which)) => format!(", {which}"),
            (Some(false), None) => ", a level does NOT decode".to_string(),
            (None, _) => String::new(),
        };
        let message = self
            .message
            .as_ref()
            .map_or(String::new(), |m| format!(": {m}"));
        format!("{}: {what}{exact}{decodes}{message}", self.path)
    }
}

fn check_file(path: &Path) -> FileReport {
    let mut report = FileReport {
        path: path.display().to_string(),
        kind: "?",
        parse: Parse::Failed,
        diagnostics: 0,
        strict_error: None,
        byte_exact: None,
        first_difference: None,
        same_model: None,
        decodes: None,
        undecodable_levels: Vec::new(),
        message: None,
    };
    let (kind, data) = match kind::open(path) {
        Ok(x) => x,
        Err(e) => {
            report.message = Some(e);
            return report;
        }
    };
    report.kind = kind.name();
    let loaded = match kind::read(kind, &data) {
        Ok(loaded) => loaded,
        Err(e) => {
            report.message = Some(e.to_string());
            return report;
        }
    };
    report.parse = if loaded.strict_error.is_some() {
        Parse::Lenient
    } else {
        Parse::Strict
    };
    report.diagnostics = loaded.diagnostics.len();
    report.strict_error = loaded.strict_error.as_ref().map(ToString::to_string);
    match kind::write(kind, &loaded.document) {
        Ok(bytes) => {
            if kind == Kind::Mdl {
                // Compared as MDX, what `convert` writes: a model MDX
                // cannot hold is not the same back, and its writer says why.
                if let kind::Document::Mdx(model) = &loaded.document {
                    report.same_model = Some(match model.to_bytes() {
                        Ok(mdx) => kind::mdl_reads_back_as(&bytes, &mdx),
                        Err(e) => {
                            report.message = Some(format!("writing as MDX: {e}"));
                            false
                        }
                    });
                }
            }
            report.byte_exact = Some(bytes == data);
            if bytes != data {
                let same = bytes.iter().zip(&data).take_while(|(a, b)| a == b).count();
                report.first_difference = Some(same);
            }
        }
        Err(e) => {
            report.parse = Parse::Failed;
            report.message = Some(format!("writing: {e}"));
        }
    }
    let errors = match &loaded.document {
        kind::Document::Blp(blp) => Some(crate::blp::level_errors(blp)),
        kind::Document::Dds(dds) => Some(crate::blp::dds_level_errors(dds)),
        _ => None,
    };
    if let Some(errors) = errors {
        report.decodes = Some(errors.is_empty());
        if !errors.is_empty() {
            let why: Vec<&str> = errors.iter().map(|(_, e)| e.as_str()).collect();
            let why = why.join("; ");
            report.message = Some(match report.message.take() {
                Some(earlier) => format!("{earlier}; {why}"),
                None => why,
            });
        }
        report.undecodable_levels = errors
            .into_iter()
            .map(|(level, error)| LevelError { level, error })
            .collect();
    }
    report
}

/// `formats check PATH... [--json] [--strict]`.
pub fn run(paths: &[PathBuf], json: bool, strict: bool) -> Result<ExitCode, String> {
    let files = crate::batch::collect(
        paths,
        "files to check (.mdx, .mdl, .adt, .wdt, .blp, .dds)",
        // glTF is the import's input, not a file written back.
        |kind| kind != Kind::Gltf,
    )?;
    let reports = crate::batch::run(&files, |file| check_file(file));
    if !json {
        for report in &reports {
            crate::print_out(&format!("{}\n", report.line()))?;
        }
    }
    let failed = reports.iter().filter(|r| r.failed(strict)).count();
    let level_warnings = reports
        .iter()
        .filter(|r| r.level_warning() && !r.failed(strict))
        .count();
    if json {
        let doc = serde_json::json!({
            "files": reports,
            "summary": summary_rows(&reports, strict).into_iter().map(|(kind, row)| {
                serde_json::json!({"kind": kind, "files": row.files, "strict": row.strict,
                    "lenient": row.lenient, "failed": row.failed,
                    "byte_exact": row.exact, "same_model": row.same_model})
            }).collect::<Vec<_>>(),
            "failed": failed,
            "level_warnings": level_warnings,
        });
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        crate::print_out(&text)?;
        crate::print_out("\n")?;
    } else {
        crate::print_out(&summary(&reports, strict))?;
    }
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[derive(Default)]
struct Row {
    files: usize,
    strict: usize,
    lenient: usize,
    failed: usize,
    exact: usize,
    same_model: usize,
}

fn summary_rows(reports: &[FileReport], strict: bool) -> BTreeMap<&'static str, Row> {
    let mut rows: BTreeMap<&'static str, Row> = BTreeMap::new();
    for r in reports {
        let row = rows.entry(r.kind).or_default();
        row.files += 1;
        match r.parse {
            Parse::Strict => row.strict += 1,
            Parse::Lenient => row.lenient += 1,
            Parse::Failed => {}
        }
        // Any failure (a parse, a byte difference, a different model, a level
        // that does not decode), as the list of failed files under the table.
        row.failed += usize::from(r.failed(strict));
        row.exact += usize::from(r.byte_exact == Some(true));
        row.same_model += usize::from(r.same_model == Some(true));
    }
    rows
}

/// The table at the end, with a line on skipped kinds and the failures.
fn summary(reports: &[FileReport], strict: bool) -> String {
    use std::fmt::Write;
    let mut table = crate::batch::Table::new(&[
        "kind",
        "files",
        "strict",
        "lenient",
        "failed",
        "byte-exact",
        "same model",
    ]);
    let mut total = Row::default();
    for (kind, row) in summary_rows(reports, strict) {
        table.row([
            kind.to_string(),
            row.files.to_string(),
            row.strict.to_string(),
            row.lenient.to_string(),
            row.failed.to_string(),
            row.exact.to_string(),
            row.same_model.to_string(),
        ]);
        total.files += row.files;
        total.strict += row.strict;
        total.lenient += row.lenient;
        total.failed += row.failed;
        total.exact += row.exact;
        total.same_model += row.same_model;
    }
    table.row([
        "total".to_string(),
        total.files.to_string(),
        total.strict.to_string(),
        total.lenient.to_string(),
        total.failed.to_string(),
        total.exact.to_string(),
        total.same_model.to_string(),
    ]);
    let mut out = format!("\n{}", table.render());
    if total.same_model > 0 {
        let _ = writeln!(
            out,
            "same model: MDL text read, written in the canonical layout, and read back to the same model"
        );
    }
    if total.lenient > 0 && !strict {
        let _ = writeln!(
            out,
            "lenient: the strict reader refused the file (its error is on the file's line): a quirk \
             kept or damage; --strict counts these as failures"
        );
    }
    let warned = reports
        .iter()
        .filter(|r| r.level_warning() && !r.failed(strict))
        .count();
    if warned > 0 {
        let _ = writeln!(
            out,
            "warning: {} a mip level past level 0 that does not decode (its line says \
             which); level 0, what viewers and the game show, does; --strict counts these as \
             failures",
            match warned {
                1 => "1 texture has".to_string(),
                n => format!("{n} textures have"),
            }
        );
    }
    let failed: Vec<_> = reports.iter().filter(|r| r.failed(strict)).collect();
    if failed.is_empty() {
        let _ = writeln!(out, "no failures");
    } else {
        let _ = writeln!(out, "{} failed:", failed.len());
        for r in failed {
            let _ = writeln!(out, "  {}", r.line());
        }
    }
    out
}
