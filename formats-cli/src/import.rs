//! `formats convert IN.glb OUT.mdx`: glTF documents (`.glb`, `.gltf`)
//! imported as models ([`formats::gltf::import`]): the options only glTF
//! inputs take, the `--sequence-names` file, and the BLP and DDS textures
//! written beside each model, each at the path the model names it by and never
//! outside the model's folder. `convert` runs the jobs, writes the models
//! and reports (`crate::convert`).

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

use formats::gltf::{ImportOptions, Imported, Source, TextureMode};

use crate::kind::Kind;

/// The version a glTF input is imported at without `--version`: the
/// library's default (800, the classic format every game version reads).
pub fn default_version() -> u32 {
    ImportOptions::default().version
}

/// What only glTF inputs take.
pub struct Options {
    /// Model units per glTF unit (`--scale`).
    pub scale: f64,
    /// Where the textures go (`--textures`).
    pub textures: TextureMode,
    /// The folder prefix of the texture paths the model names (`--texture-folder`).
    pub texture_folder: String,
    /// Sequences renamed (`--sequence-names`).
    pub sequence_names: Option<SequenceNames>,
    /// The longest animation packed as a global sequence, in seconds
    /// (`--global-sequences`).
    pub global_sequences: Option<f64>,
    /// Whether any of the above was given (refused without a glTF input).
    pub given: bool,
}

/// `--textures`: what becomes of the images of the materials.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum TextureChoice {
    /// Each image as the layer that shows it takes it, beside the model: a
    /// classic layer's as BLP (what every game version reads), an HD
    /// material's (1100 and later) as DDS.
    Blp,
    /// Every image as DDS (BC1 or BC3 by alpha, normal maps BC5), beside
    /// the model.
    Dds,
    /// The model names each image file as it is (to convert later); an
    /// image inside the document, which has no file, is still written (as
    /// with `blp`).
    Keep,
}

impl TextureChoice {
    /// The library's mode.
    pub fn mode(self) -> TextureMode {
        match self {
            TextureChoice::Blp => TextureMode::Blp,
            TextureChoice::Dds => TextureMode::Dds,
            TextureChoice::Keep => TextureMode::Keep,
        }
    }
}

/// `--scale S`: a finite number above 0.
pub fn parse_scale(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(scale) if scale.is_finite() && scale > 0.0 => Ok(scale),
        Ok(_) => Err(format!("{text}: the scale must be a number above 0")),
        Err(e) => Err(format!("{text}: {e}")),
    }
}

/// `--global-sequences SECONDS`: a finite number above 0.
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => Ok(seconds),
        Ok(_) => Err(format!(
            "{text}: the length must be a number of seconds above 0"
        )),
        Err(e) => Err(format!("{text}: {e}")),
    }
}

/// A `--sequence-names` file: lines `Animation Name = Sequence Name`, each
/// with the line it was on.
pub struct SequenceNames {
    /// The file, for messages.
    pub file: PathBuf,
    /// (line, animation name, sequence name), in the file's order.
    pub renames: Vec<(usize, String, String)>,
}

impl SequenceNames {
    /// Reads and parses `file` ([`SequenceNames::parse`]).
    pub fn read(file: &Path) -> Result<SequenceNames, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        Self::parse(file, &text)
    }

    /// Parses the text of `file`: a line `Animation Name = Sequence Name`
    /// per sequence to rename (split at the first `=`, each side trimmed,
    /// neither empty); blank lines and lines starting with `#` are skipped.
    /// An error names the line.
    pub fn parse(file: &Path, text: &str) -> Result<SequenceNames, String> {
        let mut renames: Vec<(usize, String, String)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let (n, line) = (n + 1, line.trim());
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = || format!("{} line {n}", file.display());
            let Some((from, to)) = line.split_once('=') else {
                return Err(format!(
                    "{}: `{line}` is not `Animation Name = Sequence Name`",
                    at()
                ));
            };
            let (from, to) = (from.trim(), to.trim());
            if from.is_empty() || to.is_empty() {
                return Err(format!(
                    "{}: `{line}` needs a name on both sides of `=`",
                    at()
                ));
            }
            if let Some((first, ..)) = renames.iter().find(|(_, f, _)| f == from) {
                return Err(format!(
                    "{}: the animation \"{from}\" is renamed on line {first} already",
                    at()
                ));
            }
            renames.push((n, from.to_owned(), to.to_owned()));
        }
        Ok(SequenceNames {
            file: file.to_path_buf(),
            renames,
        })
    }

    /// (animation name, sequence name), as [`ImportOptions::sequence_names`] takes them.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.renames
            .iter()
            .map(|(_, from, to)| (from.clone(), to.clone()))
            .collect()
    }

    /// A warning for each rename whose animation none of `animations`
    /// (the animations of every document imported) is.
    pub fn unused<'a>(&self, animations: impl Iterator<Item = &'a str> + Clone) -> Vec<String> {
        self.renames
            .iter()
            .filter(|(_, from, _)| !animations.clone().any(|a| a == from))
            .map(|(n, from, _)| {
                format!(
                    "{} line {n}: no input has an animation named \"{from}\"",
                    self.file.display()
                )
            })
            .collect()
    }
}

