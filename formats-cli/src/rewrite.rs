//! Commands that change models and write them back (`convert`, `fix`,
//! `optimize`): the models found under the paths, where each goes (a file,
//! a folder, or back in place), read and written in the form they came in
//! (MDX or MDL) or the one asked for, and checked to read back before
//! anything is written.

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
    /// What the lenient reader said (none when read strictly).
    pub diagnostics: usize,
    /// The warning to give when only the lenient reader took it.
    pub lenient_note: Option<String>,
    /// For MDL text with comments of its own: the warning to give when it
    /// is written as MDL, which keeps no comments (the canonical layout).
    pub comment_note: Option<String>,
}

/// The warning for MDL text `data` whose comments (but the header this
/// crate's writer puts first) a rewrite in the canonical layout drops.
fn comment_note(name: &str, kind: Kind, data: &[u8]) -> Option<String> {
    if kind != Kind::Mdl {
        return None;
    }
    let comments = formats::mdl::comment_count(&String::from_utf8_lossy(data));
    (comments > 0).then(|| {
        format!(
            "{name}: {} of the MDL {} not kept: MDL is written in the canonical layout",
            crate::plural(comments, "comment"),
            if comments == 1 { "is" } else { "are" }
        )
    })
}

/// Whether `output` is written as MDL text.
pub fn is_mdl(output: &Path) -> bool {
    form(output) == Kind::Mdl
}

/// The models (`.mdx`, `.mdl`) under `paths`: each file named, and those
/// found in each folder named; an error when there are none.
pub fn models(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    crate::batch::collect(paths, "models (.mdx, .mdl)", |k| {
        matches!(k, Kind::Mdx | Kind::Mdl)
    })
}

/// Whether `path` names a model file to write (not a folder).
pub fn is_model_file(path: &Path) -> bool {
    matches!(Kind::of_path(path), Some(Kind::Mdx | Kind::Mdl)) && !path.is_dir()
}

/// The extension of a model written as `kind`: `mdl` for MDL text, else `mdx`.
fn extension(kind: Option<Kind>) -> &'static str {
    match kind {
        Some(Kind::Mdl) => "mdl",
        _ => "mdx",
    }
}

/// `(input, output)` for each of `inputs`: `output` itself when it names a
/// model file (one input), else a file in the folder `output` (created) in
/// the form `to` (`None`: each input's own, MDX for a file named otherwise).
pub fn outputs(
    inputs: &[PathBuf],
    output: &Path,
    to: Option<Kind>,
) -> Result<Vec<(PathBuf, PathBuf)>, String> {
    crate::batch::outputs(inputs, output, is_model_file, |input| {
        extension(to.or_else(|| Kind::of_path(input))).to_string()
    })
}

/// Whether writing `output` would overwrite `input` (two spellings of one
/// file included).
pub fn over_itself(input: &Path, output: &Path) -> bool {
    crate::batch::identity(input) == crate::batch::identity(output)
}

/// `(input, output)` for every model under `paths`; the output is `None`
/// for a dry run.
pub fn jobs(
    paths: &[PathBuf],
    destination: &Destination,
) -> Result<Vec<(PathBuf, Option<PathBuf>)>, String> {
    let inputs = models(paths)?;
    Ok(match destination {
        Destination::To(output) => {
            let jobs = outputs(&inputs, output, None)?;
            // Over its input only when asked (`fix --in-place`): a model
            // optimized over itself cannot be had back.
            if let Some((input, _)) = jobs.iter().find(|(i, o)| over_itself(i, o)) {
                return Err(format!(
                    "{} would be written over itself: write to another file or folder \
                     (`fix --in-place` rewrites models where they are)",
                    input.display()
                ));
            }
            jobs.into_iter().map(|(i, o)| (i, Some(o))).collect()
        }
        Destination::InPlace => {
            if let Some(entry) = inputs.iter().find(|i| crate::input::is_entry(i)) {
                return Err(format!(
                    "{}: an archive's entry is not rewritten in place (`formats extract` \
                     it first, or write to a folder)",
                    entry.display()
                ));
            }
            inputs.into_iter().map(|i| (i.clone(), Some(i))).collect()
        }
        Destination::DryRun => inputs.into_iter().map(|i| (i, None)).collect(),
    })
}

