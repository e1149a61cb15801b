//! The runtime of MDL-style text, the text twin of a chunked binary format:
//! its syntax ([`parse`] into [`Stmt`]s), the reading context ([`Cx`]: block
//! path for errors, strict or lenient, diagnostics), the text being written
//! ([`Out`], plain or with the extension), how one value looks ([`Value`]),
//! and the traits `#[derive(Mdl)]` implements or calls ([`Block`],
//! [`Part`], [`TrackSet`], [`Words`], and [`Hook`] for what a block
//! writes by hand).
//!
//! A type with `#[derive(Mdl)]` and `#[mdl(block = "Marks", name = name)]`
//! is one block of text, `Marks "spawn" { Points 2 { { 0, 0, 0 }, ... } }`,
//! read by [`Block::read_block`] with the positions and strictness of every
//! other block, and written by [`Block::write_block`]:
//!
//! ```
//! use format_core::{FixedStr, Mdl};
//! use format_core::mdl::{Block, Cx, Out, parse};
//!
//! #[derive(Mdl, Debug, PartialEq)]
//! #[mdl(block = "Marks", name = name)]
//! struct Marks {
//!     name: FixedStr<32>,
//!     #[mdl(list)]
//!     points: Vec<[f32; 3]>,
//!     #[mdl(key = "Radius", alias = "Size", default = 1.0)]
//!     radius: f32,
//! }
//!
//! let marks = Marks { name: FixedStr::try_from("spawn")?, points: vec![[0.0, 1.0, 2.0]], radius: 0.5 };
//! let mut out = Out::new();
//! marks.write_block(&mut out);
//! assert_eq!(out.text, "Marks \"spawn\" {\n\tPoints 1 {\n\t\t{ 0, 1, 2 },\n\t}\n\tRadius 0.5,\n}\n");
//!
//! let tree = parse("Marks \"spawn\" { Points 1 { { 0, 1, 2 }, }, Size 0.5, }")?;
//! assert_eq!(Marks::read_block(&tree[0], &mut Cx::new(false))?, marks);
//! // A key given twice is refused, with where both are.
//! let tree = parse("Marks \"spawn\" {\n Radius 1,\n Radius 2,\n}")?;
//! let e = Marks::read_block(&tree[0], &mut Cx::new(false)).unwrap_err();
//! assert!(e.to_string().contains("line 3, column 2"), "{e}");
//! # Ok::<(), format_core::Error>(())
//! ```

mod out;
mod syntax;
mod value;

use alloc::vec::Vec;

pub use out::{LeftOut, Out, write_list};
pub use syntax::{Item, Kind, Pos, Stmt, comment_count, parse, to_hex};
pub use value::{Count, Cx, Rgb, Value, list, raw_of};

use crate::{FourCC, Result, UnknownTail};

/// How the comment the writers put first begins (the only comment they
/// write): a rewrite that finds it has no comment of the user's to drop.
pub const WRITER_MARK: &str = "// Written by formats::mdl";

/// One block of MDL text that stands for a value (`FaceFX "target" { ... }`,
/// `BindPose { ... }`, a user's `Marks "name" { ... }`). Derive it with
/// `#[derive(Mdl)]`.
pub trait Block: Sized {
    /// The keyword that opens the block (`FaceFX`).
    const KEYWORD: &'static str;
    /// Reads the block `stmt` (whose keyword is [`Self::KEYWORD`]), its
    /// label (`FaceFX "target"`) in the path of errors.
    fn read_block(stmt: &Stmt, cx: &mut Cx) -> Result<Self>;
    /// Reads the block as an item of a list whose reader has put it in the
    /// path of errors already (`Textures > Bitmap 3`).
    fn read_item(stmt: &Stmt, cx: &mut Cx) -> Result<Self>;
    /// Writes the block.
    fn write_block(&self, out: &mut Out);
}

/// A part shared by several blocks and written in each of them (a node's
/// `ObjectId`, `Parent`, flag words and tracks in every object block), read
/// from the statements the block's own fields do not take. Declared with
/// `#[mdl(part)]` (or `#[mdl(part(args = <expr>))]`) on the field.
pub trait Part: Sized {
    /// What the block passes (a node's type bit).
    type Args: Copy;
    /// The part while its block is read.
    type Partial;
    /// Keywords the part allows more than once in a block (see
    /// [`Cx::once_each`]).
    const REPEATABLE: &'static [&'static str] = &[];
    /// Starts reading the part of the block `stmt`.
    fn begin(stmt: &Stmt, cx: &mut Cx, args: Self::Args) -> Result<Self::Partial>;
    /// Reads `stmt` if it is one of the part's; returns whether it was.
    fn read_stmt(partial: &mut Self::Partial, stmt: &Stmt, cx: &mut Cx) -> Result<bool>;
    /// The part, once every statement of the block is read.
    fn finish(partial: Self::Partial, cx: &mut Cx) -> Result<Self>;
    /// Writes the part's statements where the field is declared.
    fn write_head(&self, out: &mut Out, args: Self::Args);
    /// Writes what the part puts after the block's own fields (a node's
    /// tracks), where `#[mdl(tail)]` or the block's end puts it.
    fn write_tail(&self, out: &mut Out);
}

