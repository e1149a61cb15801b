use format_core::{Codec, Kept};

#[derive(Codec)]
struct Header {
    flags: u32,
    #[format(kept)]
    kept: Kept,
    #[format(kept)]
    again: Kept,
}

fn main() {}
