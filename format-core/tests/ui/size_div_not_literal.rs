use format_core::Codec;

const STRIDE: usize = 4;

#[derive(Codec)]
#[format(chunk = "PIVT")]
struct Pivots {
    #[format(count = size / STRIDE)]
    pivots: Vec<u32>,
}

fn main() {}
