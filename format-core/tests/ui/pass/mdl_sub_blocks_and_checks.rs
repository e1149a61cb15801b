// `#[derive(Mdl)]`'s sub-blocks, required words and the block check used
// as documented: fields in a `Target { }` sub-block, a shape word a block
// must have, and a check of one field against another once read.
use format_core::mdl::{Block, Cx, Out, Pos, parse};
use format_core::{FixedStr, Mdl, Result};

#[derive(Mdl, Clone, Copy, Debug, PartialEq)]
enum Shape {
    #[mdl(word = "Box")]
    Cube,
    #[mdl(word = "Sphere")]
    Sphere,
}

impl From<Shape> for u32 {
    fn from(s: Shape) -> u32 {
        s as u32
    }
}

#[derive(Mdl, Debug, PartialEq)]
#[mdl(block = "Probe", name = name, check = Probe::check)]
struct Probe {
    name: FixedStr<8>,
    #[mdl(word = "ShapeType", required)]
    shape: Shape,
    #[mdl(list)]
    vertices: Vec<[f32; 3]>,
    #[mdl(key = "Position", within = "Target")]
    target: [f32; 3],
}

impl Probe {
    fn check(&mut self, cx: &Cx, pos: Pos) -> Result<()> {
        let needed = if self.shape == Shape::Sphere { 1 } else { 2 };
        if self.vertices.len() != needed {
            return Err(cx.error(pos, "wrong number of vertices"));
        }
        Ok(())
    }
}

fn main() {
    let probe = Probe {
        name: FixedStr::try_from("p").unwrap(),
        shape: Shape::Sphere,
        vertices: vec![[0.0, 1.0, 2.0]],
        target: [3.0, 4.0, 5.0],
    };
    let mut out = Out::new();
    probe.write_block(&mut out);
    assert!(out.text.contains("\tSphere,\n"), "{}", out.text);
    assert!(out.text.contains("\tTarget {\n\t\tPosition { 3, 4, 5 },\n\t}\n"), "{}", out.text);
    let tree = parse(&out.text).unwrap();
    assert_eq!(Probe::read_block(&tree[0], &mut Cx::new(false)).unwrap(), probe);
    let read = |text: &str| {
        let tree = parse(text).unwrap();
        Probe::read_block(&tree[0], &mut Cx::new(false)).map_err(|e| e.to_string())
    };
    let missing = read("Probe \"p\" { Vertices 1 { { 0, 0, 0 }, }, }").unwrap_err();
    assert!(missing.contains("a Probe needs Box or Sphere"), "{missing}");
    let checked = read("Probe \"p\" { Box, Vertices 1 { { 0, 0, 0 }, }, }").unwrap_err();
    assert!(checked.contains("wrong number of vertices"), "{checked}");
}
