//! Generates `impl View` and the view type (`GeosetView<'a>` for
//! `Geoset`): the owned reader's walk, field by field, with every value
//! read as its view (see `format_core::view`). The framing, conditions,
//! counts, tags and error paths are the owned reader's own (`de`), so the
//! two read the same bytes the same way and fail the same way.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::common::{
    args_value, bind_args, bind_local, bind_start, context_bindings, impl_attrs, split_generics,
    tag_expr,
};
use crate::model::{
    Body, CondVariant, Container, DataField, Dispatch, Field, FieldKind, Len, TagVariant,
    ValueSpec, generic_arg,
};
use crate::names;

pub fn expand(cont: &Container) -> TokenStream {
    match &cont.body {
        // Plain structs are their own views (`impl<T: Plain> View for T`).
        Body::Plain(_) => TokenStream::new(),
        Body::ValueEnum { .. } => by_value(cont),
        Body::Struct(fields) => match lazy_reason(cont, fields) {
            Some(_) => lazy(cont),
            None => struct_view(cont, fields),
        },
        Body::TagEnum(variants) => tag_enum_view(cont, variants),
        Body::CondEnum(variants) => cond_enum_view(cont, variants),
    }
}

/// Why a struct's view is its bytes, decoded on access (`Lazy`): what only
/// its owned reader can follow.
fn lazy_reason(cont: &Container, fields: &[Field]) -> Option<&'static str> {
    if cont.region.is_some() {
        return Some("region");
    }
    fields.iter().find_map(|f| match &f.kind {
        FieldKind::Kept => Some("kept"),
        FieldKind::Data(d) if d.placed => Some("placed"),
        FieldKind::Data(d) if d.anchored => Some("anchored"),
        FieldKind::Data(d) if d.indexed() => Some("indexed"),
        FieldKind::Data(d) if d.read_with.is_some() => Some("read_with"),
        FieldKind::Data(d)
            if matches!(
                d.value,
                ValueSpec::Vec {
                    len: Len::Table,
                    ..
                }
            ) =>
        {
            Some("table")
        }
        _ => None,
    })
}

/// The bounds a view impl puts on type parameters (without `bound = ...`).
fn bound(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    match cont.chunk_list {
        // A chunk list's elements are written by its own impls too.
        Some(_) => quote!(#core::View<Args = ()> + #core::Encode<Args = ()>),
        None => quote!(#core::View<Args = ()>),
    }
}

/// `Clone` and `Copy` for a view type, bounded by the owned type's bounds
/// only (a derive would ask every type parameter to be `Copy`; the fields
/// are views, `Copy` by `View`'s bounds).
fn copy_impls(cont: &Container) -> TokenStream {
    let view = view_ident(cont);
    let (view_gen, view_args) = view_generics(cont);
    let (view_ig, _, _) = view_gen.split_for_impl();
    let (_, _, wc) = split_generics(cont, &bound(cont));
    let attrs = impl_attrs();
    quote! {
        #attrs
        impl #view_ig ::core::clone::Clone for #view #view_args #wc {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }
        #attrs
        impl #view_ig ::core::marker::Copy for #view #view_args #wc {}
    }
}

fn view_ident(cont: &Container) -> syn::Ident {
    format_ident!("{}View", cont.ident)
}

/// `impl View` around the type-specific items.
fn view_impl(cont: &Container, items: TokenStream) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &bound(cont));
    let attrs = impl_attrs();
    let sets_context = match &cont.body {
        Body::Struct(fields) => fields
            .iter()
            .any(|f| matches!(&f.kind, FieldKind::Data(d) if d.sets_version)),
        _ => false,
    };
    let chunk = cont.chunk.is_some();
    quote! {
        #attrs
        impl #ig #core::View for #ident #tg #wc {
            const SETS_CONTEXT: bool = #sets_context;
            const CHUNK: bool = #chunk;
            #items
        }
    }
}

