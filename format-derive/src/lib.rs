//! `#[derive(Codec)]`: one definition, annotated like the spec it comes from,
//! gives a reader ([`Decode`]) and a writer ([`Encode`]) for a chunked binary
//! format. Use it through `format_core::Codec`.
//!
//! This is the reference; the repository's `docs/derive.md` is a worked
//! tour, from a spec's record to a chunk of your own in a real file.
//!
//! The attributes are parsed into a checked model first (misuse is a compile
//! error at the offending attribute, all of them reported at once); the generated
//! code is small and calls plain `format_core` helpers.
//!
//! # Container attributes: `#[format(...)]` on the struct or enum
//!
//! | attribute | meaning |
//! |---|---|
//! | `magic = "MDLX"` | a tag before the value, no size |
//! | `chunk = "SEQS"` | a chunk header `tag + u32 size` (size excludes the header); the body is read through a region of exactly that size, the size is back-patched on write |
//! | `inclusive_size` | a leading `u32` counting the object including itself; read bounded by it, back-patched on write |
//! | `plain` | a `#[repr(C)]` struct of plain fields with no padding: its encoding is its memory image, read and written field by field (no `unsafe`), a `Vec` of it with one bounds check |
//! | `region` | parts placed by offset (`placed` fields, here or in fields' types) lie in this value, which reads to the end of its enclosing region and keeps where a file put them and the bytes between them (needs a `kept` field). A value with placed parts needs a region: its own (required when it has a `chunk` or `inclusive_size`, whose size covers them) or an enclosing one; a type read and written on its own must be one |
//! | `record` | a struct of fixed-size fields (each a `Plain` type or another `record`; generics allowed) that is also a `format_core::Record`: read from and written to a run of records checked once (a `split` list's elements) |
//! | `chunk_list` | on the tag-dispatched enum of a file's chunks: a `Vec` of it with `until_end` is read and written as the file's chunk list (`format_core::chunk_list`): unknown chunks kept in place (`unknown` variant), the chunk a cut file ends inside kept as bytes by a lenient read (`cut` variant), a chunk whose size fits but whose content does not decode kept as bytes (`undecoded` variant, else the `unknown` one), bytes stored after a chunk read by its type (`after_chunk` variant); typed chunks of the user's own through `chunk_list::chunk`/`set_chunk`; `chunk_list(parent)` when offsets in the chunks name other chunks of the list (`parent["MCNK"]`): the list is installed as the siblings they resolve in |
//! | `args(name: Type, ...)` | arguments the caller passes (a key track passes its interpolation type to each key) |
//! | `bound = "T: ..."` | replaces the inferred `T: Decode<Args = ()>` / `T: Encode<Args = ()>` bounds |
//! | `repr = u32` | the on-disk type of an enum of values (or use `#[repr(u32)]`; where both are given, this one is the type on disk) |
//! | `crate = "path"` | the path generated code names the runtime by; found by default from the dependencies (`format_core`, or `formats::core` in a crate that depends on `formats` only) |
//!
//! # Field attributes
//!
//! Each acts on both directions unless marked *read* or *write* (as binrw's
//! `br`/`bw`): a one-direction attribute leaves the other direction to the
//! declared layout.
//!
//! | attribute | meaning |
//! |---|---|
//! | `tag = "VRTX"` | a tag before the field |
//! | `count = u32` | a `Vec` with a count of that integer type right before it |
//! | `count = <expr>` | a `Vec` whose length is an expression over earlier fields, arguments, `version`; it is Rust in the fields' own types, so where input can make it overflow, widen it (`u64::from(n) * 3`): a debug build panics on overflow, and a wrapped count is only checked against the bytes left |
//! | `count = size / 132` | the whole enclosing chunk in 132-byte elements (must divide exactly); `size` is the chunk's size, a keyword (a field of that name cannot be used in expressions: rename it) |
//! | `until_end` | a `Vec` read until the enclosing chunk or object ends (one bounds check for plain elements) |
//! | `tagged` | a `Vec` of a tag-dispatched enum, read while the next tag is one it knows (MDX `K***` tracks, any order, order kept) |
//! | `if = <expr>` | an `Option` present only when the condition holds (`version > 800`); on write, presence must agree |
//! | `read_if = <expr>` | *read*: an `Option` present only if this also holds; it may look at the reader (`reader.remaining() >= 13`, `reader.peek_tag()`). Written if `Some` |
//! | `optional` | with `tag`: an `Option` present if the next tag is that tag |
//! | `args(<expr>, ...)` | arguments for the field's type (for a `Vec`, passed to each element; `index` is the element's index) |
//! | `calc = <expr>` | *write*: a `Derived<T>` field, `T` on disk, computed from the data on write, never stored |
//! | `offset(of = <target>, from = <base>)` | a `Derived<u32>` (or `Derived<[u32; N]>`, one per element) holding where `<target>` is, counted from the position `<base>` (`0` for absolute, `start` for where this struct's fields begin, an argument) |
//! | `size(of = <target>[, body])` | a `Derived<u32>` (or a table) holding `<target>`'s length (`body`: without its 8-byte chunk header) |
//! | `placed` | the field is read where its `offset` points (bounded by its `size` if one names it) and written where the field comes as a part of the innermost `region` (a struct with placed fields and no region around it is its own), which lays each part out after the bytes of what placed it (or where a file had it, see `format_core::kept`); `Option`: absent at offset 0; `Vec` with a table of offsets: one element per entry until an entry is 0 (in lenient mode also until an entry whose part lies outside the region: a diagnostic, and that entry and the ones after it stay in the table as read, entries without a part, so the file writes back unchanged); `Vec` with `count`: one run at one offset |
//! | `kept` | the field of type `Kept` that records what a file said that a fresh layout would not give (see `format_core::kept`) |
//! | `split(tails, if = <expr>)` | on a counted `Vec` (`count = u32` or `count = <expr>`) of `Record`s: a struct-of-arrays layout; each record on disk continues, when the condition holds (always without `if`), with an element of the later `Vec` field `tails` (which takes no attribute), so each array takes in memory exactly its bytes on disk; read from one checked slice, written in place; on write, `tails` must have one element per record when the condition holds and none otherwise |
//! | `clamp` | *read*: with `count = u32` or `count = <expr>`, a count larger than the bytes left can hold (in elements of the element's `MIN_SIZE`) is an error in strict mode; in lenient mode it is clamped to the elements there, with a diagnostic at the count (write the count as a `calc` of the list's length, so the file is fixed on write) |
//! | `read_calc = <expr>` | *read*: a value computed from earlier fields, nothing on disk, nothing written |
//! | `read_with = f` / `read_with = f(a, b)` | *read*: a hand-written reader `f(&mut Reader, a, b) -> Result<T>` (without a call, the field's `args`) |
//! | `write_with = g` / `write_with = g(a, b)` | *write*: a hand-written writer `g(&T, &mut Writer, a, b) -> Result<()>` |
//! | `write_assert(<expr>, "message")` | *write*: an invariant over every field, checked before anything is written |
//! | `sets_version` | on a `u8`/`u16`/`u32` field: after reading or writing it, its value becomes the context's version |
//! | `skip` | not on disk (`Default` on read) |
//!
//! A struct may hold values of its own type (a tree: `kids: Vec<Node>`);
//! reading one nests at most `format_core::MAX_NESTING` (256) deep, an error
//! past that rather than a stack overflow.
//!
//! A `<target>` is a field of the struct (`levels`), an element of a list
//! field by its tag (`chunks["MCVT"]`, `chunks["MCNK"][n]`), or an element of
//! the enclosing list (`parent["MCIN"]`, `parent["MCNK"][index]`: the list's
//! owner installs its elements with `Reader::with_siblings` and patches them
//! with `Writer::with_siblings`). On write, offsets and sizes are derived from
//! where their targets land: reserved in one list and resolved in one pass once
//! the targets are known (at the end of the struct, of the enclosing list, or
//! of the region). A type without offsets, sizes or `kept` counts generates
//! none of this: only its fields are written. With a `kept` field, what a file wrote differently is written back
//! while the data still gives what it gave (see `format_core::kept`).
//!
//! In expressions, earlier fields are in scope by name (integers, floats and
//! `bool` by value, other types by reference), as are the container's arguments,
//! `start` (where the value's fields begin: after its `magic`, its `chunk`
//! header of tag and size, or its `inclusive_size`; `start.saturating_sub(8)`
//! is a chunk's tag) and, from the context, `version` and
//! `format_flags`. Reading and writing see exactly the same names: a field is
//! visible to the fields after it (a `calc` expression, evaluated on write only,
//! sees every field; offsets and sizes are not known to expressions on write).
//! Conditions on enum variants see only `version`, `format_flags` and arguments.
//!
//! # Variant attributes (enums)
//!
//! A tag-dispatched enum has variants `Name(Type)` with `tag = "KGTR"` (tag
//! consumed, then `Type`), `chunk = "SEQS"` (tag and size consumed, `Type` reads the
//! bounded body), no attribute (`Type` has its own `chunk`/`magic` tag), or
//! `unknown` (the fallback: `Unknown(UnknownChunk)` in a chunk list, `Unknown(UnknownTail)`
//! for sub-chunks inside a sized object), or `not_read` (never produced by the
//! derived reader: hand-written code builds it; written by its type, its tag
//! the value's own); `if = <expr>` gates a variant on the version. In a
//! `chunk_list` enum, `cut` marks the `Cut(CutChunk)` variant and `undecoded`
//! the `Undecoded(UndecodedChunk)` one (both built by the list's lenient
//! reader, never by tag), and `after_chunk` a variant whose type implements
//! `format_core::AfterChunk` (it reads and writes bytes a file stores right
//! after the chunk, outside its size). Such an enum gets a `tag()` method (the `FourCC` of the variant it
//! holds). An enum whose variants have `when = <expr>` reads the first variant
//! whose condition holds (a vertex format stored elsewhere, passed in `args`);
//! on write, the held variant's condition must hold. `read_when = <expr>`
//! instead may look at the input (`reader`, as `read_if`: which of two forms
//! ends where the next tag starts) and is not checked on write (the variant
//! held is written).
//! An enum of values has unit variants with discriminants and an optional
//! `#[format(unknown)] Other(u32)` that keeps unknown values; it gets
//! `From<Enum> for u32` (the number written) and, with the fallback, the
//! total `From<u32> for Enum` (the number read).
//!
//! # Views
//!
//! The derive also implements `format_core::View` and generates the view
//! type, `NameView<'a>` (for a struct: the same fields, each as its view;
//! for an enum: the same variants), made by the owned reader's walk with
//! each value read in place, so the checks and the errors are the owned
//! reader's. The rules (what view each field gets, when the input is
//! checked) are in `format_core::view`. A type with a `region`, `kept`,
//! `placed`, `read_with`, `indexed` or anchored field is viewed as
//! `format_core::view::Lazy`: only its owned reader can follow it. A value
//! enum is its own view, so it must be `Copy`.
//!
//! # The text twin: `#[derive(Mdl)]`
//!
//! The same struct can carry `#[mdl(...)]` attributes: `#[derive(Mdl)]`
//! (through `format_core::Mdl`) makes it one block of MDL-style text, with
//! a reader (strict and lenient, errors with line, column and block path)
//! and a writer, both from the one definition: block keyword and name, keys
//! and aliases, `static` values, RGB colours over BGR storage, flag words,
//! defaults, versioned keys, lists, tracks, item blocks, and parts shared by
//! several blocks. The attribute reference is in this crate's `mdl` module;
//! the runtime is `format_core::mdl`.
//!
//! [`Decode`]: https://docs.rs/format-core/latest/format_core/trait.Decode.html
//! [`Encode`]: https://docs.rs/format-core/latest/format_core/trait.Encode.html

