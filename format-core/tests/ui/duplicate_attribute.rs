use format_core::Codec;

#[derive(Codec)]
struct Vertices {
    #[format(tag = "ABCD", tag = "EFGH", count = u32)]
    vertices: Vec<u32>,
}

fn main() {}
