use format_core::Codec;

#[derive(Codec)]
#[format(region)]
enum Chunk {
    #[format(tag = "VERS")]
    Version(u32),
}

fn main() {}
