use format_core::{Codec, Derived, Kept};

#[derive(Codec)]
#[format(chunk = "STRT")]
struct Strings {
    a: u32,
    #[format(offset(of = blob, from = start))]
    ofs_blob: Derived<u32>,
    #[format(placed)]
    blob: Option<u32>,
    #[format(kept)]
    kept: Kept,
}

fn main() {}
