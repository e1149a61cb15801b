//! Every corpus `.mdl` reads (strictly, or leniently where its quirks need it,
//! listed below), and reading is stable: MDL -> model -> MDL -> model.

use crate::common;

use common::{corpus_root, files_in};
use formats::mdx::Model;

/// The files that only read leniently, with what the lenient reader reports.
const LENIENT: &[(&str, &str)] = &[
    // A key track whose header count (2) disagrees with its keys (3).
    (
        "zf_bang-RibbonEmitter.mdl",
        "the header says 2 keys, the block has 3",
    ),
    // `NumBones 3` in the Model block of a file of three helpers.
    (
        "zf_helper.mdl",
        "the Model block says NumBones 3, the model has 0",
    ),
    // The manifest's quirk: "Textures 4" over 5 Bitmap blocks.
    ("zf_cube.mdl", "the header says 4 textures, the block has 5"),
    // `static Visibility` of an emitter, which MDX has no field for.
    (
        "zf_particle_emitter2.mdl",
        "`static Visibility` has no binary field",
    ),
    // `static TextureSlot 5.5` for an integer field.
    ("zf_ribbon_emitter.mdl", "expected an integer, found 5.5"),
];

fn same(a: &Model, b: &Model) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

#[test]
fn every_corpus_mdl_reads() {
    let Some(root) = corpus_root() else {
        return;
    };
    let files = files_in(&root, "mdl", ".mdl");
    assert_eq!(files.len(), 36, "{files:?}");
    let mut failures = Vec::new();
    let (mut strict, mut lenient) = (0, 0);
    for path in &files {
        let text = std::fs::read_to_string(root.join(path)).unwrap();
        let expected = LENIENT.iter().find(|(p, _)| path.ends_with(p));
        let model = match (formats::mdl::from_str(&text), expected) {
            (Ok(model), None) => {
                strict += 1;
                model
            }
            (Ok(_), Some(_)) => {
                failures.push(format!("{path}: listed as lenient but reads strictly"));
                continue;
            }
            (Err(e), expected) => {
                let Some((_, quirk)) = expected else {
                    failures.push(format!("{path}: strict: {e}"));
                    continue;
                };
                match formats::mdl::from_str_lenient(&text) {
                    Ok((model, diagnostics)) => {
                        let all: Vec<String> =
                            diagnostics.iter().map(|d| d.message.clone()).collect();
                        if !all.iter().any(|d| d.contains(quirk)) {
                            failures.push(format!("{path}: expected {quirk:?} in {all:?}"));
                        }
                        if e.to_string() != all[0].split("; ").next().unwrap() {
                            failures.push(format!(
                                "{path}: strict error {e} is not the first diagnostic"
                            ));
                        }
                        lenient += 1;
                        model
                    }
                    Err(e) => {
                        failures.push(format!("{path}: lenient: {e}"));
                        continue;
                    }
                }
            }
        };
        // Stable: written and read again, the same model and the same text.
        let text = formats::mdl::to_string(&model);
        match formats::mdl::from_str(&text) {
            Ok(again) if same(&model, &again) => {
                assert_eq!(formats::mdl::to_string(&again), text, "{path}");
            }
            Ok(_) => failures.push(format!("{path}: model differs after writing MDL")),
            Err(e) => failures.push(format!("{path}: written MDL does not read: {e}")),
        }
    }
    println!("{strict} strict, {lenient} lenient of {}", files.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
