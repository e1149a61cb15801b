//! Parsing of `#[format(...)]` attributes into raw, spanned values. Nothing is
//! checked for consistency here: `model` builds the meaning, `check` judges it.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitByteStr, LitStr, Token, Type, WherePredicate};

use crate::ctxt::Ctxt;
use crate::symbol::{self, Scope};

/// A value with the span of the attribute key that set it.
pub struct At<T> {
    pub span: Span,
    pub value: T,
}

/// A four-byte tag literal (`"SEQS"` or `b"TRI "`).
#[derive(Clone, Copy)]
pub struct TagLit {
    pub bytes: [u8; 4],
    pub span: Span,
}

impl TagLit {
    /// The tag as Rust source text, for messages and docs.
    pub fn display(&self) -> String {
        self.bytes
            .iter()
            .map(|&b| {
                if (0x20..0x7f).contains(&b) && b != b'\\' && b != b'"' {
                    char::from(b).to_string()
                } else {
                    format!("\\x{b:02x}")
                }
            })
            .collect()
    }
}

/// How a `Vec` field's length is found (`count = ...`).
pub enum CountSpec {
    /// `count = u32`: a count of this integer type right before the elements.
    Prefix(Ident),
    /// `count = size / N`: the whole enclosing region in `N`-byte elements.
    Stride(usize),
    /// `count = expr`: an expression over earlier fields and arguments.
    Expr(Expr),
}

/// What an offset or size names (`of = ...`).
#[derive(Clone)]
pub enum TargetSpec {
    /// `of = levels`: a field of this struct.
    Field(Ident),
    /// `of = chunks["MCVT"]` (or `chunks["MCNK"][n]`): an element of a list
    /// field of this struct, by its tag.
    Tagged {
        list: Ident,
        tag: TagLit,
        nth: Option<Expr>,
    },
    /// `of = parent["MCIN"]` (or `parent["MCNK"][index]`): an element of the
    /// enclosing list.
    Parent { tag: TagLit, nth: Option<Expr> },
}

/// `offset(of = ..., from = ...)`.
pub struct OffsetSpec {
    pub of: TargetSpec,
    pub from: Expr,
}

/// `size(of = ..., [body])`.
pub struct SizeSpec {
    pub of: TargetSpec,
    /// Without the target's 8-byte chunk header.
    pub body: bool,
}

/// `split(tails, if = <condition>)`: the records of this `Vec` continue,
/// when the condition holds, with the elements of field `tails`.
pub struct SplitSpec {
    pub tails: Ident,
    pub cond: Option<Expr>,
}

/// `write_assert(condition, "message")`.
pub struct Assert {
    pub cond: Expr,
    pub message: LitStr,
}

/// An argument the container takes: `args(name: Type)`.
pub struct ArgDecl {
    pub name: Ident,
    pub ty: Type,
}

impl syn::parse::Parse for ArgDecl {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let name = input.parse()?;
        input.parse::<Token![:]>()?;
        let ty = input.parse()?;
        Ok(ArgDecl { name, ty })
    }
}

#[derive(Default)]
pub struct ContainerAttrs {
    pub magic: Option<At<TagLit>>,
    pub chunk: Option<At<TagLit>>,
    pub inclusive_size: Option<At<()>>,
    pub plain: Option<At<()>>,
    pub region: Option<At<()>>,
    pub args: Option<At<Vec<ArgDecl>>>,
    pub bound: Option<At<Vec<WherePredicate>>>,
    pub repr: Option<At<Ident>>,
    pub krate: Option<At<syn::Path>>,
    pub record: Option<At<()>>,
    /// `chunk_list`, and whether `(parent)` was given.
    pub chunk_list: Option<At<bool>>,
}

