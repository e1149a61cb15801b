//! `char[N]`: fixed-size, NUL-padded strings that keep every byte.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use core::fmt;

use crate::{Error, Plain};

/// A `char[N]` field: exactly `N` raw bytes, NUL padded.
///
/// All `N` bytes are kept, including anything after the first NUL (real files
/// carry such residue) and a string that fills all `N` bytes with no NUL, so a
/// read followed by a write gives the same bytes. [`text`](FixedStr::text) is the
/// string up to the first NUL; building one from a string that does not fit is an
/// error, never a truncation.
///
/// ```
/// use format_core::FixedStr;
/// let name = FixedStr::<8>::try_from("Stand")?;
/// assert_eq!(name.as_bytes(), b"Stand\0\0\0");
/// assert_eq!(name.to_str(), Ok("Stand"));
/// assert!(FixedStr::<4>::try_from("Stand").is_err());
/// # Ok::<(), format_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct FixedStr<const N: usize>([u8; N]);

impl<const N: usize> Plain for FixedStr<N> {
    #[inline(always)]
    fn read_le(bytes: &[u8]) -> Option<Self> {
        <[u8; N]>::read_le(bytes).map(FixedStr)
    }

    #[inline(always)]
    fn write_le(&self, out: &mut [u8]) -> Option<()> {
        self.0.write_le(out)
    }

    #[inline(always)]
    fn zeroed() -> Self {
        FixedStr([0; N])
    }
}

impl<const N: usize> Default for FixedStr<N> {
    fn default() -> Self {
        FixedStr([0; N])
    }
}

impl<const N: usize> FixedStr<N> {
    /// All `N` bytes as they are.
    pub const fn from_bytes(bytes: [u8; N]) -> Self {
        FixedStr(bytes)
    }

    /// All `N` bytes.
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.0
    }

    /// The bytes up to the first NUL (all `N` if there is none).
    pub fn text(&self) -> &[u8] {
        let len = self.0.iter().position(|&b| b == 0).unwrap_or(N);
        self.0.get(..len).unwrap_or_default()
    }

    /// The bytes after the first NUL (empty if there is no NUL).
    pub fn residue(&self) -> &[u8] {
        let start = self.text().len().saturating_add(1);
        self.0.get(start..).unwrap_or_default()
    }

    /// True if every byte after the first NUL is zero (what a clean writer produces).
    pub fn is_clean(&self) -> bool {
        self.residue().iter().all(|&b| b == 0)
    }

    /// The text as UTF-8.
    pub fn to_str(&self) -> Result<&str, core::str::Utf8Error> {
        core::str::from_utf8(self.text())
    }

    /// The text, with invalid UTF-8 replaced.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(self.text())
    }

    /// Replaces the whole field with `text` and zero padding (any residue is
    /// dropped). Fails if `text` is longer than `N` bytes or contains a NUL.
    pub fn set(&mut self, text: &str) -> Result<(), Error> {
        *self = Self::try_from(text)?;
        Ok(())
    }
}

impl<const N: usize> TryFrom<&str> for FixedStr<N> {
    type Error = Error;

    /// `text` then zero padding; `text` may fill all `N` bytes (no NUL then, as in
    /// some real files). Longer text, or text with a NUL, is an error.
    fn try_from(text: &str) -> Result<Self, Error> {
        let bytes = text.as_bytes();
        if bytes.contains(&0) {
            return Err(Error::other(format!("string {text:?} contains a NUL byte")));
        }
        let mut out = [0u8; N];
        match out.get_mut(..bytes.len()) {
            Some(prefix) => {
                prefix.copy_from_slice(bytes);
                Ok(FixedStr(out))
            }
            None => Err(Error::other(format!(
                "string of {} bytes does not fit in char[{N}]: {text:?}",
                bytes.len()
            ))),
        }
    }
}

impl<const N: usize> From<[u8; N]> for FixedStr<N> {
    fn from(bytes: [u8; N]) -> Self {
        FixedStr(bytes)
    }
}

impl<const N: usize> fmt::Debug for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())?;
        if !self.is_clean() {
            write!(f, " (+{} bytes after NUL)", self.residue().len())?;
        }
        Ok(())
    }
}

