use format_core::{Codec, Kept};

#[derive(Codec)]
#[format(region)]
struct Texture {
    width: u32,
    #[format(placed)]
    level: Option<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
