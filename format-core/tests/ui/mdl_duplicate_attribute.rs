use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Marks")]
struct Marks {
    #[mdl(key = "Radius", key = "Size")]
    radius: f32,
}

fn main() {}