/// The tracks of one kind of object, by keyword (`Alpha 2 { Linear, 0: 1,
/// ... }`), with a fallback for what has no keyword.
pub trait TrackSet: Sized {
    /// The keyword of an unknown tail in this list (a node's own tail is
    /// `ExtNodeTail`, so it is not taken for the object's).
    const TAIL: &'static str = "ExtTail";
    /// Writes the track (or its tail).
    fn write(&self, out: &mut Out);
    /// The keyword the track is written with (`None` for a tail).
    fn keyword(&self) -> Option<&'static str>;
    /// The sub-blocks some of these tracks are written inside, each in a
    /// block of its own at its place in the list (a camera's target
    /// `Target { Translation 2 { ... } }`): a derived block reads these
    /// sub-blocks (`#[mdl(within = "Target")]` names them for fields).
    const BLOCKS: &'static [&'static str] = &[];
    /// Reads `stmt` if its keyword names one of these tracks.
    fn read(stmt: &Stmt, cx: &mut Cx) -> Option<Result<Self>>;
    /// Reads `stmt`, found inside the sub-block `block`, if its keyword
    /// names one of these tracks: the track placed in that block first
    /// (`Translation` in `Target` is the target's), then as
    /// [`TrackSet::read`] reads it.
    fn read_in(block: &str, stmt: &Stmt, cx: &mut Cx) -> Option<Result<Self>> {
        let _ = block;
        Self::read(stmt, cx)
    }
    /// An unknown tail in the list.
    fn tail(tail: UnknownTail) -> Self;
}

/// Writes every track of a list, in order.
pub fn write_tracks<T: TrackSet>(out: &mut Out, tracks: &[T]) {
    for track in tracks {
        track.write(out);
    }
}

