//! Textures in the tool: BLP `info` (header, mip table, layout), `check`
//! (every level decodes) and `convert` (BLP to PNG, PNG or BLP to BLP); DDS
//! `info` and `check` too, and `convert` from DDS (to PNG or BLP).

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use formats::blp::{AlphaKind, Blp, RgbaImage, Target};
use formats::dds::Dds;

use crate::plural;

/// `formats info x.blp`: version, encoding, alpha, size, the mip table
/// (levels outside the file marked), what the file keeps beyond a fresh
/// layout, and whether every level decodes (naming those that do not); for
/// a file only the lenient reader took, the strict reader's error and the
/// diagnostics. Where the alpha field leaves alpha to the data (a BLP1 JPEG
/// with odd `alphaBits`), level 0 is decoded to say what the data decided.
pub fn info(name: &str, data: &[u8], blp: &Blp, loaded: &crate::kind::Loaded) -> String {
    let mut out = String::new();
    let (width, height) = blp.size();
    let _ = writeln!(
        out,
        "{name}: BLP{} texture, {} bytes, {width}x{height}",
        blp.version(),
        data.len()
    );
    out.push_str(&loaded.lenient_lines());
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
    let missing = blp.missing_levels();
    if let Ok(table) = blp.mip_table() {
        for (i, (offset, size)) in table.offsets.iter().zip(&table.sizes).enumerate() {
            if *offset == 0 && *size == 0 {
                continue;
            }
            let (w, h) = blp.level_size(i);
            let pixels = if i < blp.levels.len() {
                format!("{w}x{h}")
            } else if missing.contains(&i) {
                "(outside the file: missing)".to_string()
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
    let _ = writeln!(out, "pixels: {}", pixels(&level_errors(blp)));
    out
}

/// The `pixels:` line of `info`: "every level decodes", or which levels do
/// not and why.
fn pixels(errors: &[(usize, String)]) -> String {
    match undecodable(errors) {
        None => "every level decodes".to_string(),
        Some(which) => {
            let why: Vec<&str> = errors.iter().map(|(_, e)| e.as_str()).collect();
            format!("{which}: {}", why.join("; "))
        }
    }
}

/// `formats info x.dds`: size, pixel format, the headers' other fields,
/// where the surfaces are, the round trip and whether every level decodes.
pub fn dds_info(name: &str, data: &[u8], dds: &Dds) -> String {
    let mut out = String::new();
    let h = &dds.header;
    let _ = writeln!(
        out,
        "{name}: DDS texture, {} bytes, {}x{}",
        data.len(),
        h.width,
        h.height
    );
    let format = dds
        .pixel_format()
        .map_or_else(|e| format!("not decoded here ({e})"), |f| f.name());
    let _ = writeln!(out, "pixel format: {format}");
    let four_cc = String::from_utf8_lossy(&h.ddspf.four_cc).into_owned();
    let _ = writeln!(
        out,
        "header: flags {:#x}, pitchOrLinearSize {}, depth {}, mipMapCount {}, caps {:#x}, \
         caps2 {:#x}; pixel format flags {:#x}, fourCC {four_cc:?}, {} bits",
        h.flags,
        h.pitch_or_linear_size,
        h.depth,
        h.mip_map_count,
        h.caps,
        h.caps2,
        h.ddspf.flags,
        h.ddspf.rgb_bit_count
    );
    if let Some(dx10) = &dds.dx10 {
        let _ = writeln!(
            out,
            "DX10 header: dxgiFormat {}, resourceDimension {}, miscFlag {:#x}, arraySize {}",
            dx10.dxgi_format, dx10.resource_dimension, dx10.misc_flag, dx10.array_size
        );
    }
    let _ = writeln!(
        out,
        "surfaces: {} bytes from {:#x}, {} mip levels",
        dds.data.len(),
        dds.data_offset(),
        dds.level_count()
    );
    let round_trip = match dds.to_bytes() {
        Ok(bytes) if bytes == data => "byte-exact".to_string(),
        Ok(_) => "DIFFERS".to_string(),
        Err(e) => format!("does not write: {e}"),
    };
    let _ = writeln!(out, "round trip: {round_trip}");
    let _ = writeln!(out, "pixels: {}", pixels(&dds_level_errors(dds)));
    out
}

/// `formats check` of a DDS: the mip levels of the first surface that do
/// not decode, each with its error (empty when every level decodes).
pub fn dds_level_errors(dds: &Dds) -> Vec<(usize, String)> {
    (0..dds.level_count())
        .filter_map(|level| {
            let error = dds.decode_level(level).err()?;
            Some((level as usize, format!("level {level}: {error}")))
        })
        .collect()
}

/// `formats check`: the levels that do not decode, each with its error
/// (empty when every level decodes). Level 0 is always tried, so a texture
/// whose level 0 is missing says so.
///
/// A level whose bytes are an earlier level's is not decoded again: it
/// decodes if that one does (it is no larger, so it needs no more bytes, and
/// a JPEG frame that holds the earlier level holds it). Real files point up to
/// 15 levels at one stream, and a stream as large as `MAX_SIDE` allows costs
/// a GiB and seconds to decode each time.
pub fn level_errors(blp: &Blp) -> Vec<(usize, String)> {
    let mut levels = levels_to_decode(blp);
    if levels.first() != Some(&0) {
        levels.insert(0, 0);
    }
    levels
        .into_iter()
        .filter_map(|level| {
            let error = blp.decode_level(level).err()?;
            Some((level, error.to_string()))
        })
        .collect()
}

/// What `formats info` and `check` say of a texture's levels that do not
/// decode (`errors`, by level): `None` when every level decodes. Level 0 is
/// what viewers and the game show: when it decodes, a smaller level that
/// does not is a warning, said as one.
pub fn undecodable(errors: &[(usize, String)]) -> Option<String> {
    let levels: Vec<String> = errors.iter().map(|(l, _)| l.to_string()).collect();
    let (first, _) = errors.first()?;
    let which = match &levels[..] {
        [one] => format!("level {one} does NOT decode"),
        many => format!("levels {} do NOT decode", many.join(", ")),
    };
    Some(if *first == 0 {
        which
    } else {
        format!("level 0 decodes, {which} (a warning: viewers and the game show level 0)")
    })
}

/// The levels whose bytes no earlier level has, in order.
fn levels_to_decode(blp: &Blp) -> Vec<usize> {
    let levels = &blp.levels;
    (0..levels.len())
        .filter(|&i| !levels.iter().take(i).any(|l| Some(l) == levels.get(i)))
        .collect()
}

/// True if `path`'s extension is `extension`, in any letter case.
fn has_extension(path: &Path, extension: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case(extension))
}

fn is_png(path: &Path) -> bool {
    has_extension(path, "png")
}

fn is_blp(path: &Path) -> bool {
    has_extension(path, "blp")
}

fn is_dds(path: &Path) -> bool {
    has_extension(path, "dds")
}

/// True if `convert IN OUT` is about textures (a `.blp` or `.png` on either
/// side, or a `.dds` in).
pub fn is_texture_conversion(input: &Path, output: &Path) -> bool {
    is_dds(input) || [input, output].iter().any(|p| is_png(p) || is_blp(p))
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
    // Leniently if need be (a mip table entry outside the file), saying so.
    let read_blp = || {
        let loaded = crate::kind::read(crate::kind::Kind::Blp, &data)
            .map_err(|e| format!("{iname}: {e}"))?;
        if let Some(note) = loaded.lenient_note(&iname.to_string()) {
            eprintln!("warning: {note}");
        }
        match loaded.document {
            crate::kind::Document::Blp(blp) => Ok(blp),
            _ => Err(format!("{iname}: not a BLP texture")),
        }
    };
    let from_dds = is_dds(input);
    let read_dds = |level: usize| {
        let level = u32::try_from(level).unwrap_or(u32::MAX);
        Dds::from_bytes(&data).and_then(|dds| dds.decode_level(level))
    };
    let bytes = match (is_blp(input), is_png(input), is_png(output), is_blp(output)) {
        (from_blp, _, true, _) if from_blp || from_dds => {
            if encoding.is_some() {
                return Err("--encoding is for writing .blp files".into());
            }
            let level = level.unwrap_or(0);
            let image = if from_dds {
                read_dds(level)
            } else {
                read_blp()?.decode_level(level)
            }
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
        (from_blp, from_png, _, true) if from_blp || from_png || from_dds => {
            if level.is_some() {
                return Err("--level picks the level to write as .png".into());
            }
            // Pixels (a PNG, or a DDS's level 0) need an encoding; a BLP
            // without one is written back as it is.
            let blp = match (from_png || from_dds, encoding) {
                (true, None) => {
                    let names: Vec<&str> = Target::ALL.iter().map(|(_, n)| *n).collect();
                    return Err(format!(
                        "{oname}: give --encoding, one of {}",
                        names.join(", ")
                    ));
                }
                (false, None) => read_blp()?,
                (true, Some(target)) if from_dds => encode(&read_dds(0), target, &iname)?,
                (true, Some(target)) => encode(&RgbaImage::from_png(&data), target, &iname)?,
                (false, Some(target)) => {
                    let image = read_blp()?.decode_level(0);
                    encode(&image, target, &iname)?
                }
            };
            let bytes = blp.to_bytes().map_err(|e| format!("{oname}: {e}"))?;
            // What is written must read back (a damaged BLP written back as
            // it is, as damaged: leniently).
            let back = Blp::from_bytes(&bytes)
                .or_else(|e| {
                    Blp::from_bytes_lenient(&bytes)
                        .map(|(b, _)| b)
                        .map_err(|_| e)
                })
                .map_err(|e| format!("{oname}: {e}"))?;
            eprintln!(
                "wrote {oname} (BLP{} {}, {}x{}, {}, {} bytes)",
                back.version(),
                back.encoding().map_or("?", |e| e.name()),
                back.size().0,
                back.size().1,
                plural(back.levels.len(), "level"),
                bytes.len()
            );
            bytes
        }
        _ => {
            return Err(format!(
                "textures convert .blp and .dds to .png or .blp, and .png to .blp; not {iname} to {oname}"
            ));
        }
    };
    crate::write_file(output, &bytes)?;
    Ok(ExitCode::SUCCESS)
}

/// Encodes the pixels read from `name` in `target`, with a warning on stderr
/// if a side is not a power of two (see [`not_power_of_two`]).
fn encode(
    image: &Result<RgbaImage, impl std::fmt::Display>,
    target: Target,
    name: &impl std::fmt::Display,
) -> Result<Blp, String> {
    let image = image.as_ref().map_err(|e| format!("{name}: {e}"))?;
    if let Some(warning) = not_power_of_two(image.width, image.height) {
        eprintln!("warning: {name}: {warning}");
    }
    Blp::encode(image, target).map_err(|e| format!("{name}: {e}"))
}

/// What to say of a `width` x `height` texture with a side that is not a
/// power of two (`None` if both are): the World of Warcraft and Warcraft III
/// clients need powers of two, and the mip levels of such a texture do not
/// halve evenly. It is encoded anyway: the user may know better.
fn not_power_of_two(width: u32, height: u32) -> Option<String> {
    if width.is_power_of_two() && height.is_power_of_two() {
        return None;
    }
    let down = |side: u32| side.checked_ilog2().map_or(1, |log| 1u32 << log);
    let up = |side: u32| side.checked_next_power_of_two().unwrap_or(down(side));
    Some(format!(
        "{width}x{height} is not a power of two on each side, which the World of Warcraft \
         and Warcraft III clients need (resize to {}x{} or {}x{}, say); encoding it anyway",
        down(width),
        down(height),
        up(width),
        up(height)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_sides_need_no_warning() {
        assert_eq!(not_power_of_two(1, 1), None);
        assert_eq!(not_power_of_two(256, 32), None);
        let warning = not_power_of_two(100, 60).unwrap();
        assert!(
            warning.starts_with("100x60 is not a power of two"),
            "{warning}"
        );
        assert!(warning.contains("64x32 or 128x64"), "{warning}");
        let warning = not_power_of_two(3, 16).unwrap();
        assert!(warning.contains("2x16 or 4x16"), "{warning}");
    }

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
        assert!(level_errors(&blp).is_empty());
        for level in 2..4 {
            assert!(blp.decode_level(level).is_ok(), "what check skips decodes");
        }
        // A level that does not decode is still found when it is distinct.
        blp.levels[3] = vec![0; 3];
        assert_eq!(levels_to_decode(&blp), [0, 1, 3]);
        let errors = level_errors(&blp);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].0, 3);
        assert!(
            errors[0]
                .1
                .contains("level 3: 1x1 BGRA: 4 bytes needed, 3 there"),
            "{errors:?}"
        );
        assert_eq!(
            undecodable(&errors).as_deref(),
            Some(
                "level 0 decodes, level 3 does NOT decode (a warning: viewers and the game show level 0)"
            )
        );
        // Level 0 too: no longer a warning.
        blp.levels[0] = vec![0; 5];
        let errors = level_errors(&blp);
        assert_eq!(errors.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [0, 3]);
        assert_eq!(
            undecodable(&errors).as_deref(),
            Some("levels 0, 3 do NOT decode")
        );
        // A texture without levels: level 0 is tried, and missing.
        blp.levels.clear();
        let errors = level_errors(&blp);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].1.contains("no level 0"), "{errors:?}");
    }
}
