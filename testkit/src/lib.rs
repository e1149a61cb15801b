//! What the tests of `formats` and `formats-cli` share: finding the shared
//! corpus (`../shared/corpus` beside the repository) and reading its
//! manifests, the independent checkers (npm packages and Python scripts in
//! `harness/`, installed on first use), temp folders that clean up after
//! themselves, and readers of raw bytes that check the crate's readers.
//! Under `CI=true` a missing corpus or checker is a failure; elsewhere the
//! tests that need one say loudly that they did not run.
//!
//! The checkers with a module of their own: [`gltf_validator`] (the
//! Khronos glTF Validator) and [`babylon_pose`] (Babylon.js's glTF loader
//! posing skinned vertices on the CPU, at rest and at times into each
//! animation).

pub mod babylon_pose;
pub mod gltf_validator;
pub mod module_graph;
pub mod rule_table;

use std::path::{Path, PathBuf};

/// The corpus folder, or `None` (with a loud message) outside CI when it is missing.
pub fn corpus_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    if root.is_dir() {
        return Some(root);
    }
    did_not_run(
        "the corpus tests",
        &format!(
            "the corpus is missing at {} (CI must have ../shared beside the repository)",
            root.display()
        ),
    );
    None
}

/// Says that the check `what` cannot run, and `why`: under `CI=true`, where
/// `.ci/run` installs everything the tests need, a panic; elsewhere a loud
/// note straight to stderr (the test harness captures `eprintln!`).
pub fn did_not_run(what: &str, why: &str) {
    use std::io::Write;
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what} cannot run under CI: {why}");
    }
    let _ = writeln!(std::io::stderr(), "\n!!! {what} did NOT run: {why} !!!\n");
}

/// The bytes of the corpus file `relative` (`mdx/zf_bone.mdx`), or `None`
/// (with the loud message of [`corpus_root`]) outside CI when the corpus is missing.
pub fn corpus_file(relative: &str) -> Option<Vec<u8>> {
    let path = corpus_root()?.join(relative);
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The path of `../shared/wild/<name>`: a real file from a public
/// repository on which the tools once failed (listed, with its source, in
/// `WILD_MANIFEST.md`), kept as a regression case and never copied into the
/// repository; or `None` (with the loud message of [`did_not_run`], a panic
/// under `CI=true`) when `../shared` is missing.
pub fn wild_path(name: &str) -> Option<PathBuf> {
    shared_path("wild", name, "the wild file")
}

/// The path of `../shared/<folder>/<name>`, or `None` (with the loud
/// message of [`did_not_run`] naming `what`, a panic under `CI=true`) when
/// it is missing.
fn shared_path(folder: &str, name: &str, what: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared")
        .join(folder)
        .join(name);
    if path.is_file() {
        return Some(path);
    }
    did_not_run(
        &format!("the test on {what} {name}"),
        &format!(
            "{} is missing (CI must have ../shared beside the repository)",
            path.display()
        ),
    );
    None
}

/// The path of `../shared/gltf/<name>`: a glTF file written by others
/// (listed, with its source, in its `GLTF_MANIFEST.md`: the Khronos
/// samples `CesiumMan.glb` and `RiggedSimple.glb`), never copied into the
/// repository; or `None` (with the loud message of [`did_not_run`], a
/// panic under `CI=true`) when `../shared` is missing.
pub fn shared_gltf(name: &str) -> Option<PathBuf> {
    shared_path("gltf", name, "the glTF file")
}

/// The glTF files others wrote that the import is checked on: the
/// Khronos samples `CesiumMan.glb` and `RiggedSimple.glb` (from
/// `../shared/gltf`, loudly left out without it) and the Blender fixture
/// ([`blender_rigged_glb`]).
pub fn third_party_gltf() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["CesiumMan.glb", "RiggedSimple.glb"]
        .into_iter()
        .filter_map(shared_gltf)
        .collect();
    files.push(blender_rigged_glb());
    files
}

