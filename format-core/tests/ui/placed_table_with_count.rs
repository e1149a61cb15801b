use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
#[format(region)]
struct Texture {
    #[format(offset(of = levels, from = 0))]
    offsets: Derived<[u32; 4]>,
    #[format(placed, count = 2)]
    levels: Vec<u8>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
