use format_core::{Codec, CutChunk, UndecodedChunk, UnknownChunk};

#[derive(Codec)]
#[format(chunk_list)]
struct NotAnEnum {
    value: u32,
}

// Neither an unknown nor a cut variant.
#[derive(Codec)]
#[format(chunk_list)]
enum Missing {
    #[format(chunk = "VERS")]
    Version(u32),
}

#[derive(Codec)]
#[format(chunk_list, args(version: u32))]
enum Twice {
    #[format(chunk = "VERS")]
    Version(u32),
    #[format(cut)]
    Cut(CutChunk),
    #[format(cut)]
    AlsoCut(CutChunk),
    #[format(undecoded, if = version > 1)]
    Undecoded(UndecodedChunk),
    #[format(unknown, after_chunk)]
    Unknown(UnknownChunk),
}

fn main() {}
