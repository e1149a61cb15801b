//! Any bytes -> `formats::wdt::Wdt`: never panics; whatever is accepted writes
//! back to the exact input and reads again to the same value; whatever the
//! lenient reader accepts (undecodable and cut chunks kept as bytes) writes
//! back to the exact input too.
#![no_main]

use formats::wdt::Wdt;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match Wdt::from_bytes(data) {
        Ok(wdt) => {
            let bytes = wdt
                .to_bytes()
                .unwrap_or_else(|e| panic!("accepted input does not encode: {e}"));
            assert!(bytes == data, "re-encoded bytes differ from the input");
            // Bytes, not values: a NaN is never equal to itself.
            let again = Wdt::from_bytes(&bytes).unwrap().to_bytes().unwrap();
            assert!(again == bytes, "second round differs");
            let _ = (
                wdt.kind(),
                wdt.mphd_flags(),
                wdt.main().map(|m| m.tile_count()),
            );
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    if let Ok((wdt, _)) = Wdt::from_bytes_lenient(data) {
        let bytes = wdt
            .to_bytes()
            .unwrap_or_else(|e| panic!("lenient WDT does not encode: {e}"));
        assert!(bytes == data, "lenient WDT re-encoded differently");
    }
});
