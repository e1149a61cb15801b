//! MDL syntax, independent of what the blocks mean: text -> a tree of
//! statements, each a list of items (words, strings, numbers, `:` and `{ }`
//! groups holding statements).
//!
//! A statement ends at `,`, after a `{ }` group (with or without a `,`), or at
//! the `}` of its enclosing group; `//` and `/* */` are comments. Every item
//! knows its byte offset, line and column, for errors.

use alloc::borrow::ToOwned;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::{Error, Result};

/// Where an item starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Byte offset in the text.
    pub offset: usize,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

/// What an item is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// `Geoset`, `static`, `Linear`, `NaN`...
    Word(String),
    /// `"text"` (no escapes: paths keep their backslashes).
    Str(String),
    /// `#"0a1b..."`: raw bytes in hex (this crate's extension, see the module docs).
    Raw(Vec<u8>),
    /// `12`, `-0.5`, `1e-7`, `0x7fc00001`, kept as text until its type is known.
    Num(String),
    /// `:` after a key frame.
    Colon,
    /// `{ statements }`
    Group(Vec<Stmt>),
}

/// One item with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// Where it starts.
    pub pos: Pos,
    /// What it is.
    pub kind: Kind,
}

/// One statement: `Vertices 3 { ... }`, `static Alpha 1,`, `0: { 1, 2, 3 },`.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// Where it starts.
    pub pos: Pos,
    /// Its items, in order.
    pub items: Vec<Item>,
}

/// Nesting deeper than this is refused (no real file nests more than 5).
const MAX_DEPTH: usize = 64;

struct Lexer<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    line: usize,
    /// The column of `at`, in characters, kept up to date by `bump` (so a long
    /// line costs nothing more per item).
    column: usize,
    /// The comments skipped so far (but the header this module's writers
    /// put first): what a rewrite in the canonical layout drops.
    comments: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer {
            text,
            bytes: text.as_bytes(),
            at: 0,
            line: 1,
            column: 1,
            comments: 0,
        }
    }

    fn pos(&self) -> Pos {
        Pos {
            offset: self.at,
            line: self.line,
            column: self.column,
        }
    }

    fn error(&self, pos: Pos, message: impl Into<String>) -> Error {
        Error::text(pos.offset, pos.line, pos.column, "", message.into())
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) {
        match self.peek() {
            Some(b'\n') => {
                self.line += 1;
                self.column = 1;
            }
            // A UTF-8 continuation byte is part of the character before it.
            Some(b) if b & 0xc0 == 0x80 => {}
            Some(_) => self.column += 1,
            None => {}
        }
        self.at += 1;
    }

    /// Skips white space (CR included) and comments.
    fn skip_blank(&mut self) -> Result<()> {
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_whitespace() => self.bump(),
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    let rest = self.text.get(self.at..).unwrap_or_default();
                    self.comments += usize::from(!rest.starts_with(super::WRITER_MARK));
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    let start = self.pos();
                    self.comments += 1;
                    self.bump();
                    self.bump();
                    loop {
                        match self.peek() {
                            None => return Err(self.error(start, "unterminated /* comment")),
                            Some(b'*') if self.bytes.get(self.at + 1) == Some(&b'/') => {
                                self.bump();
                                self.bump();
                                break;
                            }
                            Some(_) => self.bump(),
                        }
                    }
                }
                // A byte-order mark some editors put first.
                Some(0xef)
                    if self
                        .text
                        .get(self.at..)
                        .is_some_and(|s| s.starts_with('\u{feff}')) =>
                {
                    self.at += 3;
                }
                _ => return Ok(()),
            }
        }
    }

    fn string(&mut self) -> Result<String> {
        let start = self.pos();
        self.bump();
        let from = self.at;
        // A string ends on its line: a `"` left out (or a `\"`, which ends
        // the string, as MDL has no escapes) is reported where it starts,
        // not at the next string's quote lines later.
        while self.peek().is_some_and(|c| c != b'"' && c != b'\n') {
            self.bump();
        }
        if self.peek() != Some(b'"') {
            return Err(self.error(
                start,
                "unterminated string: no `\"` closes it on its line (MDL strings have no escapes)",
            ));
        }
        let text = self.text.get(from..self.at).unwrap_or_default().to_owned();
        self.bump();
        Ok(text)
    }

    fn run(&mut self, accept: fn(u8) -> bool) -> String {
        let from = self.at;
        while self.peek().is_some_and(accept) {
            self.bump();
        }
        self.text.get(from..self.at).unwrap_or_default().to_owned()
    }

    /// The next item, or `None` at `}`, `,` or the end (not consumed).
    fn item(&mut self, depth: usize) -> Result<Option<Item>> {
        self.skip_blank()?;
        let pos = self.pos();
        let kind = match self.peek() {
            None | Some(b'}') | Some(b',') => return Ok(None),
            Some(b'{') => {
                if depth >= MAX_DEPTH {
                    return Err(self.error(pos, "blocks nested too deeply"));
                }
                self.bump();
                let body = self.statements(depth + 1)?;
                self.skip_blank()?;
                if self.peek() != Some(b'}') {
                    return Err(self.error(self.pos(), "expected `}`"));
                }
                self.bump();
                Kind::Group(body)
            }
            Some(b'"') => Kind::Str(self.string()?),
            Some(b'#') if self.bytes.get(self.at + 1) == Some(&b'"') => {
                self.bump();
                let text = self.string()?;
                Kind::Raw(from_hex(&text).ok_or_else(|| {
                    self.error(
                        pos,
                        format!("`#\"{text}\"` is not an even number of hex digits"),
                    )
                })?)
            }
            Some(b':') => {
                self.bump();
                Kind::Colon
            }
            Some(c) if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.') => {
                Kind::Num(self.run(|c| c.is_ascii_alphanumeric() || b".+-_#".contains(&c)))
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                Kind::Word(self.run(|c| c.is_ascii_alphanumeric() || c == b'_'))
            }
            Some(_) => {
                let c = self.text.get(self.at..).and_then(|s| s.chars().next());
                let c = c.map_or_else(|| "byte".to_string(), |c| format!("{c:?}"));
                return Err(self.error(pos, format!("unexpected character {c}")));
            }
        };
        Ok(Some(Item { pos, kind }))
    }

    /// Statements up to a `}` or the end (not consumed).
    fn statements(&mut self, depth: usize) -> Result<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            self.skip_blank()?;
            let pos = self.pos();
            match self.peek() {
                None | Some(b'}') => return Ok(out),
                Some(b',') => {
                    // An empty statement (`,,`): nothing to keep.
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let mut items = Vec::new();
            while let Some(item) = self.item(depth)? {
                let group = matches!(item.kind, Kind::Group(_));
                items.push(item);
                if group {
                    break;
                }
            }
            self.skip_blank()?;
            if self.peek() == Some(b',') {
                self.bump();
            }
            out.push(Stmt { pos, items });
        }
    }
}

