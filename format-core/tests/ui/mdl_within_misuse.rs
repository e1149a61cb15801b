use format_core::{FixedStr, Mdl};

#[derive(Mdl)]
#[mdl(block = "Camera", name = name)]
struct Camera {
    #[mdl(within = "Target")]
    name: FixedStr<8>,
    position: [f32; 3],
    // The same key in another block is another statement: no error.
    #[mdl(key = "Position", within = "Target")]
    target: [f32; 3],
    // Twice in one sub-block: the reader could not tell them apart.
    #[mdl(key = "Position", within = "Target")]
    again: [f32; 3],
    // A sub-block's keyword that is a key of the block.
    #[mdl(within = "Position")]
    inside: f32,
    // Only what is read by its key goes in a sub-block.
    #[mdl(skip, within = "Target")]
    cache: u32,
    #[mdl(within = "Not a block")]
    spaced: f32,
}

fn main() {}
