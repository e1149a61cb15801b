//! Pieces shared by the decode and encode generators.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{Expr, Type};

use crate::attr::TagLit;
use crate::model::{
    Body, Container, DataField, DerivedField, Dispatch, FieldKind, Len, Source, Target, ValueSpec,
};
use crate::names;

/// A `FourCC` constant expression for a tag literal.
pub fn tag_expr(cont: &Container, tag: &TagLit) -> TokenStream {
    let core = cont.rt.core();
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
        // Spanned at the first argument: a type whose `Args` are not these
        // is reported at the attribute, not at the derive.
        Some(exprs) => {
            let span = exprs
                .first()
                .map_or_else(proc_macro2::Span::call_site, syn::spanned::Spanned::span);
            // Only the tuple's own tokens: the `.clone()` calls stay the
            // macro's (lints on them are not the user's).
            let values = exprs.iter().map(|e| quote!((#e).clone()));
            quote::quote_spanned!(span=> (#(#values,)*))
        }
        None => quote!(::core::default::Default::default()),
    }
}

/// The `Args` type of a container: a tuple of its declared arguments.
pub fn args_type(cont: &Container) -> TokenStream {
    let tys = cont.args.iter().map(|a| &a.ty);
    quote!((#(#tys,)*))
}

/// `let (a, b,) = __args;` (a clone, so the tuple can be passed on).
pub fn bind_args(cont: &Container) -> TokenStream {
    let names = cont.args.iter().map(|a| &a.name);
    let args = names::args();
    quote! {
        #[allow(unused_variables)]
        let (#(#names,)*) = ::core::clone::Clone::clone(&#args);
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
        #[allow(
            unused_variables,
            unused_parens,
            unused_mut,
            clippy::all,
            clippy::pedantic,
            clippy::unwrap_used,
            clippy::expect_used,
            clippy::indexing_slicing
        )]
    }
}

/// Whether `ty` names the type `ident` (or `Self`) anywhere in it.
pub fn mentions(ty: &Type, ident: &syn::Ident) -> bool {
    fn walk(tokens: proc_macro2::TokenStream, ident: &syn::Ident) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == *ident || i == "Self",
            proc_macro2::TokenTree::Group(g) => walk(g.stream(), ident),
            _ => false,
        })
    }
    walk(quote!(#ty), ident)
}

/// Whether a struct holds values of its own type (a tree): its decode then
/// counts how deep they nest ([`Reader::nested`]), so that input cannot
/// overflow the stack.
pub fn holds_itself(cont: &Container) -> bool {
    match &cont.body {
        Body::Struct(fields) => fields.iter().any(|f| match &f.kind {
            FieldKind::Data(d) => mentions(d.value_ty, cont.ident),
            _ => false,
        }),
        _ => false,
    }
}

/// The lower bound on the encoded size, as a constant expression.
pub fn min_size(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let framing = 4 * usize::from(cont.magic.is_some())
        + 8 * usize::from(cont.chunk.is_some())
        + 4 * usize::from(cont.inclusive);
    let body = match &cont.body {
        Body::Struct(fields) => {
            let parts = fields.iter().map(|f| match &f.kind {
                FieldKind::Skip
                | FieldKind::Kept
                | FieldKind::ReadCalc(_)
                | FieldKind::SplitTail => quote!(0),
                FieldKind::Derived(d) if d.cond.is_some() => quote!(0),
                FieldKind::Derived(d) => {
                    let ty = d.disk_ty;
                    quote!(<#ty as #core::Decode>::MIN_SIZE)
                }
                FieldKind::Data(d) => data_min_size(cont, d),
            });
            quote!(0 #(+ #parts)*)
        }
        Body::Plain(_) => quote!(::core::mem::size_of::<Self>()),
        Body::ValueEnum { repr, .. } => quote!(::core::mem::size_of::<#repr>()),
        Body::CondEnum(variants) => min_of(
            cont,
            variants.iter().map(|v| (0usize, v.ty)).collect::<Vec<_>>(),
        ),
        Body::TagEnum(variants) => min_of(
            cont,
            variants
                .iter()
                .map(|v| {
                    let head: usize = match v.dispatch {
                        Dispatch::Tag(_) => 4,
                        Dispatch::Chunk(_) => 8,
                        Dispatch::Inner | Dispatch::Unknown | Dispatch::NotRead => 0,
                    };
                    (head, v.ty)
                })
                .collect(),
        ),
    };
    quote!(#framing + #body)
}

fn min_of(cont: &Container, parts: Vec<(usize, &Type)>) -> TokenStream {
    let core = cont.rt.core();
    let (m, s) = (names::min_so_far(), names::min_candidate());
    let sizes = parts.iter().map(|(head, ty)| {
        quote! {
            let #s = #head + <#ty as #core::Decode>::MIN_SIZE;
            if #s < #m { #m = #s; }
        }
    });
    quote!({ let mut #m = usize::MAX; #(#sizes)* if #m == usize::MAX { 0 } else { #m } })
}

fn data_min_size(cont: &Container, d: &DataField) -> TokenStream {
    let core = cont.rt.core();
    if d.cond.is_some() || d.optional || d.read_cond.is_some() || d.placed {
        return quote!(0);
    }
    if d.read_with.is_some() {
        return quote!(0);
    }
    let tag = if d.tag.is_some() { 4usize } else { 0 };
    let value = match &d.value {
        ValueSpec::Single => {
            let ty = d.value_ty;
            quote!(<#ty as #core::Decode>::MIN_SIZE)
        }
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

/// The context names expressions see (`version`, `format_flags`), from the
/// reader or writer `io`.
pub fn context_bindings(io: &syn::Ident) -> TokenStream {
    let (version, flags) = (names::expr::version(), names::expr::format_flags());
    quote! {
        #[allow(unused_variables)]
        let #version = #io.ctx().version;
        #[allow(unused_variables)]
        let #flags = #io.ctx().flags;
    }
}

/// `start`: where the value begins, for `from = ...` expressions.
pub fn bind_start(io: &syn::Ident) -> TokenStream {
    let (hidden, start) = (names::start(), names::expr::start());
    quote! {
        #[allow(unused_variables)]
        let #hidden: usize = #io.pos();
        #[allow(unused_variables)]
        let #start: usize = #hidden;
    }
}

/// The value an offset or size has in the data, as an `Option<u32>`
/// expression, for a target read or written in sequence (a field, a list's
/// element, an element of the enclosing list), from what `io` (the reader or
/// writer) recorded; `index` is the entry of a table of offsets.
pub fn sequential_value(
    cont: &Container,
    d: &DerivedField,
    index: Option<&TokenStream>,
    io: &syn::Ident,
) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    let anchors = |mark: &syn::Ident, end: &syn::Ident| quote!(#p::AnchorList::anchor_slice(&*#io, #mark, #end));
    let (of, from, minus) = match &d.source {
        Source::Offset { of, from } => (of, Some(from), 0usize),
        Source::Size { of, body } => (of, None, if *body { 8 } else { 0 }),
        Source::Calc(_) => return none,
    };
    let (v, a) = (names::value(), names::anchor());
    let fit = quote!(.and_then(|#v| u32::try_from(#v).ok()));
    let of_anchor = |found: TokenStream| match from {
        Some(from) => quote!(#found.and_then(|#a| #a.start.checked_sub(#from)) #fit),
        None => quote!(#found.and_then(|#a| #a.len.checked_sub(#minus)) #fit),
    };
    match of {
        Target::Field { ident, .. } => match index {
            Some(i) => {
                let (mark, end) = names::anchor_marks(ident);
                let list = anchors(&mark, &end);
                of_anchor(quote!(#core::anchor::at(#list, #i)))
            }
            None => {
                let (at, end) = (names::field_start(ident), names::field_end(ident));
                match from {
                    Some(from) => quote!(#at.checked_sub(#from) #fit),
                    None => quote!((#end - #at).checked_sub(#minus) #fit),
                }
            }
        },
        Target::Tagged { list, tag, nth } => {
            let (mark, end) = names::anchor_marks(list);
            let list = anchors(&mark, &end);
            let tag = tag_expr(cont, tag);
            of_anchor(match nth {
                None => quote!(#core::anchor::first(#list, #tag)),
                Some(n) => quote!(#core::anchor::nth(#list, #tag, #n)),
            })
        }
        Target::Parent { tag, nth } => {
            let tag = tag_expr(cont, tag);
            let nth = nth.as_ref().map_or(none.clone(), |n| quote!(#some(#n)));
            let base = from.map_or(none.clone(), |f| quote!(#some(#f)));
            quote! {
                #p::SiblingTarget { tag: #tag, nth: #nth, base: #base, minus: #minus }
                    .derive(#io.siblings())
            }
        }
    }
}
