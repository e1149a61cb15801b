use format_core::Codec;

#[derive(Codec)]
#[format(repr = u32)]
struct Header {
    version: u32,
}

fn main() {}
