//! The BLP peers of the `blp` bench decode the same pixels as ours on the same
//! bytes: `image-blp`, `wow-blp` and `wc3` (crates.io), exactly, for every corpus
//! texture that is not JPEG (their JPEG path converts the 4 channels as CMYK
//! to RGB, so only its size is compared; Pillow checks our JPEG pixels,
//! `formats/tests/textures/blp_pillow.rs`); and what our encoder writes from every
//! corpus texture in the other encodings.
//!
//! Three peer quirks, asserted so that a change shows: `image-blp` reads
//! palette entries as RGBA instead of BGRA (its red and blue are swapped;
//! Pillow, `wow-blp` and `wc3` agree with us), `wow-blp` refuses the
//! uncompressed texture (alphaType 2), and `wc3` the palette texture of
//! 128 x 129.

use formats::blp::{AlphaKind, Blp, Encoding, Target};

/// A peer's level 0 as RGBA8.
type Peer = fn(&[u8]) -> Result<(u32, u32, Vec<u8>), String>;

fn image_blp(data: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let blp = image_blp::parser::load_blp_from_buf(data).map_err(|e| e.to_string())?;
    let image = image_blp::convert::blp_to_image(&blp, 0).map_err(|e| e.to_string())?;
    let rgba = image.into_rgba8();
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

fn wc3(data: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let blp = wc3::blp::BlpRef::read(data).map_err(|e| e.to_string())?;
    let rgba = blp.decode_mip(0).map_err(|e| e.to_string())?;
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

fn wow_blp(data: &[u8]) -> Result<(u32, u32, Vec<u8>), String> {
    let blp = wow_blp::parser::load_blp_from_buf(data).map_err(|e| e.to_string())?;
    let image = wow_blp::convert::blp_to_image(&blp, 0).map_err(|e| e.to_string())?;
    let rgba = image.into_rgba8();
    Ok((rgba.width(), rgba.height(), rgba.into_raw()))
}

/// The corpus textures; `None` (loudly) outside CI when the corpus is missing.
fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    let files = benches::blp_corpus_files();
    if files.is_empty() && !benches::corpus_expected("the BLP peer comparison") {
        return None;
    }
    Some(files)
}

/// The peers, by name.
const PEERS: [(&str, Peer); 3] = [("image-blp", image_blp), ("wow-blp", wow_blp), ("wc3", wc3)];

/// Asserts that a peer's level 0 (`theirs`) has our size and, but for JPEG,
/// our pixels; false for JPEG (only the size compared).
fn agree(peer: &str, name: &str, blp: &Blp, (w, h, mut theirs): (u32, u32, Vec<u8>)) -> bool {
    let ours = blp.decode_level(0).unwrap();
    let encoding = blp.encoding().unwrap();
    assert_eq!((w, h), (ours.width, ours.height), "{peer} {name}");
    if encoding == Encoding::Jpeg {
        return false;
    }
    if peer == "image-blp" && encoding == Encoding::Palette {
        for px in theirs.chunks_exact_mut(4) {
            px.swap(0, 2);
        }
    }
    // Where the header says the texture is opaque we write 255; peers
    // keep what the data has there.
    let channels = if blp.alpha_kind().unwrap() == AlphaKind::None {
        3
    } else {
        4
    };
    let differing = ours
        .data
        .chunks_exact(4)
        .zip(theirs.chunks_exact(4))
        .filter(|(a, b)| a[..channels] != b[..channels])
        .count();
    assert_eq!(differing, 0, "{peer} {name}: pixels differ");
    true
}

#[test]
fn peers_decode_the_same_pixels() {
    let Some(files) = corpus() else {
        return;
    };
    let mut compared = 0;
    let mut refused = Vec::new();
    for (name, data) in &files {
        let blp = Blp::from_bytes(data).unwrap();
        for (peer, decode) in PEERS {
            let theirs = match decode(data) {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("{peer} refuses {name}: {e}");
                    refused.push((peer, name.as_str()));
                    continue;
                }
            };
            compared += usize::from(agree(peer, name, &blp, theirs));
        }
    }
    // wow-blp refuses the uncompressed texture (alphaType 2), wc3 the palette
    // texture of 128 x 129 ("invalid mipmap 0 range": a size that is not a
    // power of two).
    assert_eq!(
        refused,
        [
            ("wc3", "blp/dbz_GutsArm.blp"),
            ("wow-blp", "blp/twinpeaks_Stratholme_Smoke_01.blp")
        ]
    );
    // 23 textures that are not JPEG, by the three peers, but the refusals.
    assert_eq!(compared, 3 * 23 - 2);
}

/// What our encoder writes (`Blp::encode`, `formats convert x.png x.blp`)
/// reads in every peer with our pixels, for every corpus texture in every
/// encoding they decode exactly (not JPEG: Pillow checks it,
/// `formats/tests/textures/blp_pillow.rs`). The source is each texture's largest
/// level of at most 64 x 64 (DXT is encoded by cluster fit, slow in a test).
#[test]
fn peers_decode_what_we_encode() {
    let Some(files) = corpus() else {
        return;
    };
    let mut compared = 0;
    for (name, data) in &files {
        let blp = Blp::from_bytes(data).unwrap();
        let level = (0..blp.levels.len())
            .find(|&l| {
                let (w, h) = blp.level_size(l);
                w.max(h) <= 64
            })
            .unwrap_or(blp.levels.len() - 1);
        let source = blp.decode_level(level).unwrap();
        for (target, encoding) in Target::ALL {
            if target == Target::Blp1Jpeg {
                continue;
            }
            let ours = Blp::encode(&source, target).unwrap();
            let bytes = ours.to_bytes().unwrap();
            let label = format!("{name} as {encoding}");
            for (peer, decode) in PEERS {
                match decode(&bytes) {
                    Ok(theirs) => {
                        assert!(agree(peer, &label, &ours, theirs));
                        compared += 1;
                    }
                    // We write alphaType 2 for BGRA, as the corpus's
                    // uncompressed texture has it, which wow-blp refuses.
                    Err(e) if peer == "wow-blp" && target == Target::Bgra => {
                        assert!(e.contains("alpha type value: 2"), "{label}: {e}");
                    }
                    Err(e) => panic!("{peer} {label}: {e}"),
                }
            }
        }
    }
    // Four encodings by three peers, but BGRA by wow-blp.
    assert_eq!(compared, files.len() * (4 * 3 - 1));
}
