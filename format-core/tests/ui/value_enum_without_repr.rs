use format_core::Codec;

#[derive(Codec, Clone, Copy)]
enum FilterMode {
    None,
    Transparent,
    Blend,
}

fn main() {}