/// Each of [`third_party_gltf`] imported (`formats::gltf::import`, default
/// options) at each of `versions`, written into `dir` as
/// `STEM_VERSION.mdx` with its textures (BLP; DDS for the HD materials of
/// 1100 and later) in `STEM_VERSION/`: the model files and models, and the
/// texture files written.
pub fn imported_third_party(
    dir: &Path,
    versions: &[u32],
) -> (Vec<(PathBuf, formats::mdx::Model)>, Vec<PathBuf>) {
    let mut models = Vec::new();
    let mut textures = Vec::new();
    for file in third_party_gltf() {
        let source = formats::gltf::Source::from_path(&file)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let stem = file
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        for &version in versions {
            let options = formats::gltf::ImportOptions {
                version,
                ..Default::default()
            };
            let imported = formats::gltf::import(&source, &options)
                .unwrap_or_else(|e| panic!("{} at {version}: {e}", file.display()));
            let path = dir.join(format!("{stem}_{version}.mdx"));
            std::fs::write(&path, imported.model.to_bytes().unwrap()).unwrap();
            let folder = dir.join(format!("{stem}_{version}"));
            for texture in &imported.textures {
                let written = folder.join(texture.path.replace('\\', "/"));
                std::fs::create_dir_all(written.parent().unwrap_or(&folder)).unwrap();
                std::fs::write(&written, &texture.bytes).unwrap();
                textures.push(written);
            }
            models.push((path, imported.model));
        }
    }
    (models, textures)
}

/// `harness/blender/fixtures/rigged.glb`: a rigged, animated creature
/// built from nothing by `harness/blender/make_rigged.py` and written by
/// Debian's Blender 3.4 with its own glTF exporter (a writer nobody here
/// wrote): one skinned mesh of two primitives, 8 joints, the animations
/// `Attack` and `Stand`, an alpha-masked texture. Generated once and
/// committed (`fixtures/README.md` says how, and what it holds), so it is
/// always there: tests need no Blender.
pub fn blender_rigged_glb() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("harness/blender/fixtures/rigged.glb")
}

/// The bytes of the wild file `name` ([`wild_path`]), or `None` (loudly;
/// a panic under `CI=true`) when `../shared` is missing.
pub fn wild_file(name: &str) -> Option<Vec<u8>> {
    let path = wild_path(name)?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// One file listed in a manifest table.
pub struct ManifestFile {
    /// Path relative to the corpus root (`mdx/zf_bone.mdx`).
    pub path: String,
    /// The row's cells, by column header.
    pub cells: Vec<(String, String)>,
}

impl ManifestFile {
    /// The cell under the column whose header starts with `header`.
    pub fn cell(&self, header: &str) -> &str {
        self.cells
            .iter()
            .find(|(h, _)| h.starts_with(header))
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("{}: no column {header:?}", self.path))
    }
}

/// Every row of the file tables (those with a `sha256` column) of `manifest`
/// whose first cell names a file under `folder/`
/// (written `folder/name` or `` `name` `` in a table whose files live in `folder`).
pub fn manifest_files(
    root: &Path,
    manifest: &str,
    folder: &str,
    extension: &str,
) -> Vec<ManifestFile> {
    let text = std::fs::read_to_string(root.join(manifest)).expect("manifest is readable");
    let mut headers: Vec<String> = Vec::new();
    let mut files = Vec::new();
    for line in text.lines() {
        let cells: Vec<String> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().trim_matches('`').to_string())
            .collect();
        if !line.starts_with('|') {
            headers.clear();
            continue;
        }
        if headers.is_empty() {
            headers = cells;
            continue;
        }
        // Only the file tables (the ones with a checksum column) list files.
        if !headers.iter().any(|h| h == "sha256") {
            continue;
        }
        let Some(first) = cells.first() else { continue };
        let name = first.strip_prefix(&format!("{folder}/")).unwrap_or(first);
        if name.ends_with(extension) && !name.contains('/') && !name.contains(' ') {
            files.push(ManifestFile {
                path: format!("{folder}/{name}"),
                cells: headers.iter().cloned().zip(cells.iter().cloned()).collect(),
            });
        }
    }
    files
}

