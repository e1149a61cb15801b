//! The GLB container (glTF 2.0 §4.4): a 12-byte header (`glTF`, version 2,
//! total length), a JSON chunk padded with spaces to 4 bytes, and a binary
//! chunk padded with zeros (left out when the buffer is empty).

use super::error::ExportError;

/// Chunk type of the JSON chunk (`JSON`).
const JSON: u32 = 0x4E4F_534A;
/// Chunk type of the binary chunk (`BIN\0`).
const BIN: u32 = 0x004E_4942;

/// The `.glb` bytes of `json` and `bin`; an error past the 4 GiB the format's
/// 32-bit lengths hold.
pub(crate) fn write(json: &[u8], bin: &[u8]) -> Result<Vec<u8>, ExportError> {
    let padded = |n: usize| n.div_ceil(4) * 4;
    let json_len = padded(json.len());
    let bin_len = padded(bin.len());
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let too_big = |_| ExportError::TooLarge { size: total };
    let u32_of = |n: usize| u32::try_from(n).map_err(too_big);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&u32_of(total)?.to_le_bytes());
    out.extend_from_slice(&u32_of(json_len)?.to_le_bytes());
    out.extend_from_slice(&JSON.to_le_bytes());
    out.extend_from_slice(json);
    out.resize(20 + json_len, b' ');
    if !bin.is_empty() {
        out.extend_from_slice(&u32_of(bin_len)?.to_le_bytes());
        out.extend_from_slice(&BIN.to_le_bytes());
        out.extend_from_slice(bin);
        out.resize(total, 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_padded_to_four_bytes() {
        let glb = write(b"{}", &[7, 7, 7, 7, 7]).unwrap();
        assert_eq!(glb.len(), 12 + 8 + 4 + 8 + 8);
        assert_eq!(&glb[8..12], &(glb.len() as u32).to_le_bytes());
        assert_eq!(&glb[20..24], b"{}  ");
        assert_eq!(&glb[24..28], &8u32.to_le_bytes());
        assert_eq!(&glb[28..32], b"BIN\0");
        assert_eq!(&glb[32..], &[7, 7, 7, 7, 7, 0, 0, 0]);
        // No buffer, no binary chunk.
        assert_eq!(write(b"{}", &[]).unwrap().len(), 24);
    }
}