#[derive(Default)]
pub struct FieldAttrs {
    /// A key failed to parse (already reported): checks that depend on the
    /// attributes would only add noise.
    pub broken: bool,
    pub tag: Option<At<TagLit>>,
    pub count: Option<At<CountSpec>>,
    pub until_end: Option<At<()>>,
    pub tagged: Option<At<()>>,
    pub cond: Option<At<Expr>>,
    pub read_cond: Option<At<Expr>>,
    pub optional: Option<At<()>>,
    pub args: Option<At<Vec<Expr>>>,
    pub calc: Option<At<Expr>>,
    pub read_calc: Option<At<Expr>>,
    pub read_with: Option<At<Expr>>,
    pub write_with: Option<At<Expr>>,
    pub write_asserts: Vec<At<Assert>>,
    pub offset: Option<At<OffsetSpec>>,
    pub size: Option<At<SizeSpec>>,
    pub placed: Option<At<()>>,
    pub kept: Option<At<()>>,
    pub skip: Option<At<()>>,
    pub sets_version: Option<At<()>>,
    pub split: Option<At<SplitSpec>>,
    pub clamp: Option<At<()>>,
}

impl FieldAttrs {
    /// The keys given, with their spans (for "takes no other attribute" checks).
    pub fn present(&self) -> Vec<(&'static str, Span)> {
        use symbol::*;
        let span = |x: Option<Span>, k| x.map(|s| (k, s));
        [
            span(self.tag.as_ref().map(|x| x.span), TAG),
            span(self.count.as_ref().map(|x| x.span), COUNT),
            span(self.until_end.as_ref().map(|x| x.span), UNTIL_END),
            span(self.tagged.as_ref().map(|x| x.span), TAGGED),
            span(self.cond.as_ref().map(|x| x.span), IF),
            span(self.read_cond.as_ref().map(|x| x.span), READ_IF),
            span(self.optional.as_ref().map(|x| x.span), OPTIONAL),
            span(self.args.as_ref().map(|x| x.span), ARGS),
            span(self.calc.as_ref().map(|x| x.span), CALC),
            span(self.read_calc.as_ref().map(|x| x.span), READ_CALC),
            span(self.read_with.as_ref().map(|x| x.span), READ_WITH),
            span(self.write_with.as_ref().map(|x| x.span), WRITE_WITH),
            span(self.write_asserts.first().map(|x| x.span), WRITE_ASSERT),
            span(self.offset.as_ref().map(|x| x.span), OFFSET),
            span(self.size.as_ref().map(|x| x.span), SIZE),
            span(self.placed.as_ref().map(|x| x.span), PLACED),
            span(self.kept.as_ref().map(|x| x.span), KEPT),
            span(self.skip.as_ref().map(|x| x.span), SKIP),
            span(self.sets_version.as_ref().map(|x| x.span), SETS_VERSION),
            span(self.split.as_ref().map(|x| x.span), SPLIT),
            span(self.clamp.as_ref().map(|x| x.span), CLAMP),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

#[derive(Default)]
pub struct VariantAttrs {
    /// A key failed to parse (already reported).
    pub broken: bool,
    pub tag: Option<At<TagLit>>,
    pub chunk: Option<At<TagLit>>,
    pub unknown: Option<At<()>>,
    pub not_read: Option<At<()>>,
    pub cond: Option<At<Expr>>,
    pub when: Option<At<Expr>>,
    pub read_when: Option<At<Expr>>,
    pub args: Option<At<Vec<Expr>>>,
    pub cut: Option<At<()>>,
    pub undecoded: Option<At<()>>,
    pub after_chunk: Option<At<()>>,
}

fn key_name(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| "?".into())
}

fn key_span(meta: &ParseNestedMeta) -> Span {
    meta.path
        .get_ident()
        .map_or_else(Span::call_site, Ident::span)
}

/// Stores `value` unless the key was already given (then records an error).
fn set<T>(cx: &Ctxt, slot: &mut Option<At<T>>, meta: &ParseNestedMeta, value: T) {
    let span = key_span(meta);
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{}` attribute", key_name(meta)));
    } else {
        *slot = Some(At { span, value });
    }
}

fn flag<T: Default>(cx: &Ctxt, slot: &mut Option<At<T>>, meta: &ParseNestedMeta) {
    set(cx, slot, meta, T::default());
}

fn tag_lit(bytes: Vec<u8>, span: Span) -> syn::Result<TagLit> {
    match <[u8; 4]>::try_from(bytes.as_slice()) {
        Ok(bytes) => Ok(TagLit { bytes, span }),
        Err(_) if bytes.len() < 4 => Err(syn::Error::new(
            span,
            format!(
                "a tag is exactly 4 bytes, this one has {} (pad with spaces: \"TRI \")",
                bytes.len()
            ),
        )),
        Err(_) => Err(syn::Error::new(
            span,
            format!("a tag is exactly 4 bytes, this one has {}", bytes.len()),
        )),
    }
}

fn parse_tag(meta: &ParseNestedMeta) -> syn::Result<TagLit> {
    let value = meta.value()?;
    if value.peek(LitByteStr) {
        let lit: LitByteStr = value.parse()?;
        tag_lit(lit.value(), lit.span())
    } else {
        let lit: LitStr = value.parse()?;
        tag_lit(lit.value().into_bytes(), lit.span())
    }
}

fn parse_expr(meta: &ParseNestedMeta) -> syn::Result<Expr> {
    meta.value()?.parse()
}

fn parse_paren<T>(
    meta: &ParseNestedMeta,
    parser: fn(syn::parse::ParseStream) -> syn::Result<T>,
) -> syn::Result<Vec<T>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let items = Punctuated::<T, Token![,]>::parse_terminated_with(&content, parser)?;
    Ok(items.into_iter().collect())
}

const COUNT_PREFIXES: [&str; 4] = ["u8", "u16", "u32", "u64"];
const OTHER_INTEGERS: [&str; 8] = ["i8", "i16", "i32", "i64", "u128", "i128", "usize", "isize"];
/// Integer types an enum of values can be stored as.
pub const REPR_INTEGERS: [&str; 8] = ["u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64"];

fn parse_count(meta: &ParseNestedMeta) -> syn::Result<CountSpec> {
    let expr = parse_expr(meta)?;
    if let Expr::Path(p) = &expr
        && let Some(ident) = p.path.get_ident()
    {
        if COUNT_PREFIXES.iter().any(|t| ident == t) {
            return Ok(CountSpec::Prefix(ident.clone()));
        }
        if OTHER_INTEGERS.iter().any(|t| ident == t) {
            return Err(syn::Error::new(
                ident.span(),
                "a count prefix is `u8`, `u16`, `u32` or `u64` (an unsigned fixed-size integer)",
            ));
        }
    }
    if let Expr::Binary(bin) = &expr
        && matches!(bin.op, syn::BinOp::Div(_))
        && let Expr::Path(left) = &*bin.left
        && left.path.is_ident("size")
    {
        return match &*bin.right {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }) => match n.base10_parse::<usize>() {
                Ok(0) | Err(_) => Err(syn::Error::new(
                    n.span(),
                    "the element size in `size / N` must be a positive integer",
                )),
                Ok(stride) => Ok(CountSpec::Stride(stride)),
            },
            other => Err(syn::Error::new_spanned(
                other,
                "`count = size / N` needs an integer literal N (the element size in bytes)",
            )),
        };
    }
    Ok(CountSpec::Expr(expr))
}

/// `"TAG"` as an index expression.
fn tag_index(expr: &Expr) -> Option<syn::Result<TagLit>> {
    match expr {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(tag_lit(s.value().into_bytes(), s.span())),
        _ => None,
    }
}

/// `levels`, `chunks["MCVT"]`, `chunks["MCNK"][n]`, `parent["MCIN"]`, `parent["MCNK"][index]`.
fn parse_target(expr: &Expr) -> syn::Result<TargetSpec> {
    let bad = || {
        syn::Error::new_spanned(
            expr,
            "an offset names a field (`levels`), a list's element by tag (`chunks[\"MCVT\"]`, \
             `chunks[\"MCNK\"][n]`) or an element of the enclosing list (`parent[\"MCIN\"]`)",
        )
    };
    let list_and_tag = |e: &Expr| -> Option<syn::Result<(Ident, TagLit)>> {
        let Expr::Index(ix) = e else { return None };
        let Expr::Path(p) = &*ix.expr else {
            return None;
        };
        let list = p.path.get_ident()?.clone();
        Some(tag_index(&ix.index)?.map(|tag| (list, tag)))
    };
    let (list, tag, nth) = match expr {
        Expr::Path(p) => {
            let ident = p.path.get_ident().ok_or_else(bad)?;
            return Ok(TargetSpec::Field(ident.clone()));
        }
        Expr::Index(ix) => match list_and_tag(expr) {
            Some(found) => {
                let (list, tag) = found?;
                (list, tag, None)
            }
            None => {
                let (list, tag) = list_and_tag(&ix.expr).ok_or_else(bad)??;
                (list, tag, Some((*ix.index).clone()))
            }
        },
        _ => return Err(bad()),
    };
    Ok(if list == symbol::PARENT {
        TargetSpec::Parent { tag, nth }
    } else {
        TargetSpec::Tagged { list, tag, nth }
    })
}

/// An error at a key of `offset(...)` or `size(...)` given a second time (the
/// later one would silently replace the first).
fn once(inner: &ParseNestedMeta, seen: bool) -> syn::Result<()> {
    if seen {
        Err(inner.error(format!("duplicate `{}` in this attribute", key_name(inner))))
    } else {
        Ok(())
    }
}

fn parse_offset(meta: &ParseNestedMeta) -> syn::Result<OffsetSpec> {
    let (mut of, mut from) = (None, None);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(symbol::OF) {
            once(&inner, of.is_some())?;
            of = Some(parse_target(&inner.value()?.parse()?)?);
        } else if inner.path.is_ident(symbol::FROM) {
            once(&inner, from.is_some())?;
            from = Some(inner.value()?.parse()?);
        } else {
            return Err(inner.error("`offset(...)` takes `of = <target>` and `from = <base>`"));
        }
        Ok(())
    })?;
    match (of, from) {
        (Some(of), Some(from)) => Ok(OffsetSpec { of, from }),
        _ => Err(meta.error(
            "`offset` needs what it points at and where it counts from: \
             `offset(of = <target>, from = <base>)` (`from = 0` for absolute offsets)",
        )),
    }
}

