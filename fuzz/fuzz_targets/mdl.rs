//! Any text -> `formats::mdl`: never panics; whatever the strict or lenient
//! reader accepts writes MDL that reads back (strictly, but for a damaged
//! file's cut last chunk, which only the lenient reader takes) to the same
//! model, and that text is stable.
#![no_main]

use formats::mdx::{Chunk, Model};
use libfuzzer_sys::fuzz_target;

/// Models compare through `Debug`, which (unlike `==`) treats a NaN float as
/// equal to itself.
fn same(a: &Model, b: &Model) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

fn check(model: &Model) {
    let text = formats::mdl::to_string(model);
    // An `ExtChunk` cut short (`Chunk::Cut`, last) is refused strictly and
    // kept leniently, as the MDX readers do with the damaged file.
    let cut = matches!(model.chunks.last(), Some(Chunk::Cut(_)));
    let read = if cut {
        assert!(
            formats::mdl::from_str(&text).is_err(),
            "a cut chunk read strictly"
        );
        formats::mdl::from_str_lenient(&text).map(|(model, _)| model)
    } else {
        formats::mdl::from_str(&text)
    };
    let again = read.unwrap_or_else(|e| panic!("written MDL does not read back: {e}\n{text}"));
    assert!(same(model, &again), "re-read model differs\n{text}");
    assert!(
        formats::mdl::to_string(&again) == text,
        "MDL text not stable"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match formats::mdl::from_str(text) {
        Ok(model) => check(&model),
        Err(e) => {
            let _ = e.to_string();
        }
    }
    if let Ok((model, diagnostics)) = formats::mdl::from_str_lenient(text) {
        for d in &diagnostics {
            let _ = d.to_string();
        }
        check(&model);
    }
});
