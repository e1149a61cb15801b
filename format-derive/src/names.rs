//! Every identifier the generated code introduces, and the path it names the
//! runtime by, in one place.
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

/// The reader in generated `decode`.
pub fn reader() -> Ident {
    format_ident!("__r")
}

/// The writer in generated `encode`.
pub fn writer() -> Ident {
    format_ident!("__w")
}

/// The container's argument tuple.
pub fn args() -> Ident {
    format_ident!("__args")
}

/// The position the value starts at (`start` in expressions).
pub fn start() -> Ident {
    format_ident!("__start")
}

/// The slots of placed parts, in `encode_placed`.
pub fn slots() -> Ident {
    format_ident!("__slots")
}

/// The region id of a `#[format(region)]`.
pub fn region() -> Ident {
    format_ident!("__region")
}

/// The first anchor mark of a struct (anchors after it are its own).
pub fn anchor_base() -> Ident {
    format_ident!("__anchor_base")
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

/// What a derived value's data gives now, on write.
pub fn now(local: &Ident) -> Ident {
    format_ident!("__now_{}", local)
}

/// The group id of a struct's `parent[...]` values.
pub fn group() -> Ident {
    format_ident!("__group_id")
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

/// A peeked tag in a tag-dispatched enum.
pub fn tag() -> Ident {
    format_ident!("__tag")
}

/// An element's index in `args(...)` of a list (`index` in expressions).
pub fn index() -> Ident {
    Ident::new(crate::symbol::INDEX, Span::call_site())
}
