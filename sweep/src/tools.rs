//! The tools run on each kind of file: the library calls behind the
//! `formats` commands users run, with the options those commands default
//! to, and the check each one's output must pass.
//!
//! | file | tool | what runs | wrong when |
//! |---|---|---|---|
//! | model | `read` | the strict reader (`Model::from_bytes`, `mdl::from_str`) | |
//! | model | `read-lenient` | the lenient reader | |
//! | model | `write` | the model written in its own format | MDX: not byte-exact; MDL: not the same model back |
//! | model | `mdl` / `mdx` | the model through the other format and back | not the same model |
//! | model | `validate` | `validate::all` (findings recorded by rule) | |
//! | model | `export` | glTF export with `formats export`'s defaults, textures beside the model | the Khronos validator finds errors (`--gltf-validator`) |
//! | model | `import` | the export imported back (`gltf::import`) at the model's version (Warcraft III versions), geosets kept whole | it does not read back, or a vertex posed at rest or halfway into a sequence is further than 1e-3 of the model's size from where the source poses it |
//! | model | `convert` | to 800 (from Reforged) or 1000 (from 800), `convert`'s defaults | it does not read back, or `validate` finds errors the source did not have |
//! | model | `optimize` | `optimize` with the default tolerance | it does not read back |
//! | model | `fix-extents` | `Model::recompute_extents` | it does not read back |
//! | model | `render` | the wireframe posed halfway into the first sequence (bind pose without one), as PNG | |
//! | texture | `read`, `read-lenient` (BLP), `write` | the readers, the writer | not byte-exact |
//! | texture | `decode` | every level to RGBA (a level whose bytes an earlier level has is decoded once) | warned: a smaller level does not decode, level 0 does |
//! | texture | `png` | level 0 as PNG | |
//! | tile | `read`, `read-lenient`, `write` | as models | not byte-exact |
//! | tile | `export` | the tile to glTF | |
//! | tile | `heightmap` | the tile's heightmap as PNG | |
//! | split tile file, map | `read`, `read-lenient`, `write` | as models | not byte-exact |
//! | map (WDT) | `map` | its tiles found beside it read, seams shared, stitched into one heightmap overview as PNG | |
//!
//! A tool runs on what the strict reader read, or where it refused, on what
//! the lenient one did; when neither read the file, the others are skipped.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use formats::adt::{Adt, SplitFile};
use formats::blp::Blp;
use formats::dds::Dds;
use formats::mdx::Model;
use formats::validate::{self, Severity};
use formats::wdt::Wdt;

use crate::discover::{Found, Kind};
use crate::record::{FileResult, Outcome, RuleCount};
use crate::runner::Job;

/// What the tools are run with.
pub struct Options {
    /// Tools not to run (`--skip`).
    pub off: BTreeSet<String>,
    /// Where exported glTF files are kept for the Khronos validator.
    pub exports: Option<PathBuf>,
}

impl Options {
    fn on(&self, tool: &str) -> bool {
        !self.off.contains(tool)
    }
}

/// Every tool name, by the kind of file it runs on.
pub const TOOLS: &[(&str, &[&str])] = &[
    (
        "models",
        &[
            "read",
            "read-lenient",
            "write",
            "mdl",
            "mdx",
            "validate",
            "export",
            "import",
            "convert",
            "optimize",
            "fix-extents",
            "render",
        ],
    ),
    (
        "textures",
        &["read", "read-lenient", "write", "decode", "png"],
    ),
    (
        "tiles and maps",
        &[
            "read",
            "read-lenient",
            "write",
            "export",
            "heightmap",
            "map",
        ],
    ),
];

