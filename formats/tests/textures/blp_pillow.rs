//! Our pixels against an independent decoder, Pillow (PyPI), on every level
//! of every corpus texture, and on what we write from them (the PNG of each,
//! each encoded by us in every encoding): `tests/pillow/blp_decode.py` writes
//! what Pillow decodes, these tests compare. Pillow's BLP plugin decodes level
//! 0 only, so the script gives it each level as a one-level BLP (the same
//! header, that level's size and bytes). `.ci/run` installs Pillow; under
//! `CI=true` a missing Python or Pillow is a failure, elsewhere the test says
//! loudly that it did not run.
//!
//! - BLP1 palette, BLP2 palette: exact (RGB; and alpha where the plugin reads
//!   it the game's way: it takes BLP1 alpha from the palette, not the plane).
//! - BLP1 JPEG: against Pillow's libjpeg-turbo on the same stream, the four
//!   stored channels, within [`JPEG_MAX`] and [`JPEG_MEAN`] (two conforming
//!   decoders' IDCT rounding; measured on every level of the 17 JPEG
//!   textures: at most 1 in every channel, mean 0.0028, 0.0029, 0.0026 for
//!   R, G, B and 0.0001 for A); and against the plugin, whose RGB is ours
//!   multiplied by the fourth channel (the same bound). A level whose frame is
//!   larger than the level (a larger level's stream) is compared with the
//!   top-left corner of libjpeg's frame; the plugin fills the level with the
//!   frame's first bytes instead, so it is not compared there.
//! - DXT: exact against Pillow's C BCn decoder (each level's blocks as a DDS
//!   file). The BLP plugin's own Python decoder expands 5- and 6-bit
//!   endpoints by a shift (31 -> 248, where the format's bit replication gives
//!   255), so R and B may differ from it by up to 7 and G by up to 3, alpha
//!   not at all (measured: exactly that); it writes whole 4 x 4 blocks into
//!   its rows, so levels whose sides are not multiples of 4 are not compared
//!   with it.
//! - BLP2 BGRA: the plugin does not read it (`Unknown BLP encoding 3`); exact
//!   against Pillow's raw `BGRA` unpacker.
//!
//! Where the header says a texture is opaque we decode alpha 255, so alpha is
//! compared only where it says there is alpha.

use crate::common;

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

/// Asserts `ours` and `theirs` are equal in `channels`.
fn exact(what: &str, ours: &[u8], theirs: &[u8], channels: std::ops::Range<usize>) {
    let mut s = [Stat::default(); 4];
    compare(ours, theirs, channels, &mut s);
    assert!(s.iter().all(|s| s.max == 0), "{what}: {s:?}");
}

/// The top-left `w` x `h` pixels of an RGBA image `width` pixels wide.
fn corner(rgba: &[u8], width: u32, (w, h): (u32, u32)) -> Vec<u8> {
    let row = 4 * width as usize;
    (0..h as usize)
        .flat_map(|y| &rgba[y * row..y * row + 4 * w as usize])
        .copied()
        .collect()
}

/// What `blp_decode.py` wrote for one level of one texture.
struct Level {
    /// The size it printed: the JPEG frame's, the level's otherwise.
    size: (u32, u32),
    /// The plugin's RGBA, `None` if it refused the one-level file.
    plugin: Option<Vec<u8>>,
    /// JPEG: libjpeg's stored samples.
    jpeg: Option<Vec<u8>>,
    /// DXT: the BCn decoder's RGBA.
    dds: Option<Vec<u8>>,
    /// BGRA: the raw unpacker's RGBA.
    bgra: Option<Vec<u8>>,
}

