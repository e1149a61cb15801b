use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Header {
    #[format(size(of = body))]
    size_body: Derived<[u16; 2]>,
    #[format(count = 2)]
    body: Vec<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