/// Runs every tool for `found`'s kind.
pub fn sweep(found: &Found, job: &mut Job<'_>, options: &Options, index: usize) -> FileResult {
    let mut result = FileResult {
        path: found.path.display().to_string(),
        kind: found.kind,
        size: found.size,
        version: None,
        runs: Vec::new(),
        rules: Vec::new(),
    };
    match found.read() {
        Ok(data) => match found.kind {
            Kind::Mdx | Kind::Mdl => model(found, &data, job, options, index, &mut result),
            Kind::Blp => texture(
                &data,
                job,
                options,
                Blp::from_bytes,
                Some(|d| Blp::from_bytes_lenient(d).map(|(b, _)| b)),
                blp_levels,
            ),
            Kind::Dds => texture(&data, job, options, Dds::from_bytes, None, dds_levels),
            Kind::Adt => tile(found, &data, job, options),
            Kind::AdtSplit => exact(
                &data,
                job,
                SplitFile::from_bytes,
                |d| SplitFile::from_bytes_lenient(d).map(|(f, _)| f),
                SplitFile::to_bytes,
            ),
            Kind::Wdt => map(found, &data, job, options),
            // Not found by `discover` (no tool here reads glTF back).
            Kind::Gltf => {
                job.tool("read", || {
                    Err::<(), _>(Outcome::refused("a glTF document: not swept"))
                });
            }
        },
        Err(e) => {
            job.tool("read", || Err::<(), _>(Outcome::refused(e)));
        }
    }
    result.runs = std::mem::take(&mut job.runs);
    result
}

/// `written` against the file's `data`: `Wrong` at the first byte that differs.
fn same_bytes(written: &[u8], data: &[u8]) -> Result<(), Outcome> {
    if written == data {
        return Ok(());
    }
    let at = written.iter().zip(data).take_while(|(a, b)| a == b).count();
    Err(Outcome::Wrong(format!(
        "not byte-exact: {} bytes written for {}, the first difference at byte {at}",
        written.len(),
        data.len()
    )))
}

/// Reads strictly, then leniently: what the later tools run on.
fn read_both<T>(
    job: &mut Job<'_>,
    strict: impl FnOnce() -> Result<T, formats::Error>,
    lenient: impl FnOnce() -> Result<T, formats::Error>,
) -> Option<T> {
    let strict = job.tool("read", || strict().map_err(Outcome::refused));
    let lenient = job.tool("read-lenient", || lenient().map_err(Outcome::refused));
    strict.or(lenient)
}

/// A file whose tools are reading and writing back.
fn exact<T>(
    data: &[u8],
    job: &mut Job<'_>,
    strict: impl FnOnce(&[u8]) -> Result<T, formats::Error>,
    lenient: impl FnOnce(&[u8]) -> Result<T, formats::Error>,
    write: impl FnOnce(&T) -> Result<Vec<u8>, formats::Error>,
) {
    match read_both(job, || strict(data), || lenient(data)) {
        Some(file) => {
            job.tool("write", || {
                same_bytes(&write(&file).map_err(Outcome::refused)?, data)
            });
        }
        None => job.skip("write", "not read"),
    }
}

/// An ADT tile.
fn tile(found: &Found, data: &[u8], job: &mut Job<'_>, options: &Options) {
    let Some(adt) = read_both(
        job,
        || Adt::from_bytes(data),
        || Adt::from_bytes_lenient(data).map(|(a, _)| a),
    ) else {
        for tool in ["write", "export", "heightmap"] {
            job.skip(tool, "not read");
        }
        return;
    };
    job.tool("write", || {
        same_bytes(&adt.to_bytes().map_err(Outcome::refused)?, data)
    });
    if options.on("export") {
        let stem = stem(&found.path);
        job.tool("export", || {
            let export = formats::gltf::export_tile(&adt, &stem).map_err(Outcome::refused)?;
            export.document.to_glb().map_err(Outcome::refused)
        });
    }
    if options.on("heightmap") {
        job.tool("heightmap", || {
            let image = formats::render::heightmap(&adt).map_err(Outcome::refused)?;
            image.to_png().map_err(Outcome::refused)
        });
    }
}

