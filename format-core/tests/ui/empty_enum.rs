use format_core::Codec;

#[derive(Codec)]
enum Nothing {}

fn main() {}
