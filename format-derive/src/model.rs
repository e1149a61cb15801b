//! The internal model: what each field and variant means on disk, built from
//! the parsed attributes. Building is permissive (where keys conflict, one is
//! picked); [`check`](crate::check) then reports every misuse, spanned at the
//! offending attribute, before any code is generated.

pub mod enums;

use proc_macro2::Span;
use syn::{
    Data, DeriveInput, Expr, Fields, GenericArgument, Generics, Ident, Member, PathArguments, Type,
};

use crate::attr::{self, ArgDecl, Assert, At, CountSpec, FieldAttrs, TagLit, TargetSpec};
use crate::ctxt::Ctxt;
use crate::names::{self, Runtime};

pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a Generics,
    pub magic: Option<TagLit>,
    pub chunk: Option<TagLit>,
    pub inclusive: bool,
    /// `#[format(region)]`: parts placed by offset inside it are laid out, and
    /// the bytes between them kept, by this value.
    pub region: Option<Span>,
    /// `#[format(record)]`: a struct of fixed-size fields, also a `Record`.
    pub record: Option<Span>,
    /// `#[format(chunk_list)]`: the enum of a file's chunks, read and
    /// written as a list (`until_end`) by the chunk-list runtime.
    pub chunk_list: Option<Span>,
    /// `chunk_list(parent)`: the list is the `parent` its chunks' offsets name.
    pub list_parent: bool,
    pub args: Vec<ArgDecl>,
    pub bound: Option<Vec<syn::WherePredicate>>,
    pub rt: Runtime,
    pub body: Body<'a>,
    /// The container attributes as parsed, for the checks.
    pub attrs: attr::ContainerAttrs,
    /// Each enum variant as written, for the checks.
    pub variants: Vec<enums::VariantInfo>,
    pub input: &'a DeriveInput,
}

pub enum Body<'a> {
    /// A struct read field by field.
    Struct(Vec<Field<'a>>),
    /// A `#[format(plain)]` struct: its memory image is its encoding.
    Plain(Vec<(Member, &'a Type, String)>),
    /// An enum dispatched on a peeked tag.
    TagEnum(Vec<TagVariant<'a>>),
    /// An enum whose variant is the first whose `when` holds.
    CondEnum(Vec<CondVariant<'a>>),
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
    /// Where the field is, for errors about it as a whole.
    pub span: Span,
    /// The keys given, with their spans, for the checks.
    pub keys: Vec<(&'static str, Span)>,
    /// A key failed to parse (already reported): nothing more to check.
    pub broken: bool,
}

impl Field<'_> {
    /// The span of `key` on this field, or the field's.
    pub fn key_span(&self, key: &str) -> Span {
        self.keys
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(self.span, |(_, s)| *s)
    }
}

pub enum FieldKind<'a> {
    /// Not on disk: `Default` on read, nothing written.
    Skip,
    /// The `Kept` record of what the file said that a fresh layout would not give.
    Kept,
    /// Computed on read from earlier fields; nothing on disk, nothing written.
    ReadCalc(Expr),
    /// A `Derived<T>` field: `T` on disk, its value derived on write.
    Derived(Box<DerivedField<'a>>),
    /// Stored data.
    Data(Box<DataField<'a>>),
    /// The rest of each record of the list that names it in `split(..)`:
    /// read and written with that list.
    SplitTail,
}

pub struct DerivedField<'a> {
    /// The on-disk type (`u32`, or `[u32; N]` for a table of offsets).
    pub disk_ty: &'a Type,
    /// `N` for a `[T; N]` table.
    pub array: Option<usize>,
    /// On disk only if this holds (`if = ...`).
    pub cond: Option<Expr>,
    pub source: Source,
    /// The first kept slot (declaration order; a table takes `N`).
    pub slot: u16,
}

pub enum Source {
    /// `calc = expr`.
    Calc(Expr),
    /// `offset(of = ..., from = ...)`.
    Offset { of: Target, from: Expr },
    /// `size(of = ..., [body])`.
    Size { of: Target, body: bool },
}

impl Source {
    pub fn target(&self) -> Option<&Target> {
        match self {
            Source::Calc(_) => None,
            Source::Offset { of, .. } | Source::Size { of, .. } => Some(of),
        }
    }
}

pub enum Target {
    /// A field of this struct: placed at the offset, or (if not `placed`)
    /// wherever it lands in sequence.
    Field { ident: Ident, placed: bool },
    /// The first (or `nth`) element of list field `list` with `tag`.
    Tagged {
        list: Ident,
        tag: TagLit,
        nth: Option<Expr>,
    },
    /// The first (or `nth`) element of the enclosing list with `tag`.
    Parent { tag: TagLit, nth: Option<Expr> },
}

pub struct DataField<'a> {
    /// Present only if this holds (the field is an `Option`).
    pub cond: Option<Expr>,
    /// On read, present only if this also holds (may look at `reader`).
    pub read_cond: Option<Expr>,
    /// Present only if the next tag is `tag` (the field is an `Option`).
    pub optional: bool,
    /// A tag written before the value.
    pub tag: Option<TagLit>,
    pub value: ValueSpec<'a>,
    pub args: Option<Vec<Expr>>,
    pub sets_version: bool,
    /// The type inside the `Option`, if the field is one.
    pub value_ty: &'a Type,
    /// Hand-written reading, replacing the declared layout on read.
    pub read_with: Option<Expr>,
    /// Hand-written writing, replacing the declared layout on write.
    pub write_with: Option<Expr>,
    /// Checked before writing.
    pub asserts: Vec<Assert>,
    /// Read at the offset that names it, written as a part of the innermost region.
    pub placed: bool,
    /// An offset names elements of this list: their anchors are recorded.
    pub anchored: bool,
    /// An offset names this field as a whole: where it lands is recorded.
    pub marked: bool,
    /// `split(tails, if = ..)`: each record continues with an element of `tails`.
    pub split: Option<Split<'a>>,
    /// `clamp`: a count larger than the bytes hold is clamped in lenient mode.
    pub clamp: bool,
}

/// A struct-of-arrays layout: records whose head goes in this field, whose
/// rest (when `cond` holds) goes in field `tails`.
pub struct Split<'a> {
    pub tails: Ident,
    /// The element type of `tails` (`None` until linked, or if it is no `Vec`).
    pub tail_elem: Option<&'a Type>,
    pub cond: Option<Expr>,
}

impl DataField<'_> {
    /// True if the field's element arguments use `index`.
    pub fn indexed(&self) -> bool {
        self.args.as_ref().is_some_and(|args| {
            args.iter()
                .any(|e| mentions(&quote::ToTokens::to_token_stream(e), crate::symbol::INDEX))
        })
    }
}

/// True if `tokens` contain the identifier `name`.
pub fn mentions(tokens: &proc_macro2::TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == name,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), name),
        _ => false,
    })
}

