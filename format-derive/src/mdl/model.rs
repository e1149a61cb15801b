//! `#[mdl(...)]` attributes, parsed into a checked model: every key is
//! spanned, misuse is reported at the key (all errors at once), and the
//! expansion in `expand` only sees what makes sense.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Data, DeriveInput, Expr, Fields, Ident, LitInt, LitStr, Type};

use crate::ctxt::Ctxt;
use crate::names::Runtime;

/// The keys of a container (`#[mdl(...)]` on the struct or enum).
const CONTAINER_KEYS: &[&str] = &["block", "name", "order", "crate", "check", "hook"];
/// The keys of a field.
const FIELD_KEYS: &[&str] = &[
    "key",
    "alias",
    "static",
    "rgb",
    "default",
    "optional",
    "since",
    "list",
    "tracks",
    "tracks_in",
    "word",
    "part",
    "tail",
    "skip",
    "none",
    "flags",
    "nonzero",
    "items",
    "each",
    "values",
    "required",
    "sets_version",
    "within",
    "nested",
    "absent",
    "unless",
    "array",
    "words",
    "says",
    "numbered",
    "worded",
    "spread",
    "until",
    "default_from",
    "hook",
];
/// The keys of an enum variant.
const VARIANT_KEYS: &[&str] = &["word"];

/// A derived type.
pub struct Container<'a> {
    pub ident: &'a Ident,
    pub generics: &'a syn::Generics,
    pub rt: Runtime,
    pub body: Body<'a>,
}

