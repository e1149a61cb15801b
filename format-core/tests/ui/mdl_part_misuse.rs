use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Marks")]
struct Marks {
    #[mdl(tail)]
    radius: f32,
}

#[derive(Mdl)]
#[mdl(block = "Two")]
struct Two {
    #[mdl(part)]
    first: u32,
    #[mdl(part, default = 1)]
    second: u32,
}

fn main() {}
