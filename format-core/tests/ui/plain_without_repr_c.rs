use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[format(plain)]
struct Extent {
    radius: f32,
    minimum: [f32; 3],
}

fn main() {}