/// What the comparisons of a set of textures found.
#[derive(Default)]
struct Agreement {
    /// Palette textures, and their levels, the plugin gives exactly.
    palette: (usize, usize),
    /// BGRA textures, and their levels, exact against the raw unpacker (the
    /// plugin refuses them).
    bgra: (usize, usize),
    /// DXT textures, and their levels, exact against the BCn decoder.
    dxt: (usize, usize),
    /// JPEG against libjpeg-turbo, four stored channels.
    jpeg: [Stat; 4],
    /// JPEG against the plugin (premultiplied).
    jpeg_plugin: [Stat; 4],
    /// JPEG levels whose frame is larger than the level: (texture, level).
    jpeg_cropped: Vec<(String, usize)>,
    /// DXT against the plugin.
    dxt_plugin: [Stat; 4],
}

impl Agreement {
    /// Every level of every file (BLP textures) decoded by Pillow
    /// (`tests/pillow/blp_decode.py`) and compared with ours, each encoding by
    /// its rule (module docs).
    fn of(files: &[(String, std::path::PathBuf)]) -> Agreement {
        let paths: Vec<_> = files.iter().map(|(_, path)| path.clone()).collect();
        let run = common::pillow_run("blp_decode.py", &paths);
        let printed: Vec<Vec<&str>> = run.stdout.lines().map(|l| l.split(' ').collect()).collect();
        let mut agreement = Agreement::default();
        for (file, path) in files {
            let name = path.file_name().unwrap().to_string_lossy();
            let blp = Blp::from_bytes(&std::fs::read(path).unwrap()).unwrap();
            let levels: Vec<Level> = (0..blp.levels.len())
                .map(|level| {
                    let line = printed
                        .iter()
                        .find(|l| l[..2] == [&*name, &*level.to_string()])
                        .unwrap_or_else(|| panic!("{file}: blp_decode.py skipped level {level}"));
                    let read = |kind: &str| {
                        std::fs::read(run.out.join(format!("{name}.{level}.{kind}.rgba"))).ok()
                    };
                    Level {
                        size: (line[2].parse().unwrap(), line[3].parse().unwrap()),
                        plugin: read("plugin"),
                        jpeg: read("jpeg"),
                        dds: read("dds"),
                        bgra: read("bgra"),
                    }
                })
                .collect();
            agreement.add(file, &blp, &levels);
        }
        agreement
    }

