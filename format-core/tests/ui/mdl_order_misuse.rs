use format_core::{FixedStr, Mdl};

#[derive(Mdl)]
#[mdl(block = "Bitmap", name = name, order(path, path, name, nothing))]
struct Bitmap {
    name: FixedStr<8>,
    path: FixedStr<8>,
    flags: u32,
}

fn main() {}
