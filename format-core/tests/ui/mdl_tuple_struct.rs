use format_core::Mdl;

#[derive(Mdl)]
#[mdl(block = "Marks")]
struct Marks(f32);

fn main() {}
