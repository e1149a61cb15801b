use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[repr(u32)]
enum FilterMode {
    None,
    Blend(u32),
}

fn main() {}
