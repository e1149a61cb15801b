//! MPQ archives: the sample archive and the corpus archives read entry by
//! entry, their models and textures parsed, and damaged copies refused
//! with an error (never a panic, never a hang).

use formats::mpq::{Archive, EntryError, Error};

use crate::common::{corpus_file, corpus_root};

/// Every corpus archive, by file name.
fn corpus_archives() -> Vec<(String, Vec<u8>)> {
    let Some(root) = corpus_root() else {
        return Vec::new();
    };
    let mut paths: Vec<_> = std::fs::read_dir(root.join("archives"))
        .expect("corpus/archives")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).expect("archive"))
        })
        .collect()
}

#[test]
fn the_sample_archive_names_and_reads_its_entries() {
    let bytes = formats::sample::sample_mpq();
    let archive = Archive::new(&bytes).unwrap();
    let names: Vec<String> = archive
        .entries()
        .iter()
        .map(|e| e.name().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "(listfile)",
            "Textures\\Sample.blp",
            "Units\\Footman.mdx",
            "war3map.j"
        ]
    );
    // Any case, either slash.
    assert_eq!(
        archive.read("UNITS/footman.MDX").unwrap(),
        formats::sample::sample_mdx()
    );
    assert!(
        archive
            .read("war3map.j")
            .unwrap()
            .starts_with(b"function main")
    );
    assert!(matches!(
        archive.read("nothing.txt"),
        Err(Error::NotFound { .. })
    ));
}

#[test]
fn a_warcraft_map_reads_every_entry_and_its_files_parse() {
    let Some(bytes) = corpus_file("archives/wc3lib_(4)WarChasers.w3m") else {
        return;
    };
    let archive = Archive::new(&bytes).unwrap();
    // A map's archive starts after its 512-byte `HM3W` header.
    assert_eq!(archive.offset(), 512);
    assert!(
        archive.diagnostics().is_empty(),
        "{:?}",
        archive.diagnostics()
    );
    let entries = archive.entries();
    // The 16 its listfile names, and the listfile and `(attributes)`.
    assert_eq!(entries.len(), 18);
    assert!(
        entries.iter().all(|e| e.name.is_some()),
        "every entry is named"
    );
    let mut total = 0;
    for entry in &entries {
        let data = archive.read_entry(entry).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            data.len(),
            entry.block.file_size as usize,
            "{}",
            entry.name()
        );
        if !entry.name().starts_with('(') {
            total += data.len();
        }
    }
    // What the mpq and wow-mpq crates read from the 16 too, byte for byte
    // the same (ceres-mpq cannot read war3map.wts, PKWARE DCL imploded).
    assert_eq!(total, 1_748_250);
    let strings = archive.read("war3map.wts").unwrap();
    assert!(
        strings.starts_with(b"\xEF\xBB\xBFSTRING "),
        "{:?}",
        &strings[..16]
    );
    // The minimap is a BLP the BLP reader decodes.
    let minimap = formats::blp::Blp::from_bytes(&archive.read("war3mapMap.blp").unwrap()).unwrap();
    assert!(minimap.size().0 > 0);
}

#[test]
fn fix_key_entries_are_decrypted_with_their_base_names() {
    let Some(bytes) = corpus_file("archives/wc3lib_mpqmaster_mpq1_no_extended_attributes.mpq")
    else {
        return;
    };
    let archive = Archive::new(&bytes).unwrap();
    // Both are encrypted with FIX_KEY; the key is the name after the last
    // backslash (mpq 0.8.1 reads both wrong, wow-mpq the one in a folder).
    assert_eq!(archive.read("testfile.txt").unwrap(), b"Test");
    assert_eq!(archive.read("test\\testfile.txt").unwrap(), b"Test");
}

