use format_core::Codec;

#[derive(Codec)]
#[format(args(kind: u8))]
enum Vertex {
    #[format(when = kind == 0)]
    Depth(u8, u8),
    #[format(when = kind == 1)]
    Height(f32),
}

fn main() {}
