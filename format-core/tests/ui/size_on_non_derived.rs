use format_core::{Codec, Kept};

#[derive(Codec)]
struct Header {
    #[format(size(of = body))]
    size_body: u32,
    body: u32,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
