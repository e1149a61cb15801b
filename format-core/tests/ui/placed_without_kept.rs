use format_core::{Codec, Derived};

#[derive(Codec)]
struct Texture {
    #[format(offset(of = level, from = 0))]
    ofs_level: Derived<u32>,
    #[format(placed)]
    level: Option<u32>,
}

fn main() {}
