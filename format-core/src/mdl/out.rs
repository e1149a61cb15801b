//! The text being written ([`Out`]): indentation, the extension's `Ext*`
//! keys and `#"hex"` values, and a plain writer that leaves them out and
//! says what it left out ([`LeftOut`]).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::FixedStr;

use super::syntax::to_hex;
use super::value::Value;

/// MDL text being written, with its indentation.
#[derive(Default)]
pub struct Out {
    /// The text written so far.
    pub text: String,
    depth: usize,
    /// Writing plain MDL (without the extension): what is left out.
    plain: Option<Plain>,
}

/// How a plain writer's note calls the name of the block it opens (the
/// block's path shows the name as written).
const NAME: &str = "its name";

/// The state of a plain MDL writer: what it left out, where it is.
#[derive(Default)]
struct Plain {
    left_out: Vec<LeftOut>,
    /// Depth inside a block left out (0: writing).
    skipping: usize,
    /// The open blocks (`Geoset 2`, `Bone "Root"`), and for each how many
    /// unnamed blocks of each kind it holds so far.
    path: Vec<(String, Vec<(String, usize)>)>,
    /// Unnamed blocks of each kind at the top level.
    top: Vec<(String, usize)>,
}

impl Plain {
    /// The path of the open blocks, `Geoset 2 > Anim 0`.
    fn here(&self) -> String {
        let names: Vec<&str> = self.path.iter().map(|(name, _)| name.as_str()).collect();
        if names.is_empty() {
            "model".to_string()
        } else {
            names.join(" > ")
        }
    }

    fn note(&mut self, what: String) {
        let path = self.here();
        self.left_out.push(LeftOut { path, what });
    }

    /// Enters a block: named ones name themselves, others are numbered
    /// among their siblings of one kind (from 0, as the reader's errors do).
    fn enter(&mut self, head: &str, name: Option<String>) {
        let kind = head.split_whitespace().next().unwrap_or(head).to_string();
        let label = match name {
            Some(name) => format!("{kind} {name}"),
            None => {
                let seen = match self.path.last_mut() {
                    Some((_, seen)) => seen,
                    None => &mut self.top,
                };
                let index = match seen.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, n)) => {
                        *n += 1;
                        *n - 1
                    }
                    None => {
                        seen.push((kind.clone(), 1));
                        0
                    }
                };
                format!("{kind} {index}")
            }
        };
        self.path.push((label, Vec::new()));
    }
}

/// Something plain MDL has no words for, left out of it: where (the block
/// path, `Bone "Root"`, `Geoset 2`) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LeftOut {
    /// The MDL block it was in (`model` at the top level).
    pub path: String,
    /// What, with its value.
    pub what: String,
}

impl core::fmt::Display for LeftOut {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}

impl Out {
    /// A writer of MDL with the extension (nothing is left out).
    pub fn new() -> Self {
        Out::default()
    }

    /// A writer of plain MDL: every `Ext*` key and block and every raw
    /// value is left out, and noted.
    pub fn plain() -> Self {
        Out {
            plain: Some(Plain::default()),
            ..Out::new()
        }
    }

    /// Whether this writes plain MDL.
    pub fn is_plain(&self) -> bool {
        self.plain.is_some()
    }

    /// What a plain writer left out.
    pub fn left_out(&mut self) -> Vec<LeftOut> {
        self.plain
            .as_mut()
            .map(|p| core::mem::take(&mut p.left_out))
            .unwrap_or_default()
    }

    /// Notes, in a plain writer, something left out at the current block.
    pub fn note(&mut self, what: String) {
        if let Some(plain) = &mut self.plain {
            plain.note(what);
        }
    }

    /// Inside a block a plain writer leaves out: nothing is written.
    fn skipping(&self) -> bool {
        self.plain.as_ref().is_some_and(|p| p.skipping > 0)
    }

    /// True if nothing is to be written: inside a block left out, or (in a
    /// plain writer) `key` is the extension's (noted with `value`).
    fn skips(&mut self, key: &str, value: impl FnOnce() -> String) -> bool {
        if self.skipping() {
            return true;
        }
        let extension = self.is_plain() && key.starts_with("Ext");
        if extension {
            self.note(format!("`{}` (no MDL word for it)", value()));
        }
        extension
    }

    /// Notes, in a plain writer, a value `key n` with no MDL word, written
    /// as `word` (the word a reader assumes without one).
    pub fn note_unnamed(&mut self, key: &str, n: u32, word: &str) {
        self.note(format!(
            "`{key} {n}` (no MDL word for it; written as {word})"
        ));
    }

    /// A value `n` of `key` that no word names: `key n,`; in plain MDL the
    /// flag `word,` (the word a reader assumes without one), noted.
    pub fn unnamed(&mut self, key: &str, n: u32, word: &str) {
        if self.is_plain() {
            self.note_unnamed(key, n, word);
            self.flag(word);
        } else {
            self.field(key, &n);
        }
    }

    /// Appends `value` of `key`, in plain MDL if this writer is plain (and
    /// notes what that changed, as `key "written": change`).
    fn value(&mut self, key: &str, value: &impl Value) {
        match &mut self.plain {
            Some(plain) => {
                let start = self.text.len();
                if let Some(change) = value.write_plain(&mut self.text) {
                    let written = self.text.get(start..).unwrap_or_default();
                    plain.note(format!("{key} {written}: {change}"));
                }
            }
            None => value.write(&mut self.text),
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.text.push('\t');
        }
    }

