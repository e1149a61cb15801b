// `#[derive(Mdl)]`'s words by number, arrays in a sub-block, a flags
// field with its own key for the bits no word names, and a bit another
// statement says, used as documented.
use format_core::mdl::{Block, Cx, Out, Stmt, TrackSet, parse};
use format_core::{Mdl, Result, UnknownTail};

/// A `Tint n { frame: r, g, b }` track, or an unknown tail.
#[derive(Clone, Debug, PartialEq)]
enum Tracks {
    Tint(i32),
    Unknown(UnknownTail),
}

impl TrackSet for Tracks {
    fn write(&self, out: &mut Out) {
        match self {
            Tracks::Tint(frame) => {
                out.open("Tint 1");
                out.field(&format!("{frame}:"), &[1.0f32, 1.0, 1.0]);
                out.close();
            }
            Tracks::Unknown(tail) => format_core::mdl::write_tail_as(out, Self::TAIL, tail),
        }
    }

    fn keyword(&self) -> Option<&'static str> {
        match self {
            Tracks::Tint(_) => Some("Tint"),
            Tracks::Unknown(_) => None,
        }
    }

    fn read(stmt: &Stmt, cx: &mut Cx) -> Option<Result<Self>> {
        (stmt.key().1 == "Tint").then(|| {
            let (_, body) = stmt.block(cx)?;
            let frame = match body.first().and_then(|s| s.items.first()) {
                Some(item) => format_core::mdl::Value::read(item, cx)?,
                None => 0,
            };
            Ok(Tracks::Tint(frame))
        })
    }

    fn tail(tail: UnknownTail) -> Self {
        Tracks::Unknown(tail)
    }
}

#[derive(Mdl, Debug, PartialEq)]
#[mdl(block = "Spray")]
struct Spray {
    /// `Blend,` is 0, `Add,` 1; other numbers are `ExtMode n`.
    #[mdl(words("Blend", "Add"), key = "ExtMode")]
    mode: u32,
    /// `Squirt,` is 1; other values are `ExtSquirt n`.
    #[mdl(flags(Squirt = 1), key = "ExtSquirt")]
    squirt: u32,
    /// `Shadow,` is 1; 2 is said by `static Tint` or a `Tint` track
    /// (`Tinted,` still reads).
    #[mdl(flags(Shadow = 1, Tinted = 2))]
    flags: u32,
    #[mdl(static, rgb, key = "Tint", default = [1.0; 3], says(flags = 2))]
    tint: [f32; 3],
    #[mdl(rgb, array = "Color")]
    colors: [[f32; 3]; 2],
    #[mdl(tracks)]
    tracks: Vec<Tracks>,
}

fn write(spray: &Spray) -> String {
    let mut out = Out::new();
    spray.write_block(&mut out);
    out.text
}

fn read(text: &str) -> std::result::Result<Spray, String> {
    let tree = parse(text).map_err(|e| e.to_string())?;
    Spray::read_block(&tree[0], &mut Cx::new(false)).map_err(|e| e.to_string())
}

fn main() {
    let spray = Spray {
        mode: 1,
        squirt: 1,
        flags: 3,
        tint: [1.0; 3],
        colors: [[0.0, 0.5, 1.0], [1.0, 0.0, 0.0]],
        tracks: Vec::new(),
    };
    let text = write(&spray);
    assert!(text.contains("\tAdd,\n\tSquirt,\n\tShadow,\n"), "{text}");
    // The flag has no word: `static Tint` says it, white as it is.
    assert!(!text.contains("Tinted") && text.contains("static Tint { 1, 1, 1 },"), "{text}");
    // Colours are written red, green, blue over the stored blue, green, red.
    assert!(
        text.contains("\tColors {\n\t\tColor { 1, 0.5, 0 },\n\t\tColor { 0, 0, 1 },\n\t}\n"),
        "{text}"
    );
    assert_eq!(read(&text).unwrap(), spray);

    // Numbers no word has, and a track that says the bit instead.
    let odd = Spray {
        mode: 7,
        squirt: 2,
        flags: 2,
        tracks: vec![Tracks::Tint(10)],
        ..spray
    };
    let text = write(&odd);
    assert!(text.contains("ExtMode 7,") && text.contains("ExtSquirt 2,"), "{text}");
    assert!(!text.contains("static Tint") && !text.contains("ExtFlags"), "{text}");
    assert_eq!(read(&text).unwrap(), odd);

    // `ExtFlags` gives the flags whatever the statements say.
    let none = Spray { flags: 0, ..odd };
    let text = write(&none);
    assert!(text.contains("ExtFlags 0,"), "{text}");
    assert_eq!(read(&text).unwrap(), none);

    // The bit's word, read only, and its default.
    let old = read("Spray { Tinted, Colors { Color { 0, 0, 0 }, Color { 0, 0, 0 }, }, }").unwrap();
    assert_eq!((old.flags, old.mode, old.tint), (2, 0, [1.0; 3]));

    // An array of the wrong length, a word with a value, a stray entry.
    let short = read("Spray { Colors { Color { 0, 0, 0 }, }, }").unwrap_err();
    assert!(short.contains("Colors needs 2 `Color`, found 1"), "{short}");
    let valued = read("Spray { Add 1, }").unwrap_err();
    assert!(valued.contains("line 1"), "{valued}");
    let stray = read("Spray { Colors { Colour { 0, 0, 0 }, }, }").unwrap_err();
    assert!(stray.contains("Colour"), "{stray}");
}
