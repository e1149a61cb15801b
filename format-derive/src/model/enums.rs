//! Enums: tag-dispatched variants and enums of values.

use quote::format_ident;
use syn::{DeriveInput, Fields};

use super::{Body, Dispatch, TagVariant, ValueVariant};
use crate::attr::{self, At};
use crate::ctxt::Ctxt;

pub(super) fn enum_body<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    attrs: &attr::ContainerAttrs,
    data: &'a syn::DataEnum,
) -> Body<'a> {
    if let Some(plain) = &attrs.plain {
        cx.error_at(plain.span, "`plain` applies to structs only");
    }
    // Unit variants only make sense as values; tag-dispatched variants hold data.
    if data
        .variants
        .iter()
        .any(|v| matches!(v.fields, Fields::Unit))
    {
        return value_enum(cx, input, attrs, data);
    }

    let mut variants = Vec::new();
    let mut seen: Vec<([u8; 4], bool)> = Vec::new();
    let mut unknown_seen = false;
    for v in &data.variants {
        let a = attr::variant(cx, &v.attrs);
        if a.broken {
            continue;
        }
        let ty = match &v.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => f.unnamed.first().map(|f| &f.ty),
            _ => None,
        };
        let Some(ty) = ty else {
            cx.error_spanned(
                &v.ident,
                "a variant of a tag-dispatched enum holds exactly one value: `Name(Type)`",
            );
            continue;
        };
        let dispatch = match (a.tag, a.chunk, &a.unknown) {
            (Some(t), None, None) => Dispatch::Tag(t.value),
            (None, Some(c), None) => Dispatch::Chunk(c.value),
            (None, None, Some(_)) => Dispatch::Unknown,
            (None, None, None) => Dispatch::Inner,
            (t, c, u) => {
                let spans = [
                    t.map(|x| x.span),
                    c.map(|x| x.span),
                    u.as_ref().map(|x| x.span),
                ];
                for span in spans.into_iter().flatten().skip(1) {
                    cx.error_at(span, "a variant takes one of `tag`, `chunk` and `unknown`");
                }
                continue;
            }
        };
        if let Dispatch::Unknown = dispatch {
            if unknown_seen {
                cx.error_spanned(&v.ident, "only one variant can be the `unknown` fallback");
            }
            unknown_seen = true;
            if let Some(cond) = &a.cond {
                cx.error_at(
                    cond.span,
                    "the `unknown` fallback takes anything; it cannot have `if`",
                );
            }
        }
        if let Dispatch::Tag(t) | Dispatch::Chunk(t) = &dispatch {
            let conditional = a.cond.is_some();
            if seen
                .iter()
                .any(|(b, c)| *b == t.bytes && !*c && !conditional)
            {
                cx.error_at(
                    t.span,
                    format!("tag \"{}\" is already used by another variant (give one of them `if = ...`)", t.display()),
                );
            }
            seen.push((t.bytes, conditional));
        }
        variants.push(TagVariant {
            ident: &v.ident,
            ty,
            dispatch,
            cond: a.cond.map(|c| c.value),
            args: a.args.map(|x| x.value),
            doc: attr::doc_summary(&v.attrs),
        });
    }
    if data.variants.is_empty() {
        cx.error_spanned(&input.ident, "an enum needs at least one variant to read");
    }
    Body::TagEnum(variants)
}

fn value_enum<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    attrs: &attr::ContainerAttrs,
    data: &'a syn::DataEnum,
) -> Body<'a> {
    let repr = match (attr::repr_int(&input.attrs), &attrs.repr) {
        (Some(r), _) => r,
        (None, Some(At { value: r, span })) => {
            if !attr::REPR_INTEGERS.iter().any(|t| r == t) {
                cx.error_at(
                    *span,
                    "`repr` is the on-disk integer type: one of u8, u16, u32, u64, i8, i16, i32, i64",
                );
            }
            r.clone()
        }
        (None, None) => {
            cx.error_spanned(
                &input.ident,
                "an enum of values needs its on-disk integer type: `#[repr(u32)]` (or `#[format(repr = u32)]`)",
            );
            format_ident!("u32")
        }
    };
    let mut variants = Vec::new();
    let mut unknown_seen = false;
    for v in &data.variants {
        let a = attr::variant(cx, &v.attrs);
        let spans = [
            a.tag.as_ref().map(|x| x.span),
            a.chunk.as_ref().map(|x| x.span),
            a.cond.as_ref().map(|x| x.span),
            a.args.as_ref().map(|x| x.span),
        ];
        for span in spans.into_iter().flatten() {
            cx.error_at(span, "variants of an enum of values take only `unknown`");
        }
        let unknown = a.unknown.is_some();
        match (&v.fields, unknown) {
            (Fields::Unit, false) => {}
            (Fields::Unnamed(f), true) if f.unnamed.len() == 1 => {
                if unknown_seen {
                    cx.error_spanned(&v.ident, "only one variant can be the `unknown` fallback");
                }
                unknown_seen = true;
            }
            (_, true) => cx.error_spanned(
                &v.ident,
                format!(
                    "the `unknown` variant keeps the raw value: `{}({repr})`",
                    v.ident
                ),
            ),
            (_, false) => cx.error_spanned(&v.ident, "variants of an enum of values hold no data"),
        }
        variants.push(ValueVariant {
            ident: &v.ident,
            discriminant: v.discriminant.as_ref().map(|(_, e)| e),
            unknown,
            doc: attr::doc_summary(&v.attrs),
        });
    }
    Body::ValueEnum { repr, variants }
}