/// Whether `path` is a glTF document: by its extension, or by its first
/// bytes when the extension names no kind.
pub fn is_gltf(path: &Path) -> bool {
    match Kind::of_path(path) {
        Some(kind) => kind == Kind::Gltf,
        None => {
            crate::input::read(path).is_ok_and(|data| Kind::detect(path, &data) == Some(Kind::Gltf))
        }
    }
}

/// Imports the glTF document `data`, read from `input` (a file, or an
/// archive's entry), as the model written to `output` (named by its stem),
/// at `version`. Its buffers and images in other files are read beside it.
pub fn import(
    input: &Path,
    data: &[u8],
    output: &Path,
    version: u32,
    conversion: &formats::convert::Options,
    options: &Options,
) -> Result<Imported, String> {
    let name = input.display();
    let entry = crate::input::entry_of(input);
    let folder = input.parent().unwrap_or(Path::new("")).to_path_buf();
    let source = Source::from_slice(data, |uri| match &entry {
        None => std::fs::read(folder.join(uri)),
        Some((archive, entry)) => {
            let beside = entry.rsplit_once(['/', '\\']).map_or("", |(f, _)| f);
            let address = match beside {
                "" => format!("{}:{uri}", archive.display()),
                _ => format!("{}:{beside}/{uri}", archive.display()),
            };
            crate::input::read(Path::new(&address)).map_err(std::io::Error::other)
        }
    })
    .map_err(|e| format!("{name}: {e}"))?;
    let sequence_names = options
        .sequence_names
        .as_ref()
        .map(SequenceNames::pairs)
        .unwrap_or_default();
    let model_name = crate::file_stem(output, "model");
    let import_options = ImportOptions {
        version,
        scale: options.scale,
        name: &model_name,
        sequence_names: &sequence_names,
        textures: options.textures,
        texture_folder: &options.texture_folder,
        conversion: conversion.clone(),
        global_sequences: options.global_sequences,
    };
    formats::gltf::import(&source, &import_options).map_err(|e| format!("{name}: {e}"))
}

/// Where the texture the model written to `output` names by `path` goes:
/// `path` (with `\` or `/` between folders) in `output`'s folder. A path
/// that would lead out of it (absolute, a drive, a `..`) is refused.
pub fn texture_file(output: &Path, path: &str) -> Result<PathBuf, String> {
    let refuse = |why: &str| {
        Err(format!(
            "{}: the texture path `{path}` the model names {why}: not written",
            output.display()
        ))
    };
    let mut file = output.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut parts = 0;
    let relative = path.replace('\\', "/");
    for component in Path::new(&relative).components() {
        match component {
            Component::Normal(part) if !part.to_string_lossy().contains(':') => {
                file.push(part);
                parts += 1;
            }
            Component::CurDir => {}
            Component::Normal(_) | Component::Prefix(_) => return refuse("names a drive"),
            Component::RootDir => return refuse("is absolute"),
            Component::ParentDir => return refuse("leads out of the model's folder (`..`)"),
        }
    }
    if parts == 0 {
        return refuse("names no file");
    }
    Ok(file)
}

/// The texture files of one run: which input writes each, and a digest of
/// its bytes (a batch's textures are not all kept in memory), so that two
/// models of a batch never write one file with different bytes.
#[derive(Default)]
pub struct Claims(Mutex<HashMap<PathBuf, (PathBuf, Digest)>>);

/// A file's length and its bytes' 64-bit SipHash.
type Digest = (usize, u64);

fn digest(bytes: &[u8]) -> Digest {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    bytes.hash(&mut hasher);
    (bytes.len(), hasher.finish())
}

