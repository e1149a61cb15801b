//! Values in both directions: the reading context ([`Cx`]: block path, mode,
//! diagnostics) and [`Value`], how one number, vector or string looks in
//! MDL (the text it is written into is [`Out`](super::Out)'s).
//!
//! Floats are written in their shortest round-trip form (`-0`, `inf`, `-inf`
//! included), so they read back to the same bits; a NaN other than the quiet
//! NaN `0x7fc00000` (written `NaN`) is written as its bits, `0x7fc00001`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::RefCell;
use core::fmt::Write as _;

use crate::{Diagnostic, Error, FixedStr, Result};

use super::syntax::{Item, Kind, Pos, Stmt, to_hex};

/// The reading context: the path of blocks (for errors), strict or lenient,
/// what a lenient read accepted, and the format version read so far.
pub struct Cx {
    /// The blocks being read, outermost first (`Geoset 3`, `Vertices`).
    pub path: Vec<String>,
    /// Lenient mode: quirks are diagnostics, not errors.
    pub lenient: bool,
    /// What a lenient read accepted, in order.
    pub diagnostics: RefCell<Vec<Diagnostic>>,
    /// The format version read so far (800 until a `Version` block says).
    pub version: u32,
    /// The version `ExtChunk`s are decoded with: 0 before the `Version` block,
    /// as in a binary file.
    pub binary_version: u32,
    /// The `Num*` object counts of the `Model` block, checked at the end.
    pub declared: Vec<(Pos, String, usize)>,
}

impl Cx {
    /// A context at the start of a text, strict or lenient.
    pub fn new(lenient: bool) -> Self {
        Cx {
            path: Vec::new(),
            lenient,
            diagnostics: RefCell::new(Vec::new()),
            version: 800,
            binary_version: 0,
            declared: Vec::new(),
        }
    }

    /// An error at `pos` in the current block.
    pub fn error(&self, pos: Pos, message: impl Into<String>) -> Error {
        Error::text(
            pos.offset,
            pos.line,
            pos.column,
            self.path.join(" > "),
            message.into(),
        )
    }

    /// Something out of spec that real files have: an error in strict mode; in
    /// lenient mode a diagnostic saying what was done.
    pub fn quirk(&self, pos: Pos, message: impl Into<String>, done: &str) -> Result<()> {
        let error = self.error(pos, message);
        if !self.lenient {
            return Err(error);
        }
        self.diagnostics.borrow_mut().push(Diagnostic {
            offset: pos.offset,
            message: format!("{error}; {done}"),
        });
        Ok(())
    }

    /// Runs `f` inside the block `name` (for the path of errors).
    pub fn within<T>(&mut self, name: String, f: impl FnOnce(&mut Cx) -> Result<T>) -> Result<T> {
        self.path.push(name);
        let result = f(self);
        self.path.pop();
        result
    }

    /// A statement no reader knows: an error, or skipped in lenient mode.
    pub fn unknown(&self, stmt: &Stmt) -> Result<()> {
        let what = stmt
            .items
            .first()
            .map_or_else(String::new, |i| i.kind.describe());
        self.quirk(stmt.pos, format!("unknown statement {what}"), "skipped it")
    }

    /// A value the version has no field for (`LevelOfDetail` in 800): an
    /// error, or dropped in lenient mode.
    pub fn not_in_version(&self, seen: Option<(Pos, String)>, since: u32) -> Result<()> {
        self.not_in_versions(seen, since..u32::MAX)
    }

    /// [`Cx::not_in_version`] for a key the format has in `versions` only
    /// (a material's `Shader`, from 801 to 1099).
    pub fn not_in_versions(
        &self,
        seen: Option<(Pos, String)>,
        versions: core::ops::Range<u32>,
    ) -> Result<()> {
        let v = self.version;
        let (since, until) = (versions.start, versions.end);
        let which = if v < since {
            format!("from {since} on")
        } else if v >= until {
            format!("before {until} only")
        } else {
            return Ok(());
        };
        match seen {
            Some((pos, key)) => {
                let message = format!("version {v} has no `{key}` ({which})");
                self.quirk(pos, message, "dropped it")
            }
            None => Ok(()),
        }
    }

