use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Header {
    #[format(offset(of = body, from = 0))]
    offsets: Derived<[u32; 4]>,
    body: u32,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
