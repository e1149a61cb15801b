//! The checked internal model: what each field and variant means on disk.
//! Every misuse of an attribute is reported here, spanned at the attribute,
//! before any code is generated.

mod enums;

use proc_macro2::Span;
use quote::format_ident;
use syn::{
    Data, DeriveInput, Expr, Fields, GenericArgument, Generics, Ident, Member, PathArguments, Type,
};

use crate::attr::{self, ArgDecl, At, CountSpec, TagLit};
use crate::ctxt::Ctxt;

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub magic: Option<TagLit>,
    pub chunk: Option<TagLit>,
    pub inclusive: bool,
    pub args: Vec<ArgDecl>,
    pub bound: Option<Vec<syn::WherePredicate>>,
    pub body: Body<'a>,
}

pub enum Body<'a> {
    /// A struct read field by field.
    Struct(Vec<Field<'a>>),
    /// A `#[format(plain)]` struct: its memory image is its encoding.
    Plain(Vec<(Member, &'a Type, String)>),
    /// An enum dispatched on a peeked tag.
    TagEnum(Vec<TagVariant<'a>>),
    /// A `#[repr(int)]` enum of values, with an optional fallback for unknown values.
    ValueEnum {
        repr: Ident,
        variants: Vec<ValueVariant<'a>>,
    },
}

pub struct Field<'a> {
    pub member: Member,
    /// The name used in error paths and messages.
    pub name: String,
    /// The local variable expressions see the field as.
    pub local: Ident,
    pub ty: &'a Type,
    pub doc: String,
    pub kind: FieldKind<'a>,
}

pub enum FieldKind<'a> {
    /// Not on disk: `Default` on read, nothing written.
    Skip,
    /// A `Derived<T>` field: `T` on disk, computed by `expr` on write.
    Calc { expr: Expr, disk_ty: &'a Type },
    /// Stored data.
    Data(Box<DataField<'a>>),
}

pub struct DataField<'a> {
    /// Present only if this holds (the field is an `Option`).
    pub cond: Option<Expr>,
    /// Present only if the next tag is `tag` (the field is an `Option`).
    pub optional: bool,
    /// A tag written before the value.
    pub tag: Option<TagLit>,
    pub value: ValueSpec<'a>,
    pub args: Option<Vec<Expr>>,
    pub sets_version: bool,
    /// The type inside the `Option`, if the field is one.
    pub value_ty: &'a Type,
}

pub enum ValueSpec<'a> {
    /// One `Decode` value.
    Single,
    /// Hand-written read and write functions.
    Custom { read: Expr, write: Expr },
    /// A `Vec` whose length is found as `len` says (`span`: the length attribute).
    Vec {
        elem: &'a Type,
        len: Len,
        span: Span,
    },
}

pub enum Len {
    Prefix(Ident),
    Stride(usize),
    Expr(Expr),
    UntilEnd,
    Tagged,
}

pub struct TagVariant<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub dispatch: Dispatch,
    pub cond: Option<Expr>,
    pub args: Option<Vec<Expr>>,
    pub doc: String,
}

pub enum Dispatch {
    /// The tag is consumed, the inner type reads the rest.
    Tag(TagLit),
    /// Tag and chunk size are consumed, the inner type reads the bounded body.
    Chunk(TagLit),
    /// The inner type starts with its own tag (`HasTag`) and reads it itself.
    Inner,
    /// Anything else: the inner type reads from the tag on.
    Unknown,
}

pub struct ValueVariant<'a> {
    pub ident: &'a Ident,
    /// The explicit discriminant, if written.
    pub discriminant: Option<&'a Expr>,
    pub unknown: bool,
    pub doc: String,
}

/// The last path segment's single generic type argument if the segment is `name`.
pub fn generic_arg<'t>(ty: &'t Type, name: &str) -> Option<&'t Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(t)) if args.args.len() == 1 => Some(t),
        _ => None,
    }
}

/// True if `ty` is the plain path `name`.
fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident(name))
}

/// True for scalar types that expressions see by value (others by reference).
pub fn is_scalar(ty: &Type) -> bool {
    const SCALARS: [&str; 15] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        "f32", "f64", "bool",
    ];
    matches!(ty, Type::Path(p) if p.qself.is_none() && SCALARS.iter().any(|s| p.path.is_ident(s)))
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let attrs = attr::container(cx, &input.attrs);
        let body = match &input.data {
            Data::Struct(data) if attrs.plain.is_some() => {
                Body::Plain(plain_fields(cx, input, &attrs, &data.fields))
            }
            Data::Struct(data) => Body::Struct(struct_fields(cx, &data.fields)),
            Data::Enum(data) => enums::enum_body(cx, input, &attrs, data),
            Data::Union(u) => {
                cx.error_at(
                    u.union_token.span,
                    "#[derive(Codec)] does not support unions",
                );
                return None;
            }
        };
        if let (Some(repr), false) = (&attrs.repr, matches!(body, Body::ValueEnum { .. })) {
            cx.error_at(repr.span, "`repr` only applies to enums of values");
        }
        if let (Some(magic), Some(_)) = (&attrs.magic, &attrs.chunk) {
            cx.error_at(
                magic.span,
                "`magic` and `chunk` both put a tag first; use one of them",
            );
        }
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            magic: attrs.magic.map(|m| m.value),
            chunk: attrs.chunk.map(|c| c.value),
            inclusive: attrs.inclusive_size.is_some(),
            args: attrs.args.map(|a| a.value).unwrap_or_default(),
            bound: attrs.bound.map(|b| b.value),
            body,
        })
    }

    /// True if the encoding starts with a fixed tag (`magic` or `chunk`).
    pub fn leading_tag(&self) -> Option<TagLit> {
        self.magic.or(self.chunk)
    }
}

