use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
struct Cell {
    #[format(offset(of = height["HGHT"], from = start))]
    ofs_height: Derived<u32>,
    height: u32,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
