use format_core::Codec;

#[derive(Codec)]
#[format(magic = "MDLX", chunk = "SEQS")]
struct Model {
    version: u32,
}

fn main() {}
