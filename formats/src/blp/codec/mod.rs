//! The pixel encodings of BLP levels, as functions over one level's bytes and
//! the header's parameters (independent of how the header was read).

pub mod dxt;
mod error;
pub mod jpeg;
pub mod palette;

pub use error::{CodecError, FrameError, FrameHeaderError};

/// R, G, B, A pixels of an uncompressed BGRA level (`opaque`: alpha 255);
/// bytes past `width * height` pixels are ignored.
pub fn decode_bgra(
    level: &[u8],
    width: u32,
    height: u32,
    opaque: bool,
) -> Result<Vec<u8>, CodecError> {
    let needed = width as usize * height as usize * 4;
    let bytes = level.get(..needed).ok_or(CodecError::BgraShort {
        needed,
        len: level.len(),
    })?;
    let mut out = bytes.to_vec();
    for px in out.as_chunks_mut::<4>().0 {
        px.swap(0, 2);
        if opaque {
            px[3] = 255;
        }
    }
    Ok(out)
}

/// An uncompressed BGRA level of R, G, B, A pixels.
pub fn encode_bgra(rgba: &[u8]) -> Vec<u8> {
    let mut out = rgba.to_vec();
    for px in out.as_chunks_mut::<4>().0 {
        px.swap(0, 2);
    }
    out
}