fn parse_size(meta: &ParseNestedMeta) -> syn::Result<SizeSpec> {
    let (mut of, mut body) = (None, false);
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident(symbol::OF) {
            once(&inner, of.is_some())?;
            of = Some(parse_target(&inner.value()?.parse()?)?);
        } else if inner.path.is_ident(symbol::BODY) {
            once(&inner, body)?;
            body = true;
        } else {
            return Err(inner.error("`size(...)` takes `of = <target>` and optionally `body`"));
        }
        Ok(())
    })?;
    let of =
        of.ok_or_else(|| meta.error("`size` needs what it measures: `size(of = <target>)`"))?;
    Ok(SizeSpec { of, body })
}

fn parse_split(meta: &ParseNestedMeta) -> syn::Result<SplitSpec> {
    let content;
    syn::parenthesized!(content in meta.input);
    let shape = |span: Span| {
        syn::Error::new(
            span,
            "`split` names the field that takes the rest of each record, and optionally when \
             records have a rest: `split(<field>)` or `split(<field>, if = <condition>)`",
        )
    };
    let tails: Ident = content.parse().map_err(|e| shape(e.span()))?;
    let mut cond = None;
    if !content.is_empty() {
        content.parse::<Token![,]>()?;
        if !content.is_empty() {
            content.parse::<Token![if]>().map_err(|e| shape(e.span()))?;
            content.parse::<Token![=]>()?;
            cond = Some(content.parse()?);
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
    }
    if !content.is_empty() {
        return Err(shape(content.span()));
    }
    Ok(SplitSpec { tails, cond })
}

fn parse_assert(meta: &ParseNestedMeta) -> syn::Result<Assert> {
    let content;
    syn::parenthesized!(content in meta.input);
    let cond = content.parse()?;
    let shape = |e: syn::Error| {
        syn::Error::new(
            e.span(),
            "`write_assert` takes a condition and the message of the error when it is false: \
             `write_assert(<condition>, \"...\")`",
        )
    };
    content.parse::<Token![,]>().map_err(shape)?;
    let message = content.parse().map_err(shape)?;
    if !content.is_empty() {
        content.parse::<Token![,]>()?;
    }
    Ok(Assert { cond, message })
}

/// Runs `f` on each key of each `#[format(...)]` attribute in `attrs`; returns
/// false if any key was unknown or failed to parse.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    scope: Scope,
    mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<bool>,
) -> bool {
    let mut ok = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident("format")) {
        let result = attr.parse_nested_meta(|meta| {
            if f(&meta)? {
                Ok(())
            } else {
                Err(meta.error(format!(
                    "unknown format attribute `{}`; expected one of: {}",
                    key_name(&meta),
                    symbol::valid_keys(scope)
                )))
            }
        });
        if let Err(e) = result {
            cx.syn_error(e);
            ok = false;
        }
    }
    ok
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    use symbol::*;
    let mut out = ContainerAttrs::default();
    for_each_key(cx, attrs, Scope::Container, |meta| {
        let p = &meta.path;
        if p.is_ident(MAGIC) {
            set(cx, &mut out.magic, meta, parse_tag(meta)?);
        } else if p.is_ident(CHUNK) {
            set(cx, &mut out.chunk, meta, parse_tag(meta)?);
        } else if p.is_ident(INCLUSIVE_SIZE) {
            flag(cx, &mut out.inclusive_size, meta);
        } else if p.is_ident(PLAIN) {
            flag(cx, &mut out.plain, meta);
        } else if p.is_ident(REGION) {
            flag(cx, &mut out.region, meta);
        } else if p.is_ident(ARGS) {
            let decls = parse_paren(meta, |input| input.parse::<ArgDecl>())?;
            set(cx, &mut out.args, meta, decls);
        } else if p.is_ident(BOUND) {
            let lit: LitStr = meta.value()?.parse()?;
            let preds =
                lit.parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)?;
            set(cx, &mut out.bound, meta, preds.into_iter().collect());
        } else if p.is_ident(REPR) {
            set(cx, &mut out.repr, meta, meta.value()?.parse()?);
        } else if p.is_ident(CRATE) {
            let lit: LitStr = meta.value()?.parse()?;
            set(cx, &mut out.krate, meta, lit.parse()?);
        } else if p.is_ident(RECORD) {
            flag(cx, &mut out.record, meta);
        } else if p.is_ident(CHUNK_LIST) {
            let parent = if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let word: Ident = content.parse()?;
                // Reported, but the enum is still a chunk list: its
                // variants' keys are not reported again.
                if word != symbol::PARENT || !content.is_empty() {
                    cx.error_at(
                        word.span(),
                        "`chunk_list` takes `(parent)` when offsets in its chunks name other \
                         chunks of the list (`parent[\"MCNK\"]`), and nothing else",
                    );
                }
                word == symbol::PARENT
            } else {
                false
            };
            set(cx, &mut out.chunk_list, meta, parent);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    out
}

