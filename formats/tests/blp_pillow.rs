//! Our pixels against an independent decoder, Pillow (PyPI), on every corpus
//! texture, and on what we write from them (the PNG of each, each encoded by
//! us in every encoding): `tests/pillow/blp_decode.py` writes what Pillow
//! decodes, these tests compare. `.ci/run` installs Pillow; under `CI=true` a missing Python or
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

use formats::blp::{AlphaKind, Blp, Encoding, RgbaImage, Target};

/// The largest difference allowed per channel between zune-jpeg and libjpeg-turbo.
const JPEG_MAX: u8 = 1;
/// The largest mean difference allowed per channel over all JPEG textures.
const JPEG_MEAN: f64 = 0.01;

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

/// What the comparisons of a set of textures found.
#[derive(Default)]
struct Agreement {
    /// Palette textures whose pixels the plugin gives exactly.
    exact: usize,
    /// BGRA textures (the plugin refuses them).
    bgra: usize,
    /// JPEG against libjpeg-turbo, four stored channels.
    jpeg: [Stat; 4],
    /// JPEG against the plugin (premultiplied).
    jpeg_plugin: [Stat; 4],
    /// DXT against the plugin.
    dxt: [Stat; 4],
}

impl Agreement {
    /// Every file (BLP textures) decoded by Pillow (`tests/pillow/blp_decode.py`)
    /// and compared with ours, each encoding by its rule (module docs).
    fn of(files: &[(String, std::path::PathBuf)]) -> Agreement {
        let paths: Vec<_> = files.iter().map(|(_, path)| path.clone()).collect();
        let run = common::pillow_run("blp_decode.py", &paths);
        let mut agreement = Agreement::default();
        for (file, path) in files {
            let name = path.file_name().unwrap().to_string_lossy();
            let blp = Blp::from_bytes(&std::fs::read(path).unwrap()).unwrap();
            let read = |ext: &str| std::fs::read(run.out.join(format!("{name}.{ext}"))).ok();
            agreement.add(file, &blp, read("plugin.rgba"), read("jpeg.rgba"));
        }
        agreement
    }

    /// One texture: ours against the plugin's pixels (`plugin`) and, for
    /// JPEG, libjpeg-turbo's samples of the stream (`raw`).
    fn add(&mut self, file: &str, blp: &Blp, plugin: Option<Vec<u8>>, raw: Option<Vec<u8>>) {
        let ours = blp.decode_level(0).unwrap();
        match (blp.encoding().unwrap(), blp.version()) {
            (Encoding::Palette, version) => {
                let plugin = plugin.unwrap_or_else(|| panic!("{file}: the plugin refused it"));
                // BLP1: the plugin's alpha is the palette's unused byte.
                let channels = if version == 1 { 0..3 } else { 0..4 };
                let mut s = [Stat::default(); 4];
                compare(&ours.data, &plugin, channels, &mut s);
                assert!(s.iter().all(|s| s.max == 0), "{file}: {s:?}");
                self.exact += 1;
            }
            (Encoding::Jpeg, _) => {
                let raw = raw.unwrap_or_else(|| panic!("{file}: libjpeg did not decode it"));
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
                compare(&ours.data, &raw, channels, &mut self.jpeg);
                // The plugin: RGB premultiplied by the stored fourth channel, opaque.
                let plugin = plugin.unwrap_or_else(|| panic!("{file}: the plugin refused it"));
                let premultiplied: Vec<u8> = ours
                    .data
                    .chunks_exact(4)
                    .zip(raw.chunks_exact(4))
                    .flat_map(|(p, r)| {
                        let m = |c: u8| ((u32::from(c) * u32::from(r[3]) + 127) / 255) as u8;
                        [m(p[0]), m(p[1]), m(p[2]), 255]
                    })
                    .collect();
                compare(&premultiplied, &plugin, 0..4, &mut self.jpeg_plugin);
            }
            (Encoding::Dxt1 | Encoding::Dxt3 | Encoding::Dxt5, _) => {
                let plugin = plugin.unwrap_or_else(|| panic!("{file}: the plugin refused it"));
                let mut s = [Stat::default(); 4];
                compare(&ours.data, &plugin, 0..4, &mut s);
                eprintln!(
                    "{file}: DXT (max, mean) per channel {:?}",
                    s.map(|s| (s.max, s.mean()))
                );
                compare(&ours.data, &plugin, 0..4, &mut self.dxt);
            }
            (Encoding::Bgra, _) => {
                assert!(plugin.is_none(), "{file}: the plugin now reads BGRA");
                self.bgra += 1;
            }
        }
    }

