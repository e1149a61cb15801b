use format_core::Codec;

#[derive(Codec)]
struct Geoset {
    #[format(count = u32)]
    vertex_count: u32,
    #[format(if = version > 800)]
    emissive_gain: f32,
    faces: Vec<u16>,
}

fn main() {}
