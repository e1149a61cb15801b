use format_core::Codec;

#[derive(Codec)]
struct Layer {
    x: Option<u32>,
}

fn main() {}
