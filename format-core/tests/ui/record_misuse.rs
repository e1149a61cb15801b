use format_core::Codec;

// `record` on an enum, framing on a record, and attributes on its fields.
#[derive(Codec)]
#[format(record)]
enum NotAStruct {
    #[format(tag = "AAAA")]
    A(u32),
}

#[derive(Codec)]
#[format(record, chunk = "KEYS")]
struct Framed {
    #[format(if = true)]
    value: Option<u32>,
}

fn main() {}