    /// Refuses a block that sets one field twice (`Vertices` or `static
    /// Alpha` given twice in one block, as a hand edit that pasted a block
    /// leaves it): the reader would keep the second and lose the first
    /// without a word. Lenient mode keeps the last, with a diagnostic.
    ///
    /// Statements that add to a list may repeat: tracks (a block's track list
    /// keeps every one, as MDX does), bare flag words (setting a bit twice
    /// loses nothing), the unknown tails (`ExtTail`, `ExtNodeTail`), data
    /// lines without a keyword, and the keywords of `repeatable` (`Layer` in
    /// a `Material`, `TVertices` in a `Geoset`).
    pub fn once_each(&self, body: &[Stmt], repeatable: &[&str]) -> Result<()> {
        let mut seen: alloc::collections::BTreeMap<&str, Pos> = alloc::collections::BTreeMap::new();
        for s in body {
            let key = s.key().1;
            if key.is_empty()
                || s.args().is_empty()
                || s.holds_keys()
                || matches!(key, "ExtTail" | "ExtNodeTail")
                || repeatable.contains(&key)
            {
                continue;
            }
            if let Some(first) = seen.insert(key, s.pos) {
                self.quirk(
                    s.pos,
                    format!(
                        "`{key}` is given twice in this block (first at line {}, column {}): \
                         one would replace the other",
                        first.line, first.column
                    ),
                    "kept the last one",
                )?;
            }
        }
        Ok(())
    }

    /// A header count that disagrees with what follows.
    pub fn count(&self, pos: Pos, what: &str, declared: usize, found: usize) -> Result<()> {
        if declared == found {
            return Ok(());
        }
        self.quirk(
            pos,
            format!("the header says {declared} {what}, the block has {found}"),
            "used the block's",
        )
    }
}

impl Stmt {
    /// The keyword (`Alpha` of `static Alpha 1`) and whether `static` preceded it.
    pub fn key(&self) -> (bool, &str) {
        match self.items.as_slice() {
            [first, rest @ ..] => match &first.kind {
                Kind::Word(w) if w == "static" => match rest.first().map(|i| &i.kind) {
                    Some(Kind::Word(k)) => (true, k.as_str()),
                    _ => (true, ""),
                },
                Kind::Word(w) => (false, w.as_str()),
                _ => (false, ""),
            },
            [] => (false, ""),
        }
    }

    /// The items after the keyword (and `static`).
    pub fn args(&self) -> &[Item] {
        let skip = if self.key().0 { 2 } else { 1 };
        self.items.get(skip..).unwrap_or_default()
    }

    /// The `n`th item after the keyword, or an error naming what is missing.
    pub fn arg(&self, cx: &Cx, n: usize) -> Result<&Item> {
        self.args().get(n).ok_or_else(|| {
            let at = self.items.last().map_or(self.pos, |i| i.pos);
            cx.error(at, format!("`{}` needs a value", self.key().1))
        })
    }

    /// The single value after the keyword.
    pub fn value<T: Value>(&self, cx: &Cx) -> Result<T> {
        T::read(self.single(cx)?, cx)
    }

    /// The one item after the keyword. More is an error: it is the next
    /// statement run into this one by a missing `,` (`FilterMode Additive`
    /// then `Unshaded,` on the next line), which would otherwise be lost.
    pub fn single(&self, cx: &Cx) -> Result<&Item> {
        let item = self.arg(cx, 0)?;
        match self.args().get(1) {
            Some(extra) => Err(cx.error(
                extra.pos,
                format!(
                    "expected `,` after the value of `{}`, found {}",
                    self.key().1,
                    extra.kind.describe()
                ),
            )),
            None => Ok(item),
        }
    }

