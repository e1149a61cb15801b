//! `#[derive(Mdl)]`: every field attribute through its writer and reader,
//! strict and lenient errors with their positions, and a proptest that the
//! text written from arbitrary values reads back to the same values.

use format_core::mdl::{Block, Cx, Out, Part, Stmt, TrackSet, Words, parse};
use format_core::{FixedStr, Mdl, Result, UnknownTail};
use proptest::prelude::*;

/// A value enum with words, and a number for values without one.
#[derive(Mdl, Clone, Copy, Debug, PartialEq)]
enum Shape {
    #[mdl(word = "Round")]
    Round,
    #[mdl(word = "Square")]
    Square,
    Other(u32),
}

impl From<u32> for Shape {
    fn from(n: u32) -> Shape {
        match n {
            0 => Shape::Round,
            1 => Shape::Square,
            n => Shape::Other(n),
        }
    }
}

impl From<Shape> for u32 {
    fn from(s: Shape) -> u32 {
        match s {
            Shape::Round => 0,
            Shape::Square => 1,
            Shape::Other(n) => n,
        }
    }
}

/// A key-frame track: `Alpha n { frame: value, ... }`.
#[derive(Clone, Debug, PartialEq)]
enum Track {
    Alpha(Vec<(i32, f32)>),
    Unknown(UnknownTail),
}

impl TrackSet for Track {
    fn write(&self, out: &mut Out) {
        match self {
            Track::Alpha(keys) => {
                out.open(&format!("Alpha {}", keys.len()));
                for (frame, value) in keys {
                    out.field(&format!("{frame}:"), value);
                }
                out.close();
            }
            Track::Unknown(tail) => format_core::mdl::write_tail_as(out, Self::TAIL, tail),
        }
    }

    fn keyword(&self) -> Option<&'static str> {
        match self {
            Track::Alpha(_) => Some("Alpha"),
            Track::Unknown(_) => None,
        }
    }

    fn read(stmt: &Stmt, cx: &mut Cx) -> Option<Result<Self>> {
        if stmt.key().1 != "Alpha" {
            return None;
        }
        let read = |cx: &mut Cx| {
            let (_, body) = stmt.block(cx)?;
            let mut keys = Vec::new();
            for s in body {
                let [frame, _colon, value] = s.items.as_slice() else {
                    return Err(cx.error(s.pos, "expected a key"));
                };
                use format_core::mdl::Value;
                keys.push((i32::read(frame, cx)?, f32::read(value, cx)?));
            }
            Ok(Track::Alpha(keys))
        };
        Some(read(cx))
    }

    fn tail(tail: UnknownTail) -> Self {
        Track::Unknown(tail)
    }
}

/// A part: `Id n,` and the flag word `Hidden,` (its argument is the bit),
/// and a tail `Mark n,` written where the block says.
#[derive(Clone, Debug, Default, PartialEq)]
struct Base {
    name: FixedStr<16>,
    id: u32,
    flags: u32,
    mark: u32,
}

impl Part for Base {
    type Args = u32;
    type Partial = Base;

    fn begin(_: &Stmt, _: &mut Cx, _: u32) -> Result<Base> {
        Ok(Base::default())
    }

