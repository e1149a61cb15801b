//! `formats dump`: the whole parsed file, as JSON or as an indented tree
//! drawn from the same serde view (byte blobs in hex, as in the JSON).

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use serde_json::Value;

use formats::blp::{Blp, MipTable};

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
            "note: {name}: read leniently ({}); strict: {error}",
            crate::plural(loaded.diagnostics.len(), "diagnostic")
        );
    }
    let mut value = serde_json::to_value(&loaded.document).map_err(|e| format!("{name}: {e}"))?;
    if let kind::Document::Blp(blp) = &loaded.document {
        add_mip_table(&mut value, blp, &data).map_err(|e| format!("{name}: {e}"))?;
    }
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

/// A texture's `mip_offsets` and `mip_sizes` as read from `data`, after its
/// header: the library derives them on write (they are not fields of its
/// value), but a dump is what the file holds, shared and stray entries too.
fn add_mip_table(value: &mut Value, blp: &Blp, data: &[u8]) -> Result<(), format_core::Error> {
    let table = MipTable::read(data, blp.header.table_offset())?;
    let Some(Value::Object(fields)) = value.get_mut("Blp") else {
        return Ok(());
    };
    let old = std::mem::take(fields);
    for (key, field) in old {
        let after_header = key == "header";
        fields.insert(key, field);
        if after_header {
            fields.insert("mip_offsets".into(), table.offsets.to_vec().into());
            fields.insert("mip_sizes".into(), table.sizes.to_vec().into());
        }
    }
    Ok(())
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
