//! Enums: tag-dispatched variants, variants chosen by a condition, and enums of values.

use proc_macro2::Span;
use quote::format_ident;
use syn::{DeriveInput, Fields, Ident, Type};

use super::{Body, CondVariant, Dispatch, ListRole, TagVariant, ValueVariant};
use crate::attr::{self, VariantAttrs};
use crate::ctxt::Ctxt;
use crate::symbol;

/// What the checks need to know about each variant as written.
pub struct VariantInfo {
    pub ident: Ident,
    pub span: Span,
    /// The variant's fields are `(Type)`, a unit, or something else.
    pub shape: Shape,
    pub keys: Vec<(&'static str, Span)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Unit,
    One,
    Other,
}

impl VariantInfo {
    pub fn key_span(&self, key: &str) -> Option<Span> {
        self.keys.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
    }
}

fn keys(a: &VariantAttrs) -> Vec<(&'static str, Span)> {
    use symbol::*;
    [
        (TAG, a.tag.as_ref().map(|x| x.span)),
        (CHUNK, a.chunk.as_ref().map(|x| x.span)),
        (UNKNOWN, a.unknown.as_ref().map(|x| x.span)),
        (NOT_READ, a.not_read.as_ref().map(|x| x.span)),
        (IF, a.cond.as_ref().map(|x| x.span)),
        (WHEN, a.when.as_ref().map(|x| x.span)),
        (READ_WHEN, a.read_when.as_ref().map(|x| x.span)),
        (CUT, a.cut.as_ref().map(|x| x.span)),
        (UNDECODED, a.undecoded.as_ref().map(|x| x.span)),
        (AFTER_CHUNK, a.after_chunk.as_ref().map(|x| x.span)),
        (ARGS, a.args.as_ref().map(|x| x.span)),
    ]
    .into_iter()
    .filter_map(|(k, s)| Some((k, s?)))
    .collect()
}

fn single_type(fields: &Fields) -> Option<&Type> {
    match fields {
        Fields::Unnamed(f) if f.unnamed.len() == 1 => f.unnamed.first().map(|f| &f.ty),
        _ => None,
    }
}

pub(super) fn enum_body<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    attrs: &attr::ContainerAttrs,
    data: &'a syn::DataEnum,
) -> (Body<'a>, Vec<VariantInfo>) {
    let parsed: Vec<(&'a syn::Variant, VariantAttrs)> = data
        .variants
        .iter()
        .map(|v| (v, attr::variant(cx, &v.attrs)))
        .collect();
    let info = parsed
        .iter()
        .map(|(v, a)| VariantInfo {
            ident: v.ident.clone(),
            span: v.ident.span(),
            shape: match &v.fields {
                Fields::Unit => Shape::Unit,
                f if single_type(f).is_some() => Shape::One,
                _ => Shape::Other,
            },
            keys: keys(a),
        })
        .collect();
    // Unit variants only make sense as values; `when` picks a variant by a
    // condition; otherwise variants are dispatched on a tag.
    let body = if data
        .variants
        .iter()
        .any(|v| matches!(v.fields, Fields::Unit))
    {
        value_enum(input, attrs, parsed)
    } else if parsed
        .iter()
        .any(|(_, a)| a.when.is_some() || a.read_when.is_some())
    {
        Body::CondEnum(
            parsed
                .into_iter()
                .filter(|(_, a)| !a.broken)
                .filter_map(|(v, a)| {
                    let read_only = a.when.is_none();
                    Some(CondVariant {
                        ident: &v.ident,
                        ty: single_type(&v.fields)?,
                        when: a.when.or(a.read_when)?.value,
                        read_only,
                        args: a.args.map(|x| x.value),
                        doc: attr::doc_summary(&v.attrs),
                    })
                })
                .collect(),
        )
    } else {
        Body::TagEnum(
            parsed
                .into_iter()
                .filter(|(_, a)| !a.broken)
                .filter_map(|(v, a)| {
                    // The chunk list's own variants are built by its reader.
                    let not_read = a.not_read.is_some() || a.cut.is_some() || a.undecoded.is_some();
                    let dispatch = match (a.tag, a.chunk, a.unknown, not_read) {
                        (Some(t), _, _, _) => Dispatch::Tag(t.value),
                        (None, Some(c), _, _) => Dispatch::Chunk(c.value),
                        (None, None, Some(_), _) => Dispatch::Unknown,
                        (None, None, None, true) => Dispatch::NotRead,
                        (None, None, None, false) => Dispatch::Inner,
                    };
                    let role = match (a.cut.is_some(), a.undecoded.is_some()) {
                        (true, _) => Some(ListRole::Cut),
                        (false, true) => Some(ListRole::Undecoded),
                        _ => None,
                    };
                    Some(TagVariant {
                        ident: &v.ident,
                        ty: single_type(&v.fields)?,
                        dispatch,
                        cond: a.cond.map(|c| c.value),
                        args: a.args.map(|x| x.value),
                        doc: attr::doc_summary(&v.attrs),
                        role,
                        after_chunk: a.after_chunk.is_some(),
                    })
                })
                .collect(),
        )
    };
    (body, info)
}

fn value_enum<'a>(
    input: &'a DeriveInput,
    attrs: &attr::ContainerAttrs,
    parsed: Vec<(&'a syn::Variant, VariantAttrs)>,
) -> Body<'a> {
    // `#[format(repr = ...)]` is the type on disk: it wins over the enum's
    // own `#[repr(...)]`, its type in memory.
    let repr = attrs
        .repr
        .as_ref()
        .map(|r| r.value.clone())
        .or_else(|| attr::repr_int(&input.attrs))
        .unwrap_or_else(|| format_ident!("u32"));
    let variants = parsed
        .into_iter()
        .map(|(v, a)| ValueVariant {
            ident: &v.ident,
            discriminant: v.discriminant.as_ref().map(|(_, e)| e),
            unknown: a.unknown.is_some(),
            doc: attr::doc_summary(&v.attrs),
        })
        .collect();
    Body::ValueEnum { repr, variants }
}