/// The names of the files in `folder` (one the tool wrote), sorted.
pub fn listing(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The files with `extension` actually present in `root/folder`, sorted.
pub fn files_in(root: &Path, folder: &str, extension: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root.join(folder))
        .expect("corpus folder is readable")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(extension))
        .map(|n| format!("{folder}/{n}"))
        .collect();
    names.sort();
    names
}

/// The `MDX_MANIFEST.md` rows of `.mdx` files whose version is in `versions`,
/// with their bytes; empty (with the loud message of [`corpus_root`]) outside
/// CI when the corpus is missing.
pub fn manifest_models(versions: std::ops::RangeInclusive<u32>) -> Vec<(ManifestFile, Vec<u8>)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    manifest_files(&root, "MDX_MANIFEST.md", "mdx", ".mdx")
        .into_iter()
        .filter(|f| versions.contains(&f.cell("version").parse().unwrap()))
        .map(|f| {
            let data = std::fs::read(root.join(&f.path)).unwrap();
            (f, data)
        })
        .collect()
}

/// Where the last chunk of `model` starts in its file: the length of the
/// model without it (the chunks before it sit end to end; a `LITE`
/// chunk's quirk tracks, written after it, count with it).
pub fn last_chunk_start(model: &formats::mdx::Model) -> usize {
    let before = formats::mdx::Model {
        chunks: model.chunks[..model.chunks.len() - 1].to_vec(),
    };
    before.to_bytes().unwrap().len()
}

/// What a lenient read of a file cut inside a chunk must give (models and
/// tiles alike): that chunk kept as its bytes, with `tag` and the `len -
/// start - 4` bytes after its tag, and one diagnostic, at `start`, whose
/// path is `named` (`chunks[3].TEXS: `, `chunks[98].MCNK: `).
pub fn check_cut_chunk(
    kept: &formats::core::CutChunk,
    tag: formats::core::FourCC,
    diagnostics: &[formats::core::Diagnostic],
    named: &str,
    (start, len): (usize, usize),
    at: &str,
) {
    assert_eq!(kept.tag, tag, "{at}");
    assert_eq!(kept.bytes.len(), len - start - 4, "{at}");
    let diagnostic = diagnostics
        .iter()
        .find(|d| d.message.starts_with(named))
        .unwrap_or_else(|| panic!("{at}: no diagnostic for {named}: {diagnostics:?}"));
    assert_eq!(diagnostic.offset, start, "{at}");
    assert!(
        diagnostic.message.contains(&format!("from {start:#x}")),
        "{at}: {diagnostic}"
    );
}

/// `data`, the file of a model, cut in the middle of its last chunk (as the
/// public `Glow.mdx` is), and where that chunk starts.
pub fn cut_in_last_chunk(data: &[u8]) -> (Vec<u8>, usize) {
    let model = formats::mdx::Model::from_bytes(data)
        .or_else(|_| formats::mdx::Model::from_bytes_lenient(data).map(|(m, _)| m))
        .unwrap();
    let start = last_chunk_start(&model);
    (data[..start + (data.len() - start) / 2].to_vec(), start)
}

/// Every `.blp` file (any case) under the corpus folders `blp` and `textures`
/// (the models' textures, in subfolders), as paths relative to `root`, sorted.
pub fn blp_files(root: &Path) -> Vec<String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir)
            .expect("corpus folder is readable")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("blp"))
            {
                out.push(path);
            }
        }
    }
    let mut paths = Vec::new();
    walk(&root.join("blp"), &mut paths);
    walk(&root.join("textures"), &mut paths);
    let mut names: Vec<String> = paths
        .iter()
        .map(|p| {
            p.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    names.sort();
    names
}

/// Every corpus BLP ([`blp_files`]) with its bytes; empty (with the loud
/// message of [`corpus_root`]) outside CI when the corpus is missing.
pub fn blp_corpus() -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    blp_files(&root)
        .into_iter()
        .map(|p| {
            let data = std::fs::read(root.join(&p)).unwrap();
            (p, data)
        })
        .collect()
}