    /// A flag word's statement (`Unshaded,`): nothing may follow the word.
    /// Something that does is the next statement run into this one by a
    /// missing `,` (`Unshaded` then `Unfogged,` on the next line).
    pub fn bare(&self, cx: &Cx) -> Result<()> {
        match self.args().first() {
            Some(extra) => Err(cx.error(
                extra.pos,
                format!(
                    "expected `,` after `{}`, found {}",
                    self.key().1,
                    extra.kind.describe()
                ),
            )),
            None => Ok(()),
        }
    }

    /// `Keyword count { ... }` or `Keyword { ... }`: the declared count (if
    /// any) and the body.
    pub fn block(&self, cx: &Cx) -> Result<(Option<Count>, &[Stmt])> {
        let mut count = None;
        for item in self.args() {
            match &item.kind {
                Kind::Num(_) if count.is_none() => {
                    count = Some((item.pos, usize_of(item, cx)?));
                }
                Kind::Group(body) => return Ok((count, body)),
                _ => {}
            }
        }
        Err(cx.error(
            self.pos,
            format!("`{}` needs a `{{ }}` block", self.key().1),
        ))
    }

    /// The string naming a block (`Bone "Root" {`).
    pub fn name<const N: usize>(&self, cx: &Cx) -> Result<FixedStr<N>> {
        match self.args().first() {
            Some(
                item @ Item {
                    kind: Kind::Str(_) | Kind::Raw(_),
                    ..
                },
            ) => Value::read(item, cx),
            _ => Err(cx.error(self.pos, format!("`{}` needs a name", self.key().1))),
        }
    }

    /// A `Keyword count { ... }` track: a count then a group, no `static`.
    pub fn is_track(&self) -> bool {
        !self.key().0
            && matches!(
                self.args(),
                [
                    Item {
                        kind: Kind::Num(_),
                        ..
                    },
                    Item {
                        kind: Kind::Group(_),
                        ..
                    }
                ]
            )
    }

    /// A track, told from a counted list of the same shape (`Vertices 3 {`)
    /// by what its block holds: a key frame (`0: 1,`), an interpolation word,
    /// `Interpolation n` or `GlobalSeqId` (or nothing at all).
    pub fn holds_keys(&self) -> bool {
        let Some(Item {
            kind: Kind::Group(body),
            ..
        }) = self.args().last()
        else {
            return false;
        };
        self.is_track()
            && (body.is_empty()
                || body.iter().any(|s| match s.items.as_slice() {
                    [
                        Item {
                            kind: Kind::Num(_), ..
                        },
                        Item {
                            kind: Kind::Colon, ..
                        },
                        ..,
                    ] => true,
                    _ => matches!(
                        s.key().1,
                        "DontInterp"
                            | "Linear"
                            | "Hermite"
                            | "Bezier"
                            | "Interpolation"
                            | "GlobalSeqId"
                    ),
                }))
    }
}

fn usize_of(item: &Item, cx: &Cx) -> Result<usize> {
    match &item.kind {
        Kind::Num(n) => n
            .parse()
            .map_err(|_| cx.error(item.pos, format!("expected a count, found {n}"))),
        other => Err(cx.error(
            item.pos,
            format!("expected a count, found {}", other.describe()),
        )),
    }
}

/// A declared count (`Vertices 12 {`) and where it is.
pub type Count = (Pos, usize);

/// One value as MDL writes it.
pub trait Value: Sized {
    /// Reads the value from one item.
    fn read(item: &Item, cx: &Cx) -> Result<Self>;
    /// Appends the value's text.
    fn write(&self, out: &mut String);
    /// Whether the value is zero in all its bits (`-0.0` is not): what a
    /// reader takes a missing key for, so `#[mdl(nonzero)]` leaves it out.
    fn is_zero(&self) -> bool {
        false
    }
    /// For a value that is not zero ([`Value::is_zero`]) but whose plain
    /// form would read back as zero (a string of no text with bytes after
    /// its NUL, written `""`): what a plain writer notes instead of
    /// writing it. `None`, the default: the plain form reads back as it is.
    fn plain_absent(&self) -> Option<&'static str> {
        None
    }
    /// Appends the value's text in plain MDL, without the extension's
    /// `#"hex"`, and says what that changed (`None`: nothing, the default).
    fn write_plain(&self, out: &mut String) -> Option<String> {
        self.write(out);
        None
    }
}

