//! Every MDX, ADT and WDT file of the corpus at the chunk level: the chunk walk
//! the manifests describe, and a byte-exact write back.

use crate::common;

use common::{corpus_root, files_in, manifest_files};
use format_core::ErrorKind;
use formats::chunks::ChunkFile;

/// Reads each file of a manifest folder, checks it against the manifest's
/// "walk ends at EOF" column, and returns how many files were checked.
fn check_folder(manifest: &str, folder: &str, extension: &str) -> usize {
    let Some(root) = corpus_root() else { return 0 };
    let listed = manifest_files(&root, manifest, folder, extension);
    let present = files_in(&root, folder, extension);
    let mut listed_paths: Vec<String> = listed.iter().map(|f| f.path.clone()).collect();
    listed_paths.sort();
    assert_eq!(
        listed_paths, present,
        "{manifest} and {folder}/ list different files"
    );

    for file in &listed {
        let data = std::fs::read(root.join(&file.path)).unwrap();
        let walk_ends = file.cell("walk ends at EOF");
        match ChunkFile::from_bytes(&data) {
            Ok(parsed) => {
                assert!(
                    walk_ends.starts_with("yes"),
                    "{}: manifest says {walk_ends:?}",
                    file.path
                );
                let back = parsed.to_bytes().unwrap();
                assert!(back == data, "{}: written bytes differ", file.path);
                println!(
                    "{:<60} {:>3} chunks, byte-exact",
                    file.path,
                    parsed.chunks().len()
                );
            }
            Err(e) => {
                // The manifest knows these: a light track outside its LITE chunk
                // (MDX_VERSIONS.md §8.3) makes the next "chunk size" absurd.
                assert!(walk_ends.starts_with("NO"), "{}: {e}", file.path);
                assert!(
                    matches!(e.kind(), ErrorKind::SizeExceedsData { .. }),
                    "{}: {e}",
                    file.path
                );
                println!(
                    "{:<60} strict walk fails as the manifest says: {e}",
                    file.path
                );
            }
        }
    }
    listed.len()
}

#[test]
fn every_mdx_walks_and_writes_back_exactly() {
    let n = check_folder("MDX_MANIFEST.md", "mdx", ".mdx");
    println!("{n} MDX files checked");
}

#[test]
fn every_adt_walks_and_writes_back_exactly() {
    let n = check_folder("ADT_MANIFEST.md", "adt", ".adt");
    println!("{n} ADT files checked");
}

#[test]
fn every_wdt_walks_and_writes_back_exactly() {
    let n = check_folder("ADT_MANIFEST.md", "wdt", ".wdt");
    println!("{n} WDT files checked");
}

#[test]
fn the_light_quirk_files_fail_where_the_spec_says() {
    let Some(root) = corpus_root() else { return };
    // MDX_VERSIONS.md §8.3 / §10: "strict: breaks at 856506" and "at 64559"
    // (where the orphan track's bytes are read as the next chunk header).
    for (name, header_at) in [
        ("mdx/amisd_nwdg32.mdx", 856506usize),
        ("mdx/dbz_FountainOfSouls_rev-294411b2.mdx", 64559),
    ] {
        let data = std::fs::read(root.join(name)).unwrap();
        let e = ChunkFile::from_bytes(&data).unwrap_err();
        assert_eq!(e.offset(), header_at + 4, "{name}: {e}");
    }
}
