use format_core::Codec;

#[derive(Codec, Clone, Copy)]
#[format(plain)]
#[repr(C)]
struct Extent {
    #[format(tag = "RADI")]
    radius: f32,
    minimum: [f32; 3],
}

fn main() {}
