//! Any bytes -> `formats::adt::Adt` (and the same bytes as a split `_tex`/`_obj`
//! file): never panics; whatever is accepted writes back to the exact input;
//! with every kept value dropped it still writes a tile that reads back to the
//! same chunks; alpha maps decode or error; split and merge do not panic;
//! whatever the lenient reader accepts (cut and undecodable chunks kept as
//! bytes) writes back to the exact input too.
#![no_main]

use formats::adt::{Adt, SplitAdt, SplitFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match Adt::from_bytes(data) {
        Ok(tile) => {
            let bytes = tile
                .to_bytes()
                .unwrap_or_else(|e| panic!("accepted input does not encode: {e}"));
            assert!(bytes == data, "re-encoded bytes differ from the input");
            for mcnk in tile.mcnks() {
                for flags in [0, 0x4] {
                    let _ = mcnk.alpha_maps(flags);
                }
            }
            let mut derived = tile.clone();
            derived.recompute_offsets();
            derived.clear_declared_sizes();
            if let Ok(bytes) = derived.to_bytes() {
                let back = Adt::from_bytes(&bytes)
                    .unwrap_or_else(|e| panic!("derived tile does not read back: {e}"));
                assert_eq!(back.chunks.len(), derived.chunks.len());
                // Bytes, not values: a NaN height is never equal to itself.
                let again = back
                    .to_bytes()
                    .unwrap_or_else(|e| panic!("derived tile re-read does not encode: {e}"));
                assert!(again == bytes, "derived tile is not stable");
            }
            let split = SplitAdt::from_monolithic(&tile);
            let _ = split.to_monolithic();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    // Leniently: a chunk that does not decode is kept as bytes, the chunk the
    // input ends inside as a cut chunk; either way the input comes back.
    if let Ok((tile, _)) = Adt::from_bytes_lenient(data) {
        let bytes = tile
            .to_bytes()
            .unwrap_or_else(|e| panic!("lenient tile does not encode: {e}"));
        assert!(bytes == data, "lenient tile re-encoded differently");
        let split = SplitAdt::from_monolithic(&tile);
        let _ = split.to_monolithic();
    }
    if let Ok(file) = SplitFile::from_bytes(data) {
        let bytes = file
            .to_bytes()
            .unwrap_or_else(|e| panic!("split file does not encode: {e}"));
        assert!(bytes == data, "split file re-encoded differently");
    }
});