/// The run of a derived type: walked once, viewed per element.
fn list_run(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let (r, args) = (names::reader(), names::args());
    quote! {
        type Run<'a> = #core::view::ListView<'a, Self>;

        fn view_run<'a>(
            #r: &mut #core::Reader<'a>,
            __count: ::core::option::Option<u64>,
            #args: Self::Args,
        ) -> #core::Result<Self::Run<'a>> {
            #core::view::ListView::walk(#r, __count, #args)
        }

        fn from_run(__run: &Self::Run<'_>) -> #core::Result<#p::Vec<Self>> {
            __run.to_vec()
        }
    }
}

/// A value enum: a number, its own view (so it is `Copy`).
fn by_value(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let (r, args) = (names::reader(), names::args());
    let run = list_run(cont);
    view_impl(
        cont,
        quote! {
            type View<'a> = Self;

            #[inline]
            fn view<'a>(#r: &mut #core::Reader<'a>, #args: Self::Args) -> #core::Result<Self> {
                <Self as #core::Decode>::decode(#r, #args)
            }

            #[inline]
            fn from_view(__view: &Self) -> #core::Result<Self> {
                ::core::result::Result::Ok(::core::clone::Clone::clone(__view))
            }

            #run
        },
    )
}

/// A struct only its owned reader can follow: `Lazy`.
fn lazy(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let (r, args) = (names::reader(), names::args());
    let run = list_run(cont);
    view_impl(
        cont,
        quote! {
            type View<'a> = #core::view::Lazy<'a, Self>;

            fn view<'a>(#r: &mut #core::Reader<'a>, #args: Self::Args) -> #core::Result<Self::View<'a>> {
                #core::view::Lazy::read(#r, #args)
            }

            fn from_view(__view: &Self::View<'_>) -> #core::Result<Self> {
                __view.get()
            }

            #run
        },
    )
}