pub enum ValueSpec<'a> {
    /// One `Decode` value.
    Single,
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
    /// A placed `Vec` with a table of offsets: one element per entry until an
    /// entry is 0.
    Table,
}

pub struct TagVariant<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub dispatch: Dispatch,
    pub cond: Option<Expr>,
    pub args: Option<Vec<Expr>>,
    pub doc: String,
    /// In a chunk list: the variant its reader keeps damaged chunks in.
    pub role: Option<ListRole>,
    /// In a chunk list: the type owns bytes stored after the chunk.
    pub after_chunk: bool,
}

/// The variants a chunk list's reader builds itself.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ListRole {
    /// `cut`: the chunk a cut file ends inside (`CutChunk`).
    Cut,
    /// `undecoded`: a chunk whose content does not decode (`UndecodedChunk`).
    Undecoded,
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
    /// Never read by the derived reader: hand-written code builds it (a
    /// lenient reader's recovery). Written by the inner type, which names its
    /// own tag (`ChunkTag`).
    NotRead,
}

pub struct CondVariant<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub when: Expr,
    /// `read_when`: the condition may look at the reader, and is not checked
    /// on write (the variant held is written).
    pub read_only: bool,
    pub args: Option<Vec<Expr>>,
    pub doc: String,
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
pub fn is_named(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident(name))
}

/// True if the last segment of `ty`'s path is `name` (`Kept`, `format_core::Kept`).
pub fn ends_with(ty: &Type, name: &str) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == name))
}