fn plain_fields<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    attrs: &attr::ContainerAttrs,
    fields: &'a Fields,
) -> Vec<(Member, &'a Type, String)> {
    let plain_span = attrs
        .plain
        .as_ref()
        .map_or_else(Span::call_site, |p| p.span);
    let framing = [
        attrs.magic.as_ref().map(|a| (a.span, "magic")),
        attrs.chunk.as_ref().map(|a| (a.span, "chunk")),
        attrs
            .inclusive_size
            .as_ref()
            .map(|a| (a.span, "inclusive_size")),
        attrs.args.as_ref().map(|a| (a.span, "args")),
        attrs.bound.as_ref().map(|a| (a.span, "bound")),
    ];
    for (span, key) in framing.into_iter().flatten() {
        cx.error_at(
            span,
            format!(
                "`{key}` cannot be combined with `plain`: a plain struct is exactly its fields"
            ),
        );
    }
    if !attr::has_repr_c(&input.attrs) {
        cx.error_at(
            plain_span,
            "a `plain` struct needs `#[repr(C)]` so that its memory layout is its field order",
        );
    }
    if !input.generics.params.is_empty() {
        cx.error_spanned(&input.generics, "a `plain` struct cannot be generic");
    }
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if f.attrs.iter().any(|a| a.path().is_ident("format")) {
                cx.error_spanned(
                    f.attrs.iter().find(|a| a.path().is_ident("format")),
                    "fields of a `plain` struct take no format attributes: each is read as it is",
                );
            }
            let member = f
                .ident
                .clone()
                .map_or_else(|| Member::from(i), Member::Named);
            (member, &f.ty, attr::doc_summary(&f.attrs))
        })
        .collect()
}

fn struct_fields<'a>(cx: &Ctxt, fields: &'a Fields) -> Vec<Field<'a>> {
    let out: Vec<Field<'a>> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (member, name, local) = match &f.ident {
                Some(ident) => {
                    let name = ident.to_string();
                    let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
                    (Member::Named(ident.clone()), name, ident.clone())
                }
                None => (
                    Member::from(i),
                    i.to_string(),
                    format_ident!("__field{}", i),
                ),
            };
            let attrs = attr::field(cx, &f.attrs);
            let kind = field_kind(cx, f, attrs);
            Field {
                member,
                name,
                local,
                ty: &f.ty,
                doc: attr::doc_summary(&f.attrs),
                kind,
            }
        })
        .collect();
    check_field_order(cx, &out);
    out
}

