//! Keyframe tracks: `Alpha 2 { Linear, GlobalSeqId 0, 0: 1, 100: 0.5, }`, with
//! `InTan`/`OutTan` after each key of a `Hermite` or `Bezier` track; and the
//! track lists of every object, mapped to MDL keywords by [`mdl_tracks!`].

pub(crate) use format_core::mdl::{read_into, read_tail, write_tail_as, write_tracks};
use format_core::{Result, UnknownTail};

use super::syntax::{Item, Kind, Stmt};
use super::value::{Cx, Out, Rgb, Value};
use crate::mdx::{Interpolation, Key, Tangents, Track};

/// Writes `name count { interpolation, GlobalSeqId, keys }`.
pub(crate) fn write_track<T: Value>(out: &mut Out, name: &str, track: &Track<T>) {
    out.open(&format!("{name} {}", track.keys.len()));
    match track.interpolation_type {
        Interpolation::None => out.flag("DontInterp"),
        Interpolation::Linear => out.flag("Linear"),
        Interpolation::Hermite => out.flag("Hermite"),
        Interpolation::Bezier => out.flag("Bezier"),
        Interpolation::Other(n) => {
            // In plain MDL, the word a reader takes with the keys as they
            // are: with tangents, a spline.
            let tangents = !track.tangents.is_empty();
            let word = if tangents { "Hermite" } else { "DontInterp" };
            out.unnamed("Interpolation", n, word);
        }
    }
    if track.global_sequence_id != -1 {
        out.field("GlobalSeqId", &track.global_sequence_id);
    }
    for (i, key) in track.keys.iter().enumerate() {
        out.field(&format!("{}:", key.frame), &key.value);
        if let Some(t) = track.tangents.get(i) {
            out.field("\tInTan", &t.in_tan);
            out.field("\tOutTan", &t.out_tan);
        }
    }
    out.close();
}

/// Reads a `Keyword count { ... }` track.
pub(crate) fn read_track<T: Value>(stmt: &Stmt, cx: &mut Cx) -> Result<Track<T>> {
    let name = stmt.key().1.to_owned();
    cx.within(name, |cx| {
        let (count, body) = stmt.block(cx)?;
        let mut track = Track::new(Interpolation::None, Vec::new());
        // Each key's `InTan` and `OutTan`, as they come.
        let mut tangents: Vec<(Option<T>, Option<T>)> = Vec::new();
        for s in body {
            match s.items.as_slice() {
                [
                    frame @ Item {
                        kind: Kind::Num(_), ..
                    },
                    Item {
                        kind: Kind::Colon, ..
                    },
                    value,
                ] => {
                    let frame = i32::read(frame, cx)?;
                    track.keys.push(Key::new(frame, T::read(value, cx)?));
                    tangents.push((None, None));
                }
                // A key gone wrong (`3333 0.75`, or two run together by a
                // missing `,`): no editor's keyword, so not skipped as one.
                [
                    Item {
                        kind: Kind::Num(n), ..
                    },
                    rest @ ..,
                ] => {
                    return Err(match rest {
                        [
                            Item {
                                kind: Kind::Colon, ..
                            },
                            _,
                            extra,
                            ..,
                        ] => cx.error(
                            extra.pos,
                            format!(
                                "expected `,` after the value of key {n}, found {}",
                                extra.kind.describe()
                            ),
                        ),
                        _ => cx.error(s.pos, format!("expected a key `{n}: value`")),
                    });
                }
                _ => match s.key().1 {
                    "DontInterp" => track.interpolation_type = Interpolation::None,
                    "Linear" => track.interpolation_type = Interpolation::Linear,
                    "Hermite" => track.interpolation_type = Interpolation::Hermite,
                    "Bezier" => track.interpolation_type = Interpolation::Bezier,
                    "Interpolation" => {
                        track.interpolation_type = s.value::<u32>(cx)?.into();
                    }
                    "GlobalSeqId" => track.global_sequence_id = s.value(cx)?,
                    "InTan" | "OutTan" => {
                        let Some((in_tan, out_tan)) = tangents.last_mut() else {
                            return Err(cx.error(s.pos, "a tangent before the first key"));
                        };
                        let value = Some(s.value(cx)?);
                        if s.key().1 == "InTan" {
                            *in_tan = value;
                        } else {
                            *out_tan = value;
                        }
                    }
                    _ => cx.unknown(s)?,
                },
            }
        }
        if track.interpolation_type.has_tangents() {
            for (key, pair) in track.keys.iter().zip(tangents) {
                let (Some(in_tan), Some(out_tan)) = pair else {
                    return Err(cx.error(
                        stmt.pos,
                        format!(
                            "key {} of a hermite or bezier track needs InTan and OutTan",
                            key.frame
                        ),
                    ));
                };
                track.tangents.push(Tangents { in_tan, out_tan });
            }
        }
        if let Some((pos, declared)) = count {
            cx.count(pos, "keys", declared, track.keys.len())?;
        }
        Ok(track)
    })
}

