use format_core::Codec;

#[derive(Codec)]
enum Chunk {
    Version(u32),
}

fn main() {}
