//! `formats::dds` against Pillow (PyPI), an encoder and a decoder nobody here
//! wrote: `tests/pillow/dds_write.py` writes one 37 x 21 pattern (sides not
//! multiples of 4, every alpha) as DDS in each pixel format Pillow writes
//! (BC1, BC2, BC3, BC5 in a DX10 header, uncompressed RGBA, RGB, L and LA)
//! and random BC7 blocks (every mode), Pillow reads each back, and our
//! decode of level 0 must give Pillow's pixels: exactly, BC blocks included
//! (texpresso's arithmetic and Pillow's C BCn decoder agree, as on BLP's DXT
//! levels; so do bcdec's BC7 and Pillow's). Every file also reads and
//! writes back byte for byte. Reforged textures are DDS: the glTF export
//! finds `X.dds` for a model's `X.tif` or `X.blp` (`cli_export.rs`).

use crate::common;

use formats::dds::{Dds, PixelFormat};

/// Pillow's pixels of `image` as R, G, B, A.
fn pillow_rgba(image: &common::PillowImage) -> Vec<u8> {
    let bytes = &image.bytes;
    match image.mode.as_str() {
        "RGBA" => bytes.clone(),
        "RGB" => bytes
            .chunks_exact(3)
            .flat_map(|p| [p[0], p[1], p[2], 255])
            .collect(),
        "L" => bytes.iter().flat_map(|&l| [l, l, l, 255]).collect(),
        "LA" => bytes
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0], p[1]])
            .collect(),
        other => panic!("Pillow mode {other}"),
    }
}

#[test]
fn every_format_pillow_writes_decodes_to_pillows_pixels() {
    if !common::pillow_available() {
        return;
    }
    let written = common::pillow_run("dds_write.py", &[]);
    let names: Vec<&str> = written.stdout.lines().collect();
    assert_eq!(names.len(), 9, "{names:?}");
    let files: Vec<_> = names
        .iter()
        .map(|name| written.out.join(format!("{name}.dds")))
        .collect();
    let pillow = common::pillow_read(&files).expect("Pillow is there");
    let mut formats_seen = Vec::new();
    for ((name, file), theirs) in names.iter().zip(&files).zip(&pillow) {
        let bytes = std::fs::read(file).unwrap();
        let dds = Dds::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(dds.to_bytes().unwrap(), bytes, "{name}: not byte-exact");
        formats_seen.push(dds.pixel_format().unwrap());
        let ours = dds
            .decode_level(0)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((ours.width, ours.height), (37, 21), "{name}");
        assert_eq!(theirs.size, (37, 21), "{name}");
        let theirs = pillow_rgba(theirs);
        let differ = ours
            .data
            .iter()
            .zip(&theirs)
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(differ, 0, "{name}: {differ} bytes differ from Pillow's");
    }
    for format in [
        PixelFormat::Bc1,
        PixelFormat::Bc2,
        PixelFormat::Bc3,
        PixelFormat::Bc5,
        PixelFormat::Bc7,
    ] {
        assert!(formats_seen.contains(&format), "{format:?} not written");
    }
}

/// A DDS header whose fields do not add up is an error with the offset, and
/// no pixel buffer is allocated for what the header claims.
#[test]
fn bad_headers_are_refused_before_decoding() {
    let good = formats::dds::tiny_dds_rgba();
    // 65535 x 65535 with 8 bytes of pixels: refused by size.
    let mut huge = good.clone();
    huge[12..16].copy_from_slice(&65535u32.to_le_bytes());
    huge[16..20].copy_from_slice(&65535u32.to_le_bytes());
    let err = Dds::from_bytes(&huge).unwrap().decode_level(0).unwrap_err();
    assert!(err.to_string().contains("65535x65535"), "{err}");
    // 4096 x 4096 (allowed) with 8 bytes: refused by the bytes there are.
    let mut short = good.clone();
    short[12..16].copy_from_slice(&4096u32.to_le_bytes());
    short[16..20].copy_from_slice(&4096u32.to_le_bytes());
    let err = Dds::from_bytes(&short)
        .unwrap()
        .decode_level(0)
        .unwrap_err();
    assert!(
        err.to_string().contains("67108864 bytes needed, 8 there"),
        "{err}"
    );
    // BC6H (a DX10 header with DXGI format 95: HDR): said by name.
    let mut bc6 = good[..128].to_vec();
    bc6[80..84].copy_from_slice(&4u32.to_le_bytes());
    bc6[84..88].copy_from_slice(b"DX10");
    for v in [95u32, 3, 0, 1, 0] {
        bc6.extend_from_slice(&v.to_le_bytes());
    }
    bc6.extend_from_slice(&[0; 16]);
    let dds = Dds::from_bytes(&bc6).unwrap();
    assert_eq!(dds.to_bytes().unwrap(), bc6);
    let err = dds.decode_level(0).unwrap_err();
    assert!(
        err.to_string().contains("BC6H, which is not decoded"),
        "{err}"
    );
    // Cut inside the header; not a DDS at all.
    assert!(Dds::from_bytes(&good[..100]).is_err());
    let err = Dds::from_bytes(b"BLP2....").unwrap_err();
    assert!(err.to_string().contains("not a DDS texture"), "{err}");
}

