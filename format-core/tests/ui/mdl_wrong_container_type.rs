use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Marks")]
struct Marks {
    #[mdl(optional)]
    radius: f32,
    #[mdl(list)]
    points: [f32; 3],
    #[mdl(since = 1200)]
    shadow: f32,
}

fn main() {}
