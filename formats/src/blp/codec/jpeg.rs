//! BLP1 JPEG levels: the stream `jpegHeader ++ level` is a baseline JPEG of
//! 4 components, B, G, R, A, stored as they are: no colour transform and no
//! Adobe inversion (the corpus shows it: so read, the opaque icons have alpha
//! 255 and the Night Elf minimap is dark teal terrain; inverted, the icons
//! would be transparent and the minimap pale pink).
//!
//! `zune-jpeg` asked for CMYK output returns the samples untouched.
//! `jpeg-encoder`'s own CMYK input stores 255 minus each value (the Adobe
//! convention), so a private `Bgra` buffer hands it the samples to store as they are.

use jpeg_encoder::{Encoder, ImageBuffer, JpegColorType, SamplingFactor};
use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::bytestream::ZCursor;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

/// The most pixels a JPEG stream may declare per byte of stream: the
/// smallest baseline encoding of a flat 8x8 block of one component is 2 bits
/// (an empty DC difference and an end-of-block), so no real stream comes close;
/// it bounds what a small hostile stream can make us allocate.
const PIXELS_PER_BYTE: usize = 256;

/// Decodes `jpeg_header ++ level` to R, G, B, A (the stored fourth channel as
/// alpha). The frame may not be larger than `max` (level 0's size): real
/// files repeat level 0's stream for smaller levels, so the frame's own size
/// is returned.
pub fn decode(
    jpeg_header: &[u8],
    level: &[u8],
    max: (u32, u32),
) -> Result<(u32, u32, Vec<u8>), String> {
    let stream = [jpeg_header, level].concat();
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::CMYK)
        .set_max_width(max.0 as usize)
        .set_max_height(max.1 as usize);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(&stream[..]), options);
    decoder
        .decode_headers()
        .map_err(|e| format!("JPEG headers: {e}"))?;
    let (width, height) = decoder.dimensions().ok_or("JPEG headers: no frame size")?;
    if width * height > PIXELS_PER_BYTE * stream.len() {
        return Err(format!(
            "a {width}x{height} JPEG frame cannot come from {} bytes",
            stream.len()
        ));
    }
    if decoder.input_colorspace() != Some(ColorSpace::CMYK) {
        return Err(format!(
            "a JPEG of {:?} components, not the 4 (B, G, R, A) of BLP1",
            decoder.input_colorspace()
        ));
    }
    let mut out = vec![0u8; width * height * 4];
    decoder
        .decode_into(&mut out)
        .map_err(|e| format!("JPEG data: {e}"))?;
    for px in out.as_chunks_mut::<4>().0 {
        px.swap(0, 2);
    }
    let side = |s: usize| u32::try_from(s).map_err(|_| "JPEG frame too large".to_string());
    Ok((side(width)?, side(height)?, out))
}

/// A whole JPEG stream (SOI to EOI) of `rgba`, stored as B, G, R, A; `opaque`
/// stores 255 as alpha. No Adobe marker: real files have none.
pub fn encode(
    rgba: &[u8],
    width: u32,
    height: u32,
    opaque: bool,
    quality: u8,
) -> Result<Vec<u8>, String> {
    let side =
        |s: u32| u16::try_from(s).map_err(|_| format!("JPEG sides are at most 65535, not {s}"));
    let image = Bgra {
        rgba,
        width: side(width)?,
        height: side(height)?,
        opaque,
    };
    let mut out = Vec::new();
    let mut encoder = Encoder::new(&mut out, quality);
    // Every channel at full resolution (the default would subsample colour apart from alpha).
    encoder.set_sampling_factor(SamplingFactor::F_1_1);
    encoder
        .encode_image(image)
        .map_err(|e| format!("JPEG encoding: {e}"))?;
    Ok(strip_adobe_marker(out))
}

/// R, G, B, A pixels given to the encoder as the 4 components B, G, R, A,
/// stored as they are.
struct Bgra<'a> {
    rgba: &'a [u8],
    width: u16,
    height: u16,
    opaque: bool,
}

