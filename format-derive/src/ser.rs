//! Generates `impl Encode`, the mirror of `de`: same field order, counts and
//! sizes derived from the data, presence checked against the context.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::common::{
    args_type, args_value, bind_args, bind_local, core, expr_text, impl_attrs, private,
    split_generics, tag_expr,
};
use crate::de::{discriminant_consts, discriminant_name};
use crate::model::{
    Body, Container, DataField, Dispatch, Field, FieldKind, Len, TagVariant, ValueSpec,
    ValueVariant,
};

pub fn expand(cont: &Container) -> TokenStream {
    let core = core();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &quote!(#core::Encode<Args = ()>));
    let args_ty = args_type(cont);
    let bind = bind_args(cont);
    let attrs = impl_attrs();
    let body = match &cont.body {
        Body::Struct(fields) => struct_body(fields),
        Body::TagEnum(variants) => tag_enum_body(variants),
        Body::ValueEnum { repr, variants } => value_enum_body(repr, variants),
        Body::Plain(_) => return TokenStream::new(),
    };
    let body = framed(cont, body);
    quote! {
        #attrs
        impl #ig #core::Encode for #ident #tg #wc {
            type Args = #args_ty;

            fn encode(
                &self,
                __w: &mut #core::Writer,
                __args: Self::Args,
            ) -> #core::Result<()> {
                #bind
                #body
            }
        }
    }
}

