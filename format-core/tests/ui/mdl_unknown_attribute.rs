use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Marks", colour = "red")]
struct Marks {
    #[mdl(static, keyword = "Radius")]
    radius: f32,
}

fn main() {}