/// A `width` x `height` image of smooth colour with some detail (a few
/// levels a pixel, as painted skins are), and with `alpha` an alpha ramp.
fn painted(width: u32, height: u32, alpha: bool) -> formats::blp::RgbaImage {
    let data = (0..width * height)
        .flat_map(|i| {
            let (x, y) = (i % width, i / width);
            let wave = ((x * 7 + y * 3) % 11) as u8;
            let a = if alpha {
                (x * 255 / (width - 1)) as u8
            } else {
                255
            };
            [(40 + x * 4) as u8 + wave, (30 + y * 5) as u8, 200 - wave, a]
        })
        .collect();
    formats::blp::RgbaImage::new(width, height, data).unwrap()
}

/// What `Dds::encode` writes, read by Pillow (its DDS plugin and C BCn
/// decoder, nobody here wrote either): BC1 (`DXT1`), BC3 (`DXT5`) and BC5
/// (`ATI2`, a normal map's X and Y) of a 37 x 21 image. Pillow's pixels
/// are ours exactly (the blocks decode alike, as above), at every level
/// Pillow reads: level 0. Against the image encoded, the stated error:
/// within 12 levels in each colour channel stored (8 in alpha), colour
/// compared where alpha is at least 64 (BC3 fits colour weighted by alpha).
#[test]
fn what_we_encode_pillow_decodes_as_we_do() {
    use formats::dds::Target;
    let out = common::temp_dir("dds-encode-pillow");
    let cases = [
        (Target::Bc1, painted(37, 21, false)),
        (Target::Bc3, painted(37, 21, true)),
        (Target::Bc5, painted(37, 21, false)),
    ];
    let mut files = Vec::new();
    for (target, image) in &cases {
        let dds = Dds::encode(image, *target).unwrap();
        assert_eq!(dds.level_count(), 6, "{target}: 37x21 down to 1x1");
        let file = out.join(format!("{target}.dds"));
        std::fs::write(&file, dds.to_bytes().unwrap()).unwrap();
        files.push(file);
    }
    let Some(pillow) = common::pillow_read(&files) else {
        return;
    };
    for ((target, image), theirs) in cases.iter().zip(&pillow) {
        let ours = Dds::from_bytes(&std::fs::read(out.join(format!("{target}.dds"))).unwrap())
            .unwrap()
            .decode_level(0)
            .unwrap();
        assert_eq!(theirs.size, (37, 21), "{target}");
        assert_eq!(pillow_rgba(theirs), ours.data, "{target}: Pillow's pixels");
        let stored = if *target == Target::Bc5 { 2 } else { 4 };
        for (p, (a, b)) in ours
            .data
            .chunks_exact(4)
            .zip(image.data.chunks_exact(4))
            .enumerate()
        {
            for c in 0..stored {
                if c < 3 && b[3] < 64 {
                    continue;
                }
                let limit = if c == 3 { 8 } else { 12 };
                assert!(
                    a[c].abs_diff(b[c]) <= limit,
                    "{target}: pixel {p} channel {c}: {} vs {}",
                    a[c],
                    b[c]
                );
            }
        }
    }
}
