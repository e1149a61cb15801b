//! `formats convert`: models between MDX and MDL (by extension) and between
//! versions ([`formats::convert`]: skin weights, HD materials, tangents, with
//! a report of what was approximated, dropped and added), glTF documents
//! imported as models (`crate::import`), one file or many files and folders
//! in parallel with a summary table or JSON; textures (BLP, PNG) one at a
//! time.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use formats::convert::Report;
use formats::gltf::ImportReport;
use formats::mdx::Model;
use serde::Serialize;

use crate::kind::Kind;
use crate::plural;
use crate::rewrite;

/// How every model is converted.
pub struct Options {
    /// The MDX version to write (`None`: the model's own).
    pub version: Option<u32>,
    /// Refuse a model whose version change approximates or drops anything.
    pub exact: bool,
    /// Into a folder: the format to write (`None`: each input's own).
    pub to: Option<Kind>,
    /// MDL is written plain ([`formats::mdl::to_string_plain`]).
    pub plain: bool,
    /// One JSON document instead of the report or the table.
    pub json: bool,
    /// What [`formats::convert::convert`] is asked.
    pub convert: formats::convert::Options,
    /// What glTF inputs are imported with.
    pub import: crate::import::Options,
}

/// One model's result.
#[derive(Serialize)]
struct Converted {
    input: String,
    output: String,
    /// The model's version as read.
    from: Option<u32>,
    /// As written.
    to: Option<u32>,
    /// Bytes written.
    bytes: Option<usize>,
    /// Diagnostics of a lenient read (0: read strictly).
    diagnostics: usize,
    /// The warning a lenient read gives (`None`: read strictly).
    lenient_note: Option<String>,
    /// MDL written from MDL with comments of its own: the warning that
    /// they are not kept.
    comment_note: Option<String>,
    /// What the version change did (`None`: no version change asked, or
    /// a glTF input).
    report: Option<Report>,
    /// A glTF input: what the import made, approximated, dropped and
    /// renamed, and its conversion to the version written.
    import: Option<ImportReport>,
    /// A glTF input: the texture files written.
    textures: Vec<WrittenTexture>,
    /// What plain MDL left out (`--plain`).
    left_out: Vec<formats::mdl::LeftOut>,
    /// A damaged input: the chunk its file ends inside, and what the
    /// output holds of it.
    damaged: Vec<String>,
    /// Why nothing was written.
    error: Option<String>,
}

/// A texture file an import wrote.
#[derive(Serialize)]
struct WrittenTexture {
    /// Where.
    file: String,
    /// `BLP` or `DDS`.
    format: &'static str,
    /// Its size.
    bytes: usize,
}

impl Converted {
    fn new(input: &Path, output: &Path) -> Self {
        Converted {
            input: input.display().to_string(),
            output: output.display().to_string(),
            from: None,
            to: None,
            bytes: None,
            diagnostics: 0,
            lenient_note: None,
            comment_note: None,
            report: None,
            import: None,
            textures: Vec::new(),
            left_out: Vec::new(),
            damaged: Vec::new(),
            error: None,
        }
    }
}

/// `formats convert IN... OUT`: a texture (one BLP or PNG), or models.
pub fn command(
    paths: &[PathBuf],
    options: &Options,
    level: Option<usize>,
    encoding: Option<formats::blp::Target>,
) -> Result<ExitCode, String> {
    let (output, inputs) = paths
        .split_last()
        .ok_or("convert takes inputs and an output")?;
    if let [input] = inputs
        && crate::blp::is_texture_conversion(input, output)
    {
        if options.version.is_some() || options.to.is_some() || options.json || options.plain {
            return Err("--version, --to, --plain and --json are for models".into());
        }
        if options.import.given {
            return Err(GLTF_ONLY.into());
        }
        return crate::blp::convert(input, output, level, encoding);
    }
    if level.is_some() || encoding.is_some() {
        return Err("--level and --encoding are for textures (.blp, .png), one at a time".into());
    }
    run(inputs, output, options)
}

