use format_core::{Codec, UnknownChunk};

#[derive(Codec)]
enum Chunk {
    #[format(tag = "VERS")]
    Version(u32),
    #[format(unknown)]
    Unknown(UnknownChunk),
    #[format(unknown)]
    Other(UnknownChunk),
}

fn main() {}
