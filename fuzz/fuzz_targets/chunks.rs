//! Any bytes -> `ChunkFile::from_bytes`: never panics, and whatever it accepts
//! is written back byte for byte.
#![no_main]

use formats::chunks::ChunkFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match ChunkFile::from_bytes(data) {
        Ok(file) => {
            // The chunk table must describe the input.
            let entries = file.entries();
            assert_eq!(entries.len(), file.chunks().len());
            let bytes = file
                .to_bytes()
                .unwrap_or_else(|e| panic!("accepted input does not encode: {e}"));
            assert!(bytes == data, "re-encoded bytes differ from the input");
        }
        Err(e) => {
            // Error messages and paths must be printable for any input.
            let _ = e.to_string();
            let _ = e.path_string();
        }
    }
});