impl ImageBuffer for Bgra<'_> {
    fn get_jpeg_color_type(&self) -> JpegColorType {
        JpegColorType::Cmyk
    }

    fn width(&self) -> u16 {
        self.width
    }

    fn height(&self) -> u16 {
        self.height
    }

    fn fill_buffers(&self, y: u16, buffers: &mut [Vec<u8>; 4]) {
        let row = usize::from(self.width) * 4;
        let start = usize::from(y) * row;
        let pixels = self.rgba.get(start..start + row).unwrap_or_default();
        let [b, g, r, a] = buffers;
        for &[red, green, blue, alpha] in pixels.as_chunks::<4>().0 {
            b.push(blue);
            g.push(green);
            r.push(red);
            a.push(if self.opaque { 255 } else { alpha });
        }
    }
}

/// `stream` without its Adobe APP14 segment (the encoder writes one for CMYK).
fn strip_adobe_marker(stream: Vec<u8>) -> Vec<u8> {
    let mut at = 2; // after SOI
    while let Some(&[0xff, marker, hi, lo]) = stream.get(at..at + 4).and_then(|s| s.first_chunk()) {
        let end = at + 2 + usize::from(u16::from_be_bytes([hi, lo]));
        if marker == 0xda {
            break; // start of scan: no more header segments
        }
        if marker == 0xee && stream.get(at + 4..at + 9) == Some(b"Adobe") {
            let mut out = stream.get(..at).unwrap_or_default().to_vec();
            out.extend_from_slice(stream.get(end..).unwrap_or_default());
            return out;
        }
        at = end;
    }
    stream
}

/// The longest prefix all `streams` share (at most `max` bytes, and leaving
/// each stream at least one byte: a level of 0 bytes would end the mip
/// table), removed from each: BLP1's shared JPEG header.
pub fn split_common_header(streams: &mut [Vec<u8>], max: usize) -> Vec<u8> {
    let Some(first) = streams.first() else {
        return Vec::new();
    };
    let common = streams.iter().fold(max, |len, s| {
        first
            .iter()
            .zip(s)
            .take(len.min(s.len().saturating_sub(1)))
            .take_while(|(a, b)| a == b)
            .count()
    });
    let header = first.get(..common).unwrap_or_default().to_vec();
    for s in streams.iter_mut() {
        s.drain(..common);
    }
    header
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_then_decode_keeps_bgra_and_alpha() {
        let rgba: Vec<u8> = (0..16 * 8)
            .flat_map(|i: u32| [200, 100, 30, if i % 16 < 8 { 255 } else { 0 }])
            .collect();
        let stream = encode(&rgba, 16, 8, false, 95).unwrap();
        assert!(!stream.windows(5).any(|w| w == b"Adobe"));
        let (w, h, back) = decode(&stream[..20], &stream[20..], (16, 8)).unwrap();
        assert_eq!((w, h), (16, 8));
        for (a, b) in back.iter().zip(&rgba) {
            assert!(a.abs_diff(*b) <= 6, "{a} vs {b}");
        }
        assert!(decode(&[], &stream, (8, 8)).is_err(), "larger than level 0");
        let opaque = encode(&rgba, 16, 8, true, 95).unwrap();
        let (_, _, back) = decode(&[], &opaque, (16, 8)).unwrap();
        assert!(back.iter().skip(3).step_by(4).all(|&a| a >= 250));
    }

    #[test]
    fn common_header_is_split_off() {
        let mut streams = vec![b"abcX".to_vec(), b"abY".to_vec(), b"abcdZ".to_vec()];
        assert_eq!(split_common_header(&mut streams, 10), b"ab");
        assert_eq!(streams, [b"cX".to_vec(), b"Y".to_vec(), b"cdZ".to_vec()]);
        let mut one = vec![b"abc".to_vec()];
        assert_eq!(split_common_header(&mut one, 9), b"ab");
        assert_eq!(one, [b"c".to_vec()]);
    }
}