/// A map's WDT: read and written back, then (`map`) the tiles it lists
/// found beside it (letter case ignored), read, their heightmaps' seams
/// shared and stitched into one overview, as `formats export MAP.wdt` and
/// `formats render MAP.wdt` do; a WDT of no tiles (a WMO-only map, or an
/// `_occ`/`_lgt` companion) has nothing to stitch.
fn map(found: &Found, data: &[u8], job: &mut Job<'_>, options: &Options) {
    let wdt = read_both(
        job,
        || Wdt::from_bytes(data),
        || Wdt::from_bytes_lenient(data).map(|(w, _)| w),
    );
    let Some(wdt) = wdt else {
        job.skip("write", "not read");
        return;
    };
    job.tool("write", || {
        same_bytes(&wdt.to_bytes().map_err(Outcome::refused)?, data)
    });
    if !options.on("map") {
        return;
    }
    if formats::terrain::map_tiles(&wdt).is_empty() {
        job.skip("map", "MAIN lists no tiles");
        return;
    }
    job.tool("map", || {
        let tiles = formats::terrain::locate_tiles(&found.path, &wdt).map_err(Outcome::refused)?;
        let mut maps = Vec::new();
        for tile in tiles {
            let Some(path) = tile.path else { continue };
            let bytes = std::fs::read(&path)
                .map_err(|e| Outcome::Refused(format!("{}: {e}", path.display())))?;
            let adt = Adt::from_bytes(&bytes)
                .or_else(|_| Adt::from_bytes_lenient(&bytes).map(|(a, _)| a))
                .map_err(|e| Outcome::Refused(format!("{}: {e}", tile.file_name)))?;
            let terrain = formats::terrain::TerrainTile::from_adt(&adt)
                .map_err(|e| Outcome::Refused(format!("{}: {e}", tile.file_name)))?;
            // Thumbnails, as the map export's overview keeps them.
            let heights = formats::terrain::Heightmap::from_tile(&terrain).thumbnail(4);
            maps.push((tile.coord, heights));
        }
        if maps.is_empty() {
            return Err(Outcome::Skipped("none of its tiles is beside it".into()));
        }
        formats::terrain::share_seams(&mut maps);
        let range = formats::terrain::common_range(maps.iter().map(|(_, m)| m))
            .ok_or_else(|| Outcome::Refused("no tile has heights".into()))?;
        let stitched: Vec<_> = maps.iter().map(|(c, m)| (*c, m)).collect();
        let overview = formats::terrain::Stitched::new(&stitched, 4)
            .ok_or_else(|| Outcome::Refused("nothing to stitch".into()))?;
        formats::render::stitched_image(&overview, range)
            .to_png()
            .map_err(Outcome::refused)
    });
}

/// The levels of a BLP to decode: level 0, and each level whose bytes no
/// earlier level has (as `formats check` decodes them).
fn blp_levels(blp: &Blp) -> Vec<usize> {
    let levels = &blp.levels;
    let mut chosen: Vec<usize> = (0..levels.len())
        .filter(|&i| !levels[..i].contains(&levels[i]))
        .collect();
    if chosen.first() != Some(&0) {
        chosen.insert(0, 0);
    }
    chosen
}

fn dds_levels(dds: &Dds) -> Vec<usize> {
    (0..dds.level_count() as usize).collect()
}

/// A texture that decodes levels to RGBA.
trait Texture {
    fn to_bytes(&self) -> Result<Vec<u8>, formats::Error>;
    fn decode(&self, level: usize) -> Result<formats::blp::RgbaImage, formats::Error>;
}

impl Texture for Blp {
    fn to_bytes(&self) -> Result<Vec<u8>, formats::Error> {
        Blp::to_bytes(self)
    }
    fn decode(&self, level: usize) -> Result<formats::blp::RgbaImage, formats::Error> {
        self.decode_level(level)
    }
}

impl Texture for Dds {
    fn to_bytes(&self) -> Result<Vec<u8>, formats::Error> {
        Dds::to_bytes(self)
    }
    fn decode(&self, level: usize) -> Result<formats::blp::RgbaImage, formats::Error> {
        let level = u32::try_from(level).map_err(|_| formats::Error::other("level"))?;
        self.decode_level(level)
    }
}

/// A reader of a file's bytes.
type Reader<T> = fn(&[u8]) -> Result<T, formats::Error>;

/// A BLP or DDS: read (and, where there is a lenient reader, leniently),
/// written back, every level decoded (refused when level 0, what the game
/// shows, does not decode; a warning when a smaller level does not, as
/// `formats check` has it), level 0 as PNG.
fn texture<T: Texture>(
    data: &[u8],
    job: &mut Job<'_>,
    options: &Options,
    read: impl FnOnce(&[u8]) -> Result<T, formats::Error>,
    lenient: Option<Reader<T>>,
    levels: impl Fn(&T) -> Vec<usize>,
) {
    let texture = match lenient {
        Some(lenient) => read_both(job, || read(data), || lenient(data)),
        None => job.tool("read", || read(data).map_err(Outcome::refused)),
    };
    let Some(texture) = texture else {
        for tool in ["write", "decode", "png"] {
            job.skip(tool, "not read");
        }
        return;
    };
    job.tool("write", || {
        same_bytes(&texture.to_bytes().map_err(Outcome::refused)?, data)
    });
    if options.on("decode") {
        job.tool("decode", || {
            let failed: Vec<(usize, formats::Error)> = levels(&texture)
                .into_iter()
                .filter_map(|level| texture.decode(level).err().map(|e| (level, e)))
                .collect();
            match failed.first() {
                None => Ok(()),
                Some((0, e)) => Err(Outcome::Refused(format!("level 0: {e}"))),
                Some((level, e)) => Err(Outcome::Warned(format!(
                    "level 0 decodes; {} of the smaller levels do not, the first {level}: {e}",
                    failed.len()
                ))),
            }
        });
    }
    if options.on("png") {
        job.tool("png", || {
            let image = texture.decode(0).map_err(Outcome::refused)?;
            image.to_png().map_err(Outcome::refused)
        });
    }
}

