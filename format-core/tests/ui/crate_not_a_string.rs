use format_core::Codec;

#[derive(Codec)]
#[format(crate = format_core)]
struct Header {
    flags: u32,
}

fn main() {}
