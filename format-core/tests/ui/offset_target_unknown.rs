use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Header {
    #[format(offset(of = chunks["MCVT"], from = start))]
    ofs_height: Derived<u32>,
    #[format(size(of = levels))]
    size_levels: Derived<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
