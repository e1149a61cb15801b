//! The typed readers and writers behind each kind of file
//! ([`formats::FileKind`] says which a file is): the one place a new format
//! (MDL) joins the tool.

use std::fmt::Write as _;
use std::path::Path;

use format_core::{Diagnostic, Error};
use formats::adt::{Adt, SplitFile};
use formats::blp::Blp;
use formats::dds::Dds;
use formats::mdx::Model;
use formats::wdt::Wdt;

/// The file kinds the tool knows ([`formats::FileKind`]: by extension, then
/// by magic).
pub use formats::FileKind as Kind;

/// A file read by its typed reader.
#[derive(serde::Serialize)]
#[allow(clippy::large_enum_variant)] // one per run of the tool
pub enum Document {
    /// An MDX model.
    Mdx(Model),
    /// An ADT tile (monolithic or root).
    Adt(Adt),
    /// A `_tex`, `_obj` or `_lod` part of a split tile.
    AdtSplit(SplitFile),
    /// A WDT.
    Wdt(Wdt),
    /// A BLP texture.
    Blp(Blp),
    /// A DDS texture.
    Dds(Dds),
}

/// What reading gave: the document, and if the strict reader refused it, its
/// error and the lenient reader's diagnostics.
pub struct Loaded {
    /// The typed file.
    pub document: Document,
    /// The strict reader's error when only the lenient reader succeeded.
    pub strict_error: Option<Error>,
    /// The lenient reader's diagnostics (empty after a strict read).
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// For a file only the lenient reader took: a warning naming it, the
    /// strict reader's error and how many diagnostics there are (`formats
    /// info` lists them), so that a command which goes on with the file
    /// (convert, export, fix, optimize) does not go on in silence.
    pub fn lenient_note(&self, name: &str) -> Option<String> {
        let error = self.strict_error.as_ref()?;
        Some(format!(
            "{name}: read leniently ({}; `formats info` lists them), the strict reader's error: {error}",
            crate::plural(self.diagnostics.len(), "diagnostic")
        ))
    }

    /// For a file only the lenient reader took: the strict reader's error and
    /// the lenient reader's diagnostics, a line each (nothing otherwise).
    pub fn lenient_lines(&self) -> String {
        let mut out = String::new();
        if let Some(error) = &self.strict_error {
            let _ = writeln!(out, "strict read: {error}");
            let _ = writeln!(
                out,
                "read leniently ({}):",
                crate::plural(self.diagnostics.len(), "diagnostic")
            );
            for d in &self.diagnostics {
                let _ = writeln!(out, "  {d}");
            }
        }
        out
    }
}

/// MDL text as `&str` (MDL is UTF-8), or an error at the first byte that is
/// not, with its line and column as the MDL reader's errors have them (a
/// name saved in another code page is found in an editor by its line).
fn text(data: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(data).map_err(|e| {
        let at = e.valid_up_to();
        let before = data.get(..at).unwrap_or_default();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // Valid UTF-8 up to `at`: the column counts its characters.
        let column = 1 + String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
            .chars()
            .count();
        let byte = data.get(at).copied().unwrap_or_default();
        Error::text(
            at,
            line,
            column,
            "",
            format!(
                "MDL text is not UTF-8 (byte {byte:#04x}; a name in another code page can be \
                 written as #\"hex\" bytes)"
            ),
        )
    })
}

/// Reads `data` as `kind`: strictly, then (for the formats that have one)
/// leniently if the strict reader refuses.
pub fn read(kind: Kind, data: &[u8]) -> Result<Loaded, Error> {
    let strict = match kind {
        Kind::Mdx => Model::from_bytes(data).map(Document::Mdx),
        Kind::Adt => Adt::from_bytes(data).map(Document::Adt),
        Kind::AdtSplit => SplitFile::from_bytes(data).map(Document::AdtSplit),
        Kind::Wdt => Wdt::from_bytes(data).map(Document::Wdt),
        Kind::Mdl => formats::mdl::from_str(text(data)?).map(Document::Mdx),
        Kind::Blp => Blp::from_bytes(data).map(Document::Blp),
        Kind::Dds => Dds::from_bytes(data).map(Document::Dds),
        // Not a document of its own here: `convert` imports it as a model.
        Kind::Gltf => {
            return Err(Error::other(
                "a glTF document: `formats convert` imports it (IN.glb OUT.mdx)",
            ));
        }
    };
    let strict_error = match strict {
        Ok(document) => {
            return Ok(Loaded {
                document,
                strict_error: None,
                diagnostics: Vec::new(),
            });
        }
        Err(e) => e,
    };
    let lenient = match kind {
        Kind::Mdx => Model::from_bytes_lenient(data).map(|(m, d)| (Document::Mdx(m), d)),
        Kind::Adt => Adt::from_bytes_lenient(data).map(|(a, d)| (Document::Adt(a), d)),
        Kind::AdtSplit => {
            SplitFile::from_bytes_lenient(data).map(|(f, d)| (Document::AdtSplit(f), d))
        }
        Kind::Wdt => Wdt::from_bytes_lenient(data).map(|(w, d)| (Document::Wdt(w), d)),
        Kind::Mdl => {
            formats::mdl::from_str_lenient(text(data)?).map(|(m, d)| (Document::Mdx(m), d))
        }
        Kind::Blp => Blp::from_bytes_lenient(data).map(|(b, d)| (Document::Blp(b), d)),
        // No lenient reader: the strict error stands.
        Kind::Dds | Kind::Gltf => return Err(strict_error),
    };
    match lenient {
        Ok((document, diagnostics)) => Ok(Loaded {
            document,
            strict_error: Some(strict_error),
            diagnostics,
        }),
        Err(_) => Err(strict_error),
    }
}

