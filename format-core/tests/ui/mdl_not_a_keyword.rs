use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "My Block")]
struct Marks {
    #[mdl(key = "")]
    radius: f32,
}

fn main() {}
