//! Shared by the benchmarks of the typed readers (each bench binary includes it).
#![allow(dead_code)] // each bench binary uses part of it

/// One benchmark input: a single file, or a group of files measured together
/// (throughput is the sum of their bytes).
pub struct Input {
    /// Shown as the benchmark's parameter.
    pub name: String,
    /// The files' bytes.
    pub files: Vec<Vec<u8>>,
}

impl Input {
    /// One file.
    pub fn file(name: impl Into<String>, data: Vec<u8>) -> Input {
        Input {
            name: name.into(),
            files: vec![data],
        }
    }

    /// Total bytes.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.len() as u64).sum()
    }
}

/// One criterion group over inputs: per input, a copy of its bytes (`to_vec`,
/// the ceiling), the chunk-level walk (the floor), the typed `parse`, and
/// `write` of what `parse` returned, so the ratios come from one run. Files
/// `parse` refuses are left out (and said so on stderr).
pub fn typed_against_copy<T>(
    c: &mut criterion::Criterion,
    group: &str,
    inputs: Vec<Input>,
    parse: impl Fn(&[u8]) -> Option<T>,
    write: impl Fn(&T) -> Option<Vec<u8>>,
) {
    use criterion::{BenchmarkId, Throughput};
    use std::hint::black_box;

    let mut g = c.benchmark_group(group);
    for mut input in inputs {
        let before = input.files.len();
        input.files.retain(|d| parse(d).is_some());
        if input.files.len() < before {
            eprintln!(
                "{group}/{}: {} file(s) not readable, left out",
                input.name,
                before - input.files.len()
            );
        }
        if input.files.is_empty() {
            continue;
        }
        let values: Vec<T> = input.files.iter().filter_map(|d| parse(d)).collect();
        let files = &input.files;
        g.throughput(Throughput::Bytes(input.bytes()));
        g.bench_with_input(
            BenchmarkId::new("copy (to_vec)", &input.name),
            files,
            |b, fs| {
                b.iter(|| {
                    for d in fs {
                        black_box(black_box(&d[..]).to_vec());
                    }
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("chunk walk", &input.name),
            files,
            |b, fs| {
                b.iter(|| {
                    for d in fs {
                        black_box(formats::chunks::ChunkFile::from_bytes(black_box(d)).ok());
                    }
                })
            },
        );
        g.bench_with_input(BenchmarkId::new("parse", &input.name), files, |b, fs| {
            b.iter(|| {
                for d in fs {
                    black_box(parse(black_box(d)));
                }
            })
        });
        g.bench_with_input(BenchmarkId::new("write", &input.name), &values, |b, vs| {
            b.iter(|| {
                for v in vs {
                    black_box(write(black_box(v)));
                }
            })
        });
    }
    g.finish();
}

/// Criterion's settings for these benches: a short warm-up (the inputs are
/// read from memory, nothing to warm but caches), so that
/// `cargo bench -p benches -- --quick` stays well under two minutes.
pub fn config() -> criterion::Criterion {
    criterion::Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(2))
}
