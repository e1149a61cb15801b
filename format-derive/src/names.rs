//! Every identifier the generated code introduces, and the path it names the
//! runtime by, in one place (as serde_derive's `private` names): generators
//! never spell a generated name inline, so no two of them can drift apart
//! and none can collide with a name of the user's by accident.
//!
//! Hidden names start with `__` (a user's field or argument would not); the
//! names expressions in attributes see (`version`, `start`, `reader`, ...)
//! are in [`expr`]. Some roles share a spelling where they never share a
//! scope (each function says which).
//!
//! The runtime is found the way the user depends on it: `format_core`
//! directly (under whatever name Cargo.toml gives it), or through `formats`,
//! which re-exports it as `formats::core`; `#[format(crate = "path")]`
//! overrides both (as serde's `#[serde(crate = "...")]` does).

use proc_macro_crate::{FoundCrate, crate_name};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote};
use syn::Ident;

/// How generated code names the runtime.
#[derive(Clone)]
pub struct Runtime {
    path: TokenStream,
}

impl Runtime {
    /// The runtime path for this expansion: `crate = "..."` if given, else
    /// found from the dependencies of the crate being compiled.
    pub fn find(user: Option<&syn::Path>) -> Runtime {
        if let Some(path) = user {
            return Runtime {
                path: path.to_token_stream(),
            };
        }
        let ident = |name: &str| Ident::new(name, Span::call_site());
        let path = match crate_name("format-core") {
            // format-core's own tests and doctests: it names itself `format_core`.
            Ok(FoundCrate::Itself) => quote!(::format_core),
            Ok(FoundCrate::Name(name)) => {
                let name = ident(&name);
                quote!(::#name)
            }
            Err(_) => match crate_name("formats") {
                Ok(FoundCrate::Name(name)) => {
                    let name = ident(&name);
                    quote!(::#name::core)
                }
                Ok(FoundCrate::Itself) => quote!(crate::core),
                // Neither is a dependency (or Cargo.toml is unreadable): the
                // compiler's "unresolved crate" error names what is missing.
                Err(_) => quote!(::format_core),
            },
        };
        Runtime { path }
    }

    /// The runtime crate (`::format_core`, `::formats::core`, ...).
    pub fn core(&self) -> &TokenStream {
        &self.path
    }

    /// Its support module for generated code.
    pub fn private(&self) -> TokenStream {
        let core = &self.path;
        quote!(#core::__private)
    }
}

/// Declares functions returning a fixed identifier.
macro_rules! idents {
    ($($(#[$doc:meta])* $name:ident = $text:literal;)*) => {
        $(
            $(#[$doc])*
            pub fn $name() -> Ident {
                Ident::new($text, Span::call_site())
            }
        )*
    };
}

/// The names that expressions written in attributes see: documented, so
/// part of the derive's interface (the crate docs list them).
pub mod expr {
    use proc_macro2::Span;
    use syn::Ident;

    idents! {
        /// The context's version (`if = version > 800`).
        version = "version";
        /// The context's flags.
        format_flags = "format_flags";
        /// Where the value begins (`from = start`).
        start = "start";
        /// The reader, in `read_if` conditions (`reader.remaining() >= 13`).
        reader = "reader";
    }

    /// An element's index in `args(...)` of a list.
    pub fn index() -> Ident {
        Ident::new(crate::symbol::INDEX, Span::call_site())
    }
}

idents! {
    /// The reader in generated `decode`.
    reader = "__r";
    /// The writer in generated `encode`.
    writer = "__w";
    /// The container's argument tuple.
    args = "__args";
    /// The position the value starts at (`start` in expressions).
    start = "__start";
    /// The group of a struct's values kept or derived together.
    group = "__group_id";
    /// The group of a struct's `parent[...]` values.
    parent_group = "__parent_group";
    /// A read region's value, before its layout is kept.
    region_value = "__region_value";
    /// The layout a read region had.
    placement = "__placement";
    /// A peeked tag in a tag-dispatched enum.
    tag = "__tag";
    /// The context in `Tagged::accepts`.
    ctx = "__ctx";

    /// A value bound by a pattern or a closure: a variant's payload, an
    /// `Option`'s contents, a number being fitted into a `u32`.
    value = "__v";
    /// An error in a `map_err` closure.
    error = "__e";
    /// An element in a loop over a list (spelled as [`error`], never in
    /// the same scope).
    element = "__e";
    /// An anchor found for a list element an offset names.
    anchor = "__a";
    /// The entry of a table of offsets, or a slot's index in a group.
    entry = "__i";
    /// An element count read or computed before the elements.
    count = "__n";
    /// The position offsets of a placed part count from (`from = ...`).
    base = "__base";
    /// A number read or written by an enum of values (and a group's value
    /// before it is patched).
    number = "__value";
    /// A number no named variant of an enum of values holds.
    other = "__other";
    /// Where the number of an enum of values was read.
    number_offset = "__offset";
    /// The running minimum in `MIN_SIZE` of an enum.
    min_so_far = "m";
    /// A variant's minimum size in `MIN_SIZE` of an enum.
    min_candidate = "s";

    // Reading.
    /// The result of reading a variant's payload (moved into `Self` once).
    variant_read = "__read";
    /// A tag as peeked, before it is bound to [`tag`].
    peeked = "__t";
    /// The reader or writer a chunk list's `after_chunk` hooks are given.
    list_io = "__io";
    /// The bytes a `Record` is read from.
    record_bytes = "__bytes";
    /// The bytes a `Record` is written into.
    record_out = "__out";
    /// A count as read, before a `clamp` fits it to the bytes left.
    claimed = "__claimed";
    /// Where that count is stored, for the diagnostic a clamp gives.
    count_at = "__count_at";
    /// The elements of a placed `Vec` read so far.
    list = "__list";
    /// The size a size field gives a placed part (`Option<u32>`).
    part_size = "__size";
    /// The value(s) on disk of a derived field, while it is captured.
    table = "__table";
    /// The captured values of a struct's derived fields.
    captured = "__captured";
    /// Whether a captured value differs from what its data gives.
    differs = "__differs";
    /// A value as on disk (captured on read; kept, on write).
    raw = "__raw";
    /// What the data gives for a captured value.
    derived = "__derived";
    /// The kept slot of a captured value (on read), or the reserved slot a
    /// group's value is patched into (on write).
    kept_slot = "__slot";
    /// The place in [`captured`] of a value.
    captured_entry = "__entry";

    // Writing.
    /// A slot just reserved for a value resolved later.
    reserved = "__s";
    /// What a reserved value is derived from, before it is reserved.
    target = "__target";
    /// A placed part just written (its id in the region).
    part = "__part";
    /// A placed run of elements being written.
    run = "__run";
    /// The value a write hook is given (bound at the hook's span, so that a
    /// value of another type than the hook takes is reported there).
    hook_value = "__hook_value";
}

/// The local of the `index`-th field of a tuple struct.
pub fn tuple_field(index: usize) -> Ident {
    format_ident!("__field{}", index)
}

/// A field's value while reading, before `Self` is built.
pub fn stored(local: &Ident) -> Ident {
    format_ident!("__v_{}", local)
}

/// A computed (`calc`) value, worked out before the fields are written.
pub fn calc(local: &Ident) -> Ident {
    format_ident!("__calc_{}", local)
}

/// The reserved slot(s) of an offset or size field.
pub fn slot(local: &Ident) -> Ident {
    format_ident!("__slot_{}", local)
}

/// Where a field starts (sequential offset targets).
pub fn field_start(local: &Ident) -> Ident {
    format_ident!("__at_{}", local)
}

/// Where a field ends.
pub fn field_end(local: &Ident) -> Ident {
    format_ident!("__end_{}", local)
}

/// The anchor marks around a list field: `(first, end)`.
pub fn anchor_marks(local: &Ident) -> (Ident, Ident) {
    (
        format_ident!("__anchors_{}", local),
        format_ident!("__anchors_end_{}", local),
    )
}

/// The constant holding the on-disk value of the `index`-th variant.
pub fn discriminant(index: usize) -> Ident {
    format_ident!("__D{}", index)
}
