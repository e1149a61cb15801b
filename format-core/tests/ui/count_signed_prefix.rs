use format_core::Codec;

#[derive(Codec)]
struct List {
    #[format(count = i32)]
    items: Vec<u32>,
}

fn main() {}
