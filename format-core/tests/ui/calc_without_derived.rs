use format_core::Codec;

#[derive(Codec)]
struct Track {
    #[format(calc = 1)]
    x: u32,
}

fn main() {}
