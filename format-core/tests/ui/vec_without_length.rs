use format_core::Codec;

#[derive(Codec)]
struct Faces {
    v: Vec<u32>,
}

fn main() {}