/// Every corpus `.mdx` model (read leniently), by path; empty (loudly)
/// outside CI when the corpus is missing.
pub fn corpus_models() -> Vec<(String, formats::mdx::Model)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    files_in(&root, "mdx", ".mdx")
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(root.join(&path)).expect("corpus file is readable");
            let (model, _) = formats::mdx::Model::from_bytes_lenient(&bytes)
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            (path, model)
        })
        .collect()
}

/// Every corpus MDL model, parsed (leniently where strictly fails), by its
/// path under the corpus.
pub fn corpus_mdl_models() -> Vec<(String, formats::mdx::Model)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    files_in(&root, "mdl", ".mdl")
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(root.join(&path)).expect("corpus file is readable");
            let model = formats::mdl::from_str(&text)
                .or_else(|_| formats::mdl::from_str_lenient(&text).map(|(m, _)| m))
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            (path, model)
        })
        .collect()
}

/// The folder `harness/<folder>` of a node harness whose npm `package` is
/// installed there, or `None` (with a loud message; a panic under `CI=true`)
/// when node is missing or the package cannot be installed. Where node is
/// present and the package is not, it is installed on first use with
/// `npm ci --prefix testkit/harness/<folder>` (what `.ci/run` does up front),
/// once however many tests ask at once. `what` names the check in the
/// messages.
pub fn npm_harness(folder: &str, package: &str, what: &str) -> Option<PathBuf> {
    use std::sync::Mutex;
    /// The harness folders whose install was tried, and how it went.
    static INSTALLS: Mutex<Vec<(String, Result<(), String>)>> = Mutex::new(Vec::new());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("harness")
        .join(folder);
    let installed = || {
        dir.join("node_modules")
            .join(package)
            .join("package.json")
            .is_file()
    };
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !node {
        did_not_run(what, "node is not installed");
        return None;
    }
    // One install per folder: the tests that share it wait for it.
    let mut installs = INSTALLS.lock().unwrap_or_else(|e| e.into_inner());
    if !installed() && !installs.iter().any(|(f, _)| f == folder) {
        let _ = writeln_stderr(&format!(
            "installing the npm package {package} for {what} (npm ci --prefix testkit/harness/{folder})"
        ));
        let result = std::process::Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .output()
            .map_err(|e| format!("npm could not run ({e})"))
            .and_then(|out| match out.status.success() {
                true => Ok(()),
                false => Err(format!(
                    "npm ci --prefix testkit/harness/{folder} failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
            });
        installs.push((folder.to_string(), result));
    }
    if installed() {
        return Some(dir);
    }
    let why = match installs.iter().find(|(f, _)| f == folder) {
        Some((_, Err(e))) => e.clone(),
        _ => format!(
            "the npm package {package} is not installed (npm ci --prefix testkit/harness/{folder})"
        ),
    };
    drop(installs);
    did_not_run(what, &why);
    None
}

/// A line straight to stderr (the test harness captures `eprintln!`).
fn writeln_stderr(line: &str) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(std::io::stderr(), "{line}")
}

/// Runs `node SCRIPT ARGS...` (a harness printing one JSON object per line,
/// each with its `file`) and gives its results by file.
pub fn node_results(
    script: &Path,
    args: &[&std::ffi::OsStr],
) -> std::collections::BTreeMap<String, serde_json::Value> {
    let out = std::process::Command::new("node")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{} failed: {stdout}\n{}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .map(|line| {
            let result: serde_json::Value = serde_json::from_str(line).unwrap();
            (result["file"].as_str().unwrap().to_string(), result)
        })
        .collect()
}

/// Runs `node SCRIPT LIST` on a list of files and their probe times (the
/// JSON file `dir/probes.json`: `[{"file", "probes": [[seconds...] per
/// animation]}]`, what Babylon.js's harness scripts read) and gives
/// [`node_results`]: one result per file, by file.
pub fn node_probes(
    dir: &Path,
    script: &Path,
    files: &[(PathBuf, Vec<Vec<f64>>)],
) -> std::collections::BTreeMap<String, serde_json::Value> {
    let list: Vec<serde_json::Value> = files
        .iter()
        .map(|(file, probes)| serde_json::json!({ "file": file, "probes": probes }))
        .collect();
    let probes = dir.join("probes.json");
    std::fs::write(&probes, serde_json::to_vec(&list).unwrap()).unwrap();
    node_results(script, &[probes.as_os_str()])
}

/// Every corpus tile (`adt/` and the map folder `maps/cataclysmctf/`), read,
/// with its path; empty (loudly) outside CI when the corpus is missing.
pub fn corpus_tiles() -> Vec<(String, formats::adt::Adt)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    let mut files = files_in(&root, "adt", ".adt");
    files.extend(files_in(&root, "maps/cataclysmctf", ".adt"));
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(root.join(&path)).expect("corpus file is readable");
            let adt =
                formats::adt::Adt::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
            (path, adt)
        })
        .collect()
}