/// The error findings' rules of `model` (for what a conversion adds).
fn error_rules(model: &Model) -> BTreeSet<&'static str> {
    validate::all(model)
        .into_iter()
        .filter(|f| f.severity() == Severity::Error)
        .map(|f| f.rule.id())
        .collect()
}

/// How a tool's output must read back: as its source did (a model only
/// the lenient reader took keeps what it could not decode, which only the
/// lenient reader takes again).
#[derive(Clone, Copy)]
struct ReadBack {
    lenient: bool,
}

impl ReadBack {
    fn mdx(self, bytes: &[u8]) -> Result<Model, formats::Error> {
        match self.lenient {
            false => Model::from_bytes(bytes),
            true => Model::from_bytes_lenient(bytes).map(|(m, _)| m),
        }
    }

    fn mdl(self, text: &str) -> Result<Model, formats::Error> {
        match self.lenient {
            false => formats::mdl::from_str(text),
            true => formats::mdl::from_str_lenient(text).map(|(m, _)| m),
        }
    }
}

/// `model` written as MDX and read back, as a tool's check.
fn reads_back(model: &Model, how: ReadBack) -> Result<Vec<u8>, Outcome> {
    let bytes = model
        .to_bytes()
        .map_err(|e| Outcome::Wrong(format!("writing: {e}")))?;
    how.mdx(&bytes)
        .map_err(|e| Outcome::Wrong(format!("does not read back: {e}")))?;
    Ok(bytes)
}

/// The file's stem, for names inside exports.
fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned())
}

