use format_core::Codec;

#[derive(Codec)]
#[format(crate = "format_core + 1")]
struct Header {
    flags: u32,
}

fn main() {}
