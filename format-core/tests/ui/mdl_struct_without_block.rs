use format_core::Mdl;

#[derive(Mdl)]
struct Marks {
    radius: f32,
}

fn main() {}