/// If `stmt` is a track of `T` (or its tail), reads it into `tracks`.
/// Returns whether it was one.
pub fn read_into<T: TrackSet>(stmt: &Stmt, cx: &mut Cx, tracks: &mut Vec<T>) -> Result<bool> {
    if stmt.key() == (false, T::TAIL) {
        tracks.push(T::tail(read_tail(stmt, cx)?));
        return Ok(true);
    }
    if !stmt.is_track() {
        return Ok(false);
    }
    match T::read(stmt, cx) {
        Some(track) => {
            tracks.push(track?);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// If `stmt`, found inside the sub-block `block` (see
/// [`TrackSet::read_in`]), is a track of `T`, reads it into `tracks`.
/// Returns whether it was one.
pub fn read_into_in<T: TrackSet>(
    block: &str,
    stmt: &Stmt,
    cx: &mut Cx,
    tracks: &mut Vec<T>,
) -> Result<bool> {
    if !stmt.is_track() {
        return Ok(false);
    }
    match T::read_in(block, stmt, cx) {
        Some(track) => {
            tracks.push(track?);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// Unknown sub-chunks alone (a `Material`'s, a `Geoset`'s): a track list
/// with no tracks, only the tails, `ExtTail #"..."` each.
impl TrackSet for UnknownTail {
    fn write(&self, out: &mut Out) {
        write_tail_as(out, Self::TAIL, self);
    }

    fn keyword(&self) -> Option<&'static str> {
        None
    }

    fn read(_: &Stmt, _: &mut Cx) -> Option<Result<Self>> {
        None
    }

    fn tail(tail: UnknownTail) -> Self {
        tail
    }
}

/// `key #"tag and bytes"`: an unknown sub-chunk and the rest of its object.
pub fn write_tail_as(out: &mut Out, key: &str, tail: &UnknownTail) {
    let mut bytes = tail.tag.0.to_vec();
    bytes.extend_from_slice(&tail.bytes);
    out.raw(key, &bytes);
}

/// Reads `ExtTail #"..."` (or any key's `#"tag and bytes"`).
pub fn read_tail(stmt: &Stmt, cx: &Cx) -> Result<UnknownTail> {
    let bytes = raw_of(stmt, cx)?;
    match bytes.split_first_chunk::<4>() {
        Some((tag, rest)) => Ok(UnknownTail {
            tag: FourCC(*tag),
            bytes: rest.to_vec(),
        }),
        None => Err(cx.error(stmt.pos, "an ExtTail needs at least its 4-byte tag")),
    }
}

/// Values written as a word of their own (`Omnidirectional,`): a value enum
/// with `#[derive(Mdl)]` and `#[mdl(word = "...")]` on its variants. Values
/// no word names are written as `Key n` (the field's `#[mdl(word = "Key")]`);
/// a plain writer writes [`Words::FALLBACK`] instead, and notes it.
pub trait Words: Sized + Copy + PartialEq + 'static {
    /// Each value with a word, and its word.
    const WORDS: &'static [(Self, &'static str)];
    /// The word a reader assumes when there is none (the first).
    const FALLBACK: &'static str;
    /// The value a number stands for (`Key n`), if one does (an enum
    /// without a fallback variant has only the numbers of its words).
    fn from_number(n: u32) -> Option<Self>;
    /// The number of a value.
    fn to_number(self) -> u32;

    /// The word of the value, if it has one.
    fn word(self) -> Option<&'static str> {
        Self::WORDS
            .iter()
            .find(|(v, _)| *v == self)
            .map(|(_, w)| *w)
    }

    /// The value a word names.
    fn of_word(word: &str) -> Option<Self> {
        Self::WORDS
            .iter()
            .find(|(_, w)| *w == word)
            .map(|(v, _)| *v)
    }
}

/// Writes a [`Words`] value: its word, or `key n` (plain: the fallback
/// word, noted).
pub fn write_word<W: Words>(out: &mut Out, key: &str, value: W) {
    word_or_number(out, key, value.word(), value.to_number(), W::FALLBACK);
}

/// `word,` if there is one, else `key n,` (plain: `fallback,`, noted).
fn word_or_number(out: &mut Out, key: &str, word: Option<&str>, n: u32, fallback: &str) {
    match word {
        Some(word) => out.flag(word),
        None => out.unnamed(key, n, fallback),
    }
}

/// Writes a [`Words`] value as the value of its key: `key word,`
/// (`FilterMode Additive,`), or `key n,` for a value with no word (plain:
/// `key fallback,`, noted). `#[mdl(worded)]` fields.
pub fn write_worded<W: Words>(out: &mut Out, key: &str, value: W) {
    match value.word() {
        Some(word) => out.field(key, &Word(word)),
        None if out.is_plain() => {
            out.note_unnamed(key, value.to_number(), W::FALLBACK);
            out.field(key, &Word(W::FALLBACK));
        }
        None => out.field(key, &value.to_number()),
    }
}

/// Reads a [`Words`] value given as the value of its key: `key word` or
/// `key n`. `#[mdl(worded)]` fields; generated code calls it.
#[doc(hidden)]
pub fn read_worded<W: Words>(stmt: &Stmt, cx: &Cx) -> Result<W> {
    let item = stmt.single(cx)?;
    match &item.kind {
        Kind::Word(w) => W::of_word(w).ok_or_else(|| {
            cx.error(
                item.pos,
                alloc::format!("`{}` is no word of `{}`", w, stmt.key().1),
            )
        }),
        _ => word_number(stmt, cx),
    }
}

/// Writes a `u32` that is the index of its word in `words` (`Additive,`
/// for 1 of `Blend`, `Additive`), or `key n` for a number no word has
/// (plain: the first word, noted). `#[mdl(words(..))]` fields.
pub fn write_choice(out: &mut Out, key: &str, value: u32, words: &[&str]) {
    let word = usize::try_from(value).ok().and_then(|i| words.get(i));
    let fallback = words.first().copied().unwrap_or_default();
    word_or_number(out, key, word.copied(), value, fallback);
}

/// The number of `word` in `words` (its index), if it is one.
/// Generated code calls it.
#[doc(hidden)]
pub fn choice_of(word: &str, words: &[&str]) -> Option<u32> {
    let i = words.iter().position(|w| *w == word)?;
    u32::try_from(i).ok()
}

/// Reads the sub-block `Key { Entry v, Entry v, ... }` of exactly `N`
/// values, each read as a `V` and made a `T` by `map` (a colour's
/// [`Rgb::bgr`]). `#[mdl(array = "Entry")]` fields; generated code calls it.
#[doc(hidden)]
pub fn read_array<V: Value, T, const N: usize>(
    stmt: &Stmt,
    cx: &Cx,
    entry: &str,
    map: impl Fn(V) -> T,
) -> Result<[T; N]> {
    let (_, body) = stmt.block(cx)?;
    let mut values = Vec::with_capacity(N);
    for s in body {
        if s.key() == (false, entry) {
            values.push(map(s.value(cx)?));
        } else {
            cx.unknown(s)?;
        }
    }
    let found = values.len();
    values.try_into().map_err(|_| {
        cx.error(
            stmt.pos,
            alloc::format!("{} needs {N} `{entry}`, found {found}", stmt.key().1),
        )
    })
}

/// Writes `key { entry v, entry v, ... }`, each value made a [`Value`] by
/// `map`. `#[mdl(array = "Entry")]` fields; generated code calls it.
#[doc(hidden)]
pub fn write_array<T, V: Value>(
    out: &mut Out,
    key: &str,
    entry: &str,
    values: &[T],
    map: impl Fn(&T) -> V,
) {
    out.open(key);
    for v in values {
        out.field(entry, &map(v));
    }
    out.close();
}

/// Whether a statement of `body` has one of `keys` (static or not, a value
/// or a track). Generated code calls it.
#[doc(hidden)]
pub fn given(body: &[Stmt], keys: &[&str]) -> bool {
    body.iter().any(|s| keys.contains(&s.key().1))
}

/// Whether a track of `tracks` is written with one of `keys`.
/// Generated code calls it.
#[doc(hidden)]
pub fn has_track<T: TrackSet>(tracks: &[T], keys: &[&str]) -> bool {
    tracks
        .iter()
        .any(|t| t.keyword().is_some_and(|k| keys.contains(&k)))
}

/// Reads `Key n`, the number of a [`Words`] value. Generated code calls it.
#[doc(hidden)]
pub fn word_number<W: Words>(stmt: &Stmt, cx: &Cx) -> Result<W> {
    let n = stmt.value::<u32>(cx)?;
    W::from_number(n).ok_or_else(|| {
        cx.error(
            stmt.pos,
            alloc::format!("`{} {n}`: no value has the number {n}", stmt.key().1),
        )
    })
}

/// The error for a block without the word it needs (`a CollisionShape
/// needs Box, Plane, Sphere or Cylinder`). Generated code calls it.
#[doc(hidden)]
pub fn missing_word<W: Words>(cx: &Cx, pos: Pos, block: &str) -> crate::Error {
    let words: Vec<&str> = W::WORDS.iter().map(|(_, w)| *w).collect();
    let list = match words.split_last() {
        Some((last, [])) => alloc::string::String::from(*last),
        Some((last, rest)) => alloc::format!("{} or {last}", rest.join(", ")),
        None => alloc::string::String::new(),
    };
    cx.error(pos, alloc::format!("a {block} needs {list}"))
}

/// The label of a named block in error paths: `Keyword "name"`.
/// Generated code calls it.
#[doc(hidden)]
pub fn named_label(keyword: &str, name: &dyn core::fmt::Display) -> alloc::string::String {
    alloc::format!("{keyword} \"{name}\"")
}

/// The label of a block without a name in error paths: its keyword.
/// Generated code calls it.
#[doc(hidden)]
pub fn unnamed_label(keyword: &str) -> alloc::string::String {
    keyword.into()
}

/// Reads a `u32` that may also be a word meaning `0xffffffff`
/// (`GeosetId Multiple`, `GeosetAnimId None`): any of `words`.
pub fn id_or_none(stmt: &Stmt, cx: &Cx, words: &[&str]) -> Result<u32> {
    match &stmt.single(cx)?.kind {
        Kind::Word(w) if words.contains(&w.as_str()) => Ok(u32::MAX),
        _ => stmt.value(cx),
    }
}

/// Writes `key value`, or `key word` for `0xffffffff`.
pub fn write_id(out: &mut Out, key: &str, value: u32, word: &str) {
    if value == u32::MAX {
        out.field(key, &Word(word));
    } else {
        out.field(key, &value);
    }
}

/// A bare word as a value, written only.
struct Word<'a>(&'a str);

