//! The `formats` command-line tool: clap definitions and dispatch; each
//! subcommand is a module in `formats/`.

mod archive;
mod batch;
mod blp;
mod check;
mod convert;
mod dump;
mod export;
mod fix;
mod import;
mod info;
mod input;
mod kind;
mod optimize;
mod progress;
mod render;
mod rewrite;
mod terrain;
mod validate;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use formats::terrain::HeightRange;

/// Read, inspect, check and convert Blizzard's game files (MDX, MDL, ADT, WDT, BLP, DDS).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Version, chunks (offsets, sizes, object counts), geometry and animations
    /// of a model; textures, doodads, objects, liquids, holes and alpha maps of
    /// a tile; version, encoding, alpha, size and mip table of a texture; and
    /// whether it writes back byte for byte.
    #[command(
        after_help = "Examples:\n  formats info\n  formats info ../shared/corpus/mdx/zf_bone.mdx\n  \
                            formats info ../shared/corpus/blp/dbz_GutsArm.blp"
    )]
    Info {
        /// The file (.mdx, .mdl, .adt, .wdt, .blp, .dds); omit for a small model generated in code.
        file: Option<PathBuf>,
    },
    /// The entries of an MPQ archive (a Warcraft III map .w3m/.w3x, a
    /// campaign .w3n, a game's .mpq): name, size, stored size, how it is
    /// stored. Entries the archive's listfile does not name are
    /// File00000012.xxx (their block).
    #[command(
        after_help = "Example:\n  formats list \"../shared/corpus/archives/wc3lib_(4)WarChasers.w3m\""
    )]
    List {
        /// The archive.
        archive: PathBuf,
    },
    /// Writes the entries of an MPQ archive (those PATTERN matches) as files
    /// under OUT, their folders made; what cannot be read is named.
    #[command(after_help = "Examples:\n  formats extract map.w3x map/\n  \
                            formats extract map.w3x models/ '*.mdx'")]
    Extract {
        /// The archive.
        archive: PathBuf,
        /// The folder to write into.
        out: PathBuf,
        /// Only the entries whose names match: `*` any run of characters,
        /// `?` one; any case, `/` or `\`.
        pattern: Option<String>,
    },
    /// The whole parsed file, as a readable tree or as JSON.
    #[command(
        after_help = "Example:\n  formats dump --json ../shared/corpus/mdx/zf_bone.mdx > bone.json"
    )]
    Dump {
        /// The file (.mdx, .mdl, .adt, .wdt, .blp, .dds).
        file: PathBuf,
        /// JSON (serde) instead of the tree; NaN floats become `null`.
        #[arg(long)]
        json: bool,
    },
    /// Converts models by the extensions of IN and OUT (MDX, MDL), and to
    /// another MDX version (800, 900, 1000, 1100, 1200) so that they still
    /// draw and animate: skin weights become matrix groups and back, HD
    /// materials classic layers and back, tangents are generated. Prints what
    /// was approximated, dropped and added, and the largest position error
    /// the classic skinning causes. glTF 2.0 documents (.glb, .gltf) are
    /// imported as models (version 800 by default), their base colour
    /// images written as BLP textures beside them, with a report of what
    /// was made, approximated and dropped. Several inputs (files, folders)
    /// go into the folder OUT in parallel, with a summary table. Or a
    /// texture: a BLP or DDS level to PNG, a PNG (or a BLP's or DDS's level
    /// 0) to BLP in the encoding given.
    #[command(
        after_help = "Examples:\n  formats convert in.mdx out.mdx --version 800\n  \
                            formats convert units/ classic/ --version 800 --json\n  \
                            formats convert in.mdx out.mdl\n  \
                            formats convert CesiumMan.glb CesiumMan.mdx --scale 50 --sequence-names names.txt\n  \
                            formats convert gltf/ models/ --version 1000 --texture-folder 'Textures\\'\n  \
                            formats convert x.blp x.png --level 1\n  \
                            formats convert x.png x.blp --encoding dxt5\n  \
                            formats convert Hero_Diffuse.dds Hero.blp --encoding blp1-jpeg"
    )]
    Convert {
        /// The models (.mdx, .mdl, and glTF .glb, .gltf to import; folders
        /// are walked) or the texture, then where to write: a file for one
        /// input (its extension says the format), a folder for several.
        #[arg(required = true, value_name = "IN... OUT")]
        paths: Vec<PathBuf>,
        /// The MDX version to write (glTF inputs: 800 unless given).
        #[arg(long)]
        version: Option<u32>,
        /// Refuse (write nothing for that model) when the version change
        /// would approximate or drop anything.
        #[arg(long, requires = "version")]
        exact: bool,
        /// To 800: keep the Reforged geosets of a level of detail above 0
        /// (the classic client draws every geoset).
        #[arg(long, requires = "version")]
        keep_lods: bool,
        /// To Reforged: which materials become HD (a diffuse layer and
        /// placeholder textures for the other slots).
        #[arg(
            long,
            value_enum,
            value_name = "WHICH",
            default_value = "single-layer",
            requires = "version"
        )]
        hd_materials: convert::HdChoice,
        /// Milliseconds between the frames the skinning error is measured at
        /// (1: every frame; 0: not measured; raised when the sequences last
        /// over 250,000 frames in all).
        #[arg(long, value_name = "MS", default_value_t = 1, requires = "version")]
        error_step: u32,
        /// Into a folder: write .mdx or .mdl (each input's own by default).
        #[arg(long, value_enum, value_name = "FORMAT")]
        to: Option<convert::ModelFormat>,
        /// MDL out: plain MDL, which other tools read (mdx-m3-viewer,
        /// Retera's Model Studio), without the `Ext*` keys and `#"hex"`
        /// values that keep MDX -> MDL -> MDX byte-exact; what is left out
        /// is listed.
        #[arg(long)]
        plain: bool,
        /// One JSON document on stdout (per model: versions, bytes, what was
        /// approximated, dropped and added, the skinning error).
        #[arg(long)]
        json: bool,
        /// BLP or DDS to PNG: the mip level to write (0, the full size, by default).
        #[arg(long, value_name = "N")]
        level: Option<usize>,
        /// To BLP: blp1-jpeg, blp1-palette, dxt1, dxt5 or bgra (mip levels are generated).
        #[arg(long, value_name = "ENCODING")]
        encoding: Option<formats::blp::Target>,
        /// glTF: model units per glTF unit (metre); 1 keeps the sizes, about
        /// 50 makes a model made in metres as tall as the game's units.
        #[arg(
            long,
            value_name = "S",
            value_parser = import::parse_scale,
            allow_negative_numbers = true
        )]
        scale: Option<f64>,
        /// glTF: the images as files beside the model: blp (the default)
        /// writes a classic layer's as BLP and an HD material's (1100 and
        /// later) as DDS; dds writes every one as DDS; keep names each as it
        /// is (its file is not converted; an image inside the document is
        /// still written, as with blp).
        #[arg(long, value_enum, value_name = "MODE")]
        textures: Option<import::TextureChoice>,
        /// glTF: a folder prefix for the texture paths the model names,
        /// with its separator (`Textures\`); the files go there under the
        /// model's folder.
        #[arg(long, value_name = "PREFIX")]
        texture_folder: Option<String>,
        /// glTF: a text file renaming sequences, a line `Animation Name =
        /// Sequence Name` each (`#` starts a comment line).
        #[arg(long, value_name = "FILE")]
        sequence_names: Option<PathBuf>,
        /// glTF: packs each looping animation whose name the game does not
        /// play (`Spin`, not `Stand`), at most SECONDS long, as a global
        /// sequence, which plays in every sequence (a gem spinning).
        #[arg(long, value_name = "SECONDS", value_parser = import::parse_seconds)]
        global_sequences: Option<f64>,
    },
    /// Exports models and terrain to glTF 2.0: one file to OUT.glb (one
    /// file) or OUT.gltf (with its .bin and images beside it), or several
    /// (or a map's WDT: its tiles beside it) into the folder OUT, in
    /// parallel. Models: skeleton, skin, one animation per sequence,
    /// materials, the textures found beside the model or in --textures,
    /// cameras and lights.
    /// Tiles: the terrain mesh (holes cut, normals, splat and tiling UVs,
    /// vertex colours), liquids, and a node per doodad and map object at its
    /// world transform.
    #[command(
        after_help = "Examples:\n  formats export model.mdx model.glb --textures textures\n  \
                            formats export model.mdl model.gltf --sequence Walk\n  \
                            formats export units/ out/ --no-animations\n  \
                            formats export Map_30_27.adt tile.glb\n  \
                            formats export Map.wdt tiles/"
    )]
    Export {
        /// The models (.mdx, .mdl), tiles (.adt) or maps (.wdt), and folders
        /// of them (walked; a map found there exports with its tiles), then
        /// where to write: a .glb or .gltf file for one model or tile, a
        /// folder for several or a map.
        #[arg(required = true, value_name = "IN... OUT")]
        paths: Vec<PathBuf>,
        /// Models: a folder to look for textures in, by the path the model
        /// names (repeatable; the model's own folder is looked in first).
        #[arg(long, value_name = "DIR")]
        textures: Vec<PathBuf>,
        /// Models: only the sequence of this name.
        #[arg(long, value_name = "NAME", conflicts_with = "no_animations")]
        sequence: Option<String>,
        /// Models: no animations.
        #[arg(long)]
        no_animations: bool,
        /// Models: the Reforged level of detail to export, 0 (the full model) and up (geosets of level -1 go in every level).
        #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(i32).range(0..))]
        lod: i32,
        /// Models: show and hide each geoset as its geoset animation does
        /// (alpha above 0: shown), with the glTF extensions
        /// KHR_node_visibility and KHR_animation_pointer (Babylon.js plays
        /// them; Blender skips them; the gltf crate, and so
        /// Bevy, refuses the file).
        #[arg(long)]
        geoset_visibility: bool,
        /// Models: each geoset's colour and alpha (its geoset animation's,
        /// times its layer's alpha) on a material of its own, animated with
        /// KHR_animation_pointer (fades and tints; the same readers as
        /// --geoset-visibility play, skip or refuse it).
        #[arg(long)]
        material_colors: bool,
        /// Models: texture animations (scrolling, turning, scaling textures)
        /// as KHR_texture_transform on their materials' textures, animated
        /// with KHR_animation_pointer (the same readers as
        /// --geoset-visibility play, skip or refuse it).
        #[arg(long)]
        texture_animations: bool,
        /// Models: lights' colour, intensity and visibility tracks (flames
        /// that flicker, lights that go out) on their KHR_lights_punctual
        /// lights, animated with KHR_animation_pointer (the same readers as
        /// --geoset-visibility play, skip or refuse it).
        #[arg(long)]
        light_animations: bool,
        /// Models: all four above (--geoset-visibility, --material-colors,
        /// --texture-animations, --light-animations), everything that
        /// animates through KHR_animation_pointer.
        #[arg(long)]
        pointer_animations: bool,
        /// Models: hermite and bezier translations and scalings as linear
        /// keys, 30 a second, rather than glTF cubic splines: for Blender,
        /// whose glTF importer drops spline tangents and so moves parts
        /// differently between keys.
        #[arg(long)]
        resample_splines: bool,
        /// Into a folder: .gltf files (with .bin and images) instead of .glb.
        #[arg(long)]
        gltf: bool,
        /// Maps: the longest side of the stitched heightmap overview written
        /// beside the tiles, in pixels (tiles are sampled every 1, 2, 4 …
        /// samples to fit).
        #[arg(long, value_name = "PIXELS", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(2..=16384))]
        overview_size: u32,
    },
    /// Reads and writes back every supported file under the paths and reports,
    /// per file, a strict or lenient parse, byte-exactness (and for textures,
    /// that every level decodes), or the error; exits with 1 if any file failed.
    #[command(
        after_help = "Examples:\n  formats check ../shared/corpus\n  formats check --json a.mdx b.adt"
    )]
    Check {
        /// Files and folders (folders are walked; files without a known extension are ignored).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON document on stdout instead of the table.
        #[arg(long)]
        json: bool,
        /// A file only the lenient reader takes (a writer's quirk kept, or
        /// damage such as a file cut short) counts as a failure.
        #[arg(long)]
        strict: bool,
    },
    /// Semantic checks beyond parsing on every model and tile under the paths,
    /// in parallel: the structure (indices in range, pivots and object ids,
    /// sequences and keys in order, unit normals) and the map makers' rules
    /// (standard sequences and names, texture paths, unused textures and
    /// materials, vertex limits, skinning, ...) of models; MCRF references and
    /// name offsets of tiles. Each finding with its rule id and severity, then
    /// a table per rule; exits with 1 if any finding is an error.
    #[command(
        after_help = "Examples:\n  formats validate ../shared/corpus/mdx/zf_bone.mdx\n  \
                            formats validate --json maps/ models/Footman.mdx"
    )]
    Validate {
        /// Files and folders (folders are walked for .mdx, .mdl and .adt files).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// One JSON document on stdout instead of the lines and the table.
        #[arg(long)]
        json: bool,
    },
    /// Recomputes what models store about their geometry: --extents measures
    /// every extent (MODL, each sequence's, each geoset's and its list per
    /// sequence) from the vertices posed over each sequence. Several models
    /// in parallel; a line per model says what changed.
    #[command(
        after_help = "Examples:\n  formats fix --extents model.mdx fixed.mdx\n  \
                            formats fix --extents --in-place models/\n  \
                            formats fix --extents --dry-run --json a.mdx b.mdl"
    )]
    Fix {
        /// The models (files and folders), then, without --in-place or
        /// --dry-run, where to write: a .mdx or .mdl file for one model, a
        /// folder for several.
        #[arg(required = true, value_name = "IN... [OUT]")]
        paths: Vec<PathBuf>,
        /// Recompute the extents.
        #[arg(long, required = true)]
        extents: bool,
        /// Write each model back over itself.
        #[arg(long, conflicts_with = "dry_run")]
        in_place: bool,
        /// Write nothing; say what would change.
        #[arg(long)]
        dry_run: bool,
        /// One JSON document on stdout (every change, before and after).
        #[arg(long)]
        json: bool,
    },
    /// Makes models' animations smaller: drops the keys interpolation
    /// reproduces within the tolerance, the tracks that only hold their
    /// rest value, and unused global sequences; every track stays within the
    /// tolerance at every frame. Several models in parallel; a table of the
    /// sizes before and after.
    #[command(after_help = "Examples:\n  formats optimize model.mdx smaller.mdx\n  \
                            formats optimize models/ out/ --tolerance 0.01 --json")]
    Optimize {
        /// The models (files and folders), then where to write: a .mdx or
        /// .mdl file for one model, a folder for several.
        #[arg(required = true, value_name = "IN... OUT")]
        paths: Vec<PathBuf>,
        /// How far any sampled value may move: model units, colour and
        /// alpha fractions, radians for rotations.
        #[arg(
            long,
            value_name = "T",
            default_value_t = formats::optimize::DEFAULT_TOLERANCE,
            allow_negative_numbers = true
        )]
        tolerance: f32,
        /// One JSON document on stdout instead of the table.
        #[arg(long)]
        json: bool,
    },
    /// Draws a tile's heightmap, alpha or splat maps, a whole map's
    /// heightmaps (one height range, neighbours' seams the same to the bit, a
    /// stitched overview), or a model's wireframe.
    #[command(
        after_help = "Examples:\n  formats render tile.adt --heightmap height.png --alpha alpha.png\n  \
                            formats render tile.adt --heightmap height.tif --splat splat/\n  \
                            formats render MAP.wdt --heightmap heights/ --splat splat/\n  \
                            formats render a.adt b.adt --heightmap heights/ --range -200:400\n  \
                            formats render maps/azeroth/ --heightmap heights/\n  \
                            formats render model.mdx --wireframe model.png\n  \
                            formats render model.mdx --wireframe walk.png --pose Walk@500\n  \
                            formats render --wireframe sample.png"
    )]
    Render {
        /// The files: a tile (.adt) or model (.mdx); several tiles; or a map's
        /// WDT, whose tiles are found beside it; a folder stands for the
        /// tiles and the map in it. None: the built-in sample model.
        files: Vec<PathBuf>,
        /// ADT: the heightmap, 257x257 per tile (every MCVT vertex). One tile:
        /// OUT.png (16-bit gray, its height range in the tEXt chunks
        /// height_min and height_max) or OUT.tif/.tiff (32-bit float), its
        /// edges its own. A WDT or several tiles: a folder, with both per tile
        /// (an edge two tiles share holds the southern or eastern tile's
        /// heights in both), a stitched overview and heightmap.json.
        #[arg(long, value_name = "OUT")]
        heightmap: Option<PathBuf>,
        /// The heights (yards) drawn as 0 and 65535 in 16-bit heightmaps;
        /// default: the lowest and highest point of all tiles given.
        #[arg(long, value_name = "MIN:MAX", value_parser = HeightRange::parse, allow_hyphen_values = true)]
        range: Option<HeightRange>,
        /// ADT: splat maps into this folder: every texture layer's alpha map as
        /// 8-bit gray (1024x1024 per tile) and a JSON manifest per tile.
        #[arg(long, value_name = "DIR")]
        splat: Option<PathBuf>,
        /// ADT: the alpha maps, 1024x1024 RGB (red, green, blue: layers 1, 2, 3).
        #[arg(long, value_name = "OUT.png")]
        alpha: Option<PathBuf>,
        /// ADT: the map's WDT, for the alpha maps' bit depth (guessed from the tile otherwise).
        #[arg(long, value_name = "WDT")]
        wdt: Option<PathBuf>,
        /// The longest side of a map's stitched overview in pixels: tiles are
        /// sampled every 1, 2, 4 … samples to fit (default: full resolution up
        /// to 4096); refused below one pixel more than the tiles across.
        #[arg(long, value_name = "PIXELS", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(2..=16384))]
        overview_size: u32,
        /// MDX: the geosets' edges seen from the front (Reforged: level of detail 0 and the geosets of every level), SIZExSIZE gray.
        #[arg(long, value_name = "OUT.png")]
        wireframe: Option<PathBuf>,
        /// MDX: draw the wireframe posed at MS milliseconds into the sequence
        /// SEQUENCE (its name; looping sequences wrap), skinned.
        #[arg(long, value_name = "SEQUENCE@MS", requires = "wireframe")]
        pose: Option<String>,
        /// The wireframe's width and height in pixels.
        #[arg(long, default_value_t = 512, value_parser = clap::value_parser!(u16).range(16..=8192))]
        size: u16,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    check_in_and_out(&cli);
    match run(cli) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `convert`, `export` and `optimize` take `IN... OUT`: at least two paths,
/// refused here as clap refuses any usage error. Not `num_args = 2..` on the
/// argument: clap counts that per run of values, so an option between the
/// inputs and the output (`export a.mdx --sequence Walk a.glb`) would fail.
fn check_in_and_out(cli: &Cli) {
    let (name, paths) = match &cli.command {
        Command::Convert { paths, .. } => ("convert", paths),
        Command::Export { paths, .. } => ("export", paths),
        Command::Optimize { paths, .. } => ("optimize", paths),
        _ => return,
    };
    if paths.len() < 2 {
        let mut command = Cli::command();
        command.build();
        if let Some(sub) = command.find_subcommand_mut(name) {
            sub.error(
                clap::error::ErrorKind::TooFewValues,
                format!("{name} takes the inputs, then where to write (IN... OUT); only one path was given"),
            )
            .exit();
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        Command::Info { file } => info::run(file.as_deref()),
        Command::Dump { file, json } => dump::run(&file, json),
        Command::List { archive } => archive::list(&archive).map(|()| ExitCode::SUCCESS),
        Command::Extract {
            archive,
            out,
            pattern,
        } => archive::extract(&archive, &out, pattern.as_deref()),
        Command::Convert {
            paths,
            version,
            exact,
            keep_lods,
            hd_materials,
            error_step,
            to,
            plain,
            json,
            level,
            encoding,
            scale,
            textures,
            texture_folder,
            sequence_names,
            global_sequences,
        } => {
            let given = scale.is_some()
                || textures.is_some()
                || texture_folder.is_some()
                || sequence_names.is_some()
                || global_sequences.is_some();
            let import = import::Options {
                scale: scale.unwrap_or(formats::gltf::ImportOptions::default().scale),
                textures: textures.map_or_else(Default::default, import::TextureChoice::mode),
                texture_folder: texture_folder.unwrap_or_default(),
                sequence_names: sequence_names
                    .as_deref()
                    .map(import::SequenceNames::read)
                    .transpose()?,
                global_sequences,
                given,
            };
            let options = convert::Options {
                version,
                exact,
                to: to.map(convert::ModelFormat::kind),
                plain,
                json,
                convert: formats::convert::Options {
                    keep_lods,
                    hd_materials: hd_materials.into(),
                    error_step,
                    ..formats::convert::Options::default()
                },
                import,
            };
            convert::command(&paths, &options, level, encoding)
        }
        Command::Export {
            mut paths,
            textures,
            sequence,
            no_animations,
            lod,
            geoset_visibility,
            material_colors,
            texture_animations,
            light_animations,
            pointer_animations,
            resample_splines,
            gltf,
            overview_size,
        } => {
            let output = paths.pop().unwrap_or_default();
            export::run(
                &paths,
                &output,
                &export::Options {
                    textures,
                    sequence,
                    no_animations,
                    lod,
                    geoset_visibility: geoset_visibility || pointer_animations,
                    material_colors: material_colors || pointer_animations,
                    texture_animations: texture_animations || pointer_animations,
                    light_animations: light_animations || pointer_animations,
                    resample_splines,
                    gltf,
                    overview_size: overview_size as usize,
                },
            )
        }
        Command::Check {
            paths,
            json,
            strict,
        } => check::run(&paths, json, strict),
        Command::Validate { paths, json } => validate::run(&paths, json),
        Command::Fix {
            paths,
            extents: _,
            in_place,
            dry_run,
            json,
        } => fix::run(paths, in_place, dry_run, json),
        Command::Optimize {
            mut paths,
            tolerance,
            json,
        } => {
            let output = paths.pop().unwrap_or_default();
            optimize::run(&paths, &output, tolerance, json)
        }
        Command::Render {
            files,
            heightmap,
            range,
            splat,
            alpha,
            wdt,
            wireframe,
            pose,
            size,
            overview_size,
        } => render::run(
            &files,
            &render::Outputs {
                heightmap,
                range,
                splat,
                alpha,
                wdt,
                wireframe,
                pose,
                size: usize::from(size),
                overview_size: overview_size as usize,
            },
        ),
    }
}

/// Writes `text` to stdout; a closed pipe (`formats dump … | head`) ends the
/// output quietly instead of panicking as `print!` would.
fn print_out(text: &str) -> Result<(), String> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("stdout: {e}")),
        _ => Ok(()),
    }
}

/// `3 files`, `1 file`: a count and its noun, for messages.
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Writes `bytes` to `path`, making its folder first (`formats export x.mdx
/// out/x.glb` makes `out`, as it is made for several inputs); the path is in
/// the error.
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("{}: {e}", path.display());
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| {
            // A file where a folder on the way should be: say which.
            match folder.ancestors().find(|a| a.is_file()) {
                Some(file) => format!(
                    "{}: {} is a file, not a folder",
                    path.display(),
                    file.display()
                ),
                None => fail(e),
            }
        })?;
    }
    std::fs::write(path, bytes).map_err(fail)
}

/// The last component of `path`, for messages and indexes.
fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The file name of `path` without its extension (`fallback` if it has none).
fn file_stem(path: &std::path::Path, fallback: &str) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| fallback.into())
}
