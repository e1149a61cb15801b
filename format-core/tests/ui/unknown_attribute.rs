use format_core::Codec;

#[derive(Codec)]
struct Points {
    #[format(cnt = u32)]
    points: Vec<u32>,
}

fn main() {}
