//! Parsing of `#[format(...)]` attributes into raw, spanned values. Nothing is
//! checked for consistency here; `model` does that.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::punctuated::Punctuated;
use syn::{Attribute, Expr, Ident, LitByteStr, LitStr, Token, Type, WherePredicate};

use crate::ctxt::Ctxt;

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
    pub args: Option<At<Vec<ArgDecl>>>,
    pub bound: Option<At<Vec<WherePredicate>>>,
    pub repr: Option<At<Ident>>,
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
    pub optional: Option<At<()>>,
    pub args: Option<At<Vec<Expr>>>,
    pub calc: Option<At<Expr>>,
    pub read_with: Option<At<Expr>>,
    pub write_with: Option<At<Expr>>,
    pub skip: Option<At<()>>,
    pub sets_version: Option<At<()>>,
}

impl FieldAttrs {
    /// The keys given, with their spans (for "takes no other attribute" checks).
    pub fn present(&self) -> Vec<(&'static str, Span)> {
        let keys = [
            ("tag", self.tag.as_ref().map(|x| x.span)),
            ("count", self.count.as_ref().map(|x| x.span)),
            ("until_end", self.until_end.as_ref().map(|x| x.span)),
            ("tagged", self.tagged.as_ref().map(|x| x.span)),
            ("if", self.cond.as_ref().map(|x| x.span)),
            ("optional", self.optional.as_ref().map(|x| x.span)),
            ("args", self.args.as_ref().map(|x| x.span)),
            ("calc", self.calc.as_ref().map(|x| x.span)),
            ("read_with", self.read_with.as_ref().map(|x| x.span)),
            ("write_with", self.write_with.as_ref().map(|x| x.span)),
            ("skip", self.skip.as_ref().map(|x| x.span)),
            ("sets_version", self.sets_version.as_ref().map(|x| x.span)),
        ];
        keys.into_iter()
            .filter_map(|(key, span)| Some((key, span?)))
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
    pub cond: Option<At<Expr>>,
    pub args: Option<At<Vec<Expr>>>,
}

const CONTAINER_KEYS: &str = "magic, chunk, inclusive_size, plain, args, bound, repr";
const FIELD_KEYS: &str = "tag, count, until_end, tagged, if, optional, args, calc, read_with, write_with, skip, sets_version";
const VARIANT_KEYS: &str = "tag, chunk, unknown, if, args";

fn key_name(meta: &ParseNestedMeta) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_else(|| "?".into())
}

/// Stores `value` unless the key was already given (then records an error).
fn set<T>(cx: &Ctxt, slot: &mut Option<At<T>>, meta: &ParseNestedMeta, value: T) {
    let span = meta
        .path
        .get_ident()
        .map_or_else(Span::call_site, Ident::span);
    if slot.is_some() {
        cx.error_at(span, format!("duplicate `{}` attribute", key_name(meta)));
    } else {
        *slot = Some(At { span, value });
    }
}

fn flag<T: Default>(cx: &Ctxt, slot: &mut Option<At<T>>, meta: &ParseNestedMeta) {
    set(cx, slot, meta, T::default());
}

