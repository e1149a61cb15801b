use format_core::{Codec, Reader, Result};

#[derive(Codec)]
struct UntilEnd {
    #[format(until_end, clamp)]
    values: Vec<u32>,
}

#[derive(Codec)]
struct NotAVec {
    #[format(clamp)]
    value: u32,
}

fn read(r: &mut Reader<'_>) -> Result<Vec<u32>> {
    r.plain_vec(1)
}

#[derive(Codec)]
struct Hooked {
    #[format(count = u32, clamp, read_with = read)]
    values: Vec<u32>,
}

fn main() {}