fn framed(cont: &Container, body: TokenStream) -> TokenStream {
    let mut body = body;
    if cont.inclusive {
        body = quote!(__w.inclusive(|__w| { #body }));
    }
    if let Some(chunk) = &cont.chunk {
        let tag = tag_expr(chunk);
        body = quote!(__w.chunk(#tag, |__w| { #body }).map_err(|__e| __e.in_tag(#tag)));
    }
    if let Some(magic) = &cont.magic {
        let tag = tag_expr(magic);
        body = quote! {
            __w.tag(#tag);
            #body
        };
    }
    body
}

fn context_bindings() -> TokenStream {
    quote! {
        #[allow(unused_variables)]
        let version = __w.ctx().version;
        #[allow(unused_variables)]
        let format_flags = __w.ctx().flags;
    }
}

/// Binds a stored field for the expressions after it (see `common::bind_local`).
fn bind_field(f: &Field) -> Option<TokenStream> {
    let member = &f.member;
    match &f.kind {
        FieldKind::Data(_) => Some(bind_local(&f.local, &quote!(self.#member), f.ty)),
        FieldKind::Skip | FieldKind::Calc { .. } => None,
    }
}

fn struct_body(fields: &[Field]) -> TokenStream {
    let core = core();
    let p = private();
    let ctx = context_bindings();
    // Computed values are worked out first, each seeing every stored field
    // (`calc = keys.len()` looks ahead), in a scope of its own.
    let all_fields: Vec<TokenStream> = fields.iter().filter_map(bind_field).collect();
    let calcs = fields.iter().filter_map(|f| {
        let FieldKind::Calc { expr, disk_ty } = &f.kind else {
            return None;
        };
        let hidden = format_ident!("__calc_{}", f.local);
        let name = &f.name;
        Some(quote! {
            let #hidden: #disk_ty = {
                #(#all_fields)*
                <#disk_ty as ::core::convert::TryFrom<_>>::try_from(#expr)
                    .map_err(|_| #p::calc_overflow(__w, #name))?
            };
        })
    });
    // Then fields are written in order; each becomes visible to the expressions
    // of the fields after it, exactly as while reading.
    let writes = fields.iter().map(|f| {
        let name = &f.name;
        let local = &f.local;
        let member = &f.member;
        match &f.kind {
            FieldKind::Skip => quote!(),
            FieldKind::Calc { disk_ty, .. } => {
                let hidden = format_ident!("__calc_{}", f.local);
                quote! {
                    let #local: #disk_ty = #hidden;
                    <#disk_ty as #core::Encode>::encode(&#local, __w, ())
                        .map_err(|__e| __e.in_field(#name))?;
                }
            }
            FieldKind::Data(d) => {
                let write = data_write(d, name, &quote!(&self.#member));
                let bind = bind_field(f);
                let sets_version = d.sets_version.then(|| {
                    quote! {
                        __w.ctx_mut().version = ::core::convert::Into::<u32>::into(
                            ::core::clone::Clone::clone(&self.#member),
                        );
                        #ctx
                    }
                });
                quote! {
                    (|__w: &mut #core::Writer| -> #core::Result<()> { #write })(__w)
                        .map_err(|__e| __e.in_field(#name))?;
                    #bind
                    #sets_version
                }
            }
        }
    });
    quote! {
        #ctx
        #(#calcs)*
        #(#writes)*
        ::core::result::Result::Ok(())
    }
}

/// Statements of type `Result<()>` writing one data field from `value` (a reference).
fn data_write(d: &DataField, name: &str, value: &TokenStream) -> TokenStream {
    let p = private();
    let inner = |v: TokenStream| {
        let tag = d.tag.as_ref().map(|t| {
            let tag = tag_expr(t);
            quote!(__w.tag(#tag);)
        });
        let write = value_write(d, name, &v);
        quote!({ #tag #write })
    };
    match (&d.cond, d.optional) {
        (None, false) => inner(value.clone()),
        (None, true) => {
            let write = inner(quote!(__v));
            quote! {
                match #value {
                    ::core::option::Option::Some(__v) => #write,
                    ::core::option::Option::None => ::core::result::Result::Ok(()),
                }
            }
        }
        (Some(cond), optional) => {
            let write = inner(quote!(__v));
            let cond_text = expr_text(cond);
            let absent_ok = if optional {
                quote!(::core::result::Result::Ok(()))
            } else {
                quote!(::core::result::Result::Err(#p::gate_mismatch(__w, #name, #cond_text, false)))
            };
            quote! {
                match (#value, #cond) {
                    (::core::option::Option::Some(__v), true) => #write,
                    (::core::option::Option::None, false) => ::core::result::Result::Ok(()),
                    (::core::option::Option::Some(_), false) => {
                        ::core::result::Result::Err(#p::gate_mismatch(__w, #name, #cond_text, true))
                    }
                    (::core::option::Option::None, true) => #absent_ok,
                }
            }
        }
    }
}

fn value_write(d: &DataField, name: &str, v: &TokenStream) -> TokenStream {
    let core = core();
    let p = private();
    let args = args_value(d.args.as_ref());
    let ty = d.value_ty;
    match &d.value {
        ValueSpec::Single => quote!(<#ty as #core::Encode>::encode(#v, __w, #args)),
        ValueSpec::Custom { write, .. } => {
            let extra = d.args.iter().flatten();
            quote!((#write)(#v, __w #(, #extra)*))
        }
        ValueSpec::Vec { elem, len, .. } => match len {
            Len::Prefix(c) => quote!(#p::encode_prefixed::<#c, #elem>(__w, #v, #args, #name)),
            Len::Expr(e) => quote! {{
                let __n = #p::count_value(#e, __w.pos())?;
                #p::check_len(__w, #name, (#v).len(), __n)?;
                <#elem as #core::Encode>::encode_many(#v, __w, #args)
            }},
            Len::Stride(n) => quote!(#p::encode_stride::<#elem>(__w, #v, #n, #args, #name)),
            Len::UntilEnd | Len::Tagged => {
                quote!(<#elem as #core::Encode>::encode_many(#v, __w, #args))
            }
        },
    }
}

fn tag_enum_body(variants: &[TagVariant]) -> TokenStream {
    let core = core();
    let p = private();
    let ctx = context_bindings();
    let arms = variants.iter().map(|v| {
        let ident = v.ident;
        let ty = v.ty;
        let args = args_value(v.args.as_ref());
        let name = ident.to_string();
        let gate = v.cond.as_ref().map(|c| {
            let text = expr_text(c);
            quote! {
                if !(#c) {
                    return ::core::result::Result::Err(#p::variant_gate(__w, #name, #text));
                }
            }
        });
        let write = match &v.dispatch {
            Dispatch::Tag(t) => {
                let tag = tag_expr(t);
                quote! {
                    __w.tag(#tag);
                    <#ty as #core::Encode>::encode(__v, __w, #args).map_err(|__e| __e.in_tag(#tag))
                }
            }
            Dispatch::Chunk(t) => {
                let tag = tag_expr(t);
                quote! {
                    __w.chunk(#tag, |__w| <#ty as #core::Encode>::encode(__v, __w, #args))
                        .map_err(|__e| __e.in_tag(#tag))
                }
            }
            // The type writes its own tag and names it in its errors.
            Dispatch::Inner => quote!(<#ty as #core::Encode>::encode(__v, __w, #args)),
            Dispatch::Unknown => quote!(<#ty as #core::Encode>::encode(__v, __w, #args)),
        };
        quote! {
            Self::#ident(__v) => {
                #gate
                #write
            }
        }
    });
    quote! {
        #ctx
        match self {
            #(#arms)*
        }
    }
}

fn value_enum_body(repr: &syn::Ident, variants: &[ValueVariant]) -> TokenStream {
    let core = core();
    let p = private();
    let consts = discriminant_consts(repr, variants);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let ident = v.ident;
        if v.unknown {
            let name = ident.to_string();
            let checks = variants.iter().enumerate().filter(|(_, k)| !k.unknown).map(|(j, k)| {
                let d = discriminant_name(j);
                let known = k.ident.to_string();
                quote! {
                    if *__v == #d {
                        return ::core::result::Result::Err(#p::unknown_holds_known(__w, #name, #known));
                    }
                }
            });
            quote!(Self::#ident(__v) => { #(#checks)* *__v })
        } else {
            let d = discriminant_name(i);
            quote!(Self::#ident => #d,)
        }
    });
    quote! {
        #consts
        let __value: #repr = match self {
            #(#arms)*
        };
        <#repr as #core::Encode>::encode(&__value, __w, ())
    }
}
