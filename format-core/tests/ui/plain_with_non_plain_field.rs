use format_core::Codec;

/// A field of a plain struct must be plain itself. `bool` is `Copy` and the
/// struct has no padding, but not every byte is a `bool`: it is refused at
/// the field.
#[derive(Codec, Clone, Copy)]
#[format(plain)]
#[repr(C)]
struct Flags {
    count: u32,
    on: bool,
    pad: [u8; 3],
}

fn main() {}
