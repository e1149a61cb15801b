use format_core::Codec;

#[derive(Codec)]
struct NoCount {
    #[format(until_end, split(tails))]
    heads: Vec<u32>,
    tails: Vec<u32>,
}

#[derive(Codec)]
struct NoSuchField {
    #[format(count = u32, split(missing))]
    heads: Vec<u32>,
}

#[derive(Codec)]
struct TailsFirst {
    tails: Vec<u32>,
    #[format(count = u32, split(tails))]
    heads: Vec<u32>,
}

#[derive(Codec)]
struct TailsWithAttribute {
    #[format(count = u32, split(tails))]
    heads: Vec<u32>,
    #[format(count = u32)]
    tails: Vec<u32>,
}

#[derive(Codec)]
struct TailsNotVec {
    #[format(count = u32, split(tails))]
    heads: Vec<u32>,
    tails: u32,
}

#[derive(Codec)]
struct WithClamp {
    #[format(count = u32, split(tails), clamp)]
    heads: Vec<u32>,
    tails: Vec<u32>,
}

fn main() {}