/// Reads the model at `path`: strictly, or leniently when only that works.
pub fn read(path: &Path) -> Result<Source, String> {
    let (kind, data) = kind::open(path)?;
    parse(path, kind, &data)
}

/// The model in `data`, a file of `kind` read from `path`: strictly, or
/// leniently when only that works.
pub fn parse(path: &Path, kind: Kind, data: &[u8]) -> Result<Source, String> {
    let name = path.display();
    let loaded = kind::read(kind, data).map_err(|e| format!("{name}: {e}"))?;
    let lenient_note = loaded.lenient_note(&name.to_string());
    let comment_note = comment_note(&name.to_string(), kind, data);
    match loaded.document {
        Document::Mdx(model) => Ok(Source {
            model,
            lenient: loaded.strict_error.is_some(),
            diagnostics: loaded.diagnostics.len(),
            lenient_note,
            comment_note,
        }),
        _ => Err(format!(
            "{name}: a {} file, not a model (.mdx, .mdl)",
            kind.name()
        )),
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
    let bytes = match form(output) {
        Kind::Mdl => Ok(formats::mdl::to_string(model).into_bytes()),
        _ => model.to_bytes(),
    };
    bytes.map_err(|e| format!("{}: {e}", output.display()))
}

/// Writes `model` to `output` as its extension says (MDX unless `.mdl`),
/// after checking that the bytes read back: strictly, unless the source
/// needed the lenient reader or the model holds a writer's quirk that only
/// the lenient reader takes (a light track after its `LITE` chunk, which
/// MDL text keeps as `ExtTracksAfterChunk`), read back as this very model.
/// Returns the size written.
pub fn write(model: &Model, output: &Path, lenient: bool) -> Result<usize, String> {
    let bytes = encode(model, output)?;
    write_read_back(&bytes, output, |back| {
        lenient || matches!(back, Document::Mdx(m) if m == model)
    })
}

/// Writes the bytes of a model file to `output` after checking that they
/// read back as its extension says (strictly, unless `lenient`). Returns
/// the size written.
pub fn write_checked(bytes: &[u8], output: &Path, lenient: bool) -> Result<usize, String> {
    write_read_back(bytes, output, |_| lenient)
}

/// Writes `bytes` to `output` once they read back (read once): strictly, or
/// leniently where `lenient_ok` accepts what the lenient reader gave.
fn write_read_back(
    bytes: &[u8],
    output: &Path,
    lenient_ok: impl FnOnce(&Document) -> bool,
) -> Result<usize, String> {
    let out = output.display();
    match kind::read(form(output), bytes) {
        Ok(back) if back.strict_error.is_none() || lenient_ok(&back.document) => {}
        Ok(_) => {
            return Err(format!(
                "{out}: the written model only reads back leniently"
            ));
        }
        Err(e) => return Err(format!("{out}: the written model does not read back: {e}")),
    }
    crate::write_file(output, bytes)?;
    Ok(bytes.len())
}

/// Prints `value` as pretty JSON on stdout.
pub fn print_json(value: &impl serde::Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    crate::print_out(&format!("{text}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_counts_every_comment() {
        // What is a comment is `formats::mdl::comment_count`'s (tested there).
        let text = "// one\nModel \"m\" { /* two */ }\n// three\n";
        let note = comment_note("x.mdl", Kind::Mdl, text.as_bytes());
        assert_eq!(
            note.as_deref(),
            Some(
                "x.mdl: 3 comments of the MDL are not kept: MDL is written in the canonical layout"
            )
        );
        assert_eq!(comment_note("x.mdx", Kind::Mdx, text.as_bytes()), None);
    }
}
