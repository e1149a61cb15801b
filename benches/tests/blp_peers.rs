//! The BLP peers of the `blp` bench decode the same pixels as ours on the same
//! bytes: `image-blp` and `wow-blp` (crates.io), exactly, for every corpus
//! texture that is not JPEG (their JPEG path converts the 4 channels as CMYK
//! to RGB, so only its size is compared; Pillow checks our JPEG pixels,
//! `formats/tests/blp_pillow.rs`).
//!
//! Two peer quirks, asserted so that a change shows: `image-blp` reads palette
//! entries as RGBA instead of BGRA (its red and blue are swapped; Pillow and
//! `wow-blp` agree with us), and `wow-blp` refuses the uncompressed texture
//! (alphaType 2).

use formats::blp::{AlphaKind, Blp, Encoding};

/// A peer's level 0 as RGBA8.
type Peer = fn(&[u8]) -> Result<(u32, u32, Vec<u8>), String>;

fn image_blp(data: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let blp = image_blp::parser::load_blp_from_buf(data).map_err(|e| e.to_string())?;
    let image = image_blp::convert::blp_to_image(&blp, 0).map_err(|e| e.to_string())?;
    let rgba = image.into_rgba8();
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

fn wow_blp(data: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let blp = wow_blp::parser::load_blp_from_buf(data).map_err(|e| e.to_string())?;
    let image = wow_blp::convert::blp_to_image(&blp, 0).map_err(|e| e.to_string())?;
    let rgba = image.into_rgba8();
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

#[test]
fn peers_decode_the_same_pixels() {
    let files = benches::blp_corpus_files();
    if files.is_empty() {
        assert!(
            !std::env::var("CI").is_ok_and(|v| v == "true"),
            "corpus missing: CI must have ../shared beside the repository"
        );
        eprintln!("\n!!! corpus missing: the BLP peer comparison did NOT run !!!\n");
        return;
    }
    let peers: [(&str, Peer); 2] = [("image-blp", image_blp), ("wow-blp", wow_blp)];
    let mut compared = 0;
    for (name, data) in &files {
        let blp = Blp::from_bytes(data).unwrap();
        let ours = blp.decode_level(0).unwrap();
        let encoding = blp.encoding().unwrap();
        let alpha = blp.alpha_kind().unwrap();
        for (peer, decode) in peers {
            let (w, h, mut theirs) = match decode(data) {
                Ok(x) => x,
                Err(e) => {
                    assert_eq!(
                        (peer, name.as_str()),
                        ("wow-blp", "blp/twinpeaks_Stratholme_Smoke_01.blp"),
                        "{e}"
                    );
                    continue;
                }
            };
            assert_eq!((w, h), (ours.width, ours.height), "{peer} {name}");
            if encoding == Encoding::Jpeg {
                continue;
            }
            if peer == "image-blp" && encoding == Encoding::Palette {
                for px in theirs.chunks_exact_mut(4) {
                    px.swap(0, 2);
                }
            }
            // Where the header says the texture is opaque we write 255; peers
            // keep what the data has there.
            let channels = if alpha == AlphaKind::None { 3 } else { 4 };
            let differing = ours
                .data
                .chunks_exact(4)
                .zip(theirs.chunks_exact(4))
                .filter(|(a, b)| a[..channels] != b[..channels])
                .count();
            assert_eq!(differing, 0, "{peer} {name}: pixels differ");
            compared += 1;
        }
    }
    // 23 textures that are not JPEG, by both peers, but wow-blp's refusal.
    assert_eq!(compared, 2 * 23 - 1);
}
