use format_core::{Codec, Derived};

#[derive(Codec)]
struct Track {
    #[format(calc = keys.len(), tag = "KEYS")]
    count: Derived<u32>,
    #[format(count = count)]
    keys: Vec<u32>,
}

fn main() {}
