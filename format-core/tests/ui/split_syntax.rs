use format_core::Codec;

#[derive(Codec)]
struct Syntax {
    #[format(count = u32, split(if = true))]
    heads: Vec<u32>,
    tails: Vec<u32>,
}

#[derive(Codec)]
struct Extra {
    #[format(count = u32, split(tails, if = true, more))]
    heads: Vec<u32>,
    tails: Vec<u32>,
}

fn main() {}