    fn read_stmt(base: &mut Base, s: &Stmt, cx: &mut Cx) -> Result<bool> {
        match s.key().1 {
            "Id" => base.id = s.value(cx)?,
            "Mark" => base.mark = s.value(cx)?,
            "Hidden" => {
                s.bare(cx)?;
                base.flags |= 1;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish(base: Base, _: &mut Cx) -> Result<Base> {
        Ok(base)
    }

    fn write_head(&self, out: &mut Out, bit: u32) {
        out.field("Id", &self.id);
        if self.flags & bit != 0 {
            out.flag("Hidden");
        }
    }

    fn write_tail(&self, out: &mut Out) {
        out.field("Mark", &self.mark);
    }
}

/// Every field attribute.
#[derive(Mdl, Clone, Debug, PartialEq)]
#[mdl(block = "Lamp", name = base.name)]
struct Lamp {
    #[mdl(part(args = 1))]
    base: Base,
    #[mdl(word = "ShapeType", default = Shape::Round)]
    shape: Shape,
    #[mdl(static, default = 1.0)]
    brightness: f32,
    #[mdl(static, rgb, key = "AmbColor", alias = "AmbientColor")]
    ambient_color: [f32; 3],
    #[mdl(optional)]
    label: Option<FixedStr<8>>,
    #[mdl(static, since = 1200)]
    shadow: Option<f32>,
    #[mdl(list, key = "Points")]
    points: Vec<[f32; 2]>,
    #[mdl(key = "GeosetId", none("Multiple", "None"), default = u32::MAX)]
    geoset_id: u32,
    #[mdl(tracks, tail)]
    tracks: Vec<Track>,
    #[mdl(tracks_in = "ExtLater")]
    later: Vec<Track>,
    #[mdl(skip, default = 7)]
    cache: u32,
}

fn lamp() -> Lamp {
    Lamp {
        base: Base {
            name: FixedStr::try_from("lamp").unwrap(),
            id: 3,
            flags: 1,
            mark: 9,
        },
        shape: Shape::Square,
        brightness: 0.5,
        ambient_color: [0.25, 0.5, 1.0],
        label: Some(FixedStr::try_from("warm").unwrap()),
        shadow: None,
        points: vec![[1.0, 2.0], [-0.0, 1e-45]],
        geoset_id: u32::MAX,
        tracks: vec![Track::Alpha(vec![(0, 1.0), (100, 0.5)])],
        later: vec![],
        cache: 7,
    }
}

fn written(value: &impl Block) -> String {
    let mut out = Out::new();
    value.write_block(&mut out);
    out.text
}

fn read_in(text: &str, version: u32, lenient: bool) -> Result<(Lamp, usize)> {
    let tree = parse(text)?;
    let mut cx = Cx::new(lenient);
    cx.version = version;
    let stmt = tree.first().expect("a block");
    let lamp = Lamp::read_block(stmt, &mut cx)?;
    Ok((lamp, cx.diagnostics.into_inner().len()))
}

fn read(text: &str) -> Result<Lamp> {
    read_in(text, 800, false).map(|(lamp, _)| lamp)
}

#[test]
fn every_attribute_writes_as_declared() {
    assert_eq!(
        written(&lamp()),
        "Lamp \"lamp\" {\n\
         \tId 3,\n\
         \tHidden,\n\
         \tSquare,\n\
         \tstatic Brightness 0.5,\n\
         \tstatic AmbColor { 1, 0.5, 0.25 },\n\
         \tLabel \"warm\",\n\
         \tPoints 2 {\n\t\t{ 1, 2 },\n\t\t{ -0, 1e-45 },\n\t}\n\
         \tGeosetId Multiple,\n\
         \tMark 9,\n\
         \tAlpha 2 {\n\t\t0: 1,\n\t\t100: 0.5,\n\t}\n\
         }\n"
    );
    assert_eq!(read(&written(&lamp())).unwrap(), lamp());
}

#[test]
fn missing_keys_take_their_defaults_and_aliases_read() {
    let lamp = read("Lamp \"x\" { AmbientColor { 1, 0, 0 }, Round, GeosetId None, }").unwrap();
    assert_eq!(lamp.brightness, 1.0);
    assert_eq!(lamp.ambient_color, [0.0, 0.0, 1.0]); // RGB in text, BGR stored
    assert_eq!((lamp.label, lamp.shadow, lamp.cache), (None, None, 7));
    assert_eq!((lamp.shape, lamp.geoset_id), (Shape::Round, u32::MAX));
    assert_eq!(lamp.base.name.to_str(), Ok("x"));
    let lamp = read("Lamp \"x\" { ShapeType 7, GeosetId 2, }").unwrap();
    assert_eq!((lamp.shape, lamp.geoset_id), (Shape::Other(7), 2));
    // From its version on, a missing versioned key is its default.
    let (lamp, _) = read_in("Lamp \"x\" { }", 1200, false).unwrap();
    assert_eq!(lamp.shadow, Some(0.0));
}

#[test]
fn out_of_spec_text_is_refused_with_its_place() {
    let err = |text: &str| read(text).unwrap_err().to_string();
    assert_eq!(
        err("Lamp \"x\" {\n\tstatic Brightness 1,\n\tBrightness 2,\n}"),
        "Lamp \"x\": line 3, column 2: `Brightness` is given twice in this block (first at \
         line 2, column 2): one would replace the other"
    );
    assert_eq!(
        err("Lamp \"x\" {\n\tGlow 1,\n}"),
        "Lamp \"x\": line 2, column 2: unknown statement `Glow`"
    );
    assert_eq!(
        err("Lamp \"x\" {\n\tSquare\n\tHidden,\n}"),
        "Lamp \"x\": line 3, column 2: expected `,` after `Square`, found `Hidden`"
    );
    assert!(err("Lamp \"x\" { static Shadow 1, }").contains("version 800 has no `Shadow`"));
    assert!(err("Lamp { }").contains("`Lamp` needs a name"));
    // Lenient: the versioned key dropped, the unknown one skipped, the
    // repeated one kept last, each with a diagnostic.
    let (lamp, diagnostics) = read_in(
        "Lamp \"x\" { static Shadow 1, Glow 1, Brightness 2, Brightness 3, }",
        800,
        true,
    )
    .unwrap();
    assert_eq!((lamp.shadow, lamp.brightness, diagnostics), (None, 3.0, 3));
}

/// Any `f32`, NaNs with any payload included.
fn float() -> impl Strategy<Value = f32> {
    any::<u32>().prop_map(f32::from_bits)
}

fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[a-zA-Z0-9 _./\\\\-]{{0,{max}}}")).unwrap()
}

fn arbitrary_lamp() -> impl Strategy<Value = Lamp> {
    let shape = prop_oneof![
        Just(Shape::Round),
        Just(Shape::Square),
        (2u32..).prop_map(Shape::Other)
    ];
    let track = prop_oneof![
        proptest::collection::vec((any::<i32>(), float()), 0..4).prop_map(Track::Alpha),
        (
            any::<[u8; 4]>(),
            proptest::collection::vec(any::<u8>(), 0..8)
        )
            .prop_map(|(tag, bytes)| Track::Unknown(UnknownTail {
                tag: format_core::FourCC(tag),
                bytes
            })),
    ];
    (
        (text(15), any::<u32>(), 0u32..2, any::<u32>(), shape),
        (
            float(),
            [float(), float(), float()],
            proptest::option::of(text(8)),
        ),
        (
            proptest::option::of(float()),
            proptest::collection::vec([float(), float()], 0..4),
            any::<u32>(),
        ),
        (
            proptest::collection::vec(track.clone(), 0..3),
            proptest::collection::vec(track, 0..3),
        ),
        any::<bool>(),
    )
        .prop_map(
            |(
                (name, id, flags, mark, shape),
                (brightness, ambient_color, label),
                (shadow, points, geoset_id),
                (tracks, later),
                v1200,
            )| Lamp {
                base: Base {
                    name: FixedStr::try_from(name.as_str()).unwrap(),
                    id,
                    flags,
                    mark,
                },
                shape,
                brightness,
                ambient_color,
                label: label.map(|l| FixedStr::try_from(l.as_str()).unwrap()),
                // Present exactly from its version on.
                shadow: if v1200 {
                    Some(shadow.unwrap_or(0.0))
                } else {
                    None
                },
                points,
                geoset_id,
                tracks,
                later,
                cache: 7,
            },
        )
}

/// The lamp with every float as its bits (NaN payloads compared too).
fn bits(lamp: &Lamp) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?}",
        lamp.brightness.to_bits(),
        lamp.ambient_color.map(f32::to_bits),
        lamp.shadow.map(f32::to_bits),
        lamp.points
            .iter()
            .map(|p| p.map(f32::to_bits))
            .collect::<Vec<_>>(),
        [&lamp.tracks, &lamp.later].map(|t| t
            .iter()
            .map(|t| match t {
                Track::Alpha(keys) => format!(
                    "{:?}",
                    keys.iter()
                        .map(|(f, v)| (*f, v.to_bits()))
                        .collect::<Vec<_>>()
                ),
                Track::Unknown(tail) => format!("{tail:?}"),
            })
            .collect::<Vec<_>>()),
    )
}

