//! The code `#[derive(Mdl)]` generates: `mdl::Block` for a struct (its
//! reader and writer), `mdl::Words` for a value enum.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::model::{Block, Body, Container, Field, Kind};
use crate::common::impl_attrs;

pub fn expand(cont: &Container) -> TokenStream {
    match &cont.body {
        Body::Block(block) => block_impl(cont, block),
        Body::Words(words) => words_impl(cont, words),
    }
}

fn words_impl(cont: &Container, words: &[(&syn::Ident, syn::LitStr)]) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let attrs = impl_attrs();
    let pairs = words.iter().map(|(v, w)| quote!((#ident::#v, #w)));
    let fallback = words.first().map(|(_, w)| w);
    quote! {
        #attrs
        impl #impl_generics #core::mdl::Words for #ident #ty_generics #where_clause {
            const WORDS: &'static [(Self, &'static str)] = &[#(#pairs),*];
            const FALLBACK: &'static str = #fallback;
            fn from_number(n: u32) -> Self {
                <Self as ::core::convert::From<u32>>::from(n)
            }
            fn to_number(self) -> u32 {
                <u32 as ::core::convert::From<Self>>::from(self)
            }
        }
    }
}

/// The local holding field `f` while the block is read.
fn local(f: &Field) -> syn::Ident {
    format_ident!("__mdl_{}", f.ident)
}

/// Whether `f` is the block's name (`name = f`).
fn is_name(block: &Block, f: &Field) -> bool {
    matches!(block.name.as_deref(), Some([only]) if *only == *f.ident)
}

