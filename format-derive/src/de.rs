//! Generates `impl Decode`: small code that calls `format_core` helpers.

use proc_macro2::TokenStream;
use quote::quote;

use crate::common::{
    args_type, args_value, bind_args, bind_local, bind_start, context_bindings, expr_text,
    impl_attrs, min_size, split_generics, tag_expr,
};
use crate::model::{
    Body, CondVariant, Container, DataField, DerivedField, Dispatch, Field, FieldKind, Len, Source,
    TagVariant, Target, ValueSpec, ValueVariant, generic_arg,
};
use crate::names;

pub fn expand(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    // A chunk list's reader is its `ChunkList` impl, which writes too.
    let bound = match cont.chunk_list {
        Some(_) => quote!(#core::Decode<Args = ()> + #core::Encode<Args = ()>),
        None => quote!(#core::Decode<Args = ()>),
    };
    let (ig, tg, wc) = split_generics(cont, &bound);
    let args_ty = args_type(cont);
    let bind = bind_args(cont);
    let min = min_size(cont);
    let attrs = impl_attrs();
    let (r, args) = (names::reader(), names::args());
    let body = match &cont.body {
        Body::Struct(fields) => struct_body(cont, fields),
        Body::TagEnum(variants) => tag_enum_body(cont, variants),
        Body::CondEnum(variants) => cond_enum_body(cont, variants),
        Body::ValueEnum { repr, variants } => value_enum_body(cont, repr, variants),
        // Plain structs get `Decode` from the blanket impl over `Plain`.
        Body::Plain(_) => return TokenStream::new(),
    };
    let body = framed(cont, body);
    let body = match crate::common::holds_itself(cont) {
        true => quote!(#r.nested(|#r| { #body })),
        false => body,
    };
    let p = cont.rt.private();
    // A chunk list is read as a list by its runtime (`until_end`).
    let rest = cont.chunk_list.map(|_| {
        quote! {
            fn decode_rest(
                #r: &mut #core::Reader<'_>,
                #args: Self::Args,
            ) -> #core::Result<#p::Vec<Self>> {
                #core::chunk_list::read::<Self>(#r)
            }
        }
    });
    quote! {
        #attrs
        impl #ig #core::Decode for #ident #tg #wc {
            type Args = #args_ty;
            const MIN_SIZE: usize = #min;

            fn decode(
                #r: &mut #core::Reader<'_>,
                #args: Self::Args,
            ) -> #core::Result<Self> {
                #bind
                #body
            }

            #rest
        }
    }
}