/// An MDX or MDL model.
fn model(
    found: &Found,
    data: &[u8],
    job: &mut Job<'_>,
    options: &Options,
    index: usize,
    result: &mut FileResult,
) {
    let mdl = found.kind == Kind::Mdl;
    let text = || {
        std::str::from_utf8(data)
            .map_err(|e| formats::Error::other(format!("MDL text is not UTF-8: {e}")))
    };
    let strict = |job: &Job<'_>| job.runs.first().is_some_and(|r| r.outcome == Outcome::Ok);
    let model = read_both(
        job,
        || match mdl {
            true => formats::mdl::from_str(text()?),
            false => Model::from_bytes(data),
        },
        || match mdl {
            true => formats::mdl::from_str_lenient(text()?).map(|(m, _)| m),
            false => Model::from_bytes_lenient(data).map(|(m, _)| m),
        },
    );
    let Some(model) = model else {
        let others = TOOLS[0].1.iter().skip(2);
        for tool in others.filter(|t| options.on(t)) {
            job.skip(tool, "not read");
        }
        return;
    };
    result.version = Some(model.version());
    let how = ReadBack {
        lenient: !strict(job),
    };
    // Its own format, then the other one.
    job.tool("write", || match mdl {
        false => same_bytes(&model.to_bytes().map_err(Outcome::refused)?, data),
        true => same_model(&formats::mdl::to_string(&model), &model, how),
    });
    if !mdl && options.on("mdl") {
        job.tool("mdl", || {
            same_model(&formats::mdl::to_string(&model), &model, how)
        });
    }
    if mdl && options.on("mdx") {
        job.tool("mdx", || {
            let bytes = model.to_bytes().map_err(Outcome::refused)?;
            let back = how
                .mdx(&bytes)
                .map_err(|e| Outcome::Wrong(format!("does not read back: {e}")))?;
            match back.to_bytes().map_err(Outcome::refused)? == bytes {
                true => Ok(()),
                false => Err(Outcome::Wrong("not the same model back".into())),
            }
        });
    }
    let mut errors = BTreeSet::new();
    if options.on("validate") {
        let findings = job.tool("validate", || Ok(validate::all(&model)));
        if let Some(findings) = findings {
            errors = findings
                .iter()
                .filter(|f| f.severity() == Severity::Error)
                .map(|f| f.rule.id())
                .collect();
            let mut counts: Vec<RuleCount> = Vec::new();
            for finding in &findings {
                let (rule, severity) = (finding.rule.id(), finding.severity().name());
                match counts
                    .iter_mut()
                    .find(|c| c.rule == rule && c.severity == severity)
                {
                    Some(count) => count.findings += 1,
                    None => counts.push(RuleCount {
                        rule: rule.into(),
                        severity: severity.into(),
                        findings: 1,
                    }),
                }
            }
            result.rules = counts;
        }
    }
    if options.on("export") {
        let folder = found.path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let textures = formats::gltf::TextureFolders::new(vec![folder]);
        let name = stem(&found.path);
        let glb = job.tool("export", || {
            let exported = formats::gltf::export(
                &model,
                &name,
                &formats::gltf::ExportOptions {
                    textures: &textures,
                    ..Default::default()
                },
            )
            .map_err(Outcome::refused)?;
            let glb = exported.document.to_glb().map_err(Outcome::refused)?;
            if let Some(folder) = &options.exports {
                let out = folder.join(format!("{index}.glb"));
                std::fs::write(&out, &glb)
                    .map_err(|e| Outcome::Refused(format!("{}: {e}", out.display())))?;
            }
            Ok(glb)
        });
        let triangles = model.geosets().iter().any(|g| g.triangle_count() > 0);
        match (glb, options.on("import"), model.version()) {
            (Some(glb), true, 800..=1200) if triangles => {
                job.tool("import", || import_round_trip(&model, &glb));
            }
            (_, true, version) => job.skip(
                "import",
                &format!("version {version}, no triangles, or no export: nothing to import"),
            ),
            _ => {}
        }
    }
    if options.on("convert") {
        let version = model.version();
        let target = match version {
            900..=1200 => Some(800),
            800 => Some(1000),
            _ => None,
        };
        match target {
            Some(target) => {
                job.tool("convert", || {
                    let mut converted = model.clone();
                    formats::convert::convert(
                        &mut converted,
                        target,
                        &formats::convert::Options::default(),
                    )
                    .map_err(Outcome::refused)?;
                    reads_back(&converted, how)?;
                    let added: Vec<&str> = error_rules(&converted)
                        .into_iter()
                        .filter(|r| !errors.contains(r))
                        .collect();
                    match added.is_empty() {
                        true => Ok(()),
                        false => Err(Outcome::Wrong(format!(
                            "validate errors the source did not have: {}",
                            added.join(", ")
                        ))),
                    }
                });
            }
            None => job.skip(
                "convert",
                &format!("version {version}: not a Warcraft III version"),
            ),
        }
    }
    if options.on("optimize") {
        job.tool("optimize", || {
            let mut optimized = model.clone();
            formats::optimize::optimize(&mut optimized, &formats::optimize::Options::default());
            reads_back(&optimized, how).map(drop)
        });
    }
    if options.on("fix-extents") {
        job.tool("fix-extents", || {
            let mut fixed = model.clone();
            fixed.recompute_extents();
            reads_back(&fixed, how).map(drop)
        });
    }
    if options.on("render") {
        job.tool("render", || {
            let timeline = formats::anim::Timeline::from_model(&model);
            let halfway = timeline
                .sequences
                .first()
                .map_or(0.0, |s| f64::from(s.duration()) / 2.0);
            let moment = timeline
                .at(0, halfway)
                .unwrap_or(formats::anim::Moment::BIND);
            let image = formats::render::posed_wireframe(&model, moment, 256);
            image.to_png().map_err(Outcome::refused)
        });
    }
}

