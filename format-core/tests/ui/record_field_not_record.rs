use format_core::Codec;

#[derive(Codec)]
#[format(chunk = "NAME")]
struct Name {
    #[format(count = u32)]
    bytes: Vec<u8>,
}

// A record's fields each have a fixed size.
#[derive(Codec)]
#[format(record)]
struct Key {
    frame: i32,
    name: Name,
}

fn main() {}
