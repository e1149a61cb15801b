//! The smaller impls: `Plain` (with its padding check), `HasTag`, `Tagged`,
//! the `tag()` of a tag-dispatched enum, and the number conversions of an
//! enum of values.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Member, Type};

use crate::common::{impl_attrs, split_generics, tag_expr};
use crate::de::discriminant_consts;
use crate::model::{Container, Dispatch, Field, ListRole, TagVariant, ValueVariant};
use crate::names;

/// `Plain` for a `#[format(plain)]` struct: each field, a `Plain` type, read
/// and written at its offset, the sum of the sizes before it (as a record's,
/// [`record`]); no `unsafe`. `#[repr(C)]` (checked by the model) and no
/// padding (the size assertion below) make those offsets the fields' places
/// in memory, so the encoding is the memory image. Plain structs cannot be
/// generic.
pub fn plain(cont: &Container, fields: &[(Member, &Type, String)]) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let attrs = impl_attrs();
    let tys = fields.iter().map(|(_, ty, _)| ty);
    let (bytes, out) = (names::record_bytes(), names::record_out());
    let mut offset = quote!(0usize);
    let (mut reads, mut writes, mut zeros) = (Vec::new(), Vec::new(), Vec::new());
    for (member, ty, _) in fields {
        // Spanned at the field's type: one that is not plain is reported there.
        let span = syn::spanned::Spanned::span(ty);
        let plain = quote::quote_spanned!(span=> #core::Plain);
        reads.push(quote! {
            #member: <#ty as #plain>::read_le(#core::records::from(#bytes, #offset))?
        });
        writes.push(quote! {
            <#ty as #plain>::write_le(&self.#member, #core::records::from_mut(#out, #offset)?)?;
        });
        zeros.push(quote!(#member: <#ty as #plain>::zeroed()));
        offset = quote!(#offset + ::core::mem::size_of::<#ty>());
    }
    let message = format!(
        "`{ident}` has padding between or after its fields, so it cannot be plain data; \
         reorder the fields or add explicit padding fields"
    );
    quote! {
        const _: () = ::core::assert!(
            ::core::mem::size_of::<#ident>() == 0 #(+ ::core::mem::size_of::<#tys>())*,
            #message,
        );
        #attrs
        impl #core::Plain for #ident {
            #[inline(always)]
            fn read_le(#bytes: &[u8]) -> ::core::option::Option<Self> {
                let #bytes = #bytes.get(..::core::mem::size_of::<Self>())?;
                ::core::option::Option::Some(Self { #(#reads,)* })
            }

            #[inline(always)]
            fn write_le(&self, #out: &mut [u8]) -> ::core::option::Option<()> {
                let #out = #out.get_mut(..::core::mem::size_of::<Self>())?;
                #(#writes)*
                ::core::option::Option::Some(())
            }

            #[inline(always)]
            fn zeroed() -> Self {
                Self { #(#zeros,)* }
            }
        }
    }
}

/// `HasTag` for a container that starts with a fixed tag.
pub fn has_tag(cont: &Container) -> TokenStream {
    let Some(tag) = cont.leading_tag() else {
        return TokenStream::new();
    };
    let core = cont.rt.core();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &quote!(::core::marker::Sized));
    let tag = tag_expr(cont, &tag);
    let attrs = impl_attrs();
    quote! {
        #attrs
        impl #ig #core::HasTag for #ident #tg #wc {
            const TAG: #core::FourCC = #tag;
        }
    }
}

/// `Tagged` for a tag-dispatched enum (which peeked tags it reads), and its
/// `tag()`: the tag of the variant a value holds.
pub fn tagged(cont: &Container, variants: &[TagVariant]) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &quote!(::core::marker::Sized));
    let attrs = impl_attrs();
    let tag_var = names::tag();
    let tags = variants.iter().filter_map(|v| match &v.dispatch {
        Dispatch::Tag(t) | Dispatch::Chunk(t) => Some(tag_expr(cont, t)),
        Dispatch::Inner => {
            let ty = v.ty;
            Some(quote!(<#ty as #core::HasTag>::TAG))
        }
        Dispatch::Unknown | Dispatch::NotRead => None,
    });
    let checks = variants.iter().map(|v| {
        let cond = v.cond.as_ref().map(|c| quote!(&& (#c)));
        match &v.dispatch {
            Dispatch::Tag(t) | Dispatch::Chunk(t) => {
                let tag = tag_expr(cont, t);
                quote!((#tag_var == #tag #cond))
            }
            Dispatch::Inner => {
                let ty = v.ty;
                quote!((#tag_var == <#ty as #core::HasTag>::TAG #cond))
            }
            Dispatch::Unknown => quote!(true),
            // Never read: no tag makes the reader pick it.
            Dispatch::NotRead => quote!(false),
        }
    });
    let v = names::value();
    let arms = variants.iter().map(|variant| {
        let (ident, ty) = (variant.ident, variant.ty);
        let tag = match &variant.dispatch {
            Dispatch::Tag(t) | Dispatch::Chunk(t) => tag_expr(cont, t),
            Dispatch::Inner => quote!(<#ty as #core::HasTag>::TAG),
            Dispatch::Unknown | Dispatch::NotRead => quote!(<#ty as #core::ChunkTag>::tag(#v)),
        };
        quote!(Self::#ident(#v) => #tag,)
    });
    let doc = format!(
        "The tag of the variant this `{ident}` holds, in spec order (an unknown or hand-built chunk's own tag)."
    );
    // A framed enum has `HasTag`, and with it `ChunkTag`.
    let chunk_tag = cont.leading_tag().is_none().then(|| {
        quote! {
            #attrs
            impl #ig #core::ChunkTag for #ident #tg #wc {
                fn tag(&self) -> #core::FourCC {
                    #ident::tag(self)
                }
            }
        }
    });
    let ctx = names::ctx();
    let (version, flags) = (names::expr::version(), names::expr::format_flags());
    quote! {
        #attrs
        impl #ig #core::Tagged for #ident #tg #wc {
            const TAGS: &'static [#core::FourCC] = &[#(#tags),*];

            fn accepts(#tag_var: #core::FourCC, #ctx: &#core::Context) -> bool {
                let #version = #ctx.version;
                let #flags = #ctx.flags;
                false #(|| #checks)*
            }
        }

        #attrs
        impl #ig #ident #tg #wc {
            #[doc = #doc]
            pub fn tag(&self) -> #core::FourCC {
                match self {
                    #(#arms)*
                }
            }
        }

        #chunk_tag
    }
}

/// For an enum of values: `From<Enum> for repr` (the number written; an
/// `unknown` fallback gives the number it holds) and, with a fallback, the
/// total `From<repr> for Enum` (the number read: a named one as its variant,
/// any other in the fallback).
pub fn values(cont: &Container, repr: &syn::Ident, variants: &[ValueVariant]) -> TokenStream {
    let ident = cont.ident;
    let attrs = impl_attrs();
    let consts = discriminant_consts(repr, variants);
    let named = || variants.iter().enumerate().filter(|(_, v)| !v.unknown);
    let (value, number, other) = (names::value(), names::number(), names::other());
    let to_number = variants.iter().enumerate().map(|(i, v)| {
        let variant = v.ident;
        if v.unknown {
            quote!(#ident::#variant(#value) => #value,)
        } else {
            let d = names::discriminant(i);
            quote!(#ident::#variant => #d,)
        }
    });
    let from_number = variants.iter().find(|v| v.unknown).map(|fallback| {
        let fallback = fallback.ident;
        let arms = named().map(|(i, v)| {
            let variant = v.ident;
            let d = names::discriminant(i);
            quote!(#d => #ident::#variant,)
        });
        quote! {
            #attrs
            impl ::core::convert::From<#repr> for #ident {
                fn from(#number: #repr) -> Self {
                    #consts
                    match #number {
                        #(#arms)*
                        #other => #ident::#fallback(#other),
                    }
                }
            }
        }
    });
    quote! {
        #attrs
        impl ::core::convert::From<#ident> for #repr {
            fn from(#number: #ident) -> Self {
                #consts
                match #number {
                    #(#to_number)*
                }
            }
        }
        #from_number
    }
}

/// `Record` for a `#[format(record)]` struct: its fields, each a `Record`,
/// one after another; its size their sum.
pub fn record(cont: &Container, fields: &[Field]) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let attrs = impl_attrs();
    let (ig, tg, wc) = split_generics(cont, &quote!(#core::Record));
    let record = quote!(#core::Record);
    let (bytes, out) = (names::record_bytes(), names::record_out());
    let mut offset = quote!(0usize);
    let mut reads = Vec::new();
    let mut writes = Vec::new();
    let mut sizes = Vec::new();
    for f in fields {
        let (member, ty) = (&f.member, f.ty);
        // Spanned at the field's type: one that is no record is reported there.
        let span = syn::spanned::Spanned::span(ty);
        let record = quote::quote_spanned!(span=> #core::Record);
        reads.push(quote! {
            #member: <#ty as #record>::read_record(#core::records::from(#bytes, #offset))
        });
        writes.push(quote! {
            <#ty as #record>::write_record(&self.#member, #core::records::from_mut(#out, #offset)?)?;
        });
        sizes.push(quote!(<#ty as #record>::SIZE));
        offset = quote!(#offset + <#ty as #record>::SIZE);
    }
    quote! {
        #attrs
        impl #ig #record for #ident #tg #wc {
            const SIZE: usize = 0 #(+ #sizes)*;

            #[inline(always)]
            fn read_record(#bytes: &[u8]) -> Self {
                Self { #(#reads,)* }
            }

            #[inline(always)]
            fn write_record(&self, #out: &mut [u8]) -> ::core::option::Option<()> {
                #(#writes)*
                ::core::option::Option::Some(())
            }
        }
    }
}

/// `ChunkList` for a `#[format(chunk_list)]` enum: its `unknown`, `cut` and
/// `undecoded` variants, and the `after_chunk` hooks.
pub fn chunk_list(cont: &Container, variants: &[TagVariant]) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let attrs = impl_attrs();
    let (ig, tg, wc) = split_generics(
        cont,
        &quote!(#core::Decode<Args = ()> + #core::Encode<Args = ()>),
    );
    let (value, io) = (names::value(), names::list_io());
    let find = |pred: &dyn Fn(&TagVariant) -> bool| variants.iter().find(|v| pred(v));
    let (Some(unknown), Some(cut)) = (
        find(&|v| matches!(v.dispatch, Dispatch::Unknown)),
        find(&|v| v.role == Some(ListRole::Cut)),
    ) else {
        // Reported by the checks.
        return TokenStream::new();
    };
    let undecoded = find(&|v| v.role == Some(ListRole::Undecoded));
    let (unknown_id, cut_id) = (unknown.ident, cut.ident);
    let variant_name = |v: &TagVariant| format!("{ident}::{}", v.ident);
    let cut_name = variant_name(cut);
    let undecoded_name = variant_name(undecoded.unwrap_or(unknown));
    let from_undecoded = match undecoded {
        Some(v) => {
            let id = v.ident;
            quote!(Self::#id(#value))
        }
        None => quote! {
            Self::#unknown_id(#core::UnknownChunk { tag: #value.tag, bytes: #value.bytes })
        },
    };
    let after: Vec<_> = variants.iter().filter(|v| v.after_chunk).collect();
    let hooks = (!after.is_empty()).then(|| {
        // Spanned at the variant's type: one without the hook is reported there.
        let hook = |ty: &Type| {
            let span = syn::spanned::Spanned::span(ty);
            quote::quote_spanned!(span=> #core::AfterChunk)
        };
        let read = after.iter().map(|v| {
            let (id, ty) = (v.ident, v.ty);
            let hook = hook(ty);
            quote!(Self::#id(#value) => <#ty as #hook>::read_after(#value, #io),)
        });
        let write = after.iter().map(|v| {
            let (id, ty) = (v.ident, v.ty);
            let hook = hook(ty);
            quote!(Self::#id(#value) => <#ty as #hook>::write_after(#value, #io),)
        });
        quote! {
            fn read_after(&mut self, #io: &mut #core::Reader<'_>) -> #core::Result<()> {
                match self {
                    #(#read)*
                    _ => ::core::result::Result::Ok(()),
                }
            }

            fn write_after(&self, #io: &mut #core::Writer) -> #core::Result<()> {
                match self {
                    #(#write)*
                    _ => ::core::result::Result::Ok(()),
                }
            }
        }
    });
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    let parent = cont.list_parent;
    quote! {
        #attrs
        impl #ig #core::chunk_list::UnknownSlot for #ident #tg #wc {
            fn as_unknown(&self) -> ::core::option::Option<&#core::UnknownChunk> {
                match self {
                    Self::#unknown_id(#value) => #some(#value),
                    _ => #none,
                }
            }

            fn as_unknown_mut(&mut self) -> ::core::option::Option<&mut #core::UnknownChunk> {
                match self {
                    Self::#unknown_id(#value) => #some(#value),
                    _ => #none,
                }
            }

            fn from_unknown(#value: #core::UnknownChunk) -> Self {
                Self::#unknown_id(#value)
            }
        }

        impl #ig #core::chunk_list::ChunkList for #ident #tg #wc {
            const CUT: &'static str = #cut_name;
            const UNDECODED: &'static str = #undecoded_name;
            const PARENT: bool = #parent;

            fn as_cut(&self) -> ::core::option::Option<&#core::CutChunk> {
                match self {
                    Self::#cut_id(#value) => #some(#value),
                    _ => #none,
                }
            }

            fn from_cut(#value: #core::CutChunk) -> Self {
                Self::#cut_id(#value)
            }

            fn from_undecoded(#value: #core::UndecodedChunk) -> Self {
                #from_undecoded
            }

            #hooks
        }
    }
}
