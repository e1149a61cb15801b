//! Generates `impl Decode`: small code that calls `format_core` helpers.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::common::{
    args_type, args_value, bind_args, bind_local, core, impl_attrs, min_size, private,
    split_generics, tag_expr,
};
use crate::model::{
    Body, Container, DataField, Dispatch, Field, FieldKind, Len, TagVariant, ValueSpec,
    ValueVariant,
};

pub fn expand(cont: &Container) -> TokenStream {
    let core = core();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &quote!(#core::Decode<Args = ()>));
    let args_ty = args_type(cont);
    let bind = bind_args(cont);
    let min = min_size(cont);
    let attrs = impl_attrs();
    let body = match &cont.body {
        Body::Struct(fields) => struct_body(fields),
        Body::TagEnum(variants) => tag_enum_body(variants),
        Body::ValueEnum { repr, variants } => value_enum_body(cont, repr, variants),
        // Plain structs get `Decode` from the blanket impl over `Plain`.
        Body::Plain(_) => return TokenStream::new(),
    };
    let body = framed(cont, body);
    quote! {
        #attrs
        impl #ig #core::Decode for #ident #tg #wc {
            type Args = #args_ty;
            const MIN_SIZE: usize = #min;

            fn decode(
                __r: &mut #core::Reader<'_>,
                __args: Self::Args,
            ) -> #core::Result<Self> {
                #bind
                #body
            }
        }
    }
}