impl Value for Word<'_> {
    fn read(item: &Item, cx: &Cx) -> Result<Self> {
        Err(cx.error(item.pos, "a word is only written"))
    }

    fn write(&self, out: &mut alloc::string::String) {
        out.push_str(self.0);
    }
}

/// The flag bits other statements of a block say (`#[mdl(says(..))]`: a
/// geoset animation's `static Color` or `Color` track says its colour
/// flag), which [`write_flags`] writes no word for.
#[derive(Clone, Copy, Debug, Default)]
pub struct Said {
    /// The bits statements say (their words are read, never written).
    pub mask: u32,
    /// Those of them the block's statements say as written.
    pub bits: u32,
}

/// Writes the flag words of `table` for the bits of `flags` they name (but
/// the bits of `said.mask`, which other statements say), then `ext n`
/// (`ExtFlags n`) with every bit if the words and `said.bits` do not give
/// back `flags`.
pub fn write_flags(out: &mut Out, flags: u32, table: &[(u32, &str)], ext: &str, said: Said) {
    let mut named = said.bits;
    for &(bit, word) in table {
        if flags & bit == bit && bit != 0 && said.mask & bit != bit {
            out.flag(word);
            named |= bit;
        }
    }
    if named != flags {
        out.field(ext, &flags);
    }
}

