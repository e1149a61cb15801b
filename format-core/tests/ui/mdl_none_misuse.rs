use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Bone")]
struct Bone {
    #[mdl(none("Multiple"), static)]
    geoset_id: u32,
    #[mdl(none())]
    geoset_animation_id: u32,
}

fn main() {}
