use format_core::{Codec, Kept};

#[derive(Codec)]
struct Header {
    #[format(offset(of = body, from = 0))]
    ofs_body: u32,
    body: u32,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
