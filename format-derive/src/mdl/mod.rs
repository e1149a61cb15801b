//! `#[derive(Mdl)]`: the text twin (MDL) of a binary definition, from
//! `#[mdl(...)]` attributes on the same struct that carries `#[format(...)]`.
//! A struct is one block of text ([`Block`]: reader and writer); a value
//! enum is words ([`Words`]).
//!
//! # Container attributes
//!
//! | attribute | meaning |
//! |---|---|
//! | `block = "Light"` | the keyword that opens the block (a struct needs one) |
//! | `name = name` / `name = node.name` | the field holding the block's name, `Light "name" {`; read first, in error paths as `Light "name"`. A name inside a field is inside the block's `part` |
//! | `crate = "path"` | the path generated code names the runtime by (found by default, as `Codec` finds it) |
//! | `check = path::to::fn` | a `fn(&mut Self, &mdl::Cx, mdl::Pos) -> Result<()>` called on the block once read, with the block's position: a rule across fields (a collision shape's vertex count decided by its shape word), and what one field settles of another |
//! | `hook = path::Type` | a `Type: mdl::Hook<Self>`, the hand-written part of the block for what no attribute says (a layer's texture list, written in the form what it holds allows): it reads the statements no field takes, sets the fields marked `hook` once the block is read, writes each of them at its place, and may make the block plain from the first of them on; a block with a hook marks at least one field `hook` |
//!
//! # Field attributes
//!
//! Without one, a field is `Key value,`, its key the field's name in
//! `UpperCamelCase` (`attenuation_start` is `AttenuationStart`), read into
//! the field's type through `mdl::Value`, `Default` when missing.
//!
//! | attribute | meaning |
//! |---|---|
//! | `key = "AmbColor"` | the key written and read |
//! | `alias = "AmbientColor"` | another spelling, read but never written (repeatable) |
//! | `static` | written `static Key value,` (a static beside a track of the same key) |
//! | `rgb` | a `[f32; 3]` stored blue, green, red, written red, green, blue (`mdl::Rgb`) |
//! | `default = <expr>` | the value when the key is missing (for `optional`: `Some` of it) |
//! | `optional` | an `Option<T>`, written when `Some` |
//! | `since = 1200` | an `Option<T>` the format has from that version on: a key before it is dropped (strict: an error; lenient: a diagnostic), missing from it on is `Some(default)` |
//! | `until = 1100` | with `since`: the format has it before that version only (a material's `Shader`, `since = 801, until = 1100`); a key from it on is dropped as one before `since` |
//! | `spread(color = "FresnelColor", ...)` | an `Option<T>` whose members are keys of the block (`static` with `static`): there if one of them is given, the others then `default`'s (else `T::default()`'s); with `since`, its keys are dropped before that version, and with `default_from = 1000` it is `Some(default)` from that version on when none is given (a layer's fresnel, there in 900 only if given) |
//! | `worded` | a `T: mdl::Words` as the value of its key, `FilterMode Additive,`, or `FilterMode n` for a value no word names (plain: the first word, noted); both read |
//! | `hook` | read and written by the block's `hook` (`Default`, or `default`, until it sets it) |
//! | `list` | a `Vec<T>` as `Key n { value, value, }`, its count checked |
//! | `tracks` | a `Vec<T: mdl::TrackSet>`: tracks among the block's statements, each read by its keyword, written in order (a `Vec<UnknownTail>` is a list of tails alone, `ExtTail` each) |
//! | `tracks_in = "ExtTracksAfterChunk"` | tracks in a block of their own, written if there are any |
//! | `word = "LightType"` | a `T: mdl::Words` written as its word (`Omnidirectional,`), or `LightType n` when it has none |
//! | `required` | a missing key (or, with `word`, a missing word) is an error naming the block; for a plain value or a `word` |
//! | `within = "Particle"` | read from and written into the sub-block `Particle { }` at the place of the first field in it (`Key value,`, `optional`, `since` or `list`); its keys are told apart from the block's, and a key no field of the block takes is read at the block's top level too. Tracks a `TrackSet` places in a sub-block (`TrackSet::BLOCKS`) are read in it |
//! | `part` / `part(args = <expr>)` | a `T: mdl::Part` shared by several blocks (a node): it reads the statements the block's own keys do not, and writes its head here and its tail at the end (or before the field marked `tail`) |
//! | `tail` | the part's tail is written right before this field |
//! | `skip` | not in the text (`Default`, or `default`, on read) |
//! | `nested` | a `T: mdl::Block` (or `Option<T>`) that is a block of its own in this one, read by its keyword (`EventTrack n { }` in an `EventObject`); on a `Vec<T>`, each such block is one, in order, numbered in error paths (`Layer 2` in a `Material`) |
//! | `absent = "ExtNoEventTrack"` | on an `optional` or `nested` `Option<T>`: `None` is written as this word, and a missing key reads as `Some(default)` |
//! | `unless = -1` | a plain value written unless it is this value, which a missing key reads as |
//! | `nonzero` | a plain value written only when it is not zero (`MoveSpeed`, `Rarity` of a sequence) |
//! | `none("None", "Multiple")` | a `u32` that is also one of these words, each meaning `0xffffffff` (`GeosetId Multiple`); the first is written for it |
//! | `numbered` | with `none`: `0xffffffff` is written as its number, the words read only (a geoset animation's `GeosetId`, where mdx-m3-viewer reads no word) |
//! | `flags(NonLooping = 1, ...)` | a `u32` of flag bits, each written as its word (`NonLooping,`) and read from it; bits no word names are `ExtFlags n`, or `key n` with `key = "ExtSquirt"` (each `flags` field of a block has its own), which an `alias` spells otherwise for reading (war3-model's `RenderMode n`) |
//! | `says(flags = 2)` | on a plain value: its key, static or as a track of the block's `tracks` (`static Color`, a `Color` track), says that bit of the `flags` field `flags`, whose word for it is read but never written; missing from a block without `ExtFlags`, the bit is clear; written when the value is not its default, or the bit is set and no track says it |
//! | `words("Blend", "Additive", ...)` | a `u32` that is the index of its word (`Additive,` is 1), read from the bare word; a number no word has is `Key n` (`key = "ExtFilterMode"`), in plain MDL the first word, noted |
//! | `array = "Color"` | a `[T; N]` as the sub-block `Key { Color v, Color v, ... }` of exactly `N` statements (`SegmentColor { Color { 1, 0, 0 }, ... }`); with `rgb`, each a BGR colour written RGB |
//! | `items` / `items = "texture animations"` | a `Vec<T: mdl::Block>` of the block's sub-blocks, one each, counted by the block's header (`Sequences 2 { Anim ... }`); the words name them in a count's message |
//! | `each = "Duration"` | a `Vec<T>` written one `Duration value,` a line and read from each such line (`GlobalSequences n { Duration 1000, }`), counted by the header |
//! | `sets_version` | the value read is the version the rest of the text is read in (`FormatVersion` of `Version`) |
//! | `values = "events"` | a `Vec<T>` of the block's values, one a line, counted by the block's header (`PivotPoints n { { 0, 0, 0 }, }`); beside it only plain keyed values (`GlobalSeqId 0,`) and `skip` |
//!
//! # Variant attributes (value enums)
//!
//! `word = "Omnidirectional"` on a unit variant; the first word is what a
//! plain writer writes for a value with none. The enum converts to `u32`,
//! and from it if a variant holds the other numbers (`Codec` gives a value
//! enum with an `Other(u32)` fallback both); without one (a collision
//! shape's type), `Key n` with a number no word's value has is an error.
//!
//! The reader is the one every block has: strict (anything unknown, a key
//! given twice, a missing `,` are errors with line, column and block path)
//! or lenient (quirks kept with a diagnostic each).
//!
//! [`Block`]: https://docs.rs/format-core/latest/format_core/mdl/trait.Block.html
//! [`Words`]: https://docs.rs/format-core/latest/format_core/mdl/trait.Words.html

mod expand;
mod model;

use proc_macro2::TokenStream;
use syn::DeriveInput;

use crate::ctxt::Ctxt;

/// Expands `#[derive(Mdl)]`, or the attribute errors, all at once.
pub fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let cx = Ctxt::default();
    let cont = model::Container::from_ast(&cx, input);
    cx.check()?;
    Ok(cont.map(|c| expand::expand(&c)).unwrap_or_default())
}