#![warn(missing_docs)]
// The size of `syn::Expr` depends on the features other crates turn on
// (binrw_derive, a dev-dependency of `benches`, enables proc-macro2's
// `span-locations`), so this lint flips with the build; these enums only hold
// parsed attributes.
#![allow(clippy::large_enum_variant)]

mod attr;
mod check;
mod common;
mod ctxt;
mod de;
mod extras;
mod layout;
mod mdl;
mod model;
mod names;
mod ser;
mod symbol;
mod view;

use proc_macro::TokenStream;
use quote::quote;
use syn::{DeriveInput, parse_macro_input};

/// Derives `Decode` and `Encode` (and `Plain`, `HasTag`, `Tagged` where they
/// apply) from `#[format(...)]` attributes; see the crate documentation.
#[proc_macro_derive(Codec, attributes(format))]
pub fn derive_codec(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives `format_core::mdl::Block` (a struct as one block of MDL text, its
/// reader and writer) or `format_core::mdl::Words` (a value enum as words)
/// from `#[mdl(...)]` attributes (the reference is in this crate's `mdl` module).
#[proc_macro_derive(Mdl, attributes(mdl))]
pub fn derive_mdl(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    mdl::expand(&input)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn expand(input: &DeriveInput) -> syn::Result<proc_macro2::TokenStream> {
    let cx = ctxt::Ctxt::default();
    let cont = model::Container::from_ast(&cx, input);
    if let Some(cont) = &cont {
        check::check(&cx, cont);
    }
    cx.check()?;
    let Some(cont) = cont else {
        return Ok(proc_macro2::TokenStream::new());
    };
    let extra = match &cont.body {
        model::Body::Plain(fields) => extras::plain(&cont, fields),
        model::Body::TagEnum(variants) => {
            let list = cont.chunk_list.map(|_| extras::chunk_list(&cont, variants));
            let tagged = extras::tagged(&cont, variants);
            quote!(#tagged #list)
        }
        model::Body::ValueEnum { repr, variants } => extras::values(&cont, repr, variants),
        model::Body::Struct(fields) if cont.record.is_some() => extras::record(&cont, fields),
        _ => proc_macro2::TokenStream::new(),
    };
    let decode = de::expand(&cont);
    let encode = ser::expand(&cont);
    let has_tag = extras::has_tag(&cont);
    let layout = layout::expand(&cont);
    let view = view::expand(&cont);
    Ok(quote! {
        #decode
        #encode
        #extra
        #has_tag
        #layout
        #view
    })
}
