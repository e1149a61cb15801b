//! The `formats` command-line tool.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use formats::chunks::ChunkFile;

/// Read, inspect and check Blizzard's chunked game files (MDX, ADT, WDT).
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List a file's chunks with their offsets and sizes, and check that it
    /// writes back byte for byte.
    ///
    /// Example: `formats info ../shared/corpus/mdx/zf_bone.mdx`. With no FILE, a
    /// small model generated in code is shown.
    Info {
        /// The file to inspect (.mdx, .adt, .wdt); omit for the built-in sample.
        file: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Info { file } => {
            let (name, data) = match file {
                Some(path) => {
                    let data =
                        std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                    (path.display().to_string(), data)
                }
                None => ("built-in sample".to_string(), formats::sample::sample_mdx()),
            };
            let parsed = ChunkFile::from_bytes(&data).map_err(|e| format!("{name}: {e}"))?;
            print!("{}", info_text(&name, &data, &parsed));
            Ok(())
        }
    }
}

fn info_text(name: &str, data: &[u8], file: &ChunkFile) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let exact = file.to_bytes().is_ok_and(|bytes| bytes == data);
    let _ = writeln!(
        out,
        "{name}: {:?}, {} bytes, {} chunks",
        file.family(),
        data.len(),
        file.chunks().len()
    );
    let _ = writeln!(out, "{:>10}  {:<4}  {:>10}", "offset", "tag", "size");
    for e in file.entries() {
        let _ = writeln!(
            out,
            "{:>#10x}  {:<4}  {:>10}",
            e.offset,
            e.tag.to_string(),
            e.size
        );
    }
    let _ = writeln!(
        out,
        "round trip: {}",
        if exact { "byte-exact" } else { "DIFFERS" }
    );
    out
}
