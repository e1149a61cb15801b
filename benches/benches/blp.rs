//! BLP textures: level 0 decoded to RGBA8 from the file's bytes, by us and by
//! the `image-blp`, `wow-blp` and `wc3` crates on the same bytes, one or two
//! corpus textures per encoding. Throughput is the RGBA output; the `copy (to_vec)`
//! row copies that output (the floor). `tests/blp_peers.rs` checks that the
//! peers decode the same pixels.
//!
//! `cargo bench -p benches --bench blp` (add `-- --quick` for a fast pass).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use formats::blp::Blp;

/// One or two textures per encoding (paths in the corpus).
const INPUTS: [&str; 11] = [
    "blp/dbz_puipui.blp",
    "textures/BoatTC.blp",
    "textures/Models/FrozenThrone/ce_arthas_side.blp",
    "blp/dbz_GutsArm.blp",
    "textures/Goods01_D.blp",
    "blp/twinpeaks_mm_irnfg_floor_01.blp",
    "blp/twinpeaks_mm_mnstry_floor_05.blp",
    "blp/twinpeaks_Gilneas_CornBramble_01.blp",
    "blp/twinpeaks_mm_strmwnd_int_floor_02_no_alpha.blp",
    "blp/twinpeaks_TwilightHighlands_Bush04.blp",
    "blp/twinpeaks_Stratholme_Smoke_01.blp",
];

/// A decoder of level 0 to RGBA8, from the file's bytes.
type Decoder = fn(&[u8]) -> Option<Vec<u8>>;

fn ours(data: &[u8]) -> Option<Vec<u8>> {
    let blp = Blp::from_bytes(data).ok()?;
    blp.decode_level(0).ok().map(|image| image.data)
}

fn image_blp(data: &[u8]) -> Option<Vec<u8>> {
    let blp = image_blp::parser::load_blp_from_buf(data).ok()?;
    let image = image_blp::convert::blp_to_image(&blp, 0).ok()?;
    Some(image.into_rgba8().into_raw())
}

fn wow_blp(data: &[u8]) -> Option<Vec<u8>> {
    let blp = wow_blp::parser::load_blp_from_buf(data).ok()?;
    let image = wow_blp::convert::blp_to_image(&blp, 0).ok()?;
    Some(image.into_rgba8().into_raw())
}

fn wc3(data: &[u8]) -> Option<Vec<u8>> {
    let blp = wc3::blp::BlpRef::read(data).ok()?;
    Some(blp.decode_mip(0).ok()?.into_raw())
}

fn blp_decode(c: &mut Criterion) {
    let files = benches::blp_corpus_files();
    let mut g = c.benchmark_group("blp_decode_level0");
    for path in INPUTS {
        let Some((_, data)) = files.iter().find(|(name, _)| name == path) else {
            eprintln!("blp_decode_level0: {path} is not in the corpus, left out");
            continue;
        };
        let Some(pixels) = ours(data) else {
            eprintln!("blp_decode_level0: formats does not decode {path}, left out");
            continue;
        };
        let blp = Blp::from_bytes(data).ok();
        let encoding = blp
            .and_then(|b| Some(format!("BLP{} {}", b.version(), b.encoding().ok()?.name())))
            .unwrap_or_default();
        let file = path.rsplit('/').next().unwrap_or(path);
        let name = format!("{encoding}: {file}");
        g.throughput(Throughput::Bytes(pixels.len() as u64));
        g.bench_with_input(BenchmarkId::new("copy (to_vec)", &name), &pixels, |b, p| {
            b.iter(|| black_box(black_box(p).to_vec()))
        });
        let peers: [(&str, Decoder); 4] = [
            ("decode (formats)", ours),
            ("decode (image-blp)", image_blp),
            ("decode (wow-blp)", wow_blp),
            ("decode (wc3)", wc3),
        ];
        for (function, decode) in peers {
            if decode(data).is_none() {
                eprintln!("blp_decode_level0: {function} fails on {path}, no row");
                continue;
            }
            g.bench_with_input(BenchmarkId::new(function, &name), data, |b, d| {
                b.iter(|| black_box(decode(black_box(d))))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, blp_decode);
criterion_main!(benches);