impl Claims {
    /// Claims `files` for `input`: all of them, or (when another input
    /// writes other bytes to one of them) none, with an error naming both.
    pub fn claim(&self, input: &Path, files: &[(PathBuf, &[u8])]) -> Result<(), String> {
        let mut claimed = self.0.lock().map_err(|_| "texture claims poisoned")?;
        for (file, bytes) in files {
            if let Some((other, theirs)) = claimed.get(file)
                && other != input
                && *theirs != digest(bytes)
            {
                return Err(format!(
                    "{}: its texture {} is written by {} too, with other pixels (give \
                     --texture-folder, or convert the two one at a time)",
                    input.display(),
                    file.display(),
                    other.display()
                ));
            }
        }
        for (file, bytes) in files {
            claimed
                .entry(file.clone())
                .or_insert_with(|| (input.to_path_buf(), digest(bytes)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_names_are_lines_of_animation_equals_sequence() {
        let text = "# renames\n\nAction = Stand\n  Attack.001 = Attack - 2  \nwalk=Walk=Fast\n";
        let names = SequenceNames::parse(Path::new("names.txt"), text).unwrap();
        assert_eq!(
            names.renames,
            [
                (3, "Action".to_string(), "Stand".to_string()),
                (4, "Attack.001".into(), "Attack - 2".into()),
                (5, "walk".into(), "Walk=Fast".into()),
            ]
        );
        assert_eq!(
            names.unused(["Action", "walk"].into_iter()),
            ["names.txt line 4: no input has an animation named \"Attack.001\""]
        );
        let error = |text: &str| {
            SequenceNames::parse(Path::new("n.txt"), text)
                .err()
                .unwrap()
        };
        assert_eq!(
            error("A = B\nStand Ready\n"),
            "n.txt line 2: `Stand Ready` is not `Animation Name = Sequence Name`"
        );
        assert_eq!(
            error("A = \n"),
            "n.txt line 1: `A =` needs a name on both sides of `=`"
        );
        assert_eq!(
            error("A = B\n\nA = C\n"),
            "n.txt line 3: the animation \"A\" is renamed on line 1 already"
        );
    }

    #[test]
    fn texture_paths_stay_in_the_model_folder() {
        let out = Path::new("out/units/hero.mdx");
        assert_eq!(
            texture_file(out, "Textures\\Hero.blp").unwrap(),
            Path::new("out/units/Textures/Hero.blp")
        );
        assert_eq!(
            texture_file(out, "./skin.blp").unwrap(),
            Path::new("out/units/skin.blp")
        );
        assert_eq!(
            texture_file(Path::new("hero.mdx"), "skin.blp").unwrap(),
            Path::new("skin.blp")
        );
        for (path, why) in [
            ("..\\..\\evil.blp", "leads out of the model's folder"),
            ("Textures/../../evil.blp", "leads out of the model's folder"),
            ("/etc/evil.blp", "is absolute"),
            ("\\evil.blp", "is absolute"),
            ("C:\\evil.blp", "names a drive"),
            ("", "names no file"),
        ] {
            let error = texture_file(out, path).unwrap_err();
            assert!(error.contains(why), "{path}: {error}");
        }
    }

    #[test]
    fn two_inputs_claim_a_texture_only_with_the_same_bytes() {
        let claims = Claims::default();
        let file = PathBuf::from("out/skin.blp");
        let (a, b, c) = (Path::new("a.glb"), Path::new("b.glb"), Path::new("c.glb"));
        claims.claim(a, &[(file.clone(), b"one")]).unwrap();
        claims.claim(b, &[(file.clone(), b"one")]).unwrap();
        let other = PathBuf::from("out/other.blp");
        let error = claims
            .claim(c, &[(other.clone(), b"x"), (file.clone(), b"two")])
            .unwrap_err();
        assert!(error.contains("is written by a.glb too"), "{error}");
        // Nothing of c's was claimed: another input may write other.blp.
        claims.claim(b, &[(other, b"y")]).unwrap();
    }

    #[test]
    fn texture_choices_are_the_library_modes_and_the_scale_and_length_must_be_positive() {
        assert_eq!(TextureChoice::Dds.mode(), TextureMode::Dds);
        assert_eq!(TextureChoice::Keep.mode(), TextureMode::Keep);
        assert_eq!(parse_scale("2.5"), Ok(2.5));
        assert_eq!(parse_seconds("0.5"), Ok(0.5));
        for bad in ["0", "-1", "inf", "NaN", "two"] {
            assert!(parse_scale(bad).is_err(), "{bad}");
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