    /// One texture, every level: ours against what Pillow decoded.
    fn add(&mut self, file: &str, blp: &Blp, levels: &[Level]) {
        let encoding = blp.encoding().unwrap();
        let alpha = blp.alpha_kind().unwrap();
        // Alpha is compared where the header says there is some.
        let channels = if alpha == AlphaKind::None { 0..3 } else { 0..4 };
        let mut jpeg = [Stat::default(); 4];
        for (level, theirs) in levels.iter().enumerate() {
            let what = format!("{file} level {level}");
            let ours = blp.decode_level(level).unwrap();
            let size = (ours.width, ours.height);
            assert_eq!(size, blp.level_size(level), "{what}");
            let plugin = || {
                theirs
                    .plugin
                    .as_deref()
                    .unwrap_or_else(|| panic!("{what}: the plugin refused it"))
            };
            match encoding {
                Encoding::Palette => {
                    // BLP1: the plugin's alpha is the palette's unused byte.
                    let version = blp.version();
                    let channels = if version == 1 { 0..3 } else { channels.clone() };
                    exact(&what, &ours.data, plugin(), channels);
                }
                Encoding::Jpeg => {
                    let raw = theirs.jpeg.as_deref().expect("libjpeg decoded it");
                    let raw = if theirs.size == size {
                        raw.to_vec()
                    } else {
                        self.jpeg_cropped.push((file.to_string(), level));
                        corner(raw, theirs.size.0, size)
                    };
                    let channel_is_alpha = alpha == AlphaKind::JpegChannel
                        || (matches!(alpha, AlphaKind::FromData(_))
                            && raw.iter().skip(3).step_by(4).any(|&a| a != 0));
                    let channels = if channel_is_alpha { 0..4 } else { 0..3 };
                    compare(&ours.data, &raw, channels, &mut jpeg);
                    if theirs.size == size {
                        // The plugin: RGB premultiplied by the stored fourth channel, opaque.
                        let premultiplied: Vec<u8> = ours
                            .data
                            .chunks_exact(4)
                            .zip(raw.chunks_exact(4))
                            .flat_map(|(p, r)| {
                                let m =
                                    |c: u8| ((u32::from(c) * u32::from(r[3]) + 127) / 255) as u8;
                                [m(p[0]), m(p[1]), m(p[2]), 255]
                            })
                            .collect();
                        compare(&premultiplied, plugin(), 0..4, &mut self.jpeg_plugin);
                    }
                }
                Encoding::Dxt1 | Encoding::Dxt3 | Encoding::Dxt5 => {
                    let dds = theirs.dds.as_deref().expect("the BCn decoder decoded it");
                    exact(&format!("{what} (BCn)"), &ours.data, dds, channels.clone());
                    // The plugin writes whole 4 x 4 blocks into its rows: a
                    // level whose sides are not multiples of 4 comes out skewed.
                    if size.0.is_multiple_of(4) && size.1.is_multiple_of(4) {
                        compare(&ours.data, plugin(), channels.clone(), &mut self.dxt_plugin);
                    }
                }
                Encoding::Bgra => {
                    assert!(theirs.plugin.is_none(), "{what}: the plugin now reads BGRA");
                    let bgra = theirs.bgra.as_deref().expect("the raw unpacker read it");
                    exact(&what, &ours.data, bgra, channels.clone());
                }
            }
        }
        let count = match encoding {
            Encoding::Palette => &mut self.palette,
            Encoding::Bgra => &mut self.bgra,
            Encoding::Dxt1 | Encoding::Dxt3 | Encoding::Dxt5 => &mut self.dxt,
            Encoding::Jpeg => {
                eprintln!(
                    "{file}: JPEG, {} levels, (max, mean) per channel {:?}",
                    levels.len(),
                    jpeg.map(|s| (s.max, s.mean()))
                );
                for (all, one) in self.jpeg.iter_mut().zip(jpeg) {
                    all.max = all.max.max(one.max);
                    all.sum += one.sum;
                    all.n += one.n;
                }
                return;
            }
        };
        count.0 += 1;
        count.1 += levels.len();
    }

