use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[format(plain)]
#[repr(C)]
struct Padded {
    a: u8,
    b: u32,
}

fn main() {}
