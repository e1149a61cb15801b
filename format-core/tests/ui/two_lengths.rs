use format_core::Codec;

#[derive(Codec)]
struct Faces {
    #[format(count = u32, until_end)]
    v: Vec<u32>,
}

fn main() {}