proptest! {
    #[test]
    fn text_from_arbitrary_values_reads_back(lamp in arbitrary_lamp()) {
        let text = written(&lamp);
        let version = if lamp.shadow.is_some() { 1200 } else { 800 };
        let (back, diagnostics) = read_in(&text, version, false).map_err(|e| {
            TestCaseError::fail(format!("{e}\n{text}"))
        })?;
        prop_assert_eq!(diagnostics, 0);
        prop_assert_eq!(bits(&back), bits(&lamp));
        prop_assert_eq!(
            (&back.base, back.shape, &back.label, back.geoset_id, back.cache),
            (&lamp.base, lamp.shape, &lamp.label, lamp.geoset_id, lamp.cache)
        );
        prop_assert_eq!(written(&back), text);
    }
}

#[test]
fn words_know_their_values() {
    assert_eq!(Shape::of_word("Square"), Some(Shape::Square));
    assert_eq!(Shape::Other(5).word(), None);
    assert_eq!(Shape::FALLBACK, "Round");
}

/// Tracks of a `Beam`: `Alpha` at the block's top level, and the target's
/// `Alpha`, written in a `Target { }` block of its own.
#[derive(Clone, Debug, PartialEq)]
enum Aim {
    Alpha(f32),
    TargetAlpha(f32),
    Unknown(UnknownTail),
}

