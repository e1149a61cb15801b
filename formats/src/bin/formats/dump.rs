//! `formats dump`: the whole parsed file, as JSON or as an indented tree
//! drawn from the same serde view (byte blobs in hex, as in the JSON).

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use crate::kind;

/// Arrays of at most this many scalars print on one line.
const INLINE: usize = 16;

/// `formats dump FILE [--json]`.
pub fn run(path: &Path, json: bool) -> Result<ExitCode, String> {
    let (kind, data) = kind::open(path)?;
    let name = path.display();
    let loaded = kind::read(kind, &data).map_err(|e| format!("{name}: {e}"))?;
    if let Some(error) = &loaded.strict_error {
        eprintln!(
            "note: {name}: read leniently ({} diagnostics); strict: {error}",
            loaded.diagnostics.len()
        );
    }
    let value = serde_json::to_value(&loaded.document).map_err(|e| format!("{name}: {e}"))?;
    let mut text = if json {
        serde_json::to_string_pretty(&value).map_err(|e| format!("{name}: {e}"))?
    } else {
        let mut out = String::new();
        tree(&mut out, &value, 0);
        out
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    crate::print_out(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::Object(_) | Value::Array(_) => None,
        other => Some(other.to_string()),
    }
}

/// `key: value` lines, nested objects and arrays indented by two spaces;
/// array items are `[i]`, short arrays of scalars stay on one line.
fn tree(out: &mut String, value: &Value, depth: usize) {
    let pad = "  ".repeat(depth);
    let entry = |out: &mut String, key: &str, v: &Value| {
        let inline = match v {
            Value::Array(items) if items.len() <= INLINE => {
                let parts: Option<Vec<String>> = items.iter().map(scalar).collect();
                parts.map(|p| format!("[{}]", p.join(", ")))
            }
            Value::Object(map) if map.is_empty() => Some("{}".into()),
            other => scalar(other),
        };
        match inline {
            Some(text) => {
                let _ = writeln!(out, "{pad}{key}: {text}");
            }
            None => {
                let _ = writeln!(out, "{pad}{key}:");
                tree(out, v, depth + 1);
            }
        }
    };
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| entry(out, k, v)),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| entry(out, &format!("[{i}]"), v)),
        other => {
            let _ = writeln!(out, "{pad}{other}");
        }
    }
}
