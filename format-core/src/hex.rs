//! Text forms of raw bytes for human-readable serde formats: lower-case hex for
//! blobs, and `\xNN` escapes for tags.

use alloc::string::String;
use alloc::vec::Vec;

fn hex_digit(n: u8) -> char {
    char::from(if n < 10 { b'0' + n } else { b'a' + n - 10 })
}

/// Lower-case hex, two digits per byte.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(hex_digit(b >> 4));
        s.push(hex_digit(b & 15));
    }
    s
}

fn digit(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Parses [`encode`]'s output (either case); `None` on odd length or a non-hex digit.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn decode(s: &str) -> Option<Vec<u8>> {
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    s.chunks_exact(2)
        .map(|pair| match pair {
            [hi, lo] => Some(digit(*hi)? << 4 | digit(*lo)?),
            _ => None,
        })
        .collect()
}

/// Parses text where bytes may be written `\xNN` (the [`FourCC`](crate::FourCC)
/// display form) into exactly `N` bytes.
#[cfg_attr(not(feature = "serde"), allow(dead_code))]
pub(crate) fn parse_escaped<const N: usize>(s: &str) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    let mut len = 0;
    let mut rest = s.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        let (byte, tail) = match (b, tail) {
            (b'\\', [b'x', hi, lo, tail @ ..]) => (digit(*hi)? << 4 | digit(*lo)?, tail),
            (b'\\', _) => return None,
            (b, tail) if b.is_ascii() => (b, tail),
            _ => return None,
        };
        *out.get_mut(len)? = byte;
        len += 1;
        rest = tail;
    }
    (len == N).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips() {
        let bytes = [0u8, 1, 0x7f, 0x80, 0xff];
        assert_eq!(encode(&bytes), "00017f80ff");
        assert_eq!(decode("00017F80ff").as_deref(), Some(&bytes[..]));
        assert_eq!(decode("0"), None);
        assert_eq!(decode("zz"), None);
    }

    #[test]
    fn escapes_parse() {
        assert_eq!(parse_escaped::<4>("GEOS"), Some(*b"GEOS"));
        assert_eq!(parse_escaped::<4>("\\x00\\x00\\x00\\x00"), Some([0; 4]));
        assert_eq!(parse_escaped::<4>("A\\x5cB "), Some(*b"A\\B "));
        assert_eq!(parse_escaped::<4>("GEO"), None);
        assert_eq!(parse_escaped::<4>("GEOSX"), None);
        assert_eq!(parse_escaped::<4>("\\q123"), None);
    }
}