/// The top-level chunks of a chunked file (ADT, WDT) walked from its bytes,
/// without the crate's readers, for tests that check those readers against
/// the file: each chunk's tag as it reads forwards (`MCNK`; the file stores
/// it reversed) and its bytes from the tag to its end (so that an MCNK
/// header's offsets, which count from its tag, index them).
pub fn raw_chunks(bytes: &[u8]) -> Vec<([u8; 4], &[u8])> {
    let mut chunks = Vec::new();
    let mut at = 0;
    while let Some(header) = bytes.get(at..at + 8) {
        let mut tag: [u8; 4] = header[..4].try_into().unwrap();
        tag.reverse();
        let size = u32::from_le_bytes(header[4..].try_into().unwrap()) as usize;
        let chunk = bytes
            .get(at..at + 8 + size)
            .unwrap_or_else(|| panic!("chunk {tag:?} at {at} runs past the end"));
        chunks.push((tag, chunk));
        at += 8 + size;
    }
    assert_eq!(at, bytes.len(), "the chunks end at the end of the file");
    chunks
}

/// The little-endian `u32` at `at` of `bytes`.
pub fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The little-endian `u16` at `at` of `bytes`.
pub fn le_u16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap())
}

/// One MCLY entry as the file has it (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawLayer {
    /// `textureId`: index into MTEX.
    pub texture_id: u32,
    /// `flags`.
    pub flags: u32,
    /// `offsetInMCAL`.
    pub offset_in_mcal: u32,
    /// `effectId`.
    pub effect_id: u32,
}

/// A chunk's `(IndexX, IndexY)` and its MCLY entries.
pub type RawChunkLayers = ((u32, u32), Vec<RawLayer>);