/// `N` of `[T; N]` with a literal `N`.
pub fn array_len(ty: &Type) -> Option<usize> {
    let Type::Array(a) = ty else { return None };
    let Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(n),
        ..
    }) = &a.len
    else {
        return None;
    };
    n.base10_parse().ok()
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
        let mut attrs = attr::container(cx, &input.attrs);
        let (body, variants) = match &input.data {
            Data::Struct(data) if attrs.plain.is_some() => {
                (Body::Plain(plain_fields(&data.fields)), Vec::new())
            }
            Data::Struct(data) => (Body::Struct(struct_fields(cx, &data.fields)), Vec::new()),
            Data::Enum(data) => enums::enum_body(cx, input, &attrs, data),
            Data::Union(u) => {
                cx.error_at(
                    u.union_token.span,
                    "#[derive(Codec)] does not support unions",
                );
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            magic: attrs.magic.as_ref().map(|m| m.value),
            chunk: attrs.chunk.as_ref().map(|c| c.value),
            inclusive: attrs.inclusive_size.is_some(),
            region: attrs.region.as_ref().map(|r| r.span),
            record: attrs.record.as_ref().map(|r| r.span),
            chunk_list: attrs.chunk_list.as_ref().map(|r| r.span),
            list_parent: attrs.chunk_list.as_ref().is_some_and(|r| r.value),
            args: attrs.args.take_decls(),
            bound: attrs.bound.as_ref().map(|b| b.value.clone()),
            rt: Runtime::find(attrs.krate.as_ref().map(|k| &k.value)),
            body,
            attrs,
            variants,
            input,
        })
    }

    /// True if the encoding starts with a fixed tag (`magic` or `chunk`).
    pub fn leading_tag(&self) -> Option<TagLit> {
        self.magic.or(self.chunk)
    }

    /// The struct's fields (empty for other bodies).
    pub fn fields(&self) -> &[Field<'a>] {
        match &self.body {
            Body::Struct(fields) => fields,
            _ => &[],
        }
    }

    /// The `#[format(kept)]` field, if any.
    pub fn kept_field(&self) -> Option<&Field<'a>> {
        self.fields()
            .iter()
            .find(|f| matches!(f.kind, FieldKind::Kept))
    }

    /// True if a field is placed by offset.
    pub fn has_placed(&self) -> bool {
        self.fields()
            .iter()
            .any(|f| matches!(&f.kind, FieldKind::Data(d) if d.placed))
    }
}

trait TakeDecls {
    fn take_decls(&mut self) -> Vec<ArgDecl>;
}

impl TakeDecls for Option<At<Vec<ArgDecl>>> {
    fn take_decls(&mut self) -> Vec<ArgDecl> {
        self.take().map(|a| a.value).unwrap_or_default()
    }
}

fn plain_fields(fields: &Fields) -> Vec<(Member, &Type, String)> {
    fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let member = f
                .ident
                .clone()
                .map_or_else(|| Member::from(i), Member::Named);
            (member, &f.ty, attr::doc_summary(&f.attrs))
        })
        .collect()
}

fn struct_fields<'a>(cx: &Ctxt, fields: &'a Fields) -> Vec<Field<'a>> {
    let mut out: Vec<Field<'a>> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (member, name, local) = match &f.ident {
                Some(ident) => {
                    let name = ident.to_string();
                    let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
                    (Member::Named(ident.clone()), name, ident.clone())
                }
                None => (Member::from(i), i.to_string(), names::tuple_field(i)),
            };
            let attrs = attr::field(cx, &f.attrs);
            let keys = attrs.present();
            let broken = attrs.broken;
            let span = f
                .ident
                .as_ref()
                .map_or_else(|| syn::spanned::Spanned::span(&f.ty), Ident::span);
            Field {
                member,
                name,
                local,
                ty: &f.ty,
                doc: attr::doc_summary(&f.attrs),
                kind: field_kind(f, attrs),
                span,
                keys,
                broken,
            }
        })
        .collect();
    link_targets(&mut out);
    link_splits(&mut out);
    out
}

/// The fields a `split(..)` names become its tails.
fn link_splits<'a>(fields: &mut [Field<'a>]) {
    let named: Vec<Ident> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            FieldKind::Data(d) => d.split.as_ref().map(|s| s.tails.clone()),
            _ => None,
        })
        .collect();
    let mut elems: Vec<(Ident, &'a Type)> = Vec::new();
    for f in fields.iter_mut() {
        if named.contains(&f.local) && f.keys.is_empty() && !f.broken {
            if let Some(elem) = generic_arg(f.ty, "Vec") {
                elems.push((f.local.clone(), elem));
            }
            f.kind = FieldKind::SplitTail;
        }
    }
    for f in fields.iter_mut() {
        if let FieldKind::Data(d) = &mut f.kind
            && let Some(split) = &mut d.split
        {
            split.tail_elem = elems
                .iter()
                .find(|(name, _)| *name == split.tails)
                .map(|(_, elem)| *elem);
        }
    }
}