/// The export `glb` of `model` imported at its version: it reads back, and
/// each vertex posed at rest and halfway into each sequence by
/// [`formats::anim`] is within 1e-3 of the model's size of the source's
/// (geosets paired by the export's mesh names, `NAME geoset N`; the size
/// of the source's vertices over every pose compared, at least 1e-3 units
/// for a model that is one point in every pose).
fn import_round_trip(model: &Model, glb: &[u8]) -> Result<(), Outcome> {
    use formats::anim::{Moment, Sampler, Skeleton, Timeline, meshes};
    let source =
        formats::gltf::Source::from_slice(glb, |_| Err(std::io::ErrorKind::NotFound.into()))
            .map_err(Outcome::refused)?;
    let options = formats::gltf::ImportOptions {
        version: model.version(),
        conversion: formats::convert::Options {
            split_large_geosets: false,
            error_step: 0,
            ..Default::default()
        },
        ..Default::default()
    };
    let back = formats::gltf::import(&source, &options)
        .map_err(Outcome::refused)?
        .model;
    // What the import makes has nothing only the lenient reader takes.
    reads_back(&back, ReadBack { lenient: false })?;
    let order: Vec<Option<usize>> = (source.document.nodes())
        .filter_map(|n| n.mesh())
        .map(|m| m.name()?.rsplit_once(" geoset ")?.1.parse().ok())
        .collect();
    let posed = |m: &Model, k: Option<usize>| -> Vec<Vec<[f32; 3]>> {
        let skeleton = Skeleton::from_model(m);
        let timeline = Timeline::from_model(m);
        let moment = k
            .and_then(|k| {
                let s = timeline.sequences.get(k)?;
                timeline.at(k, (f64::from(s.duration()) / 2.0).floor())
            })
            .unwrap_or(Moment::BIND);
        let pose = skeleton.pose(&Sampler::new(&timeline, moment));
        (meshes(m, &skeleton).iter())
            .map(|mesh| mesh.posed_positions(&pose))
            .collect()
    };
    // The size: of the source's vertices in every pose compared (a model
    // may rest collapsed to a point and grow in its sequences).
    let sequences = model.sequences().len();
    let poses: Vec<Vec<Vec<[f32; 3]>>> = core::iter::once(None)
        .chain((0..sequences).map(Some))
        .map(|k| posed(model, k))
        .collect();
    let mut low = [f32::INFINITY; 3];
    let mut high = [f32::NEG_INFINITY; 3];
    for p in poses.iter().flatten().flatten() {
        for ((l, h), c) in low.iter_mut().zip(high.iter_mut()).zip(p) {
            *l = l.min(*c);
            *h = h.max(*c);
        }
    }
    let size = (low.iter().zip(&high))
        .map(|(l, h)| (h - l).powi(2))
        .sum::<f32>()
        .sqrt();
    let size = size.max(1.0);
    for (k, a) in core::iter::once(None)
        .chain((0..sequences).map(Some))
        .zip(poses)
    {
        let b = posed(&back, k);
        if b.len() != order.len() {
            return Err(Outcome::Wrong(format!(
                "{} geosets imported, {} meshes exported",
                b.len(),
                order.len()
            )));
        }
        for (g, got) in order.iter().zip(&b) {
            let want = g.and_then(|g| a.get(g)).map_or(&[][..], Vec::as_slice);
            if want.len() != got.len() {
                return Err(Outcome::Wrong(format!(
                    "geoset {g:?}: {} vertices imported, {} in the source",
                    got.len(),
                    want.len()
                )));
            }
            for (v, (p, q)) in want.iter().zip(got).enumerate() {
                let d = (p.iter().zip(q))
                    .map(|(x, y)| (x - y).powi(2))
                    .sum::<f32>()
                    .sqrt();
                // NaN positions (a damaged source) compare as equal when both are.
                if d > 1e-3 * size
                    && !(p.iter().any(|c| c.is_nan()) && q.iter().any(|c| c.is_nan()))
                {
                    return Err(Outcome::Wrong(format!(
                        "geoset {g:?} vertex {v} {} from the source's ({:.1e} of the size) {}",
                        d,
                        d / size,
                        k.map_or("at rest".to_string(), |k| format!(
                            "halfway into sequence {k}"
                        ))
                    )));
                }
            }
        }
    }
    Ok(())
}

/// MDL `text` reads back to `model` (compared by their MDX bytes).
fn same_model(text: &str, model: &Model, how: ReadBack) -> Result<(), Outcome> {
    let back = how
        .mdl(text)
        .map_err(|e| Outcome::Wrong(format!("the MDL written does not read back: {e}")))?;
    let mdx = |m: &Model| m.to_bytes().map_err(Outcome::refused);
    match mdx(&back)? == mdx(model)? {
        true => Ok(()),
        false => Err(Outcome::Wrong("not the same model back through MDL".into())),
    }
}
