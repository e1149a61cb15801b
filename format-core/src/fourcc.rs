//! Four-character codes: chunk tags such as `MDLX`, `GEOS`, `MVER`.

use core::fmt;

use crate::TagOrder;

/// A four-character code, stored in the order the spec writes it (`*b"MVER"`),
/// whatever order the format puts on disk (see [`TagOrder`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct FourCC(pub [u8; 4]);

impl FourCC {
    /// A tag from its four bytes in spec order.
    pub const fn new(bytes: [u8; 4]) -> Self {
        FourCC(bytes)
    }

    /// A tag from a four-byte string, for constants: `const KGTR: FourCC = FourCC::of("KGTR");`
    /// (a string of another length fails to compile there).
    pub const fn of(tag: &str) -> Self {
        match tag.as_bytes() {
            [a, b, c, d] => FourCC([*a, *b, *c, *d]),
            _ => panic!("a FourCC has exactly four bytes"),
        }
    }

    /// The four bytes in spec order.
    pub const fn bytes(self) -> [u8; 4] {
        self.0
    }

    /// The bytes as they are stored on disk in `order`.
    pub const fn to_disk(self, order: TagOrder) -> [u8; 4] {
        match order {
            TagOrder::AsSpecified => self.0,
            TagOrder::Reversed => [self.0[3], self.0[2], self.0[1], self.0[0]],
        }
    }

    /// The tag stored on disk as `bytes` in `order`.
    pub const fn from_disk(bytes: [u8; 4], order: TagOrder) -> Self {
        match order {
            TagOrder::AsSpecified => FourCC(bytes),
            TagOrder::Reversed => FourCC([bytes[3], bytes[2], bytes[1], bytes[0]]),
        }
    }

    /// True if all four bytes are printable ASCII (space to `~`).
    pub fn is_printable(self) -> bool {
        self.0.iter().all(|b| (0x20..0x7f).contains(b))
    }
}

impl From<[u8; 4]> for FourCC {
    fn from(bytes: [u8; 4]) -> Self {
        FourCC(bytes)
    }
}

impl From<&[u8; 4]> for FourCC {
    fn from(bytes: &[u8; 4]) -> Self {
        FourCC(*bytes)
    }
}

impl PartialEq<[u8; 4]> for FourCC {
    fn eq(&self, other: &[u8; 4]) -> bool {
        self.0 == *other
    }
}

impl PartialEq<&[u8; 4]> for FourCC {
    fn eq(&self, other: &&[u8; 4]) -> bool {
        self.0 == **other
    }
}

/// Printable ASCII as is, anything else (and the backslash) as `\xNN`:
/// `GEOS`, `TRI `, `\x00\x00\x00\x00`.
impl fmt::Display for FourCC {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if (0x20..0x7f).contains(&b) && b != b'\\' {
                fmt::Write::write_char(f, char::from(b))?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for FourCC {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FourCC(\"{self}\")")
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::FourCC;
    use alloc::string::ToString;
    use core::fmt;
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Human-readable formats get the tag as text (`"GEOS"`, or `"\x00\x00\x00\x00"`
    /// for unprintable bytes); others get the four raw bytes.
    impl Serialize for FourCC {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if s.is_human_readable() {
                s.serialize_str(&self.to_string())
            } else {
                self.0.serialize(s)
            }
        }
    }

    impl<'de> Deserialize<'de> for FourCC {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            if d.is_human_readable() {
                d.deserialize_str(TagVisitor)
            } else {
                <[u8; 4]>::deserialize(d).map(FourCC)
            }
        }
    }

    struct TagVisitor;

    impl Visitor<'_> for TagVisitor {
        type Value = FourCC;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a four-character tag (\\xNN for unprintable bytes)")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<FourCC, E> {
            crate::hex::parse_escaped::<4>(v)
                .map(FourCC)
                .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    #[test]
    fn display_escapes_unprintable_bytes() {
        assert_eq!(format!("{}", FourCC(*b"GEOS")), "GEOS");
        assert_eq!(format!("{}", FourCC(*b"TRI ")), "TRI ");
        assert_eq!(format!("{}", FourCC([0, 0, 0, 0])), "\\x00\\x00\\x00\\x00");
        assert_eq!(format!("{:?}", FourCC(*b"MDLX")), "FourCC(\"MDLX\")");
    }

    #[test]
    fn disk_order_round_trips() {
        let tag = FourCC(*b"MVER");
        assert_eq!(tag.to_disk(TagOrder::Reversed), *b"REVM");
        assert_eq!(FourCC::from_disk(*b"REVM", TagOrder::Reversed), tag);
        assert_eq!(tag.to_disk(TagOrder::AsSpecified), *b"MVER");
    }
}
