use format_core::Codec;

#[derive(Codec)]
#[format(chunk = "PIVT")]
struct Pivots {
    #[format(count = size / 12)]
    points: Vec<[f32; 3]>,
    extra: u32,
}

fn main() {}
