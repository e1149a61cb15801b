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

use super::{CodecError, FrameError, FrameHeaderError};
use zune_jpeg::JpegDecoder;
use zune_jpeg::zune_core::bytestream::ZCursor;
use zune_jpeg::zune_core::colorspace::ColorSpace;
use zune_jpeg::zune_core::options::DecoderOptions;

/// Decodes `jpeg_header ++ level` to R, G, B, A (the stored fourth channel as
/// alpha), `size` pixels: the level's size.
///
/// The frame (the stream's SOF) may be larger than the level, up to `max`
/// (level 0's size), and is then cropped to its top-left `size` pixels: real
/// files point smaller levels at a larger level's stream
/// (`pqw3_DISPASLichKing.blp` levels 2 to 6 at level 1's 32 x 32 frame,
/// `SmileyGW.blp` every level at level 0's 256 x 256), and a level is the
/// texture of its own size. Cropping is what the BLP IIO plugin (Dr Super
/// Good's reader, written against the game) does with such a frame. A frame
/// smaller than the level has no pixels for part of it and is refused (no real
/// file has one).
///
/// Everything is checked on the frame header before any pixel is allocated:
/// its size against `size` and `max`, and the stream's length against the
/// least a scan of that frame can take ([`Frame::least_scan_bytes`]). A
/// "JPEG byte" in an error counts from the start of the stream decoded
/// ([`stream`]: `jpeg_header ++ level`, but for one quirk).
pub fn decode(
    jpeg_header: &[u8],
    level: &[u8],
    size: (u32, u32),
    max: (u32, u32),
) -> Result<Vec<u8>, CodecError> {
    let stream = stream(jpeg_header, level);
    let frame = Frame::of(&stream)?;
    let (fw, fh) = (u32::from(frame.width), u32::from(frame.height));
    if fw > max.0 || fh > max.1 {
        return Err(CodecError::FrameLarger {
            frame: (fw, fh),
            level0: max,
        });
    }
    if fw < size.0 || fh < size.1 {
        return Err(CodecError::FrameSmaller {
            frame: (fw, fh),
            level: size,
        });
    }
    let least = frame.least_scan_bytes();
    if stream.len() < least {
        return Err(CodecError::ScanShort {
            frame: (fw, fh),
            components: frame.components.len(),
            least,
            len: stream.len(),
        });
    }
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::CMYK)
        .set_max_width(max.0 as usize)
        .set_max_height(max.1 as usize);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(&stream[..]), options);
    decoder.decode_headers().map_err(CodecError::Headers)?;
    // The decoder must see the frame checked above (a stream could hold two).
    let (width, height) = decoder.dimensions().ok_or(CodecError::NoFrameSize)?;
    if (width, height) != (usize::from(frame.width), usize::from(frame.height)) {
        return Err(CodecError::OtherFrame {
            decoder: (width, height),
            frame: (fw, fh),
        });
    }
    if decoder.input_colorspace() != Some(ColorSpace::CMYK) {
        return Err(CodecError::Components {
            colorspace: decoder.input_colorspace(),
        });
    }
    let mut out = vec![0u8; width * height * 4];
    decoder.decode_into(&mut out).map_err(CodecError::Data)?;
    let (w, h) = (size.0 as usize, size.1 as usize);
    if (w, h) != (width, height) {
        // Rows of the top-left w x h pixels, moved to the front in place
        // (each row starts at or before where it was).
        for y in 0..h {
            out.copy_within(y * width * 4..(y * width + w) * 4, y * w * 4);
        }
        out.truncate(w * h * 4);
    }
    for px in out.as_chunks_mut::<4>().0 {
        px.swap(0, 2);
    }
    Ok(out)
}

/// The JPEG stream of a level: `jpeg_header ++ level`, as the format has it
/// (the header holds SOI and the tables, the level the frame, its scan and
/// EOI). One quirk, of real files (`SpiritHealerBlue.blp` and
/// `SpiritHealerWingBlue.blp` of a public map, written by the "Intel(R)
/// JPEG Library, version 1,5,4"): the header is a whole tables-only stream
/// (SOI, tables, EOI) and each level a stream of its own (SOI, frame, scan,
/// EOI) that uses those tables, JPEG's abbreviated table specification then
/// abbreviated image (ITU T.81 B.5). Read as one stream it would end at the
/// header's EOI; so, when the header ends with EOI and the level starts
/// with SOI, the stream is the header without its EOI then the level without
/// its SOI: the tables, then the frame. Pillow decodes these files so.
///
/// ```
/// use formats::blp::codec::jpeg::stream;
/// let header = [0xff, 0xd8, 0xff, 0xdb, 0x00, 0x02];
/// let level = [0xff, 0xc0, 0xff, 0xd9];
/// assert_eq!(stream(&header, &level), [&header[..], &level[..]].concat());
/// let tables_only = [&header[..], &[0xff, 0xd9]].concat();
/// let own = [&[0xff, 0xd8], &level[..]].concat();
/// assert_eq!(stream(&tables_only, &own), [&header[..], &level[..]].concat());
/// ```
pub fn stream(jpeg_header: &[u8], level: &[u8]) -> Vec<u8> {
    match (
        jpeg_header.strip_suffix(&[0xff, 0xd9]),
        level.strip_prefix(&[0xff, 0xd8]),
    ) {
        (Some(tables), Some(image)) => [tables, image].concat(),
        _ => [jpeg_header, level].concat(),
    }
}

