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
