//! Any bytes -> `formats::blp::Blp`: must not panic; whatever reads writes
//! back to the exact input and reads again to the same value; every level of
//! it decodes or errors; laid out afresh, it writes a file that reads back to
//! the same levels with nothing kept. A small decoded level 0 encodes to
//! every target, and what it encodes to decodes to an image of its size.
//! Whatever the lenient reader accepts (mip entries outside the file kept
//! as read, their levels missing) writes back to the exact input too, reads
//! again to the same value, and each level, held or missing, decodes or
//! errors; what the strict reader accepts, it reads the same, silently. The
//! view reads what the strict reader reads and fails where it fails, alike.
#![no_main]

use formats::blp::{Blp, Target};
use libfuzzer_sys::fuzz_target;

/// The view agrees with the strict reader: the same header, palette and
/// level bytes, or the same error.
fn view(data: &[u8], strict: &Result<Blp, formats::Error>) {
    match (strict, Blp::view(data)) {
        (Ok(owned), Ok(view)) => {
            assert_eq!(view.header, owned.header);
            assert_eq!(view.palette.map(|p| p.to_vec()), owned.palette);
            assert_eq!(view.jpeg_header.map(|j| j.to_vec()), owned.jpeg_header);
            assert!(view.levels().eq(owned.levels.iter().map(Vec::as_slice)));
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "the view's error differs"),
        (a, b) => panic!("strict {:?}, view {:?}", a.as_ref().err(), b.err()),
    }
}

fuzz_target!(|data: &[u8]| {
    let strict = Blp::from_bytes(data);
    view(data, &strict);
    if let Ok((lenient, diagnostics)) = Blp::from_bytes_lenient(data) {
        let bytes = lenient
            .to_bytes()
            .expect("a BLP the lenient reader takes writes");
        assert_eq!(bytes, data, "leniently read bytes written back differ");
        let (again, _) = Blp::from_bytes_lenient(&bytes).expect("re-reads leniently");
        assert_eq!(again, lenient);
        for d in &diagnostics {
            let _ = d.to_string();
        }
        match &strict {
            Ok(blp) => {
                assert_eq!(blp, &lenient, "the readers disagree on a valid file");
                assert!(diagnostics.is_empty(), "a valid file has diagnostics");
            }
            Err(_) => assert!(!diagnostics.is_empty(), "lenient took it silently"),
        }
        let missing = lenient.missing_levels();
        assert!(missing.start == lenient.levels.len() && missing.end <= 16);
        for level in missing {
            assert!(
                lenient.decode_level(level).is_err(),
                "a missing level decodes"
            );
        }
    }
    let Ok(blp) = strict else {
        return;
    };
    let bytes = blp.to_bytes().expect("a BLP that reads writes");
    assert_eq!(bytes, data, "written bytes differ from the input");
    assert_eq!(Blp::from_bytes(&bytes).expect("re-reads"), blp);
    for level in 0..blp.levels.len() {
        if let Ok(image) = blp.decode_level(level) {
            assert_eq!(
                image.data.len(),
                image.width as usize * image.height as usize * 4
            );
        }
    }
    if let Ok(image) = blp.decode_level(0)
        && image.width as usize * image.height as usize <= 64 * 64
    {
        for (target, name) in Target::ALL {
            let encoded = Blp::encode(&image, target)
                .unwrap_or_else(|e| panic!("{name}: a decoded image does not encode: {e}"));
            let back = encoded
                .decode_level(0)
                .unwrap_or_else(|e| panic!("{name}: an encoded image does not decode: {e}"));
            assert_eq!(
                (back.width, back.height),
                (image.width, image.height),
                "{name}"
            );
        }
    }
    let mut fresh = blp.clone();
    fresh.relayout();
    let bytes = fresh.to_bytes().expect("a fresh layout writes");
    let back = Blp::from_bytes(&bytes).expect("a fresh layout re-reads");
    assert_eq!(back.levels, fresh.levels);
    assert!(back.kept.is_empty(), "a relaid file keeps nothing");
});
