use format_core::Codec;

#[derive(Codec)]
struct Words {
    size: u32,
    #[format(count = size / 4)]
    words: Vec<u32>,
}

fn main() {}
