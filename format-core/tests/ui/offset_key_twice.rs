use format_core::{Codec, Derived, Kept};

// A second `of` (or `from`, or `body`) would silently replace the first.
#[derive(Codec)]
#[format(region)]
struct Header {
    #[format(offset(of = first, of = second, from = 0))]
    ofs: Derived<u32>,
    #[format(offset(of = second, from = 0, from = start))]
    ofs_second: Derived<u32>,
    #[format(size(of = first, body, body))]
    size_first: Derived<u32>,
    #[format(placed)]
    first: Option<u32>,
    #[format(placed)]
    second: Option<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