fn parse_tag(meta: &ParseNestedMeta) -> syn::Result<TagLit> {
    let value = meta.value()?;
    let (bytes, span) = if value.peek(LitByteStr) {
        let lit: LitByteStr = value.parse()?;
        (lit.value(), lit.span())
    } else {
        let lit: LitStr = value.parse()?;
        (lit.value().into_bytes(), lit.span())
    };
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

/// Runs `f` on each key of each `#[format(...)]` attribute in `attrs`; returns
/// false if any key was unknown or failed to parse.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&ParseNestedMeta) -> syn::Result<bool>,
    valid: &str,
) -> bool {
    let mut ok = true;
    for attr in attrs.iter().filter(|a| a.path().is_ident("format")) {
        let result = attr.parse_nested_meta(|meta| {
            if f(&meta)? {
                Ok(())
            } else {
                Err(meta.error(format!(
                    "unknown format attribute `{}`; expected one of: {valid}",
                    key_name(&meta)
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
    let mut out = ContainerAttrs::default();
    for_each_key(
        cx,
        attrs,
        |meta| {
            let p = &meta.path;
            if p.is_ident("magic") {
                set(cx, &mut out.magic, meta, parse_tag(meta)?);
            } else if p.is_ident("chunk") {
                set(cx, &mut out.chunk, meta, parse_tag(meta)?);
            } else if p.is_ident("inclusive_size") {
                flag(cx, &mut out.inclusive_size, meta);
            } else if p.is_ident("plain") {
                flag(cx, &mut out.plain, meta);
            } else if p.is_ident("args") {
                set(
                    cx,
                    &mut out.args,
                    meta,
                    parse_paren(meta, ArgDecl::parse_decl)?,
                );
            } else if p.is_ident("bound") {
                let lit: LitStr = meta.value()?.parse()?;
                let preds =
                    lit.parse_with(Punctuated::<WherePredicate, Token![,]>::parse_terminated)?;
                set(cx, &mut out.bound, meta, preds.into_iter().collect());
            } else if p.is_ident("repr") {
                set(cx, &mut out.repr, meta, meta.value()?.parse()?);
            } else {
                return Ok(false);
            }
            Ok(true)
        },
        CONTAINER_KEYS,
    );
    out
}

impl ArgDecl {
    fn parse_decl(input: syn::parse::ParseStream) -> syn::Result<Self> {
        input.parse()
    }
}

fn parse_one_expr(input: syn::parse::ParseStream) -> syn::Result<Expr> {
    input.parse()
}

/// The keys fields and variants have in common: `tag`, `if` and `args`.
/// Returns whether `meta` was one of them.
fn shared_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    tag: &mut Option<At<TagLit>>,
    cond: &mut Option<At<Expr>>,
    args: &mut Option<At<Vec<Expr>>>,
) -> syn::Result<bool> {
    let p = &meta.path;
    if p.is_ident("tag") {
        set(cx, tag, meta, parse_tag(meta)?);
    } else if p.is_ident("if") {
        set(cx, cond, meta, parse_expr(meta)?);
    } else if p.is_ident("args") {
        set(cx, args, meta, parse_paren(meta, parse_one_expr)?);
    } else {
        return Ok(false);
    }
    Ok(true)
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    let ok = for_each_key(
        cx,
        attrs,
        |meta| {
            let p = &meta.path;
            if shared_key(cx, meta, &mut out.tag, &mut out.cond, &mut out.args)? {
                // `tag`, `if` or `args`: stored.
            } else if p.is_ident("count") {
                set(cx, &mut out.count, meta, parse_count(meta)?);
            } else if p.is_ident("until_end") {
                flag(cx, &mut out.until_end, meta);
            } else if p.is_ident("tagged") {
                flag(cx, &mut out.tagged, meta);
            } else if p.is_ident("optional") {
                flag(cx, &mut out.optional, meta);
            } else if p.is_ident("calc") {
                set(cx, &mut out.calc, meta, parse_expr(meta)?);
            } else if p.is_ident("read_with") {
                set(cx, &mut out.read_with, meta, parse_expr(meta)?);
            } else if p.is_ident("write_with") {
                set(cx, &mut out.write_with, meta, parse_expr(meta)?);
            } else if p.is_ident("skip") {
                flag(cx, &mut out.skip, meta);
            } else if p.is_ident("sets_version") {
                flag(cx, &mut out.sets_version, meta);
            } else {
                return Ok(false);
            }
            Ok(true)
        },
        FIELD_KEYS,
    );
    out.broken = !ok;
    out
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    let ok = for_each_key(
        cx,
        attrs,
        |meta| {
            let p = &meta.path;
            if shared_key(cx, meta, &mut out.tag, &mut out.cond, &mut out.args)? {
                // `tag`, `if` or `args`: stored.
            } else if p.is_ident("chunk") {
                set(cx, &mut out.chunk, meta, parse_tag(meta)?);
            } else if p.is_ident("unknown") {
                flag(cx, &mut out.unknown, meta);
            } else {
                return Ok(false);
            }
            Ok(true)
        },
        VARIANT_KEYS,
    );
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
