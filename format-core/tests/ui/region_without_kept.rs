use format_core::Codec;

#[derive(Codec)]
#[format(region)]
struct Texture {
    width: u32,
}

fn main() {}
