// `#[derive(Mdl)]`'s words as the value of a key, a value spread over
// keys, a key of some versions only, a flags field's other spelling,
// repeated nested blocks, tails alone and a block's hook, used as
// documented.
use format_core::mdl::{Block, Cx, Hook, Out, Pos, Stmt, parse};
use format_core::{FixedStr, FourCC, Mdl, Result, UnknownTail};

#[derive(Mdl, Clone, Copy, Debug, PartialEq)]
enum Mode {
    #[mdl(word = "Blend")]
    Blend,
    #[mdl(word = "Add")]
    Add,
    Other(u32),
}

impl From<Mode> for u32 {
    fn from(mode: Mode) -> u32 {
        match mode {
            Mode::Blend => 0,
            Mode::Add => 1,
            Mode::Other(n) => n,
        }
    }
}

impl From<u32> for Mode {
    fn from(n: u32) -> Mode {
        match n {
            0 => Mode::Blend,
            1 => Mode::Add,
            n => Mode::Other(n),
        }
    }
}

impl Default for Mode {
    fn default() -> Mode {
        Mode::Blend
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct Tint {
    color: [f32; 3],
    opacity: f32,
}

const WHITE: Tint = Tint {
    color: [1.0; 3],
    opacity: 0.0,
};

/// `Texture n` is the pass's texture, or `Textures { a, b }` its list when
/// it has more than one: a choice across fields, made by the hook.
struct TextureHook;

#[derive(Default)]
struct Gathered {
    single: Option<u32>,
    list: Option<Vec<u32>>,
}

impl Hook<Pass> for TextureHook {
    type State = Gathered;

    fn read(state: &mut Gathered, stmt: &Stmt, cx: &mut Cx) -> Result<bool> {
        match stmt.key().1 {
            "Texture" => state.single = Some(stmt.value(cx)?),
            "Textures" => state.list = Some(format_core::mdl::list(stmt, cx, "textures")?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn finish(state: Gathered, pass: &mut Pass, _: &mut Cx, _: Pos) -> Result<()> {
        pass.textures = state.list.or(state.single.map(|t| vec![t])).unwrap_or_default();
        Ok(())
    }

    fn plain(pass: &Pass, out: &mut Out) -> Option<Pass> {
        (pass.textures.len() > 1).then(|| {
            out.note("textures but the first".into());
            let mut plain = pass.clone();
            plain.textures.truncate(1);
            plain
        })
    }

    fn write(pass: &Pass, out: &mut Out, field: &str) {
        assert_eq!(field, "textures");
        match pass.textures.as_slice() {
            [] => {}
            [one] => out.field("Texture", one),
            more => format_core::mdl::write_list(out, "Textures", more),
        }
    }
}

#[derive(Mdl, Clone, Debug, PartialEq)]
#[mdl(block = "Pass", hook = TextureHook)]
struct Pass {
    /// `Mode Add,`, or `Mode 7,`.
    #[mdl(worded)]
    mode: Mode,
    /// `Tint { .. }` spread over `static TintColor` and `static
    /// TintOpacity`: keys from 900 on, there from 1000 on.
    #[mdl(
        spread(color = "TintColor", opacity = "TintOpacity"),
        static,
        since = 900,
        default_from = 1000,
        default = WHITE
    )]
    tint: Option<Tint>,
    /// In 900 and 1000 only.
    #[mdl(since = 900, until = 1100)]
    shader: Option<FixedStr<16>>,
    #[mdl(flags(Shiny = 1), alias = "Render")]
    flags: u32,
    #[mdl(hook)]
    textures: Vec<u32>,
    #[mdl(tracks)]
    unknown: Vec<UnknownTail>,
}

#[derive(Mdl, Clone, Debug, PartialEq)]
#[mdl(block = "Look")]
struct Look {
    #[mdl(nested)]
    passes: Vec<Pass>,
}

fn read(text: &str, version: u32, lenient: bool) -> Result<(Look, usize)> {
    let tree = parse(text)?;
    let mut cx = Cx::new(lenient);
    cx.version = version;
    let look = Look::read_block(&tree[0], &mut cx)?;
    Ok((look, cx.diagnostics.into_inner().len()))
}

fn main() -> Result<()> {
    let pass = Pass {
        mode: Mode::Add,
        tint: Some(Tint {
            color: [0.5; 3],
            opacity: 0.25,
        }),
        shader: Some(FixedStr::try_from("hd").unwrap()),
        flags: 1,
        textures: vec![3],
        unknown: vec![UnknownTail {
            tag: FourCC(*b"ABCD"),
            bytes: vec![1],
        }],
    };
    let look = Look {
        passes: vec![pass.clone(), Pass { mode: Mode::Other(7), textures: vec![1, 2], ..pass.clone() }],
    };
    let mut out = Out::new();
    look.write_block(&mut out);
    let text = out.text;
    for line in [
        "Mode Add,",
        "Mode 7,",
        "static TintColor { 0.5, 0.5, 0.5 },",
        "static TintOpacity 0.25,",
        "Shader \"hd\",",
        "Shiny,",
        "Texture 3,",
        "Textures 2 {",
        "ExtTail #\"4142434401\",",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert_eq!(read(&text, 1000, false)?, (look.clone(), 0));

    // Plain: the hook's plain block, and the word for a number.
    let mut plain = Out::plain();
    look.write_block(&mut plain);
    assert!(plain.text.contains("Mode Blend,") && !plain.text.contains("Textures 2"));
    let notes: Vec<String> = plain.left_out().iter().map(|n| n.to_string()).collect();
    assert!(notes.contains(&"Look 0 > Pass 1: textures but the first".to_string()), "{notes:?}");

    // Every spelling reads: `Render n` is `ExtFlags n`.
    let (read_back, _) = read("Look { Pass { Mode 1, Render 3, } }", 1000, false)?;
    let first = &read_back.passes[0];
    assert_eq!((first.mode, first.flags), (Mode::Add, 3));
    // Missing, the tint is there from 1000 on, not in 900.
    assert_eq!(first.tint, Some(WHITE));
    let (in_900, _) = read("Look { Pass { } Pass { static TintOpacity 1, } }", 900, false)?;
    assert_eq!(in_900.passes[0].tint, None);
    assert_eq!(in_900.passes[1].tint, Some(Tint { opacity: 1.0, ..WHITE }));
    assert_eq!(in_900.passes[0].shader, Some(FixedStr::default()));
    // A key out of its versions: strict, an error naming where; lenient,
    // dropped with a diagnostic.
    let e = read("Look {\n Pass {\n  Shader \"x\",\n }\n}", 1100, false).unwrap_err();
    assert!(e.to_string().contains("Look > Pass 0: line 3, column 3: version 1100 has no `Shader` (before 1100 only)"), "{e}");
    let (dropped, diagnostics) = read("Look { Pass { Shader \"x\", static TintColor { 0, 0, 0 }, } }", 800, true)?;
    assert_eq!((dropped.passes[0].shader.clone(), dropped.passes[0].tint, diagnostics), (None, None, 2));
    // A word no value has is an error.
    assert!(read("Look { Pass { Mode Sideways, } }", 1000, false).is_err());
    Ok(())
}
