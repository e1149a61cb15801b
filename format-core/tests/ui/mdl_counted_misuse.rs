use format_core::{FixedStr, Mdl};

#[derive(Mdl)]
#[mdl(block = "Bitmap")]
struct Bitmap {
    image: FixedStr<8>,
}

#[derive(Mdl)]
#[mdl(block = "Textures", name = name)]
struct Textures {
    name: FixedStr<8>,
    #[mdl(items)]
    textures: Vec<Bitmap>,
    #[mdl(each = "Duration")]
    durations: Vec<u32>,
}

#[derive(Mdl)]
#[mdl(block = "PivotPoints")]
struct Pivots {
    #[mdl(values)]
    points: Vec<[f32; 3]>,
    // Beside the values, a plain keyed value reads; a list would not.
    radius: f32,
    #[mdl(list)]
    radii: Vec<f32>,
}

fn main() {}