/// `Alpha 1 { 0: value, }`, the one key of an `Aim` track.
fn read_alpha(stmt: &Stmt, cx: &mut Cx) -> Result<f32> {
    let (_, body) = stmt.block(cx)?;
    match body {
        [key] => match key.items.as_slice() {
            [_, _, value] => format_core::mdl::Value::read(value, cx),
            _ => Err(cx.error(key.pos, "expected a key")),
        },
        _ => Err(cx.error(stmt.pos, "expected one key")),
    }
}

impl TrackSet for Aim {
    const BLOCKS: &'static [&'static str] = &["Target"];

    fn write(&self, out: &mut Out) {
        let alpha = |out: &mut Out, value: &f32| {
            out.open("Alpha 1");
            out.field("0:", value);
            out.close();
        };
        match self {
            Aim::Alpha(v) => alpha(out, v),
            Aim::TargetAlpha(v) => {
                out.open("Target");
                alpha(out, v);
                out.close();
            }
            Aim::Unknown(tail) => format_core::mdl::write_tail_as(out, Self::TAIL, tail),
        }
    }

    fn keyword(&self) -> Option<&'static str> {
        match self {
            Aim::Alpha(_) | Aim::TargetAlpha(_) => Some("Alpha"),
            Aim::Unknown(_) => None,
        }
    }

    fn read(stmt: &Stmt, cx: &mut Cx) -> Option<Result<Self>> {
        (stmt.key().1 == "Alpha").then(|| read_alpha(stmt, cx).map(Aim::Alpha))
    }

    fn read_in(block: &str, stmt: &Stmt, cx: &mut Cx) -> Option<Result<Self>> {
        if block == "Target" && stmt.key().1 == "Alpha" {
            return Some(read_alpha(stmt, cx).map(Aim::TargetAlpha));
        }
        Self::read(stmt, cx)
    }

    fn tail(tail: UnknownTail) -> Self {
        Aim::Unknown(tail)
    }
}

/// Fields in a sub-block (`within`), one of them under a key the block
/// itself has, and a track written in the sub-block.
#[derive(Mdl, Clone, Debug, PartialEq)]
#[mdl(block = "Beam", name = name)]
struct Beam {
    name: FixedStr<8>,
    #[mdl(static)]
    range: f32,
    #[mdl(static, key = "Range", within = "Target")]
    target_range: f32,
    #[mdl(optional, within = "Target")]
    label: Option<FixedStr<8>>,
    #[mdl(tracks)]
    tracks: Vec<Aim>,
}

fn read_beam(text: &str, lenient: bool) -> Result<(Beam, usize)> {
    let tree = parse(text)?;
    let mut cx = Cx::new(lenient);
    let beam = Beam::read_block(&tree[0], &mut cx)?;
    Ok((beam, cx.diagnostics.into_inner().len()))
}

#[test]
fn fields_and_tracks_within_a_sub_block() {
    let beam = Beam {
        name: FixedStr::try_from("b").unwrap(),
        range: 1.0,
        target_range: 2.0,
        label: Some(FixedStr::try_from("far").unwrap()),
        tracks: vec![Aim::Alpha(0.5), Aim::TargetAlpha(0.25), Aim::Alpha(1.0)],
    };
    let text = written(&beam);
    assert_eq!(
        text,
        "Beam \"b\" {\n\
         \tstatic Range 1,\n\
         \tTarget {\n\t\tstatic Range 2,\n\t\tLabel \"far\",\n\t}\n\
         \tAlpha 1 {\n\t\t0: 0.5,\n\t}\n\
         \tTarget {\n\t\tAlpha 1 {\n\t\t\t0: 0.25,\n\t\t}\n\t}\n\
         \tAlpha 1 {\n\t\t0: 1,\n\t}\n\
         }\n"
    );
    assert_eq!(read_beam(&text, false).unwrap(), (beam, 0));
    // A sub-block's key no key of the block takes is read at the top too
    // (an editor that flattens the sub-block); `Range` there is the block's.
    let (beam, _) = read_beam("Beam \"b\" { Range 3, Label \"x\", }", false).unwrap();
    assert_eq!((beam.range, beam.target_range), (3.0, 0.0));
    assert_eq!(beam.label.unwrap().to_str(), Ok("x"));
    let err = |text: &str| read_beam(text, false).unwrap_err().to_string();
    assert_eq!(
        err("Beam \"b\" {\n\tTarget {\n\t\tRange 1,\n\t\tRange 2,\n\t}\n}"),
        "Beam \"b\": line 4, column 3: `Range` is given twice in this block (first at \
         line 3, column 3): one would replace the other"
    );
    assert_eq!(
        err("Beam \"b\" {\n\tTarget {\n\t\tGlow 1,\n\t}\n}"),
        "Beam \"b\": line 3, column 3: unknown statement `Glow`"
    );
    // Lenient: the unknown statement in the sub-block skipped, with a diagnostic.
    let (beam, diagnostics) =
        read_beam("Beam \"b\" { Target { Glow 1, Range 4, }, }", true).unwrap();
    assert_eq!((beam.target_range, diagnostics), (4.0, 1));
}

