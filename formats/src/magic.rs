//! What a file is by its first bytes, for the error a reader gives when it is
//! handed something else (an MDX model renamed `.blp`, as two public files
//! are; an empty file from a failed copy).

use format_core::Error;

/// What the first four bytes of `data` say the file is, if they are a magic
/// of a format this crate reads (or of PNG).
fn looks_like(data: &[u8]) -> Option<&'static str> {
    match data.first_chunk::<4>()? {
        b"MDLX" => Some("an MDX model"),
        b"BLP1" | b"BLP2" => Some("a BLP texture"),
        b"DDS " => Some("a DDS texture"),
        b"\x89PNG" => Some("a PNG image"),
        b"REVM" => Some("an ADT or WDT file"),
        _ => None,
    }
}

/// The error for `data` that is not `file` (`a BLP texture`), which starts
/// with `expected` (`` `BLP1` or `BLP2` ``): at offset 0, saying what the
/// file starts with and what that looks like.
pub(crate) fn not_a(file: &str, expected: &str, data: &[u8]) -> Error {
    let found = match data.first_chunk::<4>() {
        None if data.is_empty() => format!("it is empty (such a file starts with {expected})"),
        None => format!(
            "it is only {} bytes (such a file starts with {expected})",
            data.len()
        ),
        Some(first) => {
            let what = looks_like(data).map_or_else(String::new, |w| format!(" ({w})"));
            let first = String::from_utf8_lossy(first);
            format!("it starts with {first:?}{what}, not with {expected}")
        }
    };
    Error::invalid(0, format!("not {file}: {found}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_what_the_file_is_instead() {
        let message = |data: &[u8]| not_a("a BLP texture", "`BLP1` or `BLP2`", data).to_string();
        assert!(
            message(b"MDLXVERS")
                .ends_with("not a BLP texture: it starts with \"MDLX\" (an MDX model), not with `BLP1` or `BLP2`"),
            "{}",
            message(b"MDLXVERS")
        );
        assert!(message(b"").ends_with(
            "not a BLP texture: it is empty (such a file starts with `BLP1` or `BLP2`)"
        ));
        assert!(message(b"BL").contains("it is only 2 bytes"));
        assert!(message(b"ZZZZ").contains("it starts with \"ZZZZ\", not with"));
    }
}
