use format_core::{Codec, CutChunk, UnknownChunk};

#[derive(Codec)]
#[format(chunk = "LITE")]
struct Lights {
    count: u32,
}

#[derive(Codec)]
#[format(chunk_list)]
enum Chunk {
    #[format(after_chunk)]
    Lights(Lights),
    #[format(cut)]
    Cut(CutChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

fn main() {}
