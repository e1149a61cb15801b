use format_core::Codec;

#[derive(Codec)]
#[format(chunk = "SEQ")]
struct Sequences {
    count: u32,
}

fn main() {}