fn block_impl(cont: &Container, block: &Block) -> TokenStream {
    let core = cont.rt.core();
    let mdl = quote!(#core::mdl);
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let attrs = impl_attrs();
    let keyword = &block.keyword;
    let part = block
        .fields
        .iter()
        .find(|f| matches!(f.kind, Kind::Part { .. }));

    // ---- reading ----
    let mut decls = Vec::new();
    let mut track_reads = Vec::new();
    let mut arms = Vec::new();
    let mut word_reads = Vec::new();
    let mut finals = Vec::new();
    let mut counts = Vec::new();
    // The field that is the whole block (`values`), and what its values are.
    let mut values: Option<(syn::Ident, String)> = None;
    let mut repeat_items = Vec::new();
    for f in &block.fields {
        let l = local(f);
        let ty = f.ty;
        let key = &f.key;
        let keys = std::iter::once(key).chain(&f.aliases);
        let pattern = quote!(#(#keys)|*);
        let value = |rgb: bool| {
            if rgb {
                quote!(__s.value::<#mdl::Rgb>(__cx)?.bgr())
            } else {
                quote!(__s.value(__cx)?)
            }
        };
        // Spanned at the field's type: a type without `Default` (and no
        // `default = ..`) is reported there.
        let default = |f: &Field| match &f.default {
            Some(e) => quote!(#e),
            None => {
                let span = syn::spanned::Spanned::span(f.ty);
                quote::quote_spanned!(span=> <#ty as ::core::default::Default>::default())
            }
        };
        if is_name(block, f) {
            finals.push(quote!(#l));
            continue;
        }
        match &f.kind {
            Kind::Value { .. } if f.required => {
                let v = value(false);
                let missing = format!("{} has no {}", block.keyword.value(), key);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arms.push(quote!(#pattern => #l = ::core::option::Option::Some(#v),));
                finals.push(quote!(match #l {
                    ::core::option::Option::Some(__v) => __v,
                    ::core::option::Option::None => {
                        return ::core::result::Result::Err(__cx.error(__stmt.pos, #missing));
                    }
                }));
            }
            Kind::Value { rgb, .. } => {
                let v = if f.none.is_empty() {
                    value(*rgb)
                } else {
                    let words = &f.none;
                    quote!(#mdl::id_or_none(__s, __cx, &[#(#words),*])?)
                };
                let d = default(f);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arms.push(quote!(#pattern => #l = ::core::option::Option::Some(#v),));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Optional { rgb, .. } => {
                let v = value(*rgb);
                decls.push(quote!(let mut #l: #ty = None;));
                arms.push(quote!(#pattern => #l = ::core::option::Option::Some(#v),));
                match &f.default {
                    Some(d) => finals.push(quote!(#l.or_else(|| Some(#d)))),
                    None => finals.push(quote!(#l)),
                }
            }
            Kind::Since { rgb, version, .. } => {
                let v = value(*rgb);
                let at = format_ident!("__mdl_at_{}", f.ident);
                // The default of the type inside the `Option`.
                let d = match &f.default {
                    Some(e) => quote!(#e),
                    None => quote!(::core::default::Default::default()),
                };
                decls.push(quote!(
                    let mut #l: #ty = None;
                    let mut #at: ::core::option::Option<(#mdl::Pos, &str)> = None;
                ));
                arms.push(quote!(#pattern => {
                    #l = ::core::option::Option::Some(#v);
                    #at = Some((__s.pos, __key));
                }));
                finals.push(quote!({
                    __cx.not_in_version(#at.map(|(pos, key)| (pos, key.into())), #version)?;
                    if __cx.version < #version { None } else { Some(#l.unwrap_or_else(|| #d)) }
                }));
            }
            Kind::List => {
                let what = key.to_lowercase();
                let d = default(f);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arms.push(quote!(#pattern => #l = ::core::option::Option::Some(#mdl::list(__s, __cx, #what)?),));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Tracks => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                track_reads.push(quote!(
                    if #mdl::read_into(__s, __cx, &mut #l)? { continue; }
                ));
                finals.push(quote!(#l));
            }
            Kind::TracksIn => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                arms.push(quote!(#pattern => {
                    let (_, __inner) = __s.block(__cx)?;
                    for __t in __inner {
                        if !#mdl::read_into(__t, __cx, &mut #l)? {
                            __cx.unknown(__t)?;
                        }
                    }
                }));
                finals.push(quote!(#l));
            }
            Kind::Word => {
                let d = default(f);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arms.push(quote!(#pattern => {
                    #l = ::core::option::Option::Some(<#ty as #mdl::Words>::from_number(__s.value::<u32>(__cx)?));
                }));
                word_reads.push(quote!(
                    if let Some(__w) = <#ty as #mdl::Words>::of_word(__key) {
                        __s.bare(__cx)?;
                        #l = ::core::option::Option::Some(__w);
                        continue;
                    }
                ));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Part { args } => {
                let args = args.as_ref().map_or_else(|| quote!(()), |a| quote!(#a));
                decls.push(quote!(
                    let mut #l = <#ty as #mdl::Part>::begin(__stmt, __cx, #args)?;
                ));
                finals.push(quote!(<#ty as #mdl::Part>::finish(#l, __cx)?));
            }
            Kind::Skip => {
                let d = default(f);
                finals.push(quote!(#d));
            }
            Kind::Flags { table } => {
                let d = default(f);
                let pairs = table.iter().map(|(w, v)| {
                    let w = w.to_string();
                    quote!((#v, #w))
                });
                decls.push(quote!(let mut #l: #ty = #d;));
                word_reads.push(quote!(
                    if #mdl::read_flag(__s, __cx, &mut #l, &[#(#pairs),*])? { continue; }
                ));
                finals.push(quote!(#l));
            }
            Kind::Each { what } => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                arms.push(quote!(#pattern => #l.push(__s.value(__cx)?),));
                counts.push(quote!(
                    if let ::core::option::Option::Some((__pos, __declared)) = __count {
                        __cx.count(__pos, #what, __declared, #l.len())?;
                    }
                ));
                repeat_items.push(quote!(#key));
                finals.push(quote!(#l));
            }
            Kind::Values { what } => {
                values = Some((l.clone(), what.clone()));
                finals.push(quote!(#l));
            }
            Kind::Items { what } => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                track_reads.push(quote!(
                    if #mdl::read_item_into(__s, __cx, &mut #l)? { continue; }
                ));
                counts.push(quote!(
                    if let ::core::option::Option::Some((__pos, __declared)) = __count {
                        __cx.count(__pos, #what, __declared, #l.len())?;
                    }
                ));
                repeat_items.push(quote!(#mdl::item_keyword(&#l)));
                finals.push(quote!(#l));
            }
        }
    }
    let part_read = part.map(|p| {
        let l = local(p);
        let ty = p.ty;
        quote!(if <#ty as #mdl::Part>::read_stmt(&mut #l, __s, __cx)? { continue; })
    });
    let part_repeatable = part.map(|p| {
        let ty = p.ty;
        quote!(<#ty as #mdl::Part>::REPEATABLE)
    });
    let repeatable = match (&part_repeatable, repeat_items.as_slice()) {
        (Some(r), []) => quote!(#r),
        (None, []) => quote!(&[]),
        (r, items) => {
            let r = r.iter();
            quote!(&#mdl::keywords(&[#(#r,)* &[#(#items),*]]))
        }
    };
    let (read_name, label, set_nested_name) = match block.name.as_deref() {
        Some(path) => {
            let name_local = match path {
                [only] => format_ident!("__mdl_{}", only),
                _ => format_ident!("__mdl_name"),
            };
            let nested = (path.len() > 1).then(|| quote!(__value.#(#path).* = #name_local;));
            (
                quote!(let #name_local = __stmt.name(__cx)?;),
                quote!(#mdl::named_label(#keyword, &#name_local)),
                nested,
            )
        }
        None => (
            TokenStream::new(),
            quote!(#mdl::unnamed_label(#keyword)),
            None,
        ),
    };
    let set_version = block.fields.iter().filter(|f| f.sets_version).map(|f| {
        let id = f.ident;
        quote!(
            __cx.version = __value.#id;
            __cx.binary_version = __value.#id;
        )
    });
    let read_body = match &values {
        // The block is one list: its lines are the values.
        Some((l, what)) => quote!(
            let _ = (__count, __body);
            let #l = #mdl::list(__stmt, __cx, #what)?;
        ),
        None => quote!(
            #(#decls)*
            __cx.once_each(__body, #repeatable)?;
            for __s in __body {
                #(#track_reads)*
                let __key = __s.key().1;
                match __key {
                    #(#arms)*
                    _ => {
                        #(#word_reads)*
                        #part_read
                        __cx.unknown(__s)?;
                    }
                }
            }
            #(#counts)*
        ),
    };
    let field_idents = block.fields.iter().map(|f| f.ident);
    let field_values = finals;
    let construct = quote! {
        #[allow(unused_mut)]
        let mut __value = #ident { #(#field_idents: #field_values,)* };
        #set_nested_name
        #(#set_version)*
        ::core::result::Result::Ok(__value)
    };

    // ---- writing ----
    let items = block
        .fields
        .iter()
        .find(|f| matches!(f.kind, Kind::Items { .. } | Kind::Each { .. }));
    let open = match (block.name.as_deref(), items) {
        (Some(path), _) => quote!(__out.open_named(#keyword, &self.#(#path).*);),
        (None, Some(items)) => {
            let id = items.ident;
            quote!(__out.open(&#core::mdl::counted(#keyword, self.#id.len()));)
        }
        (None, None) => quote!(__out.open(#keyword);),
    };
    let mut writes = Vec::new();
    let mut tail_written = false;
    let ordered: Vec<&Field> = match &block.order {
        Some(order) => order
            .iter()
            .filter_map(|o| block.fields.iter().find(|f| f.ident == o))
            .collect(),
        None => block.fields.iter().collect(),
    };
    for f in ordered {
        let id = f.ident;
        let key = &f.key;
        if f.tail
            && let Some(p) = part
        {
            let pid = p.ident;
            let pty = p.ty;
            writes.push(quote!(<#pty as #mdl::Part>::write_tail(&self.#pid, __out);));
            tail_written = true;
        }
        if is_name(block, f) {
            continue;
        }
        let put = |statik: bool, rgb: bool, v: TokenStream| {
            let v = if rgb {
                quote!(&#mdl::Rgb::of_bgr(*#v))
            } else {
                v
            };
            if statik {
                quote!(__out.fixed(#key, #v);)
            } else {
                quote!(__out.field(#key, #v);)
            }
        };
        let write = match &f.kind {
            Kind::Value { statik, rgb } => match f.none.first() {
                Some(word) => quote!(#mdl::write_id(__out, #key, self.#id, #word);),
                None => put(*statik, *rgb, quote!(&self.#id)),
            },
            Kind::Optional { statik, rgb } | Kind::Since { statik, rgb, .. } => {
                let w = put(*statik, *rgb, quote!(__v));
                quote!(if let Some(__v) = &self.#id { #w })
            }
            Kind::List => quote!(#mdl::write_list(__out, #key, &self.#id);),
            Kind::Tracks => quote!(#mdl::write_tracks(__out, &self.#id);),
            Kind::TracksIn => quote!(
                if !self.#id.is_empty() {
                    __out.open(#key);
                    #mdl::write_tracks(__out, &self.#id);
                    __out.close();
                }
            ),
            Kind::Word => quote!(#mdl::write_word(__out, #key, self.#id);),
            Kind::Part { args } => {
                let ty = f.ty;
                let args = args.as_ref().map_or_else(|| quote!(()), |a| quote!(#a));
                quote!(<#ty as #mdl::Part>::write_head(&self.#id, __out, #args);)
            }
            Kind::Skip => TokenStream::new(),
            Kind::Flags { table } => {
                let pairs = table.iter().map(|(w, v)| {
                    let w = w.to_string();
                    quote!((#v, #w))
                });
                quote!(#mdl::write_flags(__out, self.#id, &[#(#pairs),*]);)
            }
            Kind::Each { .. } => quote!(
                for __v in &self.#id {
                    __out.field(#key, __v);
                }
            ),
            Kind::Values { .. } => TokenStream::new(),
            Kind::Items { .. } => quote!(
                for __item in &self.#id {
                    #mdl::Block::write_block(__item, __out);
                }
            ),
        };
        writes.push(match &f.kind {
            Kind::Value {
                statik: false,
                rgb: false,
            } if f.nonzero => quote!(__out.nonzero(#key, &self.#id);),
            _ if f.nonzero => quote!(if !#mdl::Value::is_zero(&self.#id) { #write }),
            _ => write,
        });
    }
    if !tail_written && let Some(p) = part {
        let pid = p.ident;
        let pty = p.ty;
        writes.push(quote!(<#pty as #mdl::Part>::write_tail(&self.#pid, __out);));
    }

    let write_body = match block
        .fields
        .iter()
        .find(|f| matches!(f.kind, Kind::Values { .. }))
    {
        Some(f) => {
            let id = f.ident;
            quote!(#mdl::write_list(__out, #keyword, &self.#id);)
        }
        None => quote!(
            #open
            #(#writes)*
            __out.close();
        ),
    };
    quote! {
        #attrs
        impl #impl_generics #ident #ty_generics #where_clause {
            /// Reads the block, its label in the path of errors if `labelled`.
            #[doc(hidden)]
            fn __mdl_read(
                __stmt: &#mdl::Stmt,
                __cx: &mut #mdl::Cx,
                __labelled: bool,
            ) -> #core::Result<Self> {
                #read_name
                let (__count, __body) = __stmt.block(__cx)?;
                let __read = |__cx: &mut #mdl::Cx| -> #core::Result<Self> {
                    #read_body
                    #construct
                };
                if __labelled {
                    __cx.within(#label, __read)
                } else {
                    __read(__cx)
                }
            }
        }

        #attrs
        impl #impl_generics #mdl::Block for #ident #ty_generics #where_clause {
            const KEYWORD: &'static str = #keyword;

            fn read_block(
                __stmt: &#mdl::Stmt,
                __cx: &mut #mdl::Cx,
            ) -> #core::Result<Self> {
                Self::__mdl_read(__stmt, __cx, true)
            }

            fn read_item(
                __stmt: &#mdl::Stmt,
                __cx: &mut #mdl::Cx,
            ) -> #core::Result<Self> {
                Self::__mdl_read(__stmt, __cx, false)
            }

            fn write_block(&self, __out: &mut #mdl::Out) {
                #write_body
            }
        }
    }
}
