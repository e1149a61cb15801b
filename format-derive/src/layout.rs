//! The rustdoc layout table: an inherent `LAYOUT` constant whose documentation
//! shows each field's type, size and condition, so a chunk's docs read like its spec.

use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

use crate::common::{expr_text, type_text};
use crate::model::{
    Body, Container, DataField, DerivedField, Dispatch, Field, FieldKind, Len, Source, Target,
    ValueSpec,
};

struct Row {
    field: String,
    ty: String,
    size: String,
    condition: String,
    note: String,
}

/// On-disk size of types whose size is known from their spelling.
fn known_size(ty: &Type) -> Option<usize> {
    match ty {
        Type::Path(p) => {
            let seg = p.path.segments.last()?;
            let scalar = match seg.ident.to_string().as_str() {
                "u8" | "i8" => Some(1),
                "u16" | "i16" => Some(2),
                "u32" | "i32" | "f32" | "FourCC" => Some(4),
                "u64" | "i64" | "f64" => Some(8),
                _ => None,
            };
            if scalar.is_some() {
                return scalar;
            }
            if seg.ident == "FixedStr"
                && let syn::PathArguments::AngleBracketed(a) = &seg.arguments
                && let Some(syn::GenericArgument::Const(syn::Expr::Lit(lit))) = a.args.first()
                && let syn::Lit::Int(n) = &lit.lit
            {
                return n.base10_parse().ok();
            }
            None
        }
        Type::Array(a) => {
            let syn::Expr::Lit(lit) = &a.len else {
                return None;
            };
            let syn::Lit::Int(n) = &lit.lit else {
                return None;
            };
            known_size(&a.elem)?.checked_mul(n.base10_parse().ok()?)
        }
        _ => None,
    }
}

fn size_text(ty: &Type) -> String {
    known_size(ty).map_or_else(|| "var".to_string(), |n| n.to_string())
}

fn tag_row(tag: &crate::attr::TagLit, what: &str) -> Row {
    Row {
        field: format!("\"{}\"", tag.display()),
        ty: what.into(),
        size: "4".into(),
        condition: String::new(),
        note: String::new(),
    }
}

fn field_rows(f: &Field, rows: &mut Vec<Row>) {
    match &f.kind {
        // Described by the row of the list whose records it completes.
        FieldKind::Skip | FieldKind::Kept | FieldKind::ReadCalc(_) | FieldKind::SplitTail => {}
        FieldKind::Derived(d) => rows.push(Row {
            field: f.name.clone(),
            ty: type_text(d.disk_ty),
            size: size_text(d.disk_ty),
            condition: derived_text(d),
            note: f.doc.clone(),
        }),
        FieldKind::Data(d) => data_rows(f, d, rows),
    }
}

fn target_text(of: &Target) -> String {
    match of {
        Target::Field { ident, .. } => format!("`{ident}`"),
        Target::Tagged { list, tag, nth } => match nth {
            None => format!("the first `{}` in `{list}`", tag.display()),
            Some(n) => format!("`{}` number `{}` in `{list}`", tag.display(), expr_text(n)),
        },
        Target::Parent { tag, nth } => match nth {
            None => format!("the first `{}` chunk of the file", tag.display()),
            Some(n) => format!(
                "`{}` chunk number `{}` of the file",
                tag.display(),
                expr_text(n)
            ),
        },
    }
}

fn derived_text(d: &DerivedField) -> String {
    let how = match &d.source {
        Source::Calc(expr) => format!("written as `{}`", expr_text(expr)),
        Source::Offset { of, from } => format!(
            "offset of {} from `{}`, written where it lands",
            target_text(of),
            expr_text(from)
        ),
        Source::Size { of, body } => format!(
            "size of {}{}, written as it lands",
            target_text(of),
            if *body {
                " without its 8-byte header"
            } else {
                ""
            }
        ),
    };
    match &d.cond {
        Some(cond) => format!("if `{}`, {how}", expr_text(cond)),
        None => how,
    }
}

