//! Any bytes -> `formats::blp::Blp`: must not panic; whatever reads writes
//! back to the exact input and reads again to the same value; every level of
//! it decodes or errors; laid out afresh, it writes a file that reads back to
//! the same levels with nothing kept. A small decoded level 0 encodes to
//! every target, and what it encodes to decodes to an image of its size.
#![no_main]

use formats::blp::{Blp, Target};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(blp) = Blp::from_bytes(data) else {
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
