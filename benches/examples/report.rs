//! Turns criterion's results (`target/criterion`) into the tables of
//! BENCHMARKS.md: per group and input, the copy's time and MB/s, then every
//! other benchmark as a ratio to the copy measured in the same run (and, in a
//! group with a peer, the peer's time as a multiple of ours).
//!
//! ```sh
//! cargo bench -p benches -- --quick
//! cargo run -p benches --example report
//! cargo run -p benches --example report -- mdx_vs_wc3   # only these groups
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One measured benchmark.
struct Measured {
    function: String,
    /// Median time of one iteration, in nanoseconds.
    nanos: f64,
    bytes: Option<u64>,
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "new") {
                out.push(path);
            } else {
                collect(&path, out);
            }
        }
    }
}

fn read(dir: &Path) -> Option<(String, String, Measured)> {
    let benchmark: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("benchmark.json")).ok()?).ok()?;
    let estimates: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("estimates.json")).ok()?).ok()?;
    let group = benchmark["group_id"].as_str()?.to_owned();
    let input = benchmark["value_str"].as_str().unwrap_or("").to_owned();
    Some((
        group,
        input,
        Measured {
            function: benchmark["function_id"].as_str()?.to_owned(),
            nanos: estimates["median"]["point_estimate"].as_f64()?,
            bytes: benchmark["throughput"]["Bytes"].as_u64(),
        },
    ))
}

/// The name our rows carry in a group with a peer (`parse (formats)`).
const OURS: &str = "formats";

fn time(nanos: f64) -> String {
    match nanos {
        n if n >= 1e6 => format!("{:.2} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.1} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/criterion");
    let mut dirs = Vec::new();
    collect(&root, &mut dirs);
    let mut groups: BTreeMap<String, BTreeMap<String, Vec<Measured>>> = BTreeMap::new();
    for dir in dirs {
        if let Some((group, input, measured)) = read(&dir) {
            groups
                .entry(group)
                .or_default()
                .entry(input)
                .or_default()
                .push(measured);
        }
    }
    if groups.is_empty() {
        eprintln!(
            "no results in {}: run `cargo bench -p benches` first",
            root.display()
        );
        std::process::exit(1);
    }
    let only: Vec<String> = std::env::args().skip(1).collect();
    for (group, inputs) in groups {
        if !only.is_empty() && !only.contains(&group) {
            continue;
        }
        println!("\n### `{group}`\n");
        let functions: Vec<String> = {
            let mut f: Vec<String> = inputs
                .values()
                .flatten()
                .map(|m| m.function.clone())
                .collect();
            f.sort_by_key(|name| (!name.starts_with("copy"), name.clone()));
            f.dedup();
            f
        };
        let mut header = String::from("| input | bytes |");
        let mut rule = String::from("|---|---|");
        for f in &functions {
            if f.starts_with("copy") {
                header += &format!(" {f} | MB/s |");
                rule += "---|---|";
            } else {
                header += &format!(" {f} / copy |");
                rule += "---|";
            }
        }
        let is_peer = |f: &&String| f.contains(" (") && !f.contains(OURS) && !f.starts_with("copy");
        for _ in functions.iter().filter(is_peer) {
            header += " peer / ours |";
            rule += "---|";
        }
        println!("{header}\n{rule}");
        for (input, measured) in &inputs {
            let copy = measured.iter().find(|m| m.function.starts_with("copy"));
            let bytes = measured.iter().find_map(|m| m.bytes).unwrap_or(0);
            let mut row = format!(
                "| {} | {bytes} |",
                if input.is_empty() { "-" } else { input }
            );
            for f in &functions {
                let m = measured.iter().find(|m| &m.function == f);
                match (m, copy) {
                    (Some(m), _) if f.starts_with("copy") => {
                        let mbs = bytes as f64 / m.nanos * 1e3;
                        row += &format!(" {} | {mbs:.0} |", time(m.nanos));
                    }
                    (Some(m), Some(copy)) => {
                        let mbs = bytes as f64 / m.nanos * 1e3;
                        let ratio = m.nanos / copy.nanos;
                        row += &format!(" {}, {mbs:.0} MB/s = {ratio:.2} |", time(m.nanos));
                    }
                    (Some(m), None) => row += &format!(" {} |", time(m.nanos)),
                    (None, _) => row += " |",
                }
            }
            // A peer's time as a multiple of ours: `parse (peer)` against `parse (formats)`.
            for m in measured {
                let Some((op, peer)) = m.function.split_once(" (") else {
                    continue;
                };
                let ours = measured
                    .iter()
                    .find(|o| o.function == format!("{op} ({OURS})"));
                if let (Some(ours), false) = (ours, peer.starts_with(OURS)) {
                    let peer = peer.trim_end_matches(')');
                    row += &format!(" {op}: {peer} {:.1}x ours |", m.nanos / ours.nanos);
                }
            }
            println!("{row}");
        }
    }
}
