use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Header {
    #[format(size(of = body, from = 0))]
    size_body: Derived<u32>,
    body: u32,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