/// Writes a document as a file of `kind` (a model read from `.mdx` may be
/// written as `.mdl` and back).
pub fn write(kind: Kind, document: &Document) -> Result<Vec<u8>, Error> {
    match (kind, document) {
        (Kind::Mdx, Document::Mdx(model)) => model.to_bytes(),
        (Kind::Adt, Document::Adt(adt)) => adt.to_bytes(),
        (Kind::AdtSplit, Document::AdtSplit(file)) => file.to_bytes(),
        (Kind::Wdt, Document::Wdt(wdt)) => wdt.to_bytes(),
        (Kind::Blp, Document::Blp(blp)) => blp.to_bytes(),
        (Kind::Dds, Document::Dds(dds)) => dds.to_bytes(),
        (Kind::Mdl, Document::Mdx(model)) => Ok(formats::mdl::to_string(model).into_bytes()),
        (kind, _) => Err(Error::other(format!(
            "this document cannot be written as {}",
            kind.name()
        ))),
    }
}

/// True if `written` (MDL text) reads back to the model whose MDX bytes are
/// `mdx`: the round trip MDL text from other tools has, as it cannot be
/// byte-exact. Models are compared by their MDX bytes, which hold every
/// value the model does (a NaN by its bits, which `==` on floats would call
/// unequal); the caller has them already (`info` shows their chunks, `check`
/// reports their writer's error).
pub fn mdl_reads_back_as(written: &[u8], mdx: &[u8]) -> bool {
    match read(Kind::Mdl, written).map(|l| l.document) {
        Ok(Document::Mdx(back)) => back.to_bytes().is_ok_and(|b| b == mdx),
        _ => false,
    }
}

/// Reads a file from disk, or an archive's entry (`map.w3x:Units/Footman.mdx`):
/// the bytes and the kind, or an error line.
pub fn open(path: &Path) -> Result<(Kind, Vec<u8>), String> {
    let data = crate::input::read(path)?;
    let kind = Kind::detect(path, &data).ok_or_else(|| {
        format!(
            "{}: not a file this tool knows (.mdx, .mdl, .adt, .wdt, .blp, .dds, .glb, .gltf)",
            path.display()
        )
    })?;
    Ok((kind, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_extension_then_by_magic() {
        let kind = |name: &str, data: &[u8]| Kind::detect(Path::new(name), data);
        assert_eq!(kind("a/Footman.MDX", b""), Some(Kind::Mdx));
        assert_eq!(kind("Footman.mdl", b"MDLX"), Some(Kind::Mdl));
        assert_eq!(kind("Azeroth_32_48.adt", b""), Some(Kind::Adt));
        for part in ["_tex0", "_tex1", "_obj0", "_obj1", "_lod"] {
            let name = format!("Azeroth_32_48{part}.adt");
            assert_eq!(kind(&name, b""), Some(Kind::AdtSplit), "{name}");
        }
        assert_eq!(kind("Azeroth.wdt", b""), Some(Kind::Wdt));
        assert_eq!(kind("model.bin", b"MDLX...."), Some(Kind::Mdx));
        assert_eq!(kind("tile", b"REVM...."), Some(Kind::Adt));
        assert_eq!(kind("README.md", b"# hi"), None);
        assert_eq!(kind("Textures/Footman.BLP", b""), Some(Kind::Blp));
        assert_eq!(kind("texture", b"BLP2...."), Some(Kind::Blp));
        assert_eq!(kind("Hero_Diffuse.DDS", b""), Some(Kind::Dds));
        assert_eq!(kind("texture", b"DDS |..."), Some(Kind::Dds));
        let err = read(Kind::Gltf, b"glTF").err().unwrap();
        assert!(err.to_string().contains("formats convert"), "{err}");
        let loaded = read(Kind::Mdl, b"Version {\n\tFormatVersion 800,\n}\n").unwrap();
        assert!(matches!(loaded.document, Document::Mdx(ref m) if m.version() == 800));
        let err = read(Kind::Mdl, b"Version { FormatVersion 800, }\xff")
            .err()
            .unwrap();
        assert!(err.to_string().contains("not UTF-8"), "{err}");
        // A name saved in Latin-1 (0xef for an i with diaeresis) after a
        // UTF-8 one: found by its line, and its column in characters.
        let err = read(Kind::Mdl, b"Version {\n}\nModel \"\xc3\xa9\xef\" {\n}\n")
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            "line 3, column 9: MDL text is not UTF-8 (byte 0xef; a name in another code page \
             can be written as #\"hex\" bytes)"
        );
    }

    /// Two models that print the same (`Debug` writes every NaN as `NaN`) but
    /// differ in a NaN's bits are not the same model.
    #[test]
    fn models_are_the_same_when_their_bytes_are() {
        let model = |bits: u32| {
            let mut model = Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
            model
                .pivot_points_mut()
                .push([f32::from_bits(bits), 0.0, 0.0]);
            model
        };
        let (quiet, other) = (model(0x7fc0_0000), model(0x7fc0_0001));
        assert_eq!(format!("{quiet:?}"), format!("{other:?}"));
        let text = formats::mdl::to_string(&quiet);
        let mdx = |model: &Model| model.to_bytes().unwrap();
        assert!(mdl_reads_back_as(text.as_bytes(), &mdx(&quiet)));
        assert!(!mdl_reads_back_as(text.as_bytes(), &mdx(&other)));
    }
}