    /// The bounds of the module docs; every kind compared.
    fn check(&self) {
        let show = |s: &[Stat; 4]| s.map(|s| (s.max, (s.mean() * 1e4).round() / 1e4));
        eprintln!("palette: {} textures exact", self.exact);
        eprintln!(
            "JPEG against libjpeg-turbo, (max, mean) for R, G, B, A: {:?}",
            show(&self.jpeg)
        );
        eprintln!(
            "JPEG against the plugin (premultiplied): {:?}",
            show(&self.jpeg_plugin)
        );
        eprintln!("DXT against the plugin: {:?}", show(&self.dxt));
        for s in self.jpeg.iter().chain(&self.jpeg_plugin) {
            assert!(
                s.max <= JPEG_MAX && s.mean() <= JPEG_MEAN,
                "{:?}",
                show(&self.jpeg)
            );
        }
        // The plugin's shifted endpoints: 3 bits short in R and B, 2 in G.
        let shift_error = [7, 3, 7, 0];
        for (s, bound) in self.dxt.iter().zip(shift_error) {
            assert!(s.max <= bound, "{:?}", show(&self.dxt));
        }
        assert!(
            self.jpeg.iter().chain(&self.dxt).all(|s| s.n > 0),
            "every kind was compared"
        );
    }
}

#[test]
fn pixels_agree_with_pillow_on_every_corpus_texture() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    if !common::pillow_available() {
        return;
    }
    let files: Vec<_> = common::blp_files(&root)
        .into_iter()
        .map(|file| {
            let path = root.join(&file);
            (file, path)
        })
        .collect();
    let agreement = Agreement::of(&files);
    agreement.check();
    assert_eq!(agreement.exact, 8);
}

/// The largest level of `blp` with both sides at most `side` (level 0 of a
/// small texture), decoded.
fn level_within(blp: &Blp, side: u32) -> RgbaImage {
    let level = (0..blp.levels.len())
        .find(|&l| {
            let (w, h) = blp.level_size(l);
            w.max(h) <= side
        })
        .unwrap_or(blp.levels.len() - 1);
    blp.decode_level(level).unwrap()
}

/// What we write for other tools, read by Pillow: every corpus texture as
/// the PNG `formats convert x.blp x.png` writes (exactly our pixels), and
/// encoded by us in every encoding (`formats convert x.png x.blp`), judged
/// by the rules the corpus textures are. The source of each encoding is the
/// texture's largest level of at most 64 x 64, so that the 40 textures
/// times 5 encodings stay quick in a debug build (DXT is encoded by cluster
/// fit, about 150 µs a block); BGRA, which the plugin
/// refuses, is checked against `image-blp` and `wow-blp`
/// (`benches/tests/blp_peers.rs`).
#[test]
fn pillow_reads_the_pngs_and_textures_we_write() {
    let Some(root) = common::corpus_root() else {
        return;
    };
    if !common::pillow_available() {
        return;
    }
    let out = common::temp_dir("pillow-ours");
    let mut pngs = Vec::new();
    let mut sources = Vec::new();
    let mut encoded = Vec::new();
    for (i, file) in common::blp_files(&root).iter().enumerate() {
        let blp = Blp::from_bytes(&std::fs::read(root.join(file)).unwrap()).unwrap();
        let level0 = blp.decode_level(0).unwrap();
        let png = out.join(format!("{i}.png"));
        std::fs::write(&png, level0.to_png().unwrap()).unwrap();
        pngs.push((file.clone(), png, level0));
        let source = level_within(&blp, 64);
        for (target, name) in Target::ALL {
            let path = out.join(format!("{i}.{name}.blp"));
            let bytes = Blp::encode(&source, target).unwrap().to_bytes().unwrap();
            std::fs::write(&path, bytes).unwrap();
            encoded.push((format!("{file} as {name}"), path));
        }
        sources.push(source);
    }
    let paths: Vec<_> = pngs.iter().map(|(_, path, _)| path.clone()).collect();
    let images = common::pillow_read(&paths).unwrap();
    for ((file, _, ours), theirs) in pngs.iter().zip(&images) {
        assert_eq!(theirs.mode, "RGBA", "{file}");
        assert_eq!(
            theirs.size,
            (ours.width as usize, ours.height as usize),
            "{file}"
        );
        assert!(
            theirs.bytes == ours.data,
            "{file}: Pillow reads other pixels"
        );
    }
    let agreement = Agreement::of(&encoded);
    agreement.check();
    assert_eq!(agreement.exact, sources.len(), "one palette texture each");
    assert_eq!(agreement.bgra, sources.len(), "one BGRA texture each");
    eprintln!(
        "Pillow read {} PNGs and {} textures we encoded",
        pngs.len(),
        encoded.len()
    );
    std::fs::remove_dir_all(&out).unwrap();
}
