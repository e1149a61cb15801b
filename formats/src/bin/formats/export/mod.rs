//! `formats export`: files out to glTF, the exporter chosen by the input's
//! kind (models: [`model`]). Several inputs go into an output folder, in
//! parallel, with a progress bar.

mod model;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::kind::{self, Kind};

/// What every input is exported with.
pub struct Options {
    /// Folders to look for textures in (after the model's own folder).
    pub textures: Vec<PathBuf>,
    /// Only this sequence.
    pub sequence: Option<String>,
    /// No animations at all.
    pub no_animations: bool,
    /// The level of detail.
    pub lod: i32,
    /// Into a folder: `.gltf` files (with `.bin` and images) instead of `.glb`.
    pub gltf: bool,
}

/// What one export wrote, as lines for the user.
pub struct Written {
    /// The summary line.
    pub line: String,
    /// Warnings (missing textures, geosets left out, ...).
    pub warnings: Vec<String>,
}

/// Exports one file to `output` (its extension, `.glb` or `.gltf`, says how).
fn export_file(input: &Path, output: &Path, options: &Options) -> Result<Written, String> {
    let (kind, data) = kind::open(input)?;
    match kind {
        Kind::Mdx | Kind::Mdl => model::export(input, kind, &data, output, options),
        other => Err(format!(
            "{}: {} files have no glTF export (models: .mdx, .mdl)",
            input.display(),
            other.name()
        )),
    }
}

/// Whether `path` names a glTF file (`.glb` or `.gltf`).
fn is_gltf_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
}

/// `formats export IN... OUT`: one input to a `.glb`/`.gltf` file, or
/// inputs into the folder `OUT`.
pub fn run(inputs: &[PathBuf], output: &Path, options: &Options) -> Result<ExitCode, String> {
    let extension = if options.gltf { "gltf" } else { "glb" };
    let jobs = crate::batch::outputs(inputs, output, is_gltf_file, |_| extension.into())?;
    let results = crate::batch::run(&jobs, |(input, out)| export_file(input, out, options));
    let mut failed = 0;
    for result in results {
        match result {
            Ok(written) => {
                crate::print_out(&format!("{}\n", written.line))?;
                for warning in written.warnings {
                    eprintln!("warning: {warning}");
                }
            }
            Err(message) => {
                failed += 1;
                eprintln!("error: {message}");
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