/// Marks the fields offsets name (placed or recorded) and gives derived
/// fields their kept slots.
fn link_targets(fields: &mut [Field<'_>]) {
    let mut named: Vec<(Ident, bool)> = Vec::new(); // (field, as a list of tagged elements)
    let mut slot: u16 = 0;
    for f in fields.iter_mut() {
        if let FieldKind::Derived(d) = &mut f.kind {
            d.slot = slot;
            slot = slot.saturating_add(u16::try_from(d.array.unwrap_or(1)).unwrap_or(u16::MAX));
            match d.source.target() {
                // A table of offsets into a list read in sequence names its elements.
                Some(Target::Field { ident, .. }) => {
                    named.push((ident.clone(), d.array.is_some()));
                }
                Some(Target::Tagged { list, .. }) => named.push((list.clone(), true)),
                _ => {}
            }
        }
    }
    let placed: Vec<Ident> = fields
        .iter()
        .filter(|f| matches!(&f.kind, FieldKind::Data(d) if d.placed))
        .map(|f| f.local.clone())
        .collect();
    for f in fields.iter_mut() {
        if let FieldKind::Derived(d) = &mut f.kind
            && let Source::Offset { of, .. } | Source::Size { of, .. } = &mut d.source
            && let Target::Field { ident, placed: p } = of
        {
            *p = placed.contains(ident);
        }
        if let FieldKind::Data(d) = &mut f.kind {
            for (ident, as_list) in &named {
                if *ident == f.local && !d.placed {
                    if *as_list {
                        d.anchored = true;
                    } else {
                        d.marked = true;
                    }
                }
            }
        }
    }
}

fn target(spec: &TargetSpec) -> Target {
    match spec.clone() {
        TargetSpec::Field(ident) => Target::Field {
            ident,
            placed: false,
        },
        TargetSpec::Tagged { list, tag, nth } => Target::Tagged { list, tag, nth },
        TargetSpec::Parent { tag, nth } => Target::Parent { tag, nth },
    }
}

fn field_kind<'a>(f: &'a syn::Field, mut a: FieldAttrs) -> FieldKind<'a> {
    if a.broken || a.skip.is_some() {
        // A broken field is already reported; a skipped one is not on disk.
        return FieldKind::Skip;
    }
    if a.kept.is_some() {
        return FieldKind::Kept;
    }
    if let Some(calc) = a.read_calc.take() {
        return FieldKind::ReadCalc(calc.value);
    }
    if let Some(disk_ty) = generic_arg(&f.ty, "Derived") {
        let source = if let Some(offset) = a.offset.take() {
            Source::Offset {
                of: target(&offset.value.of),
                from: offset.value.from,
            }
        } else if let Some(size) = a.size.take() {
            Source::Size {
                of: target(&size.value.of),
                body: size.value.body,
            }
        } else if let Some(calc) = a.calc.take() {
            Source::Calc(calc.value)
        } else {
            // Reported by the checks; a computed 0 keeps the model whole.
            Source::Calc(syn::parse_quote!(0u8))
        };
        return FieldKind::Derived(Box::new(DerivedField {
            disk_ty,
            array: array_len(disk_ty),
            cond: a.cond.map(|c| c.value),
            source,
            slot: 0,
        }));
    }

    let option_inner = generic_arg(&f.ty, "Option");
    let presence = a.cond.is_some() || a.optional.is_some() || a.read_cond.is_some();
    let placed = a.placed.is_some();
    let value_ty = match option_inner {
        Some(inner) if presence || placed || a.read_with.is_some() => inner,
        _ => &f.ty,
    };
    let value = value_spec(&a, value_ty, placed);
    FieldKind::Data(Box::new(DataField {
        cond: a.cond.map(|c| c.value),
        read_cond: a.read_cond.map(|c| c.value),
        optional: a.optional.is_some(),
        tag: a.tag.map(|t| t.value),
        value,
        args: a.args.map(|x| x.value),
        sets_version: a.sets_version.is_some(),
        value_ty,
        read_with: a.read_with.map(|x| x.value),
        write_with: a.write_with.map(|x| x.value),
        asserts: a.write_asserts.into_iter().map(|x| x.value).collect(),
        placed,
        anchored: false,
        marked: false,
        split: a.split.map(|s| Split {
            tails: s.value.tails,
            tail_elem: None,
            cond: s.value.cond,
        }),
        clamp: a.clamp.is_some(),
    }))
}

fn value_spec<'a>(a: &FieldAttrs, value_ty: &'a Type, placed: bool) -> ValueSpec<'a> {
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
    match (generic_arg(value_ty, "Vec"), lens.into_iter().next()) {
        (Some(elem), Some((span, len))) => ValueSpec::Vec { elem, len, span },
        (Some(elem), None) if placed => ValueSpec::Vec {
            elem,
            len: Len::Table,
            span: a.placed.as_ref().map_or_else(Span::call_site, |p| p.span),
        },
        _ => ValueSpec::Single,
    }
}
