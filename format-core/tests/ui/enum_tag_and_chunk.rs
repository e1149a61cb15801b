use format_core::Codec;

#[derive(Codec)]
enum Chunk {
    #[format(tag = "KGTR", chunk = "GEOS")]
    Geosets(u32),
}

fn main() {}
