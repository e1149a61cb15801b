use format_core::{Codec, CutChunk, UndecodedChunk, UnknownChunk};

// `cut`, `undecoded` and `after_chunk` belong to a `chunk_list` enum.
#[derive(Codec)]
enum Plain {
    #[format(chunk = "VERS", after_chunk)]
    Version(u32),
    #[format(cut)]
    Cut(CutChunk),
    #[format(undecoded)]
    Undecoded(UndecodedChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

#[derive(Codec)]
#[format(chunk_list)]
enum TwoRoles {
    #[format(cut, tag = "CUTT")]
    Cut(CutChunk),
    #[format(unknown)]
    Unknown(UnknownChunk),
}

fn main() {}
