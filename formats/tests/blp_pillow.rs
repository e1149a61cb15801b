//! Our pixels against an independent decoder, Pillow (PyPI), on every corpus
//! texture: `tests/pillow/blp_decode.py` writes what Pillow decodes, this test
//! compares. `.ci/run` installs Pillow; under `CI=true` a missing Python or
//! Pillow is a failure, elsewhere the test says loudly that it did not run.
//!
//! - BLP1 palette, BLP2 palette: exact (RGB; and alpha where the plugin reads
//!   it the game's way: it takes BLP1 alpha from the palette, not the plane).
//! - BLP1 JPEG: against Pillow's libjpeg-turbo on the same stream, the four
//!   stored channels, within [`JPEG_MAX`] and [`JPEG_MEAN`] (two conforming
//!   decoders' IDCT rounding; measured on the 17 JPEG textures: at most 1 in
//!   every channel, mean 0.0025, 0.0027, 0.0024 for R, G, B and 0.0001 for A);
//!   and against the plugin, whose RGB is ours multiplied by the fourth
//!   channel (the same bound).
//! - DXT: the plugin expands 5- and 6-bit endpoints by a shift (31 -> 248,
//!   where the format's bit replication gives 255), so R and B may differ by
//!   up to 7 and G by up to 3, alpha not at all (measured: exactly that);
//!   exact agreement for DXT and BGRA is checked against the `image-blp` and
//!   `wow-blp` crates (`benches/tests/blp_peers.rs`).
//! - BLP2 BGRA: the plugin does not read it (`Unknown BLP encoding 3`).

mod common;

use std::path::Path;
use std::process::Command;

use formats::blp::{AlphaKind, Blp, Encoding};

/// The largest difference allowed per channel between zune-jpeg and libjpeg-turbo.
const JPEG_MAX: u8 = 1;
/// The largest mean difference allowed per channel over all JPEG textures.
const JPEG_MEAN: f64 = 0.01;

/// True if `python3` can import Pillow; under CI a failure, elsewhere a loud note.
fn pillow_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import PIL.BlpImagePlugin"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("python3 with Pillow is missing: .ci/run installs it (pip install Pillow)");
        }
        eprintln!(
            "\n!!! python3 with Pillow is missing: the Pillow comparison did NOT run \
             (pip install Pillow) !!!\n"
        );
    }
    ok
}

/// Per channel: (largest difference, sum of differences, samples).
#[derive(Default, Clone, Copy, Debug)]
struct Stat {
    max: u8,
    sum: u64,
    n: u64,
}

impl Stat {
    fn add(&mut self, a: u8, b: u8) {
        let d = a.abs_diff(b);
        self.max = self.max.max(d);
        self.sum += u64::from(d);
        self.n += 1;
    }

    fn mean(&self) -> f64 {
        self.sum as f64 / self.n.max(1) as f64
    }
}

fn compare(ours: &[u8], theirs: &[u8], channels: std::ops::Range<usize>, stats: &mut [Stat; 4]) {
    assert_eq!(ours.len(), theirs.len());
    for (a, b) in ours.chunks_exact(4).zip(theirs.chunks_exact(4)) {
        for c in channels.clone() {
            stats[c].add(a[c], b[c]);
        }
    }
}