/// Wraps the body in the container's magic, chunk header and inclusive size.
fn framed(cont: &Container, body: TokenStream) -> TokenStream {
    let mut body = body;
    if cont.inclusive {
        body = quote!(__r.inclusive(|__r| { #body }));
    }
    if let Some(chunk) = &cont.chunk {
        let tag = tag_expr(chunk);
        body = quote! {
            __r.expect_tag(#tag)?;
            __r.chunk(|__r| { #body }).map_err(|__e| __e.in_tag(#tag))
        };
    }
    if let Some(magic) = &cont.magic {
        let tag = tag_expr(magic);
        body = quote! {
            __r.expect_tag(#tag)?;
            #body
        };
    }
    body
}

fn context_bindings() -> TokenStream {
    quote! {
        #[allow(unused_variables)]
        let version = __r.ctx().version;
        #[allow(unused_variables)]
        let format_flags = __r.ctx().flags;
    }
}

fn struct_body(fields: &[Field]) -> TokenStream {
    let core = core();
    let ctx = context_bindings();
    let reads = fields.iter().map(|f| {
        let name = &f.name;
        let local = &f.local;
        let stored = format_ident!("__v_{}", local);
        let ty = f.ty;
        match &f.kind {
            FieldKind::Skip => quote! {
                let #stored: #ty = ::core::default::Default::default();
            },
            FieldKind::Calc { disk_ty, .. } => quote! {
                let #local: #disk_ty = <#disk_ty as #core::Decode>::decode(__r, ())
                    .map_err(|__e| __e.in_field(#name))?;
                let #stored: #ty = #core::Derived::new();
            },
            FieldKind::Data(d) => {
                let read = data_read(d);
                let bind = bind_local(local, &quote!(#stored), ty);
                let sets_version = d.sets_version.then(|| {
                    quote! {
                        __r.ctx_mut().version = ::core::convert::Into::<u32>::into(
                            ::core::clone::Clone::clone(&#stored),
                        );
                        #ctx
                    }
                });
                quote! {
                    let #stored: #ty = (|__r: &mut #core::Reader<'_>| -> #core::Result<#ty> {
                        #read
                    })(__r)
                    .map_err(|__e| __e.in_field(#name))?;
                    #bind
                    #sets_version
                }
            }
        }
    });
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let stored = format_ident!("__v_{}", f.local);
        quote!(#member: #stored)
    });
    quote! {
        #ctx
        #(#reads)*
        ::core::result::Result::Ok(Self { #(#inits,)* })
    }
}

/// An expression of type `Result<field type>` reading one data field.
fn data_read(d: &DataField) -> TokenStream {
    let p = private();
    let tag_read = d.tag.as_ref().map(|t| {
        let tag = tag_expr(t);
        quote!(__r.expect_tag(#tag)?;)
    });
    let value = value_read(d);
    let inner = quote!({ #tag_read #value });
    let present = match (&d.cond, d.optional, &d.tag) {
        (None, false, _) => return inner,
        (Some(cond), false, _) => quote!((#cond)),
        (None, true, Some(t)) => {
            let tag = tag_expr(t);
            quote!(#p::peek_is(__r, #tag))
        }
        (Some(cond), true, Some(t)) => {
            let tag = tag_expr(t);
            quote!((#cond) && #p::peek_is(__r, #tag))
        }
        // Rejected by the model (optional needs a tag).
        (_, true, None) => quote!(false),
    };
    quote! {
        if #present {
            #inner.map(::core::option::Option::Some)
        } else {
            ::core::result::Result::Ok(::core::option::Option::None)
        }
    }
}

fn value_read(d: &DataField) -> TokenStream {
    let core = core();
    let p = private();
    let args = args_value(d.args.as_ref());
    let ty = d.value_ty;
    match &d.value {
        ValueSpec::Single => quote!(<#ty as #core::Decode>::decode(__r, #args)),
        ValueSpec::Custom { read, .. } => {
            let extra = d.args.iter().flatten();
            quote!((#read)(__r #(, #extra)*))
        }
        ValueSpec::Vec { elem, len, .. } => match len {
            Len::Prefix(c) => quote! {{
                let __n = <#c as #p::CountPrefix>::read(__r)?;
                #p::decode_vec::<#elem>(__r, __n, #args)
            }},
            Len::Expr(e) => quote! {{
                let __n = #p::count_value(#e, __r.pos())?;
                #p::decode_vec::<#elem>(__r, __n, #args)
            }},
            Len::Stride(n) => quote!(#p::decode_stride::<#elem>(__r, #n, #args)),
            Len::UntilEnd => quote!(#p::decode_until_end::<#elem>(__r, #args)),
            Len::Tagged => quote!(#p::decode_tagged::<#elem>(__r, #args)),
        },
    }
}

fn tag_enum_body(variants: &[TagVariant]) -> TokenStream {
    let core = core();
    let p = private();
    let ctx = context_bindings();
    let arms = variants
        .iter()
        .filter(|v| !matches!(v.dispatch, Dispatch::Unknown))
        .map(|v| {
            let ident = v.ident;
            let ty = v.ty;
            let args = args_value(v.args.as_ref());
            let cond = v.cond.as_ref().map(|c| quote!(&& (#c)));
            let (tag, read) = match &v.dispatch {
                Dispatch::Tag(t) => (
                    tag_expr(t),
                    quote! {
                        __r.skip(4)?;
                        <#ty as #core::Decode>::decode(__r, #args)
                    },
                ),
                Dispatch::Chunk(t) => (
                    tag_expr(t),
                    quote! {
                        __r.skip(4)?;
                        __r.chunk(|__r| <#ty as #core::Decode>::decode(__r, #args))
                    },
                ),
                _ => (
                    quote!(<#ty as #core::HasTag>::TAG),
                    quote!(<#ty as #core::Decode>::decode(__r, #args)),
                ),
            };
            // A type with its own tag (`Dispatch::Inner`) names it in its errors itself.
            let in_tag = match &v.dispatch {
                Dispatch::Inner => None,
                _ => Some(quote!(.map_err(|__e| __e.in_tag(__tag)))),
            };
            quote! {
                if __tag == #tag #cond {
                    return (|| -> #core::Result<Self> {
                        #read.map(Self::#ident)
                    })()
                    #in_tag;
                }
            }
        });
    let fallback = match variants
        .iter()
        .find(|v| matches!(v.dispatch, Dispatch::Unknown))
    {
        Some(v) => {
            let ident = v.ident;
            let ty = v.ty;
            let args = args_value(v.args.as_ref());
            quote!(<#ty as #core::Decode>::decode(__r, #args).map(Self::#ident))
        }
        None => quote! {
            ::core::result::Result::Err(#p::wrong_tag(__r.pos(), <Self as #core::Tagged>::TAGS, __tag))
        },
    };
    quote! {
        #ctx
        let __tag = match __r.peek_tag() {
            ::core::option::Option::Some(__t) => __t,
            ::core::option::Option::None => return ::core::result::Result::Err(#p::missing_tag(__r)),
        };
        #(#arms)*
        #fallback
    }
}

/// The constant holding the on-disk value of the `index`-th variant.
pub fn discriminant_name(index: usize) -> syn::Ident {
    format_ident!("__D{}", index)
}

/// `const __D<i>: repr = ...;` for each unit variant, following Rust's rule for
/// implicit discriminants (previous + 1, starting at 0).
pub fn discriminant_consts(repr: &syn::Ident, variants: &[ValueVariant]) -> TokenStream {
    let mut prev: Option<syn::Ident> = None;
    let consts = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.unknown)
        .map(|(i, v)| {
            let name = discriminant_name(i);
            let value = match (v.discriminant, &prev) {
                (Some(e), _) => quote!(#e),
                (None, Some(p)) => quote!(#p + 1),
                (None, None) => quote!(0),
            };
            prev = Some(name.clone());
            quote!(const #name: #repr = #value;)
        });
    quote!(#(#consts)*)
}

fn value_enum_body(cont: &Container, repr: &syn::Ident, variants: &[ValueVariant]) -> TokenStream {
    let core = core();
    let p = private();
    let consts = discriminant_consts(repr, variants);
    let name = cont.ident.to_string();
    let arms = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.unknown)
        .map(|(i, v)| {
            let ident = v.ident;
            let d = discriminant_name(i);
            quote!(#d => Self::#ident,)
        });
    let fallback = match variants.iter().find(|v| v.unknown) {
        Some(v) => {
            let ident = v.ident;
            quote!(__other => Self::#ident(__other),)
        }
        None => quote! {
            __other => return ::core::result::Result::Err(#p::unknown_value(__offset, #name, __other)),
        },
    };
    quote! {
        #consts
        let __offset = __r.pos();
        let __value = <#repr as #core::Decode>::decode(__r, ())?;
        ::core::result::Result::Ok(match __value {
            #(#arms)*
            #fallback
        })
    }
}