/// `count = size / N` and `until_end` consume the rest of the region, so their
/// position among the fields is constrained.
fn check_field_order(cx: &Ctxt, fields: &[Field<'_>]) {
    let on_disk: Vec<&Field> = fields
        .iter()
        .filter(|f| !matches!(f.kind, FieldKind::Skip))
        .collect();
    for (pos, field) in on_disk.iter().enumerate() {
        let FieldKind::Data(data) = &field.kind else {
            continue;
        };
        let ValueSpec::Vec { len, span, .. } = &data.value else {
            continue;
        };
        match len {
            Len::Stride(_) if on_disk.len() != 1 => cx.error_at(
                *span,
                "`count = size / N` reads the whole enclosing chunk, so it must be the only field on disk",
            ),
            Len::UntilEnd if pos + 1 != on_disk.len() => cx.error_at(
                *span,
                "`until_end` reads to the end of the enclosing region, so it must be the last field",
            ),
            _ => {}
        }
    }
}

fn field_kind<'a>(cx: &Ctxt, f: &'a syn::Field, mut a: attr::FieldAttrs) -> FieldKind<'a> {
    if a.broken {
        // Already reported; checking what was left would only add noise.
        return FieldKind::Skip;
    }
    // `skip` and `calc` fields are complete on their own.
    let alone = if a.skip.is_some() {
        Some((
            "skip",
            "a `skip` field is not on disk and takes no other attribute",
        ))
    } else if a.calc.is_some() && generic_arg(&f.ty, "Derived").is_some() {
        Some((
            "calc",
            "a `calc` field is a single computed value and takes no other attribute",
        ))
    } else {
        None
    };
    if let Some((key, message)) = alone {
        for (_, span) in a.present().into_iter().filter(|(k, _)| *k != key) {
            cx.error_at(span, message);
        }
        if key == "skip" {
            return FieldKind::Skip;
        }
    }

    let derived = generic_arg(&f.ty, "Derived");
    match (a.calc.take(), derived) {
        (Some(calc), Some(disk_ty)) => {
            return FieldKind::Calc {
                expr: calc.value,
                disk_ty,
            };
        }
        (Some(calc), None) => {
            cx.error_at(
                calc.span,
                "`calc` needs a field of type `Derived<T>` (T is the on-disk type), so the computed value is never stored",
            );
        }
        (None, Some(_)) => {
            cx.error_spanned(
                &f.ty,
                "a `Derived<T>` field needs `#[format(calc = ...)]` to say how it is computed on write",
            );
        }
        (None, None) => {}
    }

    let option_inner = generic_arg(&f.ty, "Option");
    let presence = a
        .cond
        .as_ref()
        .map(|c| c.span)
        .or(a.optional.as_ref().map(|o| o.span));
    let value_ty = match (presence, option_inner) {
        (Some(_), Some(inner)) => inner,
        (Some(span), None) => {
            cx.error_at(
                span,
                "`if` and `optional` make a field sometimes absent, so its type must be `Option<T>`",
            );
            &f.ty
        }
        (None, Some(_)) if a.read_with.is_none() => {
            cx.error_spanned(
                &f.ty,
                "an `Option` field needs `if = <condition>` or `optional` (with `tag`) to say when it is present",
            );
            &f.ty
        }
        (None, _) => &f.ty,
    };
    if let (Some(optional), None) = (&a.optional, &a.tag) {
        cx.error_at(
            optional.span,
            "`optional` decides presence by peeking a tag, so it needs `tag = \"....\"`",
        );
    }

    if let Some(sv) = &a.sets_version
        && !(presence.is_none() && ["u8", "u16", "u32"].iter().any(|t| is_named(&f.ty, t)))
    {
        cx.error_at(
            sv.span,
            "`sets_version` needs a `u8`, `u16` or `u32` field: its value becomes the version",
        );
    }
    let value = value_spec(cx, &a, value_ty);
    FieldKind::Data(Box::new(DataField {
        cond: a.cond.map(|c| c.value),
        optional: a.optional.is_some(),
        tag: a.tag.map(|t| t.value),
        value,
        args: a.args.map(|x| x.value),
        sets_version: a.sets_version.is_some(),
        value_ty,
    }))
}

fn value_spec<'a>(cx: &Ctxt, a: &attr::FieldAttrs, value_ty: &'a Type) -> ValueSpec<'a> {
    let mut lens: Vec<(Span, Len)> = Vec::new();
    if let Some(At { span, value }) = &a.count {
        let len = match value {
            CountSpec::Prefix(t) => Len::Prefix(t.clone()),
            CountSpec::Stride(n) => Len::Stride(*n),
            CountSpec::Expr(e) => Len::Expr(e.clone()),
        };
        lens.push((*span, len));
    }
    if let Some(x) = &a.until_end {
        lens.push((x.span, Len::UntilEnd));
    }
    if let Some(x) = &a.tagged {
        lens.push((x.span, Len::Tagged));
    }
    for (span, _) in lens.iter().skip(1) {
        cx.error_at(
            *span,
            "a `Vec` field takes one of `count`, `until_end` and `tagged`",
        );
    }

    match (&a.read_with, &a.write_with) {
        (Some(read), Some(write)) => {
            if let Some((span, _)) = lens.first() {
                cx.error_at(
                    *span,
                    "`read_with`/`write_with` read the whole value; a length attribute does not apply",
                );
            }
            return ValueSpec::Custom {
                read: read.value.clone(),
                write: write.value.clone(),
            };
        }
        (Some(one), None) | (None, Some(one)) => {
            cx.error_at(
                one.span,
                "`read_with` and `write_with` come together: the derive generates both directions",
            );
            return ValueSpec::Single;
        }
        (None, None) => {}
    }

    let elem = generic_arg(value_ty, "Vec");
    match (lens.into_iter().next(), elem) {
        (Some((span, len)), Some(elem)) => ValueSpec::Vec { elem, len, span },
        (Some((span, _)), None) => {
            cx.error_at(
                span,
                "`count`, `until_end` and `tagged` give the length of a `Vec<T>`; this field is not a Vec",
            );
            ValueSpec::Single
        }
        (None, Some(_)) => {
            cx.error_spanned(
                value_ty,
                "a `Vec` field needs its length: `count = u32` (a prefix), `count = <expr>`, `count = size / N`, `until_end` or `tagged`",
            );
            ValueSpec::Single
        }
        (None, None) => ValueSpec::Single,
    }
}
