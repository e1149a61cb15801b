//! `MTEX`, `MMDX`, `MMID`, `MWMO`, `MWID`: file names of textures, models and
//! WMOs, and the offset tables that reference the model names.
//!
//! A names chunk is `char filenames[0]`: zero-terminated strings one after the
//! other. It is kept as those bytes, since `MMID`/`MWID` reference names by byte
//! offset; [`FileNames`] gives typed access and appends names.

use format_core::{Codec, Error, Result};

/// The body of a names chunk: zero-terminated strings, kept as bytes.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FileNames {
    /// `char filenames[0]`: zero-terminated strings with complete paths.
    /// In serde's text formats a list of the names when they are UTF-8 and
    /// each ends in its zero (every real file), else the bytes as hex.
    #[format(until_end)]
    #[cfg_attr(feature = "serde", serde(with = "names_serde"))]
    pub filenames: Vec<u8>,
}

/// `FileNames::filenames` for serde: `["a.blp", "b.blp"]` for readers of
/// `formats dump --json`, where the bytes are exactly those names each
/// followed by its zero; hex text otherwise (a last name without its zero,
/// bytes that are not UTF-8), so that every file round-trips.
#[cfg(feature = "serde")]
mod names_serde {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// The names, if `bytes` are UTF-8 names each ending in a zero.
    fn as_names(bytes: &[u8]) -> Option<Vec<&str>> {
        let body = match bytes {
            [] => return Some(Vec::new()),
            [body @ .., 0] => body,
            _ => return None,
        };
        body.split(|&b| b == 0)
            .map(|name| core::str::from_utf8(name).ok())
            .collect()
    }

    pub fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        match as_names(bytes) {
            Some(names) if s.is_human_readable() => names.serialize(s),
            _ => format_core::serde_bytes::serialize(bytes, s),
        }
    }

    /// Either form [`serialize`] writes.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        Names(Vec<String>),
        Bytes(#[serde(with = "format_core::serde_bytes")] Vec<u8>),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        if !d.is_human_readable() {
            return format_core::serde_bytes::deserialize(d);
        }
        Ok(match Form::deserialize(d)? {
            Form::Names(names) => names
                .iter()
                .flat_map(|name| name.bytes().chain([0]))
                .collect(),
            Form::Bytes(bytes) => bytes,
        })
    }
}

impl FileNames {
    /// Names from a list of paths (each written zero-terminated).
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Self> {
        let mut list = FileNames::default();
        for name in names {
            list.push(name)?;
        }
        Ok(list)
    }

    /// Every name with the byte offset it starts at, in order. A last name
    /// without its terminating zero is listed too.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &[u8])> + '_ {
        let mut offset = 0u32;
        self.filenames
            .split_inclusive(|&b| b == 0)
            .map(move |piece| {
                let start = offset;
                offset = offset.saturating_add(u32::try_from(piece.len()).unwrap_or(u32::MAX));
                (start, piece.strip_suffix(&[0]).unwrap_or(piece))
            })
    }

    /// The names as text (invalid UTF-8 replaced), in order.
    pub fn names(&self) -> Vec<String> {
        self.iter()
            .map(|(_, name)| String::from_utf8_lossy(name).into_owned())
            .collect()
    }

    /// The name starting at byte `offset` (what an `MMID`/`MWID` entry holds).
    pub fn name_at(&self, offset: u32) -> Option<&[u8]> {
        let start = usize::try_from(offset).ok()?;
        let rest = self.filenames.get(start..)?;
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        rest.get(..end)
    }

    /// The `index`-th name (what an `MCLY` `textureId` refers to in `MTEX`).
    pub fn get(&self, index: usize) -> Option<&[u8]> {
        self.iter().nth(index).map(|(_, name)| name)
    }

    /// The index and byte offset of the first name that is `name` as the
    /// game's file system sees it: ASCII case and `/` against `\` do not
    /// matter (`World/Generic/Crate.M2` is `world\generic\crate.m2`).
    pub fn find(&self, name: &str) -> Option<(usize, u32)> {
        let same = |a: &u8, b: &u8| {
            let fold = |c: u8| {
                if c == b'/' {
                    b'\\'
                } else {
                    c.to_ascii_lowercase()
                }
            };
            fold(*a) == fold(*b)
        };
        self.iter()
            .enumerate()
            .find_map(|(index, (offset, stored))| {
                let equal = stored.len() == name.len()
                    && stored.iter().zip(name.as_bytes()).all(|(a, b)| same(a, b));
                equal.then_some((index, offset))
            })
    }

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// True when there are no names.
    pub fn is_empty(&self) -> bool {
        self.filenames.is_empty()
    }

    /// Appends `name` zero-terminated and returns its byte offset.
    pub fn push(&mut self, name: &str) -> Result<u32> {
        if name.as_bytes().contains(&0) {
            return Err(Error::other(format!("file name {name:?} contains a NUL")));
        }
        if self.filenames.last().is_some_and(|&b| b != 0) {
            return Err(Error::invalid(
                self.filenames.len(),
                "the last name has no terminating NUL; cannot append after it",
            ));
        }
        let offset = u32::try_from(self.filenames.len())
            .map_err(|_| Error::other("names chunk larger than 4 GiB"))?;
        self.filenames.extend_from_slice(name.as_bytes());
        self.filenames.push(0);
        Ok(offset)
    }
}