proptest! {
    #[test]
    fn sub_blocks_from_arbitrary_values_read_back(
        range in float(),
        target_range in float(),
        label in proptest::option::of(text(8)),
        tracks in proptest::collection::vec(
            prop_oneof![float().prop_map(Aim::Alpha), float().prop_map(Aim::TargetAlpha)],
            0..4,
        ),
    ) {
        let beam = Beam {
            name: FixedStr::try_from("b").unwrap(),
            range,
            target_range,
            label: label.map(|l| FixedStr::try_from(l.as_str()).unwrap()),
            tracks,
        };
        let text = written(&beam);
        let (back, diagnostics) = read_beam(&text, false)
            .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(diagnostics, 0);
        // Compared as text: NaNs with their payloads.
        prop_assert_eq!(written(&back), text);
        prop_assert_eq!(back.tracks.len(), beam.tracks.len());
    }
}

/// Values beside a keyed value, its default written only when it is not
/// the value a missing key reads as (`unless`).
#[derive(Mdl, Clone, Debug, Default, PartialEq)]
#[mdl(block = "Fires")]
struct Fires {
    #[mdl(key = "GlobalSeqId", unless = -1)]
    global_sequence_id: i32,
    #[mdl(values = "frames")]
    frames: Vec<u32>,
}

/// A block in a block (`nested`), an `Option` whose `None` is a word.
#[derive(Mdl, Clone, Debug, PartialEq)]
#[mdl(block = "Trigger", name = name)]
struct Trigger {
    name: FixedStr<8>,
    #[mdl(
        nested,
        absent = "ExtNoFires",
        default = Fires { global_sequence_id: -1, frames: Vec::new() }
    )]
    fires: Option<Fires>,
}

fn read_trigger(text: &str) -> Result<Trigger> {
    let tree = parse(text)?;
    Trigger::read_block(&tree[0], &mut Cx::new(false))
}

#[test]
fn nested_blocks_absent_words_and_values_beside_keys() {
    let trigger = Trigger {
        name: FixedStr::try_from("t").unwrap(),
        fires: Some(Fires {
            global_sequence_id: 2,
            frames: vec![10, 20],
        }),
    };
    let text = written(&trigger);
    assert_eq!(
        text,
        "Trigger \"t\" {\n\tFires 2 {\n\t\tGlobalSeqId 2,\n\t\t10,\n\t\t20,\n\t}\n}\n"
    );
    assert_eq!(read_trigger(&text).unwrap(), trigger);
    // -1 is not written, and reads back from its absence.
    let quiet = Trigger {
        fires: Some(Fires {
            global_sequence_id: -1,
            frames: vec![5],
        }),
        ..trigger.clone()
    };
    let text = written(&quiet);
    assert_eq!(text, "Trigger \"t\" {\n\tFires 1 {\n\t\t5,\n\t}\n}\n");
    assert_eq!(read_trigger(&text).unwrap(), quiet);
    // `None` is the word; a missing block is `Some` of the default.
    let none = Trigger {
        fires: None,
        ..trigger.clone()
    };
    let text = written(&none);
    assert_eq!(text, "Trigger \"t\" {\n\tExtNoFires,\n}\n");
    assert_eq!(read_trigger(&text).unwrap(), none);
    let empty = read_trigger("Trigger \"t\" { }").unwrap();
    assert_eq!(
        empty.fires,
        Some(Fires {
            global_sequence_id: -1,
            frames: vec![]
        })
    );
    // The header's count is checked against the values.
    let e = read_trigger("Trigger \"t\" {\n\tFires 3 {\n\t\t1,\n\t}\n}").unwrap_err();
    assert!(e.to_string().contains("Fires"), "{e}");
    assert!(e.to_string().contains("the header says 3"), "{e}");
}
