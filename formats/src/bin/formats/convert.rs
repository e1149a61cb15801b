//! `formats convert`: a model from one format to the other (by extension),
//! optionally to another MDX version.

use std::path::Path;
use std::process::ExitCode;

use formats::mdx::Model;

use crate::kind::{self, Document, Kind};

/// `formats convert IN OUT [--version N [--force]]`.
pub fn run(
    input: &Path,
    output: &Path,
    version: Option<u32>,
    force: bool,
) -> Result<ExitCode, String> {
    let out_kind = Kind::of_path(output)
        .ok_or_else(|| format!("{}: the extension says no format", output.display()))?;
    let (in_kind, data) = kind::open(input)?;
    let name = input.display();
    let loaded = kind::read(in_kind, &data).map_err(|e| format!("{name}: {e}"))?;
    let Document::Mdx(mut model) = loaded.document else {
        return Err(format!(
            "{name}: convert takes models (.mdx, .mdl); this is a {} file",
            in_kind.name()
        ));
    };
    if loaded.strict_error.is_some() {
        eprintln!(
            "note: {name}: read leniently ({} diagnostics)",
            loaded.diagnostics.len()
        );
    }
    if let Some(target) = version {
        reversion(&mut model, target, force)?;
    }
    if !matches!(out_kind, Kind::Mdx | Kind::Mdl) {
        return Err(format!(
            "{}: models convert to .mdx or .mdl, not {}",
            output.display(),
            out_kind.name()
        ));
    }
    let version = model.version();
    let document = Document::Mdx(model);
    let out = output.display();
    let bytes = kind::write(out_kind, &document).map_err(|e| format!("{out}: {e}"))?;
    // What is written must read back strictly.
    match kind::read(out_kind, &bytes) {
        Ok(reread) if reread.strict_error.is_none() => {}
        Ok(_) => return Err(format!("{out}: the written model only re-reads leniently")),
        Err(e) => return Err(format!("{out}: the written model does not re-read: {e}")),
    }
    std::fs::write(output, &bytes).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!(
        "wrote {} (MDX version {}, {} bytes)",
        output.display(),
        version,
        bytes.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// `set_version`, or `force_version` with `--force`; the losses one per line.
fn reversion(model: &mut Model, target: u32, force: bool) -> Result<(), String> {
    let from = model.version();
    if force {
        let dropped = model.force_version(target);
        if model.version() != target {
            let why: Vec<String> = dropped.iter().map(ToString::to_string).collect();
            return Err(format!("cannot write version {target}: {}", why.join("; ")));
        }
        if !dropped.is_empty() {
            eprintln!(
                "version {from} -> {target}: dropped {} things (--force):",
                dropped.len()
            );
            for loss in &dropped {
                eprintln!("  {loss}");
            }
        }
        return Ok(());
    }
    model.set_version(target).map_err(|losses| {
        let mut message = format!(
            "version {from} -> {target} would lose {} things (nothing written; --force drops them):",
            losses.len()
        );
        for loss in &losses {
            message.push_str("\n  ");
            message.push_str(&loss.to_string());
        }
        message
    })
}
