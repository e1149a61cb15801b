//! Any bytes -> a glTF document (`.glb`, or `.gltf` JSON whose buffers and
//! images are `data:` URIs; a file URI is not found) -> `gltf::import` at
//! version 1000, 800 or 1100, packing animations up to 2 s as global
//! sequences or not (by the input's length). Never panics,
//! hangs or allocates past the import's budgets; a model the import makes
//! writes, reads back strictly to the same model, and validates; every
//! texture it makes reads back as a BLP.
#![no_main]

use formats::gltf::{ImportOptions, Source, import};
use formats::mdx::Model;
use libfuzzer_sys::fuzz_target;

/// Models compare through `Debug`, which (unlike `==`) treats a NaN float as
/// equal to itself.
fn same(a: &Model, b: &Model) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

fn check(source: &Source, version: u32, global_sequences: Option<f64>) {
    let options = ImportOptions {
        version,
        global_sequences,
        conversion: formats::convert::Options {
            // Measured at a coarse step: the fuzzer's time goes to the
            // import and the conversion, not to the error report.
            error_step: 1000,
            ..Default::default()
        },
        ..Default::default()
    };
    let imported = match import(source, &options) {
        Ok(imported) => imported,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let model = &imported.model;
    let bytes = model
        .to_bytes()
        .unwrap_or_else(|e| panic!("an imported model (version {version}) does not write: {e}"));
    let again = Model::from_bytes(&bytes).unwrap_or_else(|e| {
        panic!("an imported model (version {version}) does not read back: {e}")
    });
    assert!(
        same(model, &again),
        "an imported model (version {version}) reads back otherwise"
    );
    let _ = formats::validate::all(model);
    for texture in &imported.textures {
        let read = match texture.format {
            formats::gltf::TextureFormat::Blp => {
                formats::blp::Blp::from_bytes(&texture.bytes).map(drop)
            }
            formats::gltf::TextureFormat::Dds => {
                formats::dds::Dds::from_bytes(&texture.bytes).map(drop)
            }
        };
        if let Err(e) = read {
            panic!(
                "an imported texture ({}) does not read back: {e}",
                texture.path
            );
        }
    }
    let _ = imported.report.to_string();
}

fuzz_target!(|data: &[u8]| {
    let source = match Source::from_slice(data, |_| Err(std::io::ErrorKind::NotFound.into())) {
        Ok(source) => source,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    // One version an input (by its length: mutations reach each): an
    // import at 800 or 1100 is one at 1000, then converted. A document at
    // the import's budgets takes seconds under the sanitizers.
    let global_sequences = data.len().is_multiple_of(2).then_some(2.0);
    check(&source, [1000, 800, 1100][data.len() % 3], global_sequences);
});
