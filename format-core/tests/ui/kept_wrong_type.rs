use format_core::{Codec, Derived};

#[derive(Codec)]
struct Header {
    #[format(offset(of = body, from = 0))]
    ofs_body: Derived<u32>,
    body: u32,
    #[format(kept)]
    kept: Vec<u32>,
}

fn main() {}
