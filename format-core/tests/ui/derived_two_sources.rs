use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Header {
    #[format(calc = 8, offset(of = body, from = 0))]
    ofs_body: Derived<u32>,
    body: u32,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