pub enum Body<'a> {
    /// A struct: one block.
    Block(Block<'a>),
    /// A value enum: words, and whether a variant holds the numbers no
    /// word names (`Other(u32)`, a fallback).
    Words(Vec<(&'a Ident, LitStr)>, bool),
}

/// A struct written as one block.
pub struct Block<'a> {
    pub keyword: LitStr,
    /// The field path of the block's name (`name`, `node.name`).
    pub name: Option<Vec<Ident>>,
    /// `order(a, b)`: the order fields are written in (else declaration order).
    pub order: Option<Vec<Ident>>,
    pub fields: Vec<Field<'a>>,
    /// `check = path`: called on the block once read.
    pub check: Option<syn::Path>,
    /// `hook = Type`: the `mdl::Hook` that reads and writes the fields
    /// marked `hook`.
    pub hook: Option<syn::Path>,
}

/// How a field is in the text.
pub enum Kind {
    /// `Key value,` (or `static Key value,`), `rgb`: a BGR colour as RGB.
    Value { statik: bool, rgb: bool },
    /// `Option<T>`: written when `Some`.
    Optional { statik: bool, rgb: bool },
    /// `Option<T>` present from a version on (and before another, `until`).
    Since {
        statik: bool,
        rgb: bool,
        version: LitInt,
        until: Option<LitInt>,
    },
    /// `Key n { value, ... }`.
    List,
    /// Tracks among the block's statements.
    Tracks,
    /// Tracks in a block of their own, `Key { tracks }`, written if any.
    TracksIn,
    /// A word of its own (`Omnidirectional,`), or `Key n`.
    Word,
    /// A word as the value of its key (`FilterMode Additive,`), or `Key n`.
    Worded,
    /// An `Option<T>` whose members are keys of the block (`static
    /// FresnelColor`, `static FresnelOpacity`...): there if one is given
    /// (the others their `default`'s), or missing from `default_from` on;
    /// its keys dropped before `since`.
    Spread {
        members: Vec<(Ident, LitStr)>,
        statik: bool,
        since: Option<LitInt>,
        default_from: Option<LitInt>,
    },
    /// Read and written by the block's `hook`.
    Hook,
    /// A part shared by several blocks.
    Part { args: Option<Expr> },
    /// The block's name, or not in the text.
    Skip,
    /// A `u32` of flag words (`WrapWidth,`), `ext n` (the field's `key`,
    /// `ExtFlags` by default) for the rest.
    Flags {
        table: Vec<(Ident, Expr)>,
        ext: String,
    },
    /// A `u32` that is the index of its word (`Additive,` is 1), `Key n`
    /// for a number no word has.
    Choice { words: Vec<LitStr> },
    /// A `[T; N]` as the sub-block `Key { Entry v, Entry v, ... }`, `rgb`
    /// if its values are colours.
    Array { entry: LitStr, rgb: bool },
    /// A `Vec<T: Block>` of item blocks (`Bitmap { }` in `Textures n { }`),
    /// counted by the block's header.
    Items { what: String },
    /// A `Vec<T>` of `Key value,` statements (`Duration 100,` in
    /// `GlobalSequences n { }`), counted by the block's header.
    Each { what: String },
    /// A `Vec<T>` of the block's values, one a line (`PivotPoints n { {
    /// 0, 0, 0 }, }`), counted by its header; beside keyed values, if any.
    Values { what: String },
    /// A `T: mdl::Block` (or `Option<T>`) that is a block of its own in
    /// this one (`EventTrack n { }` in an `EventObject`), or a `Vec<T>` of
    /// such blocks (`Layer { }` in a `Material`).
    Nested,
}

impl Kind {
    /// Whether the field is read by its key (or aliases): not tracks, a
    /// part, flag words, items, values, a nested block or a spread value,
    /// which have their own keywords, nor what is not in the text or the
    /// hook's.
    pub fn keyed(&self) -> bool {
        !matches!(
            self,
            Kind::Tracks
                | Kind::Part { .. }
                | Kind::Skip
                | Kind::Flags { .. }
                | Kind::Items { .. }
                | Kind::Values { .. }
                | Kind::Nested
                | Kind::Spread { .. }
                | Kind::Hook
        )
    }
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub key: String,
    pub aliases: Vec<String>,
    pub default: Option<Expr>,
    pub kind: Kind,
    /// The part's tail is written before this field.
    pub tail: bool,
    /// `none("Multiple", "None")`: a `u32` whose `0xffffffff` is a word
    /// (the first written, every one read).
    pub none: Vec<LitStr>,
    /// Written unless zero in all its bits.
    pub nonzero: bool,
    /// With `none`: `0xffffffff` is written as its number, the words read
    /// only.
    pub numbered: bool,
    /// A missing key is an error.
    pub required: bool,
    /// Its value becomes the version the rest of the text is read in.
    pub sets_version: bool,
    /// `within = "Particle"`: read from and written into that sub-block.
    pub within: Option<String>,
    /// `absent = "ExtNoEventTrack"`: an `Option` whose `None` is this word;
    /// missing, it is `Some` of its default.
    pub absent: Option<LitStr>,
    /// `unless = -1`: written unless it is this value, its value when missing.
    pub unless: Option<Expr>,
    /// `says(flags = 2)`: its key (a static value or a track) says that
    /// bit of that `flags` field, which has no word written for it.
    pub says: Option<Says>,
}

/// `says(flags = 2)` on a field.
pub struct Says {
    /// The `flags` field whose bit the key says.
    pub flags: Ident,
    /// The bit.
    pub bit: Expr,
    /// Where the attribute is, for errors.
    pub span: Span,
}

/// `snake_case` to `UpperCamelCase`: a field's key when it names none.
fn camel(ident: &Ident) -> String {
    let text = ident.to_string();
    let text = text.strip_prefix("r#").unwrap_or(&text);
    text.split('_')
        .map(|part| {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

fn mdl_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("mdl"))
}

fn key_of(meta: &ParseNestedMeta) -> (String, Span) {
    match meta.path.get_ident() {
        Some(ident) => (ident.to_string(), ident.span()),
        None => ("?".into(), Span::call_site()),
    }
}

/// Records `span` for `key`, or an error if the key was given already.
fn once(cx: &Ctxt, seen: &mut Vec<(String, Span)>, key: &str, span: Span) {
    if seen.iter().any(|(k, _)| k == key) {
        cx.error_at(span, format!("duplicate `{key}` attribute"));
    } else {
        seen.push((key.into(), span));
    }
}

fn unknown(cx: &Ctxt, key: &str, span: Span, allowed: &[&str], place: &str) {
    let list = allowed
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    cx.error_at(
        span,
        format!("unknown #[mdl] attribute `{key}` on {place}; expected one of {list}"),
    );
}

/// [`unknown`], then its value skipped, if it has one, so that the keys
/// after it are still read (and checked).
fn unknown_skipped(
    cx: &Ctxt,
    key: &str,
    span: Span,
    allowed: &[&str],
    place: &str,
    meta: &ParseNestedMeta,
) -> syn::Result<()> {
    unknown(cx, key, span, allowed, place);
    if meta.input.peek(syn::Token![=]) {
        let _: Expr = meta.value()?.parse()?;
    }
    Ok(())
}

/// `key = "Word"`: a string that is an MDL keyword (checked).
fn keyword_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    let lit: LitStr = meta.value()?.parse()?;
    keyword(cx, &lit);
    Ok(lit)
}

/// `key(a, b, c)`: the comma-separated list in the parentheses.
fn parenthesized<T: syn::parse::Parse>(meta: &ParseNestedMeta) -> syn::Result<Vec<T>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let list = syn::punctuated::Punctuated::<T, syn::Token![,]>::parse_terminated(&content)?;
    Ok(list.into_iter().collect())
}

/// An MDL keyword: a word of letters, digits and `_` (a key the reader can
/// match; `"Ext Tracks"` or `""` could never be read back).
fn keyword(cx: &Ctxt, lit: &LitStr) {
    let text = lit.value();
    let ok = text.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ok {
        cx.error_spanned(
            lit,
            format!("`{text}` is not an MDL keyword (letters, digits and `_`, from a letter)"),
        );
    }
}

