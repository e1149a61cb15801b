//! Our readers next to their peers, on the same bytes: MDX against an
//! idiomatic `binrw` reader (`peers/binrw_mdx.rs`) and against the `wc3`
//! crate (every corpus model), and ADT against the `wow-adt` crate. Each input
//! also gets a copy of its bytes (`to_vec`, the ceiling). `tests/peers.rs` and
//! `tests/wc3_peer.rs` check that each peer reads the same data as ours.
//!
//! `cargo bench -p benches --bench peers` (add `-- --quick` for a fast pass;
//! a group's name after `--` runs that group alone, e.g. `-- mdx_vs_wc3`).

mod common;

#[path = "peers/binrw_mdx.rs"]
mod binrw_mdx;

use std::hint::black_box;

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use formats::adt::Adt;
use formats::mdx::Model;

/// `copy (to_vec)` of one input: what any reader that owns its data pays at least.
fn copy_row(g: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>, name: &str, data: &[u8]) {
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.bench_with_input(BenchmarkId::new("copy (to_vec)", name), data, |b, d| {
        b.iter(|| black_box(black_box(d).to_vec()))
    });
}

/// The v800 geometry subsets (VERS SEQS GEOS BONE) of the generated model and
/// of the three largest v800 corpus models: both readers get identical bytes.
fn mdx_inputs() -> Vec<(String, Vec<u8>)> {
    let mut inputs = Vec::new();
    if let Some(subset) = benches::geometry_subset(&benches::generated_mdx(16, 120, 1500)) {
        inputs.push(("generated (1M vertices) subset".to_string(), subset));
    }
    inputs.extend(
        benches::largest_corpus_files("mdx", ".mdx", usize::MAX)
            .into_iter()
            .filter_map(|(name, data)| {
                Some((format!("{name} subset"), benches::geometry_subset(&data)?))
            })
            .take(3),
    );
    inputs
}

/// One MDX group: per input our strict reader reads, the copy, ours, and
/// `peer`'s `read` (an input the peer refuses has no peer row, said on stderr).
fn mdx_against<T, E: std::fmt::Display>(
    c: &mut Criterion,
    group: &str,
    inputs: &[(String, Vec<u8>)],
    peer: &str,
    read: fn(&[u8]) -> Result<T, E>,
) {
    let mut g = c.benchmark_group(group);
    for (name, data) in inputs {
        if let Err(e) = Model::from_bytes(data) {
            eprintln!("{group}: formats refuses {name}, left out: {e}");
            continue;
        }
        copy_row(&mut g, name, data);
        g.bench_with_input(BenchmarkId::new("parse (formats)", name), data, |b, d| {
            b.iter(|| black_box(Model::from_bytes(black_box(d)).ok()))
        });
        match read(data) {
            Ok(_) => {
                let id = BenchmarkId::new(format!("parse ({peer})"), name);
                g.bench_with_input(id, data, |b, d| {
                    b.iter(|| black_box(read(black_box(d)).ok()))
                });
            }
            Err(e) => eprintln!("{group}: {peer} refuses {name}, no {peer} row: {e}"),
        }
    }
    g.finish();
}

fn mdx_vs_binrw(c: &mut Criterion) {
    mdx_against(c, "mdx_vs_binrw", &mdx_inputs(), "binrw", binrw_mdx::read);
}

/// `wc3`'s read of a whole file: the version from `VERS` (800 without one, as
/// ours), then every chunk decoded into its typed model.
fn wc3_parse(data: &[u8]) -> Result<wc3::model::DynamicModel, wc3::model::mdx::ReadError> {
    wc3::model::DynamicModel::decode_mdx(data, 800)
}

/// Every corpus model, whole, read by ours (strictly) and by `wc3`. A model
/// `wc3` refuses keeps its copy and ours rows.
fn mdx_vs_wc3(c: &mut Criterion) {
    let models = benches::corpus_files("mdx", ".mdx");
    mdx_against(c, "mdx_vs_wc3", &models, "wc3", wc3_parse);
}