#[test]
fn pixels_agree_with_pillow_on_every_corpus_texture() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    if !pillow_available() {
        return;
    }
    let out = std::env::temp_dir().join(format!("formats-pillow-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let files = common::blp_files(&root);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pillow/blp_decode.py");
    let run = Command::new("python3")
        .arg(&script)
        .arg(&out)
        .args(files.iter().map(|f| root.join(f)))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let (mut jpeg, mut jpeg_plugin, mut dxt) = (
        [Stat::default(); 4],
        [Stat::default(); 4],
        [Stat::default(); 4],
    );
    let mut exact = 0;
    for file in &files {
        let name = Path::new(file).file_name().unwrap().to_string_lossy();
        let blp = Blp::from_bytes(&std::fs::read(root.join(file)).unwrap()).unwrap();
        let ours = blp.decode_level(0).unwrap();
        let read = |ext: &str| std::fs::read(out.join(format!("{name}.{ext}"))).ok();
        let plugin = read("plugin.rgba");
        let encoding = blp.encoding().unwrap();
        match (encoding, blp.version()) {
            (Encoding::Palette, version) => {
                let plugin = plugin.unwrap_or_else(|| panic!("{file}: the plugin refused it"));
                // BLP1: the plugin's alpha is the palette's unused byte.
                let channels = if version == 1 { 0..3 } else { 0..4 };
                let mut s = [Stat::default(); 4];
                compare(&ours.data, &plugin, channels, &mut s);
                assert!(s.iter().all(|s| s.max == 0), "{file}: {s:?}");
                exact += 1;
            }
            (Encoding::Jpeg, _) => {
                let raw = read("jpeg.rgba").unwrap();
                let channel_is_alpha = matches!(blp.alpha_kind().unwrap(), AlphaKind::JpegChannel)
                    || (matches!(blp.alpha_kind().unwrap(), AlphaKind::FromData(_))
                        && raw.iter().skip(3).step_by(4).any(|&a| a != 0));
                let channels = if channel_is_alpha { 0..4 } else { 0..3 };
                let mut s = [Stat::default(); 4];
                compare(&ours.data, &raw, channels.clone(), &mut s);
                eprintln!(
                    "{file}: JPEG (max, mean) per channel {:?}",
                    s.map(|s| (s.max, s.mean()))
                );
                compare(&ours.data, &raw, channels, &mut jpeg);
                // The plugin: RGB premultiplied by the stored fourth channel, opaque.
                let plugin = plugin.unwrap();
                let premultiplied: Vec<u8> = ours
                    .data
                    .chunks_exact(4)
                    .zip(raw.chunks_exact(4))
                    .flat_map(|(p, r)| {
                        let m = |c: u8| ((u32::from(c) * u32::from(r[3]) + 127) / 255) as u8;
                        [m(p[0]), m(p[1]), m(p[2]), 255]
                    })
                    .collect();
                compare(&premultiplied, &plugin, 0..4, &mut jpeg_plugin);
            }
            (Encoding::Dxt1 | Encoding::Dxt3 | Encoding::Dxt5, _) => {
                let plugin = plugin.unwrap();
                let mut s = [Stat::default(); 4];
                compare(&ours.data, &plugin, 0..4, &mut s);
                eprintln!(
                    "{file}: DXT (max, mean) per channel {:?}",
                    s.map(|s| (s.max, s.mean()))
                );
                compare(&ours.data, &plugin, 0..4, &mut dxt);
            }
            (Encoding::Bgra, _) => {
                assert!(plugin.is_none(), "{file}: the plugin now reads BGRA");
            }
        }
    }
    let show = |s: &[Stat; 4]| s.map(|s| (s.max, (s.mean() * 1e4).round() / 1e4));
    eprintln!("palette: {exact} textures exact");
    eprintln!(
        "JPEG against libjpeg-turbo, (max, mean) for R, G, B, A: {:?}",
        show(&jpeg)
    );
    eprintln!(
        "JPEG against the plugin (premultiplied): {:?}",
        show(&jpeg_plugin)
    );
    eprintln!("DXT against the plugin: {:?}", show(&dxt));
    assert_eq!(exact, 8);
    for s in jpeg.iter().chain(&jpeg_plugin) {
        assert!(
            s.max <= JPEG_MAX && s.mean() <= JPEG_MEAN,
            "{:?}",
            show(&jpeg)
        );
    }
    // The plugin's shifted endpoints: 3 bits short in R and B, 2 in G.
    let shift_error = [7, 3, 7, 0];
    for (s, bound) in dxt.iter().zip(shift_error) {
        assert!(s.max <= bound, "{:?}", show(&dxt));
    }
    assert!(
        jpeg.iter().chain(&dxt).all(|s| s.n > 0),
        "every kind was compared"
    );
    std::fs::remove_dir_all(&out).unwrap();
}
