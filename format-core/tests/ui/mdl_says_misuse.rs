use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Anim")]
struct Anim {
    #[mdl(flags(DropShadow = 1))]
    flags: u32,
    #[mdl(flags(Squirt = 1))]
    squirt: u32,
    #[mdl(static, says(alpha = 2))]
    color: [f32; 3],
    alpha: f32,
    #[mdl(list, says(flags = 2))]
    listed: Vec<u32>,
    #[mdl(says(flags))]
    bare: u32,
    #[mdl(says(flags = 2), nonzero)]
    nonzero: u32,
    #[mdl(numbered)]
    numbered: u32,
}

fn main() {}