/// The type inside `Option<..>` or `Vec<..>`, if `ty` is one.
pub fn wrapped<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(args) => match args.args.first()? {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Container<'a> {
    pub fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Option<Container<'a>> {
        let mut seen = Vec::new();
        let mut block: Option<LitStr> = None;
        let mut name: Option<(Vec<Ident>, Span)> = None;
        let mut krate: Option<syn::Path> = None;
        let mut order: Option<(Vec<Ident>, Span)> = None;
        let mut check: Option<syn::Path> = None;
        let mut hook: Option<(syn::Path, Span)> = None;
        for attr in mdl_attrs(&input.attrs) {
            let parsed = attr.parse_nested_meta(|meta| {
                let (key, span) = key_of(&meta);
                match key.as_str() {
                    "block" => {
                        once(cx, &mut seen, &key, span);
                        block = Some(keyword_value(cx, &meta)?);
                    }
                    "name" => {
                        once(cx, &mut seen, &key, span);
                        let expr: Expr = meta.value()?.parse()?;
                        match field_path(&expr) {
                            Some(path) => name = Some((path, span)),
                            None => cx.error_spanned(
                                &expr,
                                "`name` names the field that holds the block's name \
                                 (`name = name`, `name = node.name`)",
                            ),
                        }
                    }
                    "order" => {
                        once(cx, &mut seen, &key, span);
                        order = Some((parenthesized(&meta)?, span));
                    }
                    "hook" => {
                        once(cx, &mut seen, &key, span);
                        let expr: Expr = meta.value()?.parse()?;
                        match expr {
                            Expr::Path(p) => hook = Some((p.path, span)),
                            other => cx.error_spanned(
                                &other,
                                "`hook` names a type implementing `mdl::Hook<Self>`: `hook = path::Type`",
                            ),
                        }
                    }
                    "check" => {
                        once(cx, &mut seen, &key, span);
                        let expr: Expr = meta.value()?.parse()?;
                        match expr {
                            Expr::Path(p) => check = Some(p.path),
                            other => cx.error_spanned(
                                &other,
                                "`check` names a function: `check = path::to::check`",
                            ),
                        }
                    }
                    "crate" => {
                        once(cx, &mut seen, &key, span);
                        let lit: LitStr = meta.value()?.parse()?;
                        match lit.parse::<syn::Path>() {
                            Ok(path) => krate = Some(path),
                            Err(_) => cx.error_spanned(&lit, "`crate` must be a path"),
                        }
                    }
                    _ => {
                        unknown_skipped(cx, &key, span, CONTAINER_KEYS, "a container", &meta)?;
                    }
                }
                Ok(())
            });
            if let Err(e) = parsed {
                cx.syn_error(e);
            }
        }
        let rt = Runtime::find(krate.as_ref());
        let body = match &input.data {
            Data::Struct(data) => {
                let Some(keyword) = block else {
                    cx.error_spanned(
                        &input.ident,
                        "#[derive(Mdl)] on a struct needs #[mdl(block = \"Keyword\")]: the \
                         keyword that opens its block",
                    );
                    return None;
                };
                let Fields::Named(named) = &data.fields else {
                    cx.error_spanned(
                        &input.ident,
                        "#[derive(Mdl)] needs named fields: each is a key of the block",
                    );
                    return None;
                };
                let fields: Vec<Field> = named.named.iter().filter_map(|f| field(cx, f)).collect();
                check_block(cx, &fields, name.as_ref());
                check_hook(cx, &fields, hook.as_ref());
                if let Some((order, span)) = &order {
                    check_order(cx, &fields, name.as_ref(), order, *span);
                }
                Body::Block(Block {
                    keyword,
                    name: name.map(|(path, _)| path),
                    order: order.map(|(o, _)| o),
                    fields,
                    check,
                    hook: hook.map(|(path, _)| path),
                })
            }
            Data::Enum(data) => {
                if let Some(lit) = &block {
                    cx.error_spanned(
                        lit,
                        "`block` is for a struct; an enum's variants are words \
                         (#[mdl(word = \"...\")] on each)",
                    );
                }
                if let Some((_, span)) = &name {
                    cx.error_at(*span, "`name` is for a struct");
                }
                if let Some((_, span)) = &order {
                    cx.error_at(*span, "`order` is for a struct");
                }
                if let Some(path) = &check {
                    cx.error_spanned(path, "`check` is for a struct (a block read)");
                }
                if let Some((_, span)) = &hook {
                    cx.error_at(*span, "`hook` is for a struct (a block read)");
                }
                let mut words = Vec::new();
                for v in &data.variants {
                    let mut word: Option<LitStr> = None;
                    let mut vseen = Vec::new();
                    for attr in mdl_attrs(&v.attrs) {
                        let parsed = attr.parse_nested_meta(|meta| {
                            let (key, span) = key_of(&meta);
                            if key == "word" {
                                once(cx, &mut vseen, &key, span);
                                let lit = keyword_value(cx, &meta)?;
                                if let Some((other, _)) = words
                                    .iter()
                                    .find(|(_, w): &&(&Ident, LitStr)| w.value() == lit.value())
                                {
                                    cx.error_spanned(
                                        &lit,
                                        format!(
                                            "the word `{}` is `{other}`'s already",
                                            lit.value()
                                        ),
                                    );
                                }
                                word = Some(lit);
                            } else {
                                unknown(cx, &key, span, VARIANT_KEYS, "a variant");
                            }
                            Ok(())
                        });
                        if let Err(e) = parsed {
                            cx.syn_error(e);
                        }
                    }
                    match (word, &v.fields) {
                        (Some(word), Fields::Unit) => words.push((&v.ident, word)),
                        (Some(word), _) => cx.error_spanned(
                            &word,
                            "a word names a unit variant (a value); this one holds data",
                        ),
                        // The fallback (`Other(u32)`) and values with no word.
                        (None, _) => {}
                    }
                }
                if words.is_empty() {
                    cx.error_spanned(
                        &input.ident,
                        "#[derive(Mdl)] on an enum needs #[mdl(word = \"...\")] on at least \
                         one unit variant",
                    );
                }
                let fallback = data.variants.iter().any(|v| !v.fields.is_empty());
                Body::Words(words, fallback)
            }
            Data::Union(_) => {
                cx.error_spanned(&input.ident, "#[derive(Mdl)] does not support unions");
                return None;
            }
        };
        Some(Container {
            ident: &input.ident,
            generics: &input.generics,
            rt,
            body,
        })
    }
}

