use format_core::Codec;

#[derive(Codec)]
struct Info {
    #[format(skip, tag = "ABCD")]
    note: u32,
}

fn main() {}
