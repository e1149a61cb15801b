//! Generates `impl Encode`, the mirror of `de`: same field order; counts,
//! offsets and sizes derived from the data; presence checked against the
//! context; parts placed by offset written where their fields come, as parts
//! of the innermost region (which lays them out), their offsets reserved and
//! resolved once the region ends.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

use crate::common::{
    args_type, args_value, bind_args, bind_local, bind_start, context_bindings, expr_text,
    impl_attrs, split_generics, tag_expr,
};
use crate::de::{discriminant_consts, placed_by};
use crate::model::{
    Body, CondVariant, Container, DataField, DerivedField, Dispatch, Field, FieldKind, Len, Source,
    TagVariant, Target, ValueSpec, ValueVariant, generic_arg,
};
use crate::names;

pub fn expand(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    // A chunk list's writer is its `ChunkList` impl, which reads too.
    let bound = match cont.chunk_list {
        Some(_) => quote!(#core::Decode<Args = ()> + #core::Encode<Args = ()>),
        None => quote!(#core::Encode<Args = ()>),
    };
    let (ig, tg, wc) = split_generics(cont, &bound);
    let args_ty = args_type(cont);
    let bind = bind_args(cont);
    let attrs = impl_attrs();
    let (w, args) = (names::writer(), names::args());
    let items = match &cont.body {
        Body::Struct(fields) => struct_items(cont, fields),
        other => {
            let body = match other {
                Body::TagEnum(variants) => tag_enum_body(cont, variants),
                Body::CondEnum(variants) => cond_enum_body(cont, variants),
                Body::ValueEnum { repr, variants } => value_enum_body(cont, repr, variants),
                _ => return TokenStream::new(),
            };
            let body = framed(cont, body);
            // A chunk list is written as a list by its runtime (`until_end`).
            let many = cont.chunk_list.map(|_| {
                let items = names::value();
                quote! {
                    fn encode_many(#items: &[Self], #w: &mut #core::Writer, #args: Self::Args) -> #core::Result<()> {
                        #core::chunk_list::write::<Self>(#items, #w)
                    }
                }
            });
            quote! {
                fn encode(&self, #w: &mut #core::Writer, #args: Self::Args) -> #core::Result<()> {
                    #bind
                    #body
                }

                #many
            }
        }
    };
    quote! {
        #attrs
        impl #ig #core::Encode for #ident #tg #wc {
            type Args = #args_ty;
            #items
        }
    }
}

fn framed(cont: &Container, body: TokenStream) -> TokenStream {
    let error_id = names::error();
    let w = names::writer();
    let mut body = body;
    if cont.inclusive {
        body = quote!(#w.inclusive(|#w| { #body }));
    }
    if let Some(chunk) = &cont.chunk {
        let tag = tag_expr(cont, chunk);
        body = quote!(#w.chunk(#tag, |#w| { #body }).map_err(|#error_id| #error_id.in_tag(#tag)));
    }
    if let Some(magic) = &cont.magic {
        let tag = tag_expr(cont, magic);
        body = quote! {
            #w.tag(#tag);
            #body
        };
    }
    body
}

fn struct_items(cont: &Container, fields: &[Field]) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let (w, args) = (names::writer(), names::args());
    let bind = bind_args(cont);
    let mut body = struct_body(cont, fields);
    // Only a struct that reserves values or records anchors needs a scope,
    // and only one with placed parts a region: every other type (all of
    // MDX) writes its fields and nothing else.
    let anchored = fields
        .iter()
        .any(|f| matches!(&f.kind, FieldKind::Data(d) if d.anchored));
    if anchored || reserves(cont, fields) {
        body = quote!(#w.scope(|#w| { #body }));
    }
    if cont.region.is_some() {
        let kept = match cont.kept_field() {
            Some(kept) => {
                let member = &kept.member;
                quote!(self.#member.placement())
            }
            None => quote!(#p::None),
        };
        body = quote!(#p::region(#w, #kept, |#w| { #body }));
    } else if cont.has_placed() {
        body = quote!(#p::region_if_none(#w, |#w| { #body }));
    }
    let body = framed(cont, body);
    quote! {
        fn encode(&self, #w: &mut #core::Writer, #args: Self::Args) -> #core::Result<()> {
            #bind
            #body
        }
    }
}

/// True if the struct reserves a value (an offset, a size, or a `u32` count
/// kept with its group).
fn reserves(cont: &Container, fields: &[Field]) -> bool {
    fields.iter().any(|f| match &f.kind {
        FieldKind::Derived(d) => d.source.target().is_some() || grouped(cont, d),
        _ => false,
    })
}

/// Binds a stored field for the expressions after it (see `common::bind_local`).
fn bind_field(f: &Field) -> Option<TokenStream> {
    let member = &f.member;
    match &f.kind {
        FieldKind::Data(_) | FieldKind::Kept | FieldKind::Skip | FieldKind::SplitTail => {
            Some(bind_local(&f.local, &quote!(self.#member), f.ty))
        }
        FieldKind::ReadCalc(_) | FieldKind::Derived(_) => None,
    }
}

/// The kept record, if the struct has one.
fn kept_expr(cont: &Container) -> Option<TokenStream> {
    cont.kept_field().map(|k| {
        let member = &k.member;
        quote!((&self.#member))
    })
}

/// The kept entry of `slot` (an expression of type `u16`), if the struct keeps one.
fn kept_entry(cont: &Container, slot: &TokenStream) -> TokenStream {
    let p = cont.rt.private();
    match kept_expr(cont) {
        Some(kept) => quote!(#kept.get(#slot)),
        None => quote!(#p::None),
    }
}

/// Statements writing the struct: every field in order, placed parts where
/// their fields come (their region lays them out), the values derived from
/// where things land reserved.
fn struct_body(cont: &Container, fields: &[Field]) -> TokenStream {
    let p = cont.rt.private();
    let w = names::writer();
    let ctx = context_bindings(&w);
    let start = bind_start(&w);
    let all_fields: Vec<TokenStream> = fields.iter().filter_map(bind_field).collect();
    // Invariants first, each seeing every field.
    let asserts = fields.iter().flat_map(|f| {
        let name = &f.name;
        let all = &all_fields;
        match &f.kind {
            FieldKind::Data(d) => d
                .asserts
                .iter()
                .map(|a| {
                    let (cond, message) = (&a.cond, &a.message);
                    // `identity::<bool>`: a condition of another type is
                    // reported at the condition, not at the derive.
                    quote! {{
                        #(#all)*
                        if !::core::convert::identity::<bool>(#cond) {
                            return ::core::result::Result::Err(#p::assertion(#w, #name, #message));
                        }
                    }}
                })
                .collect::<Vec<_>>()
                .into_iter()
                .chain(d.split.as_ref().map(|split| {
                    // Before anything is written, and outside the list's
                    // own path: the tails disagree, not the list.
                    let core = cont.rt.core();
                    let (local, tails) = (&f.local, &split.tails);
                    let tails_name = tails.to_string();
                    let (cond, text) = match &split.cond {
                        Some(c) => (quote!((#c)), crate::common::expr_text(c)),
                        None => (quote!(true), "true".to_string()),
                    };
                    quote! {{
                        #(#all)*
                        #core::records::check_split(#w, #local.len(), #tails.len(), #cond, #tails_name, #text)?;
                    }}
                }))
                .collect::<Vec<_>>(),
            _ => Vec::new(),
        }
    });
    // Computed values are worked out first, each seeing every stored field
    // (`calc = keys.len()` looks ahead), in a scope of its own.
    let calcs = fields.iter().filter_map(|f| {
        let FieldKind::Derived(d) = &f.kind else {
            return None;
        };
        let Source::Calc(expr) = &d.source else {
            return None;
        };
        let hidden = names::calc(&f.local);
        let disk_ty = d.disk_ty;
        let name = &f.name;
        let all = &all_fields;
        let value = quote! {
            <#disk_ty as ::core::convert::TryFrom<_>>::try_from(#expr)
                .map_err(|_| #p::calc_overflow(#w, #name))?
        };
        // A value that is not written (its `if` does not hold) is not
        // computed: it need not fit its type.
        let value = match &d.cond {
            Some(cond) => quote! {
                if #cond { #value } else { ::core::default::Default::default() }
            },
            None => value,
        };
        Some(quote! {
            let #hidden: #disk_ty = {
                #(#all)*
                #value
            };
        })
    });
    let has_parent = fields.iter().any(|f| {
        matches!(&f.kind, FieldKind::Derived(d) if matches!(d.source.target(), Some(Target::Parent { .. })))
    });
    let has_group = fields
        .iter()
        .any(|f| matches!(&f.kind, FieldKind::Derived(d) if grouped(cont, d)));
    let (group, parent_group) = (names::group(), names::parent_group());
    let groups = [
        has_group.then(|| quote!(let #group = #p::new_group(#w);)),
        has_parent.then(|| quote!(let #parent_group = #p::new_group(#w);)),
    ];
    let writes = fields.iter().map(|f| field_write(cont, fields, f));
    let reserved = group_reserve(cont, fields);
    quote! {
        #ctx
        #start
        #(#asserts)*
        #(#calcs)*
        #(#groups)*
        #(#writes)*
        #reserved
        ::core::result::Result::Ok(())
    }
}

fn field_write(cont: &Container, fields: &[Field], f: &Field) -> TokenStream {
    let p = cont.rt.private();
    let error_id = names::error();
    let core = cont.rt.core();
    let w = names::writer();
    let name = &f.name;
    let local = &f.local;
    let member = &f.member;
    match &f.kind {
        FieldKind::Skip | FieldKind::Kept | FieldKind::ReadCalc(_) => quote!(),
        // Written with the list whose records it completes.
        FieldKind::SplitTail => {
            let bind = bind_field(f);
            quote!(#bind)
        }
        FieldKind::Derived(d) => {
            let write = derived_write(cont, f, d);
            let slot_var = names::slot(local);
            match &d.cond {
                None => write,
                Some(cond) if has_slot(cont, d) => quote! {
                    let #slot_var = if #cond {
                        #write
                        #slot_var
                    } else {
                        #p::None
                    };
                },
                Some(cond) => quote! {
                    if #cond {
                        #write
                    }
                },
            }
        }
        FieldKind::Data(d) => {
            let bind = bind_field(f);
            let ctx = context_bindings(&w);
            let sets_version = d.sets_version.then(|| {
                quote! {
                    #w.ctx_mut().version = ::core::convert::Into::<u32>::into(
                        ::core::clone::Clone::clone(&self.#member),
                    );
                    #ctx
                }
            });
            if d.placed {
                let write = placed_write(cont, fields, f, d);
                return quote!(#write #bind);
            }
            let write = data_write(cont, d, name, &quote!(&self.#member));
            let (at, end) = (names::field_start(local), names::field_end(local));
            let (mark, mark_end) = names::anchor_marks(local);
            let count = quote!(#p::AnchorList::anchor_count(&*#w));
            let before = [
                d.marked.then(|| quote!(let #at = #w.pos();)),
                d.anchored.then(|| quote!(let #mark = #count;)),
            ];
            let after = [
                d.marked.then(|| quote!(let #end = #w.pos();)),
                d.anchored.then(|| quote!(let #mark_end = #count;)),
            ];
            quote! {
                #(#before)*
                (|#w: &mut #core::Writer| -> #core::Result<()> { #write })(#w)
                    .map_err(|#error_id| #error_id.in_field(#name))?;
                #(#after)*
                #bind
                #sets_version
            }
        }
    }
}

/// True for the derived values reserved at the end of the struct, kept or
/// derived together (see `Kept`): the struct's counts (`u32` ones, with a
/// `kept` field) and the offsets and sizes of what it writes in sequence.
fn grouped(cont: &Container, d: &DerivedField) -> bool {
    match d.source.target() {
        None => {
            cont.kept_field().is_some()
                && d.array.is_none()
                && crate::model::is_named(d.disk_ty, "u32")
        }
        Some(Target::Field { placed, .. }) => !placed,
        Some(Target::Tagged { .. }) => true,
        Some(Target::Parent { .. }) => false,
    }
}

/// True for the derived values whose reserved slots a later statement takes
/// (`Option<SizeSlot>`, or `Option<[SizeSlot; N]>` for a table): the grouped
/// ones, and the offsets and sizes of placed fields.
fn has_slot(cont: &Container, d: &DerivedField) -> bool {
    grouped(cont, d) || matches!(d.source.target(), Some(Target::Field { placed: true, .. }))
}

/// Writing a derived field: a computed value, or the reserved slot(s) of an offset or size.
fn derived_write(cont: &Container, f: &Field, d: &DerivedField) -> TokenStream {
    let error_id = names::error();
    let reserved_id = names::reserved();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let name = &f.name;
    let local = &f.local;
    let slot = d.slot;
    let disk_ty = d.disk_ty;
    let slot_var = names::slot(local);
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    match &d.source {
        Source::Calc(_) if grouped(cont, d) => {
            let hidden = names::calc(local);
            quote! {
                #[allow(unused_variables)]
                let #local: #disk_ty = #hidden;
                let #slot_var = #p::Some(#w.reserve_u32());
            }
        }
        Source::Calc(_) => {
            let hidden = names::calc(local);
            let value = match kept_expr(cont) {
                Some(kept) => quote!(#p::kept_calc(#kept, #slot, #hidden)),
                None => quote!(#hidden),
            };
            quote! {
                #[allow(unused_variables)]
                let #local: #disk_ty = #value;
                <#disk_ty as #core::Encode>::encode(&#local, #w, ())
                    .map_err(|#error_id| #error_id.in_field(#name))?;
            }
        }
        Source::Offset { of, .. } | Source::Size { of, .. } => match of {
            Target::Parent { tag, nth } => {
                let tag = tag_expr(cont, tag);
                let nth = match nth {
                    Some(n) => quote!(#some(#n)),
                    None => none.clone(),
                };
                let (base, minus) = match &d.source {
                    Source::Offset { from, .. } => (quote!(#some(#from)), quote!(0usize)),
                    Source::Size { body, .. } => (
                        none.clone(),
                        if *body {
                            quote!(8usize)
                        } else {
                            quote!(0usize)
                        },
                    ),
                    Source::Calc(_) => (none.clone(), quote!(0usize)),
                };
                let kept = kept_entry(cont, &quote!(#slot));
                let parent_group = names::parent_group();
                quote! {
                    let #reserved_id = #w.reserve_u32();
                    #p::reserve(
                        #w,
                        #some(#reserved_id),
                        #p::Target::Sibling(#p::SiblingTarget { tag: #tag, nth: #nth, base: #base, minus: #minus }),
                        #kept,
                        #parent_group,
                    );
                }
            }
            _ => match d.array {
                Some(n) => quote! {
                    let #slot_var: #p::Option<[#core::SizeSlot; #n]> =
                        #p::Some(::core::array::from_fn(|_| #w.reserve_u32()));
                },
                None => quote!(let #slot_var = #p::Some(#w.reserve_u32());),
            },
        },
    }
}

/// After the fields: the counts, and the offsets and sizes of fields and
/// list elements written in sequence, reserved as one group (kept as read
/// while every one of them still derives to what it did), resolved when the
/// struct's scope ends.
fn group_reserve(cont: &Container, fields: &[Field]) -> TokenStream {
    let entry_id = names::entry();
    let p = cont.rt.private();
    let w = names::writer();
    let group = names::group();
    let target_id = names::target();
    let reserves = fields.iter().filter_map(|f| {
        let FieldKind::Derived(d) = &f.kind else {
            return None;
        };
        if !grouped(cont, d) {
            return None;
        }
        let slot_var = names::slot(&f.local);
        let slot = d.slot;
        Some(match d.array {
            Some(_) => {
                let target = sequential_target(cont, d, Some(&quote!(#entry_id)));
                let kept = kept_entry(cont, &quote!(#slot + #entry_id as u16));
                quote! {
                    for #entry_id in 0..#slot_var.map_or(0, |s| s.len()) {
                        let #target_id = #target;
                        #p::reserve(#w, #slot_var.and_then(|s| s.get(#entry_id).copied()), #target_id, #kept, #group);
                    }
                }
            }
            None => {
                let target = match &d.source {
                    Source::Calc(_) => {
                        let local = &f.local;
                        quote!(#p::Target::Value(#p::Some(#local)))
                    }
                    _ => sequential_target(cont, d, None),
                };
                let kept = kept_entry(cont, &quote!(#slot));
                quote! {
                    let #target_id = #target;
                    #p::reserve(#w, #slot_var, #target_id, #kept, #group);
                }
            }
        })
    });
    quote!(#(#reserves)*)
}

/// The target of an offset or size of what the struct writes in sequence:
/// a field (an element of it, for a table), or a tagged element of a list.
fn sequential_target(
    cont: &Container,
    d: &DerivedField,
    index: Option<&TokenStream>,
) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let some = quote!(::core::option::Option::Some);
    let none = quote!(::core::option::Option::None);
    let (of, base, minus) = match &d.source {
        Source::Offset { of, from } => (of, quote!(#some(#from)), quote!(0usize)),
        Source::Size { of, body } => (
            of,
            none.clone(),
            if *body {
                quote!(8usize)
            } else {
                quote!(0usize)
            },
        ),
        Source::Calc(_) => return quote!(#p::Target::Value(#none)),
    };
    let anchors = |mark: &syn::Ident, end: &syn::Ident| quote!(#p::AnchorList::anchor_slice(&*#w, #mark, #end));
    match of {
        Target::Field { ident, .. } => match index {
            Some(i) => {
                let (mark, end) = names::anchor_marks(ident);
                let list = anchors(&mark, &end);
                quote!(#p::anchor_target(#core::anchor::at(#list, #i), #base, #minus))
            }
            None => {
                let (at, end) = (names::field_start(ident), names::field_end(ident));
                quote!(#p::span(#at, #end - #at, #base, #minus))
            }
        },
        Target::Tagged { list, tag, nth } => {
            let (mark, end) = names::anchor_marks(list);
            let list = anchors(&mark, &end);
            let tag = tag_expr(cont, tag);
            let found = match nth {
                None => quote!(#core::anchor::first(#list, #tag)),
                Some(n) => quote!(#core::anchor::nth(#list, #tag, #n)),
            };
            quote!(#p::anchor_target(#found, #base, #minus))
        }
        // Not grouped: reserved where the field is written.
        Target::Parent { .. } => quote!(#p::Target::Value(#none)),
    }
}

/// Writing one placed field where the writer is, as a part of the innermost
/// region, and reserving its offset (and size) for when the region is laid out.
fn placed_write(cont: &Container, fields: &[Field], f: &Field, d: &DataField) -> TokenStream {
    let base_id = names::base();
    let entry_id = names::entry();
    let run_id = names::run();
    let value_id = names::value();
    let error_id = names::error();
    let element_id = names::element();
    let part_id = names::part();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let name = &f.name;
    let member = &f.member;
    let Some(by) = placed_by(fields, f) else {
        return quote!();
    };
    let args = args_value(d.args.as_ref());
    let from = by.from;
    let ofs_slot = names::slot(&by.offset.local);
    let ofs_kept = by.offset_derived.slot;
    let size = by.size.map(|(s, sd)| (names::slot(&s.local), sd.slot));
    let slot_of = |slot: &syn::Ident, i: Option<&TokenStream>| match i {
        Some(i) => quote!(#slot.and_then(|s| s.get(#i).copied())),
        None => quote!(#slot),
    };
    let alone = quote!(#p::Group::ALONE);
    // A part written here, its offset (and size) reserved.
    let one = |write: TokenStream, i: Option<&TokenStream>| {
        let ofs = slot_of(&ofs_slot, i);
        let size_reserve = size.as_ref().map(|(s, _)| {
            let s = slot_of(s, i);
            quote!(#p::reserve(#w, #s, #p::Target::Part { part: #part_id, base: #p::None }, #p::None, #alone);)
        });
        quote! {{
            let #part_id = #p::part(#w, |#w| #write)?;
            #p::reserve(#w, #ofs, #p::Target::Part { part: #part_id, base: #p::Some(#base_id) }, #p::None, #alone);
            #size_reserve
        }}
    };
    let write_one = |ty: &Type, value: TokenStream| match generic_arg(ty, "Vec") {
        Some(inner) => quote!(<#inner as #core::Encode>::encode_many(#value, #w, #args)),
        None => quote!(<#ty as #core::Encode>::encode(#value, #w, #args)),
    };
    // An absent part: its offset (and size) as kept while it stays absent, else 0.
    let absent = |i: Option<&TokenStream>| {
        let ofs = slot_of(&ofs_slot, i);
        let k = |slot: u16| match i {
            Some(i) => kept_entry(cont, &quote!(#slot + #i as u16)),
            None => kept_entry(cont, &quote!(#slot)),
        };
        let ofs_k = k(ofs_kept);
        let size_reserve = size.as_ref().map(|(s, sk)| {
            let s = slot_of(s, i);
            let sk = k(*sk);
            quote!(#p::reserve(#w, #s, #p::Target::Value(#p::None), #sk, #alone);)
        });
        quote! {
            #p::reserve(#w, #ofs, #p::Target::Value(#p::None), #ofs_k, #alone);
            #size_reserve
        }
    };
    let is_option = generic_arg(f.ty, "Option").is_some();
    let body = match &d.value {
        ValueSpec::Vec {
            elem,
            len: Len::Table,
            ..
        } => {
            let n = by.offset_derived.array.unwrap_or(0);
            let i = quote!(#entry_id);
            let present = one(write_one(elem, quote!(#element_id)), Some(&i));
            let missing = absent(Some(&i));
            quote! {
                if self.#member.len() > #n {
                    return ::core::result::Result::Err(#p::too_many(#w, #name, self.#member.len(), #n));
                }
                for #entry_id in 0..#n {
                    match self.#member.get(#entry_id) {
                        ::core::option::Option::Some(#element_id) => #present,
                        ::core::option::Option::None => { #missing }
                    }
                }
            }
        }
        ValueSpec::Vec { elem, .. } => {
            let missing = absent(None);
            let run = one(
                quote!(<#elem as #core::Encode>::encode_many(#run_id, #w, #args)),
                None,
            );
            if is_option {
                quote! {
                    match &self.#member {
                        ::core::option::Option::Some(#run_id) => #run,
                        ::core::option::Option::None => { #missing }
                    }
                }
            } else {
                quote! {
                    if self.#member.is_empty() {
                        #missing
                    } else {
                        let #run_id = &self.#member;
                        #run
                    }
                }
            }
        }
        ValueSpec::Single if is_option => {
            let present = one(write_one(d.value_ty, quote!(#value_id)), None);
            let missing = absent(None);
            quote! {
                match &self.#member {
                    ::core::option::Option::Some(#value_id) => #present,
                    ::core::option::Option::None => { #missing }
                }
            }
        }
        ValueSpec::Single => one(write_one(d.value_ty, quote!(&self.#member)), None),
    };
    quote! {
        (|#w: &mut #core::Writer| -> #core::Result<()> {
            let #base_id: usize = #from;
            #body
            ::core::result::Result::Ok(())
        })(#w)
        .map_err(|#error_id| #error_id.in_field(#name))?;
    }
}

/// Statements of type `Result<()>` writing one data field from `value` (a reference).
fn data_write(cont: &Container, d: &DataField, name: &str, value: &TokenStream) -> TokenStream {
    let value_id = names::value();
    let p = cont.rt.private();
    let w = names::writer();
    let inner = |v: TokenStream| {
        let tag = d.tag.as_ref().map(|t| {
            let tag = tag_expr(cont, t);
            quote!(#w.tag(#tag);)
        });
        let write = value_write(cont, d, name, &v);
        quote!({ #tag #write })
    };
    let read_only = d.read_cond.is_some();
    match (&d.cond, d.optional || read_only) {
        (None, false) => inner(value.clone()),
        (None, true) => {
            let write = inner(quote!(#value_id));
            quote! {
                match #value {
                    ::core::option::Option::Some(#value_id) => #write,
                    ::core::option::Option::None => ::core::result::Result::Ok(()),
                }
            }
        }
        (Some(cond), optional) => {
            let write = inner(quote!(#value_id));
            let cond_text = expr_text(cond);
            let absent_ok = if optional {
                quote!(::core::result::Result::Ok(()))
            } else {
                quote!(::core::result::Result::Err(#p::gate_mismatch(#w, #name, #cond_text, false)))
            };
            quote! {
                match (#value, #cond) {
                    (::core::option::Option::Some(#value_id), true) => #write,
                    (::core::option::Option::None, false) => ::core::result::Result::Ok(()),
                    (::core::option::Option::Some(_), false) => {
                        ::core::result::Result::Err(#p::gate_mismatch(#w, #name, #cond_text, true))
                    }
                    (::core::option::Option::None, true) => #absent_ok,
                }
            }
        }
    }
}

fn value_write(cont: &Container, d: &DataField, name: &str, v: &TokenStream) -> TokenStream {
    let count_id = names::count();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let args = args_value(d.args.as_ref());
    let ty = d.value_ty;
    if let Some(write) = &d.write_with {
        return hook_call(write, v, &w, d.args.as_ref());
    }
    let ValueSpec::Vec { elem, len, .. } = &d.value else {
        return quote!(<#ty as #core::Encode>::encode(#v, #w, #args));
    };
    if let Some(split) = &d.split {
        return split_write(cont, split, elem, len, name, v);
    }
    let index = names::expr::index();
    let each = (d.anchored || d.indexed()).then(|| {
        let anchored = d.anchored;
        quote!(#p::encode_each::<#elem, _>(#v, #w, |#index: usize| #args, #anchored))
    });
    match len {
        Len::Prefix(c) => match each {
            Some(each) => quote! {{
                <#c as #p::CountPrefix>::write(#w, (#v).len(), #name)?;
                #each
            }},
            None => quote!(#p::encode_prefixed::<#c, #elem>(#w, #v, #args, #name)),
        },
        Len::Expr(e) => {
            let write = each
                .unwrap_or_else(|| quote!(<#elem as #core::Encode>::encode_many(#v, #w, #args)));
            quote! {{
                let #count_id = #p::count_value(#e, #w.pos())?;
                #p::check_len(#w, #name, (#v).len(), #count_id)?;
                #write
            }}
        }
        Len::Stride(n) => match each {
            Some(each) => quote!(#p::check_stride(#w, #name, #n, |#w| #each)),
            None => quote!(#p::encode_stride::<#elem>(#w, #v, #n, #args, #name)),
        },
        Len::UntilEnd | Len::Tagged | Len::Table => {
            each.unwrap_or_else(|| quote!(<#elem as #core::Encode>::encode_many(#v, #w, #args)))
        }
    }
}

/// A list of records split in two arrays (`split(tails, if = ..)`): its
/// count, then each record's head and (when the condition holds) its tail.
fn split_write(
    cont: &Container,
    split: &crate::model::Split,
    elem: &Type,
    len: &Len,
    name: &str,
    v: &TokenStream,
) -> TokenStream {
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let count_id = names::count();
    let Some(tail) = split.tail_elem else {
        // Reported by the checks.
        return quote!(::core::result::Result::Ok(()));
    };
    let tails = &split.tails;
    let tails_name = tails.to_string();
    let (cond, cond_text) = match &split.cond {
        Some(c) => (quote!((#c)), expr_text(c)),
        None => (quote!(true), "true".to_string()),
    };
    let count = match len {
        Len::Prefix(c) => quote!(<#c as #p::CountPrefix>::write(#w, (#v).len(), #name)?;),
        Len::Expr(e) => quote! {
            let #count_id = #p::count_value(#e, #w.pos())?;
            #p::check_len(#w, #name, (#v).len(), #count_id)?;
        },
        // Reported by the checks (a split list has a count).
        _ => quote!(),
    };
    quote! {{
        #count
        #core::records::encode_split::<#elem, #tail>(#w, #v, &self.#tails, #cond, #tails_name, #cond_text)
    }}
}

/// A hook call: `f(value, writer, args...)`, the arguments from the call
/// written in the attribute (`write_with = f(a, b)`) or the field's `args`.
pub fn hook_call(
    hook: &syn::Expr,
    first: &TokenStream,
    io: &syn::Ident,
    args: Option<&Vec<syn::Expr>>,
) -> TokenStream {
    // Spanned at the hook (as the read hook is): a hook of the wrong type is
    // reported there, not at the derive.
    let span = syn::spanned::Spanned::span(hook);
    let mut value = names::hook_value();
    value.set_span(span);
    let call = match hook {
        syn::Expr::Call(call) => {
            let func = &call.func;
            let extra = call.args.iter();
            quote::quote_spanned!(span=> (#func)(#value, #io #(, #extra)*))
        }
        _ => {
            let extra = args.into_iter().flatten();
            quote::quote_spanned!(span=> (#hook)(#value, #io #(, #extra)*))
        }
    };
    quote!({
        let #value = #first;
        #call
    })
}

fn tag_enum_body(cont: &Container, variants: &[TagVariant]) -> TokenStream {
    let value_id = names::value();
    let error_id = names::error();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let ctx = context_bindings(&w);
    let arms = variants.iter().map(|v| {
        let ident = v.ident;
        let ty = v.ty;
        let args = args_value(v.args.as_ref());
        let name = ident.to_string();
        let gate = v.cond.as_ref().map(|c| {
            let text = expr_text(c);
            quote! {
                if !(#c) {
                    return ::core::result::Result::Err(#p::variant_gate(#w, #name, #text));
                }
            }
        });
        let write = match &v.dispatch {
            Dispatch::Tag(t) => {
                let tag = tag_expr(cont, t);
                quote! {
                    #w.tag(#tag);
                    <#ty as #core::Encode>::encode(#value_id, #w, #args).map_err(|#error_id| #error_id.in_tag(#tag))
                }
            }
            Dispatch::Chunk(t) => {
                let tag = tag_expr(cont, t);
                quote! {
                    #w.chunk(#tag, |#w| <#ty as #core::Encode>::encode(#value_id, #w, #args))
                        .map_err(|#error_id| #error_id.in_tag(#tag))
                }
            }
            // The type writes its own tag and names it in its errors.
            Dispatch::Inner | Dispatch::Unknown | Dispatch::NotRead => {
                quote!(<#ty as #core::Encode>::encode(#value_id, #w, #args))
            }
        };
        quote! {
            Self::#ident(#value_id) => {
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

fn cond_enum_body(cont: &Container, variants: &[CondVariant]) -> TokenStream {
    let value_id = names::value();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let ctx = context_bindings(&w);
    let arms = variants.iter().map(|v| {
        let (ident, ty, when) = (v.ident, v.ty, &v.when);
        let args = args_value(v.args.as_ref());
        let name = ident.to_string();
        let text = expr_text(when);
        // A `read_when` looks at the input: the variant held is written.
        let gate = (!v.read_only).then(|| {
            quote! {
                if !(#when) {
                    return ::core::result::Result::Err(#p::variant_gate(#w, #name, #text));
                }
            }
        });
        quote! {
            Self::#ident(#value_id) => {
                #gate
                <#ty as #core::Encode>::encode(#value_id, #w, #args)
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

fn value_enum_body(cont: &Container, repr: &syn::Ident, variants: &[ValueVariant]) -> TokenStream {
    let value_id = names::value();
    let number_id = names::number();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let consts = discriminant_consts(repr, variants);
    let arms = variants.iter().enumerate().map(|(i, v)| {
        let ident = v.ident;
        if v.unknown {
            let name = ident.to_string();
            let checks = variants.iter().enumerate().filter(|(_, k)| !k.unknown).map(|(j, k)| {
                let d = names::discriminant(j);
                let known = k.ident.to_string();
                quote! {
                    if *#value_id == #d {
                        return ::core::result::Result::Err(#p::unknown_holds_known(#w, #name, #known));
                    }
                }
            });
            quote!(Self::#ident(#value_id) => { #(#checks)* *#value_id })
        } else {
            let d = names::discriminant(i);
            quote!(Self::#ident => #d,)
        }
    });
    quote! {
        #consts
        let #number_id: #repr = match self {
            #(#arms)*
        };
        <#repr as #core::Encode>::encode(&#number_id, #w, ())
    }
}
