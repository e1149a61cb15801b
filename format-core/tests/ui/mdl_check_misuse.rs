use format_core::Mdl;

#[derive(Mdl, Clone, Copy, PartialEq)]
#[mdl(check = settle)]
enum Shape {
    #[mdl(word = "Box")]
    Cube,
}

impl From<Shape> for u32 {
    fn from(_: Shape) -> u32 {
        0
    }
}

#[derive(Mdl)]
#[mdl(block = "Shape", check = "settle")]
struct Quoted {
    radius: f32,
}

#[derive(Mdl)]
#[mdl(block = "Shape", check = settle, check = settle)]
struct Twice {
    #[mdl(list, required)]
    vertices: Vec<[f32; 3]>,
}

fn settle<T>(_: &mut T, _: &format_core::mdl::Cx, _: format_core::mdl::Pos) -> format_core::Result<()> {
    Ok(())
}

fn main() {}