#[test]
fn unnamed_encrypted_entries_are_listed_and_say_why_they_cannot_be_read() {
    let Some(bytes) = corpus_file("archives/wc3lib_ladik_mpq1_all_extended_attributes.mpq") else {
        return;
    };
    let archive = Archive::new(&bytes).unwrap();
    let entries = archive.entries();
    assert_eq!(entries.len(), 2);
    for entry in &entries {
        assert!(entry.name.is_none());
        let name = entry.name().into_owned();
        assert!(name.starts_with("File") && name.ends_with(".xxx"), "{name}");
        match archive.read(&name) {
            Err(Error::Entry {
                source: EntryError::EncryptedWithoutName,
                ..
            }) => {}
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// Truncations at 39 points and 300 copies with 1 to 4 bytes changed (in the
/// header, the tables at the end, anywhere), from a fixed seed.
fn damaged(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut cases: Vec<Vec<u8>> = (1..40)
        .map(|k| bytes[..bytes.len() * k / 40].to_vec())
        .collect();
    for _ in 0..300 {
        let mut copy = bytes.to_vec();
        for _ in 0..1 + next() % 4 {
            let len = copy.len();
            let at = match next() % 3 {
                0 => 512 + (next() % 32) as usize,
                1 => len - 1 - (next() as usize % len.min(16384)),
                _ => next() as usize % len,
            }
            .min(len - 1);
            copy[at] = next() as u8;
        }
        cases.push(copy);
    }
    cases
}

#[test]
fn damaged_archives_are_errors_that_name_the_entry_and_offset() {
    let mut entry_errors = 0;
    for (name, bytes) in corpus_archives() {
        for copy in damaged(&bytes) {
            let Ok(archive) = Archive::new(&copy) else {
                continue;
            };
            for entry in archive.entries() {
                if let Err(e) = archive.read_entry(&entry) {
                    let Error::Entry {
                        entry: named,
                        offset,
                        ..
                    } = &e
                    else {
                        panic!("{name}: {e}");
                    };
                    assert_eq!(*named, entry.name(), "{name}");
                    assert_eq!(*offset, entry.offset, "{name}");
                    assert!(e.to_string().contains(&format!("{offset:#x}")), "{e}");
                    entry_errors += 1;
                }
            }
        }
    }
    if corpus_root().is_some() {
        // The flips do reach entries' bytes, not only the tables.
        assert!(entry_errors > 100, "{entry_errors}");
    }
}

#[test]
fn a_zlib_sector_with_a_wrong_checksum_reads_as_the_game_reads_it() {
    const NAME: &str = "Textures\\Sample.blp";
    let mut bytes = formats::sample::sample_mpq();
    let entry = Archive::new(&bytes).unwrap().entry(NAME).unwrap();
    let texture = Archive::new(&bytes).unwrap().read(NAME).unwrap();
    // Its last sector's last four bytes are that zlib stream's Adler-32,
    // here made wrong.
    let end = (entry.offset + entry.block.compressed_size as u64) as usize;
    for b in &mut bytes[end - 4..end] {
        *b ^= 0xff;
    }
    let archive = Archive::new(&bytes).unwrap();
    assert_eq!(archive.read(NAME).unwrap(), texture);
    // So damage to the deflate data that still inflates to the sector's
    // size goes unseen, as in the game; it does not give the bytes back.
    bytes[end - 8] ^= 0xff;
    bytes[end - 7] ^= 0xff;
    let archive = Archive::new(&bytes).unwrap();
    assert_ne!(archive.read(NAME).ok(), Some(texture));
}

#[test]
fn a_header_with_any_version_number_reads_as_version_1() {
    // Found by the fuzz target: version 0xFFFF, which protected maps may
    // write, overflowed the version said in the diagnostic.
    let mut bytes = formats::sample::sample_mpq();
    bytes[12..14].copy_from_slice(&0xFFFFu16.to_le_bytes());
    let archive = Archive::new(&bytes).unwrap();
    assert_eq!(
        archive.read("Units\\Footman.mdx").unwrap(),
        formats::sample::sample_mdx()
    );
    let said = archive.diagnostics()[0].to_string();
    assert!(
        said.contains("version 65536 and 32 bytes: read as version 1"),
        "{said}"
    );
}
