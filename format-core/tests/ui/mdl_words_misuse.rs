use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Spray")]
struct Spray {
    #[mdl(words("Blend", "Blend"))]
    mode: u32,
    #[mdl(words())]
    other: u32,
    #[mdl(words("Head"), static)]
    head: u32,
    #[mdl(words("Add"), list)]
    listed: Vec<u32>,
    #[mdl(words("Squirt"))]
    squirt_mode: u32,
    #[mdl(flags(Squirt = 1))]
    squirt: u32,
    #[mdl(key = "Blend")]
    blend: u32,
}

fn main() {}
