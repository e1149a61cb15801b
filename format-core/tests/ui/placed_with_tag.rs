use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
#[format(region)]
struct Texture {
    #[format(offset(of = level, from = 0))]
    ofs_level: Derived<u32>,
    #[format(placed, tag = "LEVL")]
    level: Option<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
