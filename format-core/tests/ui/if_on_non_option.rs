use format_core::Codec;

#[derive(Codec)]
struct Layer {
    #[format(if = version > 800)]
    x: u32,
}

fn main() {}
