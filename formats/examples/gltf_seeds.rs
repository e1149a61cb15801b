//! Seeds for the `gltf_import` fuzz target (`fuzz/fuzz_targets/gltf_import.rs`):
//! every model given exported with [`formats::gltf::export`] (a flat-colour
//! placeholder for each texture, so that the images are read and encoded
//! too), every `.glb` given as it is, and each of those also as a `.gltf`
//! whose buffer is a `data:` URI (plain JSON, so the fuzzer mutates the
//! document's text, not only a GLB's binary chunk). Documents over
//! `MAX_SEED` bytes are left out: the fuzzer cuts its inputs at `-max_len`,
//! and a cut document does not read.
//!
//! ```sh
//! cargo run --release -p formats --features gltf --example gltf_seeds -- \
//!     OUT_DIR [MODEL.mdx | DOCUMENT.glb | FOLDER]...
//! ```

use std::path::{Path, PathBuf};

use base64::Engine;
use formats::gltf::{ExportOptions, FlatTextures, export};

/// The largest seed written (the `-max_len` the fuzz target runs with).
const MAX_SEED: usize = 512 * 1024;

/// A `.glb` as a `.gltf`: its JSON, with the binary chunk as a `data:` URI
/// (images in buffer views stay there).
fn glb_to_gltf(glb: &[u8]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    let parsed = gltf::Glb::from_slice(glb)?;
    let mut root: serde_json::Value = serde_json::from_slice(&parsed.json)?;
    if let (Some(bin), Some(buffer)) = (
        parsed.bin,
        root.get_mut("buffers").and_then(|b| b.get_mut(0)),
    ) {
        let data = base64::engine::general_purpose::STANDARD.encode(bin);
        buffer["uri"] = format!("data:application/octet-stream;base64,{data}").into();
    }
    Ok(serde_json::to_vec(&root)?)
}

/// The files to seed from: those given, and the `.mdx` and `.glb` files of
/// the folders given.
fn inputs(args: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for arg in args {
        let path = PathBuf::from(arg);
        match std::fs::read_dir(&path) {
            Ok(entries) => {
                let mut files: Vec<PathBuf> = (entries.flatten().map(|e| e.path()))
                    .filter(|p| {
                        let extension = p.extension().and_then(|e| e.to_str()).unwrap_or("");
                        ["mdx", "glb"].contains(&extension.to_ascii_lowercase().as_str())
                    })
                    .collect();
                files.sort();
                out.extend(files);
            }
            Err(_) => out.push(path),
        }
    }
    out
}

/// The documents one file seeds: a `.glb` as it is, a model exported.
fn documents(path: &Path, bytes: &[u8]) -> Result<Vec<Vec<u8>>, Box<dyn std::error::Error>> {
    if bytes.starts_with(b"glTF") {
        return Ok(vec![bytes.to_vec()]);
    }
    let (model, _) = formats::mdx::Model::from_bytes_lenient(bytes)?;
    let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("seed");
    let mut out = Vec::new();
    // Opaque placeholders (BLP as JPEG) and translucent ones (palette).
    for colour in [[128, 128, 128, 255], [200, 100, 50, 128]] {
        let options = ExportOptions {
            textures: &FlatTextures(colour),
            ..Default::default()
        };
        out.push(export(&model, name, &options)?.document.to_glb()?);
    }
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out_dir, sources)) = args.split_first() else {
        return Err("usage: gltf_seeds OUT_DIR [MODEL.mdx | DOCUMENT.glb | FOLDER]...".into());
    };
    std::fs::create_dir_all(out_dir)?;
    let (mut written, mut skipped) = (0, 0);
    for path in inputs(sources) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let glbs = match documents(&path, &bytes) {
            Ok(glbs) => glbs,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("seed");
        for (k, glb) in glbs.iter().enumerate() {
            for (extension, document) in [("glb", glb.clone()), ("gltf", glb_to_gltf(glb)?)] {
                if document.len() > MAX_SEED {
                    skipped += 1;
                    continue;
                }
                std::fs::write(
                    Path::new(out_dir).join(format!("{stem}-{k}.{extension}")),
                    document,
                )?;
                written += 1;
            }
        }
    }
    println!("{written} seeds written to {out_dir} ({skipped} over {MAX_SEED} bytes left out)");
    Ok(())
}
