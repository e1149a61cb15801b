//! Generates `impl Encode`, the mirror of `de`: same field order; counts,
//! offsets and sizes derived from the data; presence checked against the
//! context; parts placed by offset written after the inline part, their
//! offsets reserved first and patched as they land.

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
    TagVariant, Target, ValueSpec, ValueVariant, generic_arg, is_scalar,
};
use crate::names;

pub fn expand(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let ident = cont.ident;
    let (ig, tg, wc) = split_generics(cont, &quote!(#core::Encode<Args = ()>));
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

/// True for types whose values cannot place parts (so no placing phase is generated).
fn never_places(ty: &Type) -> bool {
    is_scalar(ty) || matches!(ty, Type::Array(_))
}

/// The type whose placing phase a data field forwards to, if any.
fn placing_type<'a>(d: &'a DataField<'a>) -> Option<&'a Type> {
    if d.write_with.is_some() || d.placed {
        return None;
    }
    let ty = match &d.value {
        ValueSpec::Single => d.value_ty,
        ValueSpec::Vec { elem, .. } => elem,
    };
    (!never_places(ty)).then_some(ty)
}

fn struct_items(cont: &Container, fields: &[Field]) -> TokenStream {
    let slot_mark_id = names::slot_mark();
    let owned_slots_id = names::owned_slots();
    let core = cont.rt.core();
    let (w, args) = (names::writer(), names::args());
    let bind = bind_args(cont);
    let has_placed = cont.has_placed();
    let whole = cont.framed() || cont.region.is_some();
    let slots = names::slots();
    if whole {
        // The placed parts stay inside the frame (or region): inline part,
        // then placed parts, in one function.
        let inline = inline_body(cont, fields, false);
        let placed = placed_body(cont, fields, false);
        let region = names::region();
        let (begin, inline_end, end) = match (cont.region, cont.kept_field()) {
            (Some(_), Some(kept)) => {
                let member = &kept.member;
                (
                    quote!(let #region = #w.begin_region();),
                    quote!(#w.region_inline_end();),
                    quote!(#w.end_region(#region, self.#member.placement())?;),
                )
            }
            _ => (quote!(), quote!(), quote!()),
        };
        let body = framed(
            cont,
            quote! {
                #begin
                let #slot_mark_id = #w.slot_mark();
                #inline
                #inline_end
                let mut #owned_slots_id = #core::Slots::from_mark(#slot_mark_id);
                let #slots = &mut #owned_slots_id;
                #placed
                #w.truncate_slots(#slot_mark_id);
                #end
                ::core::result::Result::Ok(())
            },
        );
        return quote! {
            fn encode(&self, #w: &mut #core::Writer, #args: Self::Args) -> #core::Result<()> {
                #bind
                #body
            }
        };
    }
    let places = {
        // A field of the type itself (`kids: Vec<Node>`) adds nothing to
        // whether it places (its `PLACES` is this one), and naming it here
        // would make the constant depend on itself.
        let parts = fields.iter().filter_map(|f| match &f.kind {
            FieldKind::Data(d) => placing_type(d)
                .filter(|ty| !crate::common::mentions(ty, cont.ident))
                .map(|ty| quote!(<#ty as #core::Encode>::PLACES)),
            _ => None,
        });
        quote!(#has_placed #(|| #parts)*)
    };
    let inline = inline_body(cont, fields, has_placed);
    let placed = placed_body(cont, fields, has_placed);
    quote! {
        const PLACES: bool = #places;

        fn encode(&self, #w: &mut #core::Writer, #args: Self::Args) -> #core::Result<()> {
            if <Self as #core::Encode>::PLACES {
                let #slot_mark_id = #w.slot_mark();
                self.encode_inline(#w, ::core::clone::Clone::clone(&#args))?;
                let mut #owned_slots_id = #core::Slots::from_mark(#slot_mark_id);
                self.encode_placed(#w, #args, &mut #owned_slots_id)?;
                #w.truncate_slots(#slot_mark_id);
                ::core::result::Result::Ok(())
            } else {
                self.encode_inline(#w, #args)
            }
        }

        fn encode_inline(&self, #w: &mut #core::Writer, #args: Self::Args) -> #core::Result<()> {
            #bind
            #inline
            ::core::result::Result::Ok(())
        }

        fn encode_placed(
            &self,
            #w: &mut #core::Writer,
            #args: Self::Args,
            #slots: &mut #core::Slots,
        ) -> #core::Result<()> {
            #bind
            #placed
            ::core::result::Result::Ok(())
        }
    }
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

/// Statements writing the inline part: every field read in sequence, with
/// the slots of offsets and sizes reserved.
fn inline_body(cont: &Container, fields: &[Field], push_start: bool) -> TokenStream {
    let p = cont.rt.private();
    let w = names::writer();
    let ctx = context_bindings(&w);
    let start = bind_start(&w);
    let start_var = names::start();
    let push_start = push_start.then(|| quote!(#w.push_pos(#start_var);));
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
    let anchored = fields
        .iter()
        .any(|f| matches!(&f.kind, FieldKind::Data(d) if d.anchored));
    let anchor_base = names::anchor_base();
    let anchor_mark = anchored.then(|| quote!(let #anchor_base = #w.anchor_mark();));
    let release = anchored.then(|| quote!(#w.truncate_anchors(#anchor_base);));
    let writes = fields.iter().map(|f| field_write(cont, f));
    let patches = group_patch(cont, fields);
    let has_parent = fields.iter().any(|f| {
        matches!(&f.kind, FieldKind::Derived(d) if matches!(d.source.target(), Some(Target::Parent { .. })))
    });
    let group = names::group();
    let new_group = has_parent.then(|| quote!(let #group = #w.new_group();));
    quote! {
        #ctx
        #start
        #push_start
        #(#asserts)*
        #(#calcs)*
        #new_group
        #anchor_mark
        #(#writes)*
        #patches
        #release
    }
}

fn field_write(cont: &Container, f: &Field) -> TokenStream {
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
            match &d.cond {
                None => write,
                Some(cond) if grouped(cont, d) => {
                    let slot_var = names::slot(local);
                    quote! {
                        let #slot_var = if #cond {
                            #write
                            #slot_var
                        } else {
                            #p::None
                        };
                    }
                }
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
                return quote!(#bind);
            }
            let write = data_write(cont, d, name, &quote!(&self.#member));
            let (at, end) = (names::field_start(local), names::field_end(local));
            let (mark, mark_end) = names::anchor_marks(local);
            let before = [
                d.marked.then(|| quote!(let #at = #w.pos();)),
                d.anchored.then(|| quote!(let #mark = #w.anchor_mark();)),
            ];
            let after = [
                d.marked.then(|| quote!(let #end = #w.pos();)),
                d.anchored
                    .then(|| quote!(let #mark_end = #w.anchor_mark();)),
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

/// True for the derived values written at the end of the inline part, kept
/// or derived together (see `Kept`): the struct's counts (`u32` ones, with a
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
        Source::Offset { of, .. } | Source::Size { of, .. } => {
            let n = d.array.unwrap_or(1);
            match of {
                Target::Field { placed: true, .. } => quote! {
                    for _ in 0..#n {
                        let #reserved_id = #w.reserve_u32();
                        #w.push_slot(#reserved_id);
                    }
                },
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
                    let kept = match kept_expr(cont) {
                        Some(kept) => quote!(#kept.get(#slot)),
                        None => none.clone(),
                    };
                    let group = names::group();
                    quote! {
                        let #reserved_id = #w.reserve_u32();
                        #w.defer_to_sibling(
                            #reserved_id,
                            #core::SiblingTarget { tag: #tag, nth: #nth, base: #base, minus: #minus },
                            #kept,
                            #group,
                        ).map_err(|#error_id| #error_id.in_field(#name))?;
                    }
                }
                _ => match d.array {
                    Some(n) => quote! {
                        let #slot_var: #p::Option<[#core::SizeSlot; #n]> =
                            #p::Some(::core::array::from_fn(|_| #w.reserve_u32()));
                    },
                    None => quote!(let #slot_var = #p::Some(#w.reserve_u32());),
                },
            }
        }
    }
}

/// After the inline fields: the counts, and the offsets and sizes of fields
/// and list elements written in sequence, patched from where they landed,
/// as read while every one of them still derives to what it did.
fn group_patch(cont: &Container, fields: &[Field]) -> TokenStream {
    let entry_id = names::entry();
    let raw_id = names::raw();
    let keep_id = names::keep();
    let patch_slots_id = names::patch_slots();
    let number_id = names::number();
    let kept_slot_id = names::kept_slot();
    let p = cont.rt.private();
    let w = names::writer();
    let members: Vec<(&Field, &DerivedField)> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            FieldKind::Derived(d) if grouped(cont, d) => Some((f, &**d)),
            _ => None,
        })
        .collect();
    if members.is_empty() {
        return TokenStream::new();
    }
    let now = |f: &Field, d: &DerivedField, index: Option<TokenStream>| match &d.source {
        Source::Calc(_) => {
            let local = &f.local;
            quote!(#p::Some(#local))
        }
        _ => crate::common::sequential_value(cont, d, index.as_ref(), &w),
    };
    let nows = members.iter().map(|(f, d)| {
        let var = names::now(&f.local);
        match d.array {
            Some(n) => {
                let value = now(f, d, Some(quote!(#entry_id)));
                quote!(let #var: [#p::Option<u32>; #n] = ::core::array::from_fn(|#entry_id| #value);)
            }
            None => {
                let value = now(f, d, None);
                quote!(let #var: #p::Option<u32> = #value;)
            }
        }
    });
    // The group's (slot, value now) pairs, in slot order: an array on the
    // stack, its elements known here.
    let pairs = members.iter().flat_map(|(f, d)| {
        let var = names::now(&f.local);
        let slot = d.slot;
        match d.array {
            Some(n) => (0..n)
                .map(|i| {
                    let at = slot + i as u16;
                    quote!((#at, #var[#i]))
                })
                .collect::<Vec<_>>(),
            None => vec![quote!((#slot, #var))],
        }
    });
    let keep = match kept_expr(cont) {
        Some(kept) => quote! {
            !#kept.values().is_empty() && #kept.unchanged(&[#(#pairs),*])
        },
        None => quote!(false),
    };
    let value = |slot: TokenStream, now: TokenStream| match kept_expr(cont) {
        Some(kept) => quote! {
            match #kept.raw(#slot) {
                #p::Some(#raw_id) if #keep_id => #raw_id,
                _ => #now.unwrap_or(0),
            }
        },
        None => quote!(#now.unwrap_or(0)),
    };
    let patches = members.iter().map(|(f, d)| {
        let var = names::now(&f.local);
        let slot_var = names::slot(&f.local);
        let slot = d.slot;
        match d.array {
            Some(n) => {
                let v = value(quote!(#slot + #entry_id as u16), quote!(#var[#entry_id]));
                quote! {
                    if let #p::Some(#patch_slots_id) = #slot_var {
                        for #entry_id in 0..#n {
                            let #number_id: u32 = #v;
                            #w.patch_u32(#patch_slots_id[#entry_id], #number_id)?;
                        }
                    }
                }
            }
            None => {
                let v = value(quote!(#slot), quote!(#var));
                quote! {
                    if let #p::Some(#kept_slot_id) = #slot_var {
                        let #number_id: u32 = #v;
                        #w.patch_u32(#kept_slot_id, #number_id)?;
                    }
                }
            }
        }
    });
    quote! {
        #(#nows)*
        let #keep_id: bool = #keep;
        #(#patches)*
    }
}

/// Statements writing the placed parts: the fields' own placing phases, then
/// each placed field where the writer is, its offset and size patched.
fn placed_body(cont: &Container, fields: &[Field], take_start: bool) -> TokenStream {
    let value_id = names::value();
    let error_id = names::error();
    let element_id = names::element();
    let element_error_id = names::element_error();
    let start_id = names::expr::start();
    let core = cont.rt.core();
    let p = cont.rt.private();
    let w = names::writer();
    let slots = names::slots();
    let ctx = context_bindings(&w);
    let start_var = names::start();
    let start = take_start.then(|| {
        quote! {
            #[allow(unused_variables)]
            let #start_var: usize = #slots.take_pos(#w)?;
            #[allow(unused_variables)]
            let #start_id: usize = #start_var;
        }
    });
    let binds = fields.iter().filter_map(bind_field);
    let steps = fields.iter().filter_map(|f| match &f.kind {
        FieldKind::Derived(d) => match d.source.target() {
            Some(Target::Field { placed: true, .. }) => {
                let slot_var = names::slot(&f.local);
                Some(match d.array {
                    Some(n) => quote! {
                        let #slot_var: [#core::SizeSlot; #n] = #p::take_slots::<#n>(#slots, #w)?;
                    },
                    None => quote!(let #slot_var = #slots.take(#w)?;),
                })
            }
            _ => None,
        },
        FieldKind::Data(d) if !d.placed => placing_type(d).map(|ty| {
            let member = &f.member;
            let args = args_value(d.args.as_ref());
            let name = &f.name;
            let present = d.cond.is_some() || d.optional || d.read_cond.is_some();
            let value = if present {
                quote!(match &self.#member { ::core::option::Option::Some(#value_id) => #value_id, ::core::option::Option::None => return ::core::result::Result::Ok(()) })
            } else {
                quote!(&self.#member)
            };
            let index = names::expr::index();
            let call = match &d.value {
                ValueSpec::Vec { .. } if d.indexed() => quote! {
                    for (#index, #element_id) in #value_id.iter().enumerate() {
                        <#ty as #core::Encode>::encode_placed(#element_id, #w, #args, #slots)
                            .map_err(|#element_error_id| #element_error_id.at_index(#index))?;
                    }
                    ::core::result::Result::Ok(())
                },
                ValueSpec::Vec { .. } => quote!(#p::encode_placed_many::<#ty>(#value_id, #w, #args, #slots)),
                ValueSpec::Single => quote!(<#ty as #core::Encode>::encode_placed(#value_id, #w, #args, #slots)),
            };
            quote! {
                if <#ty as #core::Encode>::PLACES {
                    (|| -> #core::Result<()> {
                        let #value_id = #value;
                        #call
                    })()
                    .map_err(|#error_id| #error_id.in_field(#name))?;
                }
            }
        }),
        _ => None,
    });
    let placed = fields.iter().filter_map(|f| match &f.kind {
        FieldKind::Data(d) if d.placed => Some(placed_write(cont, fields, f, d)),
        _ => None,
    });
    quote! {
        #ctx
        #start
        #(#binds)*
        #(#steps)*
        #(#placed)*
    }
}

/// Writing one placed field where the writer is, and patching its offset
/// (and size) slots.
fn placed_write(cont: &Container, fields: &[Field], f: &Field, d: &DataField) -> TokenStream {
    let part_slots_id = names::part_slots();
    let part_target_id = names::part_target();
    let part_start_id = names::part_start();
    let part_len_id = names::part_len();
    let part_mark_id = names::part_mark();
    let base_id = names::base();
    let entry_id = names::entry();
    let run_id = names::run();
    let value_id = names::value();
    let error_id = names::error();
    let element_id = names::element();
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
    let kept = kept_expr(cont).unwrap_or_else(|| quote!((&#core::Kept::new())));
    let index = |slot: &syn::Ident, i: Option<&TokenStream>| match i {
        Some(i) => quote!(#slot[#i]),
        None => quote!(#slot),
    };
    // One part: `value` written at the writer, slots patched.
    let one = |ty: &Type, value: TokenStream, i: Option<&TokenStream>| {
        let inline = match generic_arg(ty, "Vec") {
            Some(inner) => quote!(<#inner as #core::Encode>::encode_many(#value, #w, #args)?;),
            None => quote!(<#ty as #core::Encode>::encode_inline(#value, #w, #args)?;),
        };
        let placed = match generic_arg(ty, "Vec") {
            Some(_) => quote!(),
            None => {
                quote!(<#ty as #core::Encode>::encode_placed(#value, #w, #args, &mut #part_slots_id)?;)
            }
        };
        let ofs = index(&ofs_slot, i);
        let size_patch = size.as_ref().map(|(s, _)| {
            let s = index(s, i);
            quote!(#w.patch_placed(#s, #part_target_id, #part_start_id, #part_len_id, ::core::option::Option::None)?;)
        });
        quote! {{
            let #part_target_id = #w.target_begin();
            let #part_start_id = #w.pos();
            let #part_mark_id = #w.slot_mark();
            #inline
            #w.target_end(#part_target_id);
            let #part_len_id = #w.pos() - #part_start_id;
            let mut #part_slots_id = #core::Slots::from_mark(#part_mark_id);
            #placed
            #w.truncate_slots(#part_mark_id);
            #w.patch_placed(#ofs, #part_target_id, #part_start_id, #part_len_id, ::core::option::Option::Some(#base_id))?;
            #size_patch
        }}
    };
    // An absent part: its offset (and size) as kept, else 0.
    let absent = |i: Option<&TokenStream>| {
        let ofs = index(&ofs_slot, i);
        let k = match i {
            Some(i) => quote!(#ofs_kept + #i as u16),
            None => quote!(#ofs_kept),
        };
        let size_patch = size.as_ref().map(|(s, sk)| {
            let s = index(s, i);
            let k = match i {
                Some(i) => quote!(#sk + #i as u16),
                None => quote!(#sk),
            };
            quote!(#w.patch_u32(#s, #kept.resolve(#k, ::core::option::Option::None))?;)
        });
        quote! {
            #w.patch_u32(#ofs, #kept.resolve(#k, ::core::option::Option::None))?;
            #size_patch
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
            let present = one(elem, quote!(#element_id), Some(&i));
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
            let ofs = &ofs_slot;
            let size_patch = size.as_ref().map(|(s, _)| {
                quote!(#w.patch_placed(#s, #part_target_id, #part_start_id, #part_len_id, ::core::option::Option::None)?;)
            });
            let run = quote! {{
                let #part_target_id = #w.target_begin();
                let #part_start_id = #w.pos();
                let #part_mark_id = #w.slot_mark();
                #p::encode_inline_many::<#elem>(#run_id, #w, #args)?;
                #w.target_end(#part_target_id);
                let #part_len_id = #w.pos() - #part_start_id;
                let mut #part_slots_id = #core::Slots::from_mark(#part_mark_id);
                #p::encode_placed_many::<#elem>(#run_id, #w, #args, &mut #part_slots_id)?;
                #w.truncate_slots(#part_mark_id);
                #w.patch_placed(#ofs, #part_target_id, #part_start_id, #part_len_id, ::core::option::Option::Some(#base_id))?;
                #size_patch
            }};
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
            let present = one(d.value_ty, quote!(#value_id), None);
            let missing = absent(None);
            quote! {
                match &self.#member {
                    ::core::option::Option::Some(#value_id) => #present,
                    ::core::option::Option::None => { #missing }
                }
            }
        }
        ValueSpec::Single => one(d.value_ty, quote!(&self.#member), None),
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
        return quote!(<#ty as #core::Encode>::encode_inline(#v, #w, #args));
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
            let write =
                each.unwrap_or_else(|| quote!(#p::encode_inline_many::<#elem>(#v, #w, #args)));
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
            each.unwrap_or_else(|| quote!(#p::encode_inline_many::<#elem>(#v, #w, #args)))
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
