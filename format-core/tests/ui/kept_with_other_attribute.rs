use format_core::{Codec, Kept};

#[derive(Codec)]
struct Header {
    flags: u32,
    #[format(kept, tag = "KEEP")]
    kept: Kept,
}

fn main() {}
