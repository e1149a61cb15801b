use format_core::Codec;

#[derive(Codec)]
#[format(repr = String)]
enum Mode {
    A,
    B,
}

fn main() {}
