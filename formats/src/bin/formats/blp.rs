//! BLP textures in the tool: `info` (header, mip table, layout), `check`
//! (every level decodes) and `convert` (BLP to PNG, PNG or BLP to BLP).

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use formats::blp::{AlphaKind, Blp, RgbaImage, Target};

/// `formats info x.blp`: version, encoding, alpha, size, the mip table and
/// what the file keeps beyond a fresh layout. Where the alpha field leaves
/// alpha to the data (a BLP1 JPEG with odd `alphaBits`), level 0 is decoded
/// to say what the data decided.
pub fn info(name: &str, data: &[u8], blp: &Blp) -> String {
    let mut out = String::new();
    let (width, height) = blp.size();
    let _ = writeln!(
        out,
        "{name}: BLP{} texture, {} bytes, {width}x{height}",
        blp.version(),
        data.len()
    );
    let encoding = blp
        .encoding()
        .map_or_else(|e| format!("unknown ({e})"), |e| e.name().into());
    let alpha = match blp.alpha_kind() {
        Ok(AlphaKind::None) => "none".to_string(),
        Ok(AlphaKind::Bits(bits)) => format!("{bits}-bit"),
        Ok(AlphaKind::Blocks) => "DXT alpha blocks".to_string(),
        Ok(AlphaKind::JpegChannel) => "8-bit (the JPEG's fourth channel)".to_string(),
        Ok(AlphaKind::FromData(bits)) => {
            // The rule is applied per level; level 0 is what a viewer shows.
            let decided = match blp.decode_level(0) {
                Ok(image) if image.has_alpha() => "level 0 has alpha".to_string(),
                Ok(_) => "level 0 is opaque".to_string(),
                Err(e) => format!("level 0 does not decode ({e})"),
            };
            format!(
                "alphaBits {bits} (neither 0 nor 8), so the JPEG's fourth channel decides \
                 (alpha unless 0 everywhere): {decided}"
            )
        }
        Err(e) => format!("unknown ({e})"),
    };
    let _ = writeln!(out, "encoding: {encoding}; alpha: {alpha}");
    let fields = match &blp.header {
        formats::blp::Header::Blp1(h) => format!(
            "compression {}, alphaBits {}, extra {}, hasMipmaps {}",
            h.compression, h.alpha_bits, h.extra, h.has_mipmaps
        ),
        formats::blp::Header::Blp2(h) => format!(
            "type {}, compression {}, alphaDepth {}, alphaType {}, hasMips {}",
            h.kind, h.compression, h.alpha_depth, h.alpha_type, h.has_mips
        ),
    };
    let _ = writeln!(out, "header: {fields}");
    let shared = match (&blp.jpeg_header, &blp.palette) {
        (Some(j), _) => format!("a shared JPEG header of {} bytes", j.len()),
        (_, Some(p)) => format!("a palette of {} colours", p.len()),
        _ => String::new(),
    };
    let _ = writeln!(out, "header ends at {:#x}, with {shared}", blp.header_len());
    let round_trip = match blp.to_bytes() {
        Ok(bytes) if bytes == data => "byte-exact".to_string(),
        Ok(_) => "DIFFERS".to_string(),
        Err(e) => format!("does not write: {e}"),
    };
    let _ = writeln!(out, "round trip: {round_trip}");
    let _ = writeln!(out, "mip levels: {}", blp.levels.len());
    let _ = writeln!(
        out,
        "{:>5}  {:>10}  {:>10}  {:>11}",
        "level", "offset", "size", "pixels"
    );
    if let Ok(table) = blp.mip_table() {
        for (i, (offset, size)) in table.offsets.iter().zip(&table.sizes).enumerate() {
            if *offset == 0 && *size == 0 {
                continue;
            }
            let (w, h) = blp.level_size(i);
            let pixels = if i < blp.levels.len() {
                format!("{w}x{h}")
            } else {
                "(not a level)".to_string()
            };
            let _ = writeln!(out, "{i:>5}  {offset:>#10x}  {size:>10}  {pixels:>11}");
        }
    }
    if let Some(placement) = blp.kept.placement() {
        let _ = writeln!(
            out,
            "kept: the levels' places as read (not one after the other after the header)"
        );
        for (at, bytes) in &placement.gaps {
            let _ = writeln!(
                out,
                "kept: {} bytes at {at:#x} that no level covers",
                bytes.len()
            );
        }
    }
    let entries = blp
        .kept
        .values()
        .iter()
        .filter(|v| v.derived.is_none() && v.raw != 0)
        .count();
    if entries > 0 {
        let _ = writeln!(
            out,
            "kept: {entries} table entries without a level, as read"
        );
    }
    out
}

/// `formats check`: every level decodes (`Err` names the first that does not).
///
/// A level whose bytes are an earlier level's is not decoded again: it
/// decodes if that one does (it is no larger, so it needs no more bytes, and
/// a JPEG frame that holds the earlier level holds it). Real files point up to
/// 15 levels at one stream, and a stream as large as `MAX_SIDE` allows costs
/// a GiB and seconds to decode each time.
pub fn decode_all(blp: &Blp) -> Result<usize, String> {
    for level in levels_to_decode(blp) {
        blp.decode_level(level).map_err(|e| e.to_string())?;
    }
    Ok(blp.levels.len())
}

