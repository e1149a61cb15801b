use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[format(plain, chunk = "EXTN")]
#[repr(C)]
struct Extent {
    radius: f32,
    minimum: [f32; 3],
}

fn main() {}
