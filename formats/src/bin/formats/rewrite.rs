//! Commands that change models and write them back (`fix`, `optimize`): the
//! models found under the paths, where each goes (a file, a folder, or back
//! in place), read and written in the form they came in (MDX or MDL), and
//! checked to read back before anything is written.

use std::path::{Path, PathBuf};

use formats::mdx::Model;

use crate::kind::{self, Document, Kind};

/// Where the changed models go.
pub enum Destination {
    /// A `.mdx`/`.mdl` file (one input) or a folder (created).
    To(PathBuf),
    /// Over the inputs.
    InPlace,
    /// Nowhere: only say what would change.
    DryRun,
}

/// A model read from a file.
pub struct Source {
    /// The model.
    pub model: Model,
    /// Only the lenient reader took it.
    pub lenient: bool,
}

/// `(input, output)` for every model (`.mdx`, `.mdl`) under `paths`; the
/// output is `None` for a dry run.
pub fn jobs(
    paths: &[PathBuf],
    destination: &Destination,
) -> Result<Vec<(PathBuf, Option<PathBuf>)>, String> {
    let inputs = crate::batch::collect(paths, |k| matches!(k, Kind::Mdx | Kind::Mdl))?;
    if inputs.is_empty() {
        return Err("no models (.mdx, .mdl) under the paths given".into());
    }
    Ok(match destination {
        Destination::To(output) => {
            let is_model = |p: &Path| matches!(Kind::of_path(p), Some(Kind::Mdx | Kind::Mdl));
            let extension = |p: &Path| match Kind::of_path(p) {
                Some(Kind::Mdl) => "mdl".to_string(),
                _ => "mdx".to_string(),
            };
            crate::batch::outputs(&inputs, output, is_model, extension)?
                .into_iter()
                .map(|(i, o)| (i, Some(o)))
                .collect()
        }
        Destination::InPlace => inputs.into_iter().map(|i| (i.clone(), Some(i))).collect(),
        Destination::DryRun => inputs.into_iter().map(|i| (i, None)).collect(),
    })
}

/// Reads the model at `path`: strictly, or leniently when only that works.
pub fn read(path: &Path) -> Result<Source, String> {
    let (kind, data) = kind::open(path)?;
    let name = path.display();
    let loaded = kind::read(kind, &data).map_err(|e| format!("{name}: {e}"))?;
    match loaded.document {
        Document::Mdx(model) => Ok(Source {
            model,
            lenient: loaded.strict_error.is_some(),
        }),
        _ => Err(format!("{name}: not a model (.mdx, .mdl)")),
    }
}

/// The form a file at `output` is written in: MDL for `.mdl`, else MDX.
fn form(output: &Path) -> Kind {
    match Kind::of_path(output) {
        Some(Kind::Mdl) => Kind::Mdl,
        _ => Kind::Mdx,
    }
}

/// `model` as the bytes of a file at `output`.
pub fn encode(model: &Model, output: &Path) -> Result<Vec<u8>, String> {
    let document = Document::Mdx(model.clone());
    kind::write(form(output), &document).map_err(|e| format!("{}: {e}", output.display()))
}

/// Writes `model` to `output` as its extension says (MDX unless `.mdl`),
/// after checking that the bytes read back (strictly, unless the source
/// needed the lenient reader). Returns the size written.
pub fn write(model: &Model, output: &Path, lenient: bool) -> Result<usize, String> {
    let out = output.display();
    let bytes = encode(model, output)?;
    match kind::read(form(output), &bytes) {
        Ok(back) if back.strict_error.is_none() || lenient => {}
        Ok(_) => {
            return Err(format!(
                "{out}: the written model only reads back leniently"
            ));
        }
        Err(e) => return Err(format!("{out}: the written model does not read back: {e}")),
    }
    std::fs::write(output, &bytes).map_err(|e| format!("{out}: {e}"))?;
    Ok(bytes.len())
}

/// Prints `value` as pretty JSON on stdout.
pub fn print_json(value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    crate::print_out(&format!("{text}\n"))
}
