//! Any bytes -> `formats::dds::Dds`: must not panic; whatever reads writes
//! back to the exact input and reads again to the same value; every mip
//! level decodes or errors, and a decoded level has its size.
#![no_main]

use formats::dds::Dds;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(dds) = Dds::from_bytes(data) else {
        return;
    };
    let bytes = dds.to_bytes().expect("a DDS that reads writes");
    assert_eq!(bytes, data, "written bytes differ from the input");
    assert_eq!(Dds::from_bytes(&bytes).expect("re-reads"), dds);
    for level in 0..dds.level_count() {
        if let Ok(image) = dds.decode_level(level) {
            assert_eq!((image.width, image.height), dds.level_size(level));
            assert_eq!(
                image.data.len(),
                image.width as usize * image.height as usize * 4
            );
        }
    }
});
