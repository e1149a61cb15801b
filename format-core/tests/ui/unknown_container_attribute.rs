use format_core::Codec;

#[derive(Codec)]
#[format(chunck = "SEQS")]
struct Sequences {
    count: u32,
}

fn main() {}