/// Wraps the body in the container's magic, chunk header and inclusive size.
pub(crate) fn framed(cont: &Container, body: TokenStream) -> TokenStream {
    let (r, e) = (names::reader(), names::error());
    let mut body = body;
    if cont.inclusive {
        body = quote!(#r.inclusive(|#r| { #body }));
    }
    if let Some(chunk) = &cont.chunk {
        let tag = tag_expr(cont, chunk);
        body = quote! {
            #r.expect_tag(#tag)?;
            #r.chunk(|#r| { #body }).map_err(|#e| #e.in_tag(#tag))
        };
    }
    if let Some(magic) = &cont.magic {
        let tag = tag_expr(cont, magic);
        body = quote! {
            #r.expect_tag(#tag)?;
            #body
        };
    }
    body
}

fn struct_body(cont: &Container, fields: &[Field]) -> TokenStream {
    let p = cont.rt.private();
    let r = names::reader();
    let ctx = context_bindings(&r);
    let start = bind_start(&r);
    let anchored = fields
        .iter()
        .any(|f| matches!(&f.kind, FieldKind::Data(d) if d.anchored));
    let reads = fields.iter().map(|f| field_read(cont, fields, f));
    let end = struct_end(cont, fields);
    let inits = fields.iter().map(|f| {
        let member = &f.member;
        let stored = names::stored(&f.local);
        quote!(#member: #stored)
    });
    let mut body = quote! {
        #(#reads)*
        #end
        ::core::result::Result::Ok(Self { #(#inits,)* })
    };
    // The anchors of the lists a struct reads are its own: forgotten once
    // its offsets are resolved.
    if anchored {
        body = quote!(#r.scope(|#r| { #body }));
    }
    if cont.region.is_some() {
        let (value, placement) = (names::region_value(), names::placement());
        let keep = cont.kept_field().map(|kept| {
            let member = &kept.member;
            quote!(#value.#member.set_placement(#placement);)
        });
        body = quote! {
            #[allow(unused_mut, unused_variables)]
            let (mut #value, #placement) = #p::read_region(#r, |#r| { #body })?;
            #keep
            ::core::result::Result::Ok(#value)
        };
    }
    quote! {
        #ctx
        #start
        #body
    }
}

fn field_read(cont: &Container, fields: &[Field], f: &Field) -> TokenStream {
    let core = cont.rt.core();
    let (r, e) = (names::reader(), names::error());
    let name = &f.name;
    let local = &f.local;
    let stored = names::stored(local);
    let ty = f.ty;
    match &f.kind {
        FieldKind::Skip => quote! {
            let #stored: #ty = ::core::default::Default::default();
        },
        // Read with the list whose records it completes (declared before it).
        FieldKind::SplitTail => bind_local(local, &quote!(#stored), ty),
        FieldKind::Kept => quote! {
            let mut #stored: #ty = ::core::default::Default::default();
        },
        FieldKind::ReadCalc(expr) => {
            let bind = bind_local(local, &quote!(#stored), ty);
            quote! {
                let #stored: #ty = #expr;
                #bind
            }
        }
        FieldKind::Derived(d) => {
            let raw = derived_raw(cont, f, d);
            quote! {
                #raw
                let #stored: #ty = #core::Derived::new();
            }
        }
        FieldKind::Data(d) if d.split.is_some() => split_read(cont, fields, f, d),
        FieldKind::Data(d) => {
            let read = if d.placed {
                placed_read(cont, fields, f, d)
            } else {
                data_read(cont, fields, d)
            };
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
            let (mark, mark_end) = names::anchor_marks(local);
            let p = cont.rt.private();
            let count = quote!(#p::AnchorList::anchor_count(&*#r));
            let before = [
                d.marked.then(|| quote!(let #at = #r.pos();)),
                d.anchored.then(|| quote!(let #mark = #count;)),
            ];
            let after = [
                d.marked.then(|| quote!(let #end = #r.pos();)),
                d.anchored.then(|| quote!(let #mark_end = #count;)),
            ];
            quote! {
                #(#before)*
                let #stored: #ty = (|#r: &mut #core::Reader<'_>| -> #core::Result<#ty> {
                    #read
                })(#r)
                .map_err(|#e| #e.in_field(#name))?;
                #(#after)*
                #bind
                #sets_version
            }
        }
    }
}

/// A derived field's value as on disk, read into its local (and where it
/// is stored into `field_start`), for the expressions and checks after it.
pub(crate) fn derived_raw(cont: &Container, f: &Field, d: &DerivedField) -> TokenStream {
    let core = cont.rt.core();
    let (r, e) = (names::reader(), names::error());
    let (name, local) = (&f.name, &f.local);
    let disk = d.disk_ty;
    let read = quote! {
        <#disk as #core::Decode>::decode(#r, ()).map_err(|#e| #e.in_field(#name))?
    };
    let raw = match &d.cond {
        None => quote!(let #local: #disk = #read;),
        Some(cond) => quote! {
            let #local: ::core::option::Option<#disk> =
                if #cond { ::core::option::Option::Some(#read) } else { ::core::option::Option::None };
        },
    };
    let at = names::field_start(local);
    quote! {
        #[allow(unused_variables)]
        let #at: usize = #r.pos();
        #[allow(unused_variables)]
        #raw
    }
}

/// A list of records split in two arrays (`split(tails, if = ..)`): both
/// fields are read here, the tails into their field's variable.
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
        // Reported by the checks.
        return TokenStream::new();
    };
    let tails_stored = names::stored(&split.tails);
    let count = count_read(cont, fields, d, len, elem);
    let cond = match &split.cond {
        Some(c) => quote!((#c)),
        None => quote!(true),
    };
    let bind = bind_local(local, &quote!(#stored), ty);
    let n = names::count();
    quote! {
        let (#stored, #tails_stored): (#ty, #p::Vec<#tail>) =
            (|#r: &mut #core::Reader<'_>| -> #core::Result<(#ty, #p::Vec<#tail>)> {
                let #n: u64 = #count;
                #core::records::decode_split::<#elem, #tail>(#r, #n, #cond)
            })(#r)
            .map_err(|#e| #e.in_field(#name))?;
        #bind
    }
}

/// The count of a `Vec` with `count = u32` or `count = <expr>`, as a
/// `u64` expression; with `clamp`, clamped (leniently) to what the bytes
/// left hold.
pub(crate) fn count_read(
    cont: &Container,
    fields: &[Field],
    d: &DataField,
    len: &Len,
    elem: &syn::Type,
) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let (count, at) = match len {
        Len::Prefix(c) => (
            quote!(<#c as #p::CountPrefix>::read(#r)?),
            // Evaluated before the prefix is read: where it is.
            quote!(#r.pos()),
        ),
        Len::Expr(e) => {
            // A count that is a derived field is reported where it is stored.
            let stored_at = match e {
                syn::Expr::Path(path) => path.path.get_ident().and_then(|ident| {
                    fields
                        .iter()
                        .find(|f| f.local == *ident && matches!(f.kind, FieldKind::Derived(_)))
                        .map(|f| names::field_start(&f.local))
                }),
                _ => None,
            };
            let at = stored_at.map_or_else(|| quote!(#r.pos()), |at| quote!(#at));
            (quote!(#p::count_value(#e, #r.pos())?), at)
        }
        // Reported by the checks.
        _ => (quote!(0u64), quote!(#r.pos())),
    };
    if !d.clamp {
        return count;
    }
    let (claimed, count_at, e) = (names::claimed(), names::count_at(), names::error());
    let name = &d_name(fields, d);
    let tag = cont.chunk.as_ref().map(|t| {
        let tag = tag_expr(cont, t);
        quote!(.in_tag(#tag))
    });
    quote! {{
        let #count_at: usize = #at;
        let #claimed: u64 = #count;
        #core::records::clamp_count(
            #r,
            #claimed,
            <#elem as #core::Decode>::MIN_SIZE,
            #count_at,
            |#e: #core::Error| #e.in_field(#name)#tag,
        )?
    }}
}

/// The name of the field whose data is `d`, for paths.
fn d_name(fields: &[Field], d: &DataField) -> String {
    fields
        .iter()
        .find(|f| matches!(&f.kind, FieldKind::Data(x) if core::ptr::eq(&**x, d)))
        .map(|f| f.name.clone())
        .unwrap_or_default()
}

/// An expression of type `Result<field type>` reading one data field in sequence.
fn data_read(cont: &Container, fields: &[Field], d: &DataField) -> TokenStream {
    data_read_with(cont, d, value_read(cont, fields, d))
}

/// A data field's tag, conditions and presence around `value`, the
/// expression reading its value (owned here, its view in `view`).
pub(crate) fn data_read_with(cont: &Container, d: &DataField, value: TokenStream) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let tag_read = d.tag.as_ref().map(|t| {
        let tag = tag_expr(cont, t);
        quote!(#r.expect_tag(#tag)?;)
    });
    let inner = quote!({ #tag_read #value });
    let peek = d.optional.then_some(d.tag.as_ref()).flatten().map(|t| {
        let tag = tag_expr(cont, t);
        quote!(#p::peek_is(#r, #tag))
    });
    let read_cond = d.read_cond.as_ref().map(|c| {
        let reader = names::expr::reader();
        quote! {{
            #[allow(unused_variables)]
            let #reader: &#core::Reader<'_> = &*#r;
            #c
        }}
    });
    let conds: Vec<TokenStream> = [d.cond.as_ref().map(|c| quote!((#c))), read_cond, peek]
        .into_iter()
        .flatten()
        .collect();
    if conds.is_empty() {
        return inner;
    }
    quote! {
        if #(#conds)&&* {
            #inner.map(::core::option::Option::Some)
        } else {
            ::core::result::Result::Ok(::core::option::Option::None)
        }
    }
}

fn value_read(cont: &Container, fields: &[Field], d: &DataField) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let args = args_value(d.args.as_ref());
    let ty = d.value_ty;
    if let Some(read) = &d.read_with {
        return read_hook(read, &r, d.args.as_ref());
    }
    let ValueSpec::Vec { elem, len, .. } = &d.value else {
        return quote!(<#ty as #core::Decode>::decode(#r, #args));
    };
    let index = names::expr::index();
    let count = match len {
        Len::Prefix(_) | Len::Expr(_) if d.clamp => Some(count_read(cont, fields, d, len, elem)),
        Len::Prefix(c) => Some(quote!(<#c as #p::CountPrefix>::read(#r)?)),
        Len::Expr(e) => Some(quote!(#p::count_value(#e, #r.pos())?)),
        Len::Stride(n) => Some(quote!(#p::stride_count(#r, #n)?)),
        Len::UntilEnd | Len::Tagged | Len::Table => None,
    };
    // The count is read into a local first: a count prefix reads from the
    // reader, which the call then borrows again.
    let n = names::count();
    let optional = |count: Option<TokenStream>| match count {
        Some(c) => quote!(let #n = ::core::option::Option::Some(#c);),
        None => quote!(let #n = ::core::option::Option::None;),
    };
    match (len, count, d.anchored, d.indexed()) {
        (Len::Tagged, _, true, _) => quote!(#p::decode_tagged_anchored::<#elem>(#r, #args)),
        (Len::Tagged, _, false, _) => quote!(#p::decode_tagged::<#elem>(#r, #args)),
        (_, count, true, _) => {
            let count = optional(count);
            quote!({ #count #p::decode_anchored::<#elem>(#r, #n, #args) })
        }
        (_, count, false, true) => {
            let count = optional(count);
            quote!({ #count #p::decode_indexed::<#elem, _>(#r, #n, |#index: usize| #args) })
        }
        (Len::Stride(n), _, false, false) => quote!(#p::decode_stride::<#elem>(#r, #n, #args)),
        (_, Some(count), false, false) => {
            quote! {{
                let #n = #count;
                #p::decode_vec::<#elem>(#r, #n, #args)
            }}
        }
        (_, None, false, false) => quote!(#p::decode_until_end::<#elem>(#r, #args)),
    }
}

/// A read hook call: `f(reader, args...)`, the arguments from the call written
/// in the attribute (`read_with = f(a, b)`) or the field's `args`.
fn read_hook(hook: &syn::Expr, r: &syn::Ident, args: Option<&Vec<syn::Expr>>) -> TokenStream {
    // Spanned at the hook: a hook of the wrong type is reported there.
    let span = syn::spanned::Spanned::span(hook);
    match hook {
        syn::Expr::Call(call) => {
            let func = &call.func;
            let extra = call.args.iter();
            quote::quote_spanned!(span=> (#func)(#r #(, #extra)*))
        }
        _ => {
            let extra = args.into_iter().flatten();
            quote::quote_spanned!(span=> (#hook)(#r #(, #extra)*))
        }
    }
}

/// The offset (and size) fields naming placed field `target`.
pub struct PlacedBy<'f> {
    pub offset: &'f Field<'f>,
    pub offset_derived: &'f DerivedField<'f>,
    pub from: &'f syn::Expr,
    pub size: Option<(&'f Field<'f>, &'f DerivedField<'f>)>,
}

pub fn placed_by<'f>(fields: &'f [Field<'f>], target: &Field) -> Option<PlacedBy<'f>> {
    let names = |f: &'f Field<'f>| -> Option<(&'f DerivedField<'f>, &'f Source)> {
        let FieldKind::Derived(d) = &f.kind else {
            return None;
        };
        match d.source.target() {
            Some(Target::Field { ident, .. }) if *ident == target.local => Some((d, &d.source)),
            _ => None,
        }
    };
    let mut offset = None;
    let mut size = None;
    for f in fields {
        match names(f) {
            Some((d, Source::Offset { from, .. })) => offset = Some((f, d, from)),
            Some((d, Source::Size { .. })) => size = Some((f, d)),
            _ => {}
        }
    }
    let (offset, offset_derived, from) = offset?;
    Some(PlacedBy {
        offset,
        offset_derived,
        from,
        size,
    })
}

/// Reading a `placed` field where its offset points.
fn placed_read(cont: &Container, fields: &[Field], f: &Field, d: &DataField) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let Some(by) = placed_by(fields, f) else {
        // Reported by the checks.
        return quote!(::core::result::Result::Ok(
            ::core::default::Default::default()
        ));
    };
    let args = args_value(d.args.as_ref());
    let ofs = &by.offset.local;
    // Where the offset is stored: an offset pointing outside is an error there.
    let origin = names::field_start(ofs);
    let from = by.from;
    let ok = quote!(::core::result::Result::Ok);
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    let size_of = |index: Option<TokenStream>| match (&by.size, index) {
        (Some((s, _)), None) => {
            let s = &s.local;
            quote!(#some(#s))
        }
        (Some((s, _)), Some(i)) => {
            let s = &s.local;
            quote!(#some(#s[#i]))
        }
        (None, _) => none.clone(),
    };
    // Where the size is stored (unused without one): a part that reads past
    // its size, or not all of it, is an error there.
    let size_origin = |index: Option<TokenStream>| match (&by.size, index) {
        (Some((s, _)), None) => {
            let at = names::field_start(&s.local);
            quote!(#at)
        }
        (Some((s, _)), Some(i)) => {
            let at = names::field_start(&s.local);
            quote!(#at + 4 * #i)
        }
        (None, _) => quote!(#origin),
    };
    let read_one = |ty: &syn::Type| match generic_arg(ty, "Vec") {
        // A placed run of bytes (or plain elements) bounded by its size.
        Some(inner) => quote!(#p::decode_until_end::<#inner>(#r, #args)),
        None => quote!(<#ty as #core::Decode>::decode(#r, #args)),
    };
    let (base_var, entry, list, size_var) = (
        names::base(),
        names::entry(),
        names::list(),
        names::part_size(),
    );
    let (count_var, e) = (names::count(), names::error());
    let base = quote!(let #base_var: usize = #from;);
    let is_option = generic_arg(f.ty, "Option").is_some();
    match &d.value {
        ValueSpec::Vec {
            elem,
            len: Len::Table,
            ..
        } => {
            let n = by.offset_derived.array.unwrap_or(0);
            let size = size_of(Some(quote!(#entry)));
            let size_at = size_origin(Some(quote!(#entry)));
            let one = read_one(elem);
            let name = &f.name;
            quote! {{
                #base
                let mut #list = #p::Vec::new();
                for #entry in 0..#n {
                    let #size_var: ::core::option::Option<u32> = #size;
                    if #ofs[#entry] == 0 || #size_var == #some(0) {
                        break;
                    }
                    // Lenient: an entry whose part lies outside the region
                    // ends the list (reported). It and the entries after it
                    // stay in the table as read, entries without a part.
                    if #r.ctx().is_lenient() {
                        if let ::core::result::Result::Err(#e) =
                            #r.check_placed(#base_var, #ofs[#entry], #size_var, #origin + 4 * #entry)
                        {
                            #r.recover(
                                #e.at_index(#entry).in_field(#name),
                                "the list ends before this entry: it and the entries after it are kept in the table as read, without their parts",
                            )?;
                            break;
                        }
                    }
                    #list.push(
                        #p::read_placed(#r, #base_var, #ofs[#entry], #size_var, #origin + 4 * #entry, #size_at, |#r| #one)
                            .map_err(|#e| #e.at_index(#entry))?,
                    );
                }
                #ok(#list)
            }}
        }
        ValueSpec::Vec { elem, len, .. } => {
            let count = match len {
                Len::Expr(e) => quote!(#p::count_value(#e, #r.pos())?),
                // Reported by the checks (a placed run needs `count = ...`).
                _ => quote!(0u64),
            };
            let size = size_of(None);
            let size_at = size_origin(None);
            let run = quote!(#p::read_placed(#r, #base_var, #ofs, #size, #origin, #size_at, |#r| #p::decode_vec::<#elem>(#r, #count_var, #args)));
            if is_option {
                // Present where the offset is not 0, whatever its length.
                quote! {{
                    #base
                    let #count_var = #count;
                    if #ofs == 0 { #ok(#none) } else { #run.map(#some) }
                }}
            } else {
                // A run of no elements is not read (its offset may be anything).
                quote! {{
                    #base
                    let #count_var = #count;
                    if #count_var == 0 { #ok(#p::Vec::new()) } else { #run }
                }}
            }
        }
        ValueSpec::Single if is_option => {
            let size = size_of(None);
            let size_at = size_origin(None);
            let one = read_one(d.value_ty);
            quote! {{
                #base
                let #size_var: ::core::option::Option<u32> = #size;
                if #ofs == 0 || #size_var == #some(0) {
                    #ok(#none)
                } else {
                    #p::read_placed(#r, #base_var, #ofs, #size_var, #origin, #size_at, |#r| #one).map(#some)
                }
            }}
        }
        ValueSpec::Single => {
            let size = size_of(None);
            let size_at = size_origin(None);
            let one = read_one(d.value_ty);
            quote! {{
                #base
                #p::read_placed(#r, #base_var, #ofs, #size, #origin, #size_at, |#r| #one)
            }}
        }
    }
}

/// After the fields: what a file said that its data does not give is kept,
/// and a region records where its parts were.
fn struct_end(cont: &Container, fields: &[Field]) -> TokenStream {
    let Some(kept) = cont.kept_field() else {
        return TokenStream::new();
    };
    let kept = names::stored(&kept.local);
    let captures: Vec<TokenStream> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            FieldKind::Derived(d) => Some(capture(cont, fields, f, d)),
            _ => None,
        })
        .collect();
    // Data fields as later expressions see them; derived fields stay the raw
    // values read (already bound).
    let binds = fields.iter().filter_map(|f| match &f.kind {
        FieldKind::Data(_) | FieldKind::Skip | FieldKind::SplitTail => {
            let stored = names::stored(&f.local);
            Some(bind_local(&f.local, &quote!(#stored), f.ty))
        }
        _ => None,
    });
    let slots: usize = fields
        .iter()
        .map(|f| match &f.kind {
            FieldKind::Derived(d) => d.array.unwrap_or(1),
            _ => 0,
        })
        .sum();
    let core = cont.rt.core();
    let (captured, differs) = (names::captured(), names::differs());
    quote! {
        {
            #(#binds)*
            let mut #captured: [::core::option::Option<#core::KeptValue>; #slots] =
                [::core::option::Option::None; #slots];
            // Whether a value differs from its data, worked out as they are
            // captured: a struct that keeps nothing (most) skips the call.
            let mut #differs = false;
            #(#captures)*
            if #differs {
                #kept.keep_group(&#captured);
            }
        }
    }
}

/// The value derived field `f` has in the data just read, captured against
/// the value on disk.
fn capture(cont: &Container, fields: &[Field], f: &Field, d: &DerivedField) -> TokenStream {
    let core = cont.rt.core();
    let r = names::reader();
    let local = &f.local;
    let slot = d.slot;
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    let to_u32 = |e: TokenStream| quote!(<u32 as ::core::convert::TryFrom<_>>::try_from(#e).ok());
    let (table, entry) = (names::table(), names::entry());
    let (captured, differs, captured_entry) =
        (names::captured(), names::differs(), names::captured_entry());
    let (raw_var, kept_slot, derived_var) = (names::raw(), names::kept_slot(), names::derived());
    // `derived(i)`: the value the data gives for entry `i` (`None` for a scalar).
    let derived = |index: Option<&TokenStream>| -> TokenStream {
        match d.source.target() {
            None => match &d.source {
                Source::Calc(expr) => to_u32(quote!(#expr)),
                _ => none.clone(),
            },
            Some(Target::Field {
                ident,
                placed: true,
            }) => {
                // Read where the offset pointed: present means as on disk.
                let stored = names::stored(ident);
                let target = fields.iter().find(|t| t.local == *ident);
                let present = match (index, target.map(|t| (&t.kind, t.ty))) {
                    (Some(i), _) => quote!(#i < #stored.len()),
                    (None, Some((FieldKind::Data(t), ty))) => {
                        if generic_arg(ty, "Option").is_some() {
                            quote!(#stored.is_some())
                        } else if matches!(t.value, ValueSpec::Vec { .. }) {
                            quote!(!#stored.is_empty())
                        } else {
                            quote!(true)
                        }
                    }
                    _ => quote!(true),
                };
                let raw = match index {
                    Some(i) => quote!(#table[#i]),
                    None => quote!(#table),
                };
                quote!(if #present { #some(#raw) } else { #none })
            }
            Some(_) => crate::common::sequential_value(cont, d, index, &r),
        }
    };
    let capture_one = |raw: TokenStream, slot: TokenStream, value: TokenStream| {
        let raw = to_u32(raw);
        quote! {
            if let #some(#raw_var) = #raw {
                let #kept_slot: u16 = #slot;
                let #derived_var: ::core::option::Option<u32> = #value;
                #differs |= #raw_var != #derived_var.unwrap_or(0);
                if let #some(#captured_entry) = #captured.get_mut(usize::from(#kept_slot)) {
                    *#captured_entry = #some(#core::KeptValue { slot: #kept_slot, raw: #raw_var, derived: #derived_var });
                }
            }
        }
    };
    let body = match d.array {
        Some(n) => {
            let i = quote!(#entry);
            let value = derived(Some(&i));
            let one = capture_one(quote!(#table[#entry]), quote!(#slot + #entry as u16), value);
            quote! {
                for #entry in 0..#n {
                    #one
                }
            }
        }
        None => capture_one(quote!(#table), quote!(#slot), derived(None)),
    };
    match &d.cond {
        None => quote! {{
            let #table = #local;
            #body
        }},
        // A value not on disk (its condition false) is not captured.
        Some(_) => quote! {
            if let #some(#table) = #local {
                #body
            }
        },
    }
}

fn tag_enum_body(cont: &Container, variants: &[TagVariant]) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let ctx = context_bindings(&r);
    let tag_var = names::tag();
    let (e, value_id, read_var) = (names::error(), names::value(), names::variant_read());
    let arms = variants
        .iter()
        // The fallback comes last; a `not_read` variant is built by hand.
        .filter(|v| !matches!(v.dispatch, Dispatch::Unknown | Dispatch::NotRead))
        .map(|v| {
            let ident = v.ident;
            let ty = v.ty;
            let args = args_value(v.args.as_ref());
            let cond = v.cond.as_ref().map(|c| quote!(&& (#c)));
            let (tag, read) = match &v.dispatch {
                Dispatch::Tag(t) => (
                    tag_expr(cont, t),
                    quote! {
                        #r.skip(4)?;
                        <#ty as #core::Decode>::decode(#r, #args)
                    },
                ),
                Dispatch::Chunk(t) => (
                    tag_expr(cont, t),
                    quote! {
                        #r.skip(4)?;
                        #r.chunk(|#r| <#ty as #core::Decode>::decode(#r, #args))
                    },
                ),
                _ => (
                    quote!(<#ty as #core::HasTag>::TAG),
                    quote!(<#ty as #core::Decode>::decode(#r, #args)),
                ),
            };
            // A type with its own tag (`Dispatch::Inner`) names it in its errors itself.
            let err = match &v.dispatch {
                Dispatch::Inner => quote!(#e),
                _ => quote!(#e.in_tag(#tag_var)),
            };
            // One `match`, so a large payload is moved into `Self` once.
            quote! {
                if #tag_var == #tag #cond {
                    let #read_var: #core::Result<#ty> = (|| { #read })();
                    return match #read_var {
                        ::core::result::Result::Ok(#value_id) => ::core::result::Result::Ok(Self::#ident(#value_id)),
                        ::core::result::Result::Err(#e) => ::core::result::Result::Err(#err),
                    };
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
            quote!(<#ty as #core::Decode>::decode(#r, #args).map(Self::#ident))
        }
        None => quote! {
            ::core::result::Result::Err(#p::wrong_tag(#r.pos(), <Self as #core::Tagged>::TAGS, #tag_var))
        },
    };
    let peeked = names::peeked();
    quote! {
        #ctx
        let #tag_var = match #r.peek_tag() {
            ::core::option::Option::Some(#peeked) => #peeked,
            ::core::option::Option::None => return ::core::result::Result::Err(#p::missing_tag(#r)),
        };
        #(#arms)*
        #fallback
    }
}

fn cond_enum_body(cont: &Container, variants: &[CondVariant]) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let ctx = context_bindings(&r);
    let name = cont.ident.to_string();
    let reader = names::expr::reader();
    let arms = variants.iter().map(|v| {
        let (ident, ty, when) = (v.ident, v.ty, &v.when);
        let args = args_value(v.args.as_ref());
        // A `read_when` condition may look at the reader.
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
                return <#ty as #core::Decode>::decode(#r, #args).map(Self::#ident);
            }
        }
    });
    let whens = variants.iter().map(|v| expr_text(&v.when));
    quote! {
        #ctx
        #(#arms)*
        ::core::result::Result::Err(#p::no_variant(#r.pos(), #name, &[#(#whens),*]))
    }
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
            let name = names::discriminant(i);
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
    let core = cont.rt.core();
    let p = cont.rt.private();
    let r = names::reader();
    let consts = discriminant_consts(repr, variants);
    let name = cont.ident.to_string();
    let (number, other, offset) = (names::number(), names::other(), names::number_offset());
    let arms = variants
        .iter()
        .enumerate()
        .filter(|(_, v)| !v.unknown)
        .map(|(i, v)| {
            let ident = v.ident;
            let d = names::discriminant(i);
            quote!(#d => Self::#ident,)
        });
    let fallback = match variants.iter().find(|v| v.unknown) {
        Some(v) => {
            let ident = v.ident;
            quote!(#other => Self::#ident(#other),)
        }
        None => quote! {
            #other => return ::core::result::Result::Err(#p::unknown_value(#offset, #name, #other)),
        },
    };
    quote! {
        #consts
        let #offset = #r.pos();
        let #number = <#repr as #core::Decode>::decode(#r, ())?;
        ::core::result::Result::Ok(match #number {
            #(#arms)*
            #fallback
        })
    }
}
