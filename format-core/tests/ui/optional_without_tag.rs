use format_core::Codec;

#[derive(Codec)]
struct Geoset {
    #[format(optional, count = u32)]
    tangents: Option<Vec<[f32; 4]>>,
}

fn main() {}
