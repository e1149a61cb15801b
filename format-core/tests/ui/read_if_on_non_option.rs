use format_core::Codec;

#[derive(Codec)]
struct Info {
    #[format(read_if = reader.remaining() >= 4)]
    tail: u32,
}

fn main() {}
