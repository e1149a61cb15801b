//! A loop to put under a profiler: parse (or write) one file many times.
//!
//! ```sh
//! cargo build --profile bench -p benches --example profile
//! perf record -g target/release/examples/profile mdx-parse FILE 2000
//! valgrind --tool=callgrind target/release/examples/profile adt-parse FILE 20
//! ```

use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, what, path, times] = &args[..] else {
        eprintln!(
            "usage: profile (mdx|adt)-(parse|write) FILE TIMES | profile wc3-parse FILE TIMES | profile mdx-subset FILE OUT"
        );
        std::process::exit(2);
    };
    let data = std::fs::read(path).expect("read the file");
    let count = || -> usize { times.parse().expect("TIMES is a number") };
    match what.as_str() {
        "mdx-parse" => {
            for _ in 0..count() {
                black_box(formats::mdx::Model::from_bytes(black_box(&data)).expect("parse"));
            }
        }
        "wc3-parse" => {
            // The peer of the `mdx_vs_wc3` bench, for the same profilers.
            for _ in 0..count() {
                black_box(
                    wc3::model::DynamicModel::decode_mdx(black_box(&data), 800).expect("parse"),
                );
            }
        }
        "mdx-write" => {
            let model = formats::mdx::Model::from_bytes(&data).expect("parse");
            for _ in 0..count() {
                black_box(black_box(&model).to_bytes().expect("write"));
            }
        }
        "adt-parse" => {
            for _ in 0..count() {
                black_box(formats::adt::Adt::from_bytes(black_box(&data)).expect("parse"));
            }
        }
        "adt-write" => {
            let adt = formats::adt::Adt::from_bytes(&data).expect("parse");
            for _ in 0..count() {
                black_box(black_box(&adt).to_bytes().expect("write"));
            }
        }
        "mdx-subset" => {
            // Writes the v800 geometry subset the binrw peer reads to TIMES (a path).
            let subset = benches::geometry_subset(&data).expect("a v800 model");
            std::fs::write(times, subset).expect("write the subset");
        }
        other => {
            eprintln!("unknown job {other}");
            std::process::exit(2);
        }
    }
}
