//! Any bytes -> `formats::mdx::Model`: never panics; whatever the strict reader
//! accepts writes back to exactly the input and reads again to the same model;
//! whatever the lenient reader accepts writes a file that reads back (strictly
//! when nothing had to be fixed) to the same model, and says why when the
//! strict reader refused it (a chunk kept as bytes, a quirk recovered). Plain MDL of an accepted
//! model reads back strictly and is stable (nothing more to leave out). The
//! view reads what the strict reader reads and fails where it fails, alike.
#![no_main]

use formats::mdx::Model;
use libfuzzer_sys::fuzz_target;

/// Models compare through `Debug`, which (unlike `==`) treats a NaN float as
/// equal to itself; the byte comparisons catch any difference in NaN bits.
fn same(a: &Model, b: &Model) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Plain MDL (models of versions 800 to 1200) reads back strictly, and
/// writing that model plain again leaves nothing out and gives the same text.
fn plain(model: &Model) {
    let Ok(plain) = formats::mdl::to_string_plain(model) else {
        return;
    };
    let back = formats::mdl::from_str(&plain.text)
        .unwrap_or_else(|e| panic!("plain MDL does not read back: {e}\n{}", plain.text));
    let again = formats::mdl::to_string_plain(&back).expect("a plain model writes plain MDL");
    assert!(
        again.left_out.is_empty(),
        "left out again: {:?}",
        again.left_out
    );
    assert!(again.text == plain.text, "plain MDL not stable");
}

/// The view agrees with the strict reader: it reads (every field, through
/// `to_owned`, and the geosets' and sequences' runs) what the strict reader
/// reads, to the same model, and refuses what it refuses with the same
/// error, at the same offset and path.
fn view(data: &[u8], strict: &Result<Model, formats::Error>) {
    let viewed = Model::view(data).and_then(|view| {
        let _ = view.version();
        if let Ok(geosets) = view.geosets() {
            for geoset in geosets.iter() {
                let _ = geoset.vertex_positions.iter().count();
                let _ = geoset.faces.get(geoset.faces.len().saturating_sub(1));
            }
        }
        let _ = view.sequences().map(|s| s.to_vec());
        view.to_owned()
    });
    match (strict, viewed) {
        (Ok(owned), Ok(viewed)) => assert!(
            same(owned, &viewed) && owned.to_bytes().ok() == viewed.to_bytes().ok(),
            "the view reads another model"
        ),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "the view's error differs"),
        (a, b) => panic!("strict {:?}, view {:?}", a.as_ref().err(), b.err()),
    }
}

fuzz_target!(|data: &[u8]| {
    let strict = Model::from_bytes(data);
    view(data, &strict);
    let strict_refused = strict.is_err();
    match strict {
        Ok(model) => {
            let bytes = model
                .to_bytes()
                .unwrap_or_else(|e| panic!("accepted input does not encode: {e}"));
            assert!(bytes == data, "re-encoded bytes differ from the input");
            let again = Model::from_bytes(&bytes).expect("written bytes read back");
            assert!(same(&model, &again), "re-read model differs");
            plain(&model);
        }
        Err(e) => {
            let _ = e.to_string();
            let _ = e.path_string();
        }
    }
    if let Ok((model, diagnostics)) = Model::from_bytes_lenient(data) {
        for d in &diagnostics {
            let _ = d.to_string();
        }
        let bytes = model
            .to_bytes()
            .unwrap_or_else(|e| panic!("leniently accepted input does not encode: {e}"));
        let (again, _) = Model::from_bytes_lenient(&bytes).expect("written bytes read back");
        assert!(same(&model, &again), "re-read model differs (lenient)");
        if diagnostics.is_empty() {
            assert!(bytes == data, "nothing was fixed, yet the bytes differ");
            assert!(
                !strict_refused,
                "the strict reader refused it, the lenient one said nothing"
            );
        }
    }
});
