use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Header {
    #[format(offset(of = levels.first(), from = 0))]
    ofs_level: Derived<u32>,
    #[format(count = 2)]
    levels: Vec<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