fn number<'a>(item: &'a Item, cx: &Cx, what: &str) -> Result<&'a str> {
    match &item.kind {
        Kind::Num(n) => Ok(n),
        Kind::Word(w) if matches!(w.as_str(), "NaN" | "nan" | "inf" | "Infinity") => Ok(w),
        other => Err(cx.error(
            item.pos,
            format!("expected {what}, found {}", other.describe()),
        )),
    }
}

impl Value for f32 {
    fn read(item: &Item, cx: &Cx) -> Result<Self> {
        let text = number(item, cx, "a number")?;
        if let Some(hex) = text.strip_prefix("0x") {
            return u32::from_str_radix(hex, 16)
                .map(f32::from_bits)
                .map_err(|_| {
                    cx.error(
                        item.pos,
                        format!("`{text}` is not 8 hex digits of float bits"),
                    )
                });
        }
        match text {
            "NaN" | "nan" => return Ok(f32::NAN),
            // What old Microsoft C runtimes print for infinities and NaNs.
            "1.#INF" | "Infinity" => return Ok(f32::INFINITY),
            "-1.#INF" => return Ok(f32::NEG_INFINITY),
            "1.#IND" | "-1.#IND" | "1.#QNAN" | "-1.#QNAN" => return Ok(f32::NAN),
            _ => {}
        }
        text.parse()
            .map_err(|_| cx.error(item.pos, format!("expected a number, found {text}")))
    }

    fn is_zero(&self) -> bool {
        self.to_bits() == 0
    }

    fn write(&self, out: &mut String) {
        let v = *self;
        if v.is_nan() {
            if v.to_bits() == f32::NAN.to_bits() {
                out.push_str("NaN");
            } else {
                let _ = write!(out, "0x{:08x}", v.to_bits());
            }
        } else {
            let start = out.len();
            let _ = write!(out, "{v}");
            // Display never uses exponents: keep 1e-45 short.
            if out.len() - start > 16 {
                out.truncate(start);
                let _ = write!(out, "{v:e}");
            }
        }
    }
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Value for $t {
            fn read(item: &Item, cx: &Cx) -> Result<Self> {
                let text = number(item, cx, "an integer")?;
                let wide: i64 = match text.parse() {
                    Ok(wide) => wide,
                    Err(_) => integer_from_float(item, cx, text)?,
                };
                // -1 for "none" is common in place of 0xffffffff.
                <$t>::try_from(wide)
                    .or_else(|_| i32::try_from(wide).map(|v| v as $t))
                    .map_err(|_| cx.error(item.pos, format!("{text} is out of range")))
            }

            fn write(&self, out: &mut String) {
                let _ = write!(out, "{self}");
            }

            fn is_zero(&self) -> bool {
                *self == 0
            }
        }
    )*};
}
integer!(u32, i32, u8, usize);

/// A `u16` (a vertex index): read as a `u32` then checked, so `-1` and
/// 70000 are out of range rather than wrapped.
impl Value for u16 {
    fn read(item: &Item, cx: &Cx) -> Result<Self> {
        let wide = u32::read(item, cx)?;
        u16::try_from(wide).map_err(|_| cx.error(item.pos, format!("{wide} is out of range")))
    }

    fn write(&self, out: &mut String) {
        let _ = write!(out, "{self}");
    }

    fn is_zero(&self) -> bool {
        *self == 0
    }
}