    /// The bounds of the module docs; every kind compared.
    fn check(&self) {
        let show = |s: &[Stat; 4]| s.map(|s| (s.max, (s.mean() * 1e4).round() / 1e4));
        eprintln!(
            "exact: palette {:?}, DXT (BCn) {:?}, BGRA {:?} (textures, levels)",
            self.palette, self.dxt, self.bgra
        );
        eprintln!(
            "JPEG against libjpeg-turbo, (max, mean) for R, G, B, A: {:?}",
            show(&self.jpeg)
        );
        eprintln!(
            "JPEG against the plugin (premultiplied): {:?}",
            show(&self.jpeg_plugin)
        );
        eprintln!(
            "JPEG levels cropped from a larger frame: {:?}",
            self.jpeg_cropped
        );
        eprintln!("DXT against the plugin: {:?}", show(&self.dxt_plugin));
        for s in self.jpeg.iter().chain(&self.jpeg_plugin) {
            assert!(
                s.max <= JPEG_MAX && s.mean() <= JPEG_MEAN,
                "{:?}",
                show(&self.jpeg)
            );
        }
        // The plugin's shifted endpoints: 3 bits short in R and B, 2 in G.
        let shift_error = [7, 3, 7, 0];
        for (s, bound) in self.dxt_plugin.iter().zip(shift_error) {
            assert!(s.max <= bound, "{:?}", show(&self.dxt_plugin));
        }
        assert!(
            self.jpeg.iter().chain(&self.dxt_plugin).all(|s| s.n > 0),
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
    // BLP_MANIFEST: 8 palette, 14 DXT and 1 BGRA texture, each of every level.
    assert_eq!(agreement.palette, (8, 63));
    assert_eq!(agreement.dxt, (14, 122));
    assert_eq!(agreement.bgra, (1, 10));
    // The two textures that point smaller levels at a larger level's stream.
    let cropped: Vec<String> = agreement
        .jpeg_cropped
        .iter()
        .map(|(file, level)| format!("{file} {level}"))
        .collect();
    let expected: Vec<String> = (2..=6)
        .map(|l| format!("blp/pqw3_DISPASLichKing.blp {l}"))
        .chain((1..=8).map(|l| format!("textures/Textures/SmileyGW.blp {l}")))
        .collect();
    assert_eq!(cropped, expected);
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
/// fit, about 150 µs a block).
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
    assert_eq!(
        agreement.palette.0,
        sources.len(),
        "one palette texture each"
    );
    assert_eq!(agreement.bgra.0, sources.len(), "one BGRA texture each");
    assert_eq!(agreement.dxt.0, 2 * sources.len(), "DXT1 and DXT5 each");
    assert!(
        agreement.jpeg_cropped.is_empty(),
        "we write each level's own frame"
    );
    eprintln!(
        "Pillow read {} PNGs and {} textures we encoded",
        pngs.len(),
        encoded.len()
    );
}

/// The wild textures of `WILD_MANIFEST.md` that Pillow shows and the tools
/// once refused or failed: `dbz_Mummy2.blp` (mip levels past its end; read
/// leniently) and `dbz_Android15.blp` (a ninth level that does not decode).
/// Our level 0 of each against Pillow's plugin on the whole file (which
/// decodes level 0 only): its RGB is ours multiplied by the fourth channel,
/// opaque, within the JPEG bound of the module docs (the mean: of one
/// texture, not of all).
#[test]
fn level_0_of_the_wild_textures_agrees_with_pillow() {
    let names = ["dbz_Mummy2.blp", "dbz_Android15.blp"];
    let Some(paths) = names
        .iter()
        .map(|name| common::wild_path(name))
        .collect::<Option<Vec<_>>>()
    else {
        return;
    };
    let Some(images) = common::pillow_read(&paths) else {
        return;
    };
    for ((name, path), theirs) in names.iter().zip(&paths).zip(&images) {
        let data = std::fs::read(path).unwrap();
        let blp = Blp::from_bytes(&data)
            .or_else(|_| Blp::from_bytes_lenient(&data).map(|(blp, _)| blp))
            .unwrap();
        assert_eq!(blp.encoding().unwrap(), Encoding::Jpeg, "{name}");
        let ours = blp.decode_level(0).unwrap();
        assert_eq!(theirs.mode, "RGBA", "{name}");
        assert_eq!(theirs.size, (128, 128), "{name}");
        assert_eq!((ours.width, ours.height), (128, 128), "{name}");
        let premultiplied: Vec<u8> = ours
            .data
            .chunks_exact(4)
            .flat_map(|p| {
                let m = |c: u8| ((u32::from(c) * u32::from(p[3]) + 127) / 255) as u8;
                [m(p[0]), m(p[1]), m(p[2]), 255]
            })
            .collect();
        let mut stats = [Stat::default(); 4];
        compare(&premultiplied, &theirs.bytes, 0..4, &mut stats);
        eprintln!(
            "{name}: level 0 against Pillow, (max, mean) per channel {:?}",
            stats.map(|s| (s.max, s.mean()))
        );
        // One texture's mean, not all of them (measured: at most 0.0050 for
        // Mummy2, 0.0099 for Android15): twice the corpus-wide bound.
        for s in &stats {
            assert!(
                s.max <= JPEG_MAX && s.mean() <= 2.0 * JPEG_MEAN,
                "{name}: {stats:?}"
            );
        }
    }
}

/// Where the frame header (SOF0) of a JPEG stream starts, by walking its
/// marker segments from SOI.
fn frame_start(stream: &[u8]) -> usize {
    let mut at = 2;
    while stream[at + 1] != 0xc0 {
        at += 2 + usize::from(u16::from_be_bytes([stream[at + 2], stream[at + 3]]));
    }
    at
}

/// A BLP1 JPEG laid out as two public files are (`SpiritHealerBlue.blp`,
/// written by the Intel JPEG Library 1.5.4): the shared header a whole
/// tables-only stream (SOI, tables, EOI), each level a stream of its own
/// (SOI, frame, scan, EOI). Built here from one our encoder wrote: every
/// level decodes to the pixels of the plain layout, and level 0 agrees with
/// Pillow, which decodes such files.
#[test]
fn a_jpeg_header_that_is_a_whole_tables_only_stream_decodes() {
    let pixels: Vec<u8> = (0..32 * 32u32)
        .flat_map(|i| [(i % 32) as u8 * 8, (i / 32) as u8 * 8, 96, 255])
        .collect();
    let image = RgbaImage::new(32, 32, pixels).unwrap();
    let plain = Blp::encode(&image, Target::Blp1Jpeg).unwrap();
    let header = plain.jpeg_header.clone().unwrap();
    let streams: Vec<Vec<u8>> = plain
        .levels
        .iter()
        .map(|l| [&header[..], l].concat())
        .collect();
    let at = frame_start(&streams[0]);
    let tables = &streams[0][..at];
    assert!(streams.iter().all(|s| s[..frame_start(s)] == *tables));
    let mut quirk = plain.clone();
    quirk.jpeg_header = Some([tables, &[0xff, 0xd9]].concat());
    quirk.levels = streams
        .iter()
        .map(|s| [&[0xff, 0xd8], &s[at..]].concat())
        .collect();
    let bytes = quirk.to_bytes().unwrap();
    let quirk = Blp::from_bytes(&bytes).unwrap();
    for level in 0..plain.levels.len() {
        assert_eq!(
            quirk.decode_level(level).unwrap(),
            plain.decode_level(level).unwrap(),
            "level {level}"
        );
    }
    if !common::pillow_available() {
        return;
    }
    let dir = common::temp_dir("tables-only-header");
    let path = dir.join("tables_only.blp");
    std::fs::write(&path, &bytes).unwrap();
    let theirs = common::pillow_read(std::slice::from_ref(&path)).unwrap();
    let ours = quirk.decode_level(0).unwrap();
    assert_eq!(theirs[0].size, (32, 32));
    // Opaque (alphaBits 0): Pillow gives RGB.
    assert_eq!(theirs[0].mode, "RGB");
    let rgba: Vec<u8> = theirs[0]
        .bytes
        .chunks_exact(3)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let mut stats = [Stat::default(); 4];
    compare(&ours.data, &rgba, 0..4, &mut stats);
    assert!(stats.iter().all(|s| s.max <= JPEG_MAX), "{stats:?}");
}

/// The sample texture (`formats::sample::sample_blp`, written byte by byte
/// and shipped in the sample archive) is a BLP Pillow reads to the same
/// pixels.
#[test]
fn pillow_reads_the_sample_texture() {
    let dir = common::temp_dir("pillow-sample-blp");
    let path = dir.join("Sample.blp");
    std::fs::write(&path, formats::sample::sample_blp()).unwrap();
    let Some(images) = common::pillow_read(std::slice::from_ref(&path)) else {
        return;
    };
    let ours = Blp::from_bytes(&formats::sample::sample_blp())
        .unwrap()
        .decode_level(0)
        .unwrap();
    assert_eq!(images[0].size, (4, 4));
    let theirs = match images[0].mode.as_str() {
        "RGBA" => images[0].bytes.clone(),
        "RGB" => images[0]
            .bytes
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        mode => panic!("Pillow read the sample as {mode}"),
    };
    assert_eq!(ours.data, theirs);
    // Stone grey: palette entry 0 is B 0x70, G 0x80, R 0x90.
    assert_eq!(&ours.data[..4], &[0x90, 0x80, 0x70, 0xff]);
}
