use format_core::Codec;

#[derive(Codec)]
struct Tracks {
    #[format(tagged)]
    values: Vec<u32>,
}

fn main() {}