/// What the frame header (SOFn) of a JPEG stream declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Width in pixels.
    pub width: u16,
    /// Height in pixels.
    pub height: u16,
    /// SOF2: progressive (SOF0, SOF1: sequential).
    pub progressive: bool,
    /// Each component's horizontal and vertical sampling factors.
    pub components: Vec<(u8, u8)>,
}

impl Frame {
    /// The first frame header of `stream` (found by walking its marker
    /// segments from SOI, so that nothing is allocated for pixels). Huffman
    /// sequential and progressive frames only: lossless, hierarchical and
    /// arithmetic-coded ones are refused (the decoder reads none of them).
    pub fn of(stream: &[u8]) -> Result<Frame, FrameError> {
        if stream.get(..2) != Some(&[0xff, 0xd8]) {
            return Err(FrameError::NoSoi);
        }
        let mut at = 2;
        loop {
            let byte = |i: usize| stream.get(i).copied().ok_or(FrameError::End { at: i });
            if byte(at)? != 0xff {
                return Err(FrameError::NotMarker {
                    at,
                    byte: byte(at)?,
                });
            }
            // Any number of 0xFF fill bytes may precede a marker.
            while byte(at + 1)? == 0xff {
                at += 1;
            }
            let marker = byte(at + 1)?;
            match marker {
                0xda => return Err(FrameError::ScanFirst { at }),
                0xd9 => return Err(FrameError::EoiFirst { at }),
                // RSTn, TEM and a stray SOI have no length.
                0xd0..=0xd8 | 0x01 => {
                    at += 2;
                    continue;
                }
                _ => {}
            }
            let length = usize::from(u16::from_be_bytes([byte(at + 2)?, byte(at + 3)?]));
            match marker {
                0xc0..=0xc2 => {
                    let segment = stream
                        .get(at + 4..at + 2 + length)
                        .ok_or(FrameError::CutShort { at })?;
                    return Frame::parse(segment, marker == 0xc2)
                        .map_err(|source| FrameError::Header { at, source });
                }
                0xc3 | 0xc5..=0xc7 | 0xc9..=0xcb | 0xcd..=0xcf => {
                    return Err(FrameError::Unsupported { at, marker });
                }
                _ if length < 2 => {
                    return Err(FrameError::SegmentLength { at, length });
                }
                _ => at += 2 + length,
            }
        }
    }

    /// A frame header's fields after its length.
    fn parse(segment: &[u8], progressive: bool) -> Result<Frame, FrameHeaderError> {
        let &[precision, h1, h0, w1, w0, count, ref rest @ ..] = segment else {
            return Err(FrameHeaderError::Short);
        };
        if precision != 8 {
            return Err(FrameHeaderError::Precision(precision));
        }
        let (width, height) = (u16::from_be_bytes([w1, w0]), u16::from_be_bytes([h1, h0]));
        if width == 0 || height == 0 {
            return Err(FrameHeaderError::Empty { width, height });
        }
        let specs = rest
            .get(..3 * usize::from(count))
            .ok_or(FrameHeaderError::Components(count))?;
        let components: Vec<(u8, u8)> = specs
            .as_chunks::<3>()
            .0
            .iter()
            .map(|&[_, sampling, _]| (sampling >> 4, sampling & 0xf))
            .collect();
        if components.is_empty()
            || components
                .iter()
                .any(|&(h, v)| !(1..=4).contains(&h) || !(1..=4).contains(&v))
        {
            return Err(FrameHeaderError::Sampling(components));
        }
        Ok(Frame {
            width,
            height,
            progressive,
            components,
        })
    }

