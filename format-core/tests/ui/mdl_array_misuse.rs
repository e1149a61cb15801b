use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Spray")]
struct Spray {
    #[mdl(array = "Color")]
    colors: Vec<[f32; 3]>,
    #[mdl(array = "Color", static)]
    statics: [[f32; 3]; 3],
    #[mdl(array = "Two Words")]
    spaced: [u32; 2],
    #[mdl(array = "Color", optional)]
    optional: Option<[u32; 2]>,
}

fn main() {}