/// The message for glTF's options without a glTF input.
const GLTF_ONLY: &str = "--scale, --textures, --texture-folder, --sequence-names and \
     --global-sequences are for glTF inputs (.glb, .gltf)";

/// Models: one to the file `output`, or several into the folder `output`.
fn run(inputs: &[PathBuf], output: &Path, options: &Options) -> Result<ExitCode, String> {
    if let Some(kind) = Kind::of_path(output).filter(|k| !matches!(k, Kind::Mdx | Kind::Mdl)) {
        let export = match kind {
            Kind::Gltf => " (`formats export` writes glTF)",
            _ => "",
        };
        return Err(format!(
            "{}: models convert to .mdx or .mdl, not {}{export}",
            output.display(),
            kind.name()
        ));
    }
    if let (Some(to), Some(named)) = (options.to, Kind::of_path(output))
        && rewrite::is_model_file(output)
        && to != named
    {
        return Err(format!(
            "--to {} and the output {} disagree: --to is for a folder; a file is written as its \
             extension says",
            to.name().to_ascii_lowercase(),
            output.display()
        ));
    }
    let files = crate::batch::collect(inputs, "models (.mdx, .mdl, .glb, .gltf)", |k| {
        matches!(k, Kind::Mdx | Kind::Mdl | Kind::Gltf)
    })?;
    let any_gltf = files.iter().any(|f| crate::import::is_gltf(f));
    if options.import.given && !any_gltf {
        return Err(GLTF_ONLY.into());
    }
    if options.exact && any_gltf {
        return Err(
            "--exact is for models read from MDX or MDL: an import from glTF always \
                    fits its animation curves with keys (its report says within what)"
                .into(),
        );
    }
    let jobs = rewrite::outputs(&files, output, options.to)?;
    if options.plain
        && jobs
            .iter()
            .any(|(_, out)| Kind::of_path(out) != Some(Kind::Mdl))
    {
        return Err("--plain is for MDL out: an output .mdl, or --to mdl into a folder".into());
    }
    let single = jobs.len() == 1 && rewrite::is_model_file(output);
    let claims = crate::import::Claims::default();
    let results = crate::batch::run(&jobs, |(input, out)| {
        let mut converted = Converted::new(input, out);
        if let Err(e) = convert_file(input, out, options, &claims, &mut converted) {
            converted.error = Some(e);
        }
        converted
    });
    if let Some(names) = &options.import.sequence_names {
        let animations = results
            .iter()
            .filter_map(|r| r.import.as_ref())
            .flat_map(|i| &i.sequences)
            .map(|s| s.animation.as_str());
        for warning in names.unused(animations) {
            eprintln!("warning: {warning}");
        }
    }
    let failed = results.iter().filter(|r| r.error.is_some()).count();
    if options.json {
        // Serialized as they are (through `json!` an f32 would be widened
        // and print as a long f64).
        #[derive(Serialize)]
        struct Doc<'a> {
            files: &'a [Converted],
            failed: usize,
        }
        let doc = Doc {
            files: &results,
            failed,
        };
        let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        crate::print_out(&format!("{text}\n"))?;
    } else if single {
        for result in &results {
            if let Some(error) = &result.error {
                return Err(error.clone());
            }
            for note in [&result.lenient_note, &result.comment_note]
                .into_iter()
                .flatten()
            {
                eprintln!("warning: {note}");
            }
            if let Some(report) = &result.report {
                eprint!("{report}");
            }
            if let Some(report) = &result.import {
                eprint!("{report}");
            }
            if !result.left_out.is_empty() {
                eprintln!("left out of plain MDL ({}):", result.left_out.len());
                for note in &result.left_out {
                    eprintln!("  {note}");
                }
            }
            // A version conversion's report already lists the cut chunk.
            let reported = result.report.as_ref().is_some_and(|r| !r.kept.is_empty());
            for note in result.damaged.iter().filter(|_| !reported) {
                eprintln!("damaged: {note}");
            }
            let text = if crate::rewrite::is_mdl(Path::new(&result.output)) {
                "MDL text"
            } else {
                "MDX"
            };
            for texture in &result.textures {
                eprintln!(
                    "wrote {} ({}, {} bytes)",
                    texture.file, texture.format, texture.bytes
                );
            }
            eprintln!(
                "wrote {} ({text}, version {}, {} bytes)",
                result.output,
                result.to.unwrap_or_default(),
                result.bytes.unwrap_or_default()
            );
        }
    } else {
        crate::print_out(&table(&results))?;
        let notes = results
            .iter()
            .flat_map(|r| [&r.lenient_note, &r.comment_note])
            .flatten();
        for note in notes {
            eprintln!("warning: {note}");
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Reads `input`, converts it as `options` say, checks that what is written
/// reads back (strictly, unless `input` needed the lenient reader), and
/// writes it to `output`.
fn convert_file(
    input: &Path,
    output: &Path,
    options: &Options,
    claims: &crate::import::Claims,
    result: &mut Converted,
) -> Result<(), String> {
    if rewrite::over_itself(input, output) {
        return Err(format!(
            "{}: would be written over itself (write to another file or folder)",
            input.display()
        ));
    }
    let (kind, data) = crate::kind::open(input)?;
    if kind == Kind::Gltf {
        return import_file(input, &data, output, options, claims, result);
    }
    let mut source = rewrite::parse(input, kind, &data)?;
    let model = &mut source.model;
    result.from = Some(model.version());
    result.diagnostics = source.diagnostics;
    result.lenient_note = source.lenient_note.take();
    if rewrite::is_mdl(output) {
        result.comment_note = source.comment_note.take();
    }
    result.damaged = damaged(model, input, output, options.plain);
    if let Some(target) = options.version {
        let report =
            reversion(model, target, options).map_err(|e| format!("{}: {e}", input.display()))?;
        result.report = Some(report);
    }
    result.to = Some(model.version());
    result.bytes = Some(if options.plain {
        write_plain(model, output, &mut result.left_out)?
    } else {
        // A model the lenient reader took (a damaged file's cut chunk, say)
        // is written as it was read, so it may read back only leniently too,
        // as `check`, `fix` and `optimize` allow.
        rewrite::write(model, output, source.lenient)?
    });
    Ok(())
}

/// Imports the glTF document `data` (read from `input`) at `--version`
/// (800 by default), checks that the model reads back and writes it to
/// `output`, and its textures beside it.
fn import_file(
    input: &Path,
    data: &[u8],
    output: &Path,
    options: &Options,
    claims: &crate::import::Claims,
    result: &mut Converted,
) -> Result<(), String> {
    let version = options
        .version
        .unwrap_or_else(crate::import::default_version);
    let imported = crate::import::import(
        input,
        data,
        output,
        version,
        &options.convert,
        &options.import,
    )?;
    let textures = imported
        .textures
        .iter()
        .map(|t| {
            Ok((
                crate::import::texture_file(output, &t.path)?,
                t.bytes.as_slice(),
                t.format,
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let files: Vec<(PathBuf, &[u8])> = textures
        .iter()
        .map(|(file, bytes, _)| (file.clone(), *bytes))
        .collect();
    claims.claim(input, &files)?;
    let model = &imported.model;
    result.to = Some(model.version());
    result.import = Some(imported.report.clone());
    result.bytes = Some(if options.plain {
        write_plain(model, output, &mut result.left_out)?
    } else {
        rewrite::write(model, output, false)?
    });
    for (file, bytes, format) in textures {
        crate::write_file(&file, bytes)?;
        result.textures.push(WrittenTexture {
            file: file.display().to_string(),
            format: format.name(),
            bytes: bytes.len(),
        });
    }
    Ok(())
}

/// What becomes of each chunk `model` (read from `input`) holds as the
/// bytes its damaged file ends inside ([`formats::mdx::Chunk::Cut`]) or as
/// the bytes of a chunk that does not decode ([`formats::mdx::Chunk::Undecoded`])
/// when it is written to `output` (as plain MDL if `plain`).
fn damaged(model: &Model, input: &Path, output: &Path, plain: bool) -> Vec<String> {
    let out = output.display();
    let kept = if plain {
        "left out of the plain MDL, which has no form for it".to_string()
    } else if Kind::of_path(output) == Some(Kind::Mdl) {
        format!(
            "kept as an `ExtChunk`, last: {out} reads only leniently, and converted back to MDX \
             gives the damaged file"
        )
    } else {
        format!("kept as the bytes there are, at the end: {out} is damaged the same way")
    };
    // A chunk whose content does not decode stays where it is.
    let kept_in_place = if plain {
        kept.clone()
    } else if Kind::of_path(output) == Some(Kind::Mdl) {
        format!(
            "kept as an `ExtChunk`: {out} reads only leniently, and converted back to MDX gives \
             the damaged file"
        )
    } else {
        format!("kept as its bytes, in its place: {out} is damaged the same way")
    };
    model
        .chunks
        .iter()
        .enumerate()
        .filter_map(|(index, chunk)| match chunk {
            formats::mdx::Chunk::Cut(cut) => Some(format!(
                "{} is damaged: the file ends inside its last chunk, chunks[{index}].{} ({}); \
                 {kept}",
                input.display(),
                cut.tag,
                cut.where_cut()
            )),
            formats::mdx::Chunk::Undecoded(undecoded) => Some(format!(
                "{} is damaged: chunks[{index}].{}: {}; {kept_in_place}",
                input.display(),
                undecoded.tag,
                undecoded.damage()
            )),
            _ => None,
        })
        .collect()
}

/// Writes `model` to `output` as plain MDL, after checking that it reads
/// back strictly; returns the size written.
fn write_plain(
    model: &Model,
    output: &Path,
    left_out: &mut Vec<formats::mdl::LeftOut>,
) -> Result<usize, String> {
    let plain =
        formats::mdl::to_string_plain(model).map_err(|e| format!("{}: {e}", output.display()))?;
    let size = rewrite::write_checked(plain.text.as_bytes(), output, false)?;
    *left_out = plain.left_out;
    Ok(size)
}

/// `model` converted to `target`; with `--exact`, refused (the model left
/// as it was) when the conversion approximates or drops anything.
fn reversion(model: &mut Model, target: u32, options: &Options) -> Result<Report, String> {
    let mut converted = model.clone();
    let report = formats::convert::convert(&mut converted, target, &options.convert)
        .map_err(|e| e.to_string())?;
    if options.exact && !report.is_exact() {
        // Every reason `is_exact` can give, each listed: a conversion whose
        // only change is a recomputed extent is refused too.
        let mut message = format!(
            "version {} -> {target} is not exact (nothing written; without --exact it is converted):",
            report.from,
        );
        for (what, notes) in [
            ("approximated", &report.approximated),
            ("dropped", &report.dropped),
            ("recomputed", &report.recomputed),
        ] {
            for note in notes {
                message.push_str(&format!("\n  {what}: {note}"));
            }
        }
        if let Some(error) = report.skin_error.as_ref().filter(|e| e.distance > 0.0) {
            message.push_str(&format!("\n  skinning: {error}"));
        }
        return Err(message);
    }
    *model = converted;
    Ok(report)
}

/// The summary table of several models, and the failures.
fn table(results: &[Converted]) -> String {
    use std::fmt::Write;
    let mut table = crate::batch::Table::new(&[
        "model",
        "version",
        "approximated",
        "dropped",
        "added",
        "recomputed",
        "moved",
        "left out",
        "skin error",
        "result",
    ]);
    for r in results {
        // A glTF input's conversion is in its import's report.
        let conversion = r
            .report
            .as_ref()
            .or_else(|| r.import.as_ref()?.conversion.as_ref());
        let count = |f: fn(&Report) -> usize| conversion.map_or(0, f);
        let imported = |f: fn(&ImportReport) -> usize| r.import.as_ref().map_or(0, f);
        let version = match (r.from, r.to) {
            (Some(from), Some(to)) if from != to => format!("{from} -> {to}"),
            (Some(from), _) => from.to_string(),
            (None, Some(to)) if r.import.is_some() => format!("glTF -> {to}"),
            _ => "?".into(),
        };
        let error = conversion
            .and_then(|report| report.skin_error.as_ref())
            .map_or_else(|| "-".to_string(), |e| format!("{:.4}", e.distance));
        let outcome = match (&r.error, r.bytes) {
            (Some(_), _) => "FAILED".to_string(),
            (None, Some(bytes)) if !r.damaged.is_empty() => format!("{bytes} bytes, damaged"),
            (None, Some(bytes)) if !r.textures.is_empty() => {
                format!("{bytes} bytes, {}", plural(r.textures.len(), "texture"))
            }
            (None, Some(bytes)) => format!("{bytes} bytes"),
            (None, None) => "?".to_string(),
        };
        table.row([
            r.input.clone(),
            version,
            (count(|x| x.approximated.len()) + imported(|x| x.approximated.len())).to_string(),
            (count(|x| x.dropped.len()) + imported(|x| x.dropped.len())).to_string(),
            count(|x| x.added.len()).to_string(),
            count(|x| x.recomputed.len()).to_string(),
            count(|x| x.moved.len()).to_string(),
            r.left_out.len().to_string(),
            error,
            outcome,
        ]);
    }
    let mut out = table.render();
    let _ = writeln!(
        out,
        "skin error: the largest distance a vertex moves from where the source model's \
         skinning puts it, over every measured frame; moved: sequences laid out anew on the \
         timeline, with their keys, so that none overlaps another; glTF: an import, its \
         counts those of the import and of its conversion (--json lists every change)"
    );
    for note in results
        .iter()
        .filter(|r| r.error.is_none())
        .flat_map(|r| &r.damaged)
    {
        let _ = writeln!(out, "damaged: {note}");
    }
    let failed: Vec<&Converted> = results.iter().filter(|r| r.error.is_some()).collect();
    if failed.is_empty() {
        let _ = writeln!(
            out,
            "{} written, no failures",
            plural(results.len(), "model")
        );
    } else {
        let _ = writeln!(out, "{} failed:", failed.len());
        for r in failed {
            let _ = writeln!(out, "  {}", r.error.as_deref().unwrap_or_default());
        }
    }
    out
}

/// `--hd-materials`: which classic materials become HD.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum HdChoice {
    /// Materials of one layer (the others stay SD, so the way back is exact).
    SingleLayer,
    /// Every material, from its layer with a texture file; other layers dropped.
    All,
    /// None.
    None,
}

impl From<HdChoice> for formats::convert::HdMaterials {
    fn from(choice: HdChoice) -> Self {
        match choice {
            HdChoice::SingleLayer => Self::SingleLayer,
            HdChoice::All => Self::All,
            HdChoice::None => Self::None,
        }
    }
}

/// `--to`: the format of the models written into a folder.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ModelFormat {
    /// Binary MDX.
    Mdx,
    /// MDL text.
    Mdl,
}

impl ModelFormat {
    /// The tool's kind for it.
    pub fn kind(self) -> Kind {
        match self {
            ModelFormat::Mdx => Kind::Mdx,
            ModelFormat::Mdl => Kind::Mdl,
        }
    }
}
