//! Any bytes -> `formats::mpq::Archive`: opening must not panic, hang or
//! allocate past a bound of the input's size; every entry it lists reads
//! or gives an error that names that entry and the offset of its bytes,
//! and what reads has the size its block gives. Seeded with the corpus
//! archives (see fuzz/README.md).
#![no_main]

use formats::mpq::{Archive, Error};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(archive) = Archive::new(data) else {
        return;
    };
    for d in archive.diagnostics() {
        let _ = d.to_string();
    }
    for entry in archive.entries() {
        match archive.read_entry(&entry) {
            Ok(bytes) => assert_eq!(bytes.len(), entry.block.file_size as usize),
            Err(Error::Entry {
                entry: name,
                offset,
                source,
            }) => {
                assert_eq!(name, entry.name());
                assert_eq!(offset, entry.offset);
                let _ = source.to_string();
            }
            Err(e) => panic!("{}: not an entry's error: {e}", entry.name()),
        }
    }
});
