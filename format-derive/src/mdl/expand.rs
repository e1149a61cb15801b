//! The code `#[derive(Mdl)]` generates: `mdl::Block` for a struct (its
//! reader and writer), `mdl::Words` for a value enum.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::model::{Block, Body, Container, Field, Kind, wrapped};
use crate::common::impl_attrs;

pub fn expand(cont: &Container) -> TokenStream {
    match &cont.body {
        Body::Block(block) => block_impl(cont, block),
        Body::Words(words, fallback) => words_impl(cont, words, *fallback),
    }
}

fn words_impl(
    cont: &Container,
    words: &[(&syn::Ident, syn::LitStr)],
    fallback_variant: bool,
) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let (impl_generics, ty_generics, where_clause) = cont.generics.split_for_impl();
    let attrs = impl_attrs();
    let pairs = words.iter().map(|(v, w)| quote!((#ident::#v, #w)));
    let fallback = words.first().map(|(_, w)| w);
    // With a fallback variant every number is a value; without, only the
    // numbers of the values with words.
    let from_number = if fallback_variant {
        quote!(::core::option::Option::Some(
            <Self as ::core::convert::From<u32>>::from(n)
        ))
    } else {
        quote!(
            Self::WORDS
                .iter()
                .map(|(v, _)| *v)
                .find(|v| <u32 as ::core::convert::From<Self>>::from(*v) == n)
        )
    };
    quote! {
        #attrs
        impl #impl_generics #core::mdl::Words for #ident #ty_generics #where_clause {
            const WORDS: &'static [(Self, &'static str)] = &[#(#pairs),*];
            const FALLBACK: &'static str = #fallback;
            fn from_number(n: u32) -> ::core::option::Option<Self> {
                #from_number
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
    // Sub-blocks (`within`): the statements read in them, by block and key,
    // and the track lists read in them too.
    let mut sub_arms = Vec::new();
    let mut value_reads = Vec::new();
    let mut sub_track_reads = Vec::new();
    let mut track_types = Vec::new();
    // The keys the block's own statements take: a sub-block's field is read
    // at the block's top level too under a key none of them takes (as the
    // hand-written readers did: an editor may flatten the sub-block).
    let mut taken: Vec<&str> = block
        .fields
        .iter()
        .filter(|f| f.within.is_none() && !is_name(block, f) && f.kind.keyed())
        .flat_map(|f| {
            std::iter::once(&f.key)
                .chain(&f.aliases)
                .map(String::as_str)
        })
        .collect();
    for f in &block.fields {
        let l = local(f);
        let ty = f.ty;
        let key = &f.key;
        let keys = std::iter::once(key).chain(&f.aliases);
        let pattern = quote!(#(#keys)|*);
        // The statement a key reads, if the field is read by its key.
        let mut arm: Option<TokenStream> = None;
        let value = |rgb: bool| {
            if rgb {
                quote!(__s.value::<#mdl::Rgb>(__cx)?.bgr())
            } else {
                quote!(__s.value(__cx)?)
            }
        };
        // Spanned at the field's type: a type without `Default` (and no
        // `default = ..`) is reported there.
        let default = |f: &Field| match f.default.as_ref().or(f.unless.as_ref()) {
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
                arm = Some(quote!(#l = ::core::option::Option::Some(#v);));
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
                arm = Some(quote!(#l = ::core::option::Option::Some(#v);));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Optional { rgb, .. } => {
                let v = value(*rgb);
                decls.push(quote!(let mut #l: #ty = None;));
                arm = Some(quote!(#l = ::core::option::Option::Some(#v);));
                finals.push(optional_final(f, &l, &mut decls, &mut word_reads));
            }
            Kind::Nested if wrapped(ty, "Vec").is_some() => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                track_reads.push(quote!(
                    if #mdl::read_item_into(__s, __cx, &mut #l)? { continue; }
                ));
                repeat_items.push(quote!(#mdl::item_keyword(&#l)));
                finals.push(quote!(#l));
            }
            Kind::Nested => {
                let inner = wrapped(ty, "Option").unwrap_or(ty);
                decls.push(quote!(let mut #l: ::core::option::Option<#inner> = None;));
                track_reads.push(quote!(
                    if __s.key() == (false, <#inner as #mdl::Block>::KEYWORD) {
                        #l = ::core::option::Option::Some(<#inner as #mdl::Block>::read_block(__s, __cx)?);
                        continue;
                    }
                ));
                if wrapped(ty, "Option").is_some() {
                    finals.push(optional_final(f, &l, &mut decls, &mut word_reads));
                } else {
                    let d = default(f);
                    finals.push(quote!(#l.unwrap_or_else(|| #d)));
                }
            }
            Kind::Since {
                rgb,
                version,
                until,
                ..
            } => {
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
                arm = Some(quote!({
                    #l = ::core::option::Option::Some(#v);
                    #at = Some((__s.pos, __key));
                }));
                let until = until
                    .as_ref()
                    .map_or_else(|| quote!(u32::MAX), |u| quote!(#u));
                finals.push(quote!({
                    __cx.not_in_versions(#at.map(|(pos, key)| (pos, key.into())), #version..#until)?;
                    if __cx.version < #version || __cx.version >= #until {
                        None
                    } else {
                        Some(#l.unwrap_or_else(|| #d))
                    }
                }));
            }
            Kind::Spread {
                members,
                since,
                default_from,
                ..
            } => {
                let at = format_ident!("__mdl_at_{}", f.ident);
                // The default of the type inside the `Option`.
                let inner = wrapped(ty, "Option").unwrap_or(ty);
                let d = match &f.default {
                    Some(e) => quote!(#e),
                    None => quote!(<#inner as ::core::default::Default>::default()),
                };
                decls.push(quote!(
                    let mut #l: #ty = None;
                    let mut #at: ::core::option::Option<(#mdl::Pos, &str)> = None;
                ));
                for (member, member_key) in members {
                    arms.push(quote!(#member_key => {
                        #l.get_or_insert_with(|| #d).#member = __s.value(__cx)?;
                        #at.get_or_insert((__s.pos, __key));
                    }));
                }
                finals.push(match (since, default_from) {
                    (Some(since), from) => {
                        let from = from
                            .as_ref()
                            .map_or_else(|| quote!(u32::MAX), |v| quote!(#v));
                        quote!({
                            __cx.not_in_version(#at.map(|(pos, key)| (pos, key.into())), #since)?;
                            if __cx.version < #since {
                                None
                            } else if __cx.version >= #from {
                                Some(#l.unwrap_or_else(|| #d))
                            } else {
                                #l
                            }
                        })
                    }
                    (None, _) => quote!({
                        let _ = #at;
                        #l
                    }),
                });
            }
            Kind::Worded => {
                let d = default(f);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arm = Some(quote!(
                    #l = ::core::option::Option::Some(#mdl::read_worded::<#ty>(__s, __cx)?);
                ));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Hook => {
                let d = default(f);
                finals.push(quote!(#d));
            }
            Kind::List => {
                let what = key.to_lowercase();
                let d = default(f);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arm =
                    Some(quote!(#l = ::core::option::Option::Some(#mdl::list(__s, __cx, #what)?);));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Tracks => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                track_reads.push(quote!(
                    if #mdl::read_into(__s, __cx, &mut #l)? { continue; }
                ));
                sub_track_reads.push(quote!(
                    if #mdl::read_into_in(__block, __s, __cx, &mut #l)? { continue; }
                ));
                track_types.push(quote!(#mdl::tracks_blocks(&#l)));
                finals.push(quote!(#l));
            }
            Kind::TracksIn => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                arm = Some(quote!({
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
                let d = if f.required {
                    TokenStream::new()
                } else {
                    default(f)
                };
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arm = Some(quote!({
                    #l = ::core::option::Option::Some(#mdl::word_number::<#ty>(__s, __cx)?);
                }));
                word_reads.push(quote!(
                    if let Some(__w) = <#ty as #mdl::Words>::of_word(__key) {
                        __s.bare(__cx)?;
                        #l = ::core::option::Option::Some(__w);
                        continue;
                    }
                ));
                if f.required {
                    finals.push(quote!(match #l {
                        ::core::option::Option::Some(__v) => __v,
                        ::core::option::Option::None => {
                            return ::core::result::Result::Err(
                                #mdl::missing_word::<#ty>(__cx, __stmt.pos, #keyword),
                            );
                        }
                    }));
                } else {
                    finals.push(quote!(#l.unwrap_or_else(|| #d)));
                }
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
            Kind::Flags { table, ext } => {
                let d = default(f);
                let aliases = &f.aliases;
                let ext = quote!(#ext #(, #aliases)*);
                let pairs = flag_pairs(table);
                decls.push(quote!(let mut #l: #ty = #d;));
                word_reads.push(quote!(
                    if #mdl::read_flag(__s, __cx, &mut #l, &[#(#pairs),*], &[#ext])? { continue; }
                ));
                // The bits other statements say, unless `ext` gives them all.
                let said = saying(block, f).map(|g| {
                    let bit = g.says.as_ref().map(|s| &s.bit);
                    let keys = std::iter::once(&g.key).chain(&g.aliases);
                    quote!(if #mdl::given(__body, &[#(#keys),*]) { #bit } else { 0 })
                });
                finals.push(quote!({
                    if !#mdl::given(__body, &[#ext]) {
                        #l |= 0 #(| #said)*;
                    }
                    #l
                }));
            }
            Kind::Choice { words } => {
                let d = default(f);
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arm = Some(quote!(#l = ::core::option::Option::Some(__s.value(__cx)?);));
                word_reads.push(quote!(
                    if let ::core::option::Option::Some(__n) = #mdl::choice_of(__key, &[#(#words),*]) {
                        __s.bare(__cx)?;
                        #l = ::core::option::Option::Some(__n);
                        continue;
                    }
                ));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Array { entry, rgb } => {
                let d = default(f);
                let map = if *rgb {
                    quote!(|__c: #mdl::Rgb| __c.bgr())
                } else {
                    quote!(::core::convert::identity)
                };
                decls.push(quote!(let mut #l: ::core::option::Option<#ty> = None;));
                arm = Some(quote!(
                    #l = ::core::option::Option::Some(#mdl::read_array(__s, __cx, #entry, #map)?);
                ));
                finals.push(quote!(#l.unwrap_or_else(|| #d)));
            }
            Kind::Each { what } => {
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                arm = Some(quote!(#l.push(__s.value(__cx)?);));
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
                // Beside keyed values: a line of one item is a value.
                decls.push(quote!(let mut #l: #ty = ::core::default::Default::default();));
                value_reads.push(quote!(
                    if let [__item] = __s.items.as_slice() {
                        #l.push(#mdl::Value::read(__item, __cx)?);
                        continue;
                    }
                ));
                counts.push(quote!(
                    if let ::core::option::Option::Some((__pos, __declared)) = __count {
                        __cx.count(__pos, #what, __declared, #l.len())?;
                    }
                ));
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
        match (arm, &f.within) {
            (Some(arm), Some(within)) => {
                sub_arms.push(quote!((#within, #pattern) => { #arm }));
                let flat: Vec<&str> = std::iter::once(key)
                    .chain(&f.aliases)
                    .map(String::as_str)
                    .filter(|k| !taken.contains(k))
                    .collect();
                if !flat.is_empty() {
                    arms.push(quote!(#(#flat)|* => { #arm }));
                    taken.extend(flat);
                }
            }
            (Some(arm), None) => arms.push(quote!(#pattern => { #arm })),
            (None, _) => {}
        }
    }
    // Each sub-block keyword once, in the order of the fields.
    let mut sub_blocks: Vec<&str> = Vec::new();
    for f in &block.fields {
        if let Some(within) = f.within.as_deref()
            && !sub_blocks.contains(&within)
        {
            sub_blocks.push(within);
        }
    }
    let sub_read = (!sub_blocks.is_empty() || !track_types.is_empty()).then(|| {
        let named = if sub_blocks.is_empty() {
            quote!(false)
        } else {
            quote!(matches!(__key, #(#sub_blocks)|*))
        };
        quote!(
            if !__s.key().0
                && (#named #(|| #track_types.contains(&__key))*)
            {
                let __block = __key;
                let (_, __inner) = __s.block(__cx)?;
                __cx.once_each(__inner, &[])?;
                for __s in __inner {
                    #(#sub_track_reads)*
                    let __key = __s.key().1;
                    match (__block, __key) {
                        #(#sub_arms)*
                        _ => __cx.unknown(__s)?,
                    }
                }
                continue;
            }
        )
    });
    let part_read = part.map(|p| {
        let l = local(p);
        let ty = p.ty;
        quote!(if <#ty as #mdl::Part>::read_stmt(&mut #l, __s, __cx)? { continue; })
    });
    let part_repeatable = part.map(|p| {
        let ty = p.ty;
        quote!(<#ty as #mdl::Part>::REPEATABLE)
    });
    // The block's hook (`hook = Type`): what it gathers, the statements
    // it reads, what it allows more than once.
    let hook = block
        .hook
        .as_ref()
        .map(|h| quote!(<#h as #mdl::Hook<#ident #ty_generics>>));
    let hook_decl = hook
        .as_ref()
        .map(|h| quote!(let mut __mdl_hook = <#h::State as ::core::default::Default>::default();));
    let hook_read = hook
        .as_ref()
        .map(|h| quote!(if #h::read(&mut __mdl_hook, __s, __cx)? { continue; }));
    let hook_finish = hook
        .as_ref()
        .map(|h| quote!(#h::finish(__mdl_hook, &mut __value, __cx, __stmt.pos)?;));
    let hook_repeatable = hook.as_ref().map(|h| quote!(#h::REPEATABLE));
    // A sub-block comes once for its fields and once more for each track
    // written in it.
    let repeatable = match (
        &part_repeatable,
        repeat_items.as_slice(),
        sub_blocks.as_slice(),
        track_types.as_slice(),
        &hook_repeatable,
    ) {
        (Some(r), [], [], [], None) | (None, [], [], [], Some(r)) => quote!(#r),
        (None, [], [], [], None) => quote!(&[]),
        (r, items, subs, tracks, h) => {
            let r = r.iter().chain(h);
            quote!(&#mdl::keywords(&[#(#r,)* &[#(#items,)* #(#subs),*], #(#tracks),*]))
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
        Some((l, what)) if arms.is_empty() => quote!(
            let _ = (__count, __body);
            let #l = #mdl::list(__stmt, __cx, #what)?;
        ),
        // Statements by their keys (and values beside them).
        _ => quote!(
            #(#decls)*
            #hook_decl
            __cx.once_each(__body, #repeatable)?;
            for __s in __body {
                #(#track_reads)*
                let __key = __s.key().1;
                match __key {
                    #(#arms)*
                    _ => {
                        #(#word_reads)*
                        #part_read
                        #sub_read
                        #(#value_reads)*
                        #hook_read
                        __cx.unknown(__s)?;
                    }
                }
            }
            #(#counts)*
        ),
    };
    let check = block
        .check
        .as_ref()
        .map(|path| quote!(#path(&mut __value, __cx, __stmt.pos)?;));
    let field_idents = block.fields.iter().map(|f| f.ident);
    let field_values = finals;
    let construct = quote! {
        #[allow(unused_mut)]
        let mut __value = #ident { #(#field_idents: #field_values,)* };
        #set_nested_name
        #(#set_version)*
        #hook_finish
        #check
        ::core::result::Result::Ok(__value)
    };

    // ---- writing ----
    let items = block.fields.iter().find(|f| {
        matches!(
            f.kind,
            Kind::Items { .. } | Kind::Each { .. } | Kind::Values { .. }
        )
    });
    let open = match (block.name.as_deref(), items) {
        (Some(path), _) => quote!(__out.open_named(#keyword, &__this.#(#path).*);),
        (None, Some(items)) => {
            let id = items.ident;
            quote!(__out.open(&#core::mdl::counted(#keyword, __this.#id.len()));)
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
    // Sub-blocks written already: their fields all go in at the first.
    let mut opened: Vec<&str> = Vec::new();
    let mut hook_place = false;
    for f in &ordered {
        // The hook's fields, each at its place; from the first on, a plain
        // writer writes the block as the hook makes it plain.
        if let (Kind::Hook, Some(h)) = (&f.kind, &hook) {
            if !hook_place {
                hook_place = true;
                writes.push(quote!(
                    let __mdl_plain = if __out.is_plain() { #h::plain(__this, __out) } else { None };
                    let __this = __mdl_plain.as_ref().unwrap_or(__this);
                ));
            }
            let name = f.ident.to_string();
            writes.push(quote!(#h::write(__this, __out, #name);));
            continue;
        }
        if f.tail
            && let Some(p) = part
        {
            let pid = p.ident;
            let pty = p.ty;
            writes.push(quote!(<#pty as #mdl::Part>::write_tail(&__this.#pid, __out);));
            tail_written = true;
        }
        if is_name(block, f) {
            continue;
        }
        match f.within.as_deref() {
            None => writes.push(write_field(&mdl, block, f)),
            Some(within) if !opened.contains(&within) => {
                opened.push(within);
                let inside = ordered
                    .iter()
                    .filter(|g| g.within.as_deref() == Some(within))
                    .map(|g| write_field(&mdl, block, g));
                writes.push(quote!(
                    __out.open(#within);
                    #(#inside)*
                    __out.close();
                ));
            }
            Some(_) => {}
        }
    }
    if !tail_written && let Some(p) = part {
        let pid = p.ident;
        let pty = p.ty;
        writes.push(quote!(<#pty as #mdl::Part>::write_tail(&__this.#pid, __out);));
    }

    // What the fields that say a flag bit (`says`) decide before any is
    // written: whether each is written, and whether a track says it.
    let says_locals = block.fields.iter().filter_map(|g| {
        let says = g.says.as_ref()?;
        let (id, flags, bit) = (g.ident, &says.flags, &says.bit);
        let (track, written) = says_idents(g);
        let keys: Vec<&String> = std::iter::once(&g.key).chain(&g.aliases).collect();
        let tracks = block
            .fields
            .iter()
            .filter(|t| matches!(t.kind, Kind::Tracks))
            .map(|t| {
                let t = t.ident;
                quote!(#mdl::has_track(&__this.#t, &[#(#keys),*]))
            });
        let d = match &g.default {
            Some(e) => quote!(#e),
            None => quote!(::core::default::Default::default()),
        };
        Some(quote!(
            let #track = false #(|| #tracks)*;
            let #written = __this.#id != #d || (__this.#flags & (#bit) != 0 && !#track);
        ))
    });
    let write_body = quote!(
        let __this = self;
        #(#says_locals)*
        #open
        #(#writes)*
        __out.close();
    );
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

/// The `(key, value)` pairs of a flags table.
fn flag_pairs(table: &[(syn::Ident, syn::Expr)]) -> impl Iterator<Item = TokenStream> + '_ {
    table.iter().map(|(w, v)| {
        let w = w.to_string();
        quote!((#v, #w))
    })
}

/// The fields of `block` that say a bit of the flags field `flags`.
fn saying<'b>(block: &'b Block, flags: &'b Field) -> impl Iterator<Item = &'b Field<'b>> {
    block
        .fields
        .iter()
        .filter(move |g| g.says.as_ref().is_some_and(|s| s.flags == *flags.ident))
}

/// The writer's locals of a field that says a bit: whether a track says
/// it, and whether the field is written.
fn says_idents(g: &Field) -> (syn::Ident, syn::Ident) {
    (
        format_ident!("__mdl_track_{}", g.ident),
        format_ident!("__mdl_says_{}", g.ident),
    )
}

/// The statements that write field `f` (not the block's name).
fn write_field(mdl: &TokenStream, block: &Block, f: &Field) -> TokenStream {
    let id = f.ident;
    let key = &f.key;
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
            Some(word) if !f.numbered => quote!(#mdl::write_id(__out, #key, __this.#id, #word);),
            _ => put(*statik, *rgb, quote!(&__this.#id)),
        },
        Kind::Optional { statik, rgb } | Kind::Since { statik, rgb, .. } => {
            let w = put(*statik, *rgb, quote!(__v));
            let none = absent_word(f);
            quote!(match &__this.#id { ::core::option::Option::Some(__v) => { #w } ::core::option::Option::None => { #none } })
        }
        Kind::Nested if wrapped(f.ty, "Vec").is_some() => quote!(
            for __item in &__this.#id {
                #mdl::Block::write_block(__item, __out);
            }
        ),
        Kind::Nested => match wrapped(f.ty, "Option") {
            Some(_) => {
                let none = absent_word(f);
                quote!(match &__this.#id {
                    ::core::option::Option::Some(__v) => #mdl::Block::write_block(__v, __out),
                    ::core::option::Option::None => { #none }
                })
            }
            None => quote!(#mdl::Block::write_block(&__this.#id, __out);),
        },
        Kind::List => quote!(#mdl::write_list(__out, #key, &__this.#id);),
        Kind::Tracks => quote!(#mdl::write_tracks(__out, &__this.#id);),
        Kind::TracksIn => quote!(
            if !__this.#id.is_empty() {
                __out.open(#key);
                #mdl::write_tracks(__out, &__this.#id);
                __out.close();
            }
        ),
        Kind::Word => quote!(#mdl::write_word(__out, #key, __this.#id);),
        Kind::Worded => quote!(#mdl::write_worded(__out, #key, __this.#id);),
        Kind::Spread {
            members, statik, ..
        } => {
            let puts = members.iter().map(|(member, member_key)| {
                if *statik {
                    quote!(__out.fixed(#member_key, &__v.#member);)
                } else {
                    quote!(__out.field(#member_key, &__v.#member);)
                }
            });
            quote!(if let ::core::option::Option::Some(__v) = &__this.#id { #(#puts)* })
        }
        // Written by the block's hook, at its place (see `block_impl`).
        Kind::Hook => TokenStream::new(),
        Kind::Part { args } => {
            let ty = f.ty;
            let args = args.as_ref().map_or_else(|| quote!(()), |a| quote!(#a));
            quote!(<#ty as #mdl::Part>::write_head(&__this.#id, __out, #args);)
        }
        Kind::Skip => TokenStream::new(),
        Kind::Flags { table, ext } => {
            let pairs = flag_pairs(table);
            // Bits other statements say (`says`): not written as words.
            let (mut mask, mut said) = (Vec::new(), Vec::new());
            for g in saying(block, f) {
                let bit = g.says.as_ref().map(|s| &s.bit);
                let (track, written) = says_idents(g);
                mask.push(quote!(#bit));
                said.push(quote!(if #written || #track { #bit } else { 0 }));
            }
            quote!(#mdl::write_flags(
                __out,
                __this.#id,
                &[#(#pairs),*],
                #ext,
                #mdl::Said { mask: 0 #(| #mask)*, bits: 0 #(| #said)* },
            );)
        }
        Kind::Choice { words } => {
            quote!(#mdl::write_choice(__out, #key, __this.#id, &[#(#words),*]);)
        }
        Kind::Array { entry, rgb } => {
            let map = if *rgb {
                quote!(|__c: &[f32; 3]| #mdl::Rgb::of_bgr(*__c))
            } else {
                quote!(::core::clone::Clone::clone)
            };
            quote!(#mdl::write_array(__out, #key, #entry, &__this.#id, #map);)
        }
        Kind::Each { .. } => quote!(
            for __v in &__this.#id {
                __out.field(#key, __v);
            }
        ),
        Kind::Values { .. } => quote!(
            for __v in &__this.#id {
                __out.item(__v);
            }
        ),
        Kind::Items { .. } => quote!(
            for __item in &__this.#id {
                #mdl::Block::write_block(__item, __out);
            }
        ),
    };
    if f.says.is_some() {
        let (_, written) = says_idents(f);
        return quote!(if #written { #write });
    }
    match &f.kind {
        Kind::Value {
            statik: false,
            rgb: false,
        } if f.nonzero => quote!(__out.nonzero(#key, &__this.#id);),
        _ if f.nonzero => quote!(if !#mdl::Value::is_zero(&__this.#id) { #write }),
        _ => match &f.unless {
            Some(unless) => quote!(if __this.#id != #unless { #write }),
            None => write,
        },
    }
}

/// The value of an `Option` field once its block is read: with `absent`,
/// `None` if the word was there and `Some` of the value or its default
/// otherwise; else the value, or `Some(default)` with `default`.
fn optional_final(
    f: &Field,
    l: &syn::Ident,
    decls: &mut Vec<TokenStream>,
    word_reads: &mut Vec<TokenStream>,
) -> TokenStream {
    let inner = wrapped(f.ty, "Option").unwrap_or(f.ty);
    let d = match &f.default {
        Some(e) => quote!(#e),
        None => quote!(<#inner as ::core::default::Default>::default()),
    };
    match (&f.absent, &f.default) {
        (Some(word), _) => {
            let flag = format_ident!("__mdl_absent_{}", f.ident);
            decls.push(quote!(let mut #flag = false;));
            word_reads.push(quote!(
                if __key == #word {
                    __s.bare(__cx)?;
                    #flag = true;
                    continue;
                }
            ));
            quote!(if #flag {
                ::core::option::Option::None
            } else {
                ::core::option::Option::Some(#l.unwrap_or_else(|| #d))
            })
        }
        (None, Some(_)) => quote!(#l.or_else(|| ::core::option::Option::Some(#d))),
        (None, None) => quote!(#l),
    }
}

/// What an `Option` field writes for `None`: its `absent` word, or nothing.
fn absent_word(f: &Field) -> TokenStream {
    match &f.absent {
        Some(word) => quote!(__out.flag(#word);),
        None => TokenStream::new(),
    }
}
