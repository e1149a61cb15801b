use format_core::{Codec, Derived};

#[derive(Codec)]
struct Track {
    x: Derived<u32>,
}

fn main() {}