/// The levels whose bytes no earlier level has, in order.
fn levels_to_decode(blp: &Blp) -> Vec<usize> {
    let levels = &blp.levels;
    (0..levels.len())
        .filter(|&i| !levels.iter().take(i).any(|l| Some(l) == levels.get(i)))
        .collect()
}

fn is_png(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
}

fn is_blp(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("blp"))
}

/// True if `convert IN OUT` is about textures (a `.blp` or `.png` on either side).
pub fn is_texture_conversion(input: &Path, output: &Path) -> bool {
    [input, output].iter().any(|p| is_png(p) || is_blp(p))
}

/// `formats convert IN OUT` for textures: BLP to PNG (`--level N`, 0 by
/// default); PNG or BLP to BLP (`--encoding E`; a BLP without it is written
/// back as it is).
pub fn convert(
    input: &Path,
    output: &Path,
    level: Option<usize>,
    encoding: Option<Target>,
) -> Result<ExitCode, String> {
    let (iname, oname) = (input.display(), output.display());
    let data = std::fs::read(input).map_err(|e| format!("{iname}: {e}"))?;
    let read_blp = || Blp::from_bytes(&data).map_err(|e| format!("{iname}: {e}"));
    let bytes = match (is_blp(input), is_png(input), is_png(output), is_blp(output)) {
        (true, _, true, _) => {
            if encoding.is_some() {
                return Err("--encoding is for writing .blp files".into());
            }
            let level = level.unwrap_or(0);
            let image = read_blp()?
                .decode_level(level)
                .map_err(|e| format!("{iname}: {e}"))?;
            let png = image.to_png().map_err(|e| format!("{oname}: {e}"))?;
            eprintln!(
                "wrote {oname} (level {level}, {}x{} RGBA, {} bytes)",
                image.width,
                image.height,
                png.len()
            );
            png
        }
        (from_blp, from_png, _, true) if from_blp || from_png => {
            if level.is_some() {
                return Err("--level picks the level to write as .png".into());
            }
            let blp = match (from_png, encoding) {
                (true, None) => {
                    let names: Vec<&str> = Target::ALL.iter().map(|(_, n)| *n).collect();
                    return Err(format!(
                        "{oname}: give --encoding, one of {}",
                        names.join(", ")
                    ));
                }
                (false, None) => read_blp()?,
                (true, Some(target)) => encode(&RgbaImage::from_png(&data), target, &iname)?,
                (false, Some(target)) => {
                    let image = read_blp()?.decode_level(0);
                    encode(&image, target, &iname)?
                }
            };
            let bytes = blp.to_bytes().map_err(|e| format!("{oname}: {e}"))?;
            // What is written must read back.
            let back = Blp::from_bytes(&bytes).map_err(|e| format!("{oname}: {e}"))?;
            eprintln!(
                "wrote {oname} (BLP{} {}, {}x{}, {} levels, {} bytes)",
                back.version(),
                back.encoding().map_or("?", |e| e.name()),
                back.size().0,
                back.size().1,
                back.levels.len(),
                bytes.len()
            );
            bytes
        }
        _ => {
            return Err(format!(
                "textures convert .blp to .png or .blp, and .png to .blp; not {iname} to {oname}"
            ));
        }
    };
    std::fs::write(output, bytes).map_err(|e| format!("{oname}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

fn encode(
    image: &Result<RgbaImage, format_core::Error>,
    target: Target,
    name: &impl std::fmt::Display,
) -> Result<Blp, String> {
    let image = image.as_ref().map_err(|e| format!("{name}: {e}"))?;
    Blp::encode(image, target).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_decodes_each_distinct_level_once() {
        let mut blp = Blp::encode(
            &RgbaImage::new(8, 8, [1, 2, 3, 255].repeat(64)).unwrap(),
            Target::Bgra,
        )
        .unwrap();
        assert_eq!(levels_to_decode(&blp), [0, 1, 2, 3]);
        // Levels 2 and 3 at level 1's bytes, as real files point them.
        blp.levels[2] = blp.levels[1].clone();
        blp.levels[3] = blp.levels[1].clone();
        assert_eq!(levels_to_decode(&blp), [0, 1]);
        assert_eq!(decode_all(&blp), Ok(4));
        for level in 2..4 {
            assert!(blp.decode_level(level).is_ok(), "what check skips decodes");
        }
        // A level that does not decode is still found when it is distinct.
        blp.levels[3] = vec![0; 3];
        assert_eq!(levels_to_decode(&blp), [0, 1, 3]);
        let err = decode_all(&blp).unwrap_err();
        assert!(
            err.contains("level 3: 1x1 BGRA: 4 bytes needed, 3 there"),
            "{err}"
        );
    }
}
