//! `formats optimize`: every model's animation thinned within a tolerance
//! ([`formats::optimize`]), models in parallel; a table of the sizes
//! before and after, or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::optimize::{Options, Report, optimize};
use serde::Serialize;

use crate::rewrite::{self, Destination};

/// One model's result.
#[derive(Serialize, Default)]
struct FileReport {
    input: String,
    output: Option<String>,
    /// The model's size written before optimizing, in the output's form (for
    /// MDX the input file's own size: writing is byte-exact; MDL text is
    /// written in the canonical layout, so this isolates the optimizer).
    bytes_before: usize,
    /// The written file's size.
    bytes_after: usize,
    keys_before: usize,
    keys_after: usize,
    tracks_removed: usize,
    /// The ids (before) of the global sequences removed.
    global_sequences_removed: Vec<usize>,
    /// The warning a lenient read gives (`None`: read strictly).
    lenient_note: Option<String>,
    /// MDL comments the rewrite dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    comment_note: Option<String>,
    error: Option<String>,
}

impl FileReport {
    fn saved(&self) -> usize {
        self.bytes_before.saturating_sub(self.bytes_after)
    }
}

/// `saved` of `before` as a percentage, one decimal.
fn percent(saved: usize, before: usize) -> String {
    if before == 0 {
        return "-".into();
    }
    format!("{:.1}%", 100.0 * saved as f64 / before as f64)
}

fn optimize_file(input: &Path, output: &Path, options: &Options) -> FileReport {
    let mut report = FileReport {
        input: input.display().to_string(),
        ..FileReport::default()
    };
    let result = (|| {
        let mut source = rewrite::read(input)?;
        report.lenient_note = source.lenient_note.take();
        report.bytes_before = rewrite::encode(&source.model, output)?.len();
        let Report {
            keys_before,
            keys_after,
            tracks_removed,
            global_sequences_removed,
            ..
        } = optimize(&mut source.model, options);
        report.keys_before = keys_before;
        report.keys_after = keys_after;
        report.tracks_removed = tracks_removed;
        report.global_sequences_removed = global_sequences_removed;
        report.bytes_after = rewrite::write(&source.model, output, source.lenient)?;
        if rewrite::is_mdl(output) {
            report.comment_note = source.comment_note.take();
        }
        report.output = Some(output.display().to_string());
        Ok::<(), String>(())
    })();
    report.error = result.err();
    report
}

/// `formats optimize IN... OUT [--tolerance T] [--json]`.
pub fn run(
    inputs: &[PathBuf],
    output: &Path,
    tolerance: f32,
    json: bool,
) -> Result<ExitCode, String> {
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(format!(
            "--tolerance {tolerance}: a tolerance is a number 0 or above"
        ));
    }
    // `-0` is 0 (and says so in the summary).
    let tolerance = tolerance + 0.0;
    let options = Options { tolerance };
    let jobs = rewrite::jobs(inputs, &Destination::To(output.to_path_buf()))?;
    let reports = crate::batch::run(&jobs, |(input, output)| match output {
        Some(output) => optimize_file(input, output, &options),
        None => FileReport::default(),
    });
    let failed = reports.iter().filter(|r| r.error.is_some()).count();
    let done: Vec<&FileReport> = reports.iter().filter(|r| r.error.is_none()).collect();
    let before: usize = done.iter().map(|r| r.bytes_before).sum();
    let after: usize = done.iter().map(|r| r.bytes_after).sum();
    if json {
        rewrite::print_json(&serde_json::json!({
            "tolerance": tolerance,
            "files": reports,
            "total": {
                "bytes_before": before,
                "bytes_after": after,
                "saved": before.saturating_sub(after),
            },
            "failed": failed,
        }))?;
    } else {
        let mut table = crate::batch::Table::new(&[
            "model",
            "bytes",
            "after",
            "saved",
            "keys",
            "after",
            "tracks removed",
            "global seqs removed",
        ]);
        for r in &done {
            table.row([
                r.input.clone(),
                r.bytes_before.to_string(),
                r.bytes_after.to_string(),
                percent(r.saved(), r.bytes_before),
                r.keys_before.to_string(),
                r.keys_after.to_string(),
                r.tracks_removed.to_string(),
                r.global_sequences_removed.len().to_string(),
            ]);
        }
        table.row([
            format!("total ({})", crate::plural(done.len(), "model")),
            before.to_string(),
            after.to_string(),
            percent(before.saturating_sub(after), before),
        ]);
        let mut out = table.render();
        out += &format!(
            "saved {} bytes; every track within {tolerance} of the original at every frame\n",
            before.saturating_sub(after)
        );
        for r in reports.iter().filter(|r| r.error.is_some()) {
            out += &format!(
                "{}: FAILED: {}\n",
                r.input,
                r.error.as_deref().unwrap_or_default()
            );
        }
        crate::print_out(&out)?;
        let notes = reports
            .iter()
            .flat_map(|r| [&r.lenient_note, &r.comment_note]);
        for note in notes.flatten() {
            eprintln!("warning: {note}");
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
