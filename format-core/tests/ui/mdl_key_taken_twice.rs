use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Light")]
struct Light {
    #[mdl(key = "AmbColor", alias = "AmbientColor")]
    ambient_color: [f32; 3],
    #[mdl(key = "AmbientColor")]
    other: [f32; 3],
}

fn main() {}
