use format_core::{Codec, UnknownChunk};

#[derive(Codec)]
enum Chunk {
    #[format(chunk = "GEOS")]
    Geosets(u32),
    #[format(not_read, if = version > 800)]
    Built(UnknownChunk),
}

fn main() {}