/// `name` or `node.name`: the fields of a path to a field.
fn field_path(expr: &Expr) -> Option<Vec<Ident>> {
    match expr {
        Expr::Path(p) => Some(vec![p.path.get_ident()?.clone()]),
        Expr::Field(f) => {
            let mut path = field_path(&f.base)?;
            match &f.member {
                syn::Member::Named(ident) => path.push(ident.clone()),
                syn::Member::Unnamed(_) => return None,
            }
            Some(path)
        }
        _ => None,
    }
}

/// One field's attributes.
fn field<'a>(cx: &Ctxt, f: &'a syn::Field) -> Option<Field<'a>> {
    let ident = f.ident.as_ref()?;
    let mut seen: Vec<(String, Span)> = Vec::new();
    let mut key: Option<LitStr> = None;
    let mut aliases: Vec<LitStr> = Vec::new();
    let mut default = None;
    let mut since: Option<LitInt> = None;
    let mut tracks_in: Option<LitStr> = None;
    let mut word: Option<LitStr> = None;
    let mut part_args: Option<Option<Expr>> = None;
    let mut none: Vec<LitStr> = Vec::new();
    let mut table: Vec<(Ident, Expr)> = Vec::new();
    let mut items_what: Option<LitStr> = None;
    let mut each_key: Option<LitStr> = None;
    let mut within: Option<LitStr> = None;
    let mut absent: Option<LitStr> = None;
    let mut unless: Option<Expr> = None;
    let mut array_entry: Option<LitStr> = None;
    let mut choice: Vec<LitStr> = Vec::new();
    let mut says: Option<Says> = None;
    let mut members: Vec<(Ident, LitStr)> = Vec::new();
    let mut until: Option<LitInt> = None;
    let mut default_from: Option<LitInt> = None;
    for attr in mdl_attrs(&f.attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            let (k, span) = key_of(&meta);
            if k != "alias" {
                once(cx, &mut seen, &k, span);
            } else {
                seen.push((k.clone(), span));
            }
            match k.as_str() {
                "key" => key = Some(keyword_value(cx, &meta)?),
                "alias" => aliases.push(keyword_value(cx, &meta)?),
                "within" => within = Some(keyword_value(cx, &meta)?),
                "absent" => absent = Some(keyword_value(cx, &meta)?),
                "unless" => unless = Some(meta.value()?.parse::<Expr>()?),
                "default" => default = Some(meta.value()?.parse::<Expr>()?),
                "since" => since = Some(meta.value()?.parse()?),
                "until" => until = Some(meta.value()?.parse()?),
                "default_from" => default_from = Some(meta.value()?.parse()?),
                "spread" => {
                    let pairs: Vec<syn::MetaNameValue> = parenthesized(&meta)?;
                    if pairs.is_empty() {
                        cx.error_at(
                            span,
                            "`spread` needs at least one member: `spread(color = \"FresnelColor\")`",
                        );
                    }
                    for pair in pairs {
                        let lit = match &pair.value {
                            Expr::Lit(syn::ExprLit {
                                lit: syn::Lit::Str(lit),
                                ..
                            }) => lit.clone(),
                            other => {
                                cx.error_spanned(
                                    other,
                                    "a spread member's key is a string: `color = \"FresnelColor\"`",
                                );
                                continue;
                            }
                        };
                        keyword(cx, &lit);
                        match pair.path.get_ident() {
                            Some(member) if members.iter().any(|(m, _)| m == member) => cx
                                .error_spanned(
                                    member,
                                    format!("the member `{member}` is given twice"),
                                ),
                            Some(member) => members.push((member.clone(), lit)),
                            None => cx.error_spanned(
                                &pair.path,
                                "a spread member is a field of the value's type: `color = \"FresnelColor\"`",
                            ),
                        }
                    }
                }
                "tracks_in" => tracks_in = Some(keyword_value(cx, &meta)?),
                "word" => word = Some(keyword_value(cx, &meta)?),
                "part" => {
                    let mut args = None;
                    if meta.input.peek(syn::token::Paren) {
                        meta.parse_nested_meta(|inner| {
                            if inner.path.is_ident("args") {
                                args = Some(inner.value()?.parse::<Expr>()?);
                                Ok(())
                            } else {
                                Err(inner.error("expected `args = <expr>`"))
                            }
                        })?;
                    }
                    part_args = Some(args);
                }
                "none" => {
                    let words: Vec<LitStr> = parenthesized(&meta)?;
                    for lit in &words {
                        keyword(cx, lit);
                    }
                    if words.is_empty() {
                        cx.error_at(span, "`none` needs at least one word: `none(\"None\")`");
                    }
                    none = words;
                }
                "flags" => {
                    let pairs: Vec<syn::MetaNameValue> = parenthesized(&meta)?;
                    for pair in pairs {
                        match pair.path.get_ident() {
                            Some(word) => {
                                if table.iter().any(|(w, _)| w == word) {
                                    cx.error_spanned(
                                        word,
                                        format!("the flag word `{word}` is given twice"),
                                    );
                                }
                                table.push((word.clone(), pair.value));
                            }
                            None => cx.error_spanned(
                                &pair.path,
                                "a flag word is one word: `WrapWidth = 1`",
                            ),
                        }
                    }
                    if table.is_empty() {
                        cx.error_at(
                            span,
                            "`flags` needs at least one word: `flags(WrapWidth = 1)`",
                        );
                    }
                }
                "items" | "values" => {
                    if meta.input.peek(syn::Token![=]) {
                        items_what = Some(meta.value()?.parse()?);
                    }
                }
                "each" => each_key = Some(keyword_value(cx, &meta)?),
                "array" => array_entry = Some(keyword_value(cx, &meta)?),
                "words" => {
                    let words: Vec<LitStr> = parenthesized(&meta)?;
                    for (i, lit) in words.iter().enumerate() {
                        keyword(cx, lit);
                        if words[..i].iter().any(|w| w.value() == lit.value()) {
                            cx.error_spanned(
                                lit,
                                format!("the word `{}` is given twice", lit.value()),
                            );
                        }
                    }
                    if words.is_empty() {
                        cx.error_at(
                            span,
                            "`words` needs at least one word: `words(\"Head\", \"Tail\")`",
                        );
                    }
                    choice = words;
                }
                "says" => {
                    let pairs: Vec<syn::MetaNameValue> = parenthesized(&meta)?;
                    match pairs.as_slice() {
                        [pair] if pair.path.get_ident().is_some() => {
                            says = pair.path.get_ident().map(|flags| Says {
                                flags: flags.clone(),
                                bit: pair.value.clone(),
                                span,
                            });
                        }
                        _ => cx.error_at(
                            span,
                            "`says` names one `flags` field and its bit: `says(flags = 2)`",
                        ),
                    }
                }
                "required" | "sets_version" | "static" | "rgb" | "nonzero" | "numbered"
                | "optional" | "list" | "tracks" | "tail" | "skip" | "nested" | "worded"
                | "hook" => {}
                _ => {
                    unknown_skipped(cx, &k, span, FIELD_KEYS, "a field", &meta)?;
                }
            }
            Ok(())
        });
        if let Err(e) = parsed {
            cx.syn_error(e);
            return None;
        }
    }
    let has = |k: &str| seen.iter().find(|(s, _)| s == k).map(|(_, span)| *span);
    let statik = has("static").is_some();
    let rgb = has("rgb").is_some();
    // The kind words, of which a field has at most one.
    let kinds: Vec<(&str, Span)> = [
        "optional",
        "since",
        "list",
        "tracks",
        "tracks_in",
        "word",
        "part",
        "skip",
        "flags",
        "items",
        "each",
        "values",
        "nested",
        "words",
        "array",
        "worded",
        "spread",
        "hook",
    ]
    .into_iter()
    .filter_map(|k| has(k).map(|span| (k, span)))
    // A spread value may start at a version: `since` is its modifier.
    .filter(|(k, _)| !(*k == "since" && has("spread").is_some()))
    .collect();
    if let [(first, _), (second, span), ..] = kinds.as_slice() {
        cx.error_at(
            *span,
            format!("`{second}` and `{first}` cannot be combined"),
        );
    }
    let kind_word = kinds.first().map(|(k, _)| *k);
    // `static` and `rgb` are how a value is written: not for what is not a
    // value (an array's values may be colours).
    if let Some(k) = kind_word.filter(|k| !matches!(*k, "optional" | "since")) {
        for modifier in ["static", "rgb", "nonzero"] {
            if (modifier == "rgb" && k == "array") || (modifier == "static" && k == "spread") {
                continue;
            }
            if let Some(span) = has(modifier) {
                cx.error_at(span, format!("`{modifier}` is for a value, not with `{k}`"));
            }
        }
    }
    // Keys are for what is read by a key (a `flags` field's `key` is its
    // `ExtFlags`, which has no other spelling).
    if matches!(
        kind_word,
        Some(
            "tracks"
                | "part"
                | "skip"
                | "flags"
                | "items"
                | "values"
                | "nested"
                | "spread"
                | "hook"
        )
    ) {
        for k in ["key", "alias"] {
            // A `flags` field's `ExtFlags` may have other spellings
            // (war3-model's `RenderMode`).
            if kind_word == Some("flags") {
                continue;
            }
            if let Some(span) = has(k) {
                cx.error_at(
                    span,
                    format!(
                        "`{k}` is for a keyed field; `{}` has none",
                        kind_word.unwrap_or("")
                    ),
                );
            }
        }
    }
    if let Some(span) = has("default")
        && matches!(kind_word, Some("tracks" | "tracks_in" | "part"))
    {
        cx.error_at(
            span,
            "`default` is for a value; tracks and parts start empty",
        );
    }
    if let Some(span) = has("none") {
        if let Some(k) = kind_word {
            cx.error_at(span, format!("`none` is for a `u32` value, not with `{k}`"));
        }
        for modifier in ["static", "rgb"] {
            if has(modifier).is_some() {
                cx.error_at(span, format!("`none` and `{modifier}` cannot be combined"));
            }
        }
    }
    // `until` bounds the versions of a `since`; `default_from` says from
    // which version a missing spread value is there all the same.
    if let Some(span) = has("until")
        && kind_word != Some("since")
    {
        cx.error_at(
            span,
            "`until` is the version a `since` value ends before: it goes with `since`",
        );
    }
    if let Some(span) = has("default_from")
        && !(kind_word == Some("spread") && has("since").is_some())
    {
        cx.error_at(
            span,
            "`default_from` is the version from which a missing `spread` value with `since` is \
             its default: it goes with `spread` and `since`",
        );
    }
    for (k, wrapper) in [
        ("optional", "Option"),
        ("since", "Option"),
        ("spread", "Option"),
    ] {
        if kind_word == Some(k) && wrapped(&f.ty, wrapper).is_none() {
            cx.error_spanned(&f.ty, format!("`{k}` is for an `Option<T>` field"));
        }
    }
    if let Some(span) = has("nonzero")
        && has("none").is_some()
    {
        cx.error_at(span, "`nonzero` and `none` cannot be combined");
    }
    if let Some(span) = has("numbered")
        && has("none").is_none()
    {
        cx.error_at(
            span,
            "`numbered` says a `none` field writes `0xffffffff` as its number: it goes with `none`",
        );
    }
    for k in ["required", "sets_version"] {
        if let Some(span) = has(k)
            && kind_word.is_some()
            // A word may be required: a block without it is refused.
            && !(k == "required" && kind_word == Some("word"))
        {
            let what = if k == "required" {
                "a plain value or a `word`"
            } else {
                "a plain value"
            };
            cx.error_at(
                span,
                format!(
                    "`{k}` is for {what}, not with `{}`",
                    kind_word.unwrap_or("")
                ),
            );
        }
    }
    if let (Some(span), Some(_)) = (has("required"), has("default")) {
        cx.error_at(
            span,
            "`required` and `default` cannot be combined: a missing key is an error",
        );
    }
    for k in ["list", "tracks", "tracks_in", "items", "each", "values"] {
        if kind_word == Some(k) && wrapped(&f.ty, "Vec").is_none() {
            cx.error_spanned(&f.ty, format!("`{k}` is for a `Vec<T>` field"));
        }
    }
    if kind_word == Some("array") && !matches!(f.ty, Type::Array(_)) {
        cx.error_spanned(&f.ty, "`array` is for a `[T; N]` field");
    }
    // A statement saying a bit is a value of its own, or a track of its key,
    // written when the bit or its value says so.
    if let Some(says) = &says {
        if let Some(k) = kind_word {
            cx.error_at(
                says.span,
                format!(
                    "`says` is for a plain value (its key, or a track of it, says the bit), not with `{k}`"
                ),
            );
        }
        for other in ["nonzero", "unless", "required", "none"] {
            if has(other).is_some() {
                cx.error_at(
                    says.span,
                    format!(
                        "`says` and `{other}` cannot be combined: the bit and the default decide \
                         when it is written"
                    ),
                );
            }
        }
    }
    // `absent` names the `None` of an `Option` read by its key or keyword.
    if let Some(span) = has("absent") {
        match kind_word {
            Some("optional" | "nested") => {}
            _ => cx.error_at(
                span,
                "`absent` is for an `optional` or `nested` `Option<T>` field: the word its \
                 `None` is written as",
            ),
        }
        if wrapped(&f.ty, "Option").is_none() {
            cx.error_spanned(&f.ty, "`absent` is for an `Option<T>` field");
        }
    }
    // `unless` is the one value a plain value is not written for.
    if let Some(span) = has("unless") {
        if let Some(k) = kind_word {
            cx.error_at(
                span,
                format!("`unless` is for a plain value, not with `{k}`"),
            );
        }
        for other in ["default", "nonzero", "required"] {
            if has(other).is_some() {
                cx.error_at(
                    span,
                    format!("`unless` and `{other}` cannot be combined: `unless` is the value when missing"),
                );
            }
        }
    }
    // A sub-block holds statements read by their key.
    if let Some(span) = has("within")
        && let Some(k) = kind_word.filter(|k| !matches!(*k, "optional" | "since" | "list"))
    {
        cx.error_at(
            span,
            format!("`within` is for a keyed value (`Key value,`, `optional`, `since`, `list`), not with `{k}`"),
        );
    }
    let kind = match kind_word {
        Some("optional") => Kind::Optional { statik, rgb },
        Some("since") => Kind::Since {
            statik,
            rgb,
            version: since?,
            until,
        },
        Some("spread") => Kind::Spread {
            members,
            statik,
            since,
            default_from,
        },
        Some("worded") => Kind::Worded,
        Some("hook") => Kind::Hook,
        Some("list") => Kind::List,
        Some("tracks") => Kind::Tracks,
        Some("tracks_in") => Kind::TracksIn,
        Some("word") => Kind::Word,
        Some("part") => Kind::Part { args: part_args? },
        Some("skip") => Kind::Skip,
        Some("flags") => Kind::Flags {
            table,
            ext: key
                .as_ref()
                .map_or_else(|| "ExtFlags".into(), LitStr::value),
        },
        Some("words") => Kind::Choice { words: choice },
        Some("array") => Kind::Array {
            entry: array_entry?,
            rgb,
        },
        Some("items") => Kind::Items {
            what: items_what.map_or_else(|| ident.to_string().replace('_', " "), |w| w.value()),
        },
        Some("values") => Kind::Values {
            what: items_what.map_or_else(|| ident.to_string().replace('_', " "), |w| w.value()),
        },
        Some("nested") => Kind::Nested,
        Some("each") => Kind::Each {
            what: ident.to_string().replace('_', " "),
        },
        _ => Kind::Value { statik, rgb },
    };
    let key = match (&kind, tracks_in.or(each_key), word, key) {
        (Kind::TracksIn | Kind::Each { .. }, Some(lit), _, _) | (Kind::Word, _, Some(lit), _) => {
            lit.value()
        }
        (_, _, _, Some(lit)) => lit.value(),
        _ => camel(ident),
    };
    Some(Field {
        ident,
        ty: &f.ty,
        key,
        aliases: aliases.iter().map(LitStr::value).collect(),
        default,
        kind,
        tail: has("tail").is_some(),
        none,
        nonzero: has("nonzero").is_some(),
        numbered: has("numbered").is_some(),
        required: has("required").is_some(),
        sets_version: has("sets_version").is_some(),
        within: within.as_ref().map(LitStr::value),
        absent,
        unless,
        says,
    })
}