/// Every corpus model through the view, against a copy in the same run:
/// opening it (the chunk walk), and reading every vertex position of every
/// geoset through it (open, find `GEOS`, view each geoset, decode each
/// position into a `Vec`), against copying just those positions' bytes.
/// `wc3`'s and our owned parse are in `mdx_vs_wc3`, a copy in each.
fn mdx_views(c: &mut Criterion) {
    let mut g = c.benchmark_group("mdx_views");
    for (name, data) in benches::corpus_files("mdx", ".mdx") {
        let Ok(view) = Model::view(&data) else {
            eprintln!("mdx_views: {name} is not strictly readable, left out");
            continue;
        };
        copy_row(&mut g, &name, &data);
        g.bench_with_input(BenchmarkId::new("view open", &name), &data, |b, d| {
            b.iter(|| black_box(Model::view(black_box(d)).ok()))
        });
        let positions: Vec<&[u8]> = view
            .geosets()
            .map(|list| list.iter().map(|g| g.vertex_positions.as_bytes()).collect())
            .unwrap_or_default();
        if positions.iter().all(|p| p.is_empty()) {
            continue;
        }
        g.bench_with_input(
            BenchmarkId::new("copy positions", &name),
            &positions,
            |b, p| {
                b.iter(|| black_box(p.iter().map(|p| black_box(p).to_vec()).collect::<Vec<_>>()))
            },
        );
        g.bench_with_input(BenchmarkId::new("view positions", &name), &data, |b, d| {
            b.iter(|| {
                let view = Model::view(black_box(d)).ok()?;
                let geosets = view.geosets().ok()?;
                Some(black_box(
                    geosets
                        .iter()
                        .map(|g| g.vertex_positions.to_vec())
                        .collect::<Vec<_>>(),
                ))
            })
        });
    }
    g.finish();
}

fn wow_adt_parse(data: &[u8]) -> Result<wow_adt::ParsedAdt, wow_adt::AdtError> {
    wow_adt::parse_adt(&mut std::io::Cursor::new(data))
}

fn adt_vs_wow_adt(c: &mut Criterion) {
    let mut g = c.benchmark_group("adt_vs_wow_adt");
    for (name, data) in &benches::largest_corpus_files("adt", ".adt", 3) {
        let ours = match Adt::from_bytes(data) {
            Ok(adt) => adt,
            Err(e) => {
                eprintln!("adt_vs_wow_adt: formats refuses {name}, left out: {e}");
                continue;
            }
        };
        copy_row(&mut g, name, data);
        g.bench_with_input(BenchmarkId::new("parse (formats)", name), data, |b, d| {
            b.iter(|| black_box(Adt::from_bytes(black_box(d)).ok()))
        });
        let theirs = match wow_adt_parse(data) {
            Ok(wow_adt::ParsedAdt::Root(root)) => Some(*root),
            Ok(other) => {
                eprintln!(
                    "adt_vs_wow_adt: wow-adt reads {name} as {:?}, no wow-adt rows",
                    other.file_type()
                );
                None
            }
            Err(e) => {
                eprintln!("adt_vs_wow_adt: wow-adt fails on {name}, no wow-adt rows: {e}");
                None
            }
        };
        if theirs.is_some() {
            g.bench_with_input(BenchmarkId::new("parse (wow-adt)", name), data, |b, d| {
                b.iter(|| black_box(wow_adt_parse(black_box(d)).ok()))
            });
        }
        g.bench_with_input(
            BenchmarkId::new("write (formats)", name),
            &ours,
            |b, adt| b.iter(|| black_box(adt.to_bytes().ok())),
        );
        // wow-adt writes through its builder: `BuiltAdt::from_root_adt` (done
        // once, like our parse) then `to_bytes`, as its README shows.
        if let Some(root) = theirs {
            let built = wow_adt::builder::BuiltAdt::from_root_adt(root, None);
            match built.to_bytes() {
                Ok(_) => {
                    g.bench_with_input(
                        BenchmarkId::new("write (wow-adt)", name),
                        &built,
                        |b, built| b.iter(|| black_box(built.to_bytes().ok())),
                    );
                }
                Err(e) => eprintln!("adt_vs_wow_adt: wow-adt cannot write {name}: {e}"),
            }
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = mdx_vs_binrw, mdx_vs_wc3, mdx_views, adt_vs_wow_adt
}
criterion_main!(benches);
