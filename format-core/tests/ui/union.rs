use format_core::Codec;

#[derive(Codec)]
union Value {
    int: u32,
    float: f32,
}

fn main() {}