    /// The fewest bytes any stream coding this frame's scans can have.
    ///
    /// Each 8 x 8 block of each component is coded in every sequential frame
    /// with at least 2 bits: its DC difference and an end-of-block, each a
    /// Huffman code of at least 1 bit (the shortest code a table can give).
    /// A progressive frame's first DC scan still codes every block, in at
    /// least 1 bit (an end-of-band run can then skip the AC coefficients of
    /// up to 32767 blocks). A frame of 4 components at full resolution (every
    /// corpus level's) therefore needs a byte per 64 pixels sequential, per
    /// 128 progressive; the corpus levels take a byte per 7.7 pixels at most
    /// (`ce_artahs_stairs.blp`'s 4096 x 4096).
    /// A stream shorter than that cannot code the frame: only a decoder that
    /// pads a cut scan would decode it, into a buffer of the whole frame.
    pub fn least_scan_bytes(&self) -> usize {
        let h_max = self.components.iter().map(|c| c.0).max().unwrap_or(1);
        let v_max = self.components.iter().map(|c| c.1).max().unwrap_or(1);
        let blocks: usize = self
            .components
            .iter()
            .map(|&(h, v)| {
                // A component's own size: the frame's scaled by its sampling (A.1.1).
                let side = |s: u16, f: u8, max: u8| {
                    (usize::from(s) * usize::from(f)).div_ceil(usize::from(max))
                };
                side(self.width, h, h_max).div_ceil(8) * side(self.height, v, v_max).div_ceil(8)
            })
            .sum();
        let bits_per_block = if self.progressive { 1 } else { 2 };
        blocks * bits_per_block / 8
    }
}