/// Parses MDL text into its statements.
pub fn parse(text: &str) -> Result<Vec<Stmt>> {
    let mut lexer = Lexer::new(text);
    let out = lexer.statements(0)?;
    if lexer.peek().is_some() {
        return Err(lexer.error(lexer.pos(), "`}` without a matching `{`"));
    }
    Ok(out)
}

/// The comments of MDL text, as the reader skips them: each `//` to the end
/// of its line (on a line of its own or after a value, as in Blizzard's
/// `Parent 26, // "Bone_Pelvis"`) and each `/* */`; none inside a string,
/// and not the header this module's writers put first. Text that does not
/// lex is counted to the end all the same (a string left open ends at its
/// `"`).
pub fn comment_count(text: &str) -> usize {
    let mut lexer = Lexer::new(text);
    loop {
        // An unterminated `/*` runs to the end: counted, nothing after it.
        if lexer.skip_blank().is_err() {
            break;
        }
        match lexer.peek() {
            None => break,
            Some(b'"') => {
                if lexer.string().is_err() {
                    lexer.bump();
                }
            }
            Some(_) => lexer.bump(),
        }
    }
    lexer.comments
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    let digits = text.as_bytes();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks_exact(2)
        .map(|pair| {
            let s = core::str::from_utf8(pair).ok()?;
            u8::from_str_radix(s, 16).ok()
        })
        .collect()
}

/// Lower-case hex, two digits per byte.
pub fn to_hex(bytes: &[u8]) -> String {
    use core::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

impl Kind {
    /// How the item looks, for error messages.
    pub fn describe(&self) -> String {
        match self {
            Kind::Word(w) => format!("`{w}`"),
            Kind::Str(s) => format!("\"{s}\""),
            Kind::Raw(_) => "raw bytes".into(),
            Kind::Num(n) => format!("the number {n}"),
            Kind::Colon => "`:`".into(),
            Kind::Group(_) => "a `{ }` block".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_end_at_commas_groups_and_braces() {
        let tree = parse("A 1 { 0: { 1, 2 }, InTan 3 }\r\n// c\nB \"x\\y\",").unwrap();
        assert_eq!(tree.len(), 2);
        let Kind::Group(body) = &tree[0].items[2].kind else {
            panic!("no group")
        };
        assert_eq!(body.len(), 2);
        assert_eq!(body[0].items.len(), 3);
        assert_eq!(tree[1].items[1].kind, Kind::Str("x\\y".into()));
        assert_eq!(tree[1].pos.line, 3);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("A {\n  B 1,\n  ?\n}").unwrap_err();
        assert_eq!(e.to_string(), "line 3, column 3: unexpected character '?'");
        assert!(parse("A { B").is_err());
        assert!(parse("}").is_err());
        assert!(parse(&"{".repeat(100)).is_err());
        // Columns count characters, not bytes.
        let e = parse("Bone \"闪电\" ?").unwrap_err();
        assert_eq!(e.to_string(), "line 1, column 11: unexpected character '?'");
    }

    #[test]
    fn comments_are_counted_as_the_reader_skips_them() {
        // A line comment, one after a value (with a `"` in it), a block
        // comment; a `//` in a string and the writer's header are none.
        let text = format!(
            "{} (plain MDL).\n// a line\nBone \"a//b\" {{\n\tParent 26,\t// \"Bone_Pelvis\"\n\
             \tObjectId /* id */ 1,\n}}\n",
            super::super::WRITER_MARK
        );
        assert_eq!(comment_count(&text), 3);
        assert_eq!(parse(&text).map(|s| s.len()), Ok(1));
        assert_eq!(comment_count("Image \"a/*b\",\nImage \"c*/d\","), 0);
        // A string left open ends at its line; a block comment left open
        // runs to the end.
        assert_eq!(comment_count("Name \"open\n// one\n/* two"), 2);
    }

    #[test]
    fn a_long_line_costs_linear_time() {
        // 300 000 items on one line: quadratic column counting would take minutes.
        let line = format!("Faces {{ {} }}", "1, ".repeat(300_000));
        let tree = parse(&line).unwrap();
        let Kind::Group(body) = &tree[0].items[1].kind else {
            panic!("no group")
        };
        assert_eq!(body.len(), 300_000);
        assert_eq!(body[299_999].pos.column, 9 + 3 * 299_999);
    }
}