/// A tile's texture layers read from its bytes without the crate's readers:
/// the MTEX names (zero-terminated), and every MCNK's `(IndexX, IndexY)`
/// (header bytes 4 and 8) and MCLY entries, found by the header's `nLayers`
/// (0x0C) and `ofsLayer` (0x1C, counted from the MCNK's tag), in file order.
pub fn raw_layers(bytes: &[u8]) -> (Vec<String>, Vec<RawChunkLayers>) {
    let chunks = raw_chunks(bytes);
    let mtex = chunks
        .iter()
        .find(|(tag, _)| tag == b"MTEX")
        .map_or(&[][..], |(_, chunk)| &chunk[8..]);
    let names = mtex
        .split(|b| *b == 0)
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    let layers = chunks
        .iter()
        .filter(|(tag, _)| tag == b"MCNK")
        .map(|(_, chunk)| {
            let header = &chunk[8..];
            let index = (le_u32(header, 4), le_u32(header, 8));
            let count = le_u32(header, 0x0c) as usize;
            let at = le_u32(header, 0x1c) as usize;
            let layers = if count == 0 {
                Vec::new()
            } else {
                let mcly = &chunk[at..];
                assert_eq!(&mcly[..4], b"YLCM", "ofsLayer points at MCLY");
                assert_eq!(le_u32(mcly, 4) as usize, 16 * count, "MCLY holds nLayers");
                (0..count)
                    .map(|i| {
                        let e = 8 + 16 * i;
                        RawLayer {
                            texture_id: le_u32(mcly, e),
                            flags: le_u32(mcly, e + 4),
                            offset_in_mcal: le_u32(mcly, e + 8),
                            effect_id: le_u32(mcly, e + 12),
                        }
                    })
                    .collect()
            };
            (index, layers)
        })
        .collect();
    (names, layers)
}

/// The rotation of a glTF export's root node, as the `formats::gltf` docs
/// give it: -90° about X, turning the game's Z up into glTF's Y up.
pub const Z_UP_TO_Y_UP: [f32; 4] = [
    -std::f32::consts::FRAC_1_SQRT_2,
    0.0,
    0.0,
    std::f32::consts::FRAC_1_SQRT_2,
];

/// A point or direction of a model turned Y up as a glTF export writes
/// vertices, normals and tangents (the `formats::gltf` docs): `(x, y, z)`
/// becomes `(x, z, -y)`.
pub fn z_up_to_y_up([x, y, z]: [f32; 3]) -> [f32; 3] {
    [x, z, -y]
}

/// The positions and triangle indices of the `terrain` mesh of a tile's
/// `.glb`, read back with the `gltf` crate.
pub fn glb_terrain(glb: &[u8]) -> (Vec<[f32; 3]>, Vec<u32>) {
    let gltf::Gltf { document, blob } = gltf::Gltf::from_slice(glb).expect("a GLB");
    let blob = blob.expect("a binary chunk");
    let mesh = document
        .meshes()
        .find(|m| m.name() == Some("terrain"))
        .expect("a terrain mesh");
    let primitive = mesh.primitives().next().expect("a primitive");
    let reader = primitive.reader(|_| Some(&blob[..]));
    let positions = reader.read_positions().expect("positions").collect();
    let indices = reader.read_indices().expect("indices").into_u32().collect();
    (positions, indices)
}

/// An image as Pillow (PyPI, an independent decoder) reads it: its mode
/// (`RGBA`, `L`, `I;16`, `F`, ...), size and `tobytes()` pixels.
pub struct PillowImage {
    /// Pillow's mode.
    pub mode: String,
    /// Width and height.
    pub size: (usize, usize),
    /// The pixels as Pillow holds them (16-bit and float samples little-endian).
    pub bytes: Vec<u8>,
}

impl PillowImage {
    /// 16-bit samples (`I;16`).
    pub fn u16s(&self) -> Vec<u16> {
        assert_eq!(self.mode, "I;16");
        self.bytes
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect()
    }

    /// Float samples (`F`).
    pub fn f32s(&self) -> Vec<f32> {
        assert_eq!(self.mode, "F");
        self.bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
}

/// True if `python3` can import Pillow (with its BLP plugin); under `CI=true`
/// (where `.ci/run` installs Pillow) a panic otherwise, elsewhere a loud note.
pub fn pillow_available() -> bool {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import PIL.BlpImagePlugin"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        did_not_run(
            "the Pillow check",
            "python3 with Pillow is missing (pip install Pillow; .ci/run installs it)",
        );
    }
    ok
}

