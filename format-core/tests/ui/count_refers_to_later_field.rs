use format_core::Codec;

#[derive(Codec)]
struct Track {
    #[format(count = n)]
    keys: Vec<u32>,
    n: u32,
}

fn main() {}