    /// `text` on its own line.
    pub fn line(&mut self, text: &str) {
        if self.skipping() {
            return;
        }
        self.indent();
        self.text.push_str(text);
        self.text.push('\n');
    }

    /// `text,`
    pub fn flag(&mut self, text: &str) {
        if self.skips(text, || text.to_string()) {
            return;
        }
        self.indent();
        self.text.push_str(text);
        self.text.push_str(",\n");
    }

    /// `key value,`
    pub fn field(&mut self, key: &str, value: &impl Value) {
        if self.skips(key, || {
            let mut text = format!("{key} ");
            value.write(&mut text);
            text
        }) {
            return;
        }
        self.indent();
        self.text.push_str(key);
        self.text.push(' ');
        self.value(key, value);
        self.text.push_str(",\n");
    }

    /// `key "text",` for a string a reader takes as empty when there is
    /// none: written unless all its bytes are zero. Plain, only if it has
    /// text before its NUL (`key ""` would read as none; noted).
    pub fn optional_str<const N: usize>(&mut self, key: &str, value: &FixedStr<N>) {
        self.nonzero(key, value);
    }

    /// `key value,` unless the value is zero in all its bits (what a reader
    /// takes a missing key for). Plain, also not if its plain form would
    /// read back as zero (noted).
    pub fn nonzero(&mut self, key: &str, value: &impl Value) {
        if value.is_zero() {
            return;
        }
        if self.is_plain()
            && let Some(why) = value.plain_absent()
        {
            self.note(format!("`{key}`: {why}"));
            return;
        }
        self.field(key, value);
    }

    /// `static key value,`
    pub fn fixed(&mut self, key: &str, value: &impl Value) {
        if self.skipping() {
            return;
        }
        self.indent();
        self.text.push_str("static ");
        self.text.push_str(key);
        self.text.push(' ');
        self.value(key, value);
        self.text.push_str(",\n");
    }

    /// `{ value },` on its own line (a vertex, a pivot point).
    pub fn item(&mut self, value: &impl Value) {
        if self.skipping() {
            return;
        }
        self.indent();
        self.value("item", value);
        self.text.push_str(",\n");
    }

    /// Whether a block opened with `head` is left out (and then noted, and
    /// its contents skipped up to its `close`).
    fn skips_block(&mut self, head: &str, name: Option<String>) -> bool {
        let Some(plain) = &mut self.plain else {
            return false;
        };
        if plain.skipping > 0 {
            plain.skipping += 1;
            return true;
        }
        if head.starts_with("Ext") {
            let kind = head.split_whitespace().next().unwrap_or(head);
            plain.note(format!("`{kind} {{ ... }}` (no MDL block for it)"));
            plain.skipping = 1;
            return true;
        }
        plain.enter(head, name);
        false
    }

    /// `head {` and one level deeper.
    pub fn open(&mut self, head: &str) {
        if self.skips_block(head, None) {
            return;
        }
        self.indent();
        self.text.push_str(head);
        self.text.push_str(" {\n");
        self.depth += 1;
    }

    /// `head "name" {`
    pub fn open_named(&mut self, head: &str, name: &impl Value) {
        let mut text = String::new();
        // Plain: the name as written labels the block in the notes.
        let plain = self.is_plain();
        let change = if plain {
            name.write_plain(&mut text)
        } else {
            name.write(&mut text);
            None
        };
        if self.skips_block(head, plain.then(|| text.clone())) {
            return;
        }
        if let Some(change) = change {
            self.note(format!("{NAME}: {change}"));
        }
        self.indent();
        self.text.push_str(head);
        self.text.push(' ');
        self.text.push_str(&text);
        self.text.push_str(" {\n");
        self.depth += 1;
    }

    /// `}`
    pub fn close(&mut self) {
        if let Some(plain) = &mut self.plain {
            if plain.skipping > 0 {
                plain.skipping -= 1;
                return;
            }
            plain.path.pop();
        }
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        self.text.push_str("}\n");
    }

    /// `key #"hex",`: bytes MDL has no words for (see the module docs).
    pub fn raw(&mut self, key: &str, bytes: &[u8]) {
        if let Some(plain) = &mut self.plain {
            if plain.skipping == 0 {
                let what = match bytes.first_chunk::<4>() {
                    Some(tag) if tag.iter().all(u8::is_ascii_graphic) => format!(
                        "`{key}`: `{}` and {} bytes",
                        String::from_utf8_lossy(tag),
                        bytes.len() - 4
                    ),
                    _ => format!("`{key}`: {} bytes", bytes.len()),
                };
                plain.note(what);
            }
            return;
        }
        self.indent();
        self.text.push_str(key);
        self.text.push_str(" #\"");
        self.text.push_str(&to_hex(bytes));
        self.text.push_str("\",\n");
    }
}

/// Writes `Keyword count { values }`, one value per line.
pub fn write_list<T: Value>(out: &mut Out, key: &str, items: &[T]) {
    out.open(&format!("{key} {}", items.len()));
    for item in items {
        out.item(item);
    }
    out.close();
}
