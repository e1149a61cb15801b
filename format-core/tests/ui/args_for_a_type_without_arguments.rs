use format_core::{Codec, FixedStr};

#[derive(Codec)]
struct Named {
    n: u32,
    #[format(args(n))]
    name: FixedStr<8>,
}

fn main() {}
