//! The checks, in their own pass over the model: every misuse of an
//! attribute is reported, spanned at the attribute, all at once.

use proc_macro2::Span;
use syn::Data;

use crate::attr::REPR_INTEGERS;
use crate::ctxt::Ctxt;
use crate::model::enums::{Shape, VariantInfo};
use crate::model::{
    Body, Container, DataField, Dispatch, Field, FieldKind, Len, Source, Target, ValueSpec,
    array_len, ends_with, generic_arg, is_named,
};
use crate::symbol::*;

pub fn check(cx: &Ctxt, cont: &Container) {
    container(cx, cont);
    match &cont.body {
        Body::Struct(fields) => {
            // A field whose keys failed to parse may have named others (a
            // `split`'s tails): what they lack is not reported again.
            let broken = fields.iter().any(|f| f.broken);
            for f in fields {
                field(cx, f, broken);
            }
            offsets(cx, cont, fields);
            order(cx, fields);
            splits(cx, fields);
            if cont.record.is_some() {
                record(cx, cont);
            }
        }
        Body::Plain(_) => plain(cx, cont),
        Body::TagEnum(_) => tag_enum(cx, cont),
        Body::CondEnum(_) => cond_enum(cx, cont),
        Body::ValueEnum { repr, .. } => value_enum(cx, cont, repr),
    }
}

fn container(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    if let (Some(repr), false) = (&a.repr, matches!(cont.body, Body::ValueEnum { .. })) {
        cx.error_at(repr.span, "`repr` only applies to enums of values");
    }
    if let (Some(magic), Some(_)) = (&a.magic, &a.chunk) {
        cx.error_at(
            magic.span,
            "`magic` and `chunk` both put a tag first; use one of them",
        );
    }
    if let Some(region) = &a.region {
        if !matches!(cont.body, Body::Struct(_)) {
            cx.error_at(region.span, "`region` applies to structs with fields");
        } else if cont.kept_field().is_none() {
            cx.error_at(
                region.span,
                "a `region` keeps where a file placed its parts: it needs a `#[format(kept)]` field of type `Kept`",
            );
        }
    }
    if let (Data::Enum(_), Some(plain)) = (&cont.input.data, &a.plain) {
        cx.error_at(plain.span, "`plain` applies to structs only");
    }
    if let (false, Some(list)) = (matches!(cont.body, Body::TagEnum(_)), &a.chunk_list) {
        cx.error_at(
            list.span,
            "`chunk_list` applies to an enum of chunks dispatched on their tags",
        );
    }
    if let (false, Some(record)) = (matches!(cont.body, Body::Struct(_)), &a.record) {
        cx.error_at(
            record.span,
            "`record` applies to structs (not `plain` ones, which are records already)",
        );
    }
    if let Data::Enum(data) = &cont.input.data
        && data.variants.is_empty()
    {
        cx.error_spanned(cont.ident, "an enum needs at least one variant to read");
    }
}

