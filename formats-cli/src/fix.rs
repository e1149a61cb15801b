//! `formats fix --extents`: every model's extents measured from its posed
//! geometry and stored ([`formats::mdx::Model::recompute_extents`]), models
//! in parallel; a line per model saying what changed, a summary table, or
//! JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::bounds::ExtentChange;
use formats::mdx::Extent;
use serde::Serialize;

use crate::rewrite::{self, Destination};

/// One model's result.
#[derive(Serialize)]
struct FileReport {
    input: String,
    /// Where it was written (`None`: a dry run, or it failed).
    output: Option<String>,
    /// Whether it has vertices to measure (without, nothing is changed).
    measured: bool,
    changes: Vec<ExtentChange>,
    /// The largest move of a box corner among the changed extents that were
    /// there before and after (and not empty).
    largest_move: f32,
    /// Bytes written.
    bytes: Option<usize>,
    /// The warning a lenient read gives (`None`: read strictly).
    lenient_note: Option<String>,
    /// MDL comments the rewrite dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    comment_note: Option<String>,
    /// How the measurement was cut short (`None`: every pose asked for).
    coarse: Option<String>,
    error: Option<String>,
}

impl FileReport {
    /// What changed, in a few words: `MODL, 2 sequences, 3 geosets, 14
    /// per-sequence (+1 -2)`.
    fn summary(&self) -> String {
        let count =
            |f: &dyn Fn(&ExtentChange) -> bool| self.changes.iter().filter(|c| f(c)).count();
        let per_sequence = |c: &ExtentChange| {
            c.path.contains(".sequence_extents[") || c.path.contains(".seq_bounds[")
        };
        let modl = count(&|c| c.path.contains(".MODL."));
        let sequences = count(&|c| c.path.contains(".SEQS."));
        let lists = count(&per_sequence);
        let geosets = self.changes.len() - modl - sequences - lists;
        let added = count(&|c| c.before.is_none());
        let removed = count(&|c| c.after.is_none());
        let mut parts = Vec::new();
        if modl > 0 {
            parts.push("MODL".to_string());
        }
        for (n, what) in [(sequences, "sequence"), (geosets, "geoset")] {
            if n > 0 {
                parts.push(crate::plural(n, what));
            }
        }
        if lists > 0 {
            parts.push(format!("{lists} per-sequence"));
        }
        let mut text = parts.join(", ");
        if added + removed > 0 {
            text += &format!(" (+{added} -{removed})");
        }
        text
    }

    fn line(&self) -> String {
        let written = match (&self.output, self.bytes) {
            (Some(out), Some(bytes)) => format!(", wrote {out} ({bytes} bytes)"),
            _ => String::new(),
        };
        match &self.error {
            Some(e) => format!("{}: FAILED: {e}", self.input),
            None if !self.measured => format!(
                "{}: no vertices, extents left as they are{written}",
                self.input
            ),
            None if self.changes.is_empty() => {
                format!("{}: extents up to date{written}", self.input)
            }
            None => format!(
                "{}: {} changed ({}), corners moved up to {}{written}",
                self.input,
                crate::plural(self.changes.len(), "extent"),
                self.summary(),
                self.largest_move
            ),
        }
    }
}

/// How far the change moved a box corner (the radius left out: Blizzard's
/// `MODL` radius is 0, "not set").
fn corner_move(change: &ExtentChange) -> f32 {
    let (Some(before), Some(after)) = (change.before, change.after) else {
        return f32::INFINITY;
    };
    ExtentChange {
        path: String::new(),
        before: Some(Extent {
            bounds_radius: after.bounds_radius,
            ..before
        }),
        after: Some(after),
    }
    .distance()
}

/// Fixes one model.
fn fix_file(input: &Path, output: Option<&Path>) -> FileReport {
    let mut report = FileReport {
        input: input.display().to_string(),
        output: None,
        measured: false,
        changes: Vec::new(),
        largest_move: 0.0,
        bytes: None,
        lenient_note: None,
        comment_note: None,
        coarse: None,
        error: None,
    };
    let result = (|| {
        let mut source = rewrite::read(input)?;
        report.lenient_note = source.lenient_note.take();
        let measured = formats::bounds::measure(&source.model, &Default::default());
        report.measured = measured.is_some();
        report.coarse = measured.as_ref().and_then(|m| m.coarse());
        let changes: Vec<ExtentChange> = measured
            .map(|m| source.model.store_extents(&m))
            .unwrap_or_default();
        report.largest_move = changes
            .iter()
            .map(corner_move)
            .filter(|d| d.is_finite())
            .fold(0.0, f32::max);
        report.changes = changes;
        if let Some(output) = output {
            report.bytes = Some(rewrite::write(&source.model, output, source.lenient)?);
            if rewrite::is_mdl(output) {
                report.comment_note = source.comment_note.take();
            }
            report.output = Some(output.display().to_string());
        }
        Ok::<(), String>(())
    })();
    report.error = result.err();
    report
}

/// `formats fix --extents IN... (OUT | --in-place | --dry-run) [--json]`.
pub fn run(
    mut paths: Vec<PathBuf>,
    in_place: bool,
    dry_run: bool,
    json: bool,
) -> Result<ExitCode, String> {
    let destination = match (in_place, dry_run, paths.len()) {
        (true, _, _) => Destination::InPlace,
        (_, true, _) => Destination::DryRun,
        (_, _, 2..) => Destination::To(paths.pop().unwrap_or_default()),
        _ => return Err("fix takes IN... OUT, or --in-place, or --dry-run".into()),
    };
    let destination = &destination;
    let jobs = rewrite::jobs(&paths, destination)?;
    let reports = crate::batch::run(&jobs, |(input, output)| fix_file(input, output.as_deref()));
    let failed = reports.iter().filter(|r| r.error.is_some()).count();
    if json {
        rewrite::print_json(&serde_json::json!({ "files": reports, "failed": failed }))?;
    } else {
        let mut out = String::new();
        for report in &reports {
            out += &report.line();
            out.push('\n');
        }
        let mut table =
            crate::batch::Table::new(&["models", "fixed", "up to date", "no vertices", "failed"]);
        let count = |f: &dyn Fn(&FileReport) -> bool| reports.iter().filter(|r| f(r)).count();
        let ok = |r: &FileReport| r.error.is_none();
        table.row([
            reports.len(),
            count(&|r| ok(r) && !r.changes.is_empty()),
            count(&|r| ok(r) && r.measured && r.changes.is_empty()),
            count(&|r| ok(r) && !r.measured),
            failed,
        ]);
        out += "\n";
        out += &table.render();
        if matches!(destination, Destination::DryRun) {
            out += "dry run: nothing written\n";
        }
        crate::print_out(&out)?;
        let notes = reports
            .iter()
            .flat_map(|r| [&r.lenient_note, &r.comment_note]);
        for note in notes.flatten() {
            eprintln!("warning: {note}");
        }
        for report in reports.iter().filter(|r| r.coarse.is_some()) {
            let how = report.coarse.as_deref().unwrap_or_default();
            eprintln!("warning: {}: measured coarsely: {how}", report.input);
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