/// Checks across the fields: one part, a tail with it, no key twice, the
/// name a field.
fn check_block(cx: &Ctxt, fields: &[Field], name: Option<&(Vec<Ident>, Span)>) {
    let parts: Vec<&Field> = fields
        .iter()
        .filter(|f| matches!(f.kind, Kind::Part { .. }))
        .collect();
    if let [_, second, ..] = parts.as_slice() {
        cx.error_spanned(second.ident, "a block has at most one `part`");
    }
    let tails: Vec<&Field> = fields.iter().filter(|f| f.tail).collect();
    if let Some(tail) = tails.first()
        && parts.is_empty()
    {
        cx.error_spanned(
            tail.ident,
            "`tail` says where a `part`'s tail is written; this block has no part",
        );
    }
    if let [_, second, ..] = tails.as_slice() {
        cx.error_spanned(second.ident, "`tail` is given on one field only");
    }
    // Each `flags` field has its own key for the bits no word names.
    let flags: Vec<(&Field, &str)> = fields
        .iter()
        .filter_map(|f| match &f.kind {
            Kind::Flags { ext, .. } => Some((f, ext.as_str())),
            _ => None,
        })
        .collect();
    for (i, (f, ext)) in flags.iter().enumerate() {
        if flags[..i].iter().any(|(_, other)| other == ext) {
            cx.error_spanned(
                f.ident,
                format!(
                    "two `flags` fields share `{ext}`: give one its own `key` for the bits no word names"
                ),
            );
        }
    }
    // `says` names a `flags` field of the block.
    for f in fields {
        if let Some(says) = &f.says
            && !flags.iter().any(|(g, _)| *g.ident == says.flags)
        {
            cx.error_spanned(
                &says.flags,
                format!(
                    "`says` names a `flags` field of this block; `{}` is not one",
                    says.flags
                ),
            );
        }
    }
    let counted: Vec<&Field> = fields
        .iter()
        .filter(|f| {
            matches!(
                f.kind,
                Kind::Items { .. } | Kind::Each { .. } | Kind::Values { .. }
            )
        })
        .collect();
    if let [_, second, ..] = counted.as_slice() {
        cx.error_spanned(
            second.ident,
            "a block has at most one field of `items`, `each` or `values`: the block's header \
             counts it",
        );
    }
    if let Some(values) = fields
        .iter()
        .find(|f| matches!(f.kind, Kind::Values { .. }))
    {
        for f in fields {
            let beside = matches!(f.kind, Kind::Skip | Kind::Value { .. }) && f.within.is_none();
            if f.ident != values.ident && !beside {
                cx.error_spanned(
                    f.ident,
                    format!(
                        "`{}` is the block's values (`values`): other fields are plain keyed \
                         values (`GlobalSeqId 0,`) or `skip`",
                        values.ident
                    ),
                );
            }
        }
    }
    if let (Some((_, span)), Some(first)) = (name, counted.first()) {
        cx.error_at(
            *span,
            format!("a block whose header counts `{}` has no name", first.ident),
        );
    }
    // Keys are told apart within their block: the block's own, or a
    // sub-block's (`within`).
    let mut keys: Vec<(Option<&str>, String, &Ident)> = Vec::new();
    for f in fields {
        // The words of a `words` field and the key of a `flags` field's
        // other bits are read as keys too.
        let mut read_as: Vec<String> = match &f.kind {
            Kind::Flags { ext, table } => std::iter::once(ext.clone())
                .chain(table.iter().map(|(w, _)| w.to_string()))
                .collect(),
            Kind::Choice { words } => words.iter().map(LitStr::value).collect(),
            Kind::Spread { members, .. } => members.iter().map(|(_, k)| k.value()).collect(),
            _ if f.kind.keyed() => Vec::new(),
            _ => continue,
        };
        // A word given twice in its own list is reported there.
        read_as.sort();
        read_as.dedup();
        let scope = f.within.as_deref();
        let own = f.kind.keyed().then(|| f.key.clone());
        for k in own
            .into_iter()
            .chain(f.aliases.iter().cloned())
            .chain(read_as)
        {
            match keys.iter().find(|(s, seen, _)| *s == scope && *seen == k) {
                // Two `flags` fields sharing `ExtFlags` are reported above.
                Some((_, _, other))
                    if matches!(f.kind, Kind::Flags { ref ext, .. } if *ext == k)
                        && fields
                            .iter()
                            .any(|g| g.ident == *other && matches!(g.kind, Kind::Flags { .. })) => {
                }
                Some((_, _, other)) if *other == f.ident => cx.error_spanned(
                    f.ident,
                    format!(
                        "`{k}` is both a word of `{other}` and its key: give it a `key` for the \
                         numbers no word has (`key = \"Ext{k}\"`)"
                    ),
                ),
                Some((_, _, other)) => cx.error_spanned(
                    f.ident,
                    format!(
                        "the key `{k}` is `{other}`'s already: the reader could not tell them apart"
                    ),
                ),
                None => keys.push((scope, k, f.ident)),
            }
        }
    }
    // A sub-block's keyword is not a key of the block: the reader would
    // take the block for the field.
    for f in fields {
        if let Some(block) = &f.within
            && let Some((_, _, other)) = keys.iter().find(|(s, k, _)| s.is_none() && k == block)
        {
            cx.error_spanned(
                f.ident,
                format!("the sub-block `{block}` is the key of `{other}`: the reader could not tell them apart"),
            );
        }
    }
    if let Some((path, span)) = name {
        match path
            .first()
            .and_then(|first| fields.iter().find(|f| f.ident == first))
        {
            None => cx.error_at(*span, "`name` must name a field of this struct"),
            Some(f)
                if path.len() == 1
                    && (f.within.is_some()
                        || !matches!(
                            f.kind,
                            Kind::Value {
                                statik: false,
                                rgb: false
                            }
                        )) =>
            {
                cx.error_at(*span, "the name field takes no other #[mdl] attribute")
            }
            Some(f) if path.len() > 1 && !matches!(f.kind, Kind::Part { .. }) => cx.error_at(
                *span,
                "a name inside a field (`node.name`) is in the block's `part`",
            ),
            Some(_) => {}
        }
    }
}