/// The view type of one data field, and how the owned value is made from it.
fn field_view(cont: &Container, fields: &[Field], f: &Field) -> Option<(TokenStream, TokenStream)> {
    let core = cont.rt.core();
    let member = &f.member;
    let v = quote!(__view.#member);
    match &f.kind {
        FieldKind::Data(d) => {
            let option = generic_arg(f.ty, "Option").is_some();
            let (ty, owned) = match (&d.value, &d.split) {
                (ValueSpec::Vec { elem, .. }, Some(_)) => (
                    quote!(#core::view::RecordRun<'a, #elem>),
                    quote!(__x.to_vec()),
                ),
                (
                    ValueSpec::Vec {
                        elem,
                        len: Len::Tagged,
                        ..
                    },
                    None,
                ) => (
                    quote!(#core::view::ListView<'a, #elem>),
                    quote!(__x.to_vec()?),
                ),
                (ValueSpec::Vec { elem, .. }, None) => (
                    quote!(<#elem as #core::View>::Run<'a>),
                    quote!(<#elem as #core::View>::from_run(__x)?),
                ),
                (ValueSpec::Single, _) => {
                    let ty = d.value_ty;
                    (
                        quote!(<#ty as #core::View>::View<'a>),
                        quote!(<#ty as #core::View>::from_view(__x)?),
                    )
                }
            };
            Some(match option {
                true => (
                    quote!(::core::option::Option<#ty>),
                    quote! {
                        match &#v {
                            ::core::option::Option::Some(__x) => ::core::option::Option::Some(#owned),
                            ::core::option::Option::None => ::core::option::Option::None,
                        }
                    },
                ),
                false => (ty, quote!({ let __x = &#v; #owned })),
            })
        }
        FieldKind::SplitTail => {
            let elem = fields.iter().find_map(|other| match &other.kind {
                FieldKind::Data(d) => d
                    .split
                    .as_ref()
                    .filter(|s| s.tails == f.local)
                    .and_then(|s| s.tail_elem),
                _ => None,
            })?;
            Some((
                quote!(#core::view::RecordRun<'a, #elem>),
                quote!(#v.to_vec()),
            ))
        }
        FieldKind::ReadCalc(_) => {
            let ty = f.ty;
            Some((quote!(#ty), quote!(::core::clone::Clone::clone(&#v))))
        }
        FieldKind::Skip | FieldKind::Kept | FieldKind::Derived(_) => None,
    }
}

/// The view type's generics: the lifetime `'a` of the input, then the
/// owned type's own (`<'a, T>`); and the arguments naming it (`<'a, T>`).
fn view_generics(cont: &Container) -> (syn::Generics, TokenStream) {
    let mut generics = cont.generics.clone();
    generics.where_clause = None;
    generics.params.insert(0, syn::parse_quote!('a));
    let (_, tg, _) = generics.split_for_impl();
    let args = quote!(#tg);
    (generics, args)
}

fn struct_view(cont: &Container, fields: &[Field]) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let view = view_ident(cont);
    let vis = &cont.input.vis;
    let (r, args) = (names::reader(), names::args());
    let (view_gen, view_args) = view_generics(cont);
    let (view_ig, _, _) = view_gen.split_for_impl();
    let (_, _, wc) = split_generics(cont, &bound(cont));
    let (_, owned_tg, _) = cont.generics.split_for_impl();
    let mut decls = Vec::new();
    let mut inits = Vec::new();
    let mut owned = Vec::new();
    for f in fields {
        let member = &f.member;
        match field_view(cont, fields, f) {
            Some((ty, make)) => {
                let doc = match f.doc.is_empty() {
                    true => format!("`{}`, viewed.", f.name),
                    false => f.doc.clone(),
                };
                decls.push(match member {
                    syn::Member::Named(_) => quote!(#[doc = #doc] pub #member: #ty),
                    syn::Member::Unnamed(_) => quote!(#[doc = #doc] pub #ty),
                });
                let stored = names::stored(&f.local);
                inits.push(quote!(#member: #stored));
                owned.push(quote!(#member: #make));
            }
            None => owned.push(quote!(#member: ::core::default::Default::default())),
        }
    }
    if decls.is_empty() {
        // Nothing on disk to show (every field derived or skipped): the
        // input's lifetime still names the view.
        decls.push(quote!(#[doc(hidden)] pub __input: ::core::marker::PhantomData<&'a [u8]>));
        inits.push(quote!(__input: ::core::marker::PhantomData));
    }
    let doc = format!(
        "A view of [`{ident}`]: its fields read in place from the input, under the same \
         names (see `format_core::view`). `to_owned` gives the `{ident}`."
    );
    let body = struct_body(cont, fields, &view, &inits);
    let body = crate::de::framed(cont, body);
    let body = match crate::common::holds_itself(cont) {
        true => quote!(#r.nested(|#r| { #body })),
        false => body,
    };
    let bind = bind_args(cont);
    let run = list_run(cont);
    let imp = view_impl(
        cont,
        quote! {
            type View<'a> = #view #view_args;

            fn view<'a>(#r: &mut #core::Reader<'a>, #args: Self::Args) -> #core::Result<Self::View<'a>> {
                #bind
                #body
            }

            fn from_view(__view: &Self::View<'_>) -> #core::Result<Self> {
                ::core::result::Result::Ok(Self { #(#owned,)* })
            }

            #run
        },
    );
    let attrs = impl_attrs();
    let copy = copy_impls(cont);
    let tuple = fields
        .iter()
        .any(|f| matches!(f.member, syn::Member::Unnamed(_)));
    let decl = match tuple {
        true => quote!(#vis struct #view #view_gen (#(#decls,)*) #wc;),
        false => quote!(#vis struct #view #view_gen #wc { #(#decls,)* }),
    };
    quote! {
        #[doc = #doc]
        #decl
        #copy

        #attrs
        impl #view_ig #view #view_args #wc {
            /// The owned value this view shows, built from its fields.
            #vis fn to_owned(&self) -> #core::Result<#ident #owned_tg> {
                <#ident #owned_tg as #core::View>::from_view(self)
            }
        }

        #imp
    }
}

/// The owned reader's walk (`de::struct_body`) with each value read as
/// its view; ends by building the view.
fn struct_body(
    cont: &Container,
    fields: &[Field],
    view: &syn::Ident,
    inits: &[TokenStream],
) -> TokenStream {
    let r = names::reader();
    let ctx = context_bindings(&r);
    let start = bind_start(&r);
    let reads = fields.iter().map(|f| field_read(cont, fields, f));
    quote! {
        #ctx
        #start
        #(#reads)*
        ::core::result::Result::Ok(#view { #(#inits,)* })
    }
}

fn field_read(cont: &Container, fields: &[Field], f: &Field) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let (r, e) = (names::reader(), names::error());
    let name = &f.name;
    let local = &f.local;
    let stored = names::stored(local);
    let ty = f.ty;
    match &f.kind {
        // Not on disk, not in the view.
        FieldKind::Skip | FieldKind::Kept => TokenStream::new(),
        // Viewed with the list whose records it completes (declared before it).
        FieldKind::SplitTail => bind_local(local, &quote!(#stored), ty),
        FieldKind::ReadCalc(expr) => {
            let bind = bind_local(local, &quote!(#stored), ty);
            quote! {
                let #stored: #ty = #expr;
                #bind
            }
        }
        FieldKind::Derived(d) => crate::de::derived_raw(cont, f, d),
        FieldKind::Data(d) if d.split.is_some() => split_read(cont, fields, f, d),
        FieldKind::Data(d) => {
            let read = crate::de::data_read_with(cont, d, value_read(cont, fields, d));
            let bind = bind_local(local, &quote!(#stored), ty);
            let ctx = context_bindings(&r);
            let sets_version = d.sets_version.then(|| {
                quote! {
                    #r.ctx_mut().version = ::core::convert::Into::<u32>::into(
                        ::core::clone::Clone::clone(&#stored),
                    );
                    #ctx
                }
            });
            let (at, end) = (names::field_start(local), names::field_end(local));
            let before = d.marked.then(|| quote!(let #at = #r.pos();));
            let after = d.marked.then(|| quote!(let #end = #r.pos();));
            let _ = &p;
            quote! {
                #before
                let #stored = (|#r: &mut #core::Reader<'a>| -> #core::Result<_> {
                    #read
                })(#r)
                .map_err(|#e: #core::Error| #e.in_field(#name))?;
                #after
                #bind
                #sets_version
            }
        }
    }
}

/// A `split` list and its tails, viewed as two runs over the one run of
/// records (`de::split_read`).
fn split_read(cont: &Container, fields: &[Field], f: &Field, d: &DataField) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let (r, e) = (names::reader(), names::error());
    let (name, local, ty) = (&f.name, &f.local, f.ty);
    let stored = names::stored(local);
    let (Some(split), ValueSpec::Vec { elem, len, .. }) = (&d.split, &d.value) else {
        return TokenStream::new();
    };
    let Some(tail) = split.tail_elem else {
        return TokenStream::new();
    };
    let tails_stored = names::stored(&split.tails);
    let count = crate::de::count_read(cont, fields, d, len, elem);
    let cond = match &split.cond {
        Some(c) => quote!((#c)),
        None => quote!(true),
    };
    let bind = bind_local(local, &quote!(#stored), ty);
    let n = names::count();
    quote! {
        let (#stored, #tails_stored) = (|#r: &mut #core::Reader<'a>| -> #core::Result<_> {
            let #n: u64 = #count;
            #p::view_split::<#elem, #tail>(#r, #n, #cond)
        })(#r)
        .map_err(|#e: #core::Error| #e.in_field(#name))?;
        #bind
    }
}

/// `de::value_read` with the value viewed.
fn value_read(cont: &Container, fields: &[Field], d: &DataField) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let args = args_value(d.args.as_ref());
    let ty = d.value_ty;
    let ValueSpec::Vec { elem, len, .. } = &d.value else {
        return quote!(<#ty as #core::View>::view(#r, #args));
    };
    let n = names::count();
    match len {
        Len::Prefix(_) | Len::Expr(_) => {
            let count = crate::de::count_read(cont, fields, d, len, elem);
            quote! {{
                let #n: u64 = #count;
                #p::view_run::<#elem>(#r, ::core::option::Option::Some(#n), #args)
            }}
        }
        Len::Stride(n) => quote!(#p::view_stride::<#elem>(#r, #n, #args)),
        Len::Tagged => quote!(#p::view_tagged::<#elem>(#r, #args)),
        Len::UntilEnd => quote!(#p::view_run::<#elem>(#r, ::core::option::Option::None, #args)),
        // A struct with a table of offsets is viewed `Lazy`.
        Len::Table => quote!(::core::result::Result::Err(#core::Error::other("table"))),
    }
}

/// The variants a view has: every one the strict reader can produce (not
/// the lenient list's `cut` and `undecoded`, nor `not_read`).
fn viewed(v: &TagVariant) -> bool {
    v.role.is_none() && !matches!(v.dispatch, Dispatch::NotRead)
}

/// The enum of the variants' views, its `to_owned`, and `from_view`'s arms.
fn enum_decl(
    cont: &Container,
    variants: &[(&syn::Ident, &syn::Type, &str)],
) -> (TokenStream, TokenStream) {
    let core = cont.rt.core();
    let ident = cont.ident;
    let view = view_ident(cont);
    let vis = &cont.input.vis;
    let (view_gen, view_args) = view_generics(cont);
    let (view_ig, _, _) = view_gen.split_for_impl();
    let (_, _, wc) = split_generics(cont, &bound(cont));
    let (_, owned_tg, _) = cont.generics.split_for_impl();
    let decls = variants.iter().map(|(name, ty, doc)| {
        let doc = match doc.is_empty() {
            true => format!("`{name}`, viewed."),
            false => doc.to_string(),
        };
        quote!(#[doc = #doc] #name(<#ty as #core::View>::View<'a>))
    });
    let arms = variants.iter().map(|(name, ty, _)| {
        quote! {
            #view::#name(__x) => Self::#name(<#ty as #core::View>::from_view(__x)?),
        }
    });
    let doc = format!(
        "A view of [`{ident}`]: the variant read, its value viewed in place (see \
         `format_core::view`). `to_owned` gives the `{ident}`."
    );
    let attrs = impl_attrs();
    let copy = copy_impls(cont);
    let decl = quote! {
        #[doc = #doc]
        #vis enum #view #view_gen #wc {
            #(#decls,)*
        }
        #copy

        #attrs
        impl #view_ig #view #view_args #wc {
            /// The owned value this view shows.
            #vis fn to_owned(&self) -> #core::Result<#ident #owned_tg> {
                <#ident #owned_tg as #core::View>::from_view(self)
            }
        }
    };
    let from = quote! {
        fn from_view(__view: &Self::View<'_>) -> #core::Result<Self> {
            ::core::result::Result::Ok(match __view {
                #(#arms)*
            })
        }
    };
    (decl, from)
}

fn tag_enum_view(cont: &Container, variants: &[TagVariant]) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let view = view_ident(cont);
    let (r, args) = (names::reader(), names::args());
    let (_, view_args) = view_generics(cont);
    let list: Vec<_> = variants
        .iter()
        .filter(|v| viewed(v))
        .map(|v| (v.ident, v.ty, v.doc.as_str()))
        .collect();
    let (decl, from) = enum_decl(cont, &list);
    let ctx = context_bindings(&r);
    let tag_var = names::tag();
    let e = names::error();
    let arms = variants
        .iter()
        .filter(|v| viewed(v) && !matches!(v.dispatch, Dispatch::Unknown))
        .map(|v| {
            let ident = v.ident;
            let (tag, read) = variant_read(cont, v, &quote!(#core::View), &quote!(view));
            let cond = v.cond.as_ref().map(|c| quote!(&& (#c)));
            let err = match &v.dispatch {
                Dispatch::Inner => quote!(#e),
                _ => quote!(#e.in_tag(#tag_var)),
            };
            quote! {
                if #tag_var == #tag #cond {
                    return match (|| -> #core::Result<_> { #read })() {
                        ::core::result::Result::Ok(__x) => ::core::result::Result::Ok(#view::#ident(__x)),
                        ::core::result::Result::Err(#e) => ::core::result::Result::Err(#err),
                    };
                }
            }
        });
    let fallback = unknown_or(cont, variants, |v| {
        let (ident, ty) = (v.ident, v.ty);
        let a = args_value(v.args.as_ref());
        quote!(<#ty as #core::View>::view(#r, #a).map(#view::#ident))
    });
    let bind = bind_args(cont);
    let peek = peek_tag(cont);
    let body = quote! {
        #bind
        #ctx
        #peek
        #(#arms)*
        #fallback
    };
    let (run, walk) = match cont.chunk_list {
        Some(_) => (
            quote! {
                type Run<'a> = #core::view::ChunkListView<'a, Self>;

                fn view_run<'a>(
                    #r: &mut #core::Reader<'a>,
                    __count: ::core::option::Option<u64>,
                    #args: Self::Args,
                ) -> #core::Result<Self::Run<'a>> {
                    #core::view::ChunkListView::walk(#r)
                }

                fn from_run(__run: &Self::Run<'_>) -> #core::Result<#p::Vec<Self>> {
                    __run.to_vec()
                }
            },
            chunk_walk(cont, variants),
        ),
        None => (list_run(cont), TokenStream::new()),
    };
    let imp = view_impl(
        cont,
        quote! {
            type View<'a> = #view #view_args;

            fn view<'a>(#r: &mut #core::Reader<'a>, #args: Self::Args) -> #core::Result<Self::View<'a>> {
                #body
            }

            #from
            #run
        },
    );
    quote! {
        #decl
        #imp
        #walk
    }
}

/// `let __tag = ...`: the next tag, peeked (an error where there is none).
fn peek_tag(cont: &Container) -> TokenStream {
    let p = cont.rt.private();
    let (r, tag_var, peeked) = (names::reader(), names::tag(), names::peeked());
    quote! {
        let #tag_var = match #r.peek_tag() {
            ::core::option::Option::Some(#peeked) => #peeked,
            ::core::option::Option::None => return ::core::result::Result::Err(#p::missing_tag(#r)),
        };
    }
}

/// What a tag no variant names gets: `unknown`'s handling by `with`, or
/// the error naming the tags the enum knows.
fn unknown_or(
    cont: &Container,
    variants: &[TagVariant],
    with: impl Fn(&TagVariant) -> TokenStream,
) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let (r, tag_var) = (names::reader(), names::tag());
    match variants
        .iter()
        .find(|v| matches!(v.dispatch, Dispatch::Unknown))
    {
        Some(v) => with(v),
        None => quote! {
            ::core::result::Result::Err(#p::wrong_tag(#r.pos(), <Self as #core::Tagged>::TAGS, #tag_var))
        },
    }
}

/// The tag a variant is picked by, and how its value is read by `method`
/// of `tr` (`View::view`, or `Decode::decode`) after it is picked.
fn variant_read(
    cont: &Container,
    v: &TagVariant,
    tr: &TokenStream,
    method: &TokenStream,
) -> (TokenStream, TokenStream) {
    let core = cont.rt.core();
    let r = names::reader();
    let ty = v.ty;
    let a = args_value(v.args.as_ref());
    match &v.dispatch {
        Dispatch::Tag(t) => (
            tag_expr(cont, t),
            quote! {
                #r.skip(4)?;
                <#ty as #tr>::#method(#r, #a)
            },
        ),
        Dispatch::Chunk(t) => (
            tag_expr(cont, t),
            quote! {
                #r.skip(4)?;
                #r.chunk(|#r| <#ty as #tr>::#method(#r, #a))
            },
        ),
        _ => (
            quote!(<#ty as #core::HasTag>::TAG),
            quote!(<#ty as #tr>::#method(#r, #a)),
        ),
    }
}

/// `impl ChunkWalk`: each chunk stepped over by its header, as the owned
/// list reads it (`chunk_list::read`), but without its content: a chunk
/// that sets the context is viewed, one followed by bytes of its own
/// (`after_chunk`) read and its hook run.
fn chunk_walk(cont: &Container, variants: &[TagVariant]) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &bound(cont));
    let attrs = impl_attrs();
    let r = names::reader();
    let ctx = context_bindings(&r);
    let tag_var = names::tag();
    let e = names::error();
    let arms = variants
        .iter()
        .filter(|v| viewed(v) && !matches!(v.dispatch, Dispatch::Unknown))
        .map(|v| {
            let ty = v.ty;
            let cond = v.cond.as_ref().map(|c| quote!(&& (#c)));
            let (tag, view) = variant_read(cont, v, &quote!(#core::View), &quote!(view));
            let err = match &v.dispatch {
                Dispatch::Inner => quote!(#e),
                _ => quote!(#e.in_tag(#tag_var)),
            };
            let variant = v.ident;
            let step = if v.after_chunk {
                // The chunk is read (small: `LITE`), and what follows it.
                let (_, decode) = variant_read(cont, v, &quote!(#core::Decode), &quote!(decode));
                quote! {
                    let __chunk = (|| -> #core::Result<#ty> { #decode })().map_err(|#e| #err)?;
                    let mut __whole = Self::#variant(__chunk);
                    <Self as #core::chunk_list::ChunkList>::read_after(&mut __whole, #r)
                }
            } else {
                let skip = match &v.dispatch {
                    Dispatch::Inner => quote!(#p::skip_inner_chunk::<#ty>(#r, #tag_var)),
                    _ => quote!(#p::skip_chunk(#r, #tag_var)),
                };
                quote! {
                    if <#ty as #core::View>::SETS_CONTEXT {
                        (|| -> #core::Result<_> { #view })().map(|_| ()).map_err(|#e| #err)
                    } else {
                        #skip
                    }
                }
            };
            quote! {
                if #tag_var == #tag #cond {
                    return { #step };
                }
            }
        });
    let fallback = unknown_or(cont, variants, |v| {
        let ty = v.ty;
        quote!(#p::skip_inner_chunk::<#ty>(#r, #tag_var))
    });
    let peek = peek_tag(cont);
    quote! {
        #attrs
        impl #ig #core::view::ChunkWalk for #ident #tg #wc {
            fn skip(#r: &mut #core::Reader<'_>) -> #core::Result<()> {
                #ctx
                #peek
                #(#arms)*
                #fallback
            }
        }
    }
}

fn cond_enum_view(cont: &Container, variants: &[CondVariant]) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let view = view_ident(cont);
    let (r, args) = (names::reader(), names::args());
    let (_, view_args) = view_generics(cont);
    let list: Vec<_> = variants
        .iter()
        .map(|v| (v.ident, v.ty, v.doc.as_str()))
        .collect();
    let (decl, from) = enum_decl(cont, &list);
    let ctx = context_bindings(&r);
    let name = cont.ident.to_string();
    let reader = names::expr::reader();
    let arms = variants.iter().map(|v| {
        let (ident, ty, when) = (v.ident, v.ty, &v.when);
        let a = args_value(v.args.as_ref());
        let when = match v.read_only {
            true => quote! {{
                #[allow(unused_variables)]
                let #reader: &#core::Reader<'_> = &*#r;
                #when
            }},
            false => quote!(#when),
        };
        quote! {
            if #when {
                return <#ty as #core::View>::view(#r, #a).map(#view::#ident);
            }
        }
    });
    let whens = variants.iter().map(|v| crate::common::expr_text(&v.when));
    let bind = bind_args(cont);
    let run = list_run(cont);
    let imp = view_impl(
        cont,
        quote! {
            type View<'a> = #view #view_args;

            fn view<'a>(#r: &mut #core::Reader<'a>, #args: Self::Args) -> #core::Result<Self::View<'a>> {
                #bind
                #ctx
                #(#arms)*
                ::core::result::Result::Err(#p::no_variant(#r.pos(), #name, &[#(#whens),*]))
            }

            #from
            #run
        },
    );
    quote! {
        #decl
        #imp
    }
}
