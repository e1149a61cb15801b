use format_core::Codec;

#[derive(Codec)]
struct Header {
    #[format(count = u32)]
    x: u32,
}

fn main() {}
