use format_core::Codec;

#[derive(Codec)]
#[format(chunk = "PIVT")]
struct Pivots {
    #[format(count = size / 0)]
    points: Vec<[f32; 3]>,
}

fn main() {}
