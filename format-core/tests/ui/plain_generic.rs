use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[format(plain)]
#[repr(C)]
struct Pair<T> {
    a: T,
    b: T,
}

fn main() {}