/// A block's `hook` and the fields it reads and writes go together.
fn check_hook(cx: &Ctxt, fields: &[Field], hook: Option<&(syn::Path, Span)>) {
    let hooked: Vec<&Field> = fields
        .iter()
        .filter(|f| matches!(f.kind, Kind::Hook))
        .collect();
    match (hook, hooked.first()) {
        (None, Some(f)) => cx.error_spanned(
            f.ident,
            format!(
                "`{}` is read and written by the block's hook; this block names none \
                 (`#[mdl(hook = Type)]`)",
                f.ident
            ),
        ),
        (Some((_, span)), None) => cx.error_at(
            *span,
            "`hook` reads and writes the fields marked `#[mdl(hook)]`; this block marks none",
        ),
        _ => {}
    }
}

/// `order(..)` names every field that is written, once each, and nothing else.
fn check_order(
    cx: &Ctxt,
    fields: &[Field],
    name: Option<&(Vec<Ident>, Span)>,
    order: &[Ident],
    span: Span,
) {
    let name_field = name.and_then(|(path, _)| (path.len() == 1).then(|| path.first()).flatten());
    for (i, ident) in order.iter().enumerate() {
        if order.iter().take(i).any(|o| o == ident) {
            cx.error_spanned(ident, format!("`{ident}` is in `order` twice"));
        }
        match fields.iter().find(|f| f.ident == ident) {
            None => cx.error_spanned(ident, format!("`{ident}` is not a field of this struct")),
            Some(f) if matches!(f.kind, Kind::Skip) || Some(ident) == name_field => cx
                .error_spanned(
                    ident,
                    format!("`{ident}` is not written in the block (the name or `skip`)"),
                ),
            Some(_) => {}
        }
    }
    for f in fields {
        let written = !matches!(f.kind, Kind::Skip) && Some(f.ident) != name_field;
        if written && !order.iter().any(|o| o == f.ident) {
            cx.error_at(
                span,
                format!(
                    "`order` leaves out `{}`: it names every field written",
                    f.ident
                ),
            );
        }
    }
}