/// `files` read by Pillow (`harness/pillow/read.py`), in order; `None` (with a
/// loud message; a panic under `CI=true`, where `.ci/run` installs Pillow)
/// when python3 or Pillow is missing. A file Pillow cannot read fails the test.
pub fn pillow_read(files: &[PathBuf]) -> Option<Vec<PillowImage>> {
    if !pillow_available() {
        return None;
    }
    let run = pillow_run("read.py", files);
    let images = run
        .stdout
        .lines()
        .map(|line| {
            let [i, mode, w, h] = line.split(' ').collect::<Vec<_>>()[..] else {
                panic!("read.py printed {line:?}");
            };
            PillowImage {
                mode: mode.to_string(),
                size: (w.parse().unwrap(), h.parse().unwrap()),
                bytes: std::fs::read(run.out.join(format!("{i}.raw"))).unwrap(),
            }
        })
        .collect::<Vec<_>>();
    assert_eq!(images.len(), files.len());
    Some(images)
}

/// What a script of `harness/pillow/` printed, and the folder it wrote its
/// outputs to (removed when this is dropped).
pub struct PillowRun {
    /// The script's stdout.
    pub stdout: String,
    /// Its output folder, a fresh one per run.
    pub out: TempDir,
}

/// Runs `python3 harness/pillow/<script> OUT FILES...` with a fresh folder
/// `OUT` (tests run in parallel: each run has its own); a script that fails
/// (Pillow could not read a file) fails the test. Check
/// [`pillow_available`] first.
pub fn pillow_run(script: &str, files: &[PathBuf]) -> PillowRun {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = temp_dir(&format!("pillow-{run}"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("harness/pillow")
        .join(script);
    let run = std::process::Command::new("python3")
        .arg(&path)
        .arg(&out)
        .args(files)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "Pillow could not read one of our files ({script}): {}",
        String::from_utf8_lossy(&run.stderr)
    );
    PillowRun {
        stdout: String::from_utf8(run.stdout).unwrap(),
        out,
    }
}

/// A fresh, empty folder for a test's files: `formats-NAME-PID-N` in the
/// system's temp folder, `N` counting the calls, since the tests of every
/// file run in one process and two of them may pick the same `NAME`. The
/// folder and what the test wrote in it go when the guard is dropped, also
/// when the test panics (set `FORMATS_KEEP_TEMP=1` to keep them for a look).
pub fn temp_dir(name: &str) -> TempDir {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("formats-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// A test's temp folder ([`temp_dir`]), removed with everything in it when
/// dropped. It derefs to its [`Path`].
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("FORMATS_KEEP_TEMP").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A BLP1 JPEG file of `side` x `side` whose `shared` mip entries all point
/// at one level: a real 16 x 8 stream with its frame header saying `side` x
/// `side` and its scan padded with zeros to `level_len` bytes (a decoder that
/// pads a short scan would make the whole frame of it).
pub fn hostile_jpeg(side: u16, shared: usize, level_len: usize) -> Vec<u8> {
    let rgba = [90u8, 60, 30, 255].repeat(16 * 8);
    let mut stream = formats::blp::codec::jpeg::encode(&rgba, 16, 8, false, 90).unwrap();
    let sof = stream.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
    stream[sof + 5..sof + 7].copy_from_slice(&side.to_be_bytes());
    stream[sof + 7..sof + 9].copy_from_slice(&side.to_be_bytes());
    stream.truncate(stream.len() - 2); // no EOI: the zeros continue the scan
    stream.resize(level_len, 0);
    let mut data = b"BLP1".to_vec();
    let side = u32::from(side);
    for field in [0, 8, side, side, 4, 1] {
        data.extend_from_slice(&field.to_le_bytes());
    }
    let start = 4 + 24 + 128 + 4; // an empty shared JPEG header
    let mut table = [0u32; 32];
    for i in 0..shared {
        table[i] = start as u32;
        table[16 + i] = level_len as u32;
    }
    for v in table {
        data.extend_from_slice(&v.to_le_bytes());
    }
    data.extend_from_slice(&0u32.to_le_bytes());
    assert_eq!(data.len(), start);
    data.extend_from_slice(&stream);
    data
}

/// The built-in sample model with `count` sequences, each a copy of its
/// first lasting 49 days (`[0, u32::MAX]`): what a small hostile file can
/// declare, for the tools' budgets.
pub fn sample_with_long_sequences(count: usize) -> formats::mdx::Model {
    let mut model = formats::mdx::Model::from_bytes(&formats::sample::sample_mdx()).unwrap();
    let long = formats::mdx::Sequence {
        interval: [0, u32::MAX],
        ..model.sequences()[0]
    };
    model.sequences_mut().resize(count, long);
    model
}

/// A `.glb` file's JSON and binary chunk.
pub fn glb_parts(glb: &[u8]) -> (serde_json::Value, &[u8]) {
    let word = |at: usize| u32::from_le_bytes(glb[at..at + 4].try_into().unwrap()) as usize;
    let json_len = word(12);
    let json = serde_json::from_slice(&glb[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    let bin = match glb.len() > bin_at {
        true => &glb[bin_at + 8..bin_at + 8 + word(bin_at)],
        false => &[],
    };
    (json, bin)
}

/// A `.glb` as the `.gltf` that holds the same document with its data in
/// files beside it: the JSON text, and each file's name and bytes. The
/// binary chunk becomes `{stem}.bin`, and each image held in a buffer view
/// becomes `{stem}_image{i}.png` or `.jpg` (by its MIME type), which the
/// JSON names by `uri` instead (its view stays, unused).
pub fn glb_as_gltf(glb: &[u8], stem: &str) -> (String, Vec<(String, Vec<u8>)>) {
    let (mut json, bin) = glb_parts(glb);
    let mut files = vec![(format!("{stem}.bin"), bin.to_vec())];
    json["buffers"][0]["uri"] = format!("{stem}.bin").into();
    let views = json["bufferViews"].clone();
    for (i, image) in json["images"]
        .as_array_mut()
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(view) = image["bufferView"].as_u64() else {
            continue;
        };
        let view = &views[view as usize];
        let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
        let end = start + view["byteLength"].as_u64().unwrap() as usize;
        let extension = match image["mimeType"].as_str() {
            Some("image/png") => "png",
            _ => "jpg",
        };
        let name = format!("{stem}_image{i}.{extension}");
        let image = image.as_object_mut().unwrap();
        image.remove("bufferView");
        image.remove("mimeType");
        image.insert("uri".into(), name.clone().into());
        files.push((name, bin[start..end].to_vec()));
    }
    (serde_json::to_string_pretty(&json).unwrap(), files)
}

/// An accessor's components per element and its values as `f64`, element
/// after element (float and unsigned byte accessors, tightly packed: what
/// animation samplers hold).
pub fn accessor_values(
    json: &serde_json::Value,
    bin: &[u8],
    accessor: &serde_json::Value,
) -> (usize, Vec<f64>) {
    let accessor = &json["accessors"][accessor.as_u64().unwrap() as usize];
    let view = &json["bufferViews"][accessor["bufferView"].as_u64().unwrap() as usize];
    let start = view["byteOffset"].as_u64().unwrap_or(0) as usize;
    let components = match accessor["type"].as_str().unwrap() {
        "SCALAR" => 1,
        "VEC2" => 2,
        "VEC3" => 3,
        "VEC4" => 4,
        other => panic!("accessor type {other}"),
    };
    let n = components * accessor["count"].as_u64().unwrap() as usize;
    let values = match accessor["componentType"].as_u64() {
        Some(5126) => (0..n)
            .map(|i| {
                let at = start + 4 * i;
                f64::from(f32::from_le_bytes(bin[at..at + 4].try_into().unwrap()))
            })
            .collect(),
        Some(5121) => bin[start..start + n]
            .iter()
            .map(|&b| f64::from(b))
            .collect(),
        other => panic!("component type {other:?}"),
    };
    (components, values)
}
