//! Pieces shared by the decode and encode generators.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, Type};

use crate::attr::TagLit;
use crate::model::{Body, Container, DataField, Dispatch, FieldKind, Len, ValueSpec};

/// `::format_core`
pub fn core() -> TokenStream {
    quote!(::format_core)
}

/// `::format_core::__private`
pub fn private() -> TokenStream {
    quote!(::format_core::__private)
}

/// A `FourCC` constant expression for a tag literal.
pub fn tag_expr(tag: &TagLit) -> TokenStream {
    let core = core();
    let [a, b, c, d] = tag.bytes;
    quote!(#core::FourCC::new([#a, #b, #c, #d]))
}

/// Source text of an expression, with the token spacing tidied for messages and docs.
pub fn expr_text(tokens: &impl ToTokens) -> String {
    let mut s = tokens.to_token_stream().to_string();
    for (from, to) in [
        (" . ", "."),
        (" :: ", "::"),
        (":: ", "::"),
        ("( ", "("),
        (" )", ")"),
        (" (", "("),
        ("[ ", "["),
        (" ]", "]"),
        (" ,", ","),
        ("! ", "!"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// Source text of a type, tidied (`FixedStr<80>`, `[f32; 3]`).
pub fn type_text(ty: &impl ToTokens) -> String {
    let mut s = expr_text(ty);
    for (from, to) in [
        (" <", "<"),
        ("< ", "<"),
        (" >", ">"),
        (" ;", ";"),
        ("& ", "&"),
    ] {
        s = s.replace(from, to);
    }
    s
}

/// The `Args` tuple passed to a field's or variant's type.
pub fn args_value(args: Option<&Vec<Expr>>) -> TokenStream {
    match args {
        // `.clone()` takes a value out of a field seen by reference, and copies scalars.
        Some(exprs) => quote!((#((#exprs).clone(),)*)),
        None => quote!(::core::default::Default::default()),
    }
}

/// The `Args` type of a container: a tuple of its declared arguments.
pub fn args_type(cont: &Container) -> TokenStream {
    let tys = cont.args.iter().map(|a| &a.ty);
    quote!((#(#tys,)*))
}

/// `let (a, b,) = __args;`
pub fn bind_args(cont: &Container) -> TokenStream {
    let names = cont.args.iter().map(|a| &a.name);
    quote! {
        #[allow(unused_variables)]
        let (#(#names,)*) = __args;
    }
}

/// Generics and where clause with a bound on each type parameter (or the
/// user's `bound = "..."`).
pub fn split_generics(
    cont: &Container,
    bound: &TokenStream,
) -> (TokenStream, TokenStream, TokenStream) {
    let (ig, tg, wc) = cont.generics.split_for_impl();
    let mut preds: Vec<TokenStream> = wc
        .map(|w| w.predicates.iter().map(ToTokens::to_token_stream).collect())
        .unwrap_or_default();
    match &cont.bound {
        Some(user) => preds.extend(user.iter().map(ToTokens::to_token_stream)),
        None => preds.extend(cont.generics.type_params().map(|p| {
            let ident = &p.ident;
            quote!(#ident: #bound)
        })),
    }
    let wc = if preds.is_empty() {
        quote!()
    } else {
        quote!(where #(#preds,)*)
    };
    (ig.to_token_stream(), tg.to_token_stream(), wc)
}

/// Attributes put on every generated impl.
pub fn impl_attrs() -> TokenStream {
    quote! {
        #[automatically_derived]
        #[allow(unused_variables, unused_parens, clippy::all, clippy::pedantic)]
    }
}

/// The lower bound on the encoded size, as a constant expression.
pub fn min_size(cont: &Container) -> TokenStream {
    let core = core();
    let framing = 4 * usize::from(cont.magic.is_some())
        + 8 * usize::from(cont.chunk.is_some())
        + 4 * usize::from(cont.inclusive);
    let body = match &cont.body {
        Body::Struct(fields) => {
            let parts = fields.iter().map(|f| match &f.kind {
                FieldKind::Skip => quote!(0),
                FieldKind::Calc { disk_ty, .. } => quote!(<#disk_ty as #core::Decode>::MIN_SIZE),
                FieldKind::Data(d) => data_min_size(d),
            });
            quote!(0 #(+ #parts)*)
        }
        Body::Plain(_) => quote!(::core::mem::size_of::<Self>()),
        Body::ValueEnum { repr, .. } => quote!(::core::mem::size_of::<#repr>()),
        Body::TagEnum(variants) => {
            let sizes = variants.iter().map(|v| {
                let ty = v.ty;
                let head: usize = match v.dispatch {
                    Dispatch::Tag(_) => 4,
                    Dispatch::Chunk(_) => 8,
                    Dispatch::Inner | Dispatch::Unknown => 0,
                };
                quote! {
                    let s = #head + <#ty as #core::Decode>::MIN_SIZE;
                    if s < m { m = s; }
                }
            });
            quote!({ let mut m = usize::MAX; #(#sizes)* if m == usize::MAX { 0 } else { m } })
        }
    };
    quote!(#framing + #body)
}

fn data_min_size(d: &DataField) -> TokenStream {
    let core = core();
    if d.cond.is_some() || d.optional {
        return quote!(0);
    }
    let tag = if d.tag.is_some() { 4usize } else { 0 };
    let value = match &d.value {
        ValueSpec::Single => {
            let ty = d.value_ty;
            quote!(<#ty as #core::Decode>::MIN_SIZE)
        }
        ValueSpec::Custom { .. } => quote!(0),
        ValueSpec::Vec {
            len: Len::Prefix(t),
            ..
        } => quote!(::core::mem::size_of::<#t>()),
        ValueSpec::Vec { .. } => quote!(0),
    };
    quote!((#tag + #value))
}

/// `let local = source;` for scalars, `let local = &source;` otherwise: how a
/// field is seen by the expressions after it. Reading and writing both bind
/// through here, so the two directions cannot disagree.
pub fn bind_local(local: &syn::Ident, source: &TokenStream, ty: &Type) -> TokenStream {
    let value = if crate::model::is_scalar(ty) {
        quote!(#source)
    } else {
        quote!(&#source)
    };
    quote! {
        #[allow(unused_variables)]
        let #local = #value;
    }
}
