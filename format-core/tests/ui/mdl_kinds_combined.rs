use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Marks")]
struct Marks {
    #[mdl(list, optional)]
    points: Vec<[f32; 3]>,
    #[mdl(list, static)]
    sizes: Vec<f32>,
    #[mdl(skip, key = "Gone")]
    gone: u32,
}

fn main() {}
