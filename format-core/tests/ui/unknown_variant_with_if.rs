use format_core::{Codec, UnknownChunk};

#[derive(Codec)]
enum Chunk {
    #[format(tag = "VERS")]
    Version(u32),
    #[format(unknown, if = version > 800)]
    Unknown(UnknownChunk),
}

fn main() {}
