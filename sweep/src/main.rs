//! `sweep`: every tool users run, on every file under the folders given,
//! on all cores, with a table of outcomes per tool (ok, refused, wrong,
//! panic, over a time or memory budget), the failures grouped by cause, the
//! slowest files, how often each validation rule fires, and the
//! throughput. `--json` keeps every file's results; `--compare` says what
//! changed since such a file.
//!
//! ```sh
//! cargo run --release -p sweep -- ../sets/runi95+wc3-slk-edit-electron-resources --json runi95.json
//! ```
//!
//! The tools and their checks are listed in `tools.rs`; `docs/sweeps.md`
//! says where the public sets come from and holds their results.

mod alloc;
mod discover;
mod gltf_check;
mod record;
mod report;
mod runner;
mod tools;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

use record::{Budget, Outcome, Sweep};

#[global_allocator]
static ALLOCATOR: alloc::Counting = alloc::Counting;

/// Runs every tool on every model, texture, tile and map under the paths.
#[derive(Parser)]
#[command(about)]
struct Args {
    /// Folders (walked, symbolic links followed) and files.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Every file's results as JSON, for `--compare` and other tools.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// An earlier `--json`: print what changed since.
    #[arg(long, value_name = "FILE")]
    compare: Option<PathBuf>,
    /// Tools not to run (comma-separated: export,convert,...).
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
    /// Check every model export with the Khronos glTF Validator (needs node).
    #[arg(long)]
    gltf_validator: bool,
    /// Keep the exports checked by --gltf-validator in this folder
    /// (`N.glb`, N the file's place in --json's list).
    #[arg(long, value_name = "DIR")]
    keep_exports: Option<PathBuf>,
    /// Seconds one tool may take on one file.
    #[arg(long, default_value_t = 30.0)]
    seconds: f64,
    /// Megabytes one tool may hold at once on one file.
    #[arg(long, default_value_t = 2000)]
    megabytes: u64,
    /// Worker threads (default: one per core).
    #[arg(long)]
    workers: Option<usize>,
    /// Exit with 1 if any tool panicked or went over budget.
    #[arg(long)]
    strict: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sweep: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Args) -> Result<ExitCode, String> {
    let known: BTreeSet<&str> = tools::TOOLS
        .iter()
        .flat_map(|(_, t)| t.iter().copied())
        .collect();
    if let Some(unknown) = args.skip.iter().find(|t| !known.contains(t.as_str())) {
        return Err(format!("--skip {unknown}: no such tool (tools: {known:?})"));
    }
    for path in &args.paths {
        if !path.exists() {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    let before = match &args.compare {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            Some(
                serde_json::from_str::<Sweep>(&text)
                    .map_err(|e| format!("{}: {e}", path.display()))?,
            )
        }
        None => None,
    };
    let script = match args.gltf_validator {
        true => Some(gltf_check::prepare()?),
        false => None,
    };
    let exports = match (&script, &args.keep_exports) {
        (None, _) => None,
        (Some(_), Some(dir)) => Some(dir.clone()),
        (Some(_), None) => {
            Some(std::env::temp_dir().join(format!("sweep-exports-{}", std::process::id())))
        }
    };
    if let Some(dir) = &exports {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let walked = discover::walk(&args.paths);
    if walked.files.is_empty() {
        return Err(format!(
            "no models, textures, tiles or maps under {}",
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let budget = Budget {
        seconds: args.seconds,
        bytes: args.megabytes.saturating_mul(1_000_000),
    };
    let options = tools::Options {
        off: args.skip.iter().cloned().collect(),
        exports: exports.clone(),
    };
    eprintln!("sweeping {} files on {workers} workers", walked.files.len());
    runner::quiet_panics();
    let started = Instant::now();
    // A file's place in the walk names its kept export.
    let places: std::collections::HashMap<PathBuf, usize> = walked
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.clone(), i))
        .collect();
    let mut files = runner::run_all(&walked.files, workers, budget, |found, job| {
        tools::sweep(found, job, &options, places[&found.path])
    });
    let seconds = started.elapsed().as_secs_f64();
    let _ = std::panic::take_hook();
    let mut sweep = Sweep {
        roots: args.paths.iter().map(|p| p.display().to_string()).collect(),
        workers,
        seconds,
        budget,
        skipped: walked.skipped,
        files: Vec::new(),
        tools_off: args.skip.clone(),
        extra: Default::default(),
    };
    if let (Some(script), Some(dir)) = (&script, &exports) {
        eprintln!("validating the exports with the Khronos glTF Validator");
        let started = Instant::now();
        let totals = gltf_check::check(script, dir, &mut files);
        sweep.extra.insert(
            "glTF validator".into(),
            format!("{totals} ({:.0} s)", started.elapsed().as_secs_f64()),
        );
        if args.keep_exports.is_none() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    sweep.files = files;
    print!("{}", report::summary(&sweep));
    if let Some(before) = &before {
        print!("\n{}", report::compare(before, &sweep));
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&sweep).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let bad = sweep
        .files
        .iter()
        .flat_map(|f| &f.runs)
        .any(|r| matches!(r.outcome, Outcome::Panic(_)) || budget.exceeded(r));
    Ok(if args.strict && bad {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