/// Reads a flag word of `table` (or `ext n`, `ExtFlags n`, which sets
/// every bit, or another spelling of it: war3-model's `RenderMode n`) into
/// `flags`; returns whether `stmt` was one.
pub fn read_flag(
    stmt: &Stmt,
    cx: &Cx,
    flags: &mut u32,
    table: &[(u32, &str)],
    ext: &[&str],
) -> Result<bool> {
    let key = stmt.key().1;
    if ext.contains(&key) {
        *flags = stmt.value(cx)?;
        return Ok(true);
    }
    match table.iter().find(|(_, word)| *word == key) {
        Some((bit, _)) => {
            stmt.bare(cx)?;
            *flags |= bit;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// What a block's hand-written part does (`#[mdl(hook = Type)]` on the
/// block, `#[mdl(hook)]` on the fields it reads and writes): the few
/// choices across fields no field attribute says (a v1100 layer's texture
/// list, written in one of three forms chosen by what the list holds). It
/// reads the statements no field of the block takes, settles its fields
/// once the block is read, and writes each of its fields at that field's
/// place.
pub trait Hook<B> {
    /// What the hook gathers while the block is read.
    type State: Default;
    /// Keywords the hook allows more than once in a block (see
    /// [`Cx::once_each`]).
    const REPEATABLE: &'static [&'static str] = &[];
    /// Reads `stmt`, which no field of the block takes, if it is one of
    /// the hook's; returns whether it was.
    fn read(state: &mut Self::State, stmt: &Stmt, cx: &mut Cx) -> Result<bool>;
    /// Sets the hook's fields of `block`, read but for them, at `pos`.
    fn finish(state: Self::State, block: &mut B, cx: &mut Cx, pos: Pos) -> Result<()>;
    /// In a plain writer, at the place of the first hook field: the block
    /// as plain MDL writes it from there on, what it has no form for left
    /// out and noted (`None`: the block as it is).
    fn plain(block: &B, out: &mut Out) -> Option<B> {
        let _ = (block, out);
        None
    }
    /// Writes the hook's field `field` (its name) of `block`.
    fn write(block: &B, out: &mut Out, field: &str);
}

/// The keywords of several lists in one (what a block allows more than
/// once). Generated code calls it.
#[doc(hidden)]
pub fn keywords(lists: &[&[&'static str]]) -> Vec<&'static str> {
    lists.iter().flat_map(|list| list.iter().copied()).collect()
}

/// Reads `stmt` into `items` if it is an item block of theirs (`Bitmap` in
/// `Textures`), in the path of errors as `Bitmap 3`; returns whether it was.
/// Generated code calls it.
#[doc(hidden)]
pub fn read_item_into<T: Block>(stmt: &Stmt, cx: &mut Cx, items: &mut Vec<T>) -> Result<bool> {
    if stmt.key() != (false, T::KEYWORD) {
        return Ok(false);
    }
    let label = alloc::format!("{} {}", T::KEYWORD, items.len());
    let item = cx.within(label, |cx| T::read_item(stmt, cx))?;
    items.push(item);
    Ok(true)
}

/// The keyword of the items of a list. Generated code calls it.
#[doc(hidden)]
pub fn item_keyword<T: Block>(_: &[T]) -> &'static str {
    T::KEYWORD
}

/// The sub-blocks tracks of a list are written in ([`TrackSet::BLOCKS`]).
/// Generated code calls it.
#[doc(hidden)]
pub fn tracks_blocks<T: TrackSet>(_: &[T]) -> &'static [&'static str] {
    T::BLOCKS
}

/// `Keyword n`, the head of a counted block. Generated code calls it.
#[doc(hidden)]
pub fn counted(keyword: &str, n: usize) -> alloc::string::String {
    alloc::format!("{keyword} {n}")
}