fn data_rows(f: &Field, d: &DataField, rows: &mut Vec<Row>) {
    let mut condition = Vec::new();
    if let Some(cond) = &d.cond {
        condition.push(format!("if `{}`", expr_text(cond)));
    }
    if let Some(cond) = &d.read_cond {
        condition.push(format!("if (when read) `{}`", expr_text(cond)));
    }
    if d.placed {
        condition.push("placed where its offset points".to_string());
    }
    if d.optional {
        condition.push("if the next tag matches".to_string());
    }
    if let Some(split) = &d.split {
        let tail = split.tail_elem.map(type_text).unwrap_or_default();
        condition.push(match &split.cond {
            Some(cond) => format!(
                "each record followed by a `{tail}` of `{}` if `{}`",
                split.tails,
                expr_text(cond)
            ),
            None => format!("each record followed by a `{tail}` of `{}`", split.tails),
        });
    }
    if d.clamp {
        condition.push("a count beyond the bytes left is clamped when read leniently".into());
    }
    if let Some(tag) = &d.tag {
        let mut row = tag_row(tag, "tag");
        row.condition = condition.join(", ");
        rows.push(row);
    }
    let (ty, size) = match &d.value {
        ValueSpec::Single if d.read_with.is_some() || d.write_with.is_some() => {
            (type_text(d.value_ty), "custom".into())
        }
        ValueSpec::Single => (type_text(d.value_ty), size_text(d.value_ty)),
        ValueSpec::Vec { elem, len, .. } => {
            let elem_ty = type_text(elem);
            let each = size_text(elem);
            match len {
                Len::Prefix(c) => {
                    rows.push(Row {
                        field: format!("{} count", f.name),
                        ty: c.to_string(),
                        size: size_text(&syn::parse_quote!(#c)),
                        condition: condition.join(", "),
                        note: String::new(),
                    });
                    (format!("{elem_ty}[count]"), format!("count × {each}"))
                }
                Len::Expr(e) => {
                    let n = format!("`{}`", expr_text(e));
                    (format!("{elem_ty}[{n}]"), format!("{n} × {each}"))
                }
                Len::Stride(n) => (format!("{elem_ty}[size / {n}]"), "size".into()),
                Len::UntilEnd => {
                    condition.push("until the enclosing chunk ends".into());
                    (format!("{elem_ty}[…]"), "var".into())
                }
                Len::Tagged => {
                    condition.push("while the next tag is one it knows, any order".into());
                    (format!("{elem_ty}[…]"), "var".into())
                }
                Len::Table => (
                    format!("{elem_ty}[…]"),
                    "one per entry of its table of offsets".into(),
                ),
            }
        }
    };
    rows.push(Row {
        field: f.name.clone(),
        ty,
        size,
        condition: condition.join(", "),
        note: f.doc.clone(),
    });
}

fn rows(cont: &Container) -> Vec<Row> {
    let mut rows = Vec::new();
    if let Some(magic) = &cont.magic {
        rows.push(tag_row(magic, "magic"));
    }
    if let Some(chunk) = &cont.chunk {
        rows.push(tag_row(chunk, "chunk tag"));
        rows.push(Row {
            field: "size".into(),
            ty: "u32".into(),
            size: "4".into(),
            condition: "bytes after the 8-byte header, written by back-patching".into(),
            note: String::new(),
        });
    }
    if cont.inclusive {
        rows.push(Row {
            field: "inclusiveSize".into(),
            ty: "u32".into(),
            size: "4".into(),
            condition: "bytes of the object including this field, written by back-patching".into(),
            note: String::new(),
        });
    }
    match &cont.body {
        Body::Struct(fields) => fields.iter().for_each(|f| field_rows(f, &mut rows)),
        Body::Plain(fields) => rows.extend(fields.iter().map(|(m, ty, doc)| Row {
            field: match m {
                syn::Member::Named(i) => i.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            },
            ty: type_text(ty),
            size: size_text(ty),
            condition: String::new(),
            note: doc.clone(),
        })),
        Body::CondEnum(variants) => rows.extend(variants.iter().map(|v| Row {
            field: v.ident.to_string(),
            ty: type_text(v.ty),
            size: "var".into(),
            condition: format!("when `{}`", expr_text(&v.when)),
            note: v.doc.clone(),
        })),
        Body::TagEnum(variants) => rows.extend(variants.iter().map(|v| {
            let (field, size) = match &v.dispatch {
                Dispatch::Tag(t) => (format!("\"{}\"", t.display()), "4 + var"),
                Dispatch::Chunk(t) => (format!("\"{}\" + u32 size", t.display()), "8 + size"),
                Dispatch::Inner => (format!("tag of `{}`", type_text(v.ty)), "var"),
                Dispatch::Unknown => ("any other tag".to_string(), "var"),
                Dispatch::NotRead => ("not read (built by hand)".to_string(), "var"),
            };
            Row {
                field,
                ty: format!("{} → {}", v.ident, type_text(v.ty)),
                size: size.into(),
                condition: v
                    .cond
                    .as_ref()
                    .map(|c| format!("if `{}`", expr_text(c)))
                    .unwrap_or_default(),
                note: v.doc.clone(),
            }
        })),
        Body::ValueEnum { repr, variants } => rows.extend(variants.iter().map(|v| Row {
            field: v.ident.to_string(),
            ty: repr.to_string(),
            size: size_text(&syn::parse_quote!(#repr)),
            condition: match (v.unknown, v.discriminant) {
                (true, _) => "any other value (kept)".into(),
                (false, Some(d)) => format!("= {}", expr_text(d)),
                (false, None) => "next value".into(),
            },
            note: v.doc.clone(),
        })),
    }
    rows
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

pub fn expand(cont: &Container) -> TokenStream {
    let core = cont.rt.core();
    let rows = rows(cont);
    let ident = cont.ident;
    let mut doc = format!(
        "On-disk layout of [`{ident}`] (little-endian), generated by `#[derive(Codec)]`.\n\n\
         | field | type | bytes | present / count | spec note |\n|---|---|---|---|---|\n"
    );
    for r in &rows {
        let code = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!("`{}`", cell(s))
            }
        };
        doc.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            code(&r.field),
            code(&r.ty),
            cell(&r.size),
            cell(&r.condition),
            cell(&r.note)
        ));
    }
    let entries = rows.iter().map(|r| {
        let (field, ty, size, condition) = (&r.field, &r.ty, &r.size, &r.condition);
        quote!(#core::LayoutRow { field: #field, ty: #ty, size: #size, condition: #condition })
    });
    let (ig, tg, wc) = cont.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #ig #ident #tg #wc {
            #[doc = #doc]
            pub const LAYOUT: &'static [#core::LayoutRow] = &[#(#entries),*];
        }
    }
}
