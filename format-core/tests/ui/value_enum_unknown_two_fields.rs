use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[repr(u32)]
enum Interpolation {
    None = 0,
    Linear = 1,
    #[format(unknown)]
    Other(u32, u32),
}

fn main() {}