/// `MTEX`: zero-terminated strings with complete paths to textures. Referenced in MCLY.
pub type Mtex = FileNames;
/// `MMDX`: zero-terminated strings with complete paths to models. Referenced in MMID.
pub type Mmdx = FileNames;
/// `MWMO`: zero-terminated strings with complete paths to models. Referenced in MWID.
pub type Mwmo = FileNames;

/// `MMID`/`MWID`: `uint32_t offsets[0]`.
#[derive(Codec, Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NameOffsets {
    /// filename starting position in the names chunk (MMDX for MMID, MWMO for
    /// MWID). These entries are getting referenced in the MDDF (MODF) chunk.
    #[format(count = size / 4)]
    pub offsets: Vec<u32>,
}

/// `MMID`: filename starting positions in MMDX, referenced by MDDF `nameId`.
pub type Mmid = NameOffsets;
/// `MWID`: filename starting positions in MWMO, referenced by MODF `nameId`.
pub type Mwid = NameOffsets;

#[cfg(test)]
mod tests {
    use super::*;

    /// In JSON: names where the bytes are names each ending in its zero,
    /// hex where they are not; both read back to the same bytes.
    #[cfg(feature = "serde")]
    #[test]
    fn names_are_text_in_json_where_they_can_be() {
        let cases: [(&[u8], &str); 5] = [
            (b"a.blp\0b/c.blp\0", r#"["a.blp","b/c.blp"]"#),
            (b"", "[]"),
            (b"\0", r#"[""]"#),
            (b"a.blp\0cut", r#""612e626c7000637574""#),
            (b"\xff\0", r#""ff00""#),
        ];
        for (bytes, text) in cases {
            let names = FileNames {
                filenames: bytes.to_vec(),
            };
            let json = serde_json::to_string(&names).unwrap();
            assert_eq!(json, format!(r#"{{"filenames":{text}}}"#));
            let back: FileNames = serde_json::from_str(&json).unwrap();
            assert_eq!(back, names);
        }
    }

    #[test]
    fn names_keep_their_offsets() -> Result<()> {
        let mut names = FileNames::from_names(["a.m2", "bb.m2"])?;
        assert_eq!(names.filenames, b"a.m2\0bb.m2\0");
        assert_eq!(names.push("c.m2")?, 11);
        assert_eq!(names.name_at(5), Some(&b"bb.m2"[..]));
        assert_eq!(names.get(2), Some(&b"c.m2"[..]));
        assert_eq!(names.names(), ["a.m2", "bb.m2", "c.m2"]);
        assert!(names.push("bad\0").is_err());
        let unterminated = FileNames {
            filenames: b"x\0tail".to_vec(),
        };
        assert_eq!(unterminated.len(), 2);
        assert!(unterminated.clone().push("y").is_err());
        Ok(())
    }
}
