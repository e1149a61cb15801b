//! The write protocol is one call: `Encode` has no inline/placed phases to
//! call or implement (placed parts are laid out by their region).
use format_core::{Codec, Encode, Writer};

#[derive(Codec)]
struct Plainish {
    a: u32,
    #[format(count = u32)]
    b: Vec<u16>,
}

fn main() {
    let value = Plainish { a: 1, b: vec![2] };
    let mut w = Writer::new();
    let _ = value.encode_inline(&mut w, ());
    let _ = <Plainish as Encode>::PLACES;
}