/// The container keys that frame a struct's fields (a magic, a chunk
/// header, a size, a region, arguments): none of them fits a `plain`
/// struct or a `record`, which are exactly their fields.
fn framing(a: &crate::attr::ContainerAttrs) -> [Option<(Span, &'static str)>; 5] {
    [
        a.magic.as_ref().map(|x| (x.span, MAGIC)),
        a.chunk.as_ref().map(|x| (x.span, CHUNK)),
        a.inclusive_size.as_ref().map(|x| (x.span, INCLUSIVE_SIZE)),
        a.region.as_ref().map(|x| (x.span, REGION)),
        a.args.as_ref().map(|x| (x.span, ARGS)),
    ]
}

fn plain(cx: &Ctxt, cont: &Container) {
    let a = &cont.attrs;
    let bound = a.bound.as_ref().map(|x| (x.span, BOUND));
    for (span, key) in framing(a).into_iter().chain([bound]).flatten() {
        cx.error_at(
            span,
            format!(
                "`{key}` cannot be combined with `plain`: a plain struct is exactly its fields"
            ),
        );
    }
    if !crate::attr::has_repr_c(&cont.input.attrs) {
        let span = a.plain.as_ref().map_or_else(Span::call_site, |p| p.span);
        cx.error_at(
            span,
            "a `plain` struct needs `#[repr(C)]` so that its memory layout is its field order",
        );
    }
    if !cont.generics.params.is_empty() {
        cx.error_spanned(cont.generics, "a `plain` struct cannot be generic");
    }
    if let Data::Struct(data) = &cont.input.data {
        for f in &data.fields {
            if let Some(attr) = f.attrs.iter().find(|a| a.path().is_ident("format")) {
                cx.error_spanned(
                    attr,
                    "fields of a `plain` struct take no format attributes: each is read as it is",
                );
            }
        }
    }
}

/// A `#[format(record)]` struct: fixed-size fields one after another.
fn record(cx: &Ctxt, cont: &Container) {
    for (span, key) in framing(&cont.attrs).into_iter().flatten() {
        cx.error_at(
            span,
            format!("`{key}` cannot be combined with `record`: a record is exactly its fields"),
        );
    }
    for f in cont.fields() {
        for (_, span) in &f.keys {
            cx.error_at(
                *span,
                "fields of a `record` take no format attributes: each is a fixed-size `Record`",
            );
        }
    }
}

/// `split(tails, ..)`: a counted list whose records continue with the
/// elements of a later field that is a `Vec` without attributes.
fn splits(cx: &Ctxt, fields: &[Field]) {
    for (pos, f) in fields.iter().enumerate() {
        let FieldKind::Data(d) = &f.kind else {
            continue;
        };
        let Some(split) = &d.split else { continue };
        let span = f.key_span(SPLIT);
        let counted = matches!(
            &d.value,
            ValueSpec::Vec {
                len: Len::Prefix(_) | Len::Expr(_),
                ..
            }
        );
        if !counted {
            cx.error_at(
                span,
                "`split` reads a run of records into two arrays: it needs a `Vec` with \
                 `count = u32` or `count = <expr>`",
            );
        }
        for key in [
            TAG, OPTIONAL, IF, READ_IF, READ_WITH, WRITE_WITH, PLACED, ARGS, CLAMP,
        ] {
            if has(f, key) {
                cx.error_at(
                    f.key_span(key),
                    format!(
                        "`{key}` does not apply to a `split` list (its records are read in one run)"
                    ),
                );
            }
        }
        let tails = &split.tails;
        match fields.iter().position(|t| t.local == *tails) {
            None => cx.error_spanned(
                tails,
                format!(
                    "`split` names the field that takes the rest of each record: no field `{tails}`"
                ),
            ),
            Some(at) if at <= pos => cx.error_spanned(
                tails,
                format!(
                    "`{tails}` is read with `{}`'s records, so it must be declared after it",
                    f.name
                ),
            ),
            Some(at) => {
                let t = &fields[at];
                if let Some((_, key_span)) = t.keys.first() {
                    cx.error_at(
                        *key_span,
                        format!("`{tails}` is read and written with `{}`'s records (`split`): it takes no attribute", f.name),
                    );
                } else if split.tail_elem.is_none() {
                    cx.error_spanned(
                        t.ty,
                        format!(
                            "`{tails}` takes the rest of each record of `{}`: it must be a `Vec`",
                            f.name
                        ),
                    );
                }
                let named_twice = fields.iter().filter(|o| {
                    matches!(&o.kind, FieldKind::Data(od) if od.split.as_ref().is_some_and(|s| s.tails == *tails))
                });
                if named_twice.count() > 1 {
                    cx.error_spanned(
                        tails,
                        format!("`{tails}` is named by more than one `split`"),
                    );
                }
            }
        }
    }
}

/// Keys that make a field complete on its own.
fn alone(cx: &Ctxt, f: &Field, key: &str, message: &str) {
    for (k, span) in &f.keys {
        if *k != key {
            cx.error_at(*span, message);
        }
    }
}

fn has(f: &Field, key: &str) -> bool {
    f.keys.iter().any(|(k, _)| *k == key)
}

fn field(cx: &Ctxt, f: &Field, broken: bool) {
    if f.broken {
        return;
    }
    if has(f, SKIP) {
        return alone(
            cx,
            f,
            SKIP,
            "a `skip` field is not on disk and takes no other attribute",
        );
    }
    if has(f, KEPT) {
        alone(cx, f, KEPT, "a `kept` field takes no other attribute");
        if !ends_with(f.ty, "Kept") {
            cx.error_spanned(
                f.ty,
                "a `kept` field holds what a file said that a fresh layout would not give: its type is `Kept`",
            );
        }
        return;
    }
    if has(f, READ_CALC) {
        return alone(
            cx,
            f,
            READ_CALC,
            "a `read_calc` field is computed on read from earlier fields and takes no other attribute",
        );
    }
    let derived = generic_arg(f.ty, "Derived");
    let sources = [CALC, OFFSET, SIZE];
    match derived {
        Some(disk_ty) => {
            let given: Vec<_> = f.keys.iter().filter(|(k, _)| sources.contains(k)).collect();
            if given.is_empty() {
                cx.error_spanned(
                    f.ty,
                    "a `Derived<T>` field needs how it is derived on write: `calc = ...`, \
                     `offset(of = ..., from = ...)` or `size(of = ...)`",
                );
            }
            for (_, span) in given.iter().skip(1) {
                cx.error_at(
                    *span,
                    "a derived field takes one of `calc`, `offset` and `size`",
                );
            }
            for (key, span) in &f.keys {
                if !sources.contains(key) && *key != IF {
                    cx.error_at(
                        *span,
                        "a derived field takes only `calc`, `offset` or `size`, and `if`",
                    );
                }
            }
            let is_table = array_len(disk_ty).is_some()
                && matches!(disk_ty, syn::Type::Array(a) if is_named(&a.elem, "u32"));
            let offset_like = has(f, OFFSET) || has(f, SIZE);
            if offset_like && !(is_named(disk_ty, "u32") || is_table) {
                cx.error_spanned(
                    disk_ty,
                    "an offset or size is a `u32` on disk, or a table of them (`[u32; N]`)",
                );
            }
        }
        None => {
            for key in sources {
                if has(f, key) {
                    cx.error_at(
                        f.key_span(key),
                        format!(
                            "`{key}` needs a field of type `Derived<T>` (T is the on-disk type), so the derived value is never stored"
                        ),
                    );
                }
            }
        }
    }
    if let FieldKind::Data(d) = &f.kind {
        data(cx, f, d, broken);
    }
}

fn data(cx: &Ctxt, f: &Field, d: &DataField, broken: bool) {
    let is_option = generic_arg(f.ty, "Option").is_some();
    let presence = [IF, OPTIONAL, READ_IF]
        .into_iter()
        .find(|k| has(f, k))
        .map(|k| f.key_span(k));
    match (presence, is_option) {
        (Some(span), false) => cx.error_at(
            span,
            "`if`, `read_if` and `optional` make a field sometimes absent, so its type must be `Option<T>`",
        ),
        // Both hooks handle the whole `Option`; a `read_with` alone leaves
        // writing to the declared layout, which needs the presence condition.
        (None, true) if !d.placed && d.read_with.is_some() && d.write_with.is_none() => cx
            .error_at(
                f.key_span(READ_WITH),
                "`read_with` reads this `Option`, but writing follows the declared layout, which needs \
                 when it is present: add `if`, `read_if` or `optional`, or a `write_with` for the whole `Option`",
            ),
        (None, true) if !d.placed && d.read_with.is_none() => cx.error_spanned(
            f.ty,
            "an `Option` field needs `if = <condition>`, `read_if = <condition>` or `optional` (with `tag`) to say when it is present",
        ),
        _ => {}
    }
    if d.optional && d.tag.is_none() {
        cx.error_at(
            f.key_span(OPTIONAL),
            "`optional` decides presence by peeking a tag, so it needs `tag = \"....\"`",
        );
    }
    if d.sets_version
        && !(presence.is_none() && ["u8", "u16", "u32"].iter().any(|t| is_named(f.ty, t)))
    {
        cx.error_at(
            f.key_span(SETS_VERSION),
            "`sets_version` needs a `u8`, `u16` or `u32` field: its value becomes the version",
        );
    }
    if d.placed {
        for key in [
            TAG, OPTIONAL, IF, READ_IF, UNTIL_END, TAGGED, READ_WITH, WRITE_WITH,
        ] {
            if has(f, key) {
                cx.error_at(
                    f.key_span(key),
                    format!(
                        "a `placed` field is read where its offset points and written after the inline part; `{key}` does not apply"
                    ),
                );
            }
        }
    }
    let lens: Vec<&str> = [COUNT, UNTIL_END, TAGGED]
        .into_iter()
        .filter(|k| has(f, k))
        .collect();
    for key in lens.iter().skip(1) {
        cx.error_at(
            f.key_span(key),
            "a `Vec` field takes one of `count`, `until_end` and `tagged`",
        );
    }
    if d.clamp {
        let counted = matches!(
            &d.value,
            ValueSpec::Vec {
                len: Len::Prefix(_) | Len::Expr(_),
                ..
            }
        );
        if !counted || d.read_with.is_some() || d.placed {
            cx.error_at(
                f.key_span(CLAMP),
                "`clamp` fits a count read from the file to the bytes left: it needs a `Vec` \
                 with `count = u32` or `count = <expr>`, read in sequence without `read_with`",
            );
        }
    }
    let both_hooks = d.read_with.is_some() && d.write_with.is_some();
    if let (true, Some(key)) = (both_hooks, lens.first()) {
        cx.error_at(
            f.key_span(key),
            "`read_with` and `write_with` read and write the whole value; a length attribute does not apply",
        );
    }
    let is_vec = generic_arg(d.value_ty, "Vec").is_some();
    // A list a broken field may have named in its `split` is not reported.
    let maybe_tails = broken && f.keys.is_empty();
    match (lens.first(), is_vec) {
        (Some(key), false) => cx.error_at(
            f.key_span(key),
            "`count`, `until_end` and `tagged` give the length of a `Vec<T>`; this field is not a Vec",
        ),
        (None, true) if !(both_hooks || d.placed || maybe_tails) => cx.error_spanned(
            d.value_ty,
            "a `Vec` field needs its length: `count = u32` (a prefix), `count = <expr>`, `count = size / N`, `until_end` or `tagged`",
        ),
        _ => {}
    }
}

/// The fields that offsets and sizes name, and the `kept` field they need.
fn offsets(cx: &Ctxt, cont: &Container, fields: &[Field]) {
    let kepts: Vec<&Field> = fields
        .iter()
        .filter(|f| matches!(f.kind, FieldKind::Kept))
        .collect();
    for extra in kepts.iter().skip(1) {
        cx.error_at(
            extra.key_span(KEPT),
            "a struct has at most one `kept` field",
        );
    }
    let find = |name: &syn::Ident| fields.iter().find(|f| f.local == *name);
    for f in fields {
        let FieldKind::Derived(d) = &f.kind else {
            continue;
        };
        let Some(target) = d.source.target() else {
            continue;
        };
        let key = if matches!(d.source, Source::Offset { .. }) {
            OFFSET
        } else {
            SIZE
        };
        let span = f.key_span(key);
        if kepts.is_empty() {
            cx.error_at(
                span,
                "offsets and sizes are derived on write and what a file wrote differently is kept: \
                 the struct needs a `#[format(kept)]` field of type `Kept`",
            );
        }
        match target {
            Target::Field { ident, .. } | Target::Tagged { list: ident, .. } => {
                match find(ident).map(|t| &t.kind) {
                    Some(FieldKind::Data(t)) => {
                        let tagged = matches!(target, Target::Tagged { .. });
                        let is_vec = generic_arg(t.value_ty, "Vec").is_some();
                        if tagged && (t.placed || !is_vec) {
                            cx.error_at(
                                span,
                                format!("`{ident}[\"TAG\"]` names an element of a list read in sequence: `{ident}` must be such a `Vec`"),
                            );
                        }
                        if t.placed
                            && let ValueSpec::Vec { len, .. } = &t.value
                        {
                            let table = matches!(len, Len::Table);
                            if table != d.array.is_some() {
                                cx.error_at(
                                    span,
                                    "a placed `Vec` is either one element per entry of a table of offsets (`Derived<[u32; N]>`, no `count`) \
                                     or one run of elements at one offset (`Derived<u32>` and `count = ...`)",
                                );
                            }
                        }
                        if !t.placed
                            && d.array.is_some()
                            && !matches!(t.value, ValueSpec::Vec { .. })
                        {
                            cx.error_at(
                                span,
                                "a table of offsets names a `Vec`, one entry per element",
                            );
                        }
                    }
                    Some(_) | None => cx.error_at(
                        span,
                        format!("`{ident}` is not a field read from disk in this struct"),
                    ),
                }
            }
            Target::Parent { .. } => {}
        }
    }
    for f in fields {
        let FieldKind::Data(d) = &f.kind else {
            continue;
        };
        if !d.placed {
            continue;
        }
        let naming = fields
            .iter()
            .filter(|o| {
                matches!(&o.kind, FieldKind::Derived(x)
                    if matches!(&x.source, Source::Offset { of: Target::Field { ident, .. }, .. } if *ident == f.local))
            })
            .count();
        // A field whose attribute failed to parse (already reported) may be
        // the offset that names this one.
        if naming != 1 && !fields.iter().any(|o| o.broken) {
            cx.error_at(
                f.key_span(PLACED),
                format!(
                    "a `placed` field is read where an offset points: exactly one `offset(of = {}, ...)` field must name it ({naming} do)",
                    f.name
                ),
            );
        }
        if cont.kept_field().is_none() {
            cx.error_at(
                f.key_span(PLACED),
                "a struct with `placed` fields needs a `#[format(kept)]` field of type `Kept`",
            );
        }
        let a = &cont.attrs;
        if a.region.is_none() && (a.chunk.is_some() || a.inclusive_size.is_some()) {
            cx.error_at(
                f.key_span(PLACED),
                "a `placed` field of a struct with a size (`chunk`, `inclusive_size`) lies inside \
                 that size: the struct must be its `region` (add `region`), or the size read back \
                 would not match what was written",
            );
        }
    }
}

/// `count = size / N` and `until_end` consume the rest of the region, so their
/// position among the fields read in sequence is constrained.
fn order(cx: &Ctxt, fields: &[Field]) {
    let in_sequence: Vec<&Field> = fields
        .iter()
        .filter(|f| match &f.kind {
            FieldKind::Data(d) => !d.placed,
            FieldKind::Derived(_) => true,
            _ => false,
        })
        .collect();
    for (pos, f) in in_sequence.iter().enumerate() {
        let FieldKind::Data(d) = &f.kind else {
            continue;
        };
        let ValueSpec::Vec { len, span, .. } = &d.value else {
            continue;
        };
        match len {
            Len::Stride(_) if in_sequence.len() != 1 => cx.error_at(
                *span,
                if fields.iter().any(|o| o.local == "size") {
                    "`count = size / N` reads the whole enclosing chunk (`size` is the chunk's size, \
                     a keyword, not the field named `size`: rename the field), so it must be the \
                     only field on disk"
                } else {
                    "`count = size / N` reads the whole enclosing chunk, so it must be the only field on disk"
                },
            ),
            Len::UntilEnd if pos + 1 != in_sequence.len() => cx.error_at(
                *span,
                "`until_end` reads to the end of the enclosing region, so it must be the last field",
            ),
            _ => {}
        }
    }
}

fn variant_keys_only(cx: &Ctxt, v: &VariantInfo, allowed: &[&str], message: &str) {
    for (key, span) in &v.keys {
        if !allowed.contains(key) {
            cx.error_at(*span, message);
        }
    }
}

fn tag_enum(cx: &Ctxt, cont: &Container) {
    let mut seen: Vec<([u8; 4], bool)> = Vec::new();
    let mut unknown_seen = false;
    for v in &cont.variants {
        if v.shape != Shape::One {
            cx.error_at(
                v.span,
                "a variant of a tag-dispatched enum holds exactly one value: `Name(Type)`",
            );
        }
        let framing: Vec<Span> = [TAG, CHUNK, UNKNOWN, NOT_READ, CUT, UNDECODED]
            .into_iter()
            .filter_map(|k| v.key_span(k))
            .collect();
        for span in framing.iter().skip(1) {
            cx.error_at(
                *span,
                "a variant takes one of `tag`, `chunk`, `unknown`, `not_read`, `cut` and `undecoded`",
            );
        }
        let built = [NOT_READ, CUT, UNDECODED]
            .into_iter()
            .find(|k| v.key_span(k).is_some());
        if let (Some(key), Some(cond)) = (built, v.key_span(IF)) {
            cx.error_at(
                cond,
                format!("a variant marked `{key}` is never read by tag, so there is nothing to gate: it cannot have `if`"),
            );
        }
        for key in [CUT, UNDECODED, AFTER_CHUNK] {
            if let (None, Some(span)) = (cont.chunk_list, v.key_span(key)) {
                cx.error_at(
                    span,
                    format!("`{key}` is a variant of a chunk list: the enum needs `#[format(chunk_list)]`"),
                );
            }
        }
        if let (Some(span), Some(key)) = (
            v.key_span(AFTER_CHUNK),
            [UNKNOWN, NOT_READ, CUT, UNDECODED]
                .into_iter()
                .find(|k| v.key_span(k).is_some()),
        ) {
            cx.error_at(
                span,
                format!("`after_chunk` reads what follows a chunk of a known tag; a variant marked `{key}` has none"),
            );
        }
        if v.key_span(UNKNOWN).is_some() {
            if unknown_seen {
                cx.error_at(v.span, "only one variant can be the `unknown` fallback");
            }
            unknown_seen = true;
            if let Some(cond) = v.key_span(IF) {
                cx.error_at(
                    cond,
                    "the `unknown` fallback takes anything; it cannot have `if`",
                );
            }
        }
    }
    let Body::TagEnum(variants) = &cont.body else {
        return;
    };
    if let Some(list) = cont.chunk_list {
        chunk_list(cx, cont, list);
    }
    for v in variants {
        if let Dispatch::Tag(t) | Dispatch::Chunk(t) = &v.dispatch {
            let conditional = v.cond.is_some();
            if seen
                .iter()
                .any(|(b, c)| *b == t.bytes && !*c && !conditional)
            {
                cx.error_at(
                    t.span,
                    format!(
                        "tag \"{}\" is already used by another variant (give one of them `if = ...`)",
                        t.display()
                    ),
                );
            }
            seen.push((t.bytes, conditional));
        }
    }
}

/// A `#[format(chunk_list)]` enum: the variants its reader keeps chunks in.
fn chunk_list(cx: &Ctxt, cont: &Container, list: Span) {
    let count = |key| {
        cont.variants
            .iter()
            .filter_map(|v| v.key_span(key))
            .collect::<Vec<_>>()
    };
    let needs = [
        (
            UNKNOWN,
            "a chunk list keeps the chunks it does not know in place: it needs an \
             `#[format(unknown)] Unknown(UnknownChunk)` variant",
        ),
        (
            CUT,
            "a chunk list keeps the chunk a cut file ends inside (lenient reads): it needs a \
             `#[format(cut)] Cut(CutChunk)` variant",
        ),
    ];
    for (key, message) in needs {
        if count(key).is_empty() {
            cx.error_at(list, message);
        }
    }
    for key in [CUT, UNDECODED] {
        for span in count(key).iter().skip(1) {
            cx.error_at(*span, format!("only one variant can be the `{key}` one"));
        }
    }
    let a = &cont.attrs;
    let framing = [
        a.magic.as_ref().map(|x| (x.span, MAGIC)),
        a.chunk.as_ref().map(|x| (x.span, CHUNK)),
        a.inclusive_size.as_ref().map(|x| (x.span, INCLUSIVE_SIZE)),
    ];
    for (span, key) in framing.into_iter().flatten() {
        cx.error_at(
            span,
            format!("`{key}` cannot be combined with `chunk_list`: each chunk is framed by its own tag and size"),
        );
    }
    // The model has taken the declarations: they are reported at the first.
    if let Some(arg) = cont.args.first() {
        cx.error_spanned(
            &arg.name,
            "a chunk list takes no `args`: it is read as a whole file's chunks, in the file's context",
        );
    }
}

fn cond_enum(cx: &Ctxt, cont: &Container) {
    for v in &cont.variants {
        if v.shape != Shape::One {
            cx.error_at(
                v.span,
                "a variant chosen by `when` holds exactly one value: `Name(Type)`",
            );
        }
        match (v.key_span(WHEN), v.key_span(READ_WHEN)) {
            (None, None) => cx.error_at(
                v.span,
                "in an enum whose variants are chosen by `when`, every variant needs `when = <condition>` \
                 (or `read_when = <condition>`)",
            ),
            (Some(_), Some(span)) => cx.error_at(
                span,
                "a variant takes one of `when` (checked on read and write) and `read_when` (read only)",
            ),
            _ => {}
        }
        variant_keys_only(
            cx,
            v,
            &[WHEN, READ_WHEN, ARGS],
            "a variant chosen by `when` takes only `when` (or `read_when`) and `args`",
        );
    }
}

fn value_enum(cx: &Ctxt, cont: &Container, repr: &syn::Ident) {
    let attr_repr = crate::attr::repr_int(&cont.input.attrs);
    match (&attr_repr, &cont.attrs.repr) {
        (Some(_), None) => {}
        (_, Some(r)) => {
            if !REPR_INTEGERS.iter().any(|t| r.value == t) {
                cx.error_at(
                    r.span,
                    "`repr` is the on-disk integer type: one of u8, u16, u32, u64, i8, i16, i32, i64",
                );
            }
        }
        (None, None) => cx.error_spanned(
            cont.ident,
            "an enum of values needs its on-disk integer type: `#[repr(u32)]` (or `#[format(repr = u32)]`)",
        ),
    }
    let mut unknown_seen = false;
    for v in &cont.variants {
        variant_keys_only(
            cx,
            v,
            &[UNKNOWN],
            "variants of an enum of values take only `unknown`",
        );
        let unknown = v.key_span(UNKNOWN).is_some();
        match (v.shape, unknown) {
            (Shape::Unit, false) => {}
            (Shape::One, true) => {
                if unknown_seen {
                    cx.error_at(v.span, "only one variant can be the `unknown` fallback");
                }
                unknown_seen = true;
            }
            (_, true) => cx.error_at(
                v.span,
                format!(
                    "the `unknown` variant keeps the raw value: `{}({repr})`",
                    v.ident
                ),
            ),
            (_, false) => cx.error_at(v.span, "variants of an enum of values hold no data"),
        }
    }
}
