//! Truncation: every prefix of a corpus model either fails with an error or
//! reads into a model that writes back exactly that prefix (a prefix ending on
//! a chunk boundary is a smaller valid file). Never a panic.
//!
//! Every prefix of every file is 7.5 million reads, O(n²) bytes: about a minute
//! on two cores even with the test profile's optimised `formats`. So by
//! default every prefix is tried for files up to [`EXHAUSTIVE_UP_TO`] bytes (42
//! of the 57 files), and for larger files every prefix within 24 bytes of each
//! chunk boundary and every 1021st prefix. `MDX_TRUNCATION=full` tries every
//! prefix of every file, as CI does:
//! `MDX_TRUNCATION=full cargo test -p formats --test integration -- mdx::truncation::`.

use crate::common;

use common::{corpus_root, manifest_models};
use formats::chunks::ChunkFile;
use formats::mdx::Model;

const EXHAUSTIVE_UP_TO: usize = 64 * 1024;

/// Reads `prefix` (leniently for the two light-quirk files) and checks the rule.
fn check_prefix(path: &str, prefix: &[u8], lenient: bool) -> bool {
    let read = if lenient {
        Model::from_bytes_lenient(prefix).map(|(m, _)| m)
    } else {
        Model::from_bytes(prefix)
    };
    match read {
        Err(_) => false,
        Ok(model) => {
            let back = model
                .to_bytes()
                .unwrap_or_else(|e| panic!("{path}[..{}]: write failed: {e}", prefix.len()));
            assert!(
                back == prefix,
                "{path}[..{}]: read, but writes back {} bytes",
                prefix.len(),
                back.len()
            );
            true
        }
    }
}

/// The two corpus files with a light track after `LITE`, which only the
/// lenient reader reads (MDX_MANIFEST.md).
fn light_quirk(path: &str) -> bool {
    path.contains("nwdg32") || path.contains("294411b2")
}

/// The prefix lengths to try for `data`.
fn prefix_lengths(data: &[u8], full: bool) -> Vec<usize> {
    if full || data.len() <= EXHAUSTIVE_UP_TO {
        return (0..=data.len()).collect();
    }
    let mut lengths: Vec<usize> = (0..=data.len()).step_by(1021).collect();
    let mut boundaries = vec![0, 4, data.len()];
    match ChunkFile::from_bytes(data) {
        Ok(file) => {
            for entry in file.entries() {
                boundaries.extend([
                    entry.offset,
                    entry.offset + 8,
                    entry.offset + 8 + entry.size,
                ]);
            }
        }
        // The light-quirk files: the typed model's chunk ends (a LITE chunk
        // ends after the tracks stored behind it).
        Err(_) => {
            let model = Model::from_bytes_lenient(data).unwrap().0;
            for end in 1..=model.chunks.len() {
                let chunks = model.chunks[..end].to_vec();
                let len = Model { chunks }.to_bytes().unwrap().len();
                boundaries.extend([len, len + 8]);
            }
        }
    }
    for b in boundaries {
        lengths.extend(b.saturating_sub(24)..=(b + 24).min(data.len()));
    }
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

#[test]
fn every_prefix_fails_or_writes_back_exactly() {
    if corpus_root().is_none() {
        return;
    }
    let full = std::env::var("MDX_TRUNCATION").is_ok_and(|v| v == "full");
    let files: Vec<(String, Vec<u8>)> = manifest_models(0..=u32::MAX)
        .into_iter()
        .map(|(f, data)| (f.path, data))
        .collect();
    assert_eq!(
        files.len(),
        57,
        "every corpus model, the v1300 alpha one included"
    );
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    // Every (file, prefix length) is one read; the reads are handed out in
    // runs of at most RUN, so the largest files are shared between threads
    // too (a split by file left one of two cores idle for most of the run:
    // the largest file alone took most of it).
    const RUN: usize = 16_384;
    let lengths: Vec<Vec<usize>> = files
        .iter()
        .map(|(_, data)| prefix_lengths(data, full))
        .collect();
    let runs: Vec<(usize, std::ops::Range<usize>)> = lengths
        .iter()
        .enumerate()
        .flat_map(|(file, l)| {
            (0..l.len())
                .step_by(RUN)
                .map(move |at| (file, at..(at + RUN).min(l.len())))
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let valid = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (files, lengths, runs, next) = (&files, &lengths, &runs, &next);
                s.spawn(move || {
                    let mut valid = vec![0usize; files.len()];
                    while let Some((file, range)) =
                        runs.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        let (path, data) = &files[*file];
                        let lenient = light_quirk(path);
                        valid[*file] += lengths[*file][range.clone()]
                            .iter()
                            .filter(|&&n| check_prefix(path, &data[..n], lenient))
                            .count();
                    }
                    valid
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).fold(
            vec![0usize; files.len()],
            |mut sum, part| {
                sum.iter_mut().zip(part).for_each(|(s, p)| *s += p);
                sum
            },
        )
    });
    for (((path, data), lengths), valid) in files.iter().zip(&lengths).zip(valid) {
        assert!(
            check_prefix(path, data, light_quirk(path)),
            "{path}: the whole file must read"
        );
        println!(
            "{path:<60} {:>8} of {:>8} prefixes tried, {valid} read (chunk boundaries)",
            lengths.len(),
            data.len() + 1
        );
    }
    let exhaustive = files
        .iter()
        .filter(|(_, d)| full || d.len() <= EXHAUSTIVE_UP_TO)
        .count();
    println!(
        "{exhaustive} of {} files tried at every prefix",
        files.len()
    );
    assert_eq!(exhaustive, if full { 57 } else { 42 });
}