impl<const N: usize> fmt::Display for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::FixedStr;
    use crate::hex;
    use alloc::string::String;
    use core::fmt;
    use serde::de::{self, MapAccess, Visitor};
    use serde::ser::SerializeStruct;
    use serde::{Deserializer, Serialize, Serializer};

    /// Human-readable formats: a clean UTF-8 string is just the string; anything
    /// else is `{ "text": lossy text, "raw": hex of all N bytes }`, so nothing is
    /// lost. Binary formats: the N bytes.
    impl<const N: usize> Serialize for FixedStr<N> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if !s.is_human_readable() {
                return s.serialize_bytes(&self.0);
            }
            match self.to_str() {
                Ok(text) if self.is_clean() => s.serialize_str(text),
                _ => {
                    let mut st = s.serialize_struct("FixedStr", 2)?;
                    st.serialize_field("text", &self.to_string_lossy())?;
                    st.serialize_field("raw", &hex::encode(&self.0))?;
                    st.end()
                }
            }
        }
    }

    impl<'de, const N: usize> serde::Deserialize<'de> for FixedStr<N> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            if d.is_human_readable() {
                d.deserialize_any(FixedStrVisitor::<N>)
            } else {
                d.deserialize_bytes(FixedStrVisitor::<N>)
            }
        }
    }

    struct FixedStrVisitor<const N: usize>;

    impl<'de, const N: usize> Visitor<'de> for FixedStrVisitor<N> {
        type Value = FixedStr<N>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "a string of at most {N} bytes, or {{text, raw}}")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            FixedStr::try_from(v).map_err(E::custom)
        }

        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
            <[u8; N]>::try_from(v)
                .map(FixedStr)
                .map_err(|_| E::invalid_length(v.len(), &self))
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut text: Option<String> = None;
            let mut raw: Option<String> = None;
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "text" => text = Some(map.next_value()?),
                    "raw" => raw = Some(map.next_value()?),
                    other => return Err(de::Error::unknown_field(other, &["text", "raw"])),
                }
            }
            match (raw, text) {
                (Some(raw), _) => {
                    let bytes =
                        hex::decode(&raw).ok_or_else(|| de::Error::custom("`raw` is not hex"))?;
                    self.visit_bytes(&bytes)
                }
                (None, Some(text)) => self.visit_str(&text),
                (None, None) => Err(de::Error::missing_field("text")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_bytes_after_the_nul() {
        let mut bytes = [0u8; 16];
        bytes[..4].copy_from_slice(b"Bone");
        bytes[10..13].copy_from_slice(b"PDR");
        let s = FixedStr::from_bytes(bytes);
        assert_eq!(s.text(), b"Bone");
        assert_eq!(s.residue().len(), 11);
        assert!(!s.is_clean());
        assert_eq!(*s.as_bytes(), bytes);
        assert_eq!(alloc::format!("{s:?}"), "\"Bone\" (+11 bytes after NUL)");
    }

    #[test]
    fn full_width_text_has_no_nul() {
        let s = FixedStr::<4>::try_from("ABCD").unwrap();
        assert_eq!(s.text(), b"ABCD");
        assert!(s.residue().is_empty());
        assert!(s.is_clean());
    }

    #[test]
    fn too_long_or_nul_is_an_error() {
        let e = FixedStr::<4>::try_from("ABCDE").unwrap_err();
        assert_eq!(
            e.to_string(),
            "string of 5 bytes does not fit in char[4]: \"ABCDE\""
        );
        assert!(FixedStr::<8>::try_from("A\0B").is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_keeps_residue() {
        let clean = FixedStr::<8>::try_from("Walk").unwrap();
        let json = serde_json::to_string(&clean).unwrap();
        assert_eq!(json, "\"Walk\"");
        assert_eq!(serde_json::from_str::<FixedStr<8>>(&json).unwrap(), clean);

        let dirty = FixedStr::from_bytes(*b"Walk\0PDR");
        let json = serde_json::to_string(&dirty).unwrap();
        assert_eq!(json, r#"{"text":"Walk","raw":"57616c6b00504452"}"#);
        assert_eq!(serde_json::from_str::<FixedStr<8>>(&json).unwrap(), dirty);
    }
}
