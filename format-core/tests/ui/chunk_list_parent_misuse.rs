use format_core::{Codec, CutChunk, UnknownChunk};

// `chunk_list` takes `(parent)` and nothing else.
#[derive(Codec)]
#[format(chunk_list(siblings))]
enum Chunk {
    #[format(chunk = "VERS")]
    Version(u32),
    #[format(cut)]
    Cut(CutChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

fn main() {}
