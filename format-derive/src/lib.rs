//! `#[derive(Codec)]`: one definition, annotated like the spec it comes from,
//! gives a reader ([`Decode`]) and a writer ([`Encode`]) for a chunked binary
//! format. Use it through `format_core::Codec`.
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
//! | `plain` | a `#[repr(C)]` struct of plain fields with no padding: read and written as its memory image, arrays of it in one copy |
//! | `args(name: Type, ...)` | arguments the caller passes (a key track passes its interpolation type to each key) |
//! | `bound = "T: ..."` | replaces the inferred `T: Decode<Args = ()>` / `T: Encode<Args = ()>` bounds |
//! | `repr = u32` | the on-disk type of an enum of values (or use `#[repr(u32)]`) |
//!
//! # Field attributes
//!
//! | attribute | meaning |
//! |---|---|
//! | `tag = "VRTX"` | a tag before the field |
//! | `count = u32` | a `Vec` with a count of that integer type right before it |
//! | `count = <expr>` | a `Vec` whose length is an expression over earlier fields, arguments, `version` |
//! | `count = size / 132` | the whole enclosing chunk in 132-byte elements (must divide exactly) |
//! | `until_end` | a `Vec` read until the enclosing chunk or object ends |
//! | `tagged` | a `Vec` of a tag-dispatched enum, read while the next tag is one it knows (MDX `K***` tracks, any order, order kept) |
//! | `if = <expr>` | an `Option` present only when the condition holds (`version > 800`); on write, presence must agree |
//! | `optional` | with `tag`: an `Option` present if the next tag is that tag |
//! | `args(<expr>, ...)` | arguments for the field's type (for a `Vec`, passed to each element) |
//! | `calc = <expr>` | a `Derived<T>` field: `T` on disk, computed from the data on write, never stored |
//! | `read_with = f, write_with = g` | hand-written functions for a layout that cannot be declared: `f(&mut Reader, args...) -> Result<T>`, `g(&T, &mut Writer, args...) -> Result<()>` (for an `if`/`optional` field, `T` is the type inside the `Option`) |
//! | `sets_version` | on a `u8`/`u16`/`u32` field: after reading or writing it, its value becomes the context's version |
//! | `skip` | not on disk (`Default` on read) |
//!
//! In expressions, earlier fields are in scope by name (integers, floats and
//! `bool` by value, other types by reference), as are the container's arguments
//! and, from the context, `version` and `format_flags`. Reading and writing see
//! exactly the same names: a field is visible to the fields after it (a `calc`
//! expression, evaluated on write only, sees every field). Conditions on enum
//! variants see only `version` and `format_flags`.
//!
//! # Variant attributes (enums)
//!
//! A tag-dispatched enum has variants `Name(Type)` with `tag = "KGTR"` (tag
//! consumed, then `Type`), `chunk = "SEQS"` (tag and size consumed, `Type` reads the
//! bounded body), no attribute (`Type` has its own `chunk`/`magic` tag), or
//! `unknown` (the fallback: `Unknown(UnknownChunk)` in a chunk list, `Unknown(UnknownTail)`
//! for sub-chunks inside a sized object); `if = <expr>` gates a
//! variant on the version. An enum of values has unit variants with discriminants
//! and an optional `#[format(unknown)] Other(u32)` that keeps unknown values.
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
mod model;
mod names;
mod ser;
mod symbol;

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
        model::Body::TagEnum(variants) => extras::tagged(&cont, variants),
        _ => proc_macro2::TokenStream::new(),
    };
    let decode = de::expand(&cont);
    let encode = ser::expand(&cont);
    let has_tag = extras::has_tag(&cont);
    let layout = layout::expand(&cont);
    Ok(quote! {
        #decode
        #encode
        #extra
        #has_tag
        #layout
    })
}