impl<T: Value + Default + Copy, const N: usize> Value for [T; N] {
    fn read(item: &Item, cx: &Cx) -> Result<Self> {
        let Kind::Group(body) = &item.kind else {
            return Err(cx.error(
                item.pos,
                format!("expected {{ {N} values }}, found {}", item.kind.describe()),
            ));
        };
        if body.len() != N || body.iter().any(|s| s.items.len() != 1) {
            return Err(cx.error(item.pos, format!("expected {{ {N} values }}")));
        }
        let mut out = [T::default(); N];
        for (slot, stmt) in out.iter_mut().zip(body) {
            if let Some(item) = stmt.items.first() {
                *slot = T::read(item, cx)?;
            }
        }
        Ok(out)
    }

    fn is_zero(&self) -> bool {
        self.iter().all(Value::is_zero)
    }

    fn write(&self, out: &mut String) {
        out.push_str("{ ");
        for (i, v) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            v.write(out);
        }
        out.push_str(" }");
    }
}

/// A colour as MDL writes it, `{ red, green, blue }`, over the blue, green,
/// red order MDX stores (`FLOAT[3] Color`, BGR): what Blizzard's converter,
/// War3ModelView, Retera's tools and mdx-m3-viewer write (the corpus pairs
/// `wc3lib_Orc_Exp`, `amisd_File00001202_98f1fm0`, `pqw3_BlueUnsummon`).
#[derive(Clone, Copy, Default)]
pub struct Rgb(pub [f32; 3]);

impl Rgb {
    /// The MDL colour of an MDX (BGR) one.
    pub fn of_bgr([b, g, r]: [f32; 3]) -> Self {
        Rgb([r, g, b])
    }

    /// The MDX (BGR) colour.
    pub fn bgr(self) -> [f32; 3] {
        let [r, g, b] = self.0;
        [b, g, r]
    }
}

impl Value for Rgb {
    fn read(item: &Item, cx: &Cx) -> Result<Self> {
        <[f32; 3]>::read(item, cx).map(Rgb)
    }

    fn write(&self, out: &mut String) {
        self.0.write(out);
    }
}

/// `bytes` then zeros, as a `char[N]`; `None` if longer than `N`.
fn padded<const N: usize>(bytes: &[u8]) -> Option<FixedStr<N>> {
    let mut out = [0u8; N];
    out.get_mut(..bytes.len())?.copy_from_slice(bytes);
    Some(FixedStr::from_bytes(out))
}

/// A `char[N]`: `"text"` when its bytes are exactly the text and zero padding
/// (and the text needs no escaping); otherwise all its bytes, trailing zeros
/// dropped, as `#"hex"`.
impl<const N: usize> Value for FixedStr<N> {
    /// All its bytes are zero (a string with bytes after its NUL is not).
    fn is_zero(&self) -> bool {
        self.as_bytes().iter().all(|&b| b == 0)
    }