/// Writes a colour track: red, green, blue in MDL over MDX's blue, green,
/// red (see [`Rgb`]).
pub(crate) fn write_color_track(out: &mut Out, name: &str, track: &Track<[f32; 3]>) {
    write_track(out, name, &track.map(|&c| Rgb::of_bgr(c)));
}

/// Reads a colour track (see [`write_color_track`]).
pub(crate) fn read_color_track(stmt: &Stmt, cx: &mut Cx) -> Result<Track<[f32; 3]>> {
    read_track::<Rgb>(stmt, cx).map(|t| t.map(|&c| c.bgr()))
}

/// `ExtTail #"tag and bytes"`: an unknown sub-chunk and the rest of its object.
pub(crate) fn write_tail(out: &mut Out, tail: &UnknownTail) {
    write_tail_as(out, "ExtTail", tail);
}

/// Maps the variants of a track enum to their MDL keywords (the first is
/// written, every one is read); `in rgb` marks a colour track (see [`Rgb`]),
/// `within "Target"` one written inside a sub-block of its own at its place
/// in the list (a camera's target track, `Target { Translation 2 { } }`),
/// where a derived block reads it (see [`TrackSet::read_in`](format_core::mdl::TrackSet::read_in)).
macro_rules! mdl_tracks {
    (@write $out:ident, $name:literal, $t:ident) => {
        $crate::mdl::tracks::write_track($out, $name, $t)
    };
    (@write rgb $out:ident, $name:literal, $t:ident) => {
        $crate::mdl::tracks::write_color_track($out, $name, $t)
    };
    (@read $stmt:ident, $cx:ident) => {
        $crate::mdl::tracks::read_track($stmt, $cx)
    };
    (@read rgb $stmt:ident, $cx:ident) => {
        $crate::mdl::tracks::read_color_track($stmt, $cx)
    };
    ($ty:ident { $($body:tt)* }) => {
        $crate::mdl::tracks::mdl_tracks!($ty, tail = "ExtTail", { $($body)* });
    };
    ($ty:ident, tail = $tail:literal, { $($variant:ident => $name:literal $(| $alias:literal)* $(in $as:ident)? $(within $block:literal)?,)* }) => {
        impl format_core::mdl::TrackSet for $ty {
            const TAIL: &'static str = $tail;
            const BLOCKS: &'static [&'static str] = &[$($($block,)?)*];

            fn write(&self, out: &mut format_core::mdl::Out) {
                match self {
                    $( Self::$variant(t) => {
                        $( out.open($block); )?
                        $crate::mdl::tracks::mdl_tracks!(@write $($as)? out, $name, t);
                        $( let _ = $block; out.close(); )?
                    } )*
                    Self::Unknown(tail) => format_core::mdl::write_tail_as(out, $tail, tail),
                }
            }

            fn keyword(&self) -> Option<&'static str> {
                match self {
                    $( Self::$variant(_) => Some($name), )*
                    Self::Unknown(_) => None,
                }
            }

            fn read(
                stmt: &format_core::mdl::Stmt,
                cx: &mut format_core::mdl::Cx,
            ) -> Option<format_core::Result<Self>> {
                let key = stmt.key().1;
                $(
                    if key == $name $(|| key == $alias)* {
                        return Some($crate::mdl::tracks::mdl_tracks!(@read $($as)? stmt, cx).map(Self::$variant));
                    }
                )*
                None
            }

            fn read_in(
                block: &str,
                stmt: &format_core::mdl::Stmt,
                cx: &mut format_core::mdl::Cx,
            ) -> Option<format_core::Result<Self>> {
                let key = stmt.key().1;
                $(
                    if <[&str]>::contains(&[$($block)?], &block) && (key == $name $(|| key == $alias)*) {
                        return Some($crate::mdl::tracks::mdl_tracks!(@read $($as)? stmt, cx).map(Self::$variant));
                    }
                )*
                Self::read(stmt, cx)
            }

            fn tail(tail: format_core::UnknownTail) -> Self {
                Self::Unknown(tail)
            }
        }
    };
}
pub(crate) use mdl_tracks;
