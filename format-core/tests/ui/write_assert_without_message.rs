use format_core::Codec;

#[derive(Codec)]
struct Info {
    #[format(count = u32, write_assert(values.len() < 10))]
    values: Vec<u32>,
}

fn main() {}