    fn plain_absent(&self) -> Option<&'static str> {
        self.text()
            .is_empty()
            .then_some("no text, bytes after its NUL left out")
    }

    fn read(item: &Item, cx: &Cx) -> Result<Self> {
        match &item.kind {
            Kind::Str(text) => match FixedStr::try_from(text.as_str()) {
                Ok(value) => Ok(value),
                // A writer's bug (war3-model writes a field's NULs and the
                // bytes after them into the text): lenient, its first `N`
                // bytes, NULs and all.
                Err(_) => {
                    let shown = text.replace('\0', "\\0");
                    let why = if text.len() > N {
                        format!("\"{shown}\" is longer than {N} bytes")
                    } else {
                        format!("\"{shown}\" has a NUL byte")
                    };
                    cx.quirk(item.pos, why, &format!("kept its first {N} bytes"))?;
                    let bytes = text.as_bytes();
                    Ok(padded(bytes.get(..N).unwrap_or(bytes)).unwrap_or_default())
                }
            },
            Kind::Raw(bytes) => padded(bytes)
                .ok_or_else(|| cx.error(item.pos, format!("raw string longer than {N} bytes"))),
            other => Err(cx.error(
                item.pos,
                format!("expected a string, found {}", other.describe()),
            )),
        }
    }

    fn write(&self, out: &mut String) {
        match self.to_str() {
            Ok(text) if self.is_clean() && !text.contains(['"', '\n', '\r']) => {
                out.push('"');
                out.push_str(text);
                out.push('"');
            }
            _ => {
                let bytes = self.as_bytes();
                let len = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
                out.push_str("#\"");
                out.push_str(&to_hex(bytes.get(..len).unwrap_or_default()));
                out.push('"');
            }
        }
    }

    /// The text up to the NUL, invalid UTF-8 replaced, `"` as `'` and line
    /// breaks as spaces, cut to `N` bytes at a character boundary.
    fn write_plain(&self, out: &mut String) -> Option<String> {
        let lossy = self.to_string_lossy();
        let mut text: String = lossy
            .chars()
            .map(|c| match c {
                '"' => '\'',
                '\n' | '\r' => ' ',
                c => c,
            })
            .collect();
        while text.len() > N {
            text.pop();
        }
        out.push('"');
        out.push_str(&text);
        out.push('"');
        let mut changes = Vec::new();
        if !self.is_clean() {
            let after = self
                .residue()
                .iter()
                .rposition(|&b| b != 0)
                .map_or(0, |i| i + 1);
            changes.push(format!("{after} bytes after its NUL left out"));
        }
        if self.to_str().is_err() {
            changes.push("bytes that are not UTF-8 replaced by U+FFFD".to_string());
        }
        if lossy.contains(['"', '\n', '\r']) {
            changes.push("`\"` and line breaks written as `'` and spaces".to_string());
        }
        if text.len() < lossy.len() {
            changes.push(format!("cut to {N} bytes"));
        }
        (!changes.is_empty()).then(|| changes.join("; "))
    }
}

/// Reads the raw bytes of `key #"hex"`.
pub fn raw_of<'a>(stmt: &'a Stmt, cx: &Cx) -> Result<&'a [u8]> {
    match stmt.single(cx)? {
        Item {
            kind: Kind::Raw(bytes),
            ..
        } => Ok(bytes),
        other => Err(cx.error(
            other.pos,
            format!("expected #\"hex\", found {}", other.kind.describe()),
        )),
    }
}

/// A float where an integer belongs (`static TextureSlot 5.5`, seen in real
/// files): an error, or truncated in lenient mode.
fn integer_from_float(item: &Item, cx: &Cx, text: &str) -> Result<i64> {
    let error = || cx.error(item.pos, format!("expected an integer, found {text}"));
    let value: f64 = text.parse().map_err(|_| error())?;
    if !value.is_finite() || value.abs() > 4_294_967_295.0 {
        return Err(error());
    }
    // `as` truncates toward zero, and the value is in range (checked above).
    let truncated = value as i64;
    cx.quirk(
        item.pos,
        format!("expected an integer, found {text}"),
        &format!("truncated it to {truncated}"),
    )?;
    Ok(truncated)
}

/// A list of `{ values }` statements (`Vertices`, `Normals`, `PivotPoints`...),
/// checked against the declared count.
pub fn list<T: Value>(stmt: &Stmt, cx: &mut Cx, what: &str) -> Result<Vec<T>> {
    let (count, body) = stmt.block(cx)?;
    if let Some((pos, declared)) = count {
        cx.count(pos, what, declared, body.len())?;
    }
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        match s.items.as_slice() {
            [item] => out.push(T::read(item, cx)?),
            _ => return Err(cx.error(s.pos, format!("expected one value per line in {what}"))),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<T: Value>(v: T) -> String {
        let mut s = String::new();
        v.write(&mut s);
        s
    }

    #[test]
    fn floats_keep_their_bits() {
        let cx = Cx::new(false);
        for bits in [
            0u32,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fc0_0001,
            1,
            0x3dcc_cccd,
        ] {
            let written = text(f32::from_bits(bits));
            let tree = super::super::syntax::parse(&format!("X {written}")).unwrap();
            let back: f32 = tree[0].value(&cx).unwrap();
            assert_eq!(back.to_bits(), bits, "{written}");
        }
        assert_eq!(text(0.5f32), "0.5");
        assert_eq!(text(-0.0f32), "-0");
    }
}