fn parse_one_expr(input: syn::parse::ParseStream) -> syn::Result<Expr> {
    input.parse()
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    use symbol::*;
    let mut out = FieldAttrs::default();
    let ok = for_each_key(cx, attrs, Scope::Field, |meta| {
        let p = &meta.path;
        if p.is_ident(TAG) {
            set(cx, &mut out.tag, meta, parse_tag(meta)?);
        } else if p.is_ident(IF) {
            set(cx, &mut out.cond, meta, parse_expr(meta)?);
        } else if p.is_ident(READ_IF) {
            set(cx, &mut out.read_cond, meta, parse_expr(meta)?);
        } else if p.is_ident(ARGS) {
            set(cx, &mut out.args, meta, parse_paren(meta, parse_one_expr)?);
        } else if p.is_ident(COUNT) {
            set(cx, &mut out.count, meta, parse_count(meta)?);
        } else if p.is_ident(UNTIL_END) {
            flag(cx, &mut out.until_end, meta);
        } else if p.is_ident(TAGGED) {
            flag(cx, &mut out.tagged, meta);
        } else if p.is_ident(OPTIONAL) {
            flag(cx, &mut out.optional, meta);
        } else if p.is_ident(CALC) {
            set(cx, &mut out.calc, meta, parse_expr(meta)?);
        } else if p.is_ident(READ_CALC) {
            set(cx, &mut out.read_calc, meta, parse_expr(meta)?);
        } else if p.is_ident(READ_WITH) {
            set(cx, &mut out.read_with, meta, parse_expr(meta)?);
        } else if p.is_ident(WRITE_WITH) {
            set(cx, &mut out.write_with, meta, parse_expr(meta)?);
        } else if p.is_ident(WRITE_ASSERT) {
            let span = key_span(meta);
            out.write_asserts.push(At {
                span,
                value: parse_assert(meta)?,
            });
        } else if p.is_ident(OFFSET) {
            set(cx, &mut out.offset, meta, parse_offset(meta)?);
        } else if p.is_ident(SIZE) {
            set(cx, &mut out.size, meta, parse_size(meta)?);
        } else if p.is_ident(PLACED) {
            flag(cx, &mut out.placed, meta);
        } else if p.is_ident(KEPT) {
            flag(cx, &mut out.kept, meta);
        } else if p.is_ident(SKIP) {
            flag(cx, &mut out.skip, meta);
        } else if p.is_ident(SETS_VERSION) {
            flag(cx, &mut out.sets_version, meta);
        } else if p.is_ident(SPLIT) {
            set(cx, &mut out.split, meta, parse_split(meta)?);
        } else if p.is_ident(CLAMP) {
            flag(cx, &mut out.clamp, meta);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    out.broken = !ok;
    out
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    use symbol::*;
    let mut out = VariantAttrs::default();
    let ok = for_each_key(cx, attrs, Scope::Variant, |meta| {
        let p = &meta.path;
        if p.is_ident(TAG) {
            set(cx, &mut out.tag, meta, parse_tag(meta)?);
        } else if p.is_ident(IF) {
            set(cx, &mut out.cond, meta, parse_expr(meta)?);
        } else if p.is_ident(WHEN) {
            set(cx, &mut out.when, meta, parse_expr(meta)?);
        } else if p.is_ident(READ_WHEN) {
            set(cx, &mut out.read_when, meta, parse_expr(meta)?);
        } else if p.is_ident(ARGS) {
            set(cx, &mut out.args, meta, parse_paren(meta, parse_one_expr)?);
        } else if p.is_ident(CHUNK) {
            set(cx, &mut out.chunk, meta, parse_tag(meta)?);
        } else if p.is_ident(UNKNOWN) {
            flag(cx, &mut out.unknown, meta);
        } else if p.is_ident(NOT_READ) {
            flag(cx, &mut out.not_read, meta);
        } else if p.is_ident(CUT) {
            flag(cx, &mut out.cut, meta);
        } else if p.is_ident(UNDECODED) {
            flag(cx, &mut out.undecoded, meta);
        } else if p.is_ident(AFTER_CHUNK) {
            flag(cx, &mut out.after_chunk, meta);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    out.broken = !ok;
    out
}

/// The `#[repr(...)]` integer type of an enum, if any.
pub fn repr_int(attrs: &[Attribute]) -> Option<Ident> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(ident) = meta.path.get_ident()
                && REPR_INTEGERS.iter().any(|t| ident == t)
            {
                found = Some(ident.clone());
            }
            Ok(())
        });
    }
    found
}

/// True if the type has `#[repr(C)]` or `#[repr(transparent)]`.
pub fn has_repr_c(attrs: &[Attribute]) -> bool {
    let mut found = false;
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("C") || meta.path.is_ident("transparent") {
                found = true;
            }
            Ok(())
        });
    }
    found
}

/// The first line of the doc comments, for the layout table.
pub fn doc_summary(attrs: &[Attribute]) -> String {
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            let line = s.value().trim().to_string();
            if !line.is_empty() {
                return line;
            }
        }
    }
    String::new()
}