/// A whole JPEG stream (SOI to EOI) of `rgba`, stored as B, G, R, A; `opaque`
/// stores 255 as alpha. No Adobe marker: real files have none.
pub fn encode(
    rgba: &[u8],
    width: u32,
    height: u32,
    opaque: bool,
    quality: u8,
) -> Result<Vec<u8>, CodecError> {
    let side = |side: u32| u16::try_from(side).map_err(|_| CodecError::JpegSide { side });
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
    encoder.encode_image(image).map_err(CodecError::Encoding)?;
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

    /// A 16 x 8 test image: a colour gradient, alpha 255 on the left half, 0 on the right.
    fn gradient() -> Vec<u8> {
        (0..16 * 8u32)
            .flat_map(|i| {
                let (x, y) = ((i % 16) as u8, (i / 16) as u8);
                [200 - 8 * x, 100 + 10 * y, 30, if x < 8 { 255 } else { 0 }]
            })
            .collect()
    }

    #[test]
    fn encode_then_decode_keeps_bgra_and_alpha() {
        let rgba = gradient();
        let stream = encode(&rgba, 16, 8, false, 95).unwrap();
        assert!(!stream.windows(5).any(|w| w == b"Adobe"));
        let back = decode(&stream[..20], &stream[20..], (16, 8), (16, 8)).unwrap();
        assert_eq!(back.len(), rgba.len());
        for (a, b) in back.iter().zip(&rgba) {
            assert!(a.abs_diff(*b) <= 6, "{a} vs {b}");
        }
        let opaque = encode(&rgba, 16, 8, true, 95).unwrap();
        let back = decode(&[], &opaque, (16, 8), (16, 8)).unwrap();
        assert!(back.iter().skip(3).step_by(4).all(|&a| a >= 250));
    }

    #[test]
    fn a_larger_frame_is_cropped_to_the_level_and_bounded_by_level_0() {
        let stream = encode(&gradient(), 16, 8, false, 95).unwrap();
        let whole = decode(&[], &stream, (16, 8), (16, 8)).unwrap();
        // A 5 x 3 level of that 16 x 8 frame: its top-left pixels, row by row.
        let cropped = decode(&[], &stream, (5, 3), (16, 8)).unwrap();
        let expected: Vec<u8> = (0..3)
            .flat_map(|y| whole[y * 64..y * 64 + 20].to_vec())
            .collect();
        assert_eq!(cropped, expected);
        let err = decode(&[], &stream, (8, 8), (8, 8)).unwrap_err();
        assert!(matches!(
            err,
            CodecError::FrameLarger {
                frame: (16, 8),
                level0: (8, 8)
            }
        ));
        assert_eq!(
            err.to_string(),
            "a 16x8 JPEG frame is larger than level 0 (8x8)"
        );
        let err = decode(&[], &stream, (16, 16), (32, 32)).unwrap_err();
        assert!(matches!(
            err,
            CodecError::FrameSmaller {
                frame: (16, 8),
                level: (16, 16)
            }
        ));
        let err = encode(&gradient(), 70_000, 8, false, 95).unwrap_err();
        assert!(matches!(err, CodecError::JpegSide { side: 70_000 }));
    }

    /// `stream` with the size in its frame header changed to `width` x `height`.
    fn resized(stream: &[u8], width: u16, height: u16) -> Vec<u8> {
        let at = stream.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
        let mut out = stream.to_vec();
        out[at + 5..at + 7].copy_from_slice(&height.to_be_bytes());
        out[at + 7..at + 9].copy_from_slice(&width.to_be_bytes());
        out
    }

    #[test]
    fn a_stream_too_short_for_its_frame_is_refused_before_decoding() {
        let stream = encode(&gradient(), 16, 8, false, 95).unwrap();
        let frame = Frame::of(&stream).unwrap();
        assert_eq!(
            (frame.width, frame.height, frame.progressive),
            (16, 8, false)
        );
        assert_eq!(frame.components, [(1, 1); 4]);
        // 2 x 1 blocks of 4 components, 2 bits each: 2 bytes.
        assert_eq!(frame.least_scan_bytes(), 2);
        // 4096 x 4096 needs 512 x 512 blocks of 4 components: 256 KiB.
        let big = resized(&stream, 4096, 4096);
        assert_eq!(
            Frame::of(&big).unwrap().least_scan_bytes(),
            512 * 512 * 4 / 4
        );
        let err = decode(&[], &big, (4096, 4096), (4096, 4096)).unwrap_err();
        assert!(matches!(
            err,
            CodecError::ScanShort { frame: (4096, 4096), components: 4, least: 262_144, len }
                if len == big.len()
        ));
        // Subsampled components have fewer blocks: a 2x2 first component
        // makes the other three quarter size.
        let subsampled = Frame {
            width: 64,
            height: 64,
            progressive: false,
            components: vec![(2, 2), (1, 1), (1, 1), (1, 1)],
        };
        assert_eq!(subsampled.least_scan_bytes(), (64 + 3 * 16) * 2 / 8);
        let progressive = Frame {
            progressive: true,
            ..subsampled
        };
        assert_eq!(progressive.least_scan_bytes(), (64 + 3 * 16) / 8);
    }

    #[test]
    fn frame_headers_that_cannot_be_read_are_refused() {
        let stream = encode(&gradient(), 16, 8, false, 95).unwrap();
        let sof = stream.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
        let cut = |n: usize| Frame::of(&stream[..n]).unwrap_err();
        assert_eq!(cut(0), FrameError::NoSoi);
        assert_eq!(cut(sof + 6), FrameError::CutShort { at: sof });
        assert_eq!(cut(sof), FrameError::End { at: sof });
        let header = |stream: &[u8]| match Frame::of(stream).unwrap_err() {
            FrameError::Header { at, source } if at == sof => source,
            other => panic!("{other}"),
        };
        let mut arithmetic = stream.clone();
        arithmetic[sof + 1] = 0xc9;
        let err = Frame::of(&arithmetic).unwrap_err();
        assert_eq!(
            err,
            FrameError::Unsupported {
                at: sof,
                marker: 0xc9
            }
        );
        assert!(err.to_string().contains("frame type 0xc9"), "{err}");
        let mut twelve_bit = stream.clone();
        twelve_bit[sof + 4] = 12;
        assert_eq!(header(&twelve_bit), FrameHeaderError::Precision(12));
        let empty = resized(&stream, 0, 8);
        assert_eq!(
            header(&empty),
            FrameHeaderError::Empty {
                width: 0,
                height: 8
            }
        );
        let mut sampling = stream.clone();
        sampling[sof + 11] = 0x51;
        assert!(matches!(header(&sampling), FrameHeaderError::Sampling(_)));
        let mut scan_first = stream[..2].to_vec();
        scan_first.extend_from_slice(&[0xff, 0xda, 0, 2]);
        assert_eq!(Frame::of(&scan_first), Err(FrameError::ScanFirst { at: 2 }));
        let mut eoi_first = stream[..2].to_vec();
        eoi_first.extend_from_slice(&[0xff, 0xd9]);
        assert_eq!(Frame::of(&eoi_first), Err(FrameError::EoiFirst { at: 2 }));
        let mut short_segment = stream[..2].to_vec();
        short_segment.extend_from_slice(&[0xff, 0xe0, 0, 1]);
        let err = Frame::of(&short_segment);
        assert_eq!(err, Err(FrameError::SegmentLength { at: 2, length: 1 }));
        let not_marker = [0xff, 0xd8, 0x12];
        let err = Frame::of(&not_marker);
        assert_eq!(err, Err(FrameError::NotMarker { at: 2, byte: 0x12 }));
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
