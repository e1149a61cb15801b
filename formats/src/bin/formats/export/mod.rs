//! `formats export`: files out to glTF, the exporter chosen by the input's
//! kind (models: [`model`], tiles: [`tile`]). Several inputs, or a map's WDT
//! (its tiles found beside it), go into an output folder, in parallel, with a
//! progress bar.

mod model;
mod tile;

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
        Kind::Adt => tile::export(input, &data, output),
        other => Err(format!(
            "{}: {} files have no glTF export (models: .mdx, .mdl; tiles: .adt; maps: .wdt)",
            input.display(),
            other.name()
        )),
    }
}

/// Writes `document` to `output`: one `.glb`, or a `.gltf` with its `.bin`
/// and images beside it (by the extension). Gives `output` for messages.
pub fn write_document(document: &formats::gltf::Document, output: &Path) -> Result<String, String> {
    let out = output.display().to_string();
    let is_gltf = output
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
    if is_gltf {
        let formats::gltf::GltfFiles { json, files } = document
            .to_gltf(&crate::file_stem(output, "export"))
            .map_err(|e| format!("{out}: {e}"))?;
        let folder = output.parent().unwrap_or(Path::new("."));
        for (file, bytes) in files {
            let path = folder.join(file);
            std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        std::fs::write(output, json).map_err(|e| format!("{out}: {e}"))?;
    } else {
        let glb = document.to_glb().map_err(|e| format!("{out}: {e}"))?;
        std::fs::write(output, glb).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(out)
}

/// The inputs with every map's WDT replaced by the tiles found beside it;
/// the tiles it lists that are missing are reported on stderr.
fn expand_maps(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if Kind::of_path(input) != Some(Kind::Wdt) {
            files.push(input.clone());
            continue;
        }
        let (tiles, missing, _) = crate::terrain::map_tiles(input)?;
        if tiles.is_empty() {
            return Err(format!(
                "{}: none of the {} tiles the WDT lists is beside it",
                input.display(),
                missing.len()
            ));
        }
        if !missing.is_empty() {
            eprintln!(
                "{}: {} of {} tiles the WDT lists are missing: {}",
                input.display(),
                missing.len(),
                missing.len() + tiles.len(),
                missing.join(", ")
            );
        }
        files.extend(tiles.into_iter().map(|t| t.path));
    }
    Ok(files)
}

/// Whether `path` names a glTF file (`.glb` or `.gltf`).
fn is_gltf_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
}

/// `formats export IN... OUT`: one input to a `.glb`/`.gltf` file, or
/// inputs (a map's WDT: its tiles) into the folder `OUT`.
pub fn run(inputs: &[PathBuf], output: &Path, options: &Options) -> Result<ExitCode, String> {
    if is_gltf_file(output) && inputs.iter().any(|i| Kind::of_path(i) == Some(Kind::Wdt)) {
        return Err(format!(
            "a map's tiles go into a folder, not into {}",
            output.display()
        ));
    }
    let files = expand_maps(inputs)?;
    let extension = if options.gltf { "gltf" } else { "glb" };
    let jobs = crate::batch::outputs(&files, output, is_gltf_file, |_| extension.into())?;
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
